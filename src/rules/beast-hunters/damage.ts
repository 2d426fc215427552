/** Strikes and damage boxes (docs/rules/beast-hunters.md §2.5). */
import { STAGES, type Stage, type StageCounts } from "./types.js";

/** Advantage points per strike die (and per achievement die during the challenge). */
export const AP_PER_DIE = 4;
/** Advantage points per achievement die bought after a won challenge. */
export const AP_PER_DIE_AFTER = 6;

/**
 * The stage a strike total lands on; null: no damage. [decision] docs/rules/beast-hunters.md §2.5 table:
 * ≤0 none, 1–5 light, 6–9 medium, 10–13 heavy, 14–17 knockout, 18+ fatal.
 */
export function strikeStage(total: number): Stage | null {
  if (total <= 0) return null;
  if (total <= 5) return "light";
  if (total <= 9) return "medium";
  if (total <= 13) return "heavy";
  if (total <= 17) return "knockout";
  return "fatal";
}

/** Strike total: the dice + the striker's best attack resource − the target's best defence resource. */
export function strikeTotal(dice: readonly number[], attack: number, defence: number): number {
  return dice.reduce((sum, d) => sum + d, 0) + attack - defence;
}

export interface MarkedDamage {
  /** The stage whose box was filled: the struck stage or a higher one; null if every box from there up is full. */
  stage: Stage | null;
  damage: StageCounts;
}

/** Fills one box of `stage`; when that stage is full the damage moves to the next stage up. */
export function markDamage(boxes: StageCounts, damage: StageCounts, stage: Stage): MarkedDamage {
  for (let i = STAGES.indexOf(stage); i < STAGES.length; i++) {
    const at = STAGES[i]!;
    if (damage[at] < boxes[at]) return { stage: at, damage: { ...damage, [at]: damage[at] + 1 } };
  }
  return { stage: null, damage: { ...damage } };
}

/** All boxes of a stage are filled. */
export function stageFull(boxes: StageCounts, damage: StageCounts, stage: Stage): boolean {
  return damage[stage] >= boxes[stage];
}
