import type { Severity } from "./stress.js";

/**
 * What has happened at the table since a consequence was taken (docs/rules/fate.md §3.3,
 * recovery): scenes ended (conflicts and contests closed), sessions and scenarios ended.
 */
export interface SinceTaken {
  scenes: number;
  sessions: number;
  scenarios: number;
}

/** What must end before each consequence may clear: mild a full scene, moderate a session, severe a scenario. */
export const RECOVERY_AFTER: Readonly<Record<Severity, keyof SinceTaken>> = {
  mild: "scenes",
  moderate: "sessions",
  severe: "scenarios",
};

/**
 * May a consequence of this severity clear now? "Mild clears after a full scene, moderate after a
 * session, severe after a scenario" — and a longer break includes the shorter ones (a session
 * that ended also ended its scene). The GM still confirms; this only says whether it is early.
 */
export function consequenceMayClear(severity: Severity, since: SinceTaken): boolean {
  const needed = RECOVERY_AFTER[severity];
  const scenes = since.scenes + since.sessions + since.scenarios;
  const sessions = since.sessions + since.scenarios;
  const reached = { scenes, sessions, scenarios: since.scenarios };
  return reached[needed] > 0;
}
