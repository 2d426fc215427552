import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buyChallenge,
  challengeCost,
  chargeReserve,
  concede,
  concedeFromReserve,
  newReserve,
  type Phase,
  priceObstacle,
  refundReserve,
  reserveExhausted,
  reserveLeft,
  spendReserve,
  stageCounts,
} from "../../../src/rules/beast-hunters/index.js";
import { DomainError } from "../../../src/rules/errors.js";
import { expectRefusal } from "./helpers.js";

describe("priceObstacle — worked examples", () => {
  it("prices the seed's social bandits at 9: the example's 8 plus the mandatory boxes", () => {
    // Seed: one trait +4, one trait +2, a defence resource +6, an attack resource +4 — "8 points".
    const price = priceObstacle({
      traits: [
        { name: "Trait A", value: 4 },
        { name: "Trait B", value: 2 },
      ],
      resources: [
        { name: "D6", kind: "defence", value: 6 },
        { name: "A4", kind: "attack", value: 4 },
      ],
      initiative: 0,
    });
    expect(price.lines).toEqual([
      { item: "minimalBoxes", price: 1 },
      { item: "trait", name: "Trait A", value: 4, price: 2 },
      { item: "trait", name: "Trait B", value: 2, price: 1 },
      { item: "resource", name: "D6", kind: "defence", value: 6, price: 3 },
      { item: "resource", name: "A4", kind: "attack", value: 4, price: 2 },
    ]);
    expect(price.rating).toBe(9);
    // The seed's own sum leaves the boxes out.
    expect(price.rating - 1).toBe(8);
  });

  it("so with the seed's ceiling 8 the bandits are over the ceiling, and phase 3 would cost 14", () => {
    const reserve = newReserve(20, 8);
    expectRefusal(() => buyChallenge(reserve, 9, 3), "errors.bh.overCeiling", { rating: 9, ceiling: 8 });
    expect(challengeCost(9, 3)).toBe(14);
    // The seed's 8 at phase 3 costs 12, as the example says.
    expect(buyChallenge(reserve, 8, 3)).toMatchObject({
      rating: 8,
      cost: 12,
      change: { before: 20, after: 8 },
    });
  });

  it("prices the seed's physical bandits (traits +4 +2, armour D2, swords A2, knives A2, initiative 0) at 7", () => {
    const price = priceObstacle({
      traits: [
        { name: "Голодные и отчаянные", value: 4 },
        { name: "Окружаем", value: 2 },
      ],
      resources: [
        { name: "Кожаная броня", kind: "defence", value: 2 },
        { name: "Ржавые мечи", kind: "attack", value: 2 },
        { name: "Охотничьи ножи", kind: "attack", value: 2 },
      ],
      initiative: 0,
    });
    expect(price.rating).toBe(1 + 2 + 1 + 1 + 1 + 1);
    expect(price.lines.some((l) => l.item === "initiative")).toBe(false);
  });

  it("a +6 resource neutralised in advance costs 3; an odd +3 rounds up to 2", () => {
    const price = priceObstacle({
      traits: [],
      resources: [],
      initiative: 0,
      neutralise: [
        { hunter: "1", resource: "Мамин старый топор", value: 6 },
        { hunter: "1", resource: "Личные связи", value: 3 },
      ],
    });
    expect(price.lines.slice(1)).toEqual([
      { item: "neutralise", hunter: "1", resource: "Мамин старый топор", value: 6, price: 3 },
      { item: "neutralise", hunter: "1", resource: "Личные связи", value: 3, price: 2 },
    ]);
    expect(price.rating).toBe(1 + 3 + 2);
  });

  it("initiative 4 costs 2", () => {
    const price = priceObstacle({ traits: [], resources: [], initiative: 4 });
    expect(price.lines).toContainEqual({ item: "initiative", value: 4, price: 2 });
    expect(price.rating).toBe(3);
  });

  it("an obstacle with nothing else costs 1 (the mandatory boxes)", () => {
    expect(priceObstacle({ traits: [], resources: [], initiative: 0 })).toEqual({
      lines: [{ item: "minimalBoxes", price: 1 }],
      rating: 1,
    });
  });

  it("extra boxes cost 1 each, and only in a climax", () => {
    const spec = { traits: [], resources: [], initiative: 0, boxes: stageCounts(3, 2, 1, 1, 1) };
    const price = priceObstacle(spec, { climax: true });
    expect(price.lines).toEqual([
      { item: "minimalBoxes", price: 1 },
      { item: "extraBoxes", stage: "light", count: 2, price: 2 },
      { item: "extraBoxes", stage: "medium", count: 1, price: 1 },
    ]);
    expect(price.rating).toBe(4);
    expectRefusal(() => priceObstacle(spec), "errors.bh.extraBoxesOnlyInClimax");
  });
});

describe("priceObstacle — bad input", () => {
  it("«разбойник с единственной активной физической защитной чертой «Трус +1»»: an odd value is bought, rounded up (+1 and +2 cost 1, +5 costs 3)", () => {
    const coward = priceObstacle({
      traits: [{ name: "Трус", value: 1 }],
      resources: [{ name: "A5", kind: "attack", value: 5 }],
      initiative: 0,
    });
    expect(coward.lines).toEqual([
      { item: "minimalBoxes", price: 1 },
      { item: "trait", name: "Трус", value: 1, price: 1 },
      { item: "resource", name: "A5", kind: "attack", value: 5, price: 3 },
    ]);
    expect(coward.rating).toBe(5);
  });

  it("refuses odd initiative", () => {
    expectRefusal(
      () => priceObstacle({ traits: [], resources: [], initiative: 3 }),
      "errors.bh.oddInitiative",
      {
        value: 3,
      },
    );
  });

  it("refuses zero, negative and fractional values", () => {
    expectRefusal(
      () => priceObstacle({ traits: [{ name: "Nothing", value: 0 }], resources: [], initiative: 0 }),
      "errors.bh.valueNotPositive",
      { name: "Nothing", value: 0 },
    );
    expectRefusal(
      () => priceObstacle({ traits: [{ name: "Half", value: 2.5 }], resources: [], initiative: 0 }),
      "errors.bh.valueNotPositive",
    );
    expectRefusal(
      () => priceObstacle({ traits: [], resources: [], initiative: -2 }),
      "errors.bh.badInitiative",
    );
  });

  it("refuses duplicate names and boxes that break the stage rule", () => {
    expectRefusal(
      () =>
        priceObstacle({
          traits: [
            { name: "Hungry", value: 2 },
            { name: "hungry", value: 4 },
          ],
          resources: [],
          initiative: 0,
        }),
      "errors.bh.duplicateName",
      { name: "hungry" },
    );
    expectRefusal(
      () =>
        priceObstacle(
          { traits: [], resources: [], initiative: 0, boxes: stageCounts(1, 2, 1, 1, 1) },
          { climax: true },
        ),
      "errors.bh.boxesIncrease",
      { stage: "medium", count: 2, previousStage: "light", previous: 1 },
    );
  });
});

describe("challengeCost", () => {
  it("phase 1 doubles, phase 2 is the rating, phase 3 is ×1.5 rounded up (rating 5 → 8)", () => {
    expect(challengeCost(5, 1)).toBe(10);
    expect(challengeCost(5, 2)).toBe(5);
    expect(challengeCost(5, 3)).toBe(8);
    expect(challengeCost(8, 3)).toBe(12);
  });

  it("refuses a phase that is not 1, 2 or 3", () => {
    expectRefusal(() => challengeCost(5, 4 as Phase), "errors.bh.badPhase", { phase: 4 });
  });

  it("property: the cost is at least the rating in phases 1 and 3, and exactly the rating in phase 2", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), (rating) => {
        expect(challengeCost(rating, 1)).toBeGreaterThanOrEqual(rating);
        expect(challengeCost(rating, 3)).toBeGreaterThanOrEqual(rating);
        expect(challengeCost(rating, 2)).toBe(rating);
        expect(challengeCost(rating, 3)).toBe(Math.ceil(rating * 1.5));
      }),
    );
  });
});

describe("concessions", () => {
  it("cost 2 × rating and give VP equal to the phase", () => {
    expect(concede(1, 4)).toEqual({ phase: 1, rating: 4, cost: 8, vp: 1 });
    expect(concede(2, 4)).toEqual({ phase: 2, rating: 4, cost: 8, vp: 2 });
    expect(concede(3, 4)).toEqual({ phase: 3, rating: 4, cost: 8, vp: 3 });
  });

  it("rate at the ceiling unless the GM names less, and drop the reserve to 0 when it is short", () => {
    const reserve = newReserve(20, 8);
    expect(concedeFromReserve(reserve, 2)).toMatchObject({
      rating: 8,
      cost: 16,
      vp: 2,
      change: { before: 20, after: 4 },
    });
    expect(concedeFromReserve(reserve, 3, 5)).toMatchObject({ rating: 5, cost: 10, vp: 3 });
    const short = { total: 20, ceiling: 8, spent: 14 };
    expect(concedeFromReserve(short, 1).change).toMatchObject({ before: 6, after: 0 });
    expectRefusal(() => concedeFromReserve(reserve, 1, 9), "errors.bh.overCeiling", {
      rating: 9,
      ceiling: 8,
    });
    expectRefusal(() => concede(1, 0), "errors.bh.badRating", { rating: 0 });
  });
});

describe("reserve", () => {
  it("buying an obstacle must fit in the reserve left", () => {
    const reserve = { total: 20, ceiling: 8, spent: 15 };
    expectRefusal(() => buyChallenge(reserve, 4, 1), "errors.bh.notEnoughReserve", { cost: 8, left: 5 });
    expect(buyChallenge(reserve, 4, 2).change).toMatchObject({ before: 5, after: 1 });
  });

  it("a give-up refunds what was spent; the adventure ends when the reserve is spent", () => {
    const start = newReserve(12, 8);
    const bought = chargeReserve(start, 12);
    expect(reserveExhausted(bought.reserve)).toBe(true);
    const refunded = refundReserve(bought.reserve, 12);
    expect(refunded).toMatchObject({ before: 0, after: 12 });
    expect(reserveExhausted(refunded.reserve)).toBe(false);
  });

  it("refuses bad numbers", () => {
    expectRefusal(() => newReserve(-1, 5), "errors.bh.badReserve", { value: -1 });
    expectRefusal(() => newReserve(10, 0), "errors.bh.badCeiling", { value: 0 });
    expectRefusal(() => spendReserve(newReserve(10, 5), -3), "errors.bh.badAmount", { amount: -3 });
  });

  it("property: the reserve never goes negative nor above its total, whatever happens to it", () => {
    const op = fc.record({
      kind: fc.constantFrom("spend", "charge", "refund"),
      amount: fc.integer({ min: 0, max: 60 }),
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50 }), fc.array(op, { maxLength: 30 }), (total, ops) => {
        let reserve = newReserve(total, 5);
        for (const { kind, amount } of ops) {
          try {
            const change =
              kind === "spend"
                ? spendReserve(reserve, amount)
                : kind === "charge"
                  ? chargeReserve(reserve, amount)
                  : refundReserve(reserve, amount);
            expect(change.before).toBe(reserveLeft(reserve));
            reserve = change.reserve;
          } catch (error) {
            expect(error).toBeInstanceOf(DomainError);
          }
          expect(reserveLeft(reserve)).toBeGreaterThanOrEqual(0);
          expect(reserveLeft(reserve)).toBeLessThanOrEqual(total);
          expect(reserve.spent).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});
