import type { MessageKey } from "../../i18n/types.js";
import { refuse } from "../errors.js";

/** The four outcomes of docs/rules/fate.md §3.1, by shifts (result − opposition). */
export type Outcome = "fail" | "tie" | "success" | "style";
export const OUTCOMES: readonly Outcome[] = ["fail", "tie", "success", "style"];

export function outcome(shifts: number): Outcome {
  if (shifts < 0) return "fail";
  if (shifts === 0) return "tie";
  if (shifts < 3) return "success";
  return "style";
}

export type FateAction = "overcome" | "advantage" | "attack" | "defend";
export const ACTIONS: readonly FateAction[] = ["overcome", "advantage", "attack", "defend"];

/** What an outcome means for the aspect a create-an-advantage roll was about. */
export type AdvantageAspect =
  /** No aspect (or nothing new: the roll was not an advantage, or it was on an existing aspect). */
  | "none"
  /** A new situational aspect with the free invokes below. */
  | "created"
  /** A boost instead of a situational aspect (a tie on a new aspect). */
  | "boost"
  /** Failure on a new aspect: either no aspect, or the aspect exists and the opponent gets the free invoke. */
  | "noneOrForOpponent";

/** The mechanical effects of one action's outcome (the seed's table "Действия и результаты"). */
export interface ActionEffects {
  action: FateAction;
  outcome: Outcome;
  shifts: number;
  /** Catalogue key of the sentence describing this outcome to the table. */
  key: Extract<MessageKey, `fate.effect.${string}`>;
  /** Overcome: what reaching the goal costs ("serious": fail, or succeed at a serious cost). */
  cost: "none" | "minor" | "serious";
  /** Boosts the roller gains. */
  boosts: number;
  /** Boosts the other side gains (a tie on attack or defence goes to the attacker). */
  opponentBoosts: number;
  aspect: AdvantageAspect;
  /** Free invokes the roller's side gets on the created or existing aspect. */
  freeInvokes: number;
  /** Free invokes the other side gets (a failed advantage). */
  opponentFreeInvokes: number;
  /** Attack: shifts of harm dealt (before WR/AR). Defend: shifts of harm taken when the defence fails. */
  hit: number;
  /** Attack with style: the attacker may lower the hit by 1 to take a boost (`tradeHitForBoost`). */
  mayTradeHitForBoost: boolean;
}

function effects(
  action: FateAction,
  shifts: number,
  key: ActionEffects["key"],
  overrides: Partial<Omit<ActionEffects, "action" | "outcome" | "shifts" | "key">>,
): ActionEffects {
  return {
    action,
    outcome: outcome(shifts),
    shifts,
    key,
    cost: "none",
    boosts: 0,
    opponentBoosts: 0,
    aspect: "none",
    freeInvokes: 0,
    opponentFreeInvokes: 0,
    hit: 0,
    mayTradeHitForBoost: false,
    ...overrides,
  };
}

/**
 * The effects of `action` ending with `shifts` (from the roller's side). For `advantage`,
 * `existingAspect` says whether the roll was on an aspect already in play.
 */
export function actionOutcome(
  action: FateAction,
  shifts: number,
  { existingAspect = false }: { existingAspect?: boolean } = {},
): ActionEffects {
  const result = outcome(shifts);
  switch (action) {
    case "overcome": {
      const key = `fate.effect.overcome.${result}` as const;
      if (result === "fail") return effects(action, shifts, key, { cost: "serious" });
      if (result === "tie") return effects(action, shifts, key, { cost: "minor" });
      if (result === "success") return effects(action, shifts, key, {});
      return effects(action, shifts, key, { boosts: 1 });
    }
    case "advantage": {
      if (existingAspect) {
        const key = `fate.effect.advantage.existing.${result}` as const;
        if (result === "fail") return effects(action, shifts, key, { opponentFreeInvokes: 1 });
        return effects(action, shifts, key, { freeInvokes: result === "style" ? 2 : 1 });
      }
      const key = `fate.effect.advantage.new.${result}` as const;
      if (result === "fail") {
        return effects(action, shifts, key, { aspect: "noneOrForOpponent", opponentFreeInvokes: 1 });
      }
      if (result === "tie") return effects(action, shifts, key, { aspect: "boost", boosts: 1 });
      return effects(action, shifts, key, { aspect: "created", freeInvokes: result === "style" ? 2 : 1 });
    }
    case "attack": {
      const key = `fate.effect.attack.${result}` as const;
      if (result === "fail") return effects(action, shifts, key, {});
      if (result === "tie") return effects(action, shifts, key, { boosts: 1 });
      return effects(action, shifts, key, { hit: shifts, mayTradeHitForBoost: result === "style" });
    }
    case "defend": {
      const key = `fate.effect.defend.${result}` as const;
      if (result === "fail") return effects(action, shifts, key, { hit: -shifts });
      if (result === "tie") return effects(action, shifts, key, { opponentBoosts: 1 });
      if (result === "success") return effects(action, shifts, key, {});
      return effects(action, shifts, key, { boosts: 1 });
    }
  }
}

/** Attack with style: lower the hit by one and take a boost instead. */
export function tradeHitForBoost(attack: ActionEffects): ActionEffects {
  if (!attack.mayTradeHitForBoost) return refuse("errors.fate.cannotTradeHit");
  return { ...attack, hit: attack.hit - 1, boosts: attack.boosts + 1, mayTradeHitForBoost: false };
}

/**
 * Weapon and armour ratings (docs/rules/fate.md §3.1): a successful hit adds the attacker's WR and
 * subtracts the defender's AR, never below 0. A miss (hit 0) stays a miss: WR does not
 * turn a tie into harm.
 */
export function hitAfterRatings(hit: number, { wr = 0, ar = 0 }: { wr?: number; ar?: number } = {}): number {
  if (hit <= 0) return 0;
  return Math.max(0, hit + wr - ar);
}
