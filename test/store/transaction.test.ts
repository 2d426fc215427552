import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, createDb, type Db, inTransaction, sqlFor, type Tx } from "../../src/store/db.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

/**
 * `inTransaction` (src/store/db.ts): our own BEGIN/COMMIT, with the query builder's statements
 * routed down the same connection as the raw ones.
 */
describe("transactions of our own", () => {
  let database: TestDatabase;
  let db: Db;
  let tableId: number;

  const names = async () =>
    (await database.query<{ name: string }>("SELECT name FROM character ORDER BY name")).map((r) => r.name);
  const character = (tx: Tx, name: string) =>
    tx.character.create({ data: { tableId, name, nameKey: name.toLowerCase() } });

  beforeAll(async () => {
    database = await createTestDatabase();
    // A small pool: a connection that is not given back would make the later tests time out.
    db = createDb(database.url, { poolSize: 2 });
    const [row] = await database.query<{ id: number }>(
      "INSERT INTO game_table (guild_id, channel_id, active_channel_id, system, gm_user_id) VALUES ('1', '2', '2', 'fate', '3') RETURNING id",
    );
    tableId = row!.id;
  });
  afterAll(async () => {
    await closeDb(db);
    await database.drop();
  });

  it("commits raw and query-builder statements together, or rolls both back", async () => {
    await inTransaction(db, async (tx) => {
      await character(tx, "Kept");
      await sqlFor(tx).run`UPDATE "character" SET fate_points = 2 WHERE name = 'Kept'`;
      // Both are visible inside, before the commit.
      expect((await tx.character.findFirst({ where: { name: "Kept" } }))?.fatePoints).toBe(2);
    });
    const failed = inTransaction(db, async (tx) => {
      await character(tx, "Lost");
      await sqlFor(tx).run`UPDATE "character" SET fate_points = 5 WHERE name = 'Kept'`;
      throw new Error("refused midway");
    });
    await expect(failed).rejects.toThrow("refused midway");
    expect(await names()).toEqual(["Kept"]);
    expect(await database.query("SELECT fate_points FROM character")).toEqual([{ fate_points: 2 }]);
  });

  it("turns a transaction Prisma opens by itself inside into a savepoint", async () => {
    await inTransaction(db, async (tx) => {
      const nested = (tx as unknown as Db).$transaction(async (inner) => {
        await character(inner, "Inner");
        throw new Error("inner fails");
      });
      await expect(nested).rejects.toThrow("inner fails");
      // Only the savepoint was rolled back: the outer transaction goes on.
      await character(tx, "Outer");
      await (tx as unknown as Db).$transaction(async (inner) => character(inner, "Inner kept"));
    });
    expect(await names()).toEqual(["Inner kept", "Kept", "Outer"]);
  });

  it("keeps concurrent transactions apart, even for lookups Prisma would batch into one statement", async () => {
    let arrived = 0;
    let allCreated: () => void = () => {};
    const barrier = new Promise<void>((resolve) => {
      allCreated = resolve;
    });
    const runs = Array.from({ length: 2 }, (_, i) =>
      inTransaction(db, async (tx) => {
        const created = await character(tx, `Solo ${i}`);
        if (++arrived === 2) allCreated();
        await barrier;
        // Each transaction must see its own uncommitted row, looked up in the same tick as the other.
        const seen = await tx.character.findUnique({ where: { id: created.id } });
        return seen?.name;
      }),
    );
    expect(await Promise.all(runs)).toEqual(["Solo 0", "Solo 1"]);
  });

  it("gives every connection back, whether the work commits, throws or the database refuses it", async () => {
    for (let i = 0; i < 6; i++) {
      await inTransaction(db, async (tx) => sqlFor(tx).one`SELECT 1 AS one`);
      await inTransaction(db, async () => {
        throw new Error("no");
      }).catch(() => {});
      await inTransaction(db, async (tx) => sqlFor(tx).run`SELECT 1 / 0`).catch(() => {});
    }
    // Outside a transaction the pool is used as before.
    expect(await sqlFor(db).one<{ one: number }>`SELECT 1 AS one`).toEqual({ one: 1 });
  });

  it("survives its connection being killed mid-transaction: that work fails, nothing is committed, the connection is not reused", async () => {
    const errors: Error[] = [];
    const watched = createDb(database.url, { poolSize: 1, onConnectionError: (e) => errors.push(e) });
    try {
      const killed = inTransaction(watched, async (tx) => {
        await character(tx, "Half done");
        const [me] = await sqlFor(tx).rows<{ pid: number }>`SELECT pg_backend_pid() AS pid`;
        // What a PostgreSQL restart (or an administrator) does to a busy connection.
        await database.query("SELECT pg_terminate_backend($1)", [me!.pid]);
        await sqlFor(tx).run`SELECT pg_sleep(0.05)`;
      });
      await expect(killed).rejects.toThrow(/terminating connection|Connection terminated|not queryable/);
      expect(errors.length).toBeGreaterThan(0);
      expect(await names()).not.toContain("Half done");
      // The only connection of the pool was the killed one: the next transaction gets a fresh one.
      const pid = await inTransaction(
        watched,
        async (tx) => sqlFor(tx).one<{ pid: number }>`SELECT pg_backend_pid() AS pid`,
      );
      expect(pid?.pid).toBeGreaterThan(0);
    } finally {
      await closeDb(watched);
    }
  });
});
