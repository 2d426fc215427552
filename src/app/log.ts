import type { Prisma } from "../generated/prisma/client.js";
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

const json = (v: unknown) => (v === undefined ? undefined : (v as Prisma.InputJsonValue));

/** Appends to the table log inside the caller's transaction: every roll and every change to a tracked number. */
export async function appendLog(ctx: Pick<ActionContext, "tx" | "actor">, tableId: number, entry: LogInput) {
  return appendLogAs(ctx.tx, tableId, ctx.actor.userId, entry);
}

export async function appendLogAs(tx: Tx, tableId: number, actorUserId: string, entry: LogInput) {
  await tx.logEntry.create({
    data: {
      tableId,
      actorUserId,
      action: entry.action,
      characterId: entry.characterId ?? null,
      summary: json(entry.summary)!,
      before: json(entry.before),
      after: json(entry.after),
      dice: json(entry.dice),
      reason: entry.reason ?? null,
      visibleTo: entry.visibleTo ?? null,
    },
  });
}
