import { type Lang, t } from "../../i18n/index.js";
import { consequenceMayClear, RECOVERY_AFTER, type SinceTaken } from "../../rules/fate/recovery.js";
import type { ConsequenceSlot } from "../../rules/fate/stress.js";
import { sqlFor, type Tx } from "../../store/db.js";

/** [decision, docs/rules/fate.md §3.3] A break this long between two moments of play ends a session. */
export const SESSION_BREAK_MS = 12 * 60 * 60 * 1000;

export interface ConsequenceRecovery {
  slot: ConsequenceSlot;
  /** When it was taken, from the table log; null when the log does not say (taken before it was logged). */
  takenAt: Date | null;
  since: SinceTaken | null;
  /** Null when unknown. */
  mayClear: boolean | null;
}

/**
 * When each taken consequence of a character may clear (docs/rules/fate.md §3.3): the moment it
 * was taken comes from the log (a hit that took the slot, or `/consequence add` on a free slot);
 * scenes ended are the Fate conflicts and contests closed since, sessions a break of
 * `SESSION_BREAK_MS` or a new game week, scenarios a new game week (`/fp refresh`).
 */
export async function consequenceRecovery(
  tx: Tx,
  tableId: number,
  characterId: number,
  slots: readonly ConsequenceSlot[],
  now: Date,
): Promise<ConsequenceRecovery[]> {
  const sql = sqlFor(tx);
  const out: ConsequenceRecovery[] = [];
  for (const slot of slots.filter((s) => s.taken)) {
    const taken = await sql.one<{ at: Date }>`
      SELECT at FROM log_entry
      WHERE table_id = ${tableId} AND character_id = ${characterId} AND (
        (action = 'fate.hit' AND coalesce(after -> 'consequences' ? ${slot.id}, false)
          AND NOT coalesce(before -> 'consequences' ? ${slot.id}, false))
        OR (action = 'fate.consequence.add' AND summary -> 'params' ->> 'slot' = ${slot.id}
          AND before ->> 'taken' = 'false'))
      ORDER BY id DESC LIMIT 1`;
    if (!taken) {
      out.push({ slot, takenAt: null, since: null, mayClear: null });
      continue;
    }
    const takenAt = new Date(taken.at);
    const scenes = await sql.one<{ n: number }>`
      SELECT count(*)::int AS n FROM flow
      WHERE table_id = ${tableId} AND kind IN ('fate.conflict', 'fate.contest') AND closed_at > ${takenAt}`;
    const weeks = await sql.one<{ n: number }>`
      SELECT count(*)::int AS n FROM log_entry
      WHERE table_id = ${tableId} AND character_id = ${characterId} AND action = 'fate.fp.refresh' AND at > ${takenAt}`;
    const scenarios = weeks?.n ?? 0;
    const sessions = now.getTime() - takenAt.getTime() >= SESSION_BREAK_MS ? 1 : 0;
    const since: SinceTaken = { scenes: scenes?.n ?? 0, sessions, scenarios };
    out.push({ slot, takenAt, since, mayClear: consequenceMayClear(slot.severity, since) });
  }
  return out;
}

/** "clears after a scene — may clear now" / "… — not yet". */
export function recoveryText(lang: Lang, recovery: ConsequenceRecovery): string {
  const rule = t(lang, `fate.recovery.after.${RECOVERY_AFTER[recovery.slot.severity]}`);
  if (recovery.mayClear === null) return rule;
  return `${rule} — ${t(lang, recovery.mayClear ? "fate.recovery.ready" : "fate.recovery.notYet")}`;
}

/** The note under `/consequence clear`: empty when it is on time or unknown, a warning when early. */
export function earlyClearNote(lang: Lang, recovery: ConsequenceRecovery | undefined): string {
  if (recovery?.mayClear !== false) return "";
  return t(lang, "fate.recovery.early", {
    rule: t(lang, `fate.recovery.after.${RECOVERY_AFTER[recovery.slot.severity]}`),
  });
}
