import { randomInt } from "node:crypto";

/** The dice port: every random number the rules use comes through one of these. */
export interface DiceSource {
  /** A uniform integer in 1..sides. */
  roll(sides: number): number;
}

/** Production dice: a CSPRNG, so no player can predict or bias a roll. */
export const cryptoDice: DiceSource = {
  roll: (sides) => randomInt(1, sides + 1),
};

/** Rolls `count` dice of `sides` sides. */
export function rollMany(dice: DiceSource, count: number, sides: number): number[] {
  return Array.from({ length: count }, () => dice.roll(sides));
}

/** Test dice: returns the given faces in order, and fails loudly when they run out or do not fit. */
export function scriptedDice(faces: readonly number[]): DiceSource & { remaining(): number } {
  let next = 0;
  return {
    roll(sides) {
      const face = faces[next];
      if (face === undefined) throw new Error(`scriptedDice: no face left for a d${sides} (used ${next})`);
      if (face < 1 || face > sides) throw new Error(`scriptedDice: face ${face} does not fit a d${sides}`);
      next += 1;
      return face;
    },
    remaining: () => faces.length - next,
  };
}

/** Deterministic pseudo-random dice (mulberry32) for property tests and benchmarks. */
export function seededDice(seed: number): DiceSource {
  let state = seed >>> 0;
  const nextFloat = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { roll: (sides) => 1 + Math.floor(nextFloat() * sides) };
}
