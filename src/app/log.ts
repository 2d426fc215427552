import type { MessageKey } from "../i18n/index.js";
import { type Db, sqlFor, type Tx } from "../store/db.js";
import { intArray } from "../store/sql.js";
import type { ActionContext } from "./use-case.js";

/** A log entry's text: a message key, rendered in the reader's language, and its parameters. */
export interface LogSummary {
  key: MessageKey;
  params?: Record<string, string | number>;
}

export interface LogInput {
  /** A stable action name, e.g. `roll`, `trust.spend`, `reserve.spend`. */
  action: string;
  /** A message key (rendered in the reader's language) and its parameters. Never a secret unless `visibleTo` is set. */
  summary: LogSummary;
  characterId?: number | null;
  before?: unknown;
  after?: unknown;
  dice?: unknown;
  reason?: string | null;
  /** Only this user may read the entry (secret rolls, dark fates, trust submissions). */
  visibleTo?: string | null;
}

/** Appends to the table log inside the caller's transaction: every roll and every change to a tracked number. */
export async function appendLog(ctx: Pick<ActionContext, "tx" | "actor">, tableId: number, entry: LogInput) {
  return appendLogAs(ctx.tx, tableId, ctx.actor.userId, entry);
}

/** JSON text for a jsonb parameter; undefined (and null) become SQL NULL, as the column default. */
const jsonText = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

/**
 * Nearly every action appends to the log, and nothing reads the entry back before the commit: it
 * goes with the COMMIT, in the same round trip (`Tx.later`).
 */
export async function appendLogAs(tx: Tx, tableId: number, actorUserId: string, entry: LogInput) {
  await tx.later`
    INSERT INTO log_entry (table_id, at, actor_user_id, action, character_id, summary, before, after, dice, reason, visible_to)
    VALUES (${tableId}, ${new Date()}, ${actorUserId}, ${entry.action}, ${entry.characterId ?? null},
      ${jsonText(entry.summary)}::jsonb, ${jsonText(entry.before)}::jsonb, ${jsonText(entry.after)}::jsonb,
      ${jsonText(entry.dice)}::jsonb, ${entry.reason ?? null}, ${entry.visibleTo ?? null})`;
}

/**
 * Records the interaction id and (with `log`) appends its log entry in ONE autocommitted
 * statement: atomic and idempotent with no transaction, for actions whose only change is the log
 * (rolls — two thirds of the statements of a transaction saved). The dice it rolled, for the
 * table's statistics, go in the same statement. Returns false when the id was already recorded:
 * nothing is appended. The commit does not wait for the disk: a PostgreSQL crash may lose the
 * last fraction of a second of such entries, never make them inconsistent.
 */
export async function recordOnce(
  db: Db,
  interactionId: string,
  log: {
    tableId: number;
    actorUserId: string;
    entry: LogInput;
    /** The dice rolled (`takeRolledDice`), counted in the statistics of `visibleTo` alone when set. */
    dice?: { sides: number[]; faces: number[] };
  } | null,
): Promise<boolean> {
  if (!log) {
    const inserted = await sqlFor(db).run`
      WITH quick AS (SELECT set_config('synchronous_commit', 'off', true))
      INSERT INTO processed_interaction (id) SELECT ${interactionId} FROM quick ON CONFLICT DO NOTHING`;
    return inserted === 1;
  }
  const { tableId, actorUserId, entry, dice } = log;
  const at = new Date();
  const sides = intArray(dice?.sides ?? []);
  const inserted = await sqlFor(db).run`
    WITH fresh AS (INSERT INTO processed_interaction (id) VALUES (${interactionId}) ON CONFLICT DO NOTHING RETURNING id),
      quick AS (SELECT set_config('synchronous_commit', 'off', true)),
      rolled AS (
        INSERT INTO dice_rolled (table_id, user_id, at, visible_to, sides, faces)
        SELECT ${tableId}, ${actorUserId}, ${at}, ${entry.visibleTo ?? null}, ${sides}::int[],
          ${intArray(dice?.faces ?? [])}::int[] FROM fresh WHERE cardinality(${sides}::int[]) > 0)
    INSERT INTO log_entry (table_id, at, actor_user_id, action, character_id, summary, before, after, dice, reason, visible_to)
    SELECT ${tableId}, ${at}, ${actorUserId}, ${entry.action}, ${entry.characterId ?? null},
      ${jsonText(entry.summary)}::jsonb, ${jsonText(entry.before)}::jsonb, ${jsonText(entry.after)}::jsonb,
      ${jsonText(entry.dice)}::jsonb, ${entry.reason ?? null}, ${entry.visibleTo ?? null}
    FROM fresh, quick`;
  return inserted === 1;
}
