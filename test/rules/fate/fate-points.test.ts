import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DomainError } from "../../../src/rules/errors.js";
import { makeAspect } from "../../../src/rules/fate/aspects.js";
import { acceptCompel, buyOffCompel, offerCompel } from "../../../src/rules/fate/compel.js";
import { concedeFatePoints } from "../../../src/rules/fate/conflict.js";
import {
  adjustFatePoints,
  gainFatePoints,
  refreshFatePoints,
  spendFatePoints,
} from "../../../src/rules/fate/fate-points.js";
import { expectRefusal } from "./refusal.js";

describe("fate points (docs/rules/fate.md §3.2)", () => {
  it("are spent only when there are enough", () => {
    expect(spendFatePoints({ fatePoints: 2 }, 2).fatePoints).toBe(0);
    expectRefusal(() => spendFatePoints({ fatePoints: 1 }, 2), "errors.fate.notEnoughFatePoints", {
      have: 1,
      need: 2,
    });
  });

  it("the GM's give and take never go below zero", () => {
    expect(adjustFatePoints({ fatePoints: 2 }, -2).fatePoints).toBe(0);
    expectRefusal(() => adjustFatePoints({ fatePoints: 2 }, -3), "errors.fate.fatePointsBelowZero", {
      have: 2,
      change: 3,
    });
  });

  it("refresh at a new week: back up to the refresh, [decision] extra fate points kept", () => {
    expect(refreshFatePoints(0, 3)).toBe(3);
    expect(refreshFatePoints(5, 3)).toBe(5);
  });

  type Op =
    | { kind: "spend"; n: number }
    | { kind: "gain"; n: number }
    | { kind: "adjust"; n: number }
    | { kind: "compel"; n: number; buyOff: boolean }
    | { kind: "concede"; consequences: number }
    | { kind: "refresh"; refresh: number };

  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant("spend" as const), n: fc.nat(4) }),
    fc.record({ kind: fc.constant("gain" as const), n: fc.nat(3) }),
    fc.record({ kind: fc.constant("adjust" as const), n: fc.integer({ min: -5, max: 5 }) }),
    fc.record({
      kind: fc.constant("compel" as const),
      n: fc.integer({ min: 1, max: 5 }),
      buyOff: fc.boolean(),
    }),
    fc.record({ kind: fc.constant("concede" as const), consequences: fc.nat(3) }),
    fc.record({ kind: fc.constant("refresh" as const), refresh: fc.nat(5) }),
  );

  it("property: no sequence of spending, compels, concessions and refreshes takes fate points below zero", () => {
    const aspects = [makeAspect("Greedy", "flaw")];
    fc.assert(
      fc.property(fc.nat(5), fc.array(op, { maxLength: 40 }), (start, ops) => {
        let hero = { id: "hero", fatePoints: start };
        for (const o of ops) {
          const before = hero.fatePoints;
          try {
            switch (o.kind) {
              case "spend":
                hero = spendFatePoints(hero, o.n);
                break;
              case "gain":
                hero = gainFatePoints(hero, o.n);
                break;
              case "adjust":
                hero = adjustFatePoints(hero, o.n);
                break;
              case "compel": {
                const { offer } = offerCompel({
                  target: hero,
                  aspect: "Greedy",
                  aspects,
                  points: o.n,
                  by: { kind: "gm" },
                });
                hero = o.buyOff ? buyOffCompel(offer, hero).target : acceptCompel(offer, hero);
                break;
              }
              case "concede":
                hero = gainFatePoints(hero, concedeFatePoints(o.consequences));
                break;
              case "refresh":
                hero = { ...hero, fatePoints: refreshFatePoints(hero.fatePoints, o.refresh) };
                break;
            }
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
            expect(hero.fatePoints).toBe(before);
          }
          expect(hero.fatePoints).toBeGreaterThanOrEqual(0);
          expect(Number.isInteger(hero.fatePoints)).toBe(true);
        }
      }),
    );
  });
});
