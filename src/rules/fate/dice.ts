import { type DiceSource, rollMany } from "../dice.js";

/** One Fate die as read from a d3: 1 → +1, 2 → −1, 3 → 0 (docs/rules/fate.md §3.1). */
export type FateFace = 1 | -1 | 0;
export type FateSymbol = "+" | "−" | "0";

/** A roll of four d3 read as Fate dice. `rolled` keeps the d3 numbers so the log can show both. */
export interface FateDiceRoll {
  rolled: number[];
  faces: FateFace[];
  symbols: FateSymbol[];
  total: number;
}

export const FATE_DICE_COUNT = 4;

export function fateFace(d3: number): FateFace {
  switch (d3) {
    case 1:
      return 1;
    case 2:
      return -1;
    case 3:
      return 0;
    default:
      throw new Error(`fateFace: a d3 cannot show ${d3}`);
  }
}

export function fateSymbol(face: FateFace): FateSymbol {
  return face === 1 ? "+" : face === -1 ? "−" : "0";
}

/** Reads d3 numbers (already rolled) as Fate dice. */
export function readFateDice(rolled: readonly number[]): FateDiceRoll {
  const faces = rolled.map(fateFace);
  return {
    rolled: [...rolled],
    faces,
    symbols: faces.map(fateSymbol),
    total: faces.reduce<number>((sum, face) => sum + face, 0),
  };
}

/** Rolls 4d3 and reads them as 4dF (−4..+4). */
export function rollFateDice(dice: DiceSource): FateDiceRoll {
  return readFateDice(rollMany(dice, FATE_DICE_COUNT, 3));
}

/**
 * The exact chance of each 4dF total, as a count out of 3⁴ = 81 (−4 → 1, …, 0 → 19, …, +4 → 1),
 * found by enumerating every face combination, so the odds shown to players are the rules' own.
 */
export function fateDiceWays(total: number): number {
  let ways = 0;
  for (let code = 0; code < 81; code += 1) {
    let sum = 0;
    let rest = code;
    for (let die = 0; die < FATE_DICE_COUNT; die += 1) {
      sum += fateFace((rest % 3) + 1);
      rest = Math.floor(rest / 3);
    }
    if (sum === total) ways += 1;
  }
  return ways;
}
