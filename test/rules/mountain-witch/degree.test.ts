import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compareResults,
  DAMAGE_QUALITIES,
  type DamageQuality,
  degreeOfSuccess,
  halves,
  type SuccessPiece,
  spendSuccesses,
  tradeSuccesses,
} from "../../../src/rules/mountain-witch/index.js";

describe("degree of success (docs/rules/mountain-witch.md §1.1 table)", () => {
  it("names the margin and gives the winner and the loser their successes", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 11].map((m) => degreeOfSuccess(m).key)).toEqual([
      "tie",
      "partial",
      "mixed",
      "normal",
      "critical",
      "double",
      "double",
      "double",
    ]);
    expect([0, 1, 2, 3, 4, 5].map((m) => halves(degreeOfSuccess(m).winner))).toEqual([0, 1, 2, 2, 3, 4]);
    expect([0, 1, 2, 3, 4, 5].map((m) => halves(degreeOfSuccess(m).loser))).toEqual([0, 0, 1, 0, 0, 0]);
    expect(() => degreeOfSuccess(-1)).toThrow(RangeError);
  });

  it("a trade is a normal, critical or double success for both", () => {
    expect(tradeSuccesses("normal")).toEqual(["whole"]);
    expect(tradeSuccesses("critical")).toEqual(["whole", "half"]);
    expect(tradeSuccesses("double")).toEqual(["whole", "whole"]);
  });

  it("property: the degree is antisymmetric between the sides", () => {
    fc.assert(
      fc.property(fc.integer({ min: -10, max: 30 }), fc.integer({ min: -10, max: 30 }), (a, b) => {
        const ab = compareResults(a, b);
        const ba = compareResults(b, a);
        expect(ba.degree).toEqual(ab.degree);
        expect(ba.winner).toBe(ab.winner === null ? null : ab.winner === "a" ? "b" : "a");
        expect(ba.successes).toEqual({ a: ab.successes.b, b: ab.successes.a });
        expect(ab.degree.margin).toBe(Math.abs(a - b));
      }),
    );
  });
});

describe("spending successes", () => {
  const cost: Record<DamageQuality, number> = { partial: 1, normal: 2, critical: 3, double: 4 };

  it("a whole success is never split into two halves", () => {
    expect(spendSuccesses(["whole"], "partial")).toEqual([]);
    expect(spendSuccesses(["whole", "half"], "partial")).toEqual(["whole"]);
    expect(spendSuccesses(["whole", "half"], "critical")).toEqual([]);
    expect(spendSuccesses(["whole", "whole"], "critical")).toEqual([]);
    expect(spendSuccesses(["whole", "half"], "double")).toBeNull();
    expect(spendSuccesses(["half"], "normal")).toBeNull();
  });

  it("property: a spending costs at least its quality and never creates successes", () => {
    const piece = fc.constantFrom<SuccessPiece>("half", "whole");
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 5 }),
        fc.constantFrom(...DAMAGE_QUALITIES),
        (pieces, quality) => {
          const rest = spendSuccesses(pieces, quality);
          // Payable exactly when there are enough successes and enough of them are whole.
          const wholes = pieces.filter((p) => p === "whole").length;
          const payable = halves(pieces) >= cost[quality] && wholes >= Math.floor(cost[quality] / 2);
          expect(rest !== null).toBe(payable);
          if (rest === null) return;
          expect(halves(pieces) - halves(rest)).toBeGreaterThanOrEqual(cost[quality]);
          expect(rest.length).toBeLessThan(pieces.length);
        },
      ),
    );
  });
});
