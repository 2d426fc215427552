import type { Character } from "../generated/prisma/client.js";
import { type Db, type OpeningRead, sqlFor, Tx } from "./db.js";
import { intArray, literalSql, modelFromRow } from "./sql.js";

/**
 * The `character` rows the common commands read and write. A character is live until it is
 * deleted (`deleted_at` set); its name key (src/app/names.ts) is unique among a table's live ones.
 */

/**
 * The table's live characters, oldest first: a game whose actions look characters up again and
 * again (Mountain Witch: the trust matrix's names, a target by name) names this read in its
 * `openingReads`, and the lookups below that ask for a part of it take it from there until the
 * transaction writes a character, filtering as their SQL does.
 */
export const liveTableCharactersRead: OpeningRead = {
  statement: ({ tableId }) => literalSql`
    SELECT * FROM "character" WHERE table_id = ${tableId} AND deleted_at IS NULL ORDER BY id`,
  scope: ({ tableId }) => String(tableId),
  table: "character",
};

/** The table's live characters as read with the opening, oldest first; undefined if they were not. */
function openedLiveCharacters(tx: Db | Tx, tableId: number): Character[] | undefined {
  if (!(tx instanceof Tx)) return undefined;
  return tx.openedRows(liveTableCharactersRead, String(tableId))?.map((row) => modelFromRow<Character>(row));
}

/** The table's live character with this name key, or null; `except` leaves one character out (a rename). */
export async function liveCharacterByKey(
  tx: Db | Tx,
  tableId: number,
  key: string,
  options: { except?: number } = {},
): Promise<Character | null> {
  const opened = openedLiveCharacters(tx, tableId);
  if (opened) return opened.find((c) => c.nameKey === key && c.id !== (options.except ?? 0)) ?? null;
  return sqlFor(tx).one<Character>`
    SELECT * FROM "character"
    WHERE table_id = ${tableId} AND name_key = ${key} AND deleted_at IS NULL AND id <> ${options.except ?? 0}`;
}

/** The table's live character by id (ids from buttons are user input: it must be this table's), or null. */
export async function liveCharacterById(tx: Db | Tx, tableId: number, id: number): Promise<Character | null> {
  const opened = openedLiveCharacters(tx, tableId);
  if (opened) return opened.find((c) => c.id === id) ?? null;
  return sqlFor(tx).one<Character>`
    SELECT * FROM "character" WHERE id = ${id} AND table_id = ${tableId} AND deleted_at IS NULL`;
}

/** Mountain Witch: the table's live character of this zodiac sign, or null; `except` leaves one character out. */
export async function liveCharacterOfSign(
  tx: Db | Tx,
  tableId: number,
  sign: string,
  options: { except?: number } = {},
): Promise<Character | null> {
  return sqlFor(tx).one<Character>`
    SELECT * FROM "character"
    WHERE table_id = ${tableId} AND zodiac = ${sign} AND deleted_at IS NULL AND id <> ${options.except ?? 0}
    ORDER BY id LIMIT 1`;
}

/** A character by id, whatever its table or state, or null. */
export async function characterById(tx: Db | Tx, id: number): Promise<Character | null> {
  return sqlFor(tx).one<Character>`SELECT * FROM "character" WHERE id = ${id}`;
}

/** The user's live characters at the table, oldest first. */
export async function ownedCharacters(tx: Db | Tx, tableId: number, userId: string): Promise<Character[]> {
  const live = openedLiveCharacters(tx, tableId);
  if (live) return live.filter((c) => c.ownerUserId === userId);
  const opened =
    tx instanceof Tx ? tx.openedRows(ownedCharactersRead, ownedScope(tableId, userId)) : undefined;
  if (opened) return opened.map((row) => modelFromRow<Character>(row));
  return sqlFor(tx).rows<Character>`
    SELECT * FROM "character" WHERE table_id = ${tableId} AND owner_user_id = ${userId} AND deleted_at IS NULL
    ORDER BY id`;
}

/**
 * Most actions start by finding the actor's own character (`actingCharacter`): execute.ts reads
 * them with the transaction's opening, and `ownedCharacters` takes them until the transaction
 * writes a character.
 */
export const ownedCharactersRead: OpeningRead = {
  statement: ({ tableId, userId }) => literalSql`
    SELECT * FROM "character" WHERE table_id = ${tableId} AND owner_user_id = ${userId} AND deleted_at IS NULL
    ORDER BY id`,
  scope: ({ tableId, userId }) => ownedScope(tableId, userId),
  table: "character",
};

function ownedScope(tableId: number, userId: string): string {
  return `${tableId}:${userId}`;
}

export type CharacterListing = Pick<Character, "name" | "kind" | "ownerUserId" | "strength" | "status">;

/** The table's live characters as lists show them: by kind ("npc" sorts before "pc"), then name. */
export async function tableCharacters(tx: Db | Tx, tableId: number): Promise<CharacterListing[]> {
  return sqlFor(tx).rows<CharacterListing>`
    SELECT name, kind, owner_user_id, strength, status FROM "character"
    WHERE table_id = ${tableId} AND deleted_at IS NULL
    ORDER BY kind, name`;
}

/** Autocomplete: the names of the table's live characters whose name key contains `key`, by name. */
export async function liveCharacterNamesContaining(
  tx: Db | Tx,
  tableId: number,
  key: string,
  limit: number,
): Promise<string[]> {
  // strpos: a plain substring test, so `%` or `_` typed by the user match only themselves.
  const rows = await sqlFor(tx).rows<Pick<Character, "name">>`
    SELECT name FROM "character"
    WHERE table_id = ${tableId} AND deleted_at IS NULL AND strpos(name_key, ${key}) > 0
    ORDER BY name LIMIT ${limit}`;
  return rows.map((r) => r.name);
}

/** Names by id (deleted characters too: the log still names them). */
export async function characterNames(tx: Db | Tx, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await sqlFor(tx).rows<Pick<Character, "id" | "name">>`
    SELECT id, name FROM "character" WHERE id = ANY(${intArray(ids)}::int[])`;
  return new Map(rows.map((c) => [c.id, c.name]));
}

/** A new character; sheet, points and status take their defaults. */
export async function createCharacter(
  tx: Tx,
  input: Pick<Character, "tableId" | "name" | "nameKey" | "ownerUserId" | "kind" | "strength" | "zodiac">,
): Promise<Character> {
  const character = await sqlFor(tx).one<Character>`
    INSERT INTO "character" (table_id, name, name_key, owner_user_id, kind, strength, zodiac, created_at)
    VALUES (${input.tableId}, ${input.name}, ${input.nameKey}, ${input.ownerUserId}, ${input.kind},
            ${input.strength}, ${input.zodiac}, ${new Date()})
    RETURNING *`;
  return character!;
}

export async function renameCharacter(tx: Tx, id: number, name: string, key: string): Promise<void> {
  await sqlFor(tx).run`UPDATE "character" SET name = ${name}, name_key = ${key} WHERE id = ${id}`;
}

/**
 * Soft delete: the log keeps referring to the row, and its name and zodiac sign become free again
 * (the name key gets a suffix no typed name can have).
 */
export async function deleteCharacter(
  tx: Tx,
  character: Pick<Character, "id" | "nameKey">,
  at: Date,
): Promise<void> {
  await sqlFor(tx).run`
    UPDATE "character" SET deleted_at = ${at}, name_key = ${`${character.nameKey}#deleted#${character.id}`}, zodiac = NULL
    WHERE id = ${character.id}`;
}

/** The table's live characters, oldest first. */
export async function liveTableCharacters(tx: Db | Tx, tableId: number): Promise<Character[]> {
  const opened = openedLiveCharacters(tx, tableId);
  if (opened) return opened;
  return sqlFor(tx).rows<Character>`
    SELECT * FROM "character" WHERE table_id = ${tableId} AND deleted_at IS NULL ORDER BY id`;
}

/** The table's character by id, deleted or not (a flow still names it), or null. */
export async function characterAtTable(tx: Db | Tx, tableId: number, id: number): Promise<Character | null> {
  // A live one is among the opening's; a deleted one is not, so it is queried.
  const live = openedLiveCharacters(tx, tableId)?.find((c) => c.id === id);
  if (live) return live;
  return sqlFor(tx).one<Character>`SELECT * FROM "character" WHERE id = ${id} AND table_id = ${tableId}`;
}

/** Whether the user owns any of these characters at the table (deleted ones count). */
export async function ownsAnyCharacterOf(
  tx: Db | Tx,
  tableId: number,
  userId: string,
  ids: readonly number[],
): Promise<boolean> {
  const own = await sqlFor(tx).one`
    SELECT 1 AS own FROM "character"
    WHERE table_id = ${tableId} AND owner_user_id = ${userId} AND ${ids}::jsonb @> to_jsonb(id)
    LIMIT 1`;
  return own !== null;
}

/** Of these characters, the table's live ones that are the user's or nobody's (the GM's), by name. */
export async function liveCharactersOfUserOrGmAmong(
  tx: Db | Tx,
  tableId: number,
  ids: readonly number[],
  userId: string,
): Promise<Character[]> {
  return sqlFor(tx).rows<Character>`
    SELECT * FROM "character"
    WHERE table_id = ${tableId} AND id = ANY(${intArray(ids)}::int[]) AND deleted_at IS NULL
      AND (owner_user_id IS NULL OR owner_user_id = ${userId})
    ORDER BY name`;
}

/** Fate: writes a character's sheet, fate points and refresh; the updated row, or null if it is gone. */
export async function saveSheetFatePointsAndRefresh(
  tx: Tx,
  id: number,
  values: { sheet: object; fatePoints: number; refresh: number },
): Promise<Character | null> {
  return sqlFor(tx).one<Character>`
    UPDATE "character" SET sheet = ${values.sheet}::jsonb, fate_points = ${values.fatePoints}, refresh = ${values.refresh}
    WHERE id = ${id} RETURNING *`;
}

/**
 * Sets a character's fate points, sent with the COMMIT or before the next statement (`Tx.later`),
 * which then sees it.
 */
export async function setFatePointsLater(tx: Tx, id: number, fatePoints: number): Promise<void> {
  await tx.later`UPDATE "character" SET fate_points = ${fatePoints} WHERE id = ${id}`;
}

/** The table's live player characters still in play (`active`), oldest first. */
export async function activePlayerCharacters(tx: Db | Tx, tableId: number): Promise<Character[]> {
  const opened = openedLiveCharacters(tx, tableId);
  if (opened) return opened.filter((c) => c.kind === "pc" && c.status === "active");
  return sqlFor(tx).rows<Character>`
    SELECT * FROM "character"
    WHERE table_id = ${tableId} AND kind = 'pc' AND status = 'active' AND deleted_at IS NULL
    ORDER BY id`;
}

/** The table's live player characters that are active, retired or dead (not otherwise out), oldest first. */
export async function livePlayerCharactersActiveRetiredOrDead(
  tx: Db | Tx,
  tableId: number,
): Promise<Character[]> {
  const opened = openedLiveCharacters(tx, tableId);
  if (opened)
    return opened.filter((c) => c.kind === "pc" && ["active", "retired", "dead"].includes(c.status));
  return sqlFor(tx).rows<Character>`
    SELECT * FROM "character"
    WHERE table_id = ${tableId} AND kind = 'pc' AND status IN ('active', 'retired', 'dead') AND deleted_at IS NULL
    ORDER BY id`;
}

/** Writes a character's sheet (JSON); the updated row, or null if there is no such character. */
export async function saveCharacterSheet(tx: Tx, id: number, sheet: unknown): Promise<Character | null> {
  return sqlFor(tx)
    .one<Character>`UPDATE "character" SET sheet = ${sheet}::jsonb WHERE id = ${id} RETURNING *`;
}

export async function setCharacterStatus(tx: Tx, id: number, status: string): Promise<void> {
  await sqlFor(tx).run`UPDATE "character" SET status = ${status} WHERE id = ${id}`;
}

/** Adds to a character's victory points; its id and new count, or null if there is no such character. */
export async function creditVictoryPoints(
  tx: Tx,
  id: number,
  amount: number,
): Promise<Pick<Character, "id" | "victoryPoints"> | null> {
  return sqlFor(tx).one<Pick<Character, "id" | "victoryPoints">>`
    UPDATE "character" SET victory_points = victory_points + ${amount} WHERE id = ${id}
    RETURNING id, victory_points`;
}

/**
 * Sets a character's victory points only if they are still `before` (so two racing spends never go
 * below zero); whether it was written.
 */
export async function setVictoryPointsIfUnchanged(
  tx: Tx,
  id: number,
  change: { before: number; after: number },
): Promise<boolean> {
  const updated = await sqlFor(tx).run`
    UPDATE "character" SET victory_points = ${change.after} WHERE id = ${id} AND victory_points = ${change.before}`;
  return updated === 1;
}

/** Mountain Witch: gives a character a zodiac sign; the updated row, or null if there is no such character. */
export async function setCharacterZodiac(tx: Tx, id: number, sign: string): Promise<Character | null> {
  return sqlFor(tx).one<Character>`UPDATE "character" SET zodiac = ${sign} WHERE id = ${id} RETURNING *`;
}

/** Autocomplete: the names of the table's live player characters whose name key contains `key`, by name. */
export async function livePlayerCharacterNamesContaining(
  tx: Db | Tx,
  tableId: number,
  key: string,
  limit: number,
): Promise<string[]> {
  // strpos: a plain substring test (no LIKE wildcards in what the user typed); true for "".
  const rows = await sqlFor(tx).rows<Pick<Character, "name">>`
    SELECT name FROM "character"
    WHERE table_id = ${tableId} AND kind = 'pc' AND deleted_at IS NULL AND strpos(name_key, ${key}) > 0
    ORDER BY name LIMIT ${limit}`;
  return rows.map((r) => r.name);
}

/** The user's live player characters at the active tables of this game, by table. */
export async function ownedPlayerCharactersAtActiveTables(
  tx: Db | Tx,
  userId: string,
  system: string,
  limit: number,
): Promise<Pick<Character, "name" | "tableId">[]> {
  return sqlFor(tx).rows<Pick<Character, "name" | "tableId">>`
    SELECT c.name, c.table_id FROM "character" c JOIN game_table g ON g.id = c.table_id
    WHERE c.owner_user_id = ${userId} AND c.kind = 'pc' AND c.deleted_at IS NULL
      AND g.status = 'active' AND g.system = ${system}
    ORDER BY c.table_id LIMIT ${limit}`;
}

/** The ids of the active tables of this game where the user has a live player character (each once, no order). */
export async function activeTablesWithOwnedPlayerCharacter(
  tx: Db | Tx,
  userId: string,
  system: string,
): Promise<number[]> {
  const rows = await sqlFor(tx).rows<Pick<Character, "tableId">>`
    SELECT DISTINCT c.table_id FROM "character" c JOIN game_table g ON g.id = c.table_id
    WHERE c.owner_user_id = ${userId} AND c.kind = 'pc' AND c.deleted_at IS NULL
      AND g.status = 'active' AND g.system = ${system}`;
  return rows.map((r) => r.tableId);
}

/** The table's live player characters that have a player (an owner), oldest first. */
export async function livePlayerCharactersWithOwner(tx: Db | Tx, tableId: number): Promise<Character[]> {
  const opened = openedLiveCharacters(tx, tableId);
  if (opened) return opened.filter((c) => c.kind === "pc" && c.ownerUserId !== null);
  return sqlFor(tx).rows<Character>`
    SELECT * FROM "character"
    WHERE table_id = ${tableId} AND kind = 'pc' AND deleted_at IS NULL AND owner_user_id IS NOT NULL
    ORDER BY id`;
}

/** The table's live characters by name. */
export async function liveTableCharactersByName(tx: Db | Tx, tableId: number): Promise<Character[]> {
  return sqlFor(tx).rows<Character>`
    SELECT * FROM "character" WHERE table_id = ${tableId} AND deleted_at IS NULL ORDER BY name`;
}

/** The table's live player characters that are active, incapacitated or dead (not retired), oldest first. */
export async function livePlayerCharactersActiveIncapacitatedOrDead(
  tx: Db | Tx,
  tableId: number,
): Promise<Character[]> {
  const opened = openedLiveCharacters(tx, tableId);
  if (opened)
    return opened.filter((c) => c.kind === "pc" && ["active", "incapacitated", "dead"].includes(c.status));
  return sqlFor(tx).rows<Character>`
    SELECT * FROM "character"
    WHERE table_id = ${tableId} AND kind = 'pc' AND deleted_at IS NULL AND status IN ('active', 'incapacitated', 'dead')
    ORDER BY id`;
}

/** Statuses by id (deleted characters too), whatever their table. */
export async function characterStatuses(tx: Db | Tx, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await sqlFor(tx).rows<Pick<Character, "id" | "status">>`
    SELECT id, status FROM "character" WHERE id = ANY(${intArray(ids)}::int[])`;
  return new Map(rows.map((c) => [c.id, c.status]));
}
