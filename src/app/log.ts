import type { Tx } from "../store/db.js";
import type { ActionContext } from "./use-case.js";

export interface LogInput {
  /** A stable action name, e.g. `roll`, `trust.spend`, `reserve.spend`. */
  action: string;
  /** A message key (rendered in the reader's language) and its parameters. Never a secret unless `visibleTo` is set. */
  summary: { key: string; params?: Record<string, string | number> };
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
 * One raw INSERT (no RETURNING): nearly every action appends to the log, and the query builder's
 * create costs the bot about twice the CPU (bench/statements.ts).
 */
export async function appendLogAs(tx: Tx, tableId: number, actorUserId: string, entry: LogInput) {
  await tx.$executeRaw`
    INSERT INTO log_entry (table_id, at, actor_user_id, action, character_id, summary, before, after, dice, reason, visible_to)
    VALUES (${tableId}, ${new Date()}, ${actorUserId}, ${entry.action}, ${entry.characterId ?? null},
      ${jsonText(entry.summary)}::jsonb, ${jsonText(entry.before)}::jsonb, ${jsonText(entry.after)}::jsonb,
      ${jsonText(entry.dice)}::jsonb, ${entry.reason ?? null}, ${entry.visibleTo ?? null})`;
}
