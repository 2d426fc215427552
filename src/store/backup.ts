import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { pipeline as pipelineWithCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import pg from "pg";
import { BOT_PRESENCE_LOCK_KEY } from "./bot-presence.js";
import {
  appliedMigrations,
  applyMigration,
  listMigrations,
  MIGRATION_LOCK_KEY,
  MIGRATIONS_DIR,
  MIGRATIONS_TABLE_SQL,
  type Migration,
} from "./migrate.js";

/**
 * A whole-database backup without pg_dump (which must match the server's major version, and
 * which the embedded server does not ship): our own logical dump through `pg`.
 *
 * The file is gzip of JSON lines:
 *   1. the header (`BackupHeader`): format and version, when, the applied migrations, and every
 *      table's columns (name and type), row count and sequences;
 *   2. every table's rows in the header's order (foreign keys' targets first), one JSON array a
 *      row, each value as PostgreSQL's own text for it or null — exact for every type, and SQL
 *      NULL is never confused with a JSON `null`;
 *   3. the trailer: the SHA-256 of every byte before it, so a damaged or cut file is refused.
 */
export const BACKUP_FORMAT = "storybot-backup";
export const BACKUP_VERSION = 1;

export interface BackupColumn {
  name: string;
  /** `format_type` of the column, e.g. `timestamp(3) without time zone`. */
  type: string;
}

export interface BackupTable {
  name: string;
  columns: BackupColumn[];
  rows: number;
  /** The serial/identity sequences of its columns, where they stood. */
  sequences: { column: string; lastValue: string; isCalled: boolean }[];
}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  migrations: { name: string; checksum: string }[];
  tables: BackupTable[];
}

interface BackupTrailer {
  end: typeof BACKUP_FORMAT;
  rows: number;
  sha256: string;
}

/** The file is not a complete, intact backup this bot can read: nothing was changed. */
export class BackupFileError extends Error {
  constructor(file: string, problem: string) {
    super(`${file} is not a usable backup: ${problem}. Nothing was changed.`);
    this.name = "BackupFileError";
  }
}

/** The database is not in a state a restore may replace: nothing was changed. */
export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(`${message} Nothing was changed.`);
    this.name = "RestoreRefusedError";
  }
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Rows fetched from the cursor at a time, and rows (or bytes) sent per insert on restore. */
const FETCH_ROWS = 1000;
const INSERT_ROWS = 1000;
const INSERT_BYTES = 4 * 1024 * 1024;

async function connect(databaseUrl: string, applicationName: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: applicationName });
  client.on("error", () => {}); // the statement in flight fails with it
  await client.connect();
  // Values travel as PostgreSQL's text for them: the same text whatever the server's own settings.
  await client.query(
    "SET datestyle = 'ISO, YMD'; SET intervalstyle = 'postgres'; SET timezone = 'UTC'; SET extra_float_digits = 3; SET bytea_output = 'hex'",
  );
  return client;
}

/**
 * The database objects the bot's migrations create (tables, functions, views, types, sequences):
 * what a restore replaces. Anything else in the database is left alone.
 */
export function objectsCreatedBy(migrations: Migration[]): { kind: string; name: string }[] {
  const found = new Map<string, { kind: string; name: string }>();
  for (const { sql } of migrations) {
    const pattern =
      /CREATE\s+(?:OR\s+REPLACE\s+)?(TABLE|FUNCTION|VIEW|TYPE|SEQUENCE)\s+(?:IF\s+NOT\s+EXISTS\s+)?(?:"?public"?\.)?"?(\w+)"?/gi;
    for (const [, kind, name] of sql.matchAll(pattern)) {
      const key = `${kind!.toUpperCase()} ${name}`;
      found.set(key, { kind: kind!.toUpperCase(), name: name! });
    }
  }
  return [...found.values()];
}

/** The bot's tables that exist in the database now, each listed once. */
async function existingTables(client: pg.ClientBase, names: string[]): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname = ANY($1::text[])`,
    [names],
  );
  return rows.map((r) => r.name);
}

/** `tables` ordered so that every table comes after the tables its foreign keys point to. */
async function inForeignKeyOrder(client: pg.ClientBase, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE k.contype = 'f' AND n.nspname = current_schema() AND c.relname <> p.relname`,
  );
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of rows) if (parents.has(parent)) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (table: string, path: Set<string>) => {
    if (placed.has(table) || path.has(table)) return;
    path.add(table);
    for (const parent of [...parents.get(table)!].sort()) visit(parent, path);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of [...tables].sort()) visit(table, new Set());
  return ordered;
}

async function columnsOf(client: pg.ClientBase, table: string): Promise<BackupColumn[]> {
  const { rows } = await client.query<BackupColumn>(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
      WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      ORDER BY a.attnum`,
    [ident(table)],
  );
  return rows;
}

async function primaryKeyOf(client: pg.ClientBase, table: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT a.attname AS name FROM pg_index i
       JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n) ON true
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
      WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY k.n`,
    [ident(table)],
  );
  return rows.map((r) => r.name);
}

/** The columns' serial or identity sequences, by column. */
async function sequencesOf(
  client: pg.ClientBase,
  table: string,
  columns: BackupColumn[],
): Promise<{ column: string; sequence: string }[]> {
  const found: { column: string; sequence: string }[] = [];
  for (const { name } of columns) {
    const { rows } = await client.query<{ sequence: string | null }>(
      "SELECT pg_get_serial_sequence($1, $2) AS sequence",
      [ident(table), name],
    );
    if (rows[0]?.sequence) found.push({ column: name, sequence: rows[0].sequence });
  }
  return found;
}

export interface BackupSummary {
  file: string;
  tables: number;
  rows: number;
  /** The last migration the database had, or null for none. */
  migration: string | null;
}

/**
 * Writes a backup of the database to `file` ("-": standard output): one snapshot (a repeatable-read,
 * read-only transaction), rows streamed through a cursor so no table is held in memory. The file
 * appears complete or not at all (written beside it, then renamed), readable by its owner only.
 */
export async function writeBackup(
  databaseUrl: string,
  file: string,
  options: { now?: Date; migrationsDir?: string } = {},
): Promise<BackupSummary> {
  const client = await connect(databaseUrl, "storybot backup");
  const partial = file === "-" ? null : `${file}.partial`;
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const hasSchema = await client.query<{ found: string | null }>(
      `SELECT to_regclass('"_prisma_migrations"')::text AS found`,
    );
    if (!hasSchema.rows[0]?.found) {
      throw new Error(
        "the database has no bot data: it was never started on by the bot (no _prisma_migrations)",
      );
    }
    const migrations = [...(await appliedMigrations(client))].map(([name, checksum]) => ({ name, checksum }));
    const known = await listMigrations(options.migrationsDir ?? MIGRATIONS_DIR);
    // The tables are the ones this version's migrations create: a newer version's would be missed.
    const unknown = migrations.find((m) => !known.some((k) => k.name === m.name));
    if (unknown) {
      throw new Error(
        `the database has migration ${unknown.name}, from a newer version of the bot than this one: back it up with that version`,
      );
    }
    const botTables = objectsCreatedBy(known)
      .filter((o) => o.kind === "TABLE")
      .map((o) => o.name);
    const tableNames = await inForeignKeyOrder(client, await existingTables(client, botTables));
    const tables: (BackupTable & { orderBy: string[] })[] = [];
    for (const name of tableNames) {
      const columns = await columnsOf(client, name);
      const count = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${ident(name)}`);
      const sequences = [];
      for (const { column, sequence } of await sequencesOf(client, name, columns)) {
        const at = await client.query<{ last_value: string; is_called: boolean }>(
          `SELECT last_value::text, is_called FROM ${sequence}`,
        );
        sequences.push({ column, lastValue: at.rows[0]!.last_value, isCalled: at.rows[0]!.is_called });
      }
      const primaryKey = await primaryKeyOf(client, name);
      tables.push({
        name,
        columns,
        rows: Number(count.rows[0]!.n),
        sequences,
        orderBy: primaryKey.length > 0 ? primaryKey : columns.map((c) => c.name),
      });
    }
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: (options.now ?? new Date()).toISOString(),
      migrations,
      tables: tables.map(({ orderBy: _orderBy, ...table }) => table),
    };
    const hash = createHash("sha256");
    let total = 0;
    async function* content(): AsyncGenerator<Buffer> {
      const emit = (text: string) => {
        const bytes = Buffer.from(`${text}\n`, "utf8");
        hash.update(bytes);
        return bytes;
      };
      yield emit(JSON.stringify(header));
      for (const table of tables) {
        const values = table.columns.map((c) => `${ident(c.name)}::text`).join(", ");
        await client.query(
          `DECLARE backup_rows NO SCROLL CURSOR FOR SELECT to_json(ARRAY[${values}]::text[])::text AS r
             FROM ${ident(table.name)} ORDER BY ${table.orderBy.map(ident).join(", ")}`,
        );
        let written = 0;
        for (;;) {
          const batch = await client.query<{ r: string }>(`FETCH ${FETCH_ROWS} FROM backup_rows`);
          if (batch.rows.length === 0) break;
          written += batch.rows.length;
          yield emit(batch.rows.map((row) => row.r).join("\n"));
        }
        await client.query("CLOSE backup_rows");
        // The same snapshot counted them: a difference is a bug, never a race.
        if (written !== table.rows)
          throw new Error(`${table.name}: counted ${table.rows} rows, read ${written}`);
        total += written;
      }
      const trailer: BackupTrailer = { end: BACKUP_FORMAT, rows: total, sha256: hash.digest("hex") };
      yield Buffer.from(`${JSON.stringify(trailer)}\n`, "utf8");
    }
    const out = partial ? createWriteStream(partial, { mode: 0o600 }) : process.stdout;
    await pipeline(content, createGzip(), out, { end: partial !== null });
    await client.query("COMMIT");
    if (partial) await rename(partial, file);
    return { file, tables: tables.length, rows: total, migration: migrations.at(-1)?.name ?? null };
  } catch (error) {
    if (partial) await rm(partial, { force: true });
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

type BackupEvent =
  | { kind: "header"; header: BackupHeader }
  | { kind: "rows"; table: BackupTable; lines: string[]; bytes: number };

/** The file's lines, as the bytes they are, unzipped on the way. */
async function* linesOf(file: string): AsyncGenerator<Buffer> {
  // A failure of either stream ends the iteration below with that error.
  const unzipped = pipelineWithCallback(createReadStream(file), createGunzip(), () => {});
  let pending: Buffer[] = [];
  for await (const chunk of unzipped as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, end));
      yield pending.length === 1 ? pending[0]! : Buffer.concat(pending);
      pending = [];
      start = end + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) yield Buffer.concat(pending);
}

function parseJson(file: string, line: Buffer, what: string): unknown {
  try {
    return JSON.parse(line.toString("utf8"));
  } catch {
    throw new BackupFileError(file, `its ${what} is not readable`);
  }
}

function checkHeader(file: string, value: unknown): BackupHeader {
  const header = value as Partial<BackupHeader> | null;
  if (!header || typeof header !== "object" || header.format !== BACKUP_FORMAT) {
    throw new BackupFileError(file, "it is not a story dice bot backup (npm run backup makes one)");
  }
  if (typeof header.version !== "number" || header.version > BACKUP_VERSION) {
    throw new BackupFileError(
      file,
      `it has format version ${String(header.version)}, made by a newer version of the bot, and this one reads up to version ${BACKUP_VERSION}: update the bot first`,
    );
  }
  const isText = (v: unknown) => typeof v === "string" && v.length > 0;
  const wellFormed =
    Array.isArray(header.migrations) &&
    header.migrations.every((m) => isText(m?.name) && isText(m?.checksum)) &&
    Array.isArray(header.tables) &&
    header.tables.every(
      (t) =>
        isText(t?.name) &&
        Number.isSafeInteger(t.rows) &&
        t.rows >= 0 &&
        Array.isArray(t.columns) &&
        t.columns.every((c) => isText(c?.name) && isText(c?.type)) &&
        Array.isArray(t.sequences) &&
        t.sequences.every((q) => isText(q?.column) && /^-?\d+$/.test(String(q?.lastValue))),
    );
  if (!wellFormed) throw new BackupFileError(file, "its header is incomplete or damaged");
  return header as BackupHeader;
}

/**
 * Reads the file through, checking it as it goes: the header, every table's row count, the
 * trailer and its checksum. Rows come out in batches for the restore; any problem is a
 * `BackupFileError` (a cut file, a damaged byte, something appended).
 */
async function* readBackup(file: string): AsyncGenerator<BackupEvent> {
  const hash = createHash("sha256");
  const lines = linesOf(file);
  const next = async (): Promise<Buffer> => {
    const { value, done } = await lines.next();
    if (done) throw new BackupFileError(file, "it ends early (the file is truncated)");
    return value;
  };
  try {
    const first = await next();
    hash.update(first).update("\n");
    const header = checkHeader(file, parseJson(file, first, "header"));
    yield { kind: "header", header };
    let total = 0;
    for (const table of header.tables) {
      let batch: string[] = [];
      let bytes = 0;
      for (let i = 0; i < table.rows; i++) {
        const line = await next();
        hash.update(line).update("\n");
        // 91 is "[": every row is a JSON array (its content is vouched for by the checksum).
        if (line[0] !== 91) throw new BackupFileError(file, `a row of ${table.name} is damaged`);
        batch.push(line.toString("utf8"));
        bytes += line.length;
        if (batch.length >= INSERT_ROWS || bytes >= INSERT_BYTES) {
          yield { kind: "rows", table, lines: batch, bytes };
          batch = [];
          bytes = 0;
        }
      }
      if (batch.length > 0) yield { kind: "rows", table, lines: batch, bytes };
      total += table.rows;
    }
    const trailer = parseJson(file, await next(), "end") as Partial<BackupTrailer> | null;
    if (trailer?.end !== BACKUP_FORMAT) throw new BackupFileError(file, "its rows do not match its header");
    if (trailer.sha256 !== hash.digest("hex") || trailer.rows !== total) {
      throw new BackupFileError(file, "its checksum does not match (the file is damaged)");
    }
    const after = await lines.next();
    if (!after.done) throw new BackupFileError(file, "there is data after its end (the file is damaged)");
  } catch (error) {
    if (error instanceof BackupFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new BackupFileError(file, "there is no such file");
    if (code === "Z_BUF_ERROR") throw new BackupFileError(file, "it ends early (the file is truncated)");
    if (typeof code === "string" && code.startsWith("Z_")) {
      throw new BackupFileError(file, `it is damaged or not gzip (${(error as Error).message})`);
    }
    throw error;
  } finally {
    await lines.return(undefined);
  }
}

export interface CheckedBackup {
  header: BackupHeader;
  rows: number;
}

/** Reads the whole file and checks it; changes nothing anywhere. */
export async function checkBackupFile(file: string): Promise<CheckedBackup> {
  let header: BackupHeader | undefined;
  let rows = 0;
  for await (const event of readBackup(file)) {
    if (event.kind === "header") header = event.header;
    else rows += event.lines.length;
  }
  return { header: header!, rows };
}

export interface RestoreSummary {
  /** When the backup was made. */
  createdAt: string;
  tables: number;
  rows: number;
  /** Migrations newer than the backup, applied after its rows. */
  migratedAfter: string[];
  /** Whether the database held data that the restore replaced. */
  replaced: boolean;
}

/** The running bot processes on this database: the sessions that hold the presence lock. */
async function botSessions(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1
        AND classid::bigint = $1 AND objid::bigint = $2
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [Math.floor(BOT_PRESENCE_LOCK_KEY / 2 ** 32), BOT_PRESENCE_LOCK_KEY % 2 ** 32],
  );
  return Number(rows[0]!.n);
}

/**
 * Restores `file` into the database, replacing the bot's tables (and only those): the whole file
 * is checked first, then one transaction recreates the schema at the backup's migration level,
 * loads the rows (foreign keys' targets first), sets the sequences past them, and applies the
 * migrations newer than the backup. Refused — with nothing changed — while a bot runs on the
 * database, and when the database holds data unless `force`.
 */
export async function restoreBackup(
  databaseUrl: string,
  file: string,
  options: {
    force?: boolean;
    migrationsDir?: string;
    /** The file's `checkBackupFile`, when the caller has just checked it. */
    checked?: CheckedBackup;
  } = {},
): Promise<RestoreSummary> {
  const { header, rows } = options.checked ?? (await checkBackupFile(file));
  const known = await listMigrations(options.migrationsDir ?? MIGRATIONS_DIR);
  const knownByName = new Map(known.map((m) => [m.name, m]));
  for (const { name, checksum } of header.migrations) {
    const ours = knownByName.get(name);
    if (!ours) {
      throw new RestoreRefusedError(
        `${file} was made by a newer version of the bot (its database has migration ${name}, which this version does not know): update the bot, then restore.`,
      );
    }
    if (ours.checksum !== checksum) {
      throw new RestoreRefusedError(`${file} has migration ${name} in another version than this bot's.`);
    }
  }
  const inBackup = new Set(header.migrations.map((m) => m.name));
  const client = await connect(databaseUrl, "storybot restore");
  try {
    await client.query("BEGIN");
    const locks = await client.query<{ presence: boolean; migration: boolean }>(
      "SELECT pg_try_advisory_xact_lock($1) AS presence, pg_try_advisory_xact_lock($2) AS migration",
      [BOT_PRESENCE_LOCK_KEY, MIGRATION_LOCK_KEY],
    );
    if (!locks.rows[0]!.presence) {
      const sessions = await botSessions(client);
      throw new RestoreRefusedError(
        `The bot is running on this database (${sessions} process${sessions === 1 ? "" : "es"}): stop it, then restore.`,
      );
    }
    if (!locks.rows[0]!.migration) {
      throw new RestoreRefusedError(
        "The bot is starting on this database (migrating it): stop it, then restore.",
      );
    }
    const objects = objectsCreatedBy(known);
    const tables = await existingTables(
      client,
      objects.filter((o) => o.kind === "TABLE").map((o) => o.name),
    );
    const holding: string[] = [];
    for (const table of tables) {
      const any = await client.query(`SELECT 1 FROM ${ident(table)} LIMIT 1`);
      if (any.rowCount) holding.push(table);
    }
    if (holding.length > 0 && !options.force) {
      throw new RestoreRefusedError(
        `The database already holds data (${holding.join(", ")}). A restore replaces all of the bot's data: run it again with --force to replace it.`,
      );
    }
    // Everything the bot's migrations create, then the schema anew at the backup's level.
    for (const { kind, name } of objects) await client.query(`DROP ${kind} IF EXISTS ${ident(name)} CASCADE`);
    await client.query(`DROP TABLE IF EXISTS "_prisma_migrations"`);
    await client.query(MIGRATIONS_TABLE_SQL);
    for (const migration of known) if (inBackup.has(migration.name)) await applyMigration(client, migration);
    const insertOf = new Map<string, string>();
    for (const table of header.tables) {
      const columns = await columnsOf(client, table.name).catch(() => [] as BackupColumn[]);
      const types = new Map(columns.map((c) => [c.name, c.type]));
      for (const column of table.columns) {
        if (types.get(column.name) !== column.type) {
          throw new RestoreRefusedError(
            `${file} does not fit the schema its migrations create (${table.name}.${column.name} ${column.type}).`,
          );
        }
      }
      const values = table.columns.map((c, i) => `(r->>${i})::${c.type}`).join(", ");
      insertOf.set(
        table.name,
        `INSERT INTO ${ident(table.name)} (${table.columns.map((c) => ident(c.name)).join(", ")})
         SELECT ${values} FROM jsonb_array_elements($1::jsonb) AS r`,
      );
    }
    for await (const event of readBackup(file)) {
      if (event.kind !== "rows") continue;
      await client.query(insertOf.get(event.table.name)!, [`[${event.lines.join(",")}]`]);
    }
    for (const table of header.tables) {
      for (const { column, lastValue, isCalled } of table.sequences) {
        // Past both where the sequence stood and the highest row, so no id is handed out twice.
        await client.query(
          `SELECT setval(pg_get_serial_sequence($1, $2), v, $4::boolean OR m IS NOT NULL)
             FROM (SELECT GREATEST($3::bigint, COALESCE(max(${ident(column)})::bigint, 1)) AS v,
                          max(${ident(column)}) AS m FROM ${ident(table.name)}) x`,
          [ident(table.name), column, lastValue, isCalled],
        );
      }
    }
    const migratedAfter: string[] = [];
    for (const migration of known) {
      if (inBackup.has(migration.name)) continue;
      try {
        await applyMigration(client, migration);
      } catch (error) {
        throw new Error(
          `Migration ${migration.name} failed on the restored data: ${(error as Error).message}`,
        );
      }
      migratedAfter.push(migration.name);
    }
    await client.query("COMMIT");
    return {
      createdAt: header.createdAt,
      tables: header.tables.length,
      rows,
      migratedAfter,
      replaced: holding.length > 0,
    };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}
