import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diceStatistics, FAIR_P_VALUE, type FaceCount, fairnessOf } from "../../src/rules/dice-stats.js";

const faceCounts: fc.Arbitrary<FaceCount[]> = fc.array(
  fc
    .record({
      userId: fc.constantFrom("1", "2", "3"),
      sides: fc.constantFrom(2, 3, 6, 20),
      count: fc.integer({ min: 1, max: 50 }),
    })
    .chain((r) => fc.integer({ min: 1, max: r.sides }).map((face) => ({ ...r, face }))),
  { maxLength: 40 },
);

describe("dice statistics (docs/rules/common.md §4.3)", () => {
  it("every die is counted once: by size, by face and by player the totals agree", () => {
    fc.assert(
      fc.property(faceCounts, (rows) => {
        const stats = diceStatistics(rows);
        const total = rows.reduce((n, r) => n + r.count, 0);
        expect(stats.total).toBe(total);
        expect(stats.bySize.reduce((n, s) => n + s.count, 0)).toBe(total);
        expect(stats.byPlayer.reduce((n, p) => n + p.count, 0)).toBe(total);
        for (const s of stats.bySize) {
          expect(s.faceCounts).toHaveLength(s.sides);
          expect(s.faceCounts.reduce((n, c) => n + c, 0)).toBe(s.count);
          expect(s.mean).toBeGreaterThanOrEqual(1);
          expect(s.mean).toBeLessThanOrEqual(s.sides);
          expect(s.expectedPerFace * s.sides).toBeCloseTo(s.count);
          if (s.pValue !== null) {
            expect(s.pValue).toBeGreaterThanOrEqual(0);
            expect(s.pValue).toBeLessThanOrEqual(1);
            expect(s.verdict).toBe(s.pValue >= FAIR_P_VALUE ? "fair" : "off");
          } else expect(s.count).toBeLessThan(5 * s.sides);
        }
      }),
    );
  });

  it("«these dice look fair»: an even run has p = 1; thirty sixes are off; fewer than 5 per face is too few to judge", () => {
    expect(fairnessOf(6, [5, 5, 5, 5, 5, 5])).toEqual({ pValue: 1, verdict: "fair", needed: 30 });
    const loaded = fairnessOf(6, [0, 0, 0, 0, 0, 30]);
    expect(loaded.verdict).toBe("off");
    expect(loaded.pValue).toBeLessThan(0.001);
    expect(fairnessOf(20, [1, 1])).toMatchObject({ pValue: null, verdict: "tooFew", needed: 100 });
  });

  it("the p = 0.01 line: a d2 with 60 heads of 100 (χ² = 4, p ≈ 0.046) is fair, 65 of 100 (χ² = 9, p ≈ 0.003) is off", () => {
    expect(fairnessOf(2, [60, 40]).verdict).toBe("fair");
    expect(fairnessOf(2, [65, 35]).verdict).toBe("off");
  });

  it("sizes are listed most rolled first, players by how many dice they rolled", () => {
    const stats = diceStatistics([
      { userId: "a", sides: 20, face: 3, count: 2 },
      { userId: "b", sides: 6, face: 6, count: 5 },
      { userId: "a", sides: 6, face: 1, count: 1 },
    ]);
    expect(stats.bySize.map((s) => s.sides)).toEqual([6, 20]);
    expect(stats.byPlayer.map((p) => [p.userId, p.sides])).toEqual([
      ["b", 6],
      ["a", 6],
      ["a", 20],
    ]);
  });
});
