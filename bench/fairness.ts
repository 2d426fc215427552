import { cryptoDice, type DiceSource } from "../src/rules/dice.js";
import { chiSquareGoodnessOfFit, tally, uniformProbabilities } from "../src/rules/fairness.js";
import { round } from "./stats.js";

export interface FairnessResult {
  die: string;
  rolls: number;
  counts: number[];
  chiSquare: number;
  degreesOfFreedom: number;
  criticalValueP001: number;
  fair: boolean;
  rollsPerSecond: number;
}

/** Rolls each die `rolls` times with the production dice and tests the faces for uniformity. */
export function diceFairness(
  rolls = 1_000_000,
  sides: readonly number[] = [6, 10, 3],
  dice: DiceSource = cryptoDice,
): FairnessResult[] {
  return sides.map((s) => {
    const started = performance.now();
    const faces = new Uint8Array(rolls);
    for (let i = 0; i < rolls; i++) faces[i] = dice.roll(s);
    const seconds = (performance.now() - started) / 1000;
    const counts = tally(faces, 1, s);
    const fit = chiSquareGoodnessOfFit(counts, uniformProbabilities(s));
    return {
      die: `d${s}`,
      rolls,
      counts,
      chiSquare: round(fit.statistic, 3),
      degreesOfFreedom: fit.degreesOfFreedom,
      criticalValueP001: fit.criticalValue,
      fair: !fit.rejected,
      rollsPerSecond: Math.round(rolls / seconds),
    };
  });
}
