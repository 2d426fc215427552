import { refuse } from "../errors.js";
import type { Stunt } from "./character.js";
import { type FatePointHolder, spendFatePoints } from "./fate-points.js";

/**
 * What a player spends a fate point on outside an invoke (docs/rules/fate.md §3.2): a stunt
 * that needs one ("если мастер считает, что его активация этого требует"), a story detail
 * ("установить факт повествования"), or +2 to a passive opposition (an invoke, see `invokeAspect`).
 */
export const FATE_POINT_USES = ["stunt", "detail", "passive"] as const;
export type FatePointUse = (typeof FATE_POINT_USES)[number];

/**
 * One fate point spent on a stunt or a story detail, always with a reason for the log. A stunt
 * must be the character's own and usable (a magic spent by its ULTIMATE is not, until next week).
 */
export function spendFatePointOn<T extends FatePointHolder>(
  holder: T,
  use: { on: "stunt" | "detail"; reason: string; stunt?: Stunt | null },
): T {
  if (use.reason.trim().length === 0) return refuse("errors.fate.spendNeedsReason");
  if (use.on === "stunt") {
    if (!use.stunt) return refuse("errors.fate.spendNeedsStunt");
    if (use.stunt.disabledUntilNextWeek) return refuse("errors.fate.magicSpent", { name: use.stunt.name });
  }
  return spendFatePoints(holder, 1);
}
