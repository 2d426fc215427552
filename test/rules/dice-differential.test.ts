/**
 * Differential test against @dice-roller/rpg-dice-roller (the notation Dicelette uses): for every
 * notation both read with the same meaning, the two rollers' totals have the same distribution.
 *
 * Two-sample chi-square test of homogeneity over SAMPLES totals from each roller. Both run on fixed
 * seeds (our mulberry32 `seededDice`, the library's own seeded Mersenne Twister), so the outcome is
 * the same on every run: it cannot flake. The threshold, p < 1e-6, is far below what two rollers
 * of the same distribution give (about 1 in a million), and far above what a different meaning
 * gives: the last block shows a pair read differently (rpg-dice-roller's `r` rerolls until,
 * ours once) rejected at p ≈ 0.
 */
import { DiceRoll, NumberGenerator } from "@dice-roller/rpg-dice-roller";
import { describe, expect, it } from "vitest";
import { seededDice } from "../../src/rules/dice.js";
import { parseDiceExpression, rollDiceExpression } from "../../src/rules/dice-expression.js";
import { chiSquarePValue } from "../../src/rules/fairness.js";

const SAMPLES = 2000;
const REJECT_BELOW = 1e-6;
/** Bins expected to hold fewer than this many totals (both samples together) are merged. */
const MIN_PER_BIN = 10;

function ourTotals(notation: string, seed: number): number[] {
  const expression = parseDiceExpression(notation, { fateTable: false });
  const dice = seededDice(seed);
  return Array.from({ length: SAMPLES }, () => rollDiceExpression(expression, dice).rolls[0]!.total);
}

function theirTotals(notation: string, seed: number): number[] {
  const generator = NumberGenerator.generator;
  const previous = generator.engine;
  generator.engine = NumberGenerator.engines.MersenneTwister19937.seed(seed);
  try {
    const roll = new DiceRoll(notation);
    return Array.from({ length: SAMPLES }, () => {
      roll.roll();
      return roll.total;
    });
  } finally {
    generator.engine = previous;
  }
}

/**
 * The p-value that two samples of equal size come from one distribution: values sorted and
 * merged into bins of at least MIN_PER_BIN totals between them, then Σ (a − b)² / (a + b).
 */
function homogeneityPValue(a: readonly number[], b: readonly number[]): number {
  const counts = new Map<number, [number, number]>();
  for (const v of a) counts.set(v, [(counts.get(v)?.[0] ?? 0) + 1, counts.get(v)?.[1] ?? 0]);
  for (const v of b) counts.set(v, [counts.get(v)?.[0] ?? 0, (counts.get(v)?.[1] ?? 0) + 1]);
  const bins: [number, number][] = [];
  let open: [number, number] = [0, 0];
  for (const [, [x, y]] of [...counts].sort(([p], [q]) => p - q)) {
    open = [open[0] + x, open[1] + y];
    if (open[0] + open[1] >= MIN_PER_BIN) {
      bins.push(open);
      open = [0, 0];
    }
  }
  if (open[0] + open[1] > 0) {
    if (bins.length === 0) bins.push(open);
    else bins[bins.length - 1] = [bins.at(-1)![0] + open[0], bins.at(-1)![1] + open[1]];
  }
  if (bins.length < 2) return 1;
  const statistic = bins.reduce((sum, [x, y]) => sum + (x - y) ** 2 / (x + y), 0);
  return chiSquarePValue(statistic, bins.length - 1);
}

/** [ours, rpg-dice-roller's] — the same meaning, spelled as each roller spells it. */
const SAME_MEANING: [string, string][] = [
  ["2d6", "2d6"],
  ["4d6kh3", "4d6kh3"],
  ["4d6k3", "4d6k3"],
  ["2d20kl1", "2d20kl1"],
  ["4d6d1", "4d6d1"],
  ["4d10dh1dl2", "4d10dh1dl2"],
  ["3d6!", "3d6!"],
  ["2d6!=5", "2d6!=5"],
  ["4d6!>4", "4d6!>4"],
  ["3d6!!", "3d6!!"],
  ["3d6!p", "3d6!p"],
  ["2d6!!p", "2d6!!p"],
  ["4d6ro<3", "4d6ro<3"],
  ["4d10rr<3", "4d10r<3"],
  ["4d10ir2", "4d10r<=2"],
  ["2d10rg5", "2d10ro>=5"],
  ["6d10>=7", "6d10>=7"],
  ["6d10 t7", "6d10>=7"],
  ["6d10>=7f1", "6d10>=7f<=1"],
  ["4d6min3", "4d6min3"],
  ["4d6max4", "4d6max4"],
  ["4d6u", "4d6u"],
  ["4dF", "4dF"],
  ["4dF.1", "4dF.1"],
  ["4dF.2", "4dF.2"],
  ["d%", "d%"],
  ["{4d6, 2d10}k1", "{4d6, 2d10}k1"],
  ["{4d6, 4d6, 4d6}>=12", "{4d6, 4d6, 4d6}>=12"],
  ["1d20%7", "1d20%7"],
  ["2d6*3-1d4", "2d6*3-1d4"],
  ["+d20", "2d20kh1"],
  ["-d20", "2d20kl1"],
];

describe("the same notation, the same distribution as rpg-dice-roller", () => {
  it.each(SAME_MEANING)("%s here ≍ %s there", (ours, theirs) => {
    const p = homogeneityPValue(ourTotals(ours, 1), theirTotals(theirs, 1));
    expect(p).toBeGreaterThan(REJECT_BELOW);
  });
});

describe("the test can fail: a notation read differently is told apart", () => {
  it("4d10r<=3 rerolls once here, until no die is ≤ 3 there (rejected)", () => {
    expect(homogeneityPValue(ourTotals("4d10r<=3", 1), theirTotals("4d10r<=3", 1))).toBeLessThan(
      REJECT_BELOW,
    );
  });

  it("2d20kh1 against 2d20kl1 (rejected), and a roller against itself on other seeds (kept)", () => {
    expect(homogeneityPValue(ourTotals("2d20kh1", 1), theirTotals("2d20kl1", 1))).toBeLessThan(REJECT_BELOW);
    expect(homogeneityPValue(ourTotals("3d6!", 1), ourTotals("3d6!", 2))).toBeGreaterThan(REJECT_BELOW);
  });
});
