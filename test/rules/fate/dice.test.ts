import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DiceSource, scriptedDice, seededDice } from "../../../src/rules/dice.js";
import { fateDiceWays, fateFace, readFateDice, rollFateDice } from "../../../src/rules/fate/dice.js";

describe("4d3 read as Fate dice (docs/rules/fate.md §3.1)", () => {
  it("worked example: faces [1, 2, 3, 3] read + − 0 0 and total 0", () => {
    const roll = rollFateDice(scriptedDice([1, 2, 3, 3]));
    expect(roll.rolled).toEqual([1, 2, 3, 3]);
    expect(roll.faces).toEqual([1, -1, 0, 0]);
    expect(roll.symbols).toEqual(["+", "−", "0", "0"]);
    expect(roll.total).toBe(0);
  });

  it("reads each face: 1 → +1, 2 → −1, 3 → 0", () => {
    expect([1, 2, 3].map(fateFace)).toEqual([1, -1, 0]);
    expect(readFateDice([1, 1, 1, 1]).total).toBe(4);
    expect(readFateDice([2, 2, 2, 2]).total).toBe(-4);
    expect(() => fateFace(4)).toThrow();
  });

  it("rolls exactly four d3", () => {
    const dice = scriptedDice([1, 1, 2, 3, 3]);
    rollFateDice(dice);
    expect(dice.remaining()).toBe(1);
  });

  it("property: any four d3 give a total in −4..+4 that is the sum of the read faces", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 4, maxLength: 4 }), (faces) => {
        const roll = rollFateDice(scriptedDice(faces));
        expect(roll.total).toBeGreaterThanOrEqual(-4);
        expect(roll.total).toBeLessThanOrEqual(4);
        expect(roll.total).toBe(roll.faces.reduce<number>((a, b) => a + b, 0));
        expect(roll.rolled).toEqual(faces);
      }),
    );
  });

  it("the 81 face combinations give exactly the 4dF distribution 1 4 10 16 19 16 10 4 1", () => {
    const counts = new Map<number, number>();
    for (let a = 1; a <= 3; a += 1)
      for (let b = 1; b <= 3; b += 1)
        for (let c = 1; c <= 3; c += 1)
          for (let d = 1; d <= 3; d += 1) {
            const total = readFateDice([a, b, c, d]).total;
            counts.set(total, (counts.get(total) ?? 0) + 1);
          }
    const byTotal = [-4, -3, -2, -1, 0, 1, 2, 3, 4].map((t) => counts.get(t) ?? 0);
    expect(byTotal).toEqual([1, 4, 10, 16, 19, 16, 10, 4, 1]);
    expect([-4, -3, -2, -1, 0, 1, 2, 3, 4].map(fateDiceWays)).toEqual(byTotal);
    expect(fateDiceWays(5)).toBe(0);
  });
});

describe("chi-square goodness of fit against 4dF", () => {
  /** χ² critical value for 8 degrees of freedom (9 totals − 1) at p = 0.001. */
  const CRITICAL_DF8_P001 = 26.124;
  const SAMPLES = 81 * 200;

  function chiSquare(dice: DiceSource): number {
    const observed = new Map<number, number>();
    for (let i = 0; i < SAMPLES; i += 1) {
      const total = rollFateDice(dice).total;
      observed.set(total, (observed.get(total) ?? 0) + 1);
    }
    let statistic = 0;
    for (let total = -4; total <= 4; total += 1) {
      const expected = (SAMPLES * fateDiceWays(total)) / 81;
      statistic += ((observed.get(total) ?? 0) - expected) ** 2 / expected;
    }
    return statistic;
  }

  it.each([1, 7, 42, 2024, 31337])("accepts a uniform d3 source (seed %i)", (seed) => {
    expect(chiSquare(seededDice(seed))).toBeLessThan(CRITICAL_DF8_P001);
  });

  it("rejects a d3 that shows 1 a little too often (36 % instead of 33 %)", () => {
    const uniform = seededDice(99);
    const biased: DiceSource = {
      roll: (sides) => {
        const u = (uniform.roll(10_000) - 1) / 10_000;
        if (sides !== 3) throw new Error("d3 only");
        return u < 0.36 ? 1 : u < 0.68 ? 2 : 3;
      },
    };
    expect(chiSquare(biased)).toBeGreaterThan(CRITICAL_DF8_P001);
  });

  it("rejects reading the faces wrongly (a source of d3 that never shows 3)", () => {
    const uniform = seededDice(5);
    const twoFaced: DiceSource = { roll: () => uniform.roll(2) };
    expect(chiSquare(twoFaced)).toBeGreaterThan(CRITICAL_DF8_P001);
  });
});
