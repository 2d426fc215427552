import type { ErrorKey } from "../../i18n/types.js";
import type { DiceSource } from "../dice.js";
import { refuse } from "../errors.js";
import { type Aspect, type Invoker, sameAspectName, spendFreeInvoke, usableFreeInvokes } from "./aspects.js";
import { type FateDiceRoll, rollFateDice } from "./dice.js";
import { type FatePointHolder, spendFatePoints } from "./fate-points.js";
import { type ActionEffects, actionOutcome, type FateAction, type Outcome, outcome } from "./outcomes.js";
import type { SkillKey } from "./skills.js";

/** A difficulty (passive), the other side's result (active), or none yet. */
export type Opposition =
  | { kind: "none" }
  | { kind: "passive"; value: number }
  | { kind: "active"; value: number; characterId: string | null };

export type InvokeMode = "plus2" | "reroll" | "passive";
export const INVOKE_MODES: readonly InvokeMode[] = ["plus2", "reroll", "passive"];
export type InvokePayment = "free-invoke" | "fate-point";

export interface AppliedInvoke {
  aspect: string;
  invokerId: string;
  mode: InvokeMode;
  paidWith: InvokePayment;
}

/** One skill check, as stored: everything needed to show it, change it by invokes, and log it. */
export interface FateCheck {
  characterId: string;
  skill: SkillKey;
  /** The skill's value when rolled (pyramid + race). */
  skillValue: number;
  bonus: number;
  action: FateAction;
  /** The dice that count now. */
  dice: FateDiceRoll;
  /** Dice replaced by reroll invokes, oldest first: every die rolled stays in the record. */
  rerolledDice: FateDiceRoll[];
  opposition: Opposition;
  invokes: AppliedInvoke[];
}

/** Bonuses and difficulties beyond this are typos (the ladder ends at ±8 or so). */
export const MAX_MODIFIER = 20;

export interface CheckInput {
  characterId: string;
  skill: SkillKey;
  skillValue: number;
  bonus?: number;
  action?: FateAction;
  opposition?: Opposition;
}

function assertModifier(value: number, code: ErrorKey): void {
  if (!Number.isInteger(value) || Math.abs(value) > MAX_MODIFIER) refuse(code, { max: MAX_MODIFIER });
}

/** Rolls 4d3 as Fate dice for a check. */
export function makeCheck(input: CheckInput, dice: DiceSource): FateCheck {
  const bonus = input.bonus ?? 0;
  const opposition = input.opposition ?? { kind: "none" };
  assertModifier(bonus, "errors.fate.bonusOutOfRange");
  if (opposition.kind !== "none") assertModifier(opposition.value, "errors.fate.oppositionOutOfRange");
  return {
    characterId: input.characterId,
    skill: input.skill,
    skillValue: input.skillValue,
    bonus,
    action: input.action ?? "overcome",
    dice: rollFateDice(dice),
    rerolledDice: [],
    opposition,
    invokes: [],
  };
}

const countMode = (check: FateCheck, mode: InvokeMode) => check.invokes.filter((i) => i.mode === mode).length;

/** Result = dice + skill + bonus + 2 per +2 invoke. */
export function checkResult(check: FateCheck): number {
  return check.dice.total + check.skillValue + check.bonus + 2 * countMode(check, "plus2");
}

/** The opposition's value including +2 per passive invoke, or null when there is none. */
export function checkOpposition(check: FateCheck): number | null {
  const o = check.opposition;
  if (o.kind === "none") return null;
  return o.kind === "passive" ? o.value + 2 * countMode(check, "passive") : o.value;
}

export function checkShifts(check: FateCheck): number | null {
  const opposition = checkOpposition(check);
  return opposition === null ? null : checkResult(check) - opposition;
}

export function checkOutcome(check: FateCheck): Outcome | null {
  const shifts = checkShifts(check);
  return shifts === null ? null : outcome(shifts);
}

export function checkEffects(
  check: FateCheck,
  options: { existingAspect?: boolean } = {},
): ActionEffects | null {
  const shifts = checkShifts(check);
  return shifts === null ? null : actionOutcome(check.action, shifts, options);
}

/** Sets (or updates, when the other side invokes) the opposition after the roll. */
export function withOpposition(check: FateCheck, opposition: Opposition): FateCheck {
  if (opposition.kind !== "none") assertModifier(opposition.value, "errors.fate.oppositionOutOfRange");
  // Passive invokes were paid for against a difficulty: switching it to another kind would waste them.
  if (opposition.kind !== "passive" && countMode(check, "passive") > 0) {
    return refuse("errors.fate.oppositionHasInvokes");
  }
  return { ...check, opposition };
}

/**
 * One invoke applied to a check: +2 to the result, a reroll of all four dice (the old dice are
 * kept in `rerolledDice`), or +2 to a passive opposition. [decision] As in Fate Core, one
 * aspect can be paid for with a fate point once per check; free invokes may stack on it.
 */
export function applyInvoke(
  check: FateCheck,
  invoke: { aspect: string; invokerId: string; mode: InvokeMode; paidWith: InvokePayment },
  dice: DiceSource,
): { check: FateCheck; spent: AppliedInvoke } {
  if (invoke.mode === "passive" && check.opposition.kind !== "passive") {
    return refuse("errors.fate.noPassiveOpposition");
  }
  if (
    invoke.paidWith === "fate-point" &&
    check.invokes.some((i) => i.paidWith === "fate-point" && sameAspectName(i.aspect, invoke.aspect))
  ) {
    return refuse("errors.fate.aspectAlreadyInvoked", { aspect: invoke.aspect });
  }
  const spent: AppliedInvoke = { ...invoke };
  const next: FateCheck = { ...check, invokes: [...check.invokes, spent] };
  if (invoke.mode === "reroll") {
    next.rerolledDice = [...check.rerolledDice, check.dice];
    next.dice = rollFateDice(dice);
  }
  return { check: next, spent };
}

/**
 * How an invoke is paid when the player does not say: a free invoke while the aspect has
 * one (it costs nothing that lasts), otherwise a fate point; neither → a refusal.
 */
export function choosePayment(aspectFreeInvokes: number, fatePoints: number, aspect = ""): InvokePayment {
  if (aspectFreeInvokes > 0) return "free-invoke";
  if (fatePoints > 0) return "fate-point";
  return refuse("errors.fate.cannotInvoke", { aspect });
}

export interface InvokeRequest<C extends FatePointHolder & { id: string }, A extends Aspect> {
  check: FateCheck;
  /** The character paying (the roller for +2 and reroll, usually the other side for passive). */
  invoker: C;
  /** The invoker's side: free invokes of that side are theirs to spend (docs/rules/fate.md §3.2). */
  side?: string | null;
  aspect: A;
  mode: InvokeMode;
  /** Omitted: `choosePayment`. */
  paidWith?: InvokePayment;
}

export interface InvokeResult<C, A> {
  check: FateCheck;
  invoker: C;
  /** The aspect after the invoke; null when it was a boost, which vanishes once invoked. */
  aspect: A | null;
  spent: AppliedInvoke;
}

/**
 * How every invoke is paid — a check's, a challenge roll's, a faction check's, `/invoke`'s
 * (docs/rules/fate.md §3.2): with a free invoke `who` may spend (their own, their side's, or
 * nobody's in particular) first, else one of `payer`'s fate points. A boost is only ever its free
 * invoke. Returns the payer and aspect after paying (the aspect null once a boost is used).
 */
export function payForInvoke<P extends FatePointHolder, A extends Aspect>(
  aspect: A,
  payer: P,
  who: Invoker,
  requested?: InvokePayment,
): { paidWith: InvokePayment; payer: P; aspect: A | null } {
  const free = usableFreeInvokes(aspect, who);
  const paidWith =
    aspect.kind === "boost"
      ? "free-invoke"
      : (requested ?? choosePayment(free, payer.fatePoints, aspect.name));
  if (paidWith === "free-invoke") {
    if (free === 0) {
      // Someone else's free invokes are not this invoker's to spend (a boost included).
      if (aspect.freeInvokes.length > 0)
        return refuse("errors.fate.freeInvokeNotYours", { aspect: aspect.name });
      return refuse("errors.fate.noFreeInvokes", { aspect: aspect.name });
    }
    const after = spendFreeInvoke(aspect, who);
    return { paidWith, payer, aspect: aspect.kind === "boost" ? null : after };
  }
  if (payer.fatePoints < 1) {
    return refuse("errors.fate.notEnoughFatePoints", { have: payer.fatePoints, need: 1 });
  }
  return { paidWith, payer: spendFatePoints(payer, 1), aspect };
}

/**
 * Invokes `aspect` on `check`, paying with one of its free invokes or one of the invoker's
 * fate points, and returns the new check, invoker and aspect together so the store can save
 * them in one transaction. A boost can only be used through its free invoke.
 */
export function invokeAspect<C extends FatePointHolder & { id: string }, A extends Aspect>(
  request: InvokeRequest<C, A>,
  dice: DiceSource,
): InvokeResult<C, A> {
  const { aspect, invoker } = request;
  const who = { id: invoker.id, side: request.side ?? null };
  const paid = payForInvoke(aspect, invoker, who, request.paidWith);
  const paidWith = paid.paidWith;
  const { check, spent } = applyInvoke(
    request.check,
    { aspect: aspect.name, invokerId: invoker.id, mode: request.mode, paidWith },
    dice,
  );
  return { check, invoker: paid.payer, aspect: paid.aspect, spent };
}
