import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closeDb,
  createDb,
  type Db,
  inTransaction,
  isDatabaseUnavailable,
  type OpeningRead,
  outsideTransaction,
  sqlFor,
  type Tx,
} from "../../src/store/db.js";
import { literalSql, tablesWrittenBy } from "../../src/store/sql.js";
import { archiveTable, setTableLanguage } from "../../src/store/tables.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { recordSentStatements } from "../support/sent-statements.js";

/**
 * `inTransaction` and `Tx` (src/store/db.ts): our own BEGIN/COMMIT on one connection, passed down
 * explicitly; every statement of the work goes through that `tx`.
 */
describe("transactions of our own", () => {
  let database: TestDatabase;
  let db: Db;
  let tableId: number;

  const names = async () =>
    (await database.query<{ name: string }>("SELECT name FROM character ORDER BY name")).map((r) => r.name);
  const character = (tx: Tx, name: string) =>
    sqlFor(tx).one<{ id: number }>`
      INSERT INTO "character" (table_id, name, name_key) VALUES (${tableId}, ${name}, ${name.toLowerCase()}) RETURNING id`;
  const backendPid = async (tx: Db | Tx) =>
    (await sqlFor(tx).one<{ pid: number }>`SELECT pg_backend_pid() AS pid`)!.pid;

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

  it("sends every statement of the work down one connection, and commits them together or rolls all back", async () => {
    await inTransaction(db, async (tx) => {
      const pid = await backendPid(tx);
      await character(tx, "Kept");
      await sqlFor(tx).run`UPDATE "character" SET fate_points = 2 WHERE name = 'Kept'`;
      // Visible inside, before the commit, and invisible to everyone else until then.
      expect(
        (await tx.sql().one<{ fatePoints: number }>`SELECT fate_points FROM "character" WHERE name = 'Kept'`)
          ?.fatePoints,
      ).toBe(2);
      expect(await names()).toEqual([]);
      for (let i = 0; i < 5; i++) expect(await backendPid(tx)).toBe(pid);
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

  it("rolls a savepoint back alone: the transaction goes on and commits the rest", async () => {
    await inTransaction(db, async (tx) => {
      const inner = tx.savepoint(async () => {
        await character(tx, "Inner");
        throw new Error("inner fails");
      });
      await expect(inner).rejects.toThrow("inner fails");
      await character(tx, "Outer");
      expect(await tx.savepoint(async () => (await character(tx, "Inner kept"))?.id)).toBeGreaterThan(0);
      // A statement the database refuses inside a savepoint spoils only the savepoint.
      await expect(tx.savepoint(() => sqlFor(tx).run`SELECT 1 / 0`)).rejects.toThrow(/division by zero/);
      await character(tx, "After the refusal");
    });
    expect(await names()).toEqual(["After the refusal", "Inner kept", "Kept", "Outer"]);
    // Outside a transaction there is nothing to roll back to.
    await expect(outsideTransaction(db).savepoint(async () => 1)).rejects.toThrow(/needs a transaction/);
  });

  it("keeps concurrent transactions apart: each sees its own uncommitted rows", async () => {
    const meeting = () => {
      let arrived = 0;
      let release: () => void = () => {};
      const all = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        if (++arrived === 2) release();
        return all;
      };
    };
    const created = meeting();
    const read = meeting();
    const runs = Array.from({ length: 2 }, (_, i) =>
      inTransaction(db, async (tx) => {
        await character(tx, `Solo ${i}`);
        await created();
        // Looked up in the same tick as the other transaction's lookup, neither committed yet.
        const seen = await sqlFor(tx).rows<{ name: string }>`
          SELECT name FROM "character" WHERE name LIKE 'Solo %' ORDER BY name`;
        await read();
        return seen.map((r) => r.name);
      }),
    );
    expect(await Promise.all(runs)).toEqual([["Solo 0"], ["Solo 1"]]);
  });

  it("refuses a statement sent through a transaction's tx after it ended, instead of sending it elsewhere", async () => {
    let kept: Tx | undefined;
    await inTransaction(db, async (tx) => {
      kept = tx;
    });
    await expect(sqlFor(kept!).run`SELECT 1`).rejects.toThrow(/after its transaction ended/);
  });

  it("notes the game_table rows a transaction writes through the table store (for the table cache)", async () => {
    const [other] = await database.query<{ id: number }>(
      "INSERT INTO game_table (guild_id, channel_id, active_channel_id, system, gm_user_id) VALUES ('1', '9', '9', 'fate', '3') RETURNING id",
    );
    const noted = await inTransaction(db, async (tx) => {
      expect([...tx.tablesWritten]).toEqual([]);
      await setTableLanguage(tx, tableId, "ru");
      await archiveTable(tx, other!.id, new Date());
      return [...tx.tablesWritten];
    });
    expect(noted.sort()).toEqual([tableId, other!.id].sort());
    expect(await database.query("SELECT language FROM game_table WHERE id = $1", [tableId])).toEqual([
      { language: "ru" },
    ]);
    // A fresh transaction starts with nothing noted.
    expect(await inTransaction(db, async (tx) => tx.tablesWritten.size)).toBe(0);
  });

  it("gives every connection back, whether the work commits, throws or the database refuses it", async () => {
    for (let i = 0; i < 6; i++) {
      await inTransaction(db, async (tx) => sqlFor(tx).one`SELECT 1 AS one`);
      await inTransaction(db, async () => {
        throw new Error("no");
      }).catch(() => {});
      await inTransaction(db, async (tx) => sqlFor(tx).run`SELECT 1 / 0`).catch(() => {});
    }
    // Outside a transaction the pool is used, each statement on its own.
    expect(await sqlFor(db).one<{ one: number }>`SELECT 1 AS one`).toEqual({ one: 1 });
    expect(await sqlFor(outsideTransaction(db)).one<{ one: number }>`SELECT 1 AS one`).toEqual({ one: 1 });
  });

  it("survives its connection being killed mid-transaction: that work fails, nothing is committed, the connection is not reused", async () => {
    const errors: Error[] = [];
    const watched = createDb(database.url, { poolSize: 1, onConnectionError: (e) => errors.push(e) });
    try {
      let killedPid = 0;
      const killed = inTransaction(watched, async (tx) => {
        await character(tx, "Half done");
        killedPid = await backendPid(tx);
        // What a PostgreSQL restart (or an administrator) does to a busy connection; waits until it is gone.
        await database.query("SELECT pg_terminate_backend($1, 5000)", [killedPid]);
        await sqlFor(tx).run`SELECT pg_sleep(0.05)`;
      });
      // Which error depends on what the client sees first: the server's goodbye, the closed socket
      // (EPIPE over a Unix socket) or its own "not queryable"; each is an unavailable database.
      await expect(killed).rejects.toSatisfy(isDatabaseUnavailable);
      expect(errors.length).toBeGreaterThan(0);
      expect(await names()).not.toContain("Half done");
      // The only connection of the pool was the killed one: the next transaction gets a fresh one.
      const pid = await inTransaction(watched, backendPid);
      expect(pid).toBeGreaterThan(0);
      expect(pid).not.toBe(killedPid);
    } finally {
      await closeDb(watched);
    }
  });
  const fatePoints = async (name: string) =>
    (
      await database.query<{ fate_points: number }>(
        `SELECT fate_points FROM character WHERE name = '${name}'`,
      )
    )[0]?.fate_points;

  describe("round trips saved", () => {
    it("a first statement goes with the BEGIN, its values written in safely (quotes, backslashes)", async () => {
      const tricky = "O'Brien \\ '); DROP TABLE character; --";
      const opening = literalSql`
        INSERT INTO "character" (table_id, name, name_key) VALUES (${tableId}, ${tricky}, ${"obrien"}) RETURNING name, table_id`;
      const rows = await inTransaction(db, async (_tx, opened) => opened, [opening]);
      expect(rows).toEqual([[{ name: tricky, table_id: tableId }]]);
      expect(await names()).toContain(tricky);
    });

    it("a later write goes with the COMMIT, is sent before any statement that follows it, and is rolled back with the rest", async () => {
      await inTransaction(db, async (tx) => {
        await character(tx, "Later");
        await tx.later`UPDATE "character" SET fate_points = ${7} WHERE name = ${"Later"}`;
        await tx.later`UPDATE "character" SET fate_points = fate_points + ${1} WHERE name = ${"Later"}`;
        // A statement after them sees both, in the order written.
        expect(
          (
            await tx.sql().one<{
              fatePoints: number;
            }>`SELECT fate_points FROM "character" WHERE name = 'Later'`
          )?.fatePoints,
        ).toBe(8);
        await tx.later`UPDATE "character" SET fate_points = fate_points * ${2} WHERE name = ${"Later"}`;
        expect(await fatePoints("Later")).toBeUndefined();
      });
      expect(await fatePoints("Later")).toBe(16);

      await expect(
        inTransaction(db, async (tx) => {
          await tx.later`UPDATE "character" SET fate_points = ${0} WHERE name = ${"Later"}`;
          throw new Error("refused");
        }),
      ).rejects.toThrow("refused");
      expect(await fatePoints("Later")).toBe(16);
    });

    it("a later write that fails at the COMMIT fails the transaction: nothing of it is kept", async () => {
      await expect(
        inTransaction(db, async (tx) => {
          await character(tx, "Doomed");
          await tx.later`UPDATE "character" SET fate_points = ${"not a number"}::int WHERE name = ${"Doomed"}`;
        }),
      ).rejects.toThrow(/invalid input syntax/);
      expect(await names()).not.toContain("Doomed");
    });

    it("a later write made inside a savepoint that rolls back is dropped with it; one before it is kept", async () => {
      await inTransaction(db, async (tx) => {
        await character(tx, "Saved");
        await tx.later`UPDATE "character" SET fate_points = ${3} WHERE name = ${"Saved"}`;
        await tx
          .savepoint(async () => {
            await tx.later`UPDATE "character" SET fate_points = ${99} WHERE name = ${"Saved"}`;
            throw new Error("step refused");
          })
          .catch(() => {});
      });
      expect(await fatePoints("Saved")).toBe(3);
    });

    it("rows read with the opening are handed out until the transaction writes their table, however it sends the write", async () => {
      const read: OpeningRead = {
        statement: ({ tableId }) =>
          literalSql`SELECT name, created_at FROM "character" WHERE table_id = ${tableId} ORDER BY id`,
        scope: ({ tableId }) => String(tableId),
        table: "character",
      };
      const at = { tableId, userId: "3" };
      const writes: Array<[string, (tx: Tx) => Promise<unknown>]> = [
        [
          "a statement",
          (tx) => tx.sql().run`UPDATE "character" SET fate_points = fate_points WHERE id = ${0}`,
        ],
        ["a later write", (tx) => tx.later`DELETE FROM "character" WHERE id = ${0}`],
        [
          "a batch",
          (tx) =>
            tx.batch([
              literalSql`INSERT INTO "character" (table_id, name, name_key) SELECT ${tableId}, 'x', 'x' WHERE false`,
            ]),
        ],
        [
          "a CTE",
          (tx) =>
            tx.sql()
              .run`WITH gone AS (UPDATE "character" SET name = name WHERE id = ${0} RETURNING id) SELECT 1`,
        ],
      ];
      for (const [how, write] of writes) {
        const seen = await inTransaction(
          db,
          async (tx, [rows = []]) => {
            tx.noteOpened(read, read.scope(at), rows);
            const before = tx.openedRows(read, read.scope(at));
            const kept = tx.openedRows(read, read.scope(at), (row) => row.name === before?.[0]?.name);
            // Another table's write, and a lookup for another scope, leave them be.
            await tx.sql().run`UPDATE game_table SET language = language WHERE id = ${0}`;
            const otherScope = tx.openedRows(read, "elsewhere");
            const still = tx.openedRows(read, read.scope(at));
            await write(tx);
            return { before, kept, otherScope, still, after: tx.openedRows(read, read.scope(at)) };
          },
          [read.statement(at)],
        );
        expect(seen.before?.length, how).toBeGreaterThan(1);
        // Copies as a query returns them (timestamps as Dates); `keep` hands out only its rows.
        expect(seen.before?.[0]?.created_at, how).toBeInstanceOf(Date);
        expect(seen.kept, how).toEqual(seen.before?.filter((row) => row.name === seen.before?.[0]?.name));
        expect(seen.kept?.length, how).toBeLessThan(seen.before?.length ?? 0);
        expect(seen.otherScope, how).toBeUndefined();
        expect(seen.still, how).toEqual(seen.before);
        expect(seen.after, how).toBeUndefined();
      }
    });

    it("names the tables a statement writes, erring only towards too many", () => {
      expect(tablesWrittenBy(`UPDATE "character" SET name = $1 WHERE id = $2`)).toEqual(["character"]);
      expect(tablesWrittenBy("INSERT INTO flow (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET a = 2")).toEqual([
        "flow",
        "set",
      ]);
      expect(tablesWrittenBy("WITH prev AS (SELECT 1) UPDATE trust_link l SET points = 1")).toEqual([
        "trust_link",
      ]);
      expect(tablesWrittenBy("delete   from\n  ONLY reserve_pool WHERE true")).toEqual(["reserve_pool"]);
      expect(tablesWrittenBy("SELECT * FROM flow WHERE id = 1 FOR UPDATE")).toEqual([]);
    });

    it("outside a transaction a later write is sent at once", async () => {
      const tx = outsideTransaction(db);
      await tx.later`UPDATE "character" SET fate_points = ${5} WHERE name = ${"Saved"}`;
      expect(await fatePoints("Saved")).toBe(5);
    });
  });

  describe("statements parsed and planned once per connection", () => {
    let single: Db;
    const sent: string[] = [];
    let recording: ReturnType<typeof recordSentStatements>;
    beforeAll(() => {
      // One connection, so every transaction below meets what the ones before it prepared.
      single = createDb(database.url, { poolSize: 1 });
      recording = recordSentStatements(sent);
    });
    afterAll(async () => {
      recording.stop();
      await closeDb(single);
    });
    const prepared = async (tx: Tx) =>
      (await sqlFor(tx).rows<{ name: string }>`SELECT name FROM pg_prepared_statements ORDER BY name`).map(
        (r) => r.name,
      );
    // One template, one name: written once here, run with different values.
    const give = (tx: Tx, points: number) =>
      tx.later`UPDATE "character" SET fate_points = ${points} WHERE name = ${"Prepared"}`;
    const opening = (name: string) =>
      literalSql`SELECT count(*)::int AS n FROM "character" WHERE name = ${name}`;

    it("a batched statement is PREPAREd the first time a connection sends it, then only EXECUTEd with its values", async () => {
      await inTransaction(single, (tx) => character(tx, "Prepared"));
      sent.length = 0;
      for (const points of [4, 5, 6]) {
        const [rows, more] = await inTransaction(
          single,
          async (tx, opened) => {
            await give(tx, points);
            return opened;
          },
          [opening("Prepared"), opening("Nobody")],
        );
        expect([rows, more]).toEqual([[{ n: 1 }], [{ n: 0 }]]);
      }
      expect(await fatePoints("Prepared")).toBe(6);
      const batches = sent.filter((text) => text.includes("EXECUTE"));
      expect(batches).toHaveLength(6); // each opening (two statements), each COMMIT with its write
      expect(batches.slice(0, 2).every((text) => text.includes("PREPARE"))).toBe(true);
      expect(batches.slice(2).some((text) => text.includes("PREPARE"))).toBe(false);
      // Parameterised statements are named too: parsed by PostgreSQL once per connection.
      const names = await inTransaction(single, prepared);
      expect(names.filter((n) => n.startsWith("b"))).toHaveLength(2); // one opening template, one write
      expect(names.some((n) => n.startsWith("s"))).toBe(true);
    });

    it("a PREPARE outlives the transaction it came with when that one fails", async () => {
      const doomed = () =>
        inTransaction(single, async (tx) => {
          await tx.later`UPDATE "character" SET fate_points = ${"x"}::int + ${1} WHERE name = ${"Prepared"}`;
        });
      await expect(doomed()).rejects.toThrow(/invalid input syntax/);
      // Sent again on the same connection: an EXECUTE alone, which finds the statement.
      sent.length = 0;
      await expect(doomed()).rejects.toThrow(/invalid input syntax/);
      expect(sent.some((text) => text.includes("PREPARE"))).toBe(false);
      expect(await fatePoints("Prepared")).toBe(6);
    });

    it("a batch sends statements that need no result of one another in one round trip, after the waiting writes", async () => {
      sent.length = 0;
      const [before, after] = await inTransaction(single, async (tx) => {
        await give(tx, 9);
        return tx.batch([
          literalSql`SELECT fate_points FROM "character" WHERE name = ${"Prepared"}`,
          literalSql`UPDATE "character" SET fate_points = fate_points + ${1} WHERE name = ${"Prepared"} RETURNING fate_points`,
        ]);
      });
      // The waiting write went first; each statement's rows come back in order.
      expect([before, after]).toEqual([[{ fate_points: 9 }], [{ fate_points: 10 }]]);
      // One round trip for the write and both statements; the COMMIT then goes alone.
      expect(sent.filter((text) => text.includes("EXECUTE"))).toHaveLength(1);
      expect(sent.at(-1)).toBe("COMMIT");
      await expect(outsideTransaction(single).batch([opening("x")])).rejects.toThrow(/needs a transaction/);
    });

    it("a connection that lost its prepared statements fails once, then prepares them again", async () => {
      await inTransaction(single, (tx) => sqlFor(tx).run`DEALLOCATE ALL`);
      await expect(inTransaction(single, (tx) => give(tx, 7))).rejects.toThrow(/does not exist/);
      await inTransaction(single, (tx) => give(tx, 8));
      expect(await fatePoints("Prepared")).toBe(8);
    });
  });
});
