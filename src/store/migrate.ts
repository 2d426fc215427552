import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

/** prisma/migrations of the checkout, found from this module whether it runs from src/ or from dist/src/. */
function findMigrationsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, "prisma", "migrations");
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("prisma/migrations not found above the bot's code");
    dir = parent;
  }
}

export const MIGRATIONS_DIR = findMigrationsDir();

/** An arbitrary constant: the advisory lock that serialises migrations across processes (shards starting together). */
export const MIGRATION_LOCK_KEY = 7_241_905_113;

/** The table `prisma migrate deploy` records migrations in; ours records them the same way. */
export const MIGRATIONS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`;

export interface Migration {
  name: string;
  sql: string;
  /** SHA-256 of the SQL, hex, as Prisma records it. */
  checksum: string;
}

/** The migrations in `dir`, in the order they apply (by name). */
export async function listMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

/** The applied migrations' names and checksums, as `_prisma_migrations` records them. */
export async function appliedMigrations(client: pg.ClientBase): Promise<Map<string, string>> {
  const done = await client.query<{ migration_name: string; checksum: string }>(
    `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
  );
  return new Map(done.rows.map((r) => [r.migration_name, r.checksum]));
}

/** Runs one migration's SQL and records it, in the caller's transaction. */
export async function applyMigration(client: pg.ClientBase, migration: Migration): Promise<void> {
  await client.query(migration.sql);
  await client.query(
    `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
    [randomUUID(), migration.checksum, migration.name],
  );
}

/**
 * Applies the SQL migrations in Prisma's layout that the database has not seen yet, each in
 * its own transaction, and records them in `_prisma_migrations` exactly as `prisma migrate
 * deploy` would, so a deployment with network access can switch to Prisma's own tooling.
 * Returns the names of the migrations applied now.
 */
export async function migrate(
  databaseUrl: string,
  dir = MIGRATIONS_DIR,
  options: { connectTimeoutMs?: number } = {},
): Promise<string[]> {
  // A server that accepts no connection (frozen, or cut off) is retried by start-up like a missing one.
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
  });
  // The server going away mid-migration fails the statement in flight; without a listener the
  // connection's 'error' event would end the process instead.
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await client.query(MIGRATIONS_TABLE_SQL);
    const applied = await appliedMigrations(client);
    const appliedNow: string[] = [];
    for (const migration of await listMigrations(dir)) {
      const { name, checksum } = migration;
      const previous = applied.get(name);
      if (previous !== undefined) {
        if (previous !== checksum) {
          throw new Error(`Migration ${name} was changed after it was applied; add a new migration instead.`);
        }
        continue;
      }
      await client.query("BEGIN");
      try {
        await applyMigration(client, migration);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`Migration ${name} failed: ${(error as Error).message}`);
      }
      appliedNow.push(name);
    }
    return appliedNow;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end();
  }
}
