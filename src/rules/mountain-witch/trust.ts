/**
 * Trust (docs/rules/mountain-witch.md §1.3). The value A gives B becomes points held by B, spendable only on
 * or against A. Values change only at chapter start; points are spent and refill to
 * the values at every chapter start.
 */
import { refuse } from "../errors.js";

export interface TrustLink {
  /** A: the character who gives the trust. */
  giverId: number;
  /** B: the character who holds the points and may spend them on or against A. */
  holderId: number;
  /** The trust value A gives B (integer ≥ 0). */
  value: number;
  /** Points B still holds from A this chapter (0 ≤ points ≤ value). */
  points: number;
}

export type TrustUse = "help" | "betray" | "narration";

/** What one spending did: for the log and for the store to apply. */
export interface TrustSpend {
  use: TrustUse;
  giverId: number;
  holderId: number;
  amount: number;
  before: number;
  after: number;
}

export const HELP_COST = 1;
export const BUY_NARRATION_COST = 1;

export function findLink(links: readonly TrustLink[], giverId: number, holderId: number): TrustLink | null {
  return links.find((l) => l.giverId === giverId && l.holderId === holderId) ?? null;
}

/**
 * Spends `amount` of the points `giverId` gave `holderId`. A missing link holds no
 * points. `have` in the refusal is the holder's own points, shown only to the holder.
 */
export function spendTrust(
  links: readonly TrustLink[],
  giverId: number,
  holderId: number,
  amount: number,
  use: TrustUse,
): TrustSpend {
  if (giverId === holderId) refuse("errors.mw.trustSelf");
  if (!Number.isInteger(amount) || amount < 1) refuse("errors.mw.trustAmountInvalid");
  const have = findLink(links, giverId, holderId)?.points ?? 0;
  if (have < amount) refuse("errors.mw.notEnoughTrust", { have, need: amount });
  return { use, giverId, holderId, amount, before: have, after: have - amount };
}

/** The links with one spending applied. */
export function applyTrustSpend(links: readonly TrustLink[], spend: TrustSpend): TrustLink[] {
  return links.map((l) =>
    l.giverId === spend.giverId && l.holderId === spend.holderId ? { ...l, points: spend.after } : l,
  );
}

/** Points refill to the values (chapter start). */
export function refillTrust(links: readonly TrustLink[]): TrustLink[] {
  return links.map((l) => ({ ...l, points: l.value }));
}

/** A whole, non-negative trust value. */
export function validateInitialTrust(value: number): number {
  if (!Number.isInteger(value)) refuse("errors.mw.trustNotInteger");
  if (value < 0) refuse("errors.mw.trustNegative");
  return value;
}

/**
 * A chapter-start adjustment of one value (docs/rules/mountain-witch.md §1.3): raise by exactly 1, lower by
 * any amount (not below 0), or keep. The +1 limit is per target.
 */
export function validateTrustAdjustment(oldValue: number, newValue: number): number {
  validateInitialTrust(newValue);
  if (newValue > oldValue + 1) refuse("errors.mw.trustRaiseTooHigh", { max: oldValue + 1 });
  return newValue;
}

/**
 * A starting value (RULES §1.3, §1.6): it comes from the zodiac; before chapter 1 the giver
 * may raise it by 1 at most or lower it (not below 0), as at a chapter start.
 */
export function validateStartingTrust(zodiacValue: number, newValue: number): number {
  validateInitialTrust(newValue);
  if (newValue > zodiacValue + 1)
    refuse("errors.mw.startingTrustTooHigh", { zodiac: zodiacValue, max: zodiacValue + 1 });
  return newValue;
}
