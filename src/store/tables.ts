import type { GameTable } from "../generated/prisma/client.js";
import { type Db, QUICK_DEADLINE_MS, sqlFor, type Tx } from "./db.js";
import { type BatchedStatement, literalSql } from "./sql.js";

/**
 * The `game_table` rows. Every write to a table row goes through here, and each notes the row in
 * `tx.tablesWritten`, so the table cache (src/app/table-cache.ts) forgets it before the action's
 * answer goes out; other processes hear of it by the row's NOTIFY trigger.
 */

function written(tx: Tx, tableId: number | "new"): void {
  tx.tablesWritten.add(tableId);
}

/** The channel's active table, or null. */
export async function activeTable(tx: Db | Tx, channelId: string): Promise<GameTable | null> {
  // A lookup by a unique key, no lock: no answer in QUICK_DEADLINE_MS means the server is not answering.
  return sqlFor(tx, { deadlineMs: QUICK_DEADLINE_MS })
    .one<GameTable>`SELECT * FROM game_table WHERE active_channel_id = ${channelId}`;
}

/**
 * Locks the table row for the rest of the transaction (actions on one table happen one at a time):
 * the statement, for a `tx.batch` with the reads that come with the lock (`lockTableForAction`).
 */
export function lockTableStatement(tableId: number): BatchedStatement {
  return literalSql`SELECT * FROM game_table WHERE id = ${tableId} FOR UPDATE`;
}

/** A table by id (any status), or null. */
export async function tableById(tx: Db | Tx, tableId: number): Promise<GameTable | null> {
  return sqlFor(tx).one<GameTable>`SELECT * FROM game_table WHERE id = ${tableId}`;
}

/** A new active table in its channel; the other columns take their defaults (chapter 1, state {}). */
export async function createTable(
  tx: Tx,
  input: Pick<GameTable, "guildId" | "channelId" | "system" | "gmUserId" | "language" | "trustMode">,
): Promise<GameTable> {
  // The channel was cached as "no table": a new row has no id to forget by before it exists.
  written(tx, "new");
  const table = await sqlFor(tx).one<GameTable>`
    INSERT INTO game_table (guild_id, channel_id, active_channel_id, system, gm_user_id, language, trust_mode, created_at)
    VALUES (${input.guildId}, ${input.channelId}, ${input.channelId}, ${input.system}, ${input.gmUserId},
            ${input.language}, ${input.trustMode}, ${new Date()})
    RETURNING *`;
  written(tx, table!.id);
  return table!;
}

/**
 * A whole row as a table backup has it (snake_case columns, `state` as JSON), inserted as is: the
 * restore of `/table import` (src/app/common/table-backup.ts), which chose its id and place.
 */
export async function insertTableRow(tx: Tx, row: Record<string, unknown> & { id: number }): Promise<void> {
  written(tx, "new");
  written(tx, row.id);
  await sqlFor(tx).run`
    INSERT INTO game_table SELECT * FROM jsonb_populate_recordset(NULL::game_table, ${[row]}::jsonb)`;
}

export async function setTableGm(tx: Tx, tableId: number, gmUserId: string): Promise<void> {
  written(tx, tableId);
  await sqlFor(tx).run`UPDATE game_table SET gm_user_id = ${gmUserId} WHERE id = ${tableId}`;
}

export async function setTableLanguage(tx: Tx, tableId: number, language: string): Promise<void> {
  written(tx, tableId);
  await sqlFor(tx).run`UPDATE game_table SET language = ${language} WHERE id = ${tableId}`;
}

/** The per-game table state (`game_table.state`, JSON), replaced whole. */
export async function setTableState(tx: Tx, tableId: number, state: unknown): Promise<void> {
  written(tx, tableId);
  await sqlFor(tx).run`UPDATE game_table SET state = ${state ?? {}}::jsonb WHERE id = ${tableId}`;
}

/** Mountain Witch: the chapter the table is in. */
export async function setTableChapter(tx: Tx, tableId: number, chapter: number): Promise<void> {
  written(tx, tableId);
  await sqlFor(tx).run`UPDATE game_table SET chapter = ${chapter} WHERE id = ${tableId}`;
}

/**
 * Archives a table: it leaves its channel (which can then have a new one), its books kept, and its
 * open flows close with it.
 */
export async function archiveTable(tx: Tx, tableId: number, at: Date): Promise<void> {
  written(tx, tableId);
  await sqlFor(tx).run`
    UPDATE game_table SET status = 'archived', active_channel_id = NULL, archived_at = ${at} WHERE id = ${tableId}`;
  await sqlFor(tx).run`
    UPDATE flow SET status = 'closed', closed_at = ${at} WHERE table_id = ${tableId} AND status = 'open'`;
}

/**
 * A user's tables still marked 'auto' (from before tables had one language) take that user's
 * language, as their GM's. Outside any transaction: the NOTIFY trigger tells every cache.
 */
export async function giveAutoTablesTheirGmLanguage(
  db: Db,
  gmUserId: string,
  language: string,
  options: { deadlineMs?: number } = {},
): Promise<void> {
  await sqlFor(db, options)
    .run`UPDATE game_table SET language = ${language} WHERE gm_user_id = ${gmUserId} AND language = 'auto'`;
}
