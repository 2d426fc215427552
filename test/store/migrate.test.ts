import { readFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../src/store/db.js";
import { migrate } from "../../src/store/migrate.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

const PRISMA_TO_PG: Record<string, string> = {
  Int: "integer",
  BigInt: "bigint",
  String: "text",
  DateTime: "timestamp without time zone",
  Json: "jsonb",
  Boolean: "boolean",
};

interface SchemaColumn {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
}

/** Reads the models of schema.prisma as (table, column, type, nullable): enough to catch drift. */
function columnsFromSchema(): SchemaColumn[] {
  const text = readFileSync("prisma/schema.prisma", "utf8");
  const columns: SchemaColumn[] = [];
  for (const [, body] of text.matchAll(/^model \w+ \{([\s\S]*?)^\}/gm)) {
    const table = /@@map\("([^"]+)"\)/.exec(body!)?.[1];
    if (!table) throw new Error("every model maps to a snake_case table");
    for (const line of body!.split("\n")) {
      const m = /^\s+(\w+)\s+(\w+)(\?|\[\])?\s*(.*)$/.exec(line);
      if (!m || line.trim().startsWith("//") || line.trim().startsWith("@@")) continue;
      const [, field, type, modifier, rest] = m;
      if (!(type! in PRISMA_TO_PG)) continue; // relation fields
      const column = /@map\("([^"]+)"\)/.exec(rest!)?.[1] ?? field!;
      // A scalar list (Int[]) is a PostgreSQL array, nullable as Prisma creates it.
      if (modifier === "[]") columns.push({ table, column, type: "ARRAY", nullable: true });
      else columns.push({ table, column, type: PRISMA_TO_PG[type!]!, nullable: modifier === "?" });
    }
  }
  return columns;
}

describe("migrations", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ migrated: false });
  });
  afterAll(async () => t.drop());

  it("apply once, record themselves like prisma migrate deploy, and are idempotent", async () => {
    const first = await migrate(t.url);
    expect(first).toContain("20261129000000_init");
    expect(await migrate(t.url)).toEqual([]);
    const rows = await t.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations"`,
    );
    expect(rows.map((r) => r.migration_name)).toEqual(first);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.checksum) && r.finished_at !== null)).toBe(true);
  });

  it("produce exactly the columns schema.prisma describes", async () => {
    const expected = columnsFromSchema();
    const actual = await t.query<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
    }>(
      `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
       WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
    );
    const render = (c: SchemaColumn) => `${c.table}.${c.column} ${c.type}${c.nullable ? " NULL" : ""}`;
    expect(
      actual
        .map((c) =>
          render({
            table: c.table_name,
            column: c.column_name,
            type: c.data_type,
            nullable: c.is_nullable === "YES",
          }),
        )
        .sort(),
    ).toEqual(expected.map(render).sort());
    expect(expected.length).toBeGreaterThan(40);
  });

  it("enforce the invariants: trust points never negative nor above the value, reserve never below 0", async () => {
    await t.query(
      `INSERT INTO game_table (guild_id, channel_id, system, gm_user_id) VALUES ('g', 'c', 'mountain-witch', 'u')`,
    );
    const [table] = await t.query<{ id: number }>(`SELECT id FROM game_table`);
    await t.query(`INSERT INTO character (table_id, name, name_key) VALUES ($1, 'A', 'a'), ($1, 'B', 'b')`, [
      table!.id,
    ]);
    const chars = await t.query<{ id: number }>(`SELECT id FROM character ORDER BY id`);
    const [a, b] = chars;
    await expect(
      t.query(
        `INSERT INTO trust_link (table_id, giver_id, holder_id, value, points) VALUES ($1,$2,$3,2,-1)`,
        [table!.id, a!.id, b!.id],
      ),
    ).rejects.toThrow(/trust_link_points_range/);
    await expect(
      t.query(`INSERT INTO trust_link (table_id, giver_id, holder_id, value, points) VALUES ($1,$2,$3,2,3)`, [
        table!.id,
        a!.id,
        b!.id,
      ]),
    ).rejects.toThrow(/trust_link_points_range/);
    await expect(
      t.query(`INSERT INTO reserve_pool (table_id, total, ceiling, spent) VALUES ($1, 5, 3, 6)`, [table!.id]),
    ).rejects.toThrow(/reserve_pool_amounts/);
  });

  it("give up connecting to a server that never answers, with an error start-up waits out rather than dies of", async () => {
    // A port that accepts connections and says nothing: a frozen server, or a network that drops packets.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const started = Date.now();
      const error = await migrate(`postgresql://u:p@127.0.0.1:${port}/none`, undefined, {
        connectTimeoutMs: 300,
      }).catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      silent.close();
    }
  });
});
