import { refuse } from "../errors.js";
import { type Aspect, findAspect } from "./aspects.js";
import { type FatePointHolder, gainFatePoints, spendFatePoints } from "./fate-points.js";

/** Who offers a compel: the GM (from the bank), or a character (themselves or someone else). */
export type Compeller = { kind: "gm" } | { kind: "character"; characterId: string };

/** A pending compel: the target answers with accept or buy off. */
export interface CompelOffer {
  targetId: string;
  aspect: string;
  points: number;
  by: Compeller;
  /** Fate points the compelling character put up (0 for the GM and for a self-compel). */
  escrow: number;
}

/** A compel worth more than this is a typo; the seed's example offers two. */
export const MAX_COMPEL_POINTS = 5;

type Holder = FatePointHolder & { id: string };

/**
 * Offers `target` a complication tied to `aspect` (one of `aspects`: the target's own, the
 * scene's…) worth `points` FP. [decision] A character compelling someone else pays the points
 * up front (docs/rules/fate.md §3.2: fate points pay for "a compel on someone else"); they go to the target
 * on acceptance and back to the compeller on a buy-off. The GM's points come from the bank, and
 * a self-compel costs nothing. An offer may exceed what the target could pay to refuse it: then
 * the target can only accept (`canBuyOff`).
 */
export function offerCompel<C extends Holder>(request: {
  target: Holder;
  aspect: string;
  aspects: readonly Aspect[];
  points: number;
  by: Compeller;
  /** The compelling character, when `by` is a character other than the target. */
  compeller?: C;
}): { offer: CompelOffer; compeller: C | null } {
  const { target, points, by } = request;
  if (!Number.isInteger(points) || points < 1 || points > MAX_COMPEL_POINTS) {
    return refuse("errors.fate.compelPointsInvalid", { max: MAX_COMPEL_POINTS });
  }
  const aspect = findAspect(request.aspects, request.aspect);
  const paying = by.kind === "character" && by.characterId !== target.id;
  let compeller: C | null = null;
  if (paying) {
    if (!request.compeller || request.compeller.id !== by.characterId) {
      throw new Error("offerCompel: the compelling character must be given");
    }
    compeller = spendFatePoints(request.compeller, points);
  }
  return {
    offer: { targetId: target.id, aspect: aspect.name, points, by, escrow: paying ? points : 0 },
    compeller,
  };
}

function assertTarget(offer: CompelOffer, target: Holder): void {
  if (offer.targetId !== target.id) throw new Error("compel: answered by someone who is not its target");
}

/** The target accepts the complication and gains the offered fate points. */
export function acceptCompel<T extends Holder>(offer: CompelOffer, target: T): T {
  assertTarget(offer, target);
  return gainFatePoints(target, offer.points);
}

export function canBuyOff(offer: CompelOffer, target: FatePointHolder): boolean {
  return target.fatePoints >= offer.points;
}

/**
 * The target buys the compel off by paying as many fate points as were offered; impossible
 * with fewer (docs/rules/fate.md §3.2). A compelling character gets their escrow back.
 */
export function buyOffCompel<T extends Holder, C extends Holder>(
  offer: CompelOffer,
  target: T,
  compeller: C | null = null,
): { target: T; compeller: C | null } {
  assertTarget(offer, target);
  if (!canBuyOff(offer, target)) {
    return refuse("errors.fate.cannotBuyOffCompel", { have: target.fatePoints, need: offer.points });
  }
  return { target: spendFatePoints(target, offer.points), compeller: refundEscrow(offer, compeller) };
}

/** A withdrawn (or expired) offer returns the compeller's escrow. */
export function withdrawCompel<C extends Holder>(offer: CompelOffer, compeller: C | null): C | null {
  return refundEscrow(offer, compeller);
}

function refundEscrow<C extends Holder>(offer: CompelOffer, compeller: C | null): C | null {
  if (offer.escrow === 0) return compeller;
  if (!compeller || offer.by.kind !== "character" || compeller.id !== offer.by.characterId) {
    throw new Error("compel: the escrow belongs to the compelling character");
  }
  return gainFatePoints(compeller, offer.escrow);
}

/** A compel on a scene aspect that affects everyone: each character in the scene gets 1 FP. */
export function sceneCompel<T extends FatePointHolder>(characters: readonly T[]): T[] {
  return characters.map((c) => gainFatePoints(c, 1));
}

/**
 * A player compelling their own character ("можно делать Навязывания самому себе") proposes a
 * complication: the GM agrees first, and no fate point changes hands before that
 * (docs/rules/fate.md §3.2). The GM compelling anyone, or a player compelling someone else, does not wait.
 */
export function compelNeedsGmAgreement(
  offer: Pick<CompelOffer, "by" | "targetId">,
  offeredByGm: boolean,
): boolean {
  return !offeredByGm && offer.by.kind === "character" && offer.by.characterId === offer.targetId;
}
