import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  actionOutcome,
  hitAfterRatings,
  outcome,
  tradeHitForBoost,
} from "../../../src/rules/fate/outcomes.js";
import { expectRefusal } from "./refusal.js";

describe("outcomes by shifts (docs/rules/fate.md §3.1)", () => {
  it("fail below 0, tie at 0, success at 1–2, success with style at 3 or more", () => {
    expect([-3, -1, 0, 1, 2, 3, 7].map(outcome)).toEqual([
      "fail",
      "fail",
      "tie",
      "success",
      "success",
      "style",
      "style",
    ]);
  });

  it("property: outcomes are ordered like shifts", () => {
    const rank = { fail: 0, tie: 1, success: 2, style: 3 };
    fc.assert(
      fc.property(fc.integer({ min: -20, max: 20 }), fc.integer({ min: -20, max: 20 }), (a, b) => {
        if (a <= b) expect(rank[outcome(a)]).toBeLessThanOrEqual(rank[outcome(b)]);
      }),
    );
  });
});

describe("the four actions (seed, «Действия и результаты»)", () => {
  it("overcome: serious cost, minor cost, clean, clean + boost", () => {
    expect(actionOutcome("overcome", -1)).toMatchObject({ cost: "serious", boosts: 0 });
    expect(actionOutcome("overcome", 0)).toMatchObject({ cost: "minor", boosts: 0 });
    expect(actionOutcome("overcome", 2)).toMatchObject({
      cost: "none",
      boosts: 0,
      key: "fate.effect.overcome.success",
    });
    expect(actionOutcome("overcome", 3)).toMatchObject({
      cost: "none",
      boosts: 1,
      key: "fate.effect.overcome.style",
    });
  });

  it("create an advantage, new aspect: none-or-opponent's, boost, 1 free invoke, 2 free invokes", () => {
    expect(actionOutcome("advantage", -2)).toMatchObject({
      aspect: "noneOrForOpponent",
      opponentFreeInvokes: 1,
      freeInvokes: 0,
    });
    expect(actionOutcome("advantage", 0)).toMatchObject({ aspect: "boost", boosts: 1, freeInvokes: 0 });
    expect(actionOutcome("advantage", 1)).toMatchObject({ aspect: "created", freeInvokes: 1 });
    expect(actionOutcome("advantage", 4)).toMatchObject({ aspect: "created", freeInvokes: 2 });
  });

  it("create an advantage on an existing aspect: opponent's invoke, 1, 1, 2", () => {
    const on = { existingAspect: true };
    expect(actionOutcome("advantage", -1, on)).toMatchObject({ aspect: "none", opponentFreeInvokes: 1 });
    expect(actionOutcome("advantage", 0, on)).toMatchObject({ freeInvokes: 1, boosts: 0 });
    expect(actionOutcome("advantage", 2, on)).toMatchObject({ freeInvokes: 1 });
    expect(actionOutcome("advantage", 3, on)).toMatchObject({
      freeInvokes: 2,
      key: "fate.effect.advantage.existing.style",
    });
  });

  it("attack: no harm, boost, a hit of N shifts, a hit that may be traded for a boost", () => {
    expect(actionOutcome("attack", -1)).toMatchObject({ hit: 0, boosts: 0 });
    expect(actionOutcome("attack", 0)).toMatchObject({ hit: 0, boosts: 1 });
    expect(actionOutcome("attack", 2)).toMatchObject({ hit: 2, mayTradeHitForBoost: false });
    const style = actionOutcome("attack", 4);
    expect(style).toMatchObject({ hit: 4, mayTradeHitForBoost: true });
    expect(tradeHitForBoost(style)).toMatchObject({ hit: 3, boosts: 1, mayTradeHitForBoost: false });
    expectRefusal(() => tradeHitForBoost(actionOutcome("attack", 2)), "errors.fate.cannotTradeHit");
  });

  it("defend: the attack lands, the attacker gets a boost, avoided, avoided + boost", () => {
    expect(actionOutcome("defend", -2)).toMatchObject({ hit: 2, boosts: 0 });
    expect(actionOutcome("defend", 0)).toMatchObject({ hit: 0, opponentBoosts: 1 });
    expect(actionOutcome("defend", 1)).toMatchObject({ hit: 0, boosts: 0, opponentBoosts: 0 });
    expect(actionOutcome("defend", 3)).toMatchObject({ hit: 0, boosts: 1 });
  });
});

describe("boosts on attack and defence (docs/rules/fate.md §3.4, Boosts)", () => {
  it("«выпадает ничья, вы не наносите урон, но получаете усиление»: a tie on attack is a boost for the attacker", () => {
    expect(actionOutcome("attack", 0)).toMatchObject({ hit: 0, boosts: 1 });
    // The same exchange seen from the defence: «вы даете противнику усиление».
    expect(actionOutcome("defend", 0)).toMatchObject({ boosts: 0, opponentBoosts: 1 });
  });

  it("«вы защищаетесь как и при обычном успехе, но вдобавок… получаете усиление»: a defence with style", () => {
    expect(actionOutcome("defend", 3)).toMatchObject({ hit: 0, boosts: 1 });
    expect(actionOutcome("attack", -3)).toMatchObject({ hit: 0, boosts: 0 });
  });

  it("«можете снизить силу своего удара на один, чтобы дополнительно получить усиление»: only with style", () => {
    const style = actionOutcome("attack", 4);
    expect(tradeHitForBoost(style)).toMatchObject({ hit: 3, boosts: 1, mayTradeHitForBoost: false });
    expectRefusal(() => tradeHitForBoost(actionOutcome("attack", 2)), "errors.fate.cannotTradeHit");
    expectRefusal(() => tradeHitForBoost(tradeHitForBoost(style)), "errors.fate.cannotTradeHit");
  });
});

describe("weapon and armour ratings", () => {
  it("a successful hit adds WR and subtracts AR, never below 0", () => {
    expect(hitAfterRatings(2, { wr: 2, ar: 1 })).toBe(3);
    expect(hitAfterRatings(1, { ar: 3 })).toBe(0);
    expect(hitAfterRatings(3)).toBe(3);
  });

  it("WR does not turn a miss into harm", () => {
    expect(hitAfterRatings(0, { wr: 2 })).toBe(0);
  });

  it("property: never negative, and monotone in WR", () => {
    fc.assert(
      fc.property(fc.nat(10), fc.nat(5), fc.nat(5), (hit, wr, ar) => {
        expect(hitAfterRatings(hit, { wr, ar })).toBeGreaterThanOrEqual(0);
        expect(hitAfterRatings(hit, { wr: wr + 1, ar })).toBeGreaterThanOrEqual(
          hitAfterRatings(hit, { wr, ar }),
        );
      }),
    );
  });
});
