import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { closeDb, createDb, type Db } from "../../src/store/db.js";
import { databaseUrlNamed } from "../../src/store/embedded-postgres.js";
import { migrate } from "../../src/store/migrate.js";

export interface TestDatabase {
  url: string;
  db: Db;
  /** Runs raw SQL (for assertions that must not go through the code under test). */
  query<T extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** A fresh, migrated database in the shared test cluster. */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const adminUrl = inject("pgAdminUrl");
  const name = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = databaseUrlNamed(adminUrl, name);
  if (options.migrated !== false) await migrate(url);
  const db = createDb(url);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // Dropping the database ends every connection still open to it (57P01): never a test failure.
  pool.on("error", () => {});
  return {
    url,
    db,
    query: async (sql, params) => (await pool.query(sql, params as unknown[])).rows,
    async drop() {
      await closeDb(db);
      await pool.end();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}
