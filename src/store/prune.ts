import type { Logger } from "pino";
import { type Db, sqlFor } from "./db.js";

/**
 * Discord never delivers an interaction again after its token expires (15 minutes), and the router
 * refuses any that arrive late; a recorded id older than an hour can go. At 200 interactions/s the
 * table would otherwise grow by 17 million rows a day.
 */
export const KEEP_PROCESSED_INTERACTIONS_MS = 60 * 60 * 1000;
const EVERY_MS = 5 * 60 * 1000;
/** Small batches keep each DELETE short, so it never holds up the players' own statements. */
const BATCH = 5000;

/** Deletes recorded interaction ids older than `before`; returns how many. */
export async function pruneProcessedInteractions(db: Db, before: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await sqlFor(db).run`
      DELETE FROM processed_interaction WHERE ctid IN (
        SELECT ctid FROM processed_interaction WHERE processed_at < ${before} LIMIT ${BATCH})`;
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

/** Prunes every five minutes (and once soon after start-up); returns a stop function. */
export function startPruning(db: Db, log: Pick<Logger, "info" | "warn">): () => void {
  const run = async () => {
    try {
      const deleted = await pruneProcessedInteractions(
        db,
        new Date(Date.now() - KEEP_PROCESSED_INTERACTIONS_MS),
      );
      if (deleted > 0) log.info({ deleted }, "pruned old interaction ids");
    } catch (error) {
      log.warn({ err: error }, "pruning old interaction ids failed; will retry");
    }
  };
  const first = setTimeout(run, 30_000);
  const timer = setInterval(run, EVERY_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
