/**
 * Are the production dice fair? Chi-square goodness-of-fit over 60 000 rolls per die type, made
 * through the `/roll` expression roller with `cryptoDice`.
 *
 * These tests use real randomness, so each can fail by bad luck: the critical values are for
 * p = 0.001, i.e. a fair die fails its test once in 1 000 runs (about 1 in 200 runs for the five
 * checks together). A failure that repeats is a real defect, not luck.
 *
 * The second block proves the check can fail: it rejects biased dice.
 */
import { describe, expect, it } from "vitest";
import { cryptoDice, type DiceSource, seededDice } from "../../src/rules/dice.js";
import {
  type ParseOptions,
  parseDiceExpression,
  rollDiceExpression,
} from "../../src/rules/dice-expression.js";
import {
  CHI_SQUARE_CRITICAL_P001,
  chiSquareCriticalValue,
  chiSquareGoodnessOfFit,
  chiSquareStatistic,
  FOUR_FATE_DICE_SUM_PROBABILITIES,
  tally,
  uniformProbabilities,
} from "../../src/rules/fairness.js";

const ROLLS = 60_000;

/** Totals of `rolls` rolls of `input` (one die term or a 4dF-style sum). */
function totals(input: string, dice: DiceSource, options: ParseOptions, rolls = ROLLS): number[] {
  const expression = parseDiceExpression(input, options);
  return Array.from({ length: rolls }, () => rollDiceExpression(expression, dice).rolls[0]!.total);
}

function fitOfDie(input: string, sides: number, dice: DiceSource) {
  return chiSquareGoodnessOfFit(
    tally(totals(input, dice, { fateTable: false }), 1, sides),
    uniformProbabilities(sides),
  );
}

function fitOfFourFateDice(input: string, options: ParseOptions, dice: DiceSource) {
  return chiSquareGoodnessOfFit(tally(totals(input, dice, options), -4, 4), FOUR_FATE_DICE_SUM_PROBABILITIES);
}

describe("chi-square helper", () => {
  it("computes Pearson's statistic", () => {
    // Expected 20 each: (10−20)²/20 + 0 + (30−20)²/20 = 10.
    expect(chiSquareStatistic([10, 20, 30], [20, 20, 20])).toBe(10);
    const fit = chiSquareGoodnessOfFit([10, 20, 30], uniformProbabilities(3));
    expect(fit).toEqual({ statistic: 10, degreesOfFreedom: 2, criticalValue: 13.816, rejected: false });
    expect(chiSquareGoodnessOfFit([5, 20, 35], uniformProbabilities(3)).rejected).toBe(true); // 22.5
  });

  it("uses the p = 0.001 table, and Wilson–Hilferty past it", () => {
    expect(chiSquareCriticalValue(5)).toBe(20.515);
    expect(chiSquareCriticalValue(8)).toBe(26.124);
    expect(CHI_SQUARE_CRITICAL_P001).toHaveLength(21);
    // scipy chi2.ppf(0.999, df): 19 → 43.820 (table), 30 → 59.703, 99 → 148.230.
    expect(chiSquareCriticalValue(30)).toBeCloseTo(59.703, 0);
    expect(chiSquareCriticalValue(99)).toBeCloseTo(148.23, 0);
  });

  it("the 4dF distribution sums to 1 and matches 3⁴ outcomes", () => {
    expect(FOUR_FATE_DICE_SUM_PROBABILITIES.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    const ways = new Array<number>(9).fill(0);
    for (let code = 0; code < 81; code += 1) {
      const faces = [code % 3, Math.floor(code / 3) % 3, Math.floor(code / 9) % 3, Math.floor(code / 27)];
      ways[faces.reduce((sum, f) => sum + f - 1, 0) + 4]! += 1;
    }
    expect(ways.map((w) => w / 81)).toEqual(FOUR_FATE_DICE_SUM_PROBABILITIES);
  });

  it("tally refuses values outside the range", () => {
    expect(tally([1, 2, 2, 6], 1, 6)).toEqual([1, 2, 0, 0, 0, 1]);
    expect(() => tally([7], 1, 6)).toThrow(RangeError);
  });
});

describe("production dice are fair (p = 0.001, false alarm 1 in 1000 per die type)", () => {
  it.each([
    ["d6", 6],
    ["d10", 10],
    ["d3", 3],
  ] as const)("%s", (input, sides) => {
    const fit = fitOfDie(input, sides, cryptoDice);
    expect(fit.statistic, JSON.stringify(fit)).toBeLessThan(fit.criticalValue);
  });

  it("4dF sums follow 1, 4, 10, 16, 19, 16, 10, 4, 1 out of 81", () => {
    const fit = fitOfFourFateDice("4dF", { fateTable: false }, cryptoDice);
    expect(fit.degreesOfFreedom).toBe(8);
    expect(fit.statistic, JSON.stringify(fit)).toBeLessThan(fit.criticalValue);
  });

  it("4d3 on a Fate table sums the same way", () => {
    const fit = fitOfFourFateDice("4d3", { fateTable: true }, cryptoDice);
    expect(fit.statistic, JSON.stringify(fit)).toBeLessThan(fit.criticalValue);
  });
});

describe("the check can fail", () => {
  // Deterministic sources, so these outcomes never change from run to run.
  const fair = seededDice(20240601);
  const neverSix: DiceSource = { roll: (sides) => (sides === 6 ? fair.roll(5) : fair.roll(sides)) };
  /** Sixes come up 20% more often than they should (weight 1.2 of 6.2). */
  const loadedSix: DiceSource = {
    roll: () => {
      const r = fair.roll(62);
      return r > 50 ? 6 : 1 + ((r - 1) % 5);
    },
  };
  /** A Fate source that reads one face too often: face 1 (+1) with probability 1/2. */
  const luckyFate: DiceSource = { roll: (sides) => (fair.roll(2) === 1 ? 1 : fair.roll(sides)) };

  it("accepts a fair seeded d6 (control)", () => {
    expect(fitOfDie("d6", 6, fair).rejected).toBe(false);
  });

  it("rejects a d6 that never rolls a 6", () => {
    const fit = fitOfDie("d6", 6, neverSix);
    expect(fit.rejected).toBe(true);
    expect(fit.statistic).toBeGreaterThan(fit.criticalValue);
  });

  it("rejects a d6 loaded toward 6", () => {
    expect(fitOfDie("d6", 6, loadedSix).rejected).toBe(true);
  });

  it("rejects 4dF from dice that favour +", () => {
    expect(fitOfFourFateDice("4dF", { fateTable: false }, luckyFate).rejected).toBe(true);
  });
});

describe("chiSquarePValue", () => {
  it("matches the table: 6.635 at 1 degree of freedom is p = 0.01, 11.070 at 5 is p = 0.05", async () => {
    const { chiSquarePValue } = await import("../../src/rules/fairness.js");
    expect(chiSquarePValue(6.635, 1)).toBeCloseTo(0.01, 4);
    expect(chiSquarePValue(11.07, 5)).toBeCloseTo(0.05, 4);
    expect(chiSquarePValue(148.23, 99)).toBeCloseTo(0.001, 4);
    expect(chiSquarePValue(0, 5)).toBe(1);
  });
});
