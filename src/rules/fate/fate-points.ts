import { refuse } from "../errors.js";

/** Anything that holds fate points: a character or a faction. */
export interface FatePointHolder {
  fatePoints: number;
}

export const DEFAULT_REFRESH = 3;

export function spendFatePoints<T extends FatePointHolder>(holder: T, amount = 1): T {
  if (holder.fatePoints < amount) {
    return refuse("errors.fate.notEnoughFatePoints", { have: holder.fatePoints, need: amount });
  }
  return { ...holder, fatePoints: holder.fatePoints - amount };
}

export function gainFatePoints<T extends FatePointHolder>(holder: T, amount = 1): T {
  return { ...holder, fatePoints: holder.fatePoints + amount };
}

/** The GM's give or take (`/fp give`, negative to take): never below zero. */
export function adjustFatePoints<T extends FatePointHolder>(holder: T, change: number): T {
  if (!Number.isInteger(change)) return refuse("errors.fate.fatePointsChangeInvalid");
  if (holder.fatePoints + change < 0) {
    return refuse("errors.fate.fatePointsBelowZero", { have: holder.fatePoints, change: -change });
  }
  return { ...holder, fatePoints: holder.fatePoints + change };
}

/**
 * Fate points at the start of a new game week: back up to the refresh. [decision, docs/rules/fate.md §3.2]
 * A character holding more keeps them (Fate convention).
 */
export function refreshFatePoints(fatePoints: number, refresh: number): number {
  return Math.max(fatePoints, refresh);
}
