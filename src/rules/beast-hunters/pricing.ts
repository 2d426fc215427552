/**
 * Buying the obstacle, the reserve and the GM's choices in negotiation (docs/rules/beast-hunters.md §2.2–2.4).
 * Every price is itemised so the bot can explain the number back to the table.
 */
import { refuse } from "../errors.js";
import type { NamedValue, ResourceValue } from "./parse.js";
import { validateBoxes } from "./sheet.js";
import {
  MINIMAL_BOXES,
  type Phase,
  type ResourceKind,
  STAGES,
  type Stage,
  type StageCounts,
} from "./types.js";

/** A hunter resource the GM pays to have neutralised before the challenge starts. */
export interface NeutraliseInAdvance {
  /** The hunter's characterId. */
  hunter: string;
  resource: string;
  /** The resource's value on the hunter's sheet (may be odd). */
  value: number;
}

/** What the GM buys, all in the challenge's sphere. */
export interface ObstacleSpec {
  traits: NamedValue[];
  resources: ResourceValue[];
  initiative: number;
  /** Damage boxes; the minimal 1/1/1/1/1 when left out. More only in a climax. */
  boxes?: StageCounts;
  neutralise?: NeutraliseInAdvance[];
}

export type PriceLine =
  | { item: "minimalBoxes"; price: number }
  | { item: "trait"; name: string; value: number; price: number }
  | { item: "resource"; name: string; kind: ResourceKind; value: number; price: number }
  | { item: "initiative"; value: number; price: number }
  | { item: "extraBoxes"; stage: Stage; count: number; price: number }
  | { item: "neutralise"; hunter: string; resource: string; value: number; price: number };

export interface ObstaclePrice {
  lines: PriceLine[];
  /** Sum of the lines: checked against the ceiling, and the VP for beating the obstacle. */
  rating: number;
}

/** The mandatory minimal set of boxes costs 1 (docs/rules/beast-hunters.md §2.4 [decision]: the rule, not the seed's example). */
export const MINIMAL_BOXES_PRICE = 1;
/** Traits, resources and initiative: 1 point per +2. */
export const POINTS_PER_PRICE = 2;
/** Resource neutralised in advance starts with this margin. */
export const NEUTRALISED_IN_ADVANCE_MARGIN = 5;
/** Whatever the phase, a GM's concession costs twice the rating. */
export const CONCESSION_FACTOR = 2;

function checkBoughtValue(name: string, value: number): void {
  if (!Number.isInteger(value) || value <= 0) refuse("errors.bh.valueNotPositive", { name, value });
}

/**
 * [decision] docs/rules/beast-hunters.md §2.4: 1 point per +2, an odd value rounded up — the seed's
 * own bandit has «Трус +1», which costs 1 like a +2.
 */
function valuePrice(value: number): number {
  return Math.ceil(value / POINTS_PER_PRICE);
}

function checkUniqueNames(names: string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    const key = name.trim().toLowerCase();
    if (seen.has(key)) refuse("errors.bh.duplicateName", { name });
    seen.add(key);
  }
}

/** Itemised price and rating of an obstacle. `climax`: the adventure's last challenge, where extra boxes may be bought. */
export function priceObstacle(spec: ObstacleSpec, options: { climax?: boolean } = {}): ObstaclePrice {
  const lines: PriceLine[] = [{ item: "minimalBoxes", price: MINIMAL_BOXES_PRICE }];

  checkUniqueNames(spec.traits.map((t) => t.name));
  for (const trait of spec.traits) {
    checkBoughtValue(trait.name, trait.value);
    lines.push({
      item: "trait",
      name: trait.name,
      value: trait.value,
      price: valuePrice(trait.value),
    });
  }

  checkUniqueNames(spec.resources.map((r) => r.name));
  for (const resource of spec.resources) {
    checkBoughtValue(resource.name, resource.value);
    lines.push({
      item: "resource",
      name: resource.name,
      kind: resource.kind,
      value: resource.value,
      price: valuePrice(resource.value),
    });
  }

  if (!Number.isInteger(spec.initiative) || spec.initiative < 0) {
    refuse("errors.bh.badInitiative", { value: spec.initiative });
  }
  if (spec.initiative % POINTS_PER_PRICE !== 0) refuse("errors.bh.oddInitiative", { value: spec.initiative });
  if (spec.initiative > 0) {
    lines.push({ item: "initiative", value: spec.initiative, price: spec.initiative / POINTS_PER_PRICE });
  }

  const boxes = spec.boxes ?? MINIMAL_BOXES;
  validateBoxes(boxes);
  const extras = STAGES.map((stage) => ({ stage, count: boxes[stage] - MINIMAL_BOXES[stage] })).filter(
    (extra) => extra.count > 0,
  );
  if (extras.length > 0 && !options.climax) refuse("errors.bh.extraBoxesOnlyInClimax");
  for (const extra of extras) {
    // [decision] docs/rules/beast-hunters.md §2.4: one point per extra box.
    lines.push({ item: "extraBoxes", stage: extra.stage, count: extra.count, price: extra.count });
  }

  const neutralised = new Set<string>();
  for (const n of spec.neutralise ?? []) {
    if (!Number.isInteger(n.value) || n.value <= 0) {
      refuse("errors.bh.valueNotPositive", { name: n.resource, value: n.value });
    }
    const key = `${n.hunter}\u0000${n.resource.trim().toLowerCase()}`;
    if (neutralised.has(key)) refuse("errors.bh.duplicateName", { name: n.resource });
    neutralised.add(key);
    lines.push({
      item: "neutralise",
      hunter: n.hunter,
      resource: n.resource,
      value: n.value,
      price: Math.ceil(n.value / POINTS_PER_PRICE),
    });
  }

  return { lines, rating: lines.reduce((sum, line) => sum + line.price, 0) };
}

/** Going to dice multiplies the rating: phase 1 ×2, phase 2 ×1, phase 3 ×1.5 (as [numerator, denominator]). */
export const PHASE_MULTIPLIER: Record<Phase, readonly [number, number]> = { 1: [2, 1], 2: [1, 1], 3: [3, 2] };

/** Reserve the GM pays to go to dice: rating × phase multiplier, rounded up. Integer arithmetic, no float drift. */
export function challengeCost(rating: number, phase: Phase): number {
  checkPhase(phase);
  const [num, den] = PHASE_MULTIPLIER[phase];
  return Math.ceil((rating * num) / den);
}

export function checkPhase(phase: number): asserts phase is Phase {
  if (phase !== 1 && phase !== 2 && phase !== 3) refuse("errors.bh.badPhase", { phase });
}

/** The hunters' ceiling caps a challenge's rating, never its cost. */
export function checkCeiling(rating: number, ceiling: number): void {
  if (rating > ceiling) refuse("errors.bh.overCeiling", { rating, ceiling });
}

// ---------------------------------------------------------------------------------------
// Reserve (stored as total + spent, like the ReservePool row)

export interface Reserve {
  total: number;
  ceiling: number;
  spent: number;
}

export interface ReserveChange {
  before: number;
  after: number;
  reserve: Reserve;
}

function checkAmount(amount: number): void {
  if (!Number.isInteger(amount) || amount < 0) refuse("errors.bh.badAmount", { amount });
}

/** A fresh reserve for an adventure, as the hunters set it. */
export function newReserve(total: number, ceiling: number): Reserve {
  if (!Number.isInteger(total) || total < 0) refuse("errors.bh.badReserve", { value: total });
  if (!Number.isInteger(ceiling) || ceiling < 1) refuse("errors.bh.badCeiling", { value: ceiling });
  return { total, ceiling, spent: 0 };
}

/** Points the GM may still spend; never below 0. */
export function reserveLeft(reserve: Reserve): number {
  return Math.max(0, reserve.total - reserve.spent);
}

/** The adventure ends when the reserve is spent. */
export function reserveExhausted(reserve: Reserve): boolean {
  return reserveLeft(reserve) === 0;
}

/** Spends up to `amount`; if less is left, the reserve drops to 0 (concessions, manual spends). */
export function spendReserve(reserve: Reserve, amount: number): ReserveChange {
  checkAmount(amount);
  const before = reserveLeft(reserve);
  const spent = Math.min(amount, before);
  const next = { ...reserve, spent: reserve.total - before + spent };
  return { before, after: reserveLeft(next), reserve: next };
}

/** Spends exactly `cost` or refuses: buying an obstacle must be paid in full. */
export function chargeReserve(reserve: Reserve, cost: number): ReserveChange {
  checkAmount(cost);
  const left = reserveLeft(reserve);
  if (cost > left) refuse("errors.bh.notEnoughReserve", { cost, left });
  return spendReserve(reserve, cost);
}

/** Gives points back (the hunter gave up); never more than was spent. */
export function refundReserve(reserve: Reserve, amount: number): ReserveChange {
  checkAmount(amount);
  const before = reserveLeft(reserve);
  const spent = Math.max(0, Math.min(reserve.spent, reserve.total) - amount);
  const next = { ...reserve, spent };
  return { before, after: reserveLeft(next), reserve: next };
}

export interface ChallengePurchase {
  rating: number;
  cost: number;
  change: ReserveChange;
}

/** Checks the ceiling and the reserve left and charges the cost of going to dice. */
export function buyChallenge(reserve: Reserve, rating: number, phase: Phase): ChallengePurchase {
  checkCeiling(rating, reserve.ceiling);
  const cost = challengeCost(rating, phase);
  return { rating, cost, change: chargeReserve(reserve, cost) };
}

export interface Concession {
  phase: Phase;
  rating: number;
  /** Reserve the GM pays (2 × rating); if less is left, the reserve just drops to 0. */
  cost: number;
  /** Victory points each hunter gets: the phase number. */
  vp: number;
}

/** The GM concedes at the end of a negotiation phase. */
export function concede(phase: Phase, rating: number): Concession {
  checkPhase(phase);
  if (!Number.isInteger(rating) || rating < 1) refuse("errors.bh.badRating", { rating });
  return { phase, rating, cost: CONCESSION_FACTOR * rating, vp: phase };
}

/** Concession against the table's reserve: rating is the ceiling unless the GM names a smaller one. */
export function concedeFromReserve(
  reserve: Reserve,
  phase: Phase,
  rating?: number,
): Concession & { change: ReserveChange } {
  const named = rating ?? reserve.ceiling;
  checkCeiling(named, reserve.ceiling);
  const concession = concede(phase, named);
  return { ...concession, change: spendReserve(reserve, concession.cost) };
}
