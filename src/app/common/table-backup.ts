import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";
import { z } from "zod";
import type { GameTable } from "../../generated/prisma/client.js";
import { refuse } from "../../rules/errors.js";
import { type Db, sqlFor, type Tx } from "../../store/db.js";
import { insertTableRow } from "../../store/tables.js";
import { type IdKind, type IdMaps, remapIds } from "../backup-ids.js";
import { SYSTEMS } from "../use-case.js";
import { pendingImportFlow } from "./flow-states.js";

/**
 * A table's backup (`/table export`, `/table import`): a versioned JSON file of everything the
 * table has — settings, characters and sheets, trust, reserve, aspects, fate points, damage, open
 * flows, the log and the dice kept for statistics. Rows are stored column by column as the
 * database has them (so a column added later travels too), ids numbered 1, 2, 3… (backup-ids.ts).
 *
 * The GM downloads it, but it must not show them a secret (docs/rules/common.md §4.5): the
 * table's own state (e.g. the dark-fate deck), every open flow's state (e.g. duel dice) and every
 * secret log entry and die are sealed with the bot's key (AES-256-GCM), and the whole file is
 * signed with it (HMAC-SHA256), so an edited or damaged file is refused.
 */

export const BACKUP_FORMAT = "table-backup";
export const BACKUP_VERSION = 1;

type Row = Record<string, unknown>;

interface Part {
  key: "characters" | "trust" | "damage" | "aspects" | "reserve" | "flows" | "log" | "dice";
  table: string;
  /** The kind of id its rows have (renumbered); undefined: no id column of its own. */
  idKind?: IdKind | "row";
  /** Foreign keys to other parts' rows. */
  refs?: Record<string, IdKind>;
  order: string;
  openOnly?: boolean;
}

const PARTS: readonly Part[] = [
  { key: "characters", table: "character", idKind: "character", order: "id" },
  {
    key: "trust",
    table: "trust_link",
    refs: { giver_id: "character", holder_id: "character" },
    order: "giver_id, holder_id",
  },
  {
    key: "damage",
    table: "damage_entry",
    idKind: "damage",
    refs: { character_id: "character" },
    order: "id",
  },
  { key: "aspects", table: "aspect", idKind: "aspect", refs: { character_id: "character" }, order: "id" },
  { key: "reserve", table: "reserve_pool", order: "table_id" },
  { key: "flows", table: "flow", idKind: "flow", order: "id", openOnly: true },
  { key: "log", table: "log_entry", idKind: "row", refs: { character_id: "character" }, order: "id" },
  { key: "dice", table: "dice_rolled", idKind: "row", order: "id" },
];

/** Columns that say where a table is, not what it is: set anew by an import. */
const PLACE_COLUMNS = [
  "id",
  "guild_id",
  "channel_id",
  "active_channel_id",
  "status",
  "archived_at",
  "gm_user_id",
];

// ----- the bot's key -------------------------------------------------------------------------

/** `TABLE_BACKUP_KEY` from the configuration (validated there), set once at start-up. */
let configuredKey: string | undefined;

/** Uses the host's `TABLE_BACKUP_KEY` (64 hex digits) for table backups; `undefined`: the bot's own. */
export function useTableBackupKey(hex: string | undefined): void {
  configuredKey = hex;
}

/**
 * The key: `TABLE_BACKUP_KEY` when the host sets one — so a new database, or another
 * installation given the same key, reads the same backups — otherwise the one the bot made for
 * itself on its first use, kept in the database (a database backup keeps it too). The campaign
 * page's links are signed with a key derived from it too (src/web/links.ts).
 */
export async function botSecret(tx: Tx | Db): Promise<Buffer> {
  let hex: string;
  if (configuredKey) hex = configuredKey;
  else {
    const sql = sqlFor(tx);
    await sql.run`
      INSERT INTO backup_key (id, secret) VALUES (1, ${randomBytes(32).toString("hex")}) ON CONFLICT (id) DO NOTHING`;
    const row = await sql.one<{ secret: string }>`SELECT secret FROM backup_key WHERE id = 1`;
    hex = row!.secret;
  }
  return Buffer.from(hex, "hex");
}

/** A key of its own for each use of the bot's key (backups' seal and signature, page links). */
export function derivedKey(secret: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), purpose, 32));
}

async function backupKeys(tx: Tx) {
  const secret = await botSecret(tx);
  return { seal: derivedKey(secret, "table-backup seal"), sign: derivedKey(secret, "table-backup sign") };
}

function seal(key: Buffer, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64");
}

function unseal(key: Buffer, sealed: string): unknown {
  const bytes = Buffer.from(sealed, "base64");
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8"));
}

const signatureOf = (key: Buffer, file: Row) => {
  const { signature: _omit, ...signed } = file;
  return createHmac("sha256", key).update(JSON.stringify(signed)).digest("hex");
};

// ----- export --------------------------------------------------------------------------------

async function partRows(tx: Tx, part: Part, tableId: number): Promise<Row[]> {
  // The table name and order come from PARTS, never from input.
  const rows = await sqlFor(tx).rowsOfText<{ row: Row }>(
    `SELECT to_jsonb(x) - 'table_id' AS row FROM "${part.table}" x WHERE x.table_id = $1${
      // A replace waiting for its confirmation is no part of the table.
      part.openOnly ? ` AND x.status = 'open' AND x.kind <> '${pendingImportFlow.kind}'` : ""
    } ORDER BY ${part.order}`,
    [tableId],
  );
  return rows.map((r) => r.row);
}

/** The ids of the table's rows → 1, 2, 3… in the order they were made. */
function numbering(rows: readonly Row[]): Map<number, number> {
  return new Map(rows.map((row, i) => [Number(row.id), i + 1]));
}

function mapRow(row: Row, part: Part, maps: IdMaps, ownIds: ReadonlyMap<number, number> | null): Row {
  const out = remapIds(row, maps) as Row;
  if (ownIds && row.id !== undefined) out.id = ownIds.get(Number(row.id)) ?? row.id;
  for (const [column, kind] of Object.entries(part.refs ?? {})) {
    const value = row[column];
    if (typeof value === "number") out[column] = maps[kind].get(value) ?? value;
  }
  return out;
}

export interface BackupContent {
  table: Row;
  characters: Row[];
  trust: Row[];
  damage: Row[];
  aspects: Row[];
  reserve: Row | null;
  flows: Row[];
  log: Row[];
  dice: Row[];
}

/** Everything the table has, ids renumbered; secrets not yet set apart. */
export async function tableContent(tx: Tx, table: GameTable): Promise<BackupContent> {
  const raw: Record<Part["key"], Row[]> = {
    characters: [],
    trust: [],
    damage: [],
    aspects: [],
    reserve: [],
    flows: [],
    log: [],
    dice: [],
  };
  for (const part of PARTS) raw[part.key] = await partRows(tx, part, table.id);
  const maps: IdMaps = {
    character: numbering(raw.characters),
    flow: numbering(raw.flows),
    damage: numbering(raw.damage),
    aspect: numbering(raw.aspects),
    table: new Map([[table.id, 1]]),
  };
  const mapped = (part: Part) => {
    const own = part.idKind === undefined ? null : numbering(raw[part.key]);
    return raw[part.key].map((row) => mapRow(row, part, maps, own));
  };
  const content = Object.fromEntries(PARTS.map((part) => [part.key, mapped(part)])) as Record<
    Part["key"],
    Row[]
  >;
  const tableRow = await sqlFor(tx).one<{
    row: Row;
  }>`SELECT to_jsonb(t) AS row FROM game_table t WHERE t.id = ${table.id}`;
  const settings = remapIds(tableRow!.row, maps) as Row;
  for (const column of PLACE_COLUMNS) delete settings[column];
  return { ...content, table: settings, reserve: content.reserve[0] ?? null };
}

export interface BackupFile extends Omit<BackupContent, "log" | "dice"> {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  exportedAt: string;
  source: { guildId: string; channelId: string };
  log: Row[];
  dice: Row[];
  sealed: string;
  signature: string;
}

interface Sealed {
  tableState: unknown;
  flowStates: Record<string, unknown>;
  log: Row[];
  dice: Row[];
}

/** `/table export`: the file, secrets sealed, signed. */
export async function exportTable(tx: Tx, table: GameTable, now: Date): Promise<string> {
  const keys = await backupKeys(tx);
  const content = await tableContent(tx, table);
  const { state: tableState, ...settings } = content.table;
  const secrets: Sealed = {
    tableState,
    flowStates: Object.fromEntries(content.flows.map((f) => [String(f.id), f.state])),
    log: content.log.filter((e) => e.visible_to !== null),
    dice: content.dice.filter((d) => d.visible_to !== null),
  };
  const file: Row = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    exportedAt: now.toISOString(),
    source: { guildId: table.guildId, channelId: table.channelId },
    table: settings,
    characters: content.characters,
    trust: content.trust,
    damage: content.damage,
    aspects: content.aspects,
    reserve: content.reserve,
    flows: content.flows.map(
      ({ state: _sealed, panel_channel_id: _c, panel_message_id: _m, ...flow }) => flow,
    ),
    log: content.log.filter((e) => e.visible_to === null),
    dice: content.dice.filter((d) => d.visible_to === null),
    sealed: seal(keys.seal, secrets),
  };
  file.signature = signatureOf(keys.sign, file);
  return `${JSON.stringify(file, null, 2)}\n`;
}

// ----- import: validation --------------------------------------------------------------------

const id = z.number().int().positive();
const userId = z.string().regex(/^\d{1,20}$/);
const at = z.string().min(10);
const rows = <T extends z.ZodRawShape>(shape: T) => z.array(z.looseObject(shape));

const backupSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  exportedAt: at,
  source: z.object({ guildId: z.string(), channelId: z.string() }),
  table: z.looseObject({
    system: z.enum(SYSTEMS),
    language: z.string().max(8),
    trust_mode: z.enum(["secret", "open"]),
    chapter: z.number().int().min(1),
  }),
  characters: rows({
    id,
    name: z.string().min(1).max(64),
    name_key: z.string().min(1).max(64),
    owner_user_id: userId.nullable(),
    kind: z.enum(["pc", "npc"]),
    status: z.string().max(20),
    fate_points: z.number().int().min(0),
    victory_points: z.number().int().min(0),
  }),
  trust: rows({ giver_id: id, holder_id: id, value: z.number().int(), points: z.number().int().min(0) }),
  damage: rows({ id, character_id: id, duration: z.string().max(20) }),
  aspects: rows({ id, character_id: id.nullable(), name: z.string().min(1), kind: z.string().max(20) }),
  reserve: z
    .looseObject({
      total: z.number().int().min(0),
      ceiling: z.number().int(),
      spent: z.number().int().min(0),
    })
    .nullable(),
  flows: rows({ id, kind: z.string().min(1).max(40), status: z.literal("open"), created_by_user_id: userId }),
  log: rows({ id, at, actor_user_id: z.string(), action: z.string().min(1), visible_to: z.null() }),
  dice: rows({ id, user_id: userId, at, visible_to: z.null(), sides: z.array(id), faces: z.array(id) }),
  sealed: z.string().min(1),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});

const sealedSchema = z.object({
  tableState: z.unknown(),
  flowStates: z.record(z.string(), z.unknown()),
  log: rows({ id, at, actor_user_id: z.string(), action: z.string().min(1), visible_to: userId }),
  dice: rows({ id, user_id: userId, at, visible_to: userId, sides: z.array(id), faces: z.array(id) }),
});

export type ValidBackup = Omit<z.infer<typeof backupSchema>, "sealed"> & {
  secrets: z.infer<typeof sealedSchema>;
};

const problem = (text: string): never => refuse("errors.backup.invalid", { problem: text.slice(0, 300) });

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const where = issue.path.length ? issue.path.join(".") : "file";
  return `${where}: ${issue.message}`;
}

/** Every id of a part is unique, and every reference points at a row of the file. */
function checkReferences(file: z.infer<typeof backupSchema>, secrets: z.infer<typeof sealedSchema>) {
  const unique = (name: string, list: readonly { id: number }[]) => {
    const seen = new Set<number>();
    for (const [i, row] of list.entries()) {
      if (seen.has(row.id)) problem(`${name}.${i}.id: ${row.id} appears twice`);
      seen.add(row.id);
    }
    return seen;
  };
  const characters = unique("characters", file.characters);
  unique("damage", file.damage);
  unique("aspects", file.aspects);
  const flows = unique("flows", file.flows);
  unique("log", [...file.log, ...secrets.log]);
  unique("dice", [...file.dice, ...secrets.dice]);
  const character = (where: string, value: number | null | undefined) => {
    if (value != null && !characters.has(value)) problem(`${where}: no character ${value} in the file`);
  };
  for (const [i, link] of file.trust.entries()) {
    character(`trust.${i}.giver_id`, link.giver_id);
    character(`trust.${i}.holder_id`, link.holder_id);
  }
  for (const [i, d] of file.damage.entries()) character(`damage.${i}.character_id`, d.character_id);
  for (const [i, a] of file.aspects.entries()) character(`aspects.${i}.character_id`, a.character_id);
  for (const flowId of Object.keys(secrets.flowStates)) {
    if (!flows.has(Number(flowId))) problem(`sealed flow state ${flowId}: no such flow in the file`);
  }
  for (const flow of file.flows) {
    if (!(String(flow.id) in secrets.flowStates)) problem(`flows.${flow.id}: its state is missing`);
  }
}

/** Reads a backup file: the first problem found is refused by name, before anything changes. */
export async function readBackup(tx: Tx, text: string): Promise<ValidBackup> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return problem(`not JSON (${(error as Error).message})`);
  }
  const envelope = z.object({ format: z.literal(BACKUP_FORMAT) }).safeParse(json);
  if (!envelope.success) return problem("not a table backup made by /table export");
  const version = (json as Row).version;
  if (version !== BACKUP_VERSION)
    return problem(`version ${String(version)}: this bot reads version ${BACKUP_VERSION}`);
  const parsed = backupSchema.safeParse(json);
  if (!parsed.success) return problem(firstIssue(parsed.error));
  const keys = await backupKeys(tx);
  const expected = Buffer.from(signatureOf(keys.sign, json as Row), "hex");
  if (!timingSafeEqual(expected, Buffer.from(parsed.data.signature, "hex"))) {
    return problem(
      "the signature does not match: the file was changed after it was exported, or another bot made it",
    );
  }
  let sealed: unknown;
  try {
    sealed = unseal(keys.seal, parsed.data.sealed);
  } catch {
    return problem("the sealed part cannot be opened with this bot's key");
  }
  const secrets = sealedSchema.safeParse(sealed);
  if (!secrets.success) return problem(`sealed: ${firstIssue(secrets.error)}`);
  checkReferences(parsed.data, secrets.data);
  const { sealed: _omit, ...file } = parsed.data;
  return { ...file, secrets: secrets.data };
}

// ----- import: restore -----------------------------------------------------------------------

async function freshIds(tx: Tx, table: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows = await sqlFor(tx).rows<{ id: string }>`
    SELECT nextval(pg_get_serial_sequence(${`"${table}"`}, 'id'))::text AS id FROM generate_series(1, ${count}::int) ORDER BY 1`;
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

async function insertRows(tx: Tx, table: string, list: readonly Row[]) {
  if (list.length === 0) return;
  // The table name comes from PARTS (and game_table goes through the table store), never from input.
  await sqlFor(tx).rowsOfText(
    `INSERT INTO "${table}" SELECT * FROM jsonb_populate_recordset(NULL::"${table}", $1::jsonb)`,
    [list],
  );
}

const byId = (a: Row, b: Row) => Number(a.id) - Number(b.id);

/**
 * Restores a read backup as a new active table in `place` (GM: the one importing), with new ids;
 * returns the new table's id. Runs inside the caller's transaction: all or nothing.
 */
export async function restoreTable(
  tx: Tx,
  backup: ValidBackup,
  place: { guildId: string; channelId: string; gmUserId: string },
): Promise<number> {
  const [tableId] = await freshIds(tx, "game_table", 1);
  const idMap = async (table: string, list: readonly { id: number }[]) => {
    const sorted = [...list].sort((a, b) => a.id - b.id);
    const fresh = await freshIds(tx, table, sorted.length);
    return new Map(sorted.map((row, i) => [row.id, fresh[i]!]));
  };
  const maps: IdMaps = {
    table: new Map([[1, tableId!]]),
    character: await idMap("character", backup.characters),
    damage: await idMap("damage_entry", backup.damage),
    aspect: await idMap("aspect", backup.aspects),
    flow: await idMap("flow", backup.flows),
  };
  const home = { table_id: tableId };
  await insertTableRow(tx, {
    ...(remapIds(backup.table, maps) as Row),
    state: remapIds(backup.secrets.tableState ?? {}, maps),
    id: tableId!,
    guild_id: place.guildId,
    channel_id: place.channelId,
    active_channel_id: place.channelId,
    gm_user_id: place.gmUserId,
    status: "active",
    archived_at: null,
  });
  const restore = (part: Part, list: readonly Row[], own: ReadonlyMap<number, number> | null) =>
    list.map((row) => ({ ...mapRow(row, part, maps, own), ...home }));
  const part = (key: Part["key"]) => PARTS.find((p) => p.key === key)!;
  await insertRows(tx, "character", restore(part("characters"), backup.characters, maps.character));
  await insertRows(tx, "trust_link", restore(part("trust"), backup.trust, null));
  await insertRows(tx, "damage_entry", restore(part("damage"), backup.damage, maps.damage));
  await insertRows(tx, "aspect", restore(part("aspects"), backup.aspects, maps.aspect));
  if (backup.reserve) await insertRows(tx, "reserve_pool", restore(part("reserve"), [backup.reserve], null));
  const flows = backup.flows.map((flow) => ({
    ...flow,
    state: backup.secrets.flowStates[String(flow.id)],
    // A file exported before flow states had versions holds version-1 states (loading upgrades them).
    state_version: flow.state_version ?? 1,
    panel_channel_id: null,
    panel_message_id: null,
  }));
  await insertRows(tx, "flow", restore(part("flows"), flows, maps.flow));
  for (const [key, table, list] of [
    ["log", "log_entry", [...backup.log, ...backup.secrets.log].sort(byId)],
    ["dice", "dice_rolled", [...backup.dice, ...backup.secrets.dice].sort(byId)],
  ] as const) {
    const fresh = await freshIds(tx, table, list.length);
    const own = new Map(list.map((row, i) => [Number(row.id), fresh[i]!]));
    await insertRows(tx, table, restore(part(key), list, own));
  }
  return tableId!;
}
