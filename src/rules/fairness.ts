/**
 * Pearson's chi-square goodness-of-fit test, used to check that the dice are fair (tests and
 * the benchmark). Pure arithmetic, no I/O.
 */

/**
 * Critical values of the chi-square distribution at p = 0.001 (upper tail), indexed by degrees
 * of freedom (index 0 unused). Standard table values, checked against scipy `chi2.ppf(0.999, df)`.
 */
export const CHI_SQUARE_CRITICAL_P001: readonly number[] = [
  Number.NaN,
  10.828,
  13.816,
  16.266,
  18.467,
  20.515,
  22.458,
  24.322,
  26.124,
  27.877,
  29.588,
  31.264,
  32.909,
  34.528,
  36.123,
  37.697,
  39.252,
  40.79,
  42.312,
  43.82,
  45.315,
];

/** z for the upper 0.001 tail of the standard normal distribution. */
const Z_P001 = 3.090232;

/**
 * The chi-square critical value at p = 0.001 for `degreesOfFreedom`: the table up to 20, and the
 * Wilson–Hilferty approximation above (within 0.3% there, e.g. 148.29 vs 148.23 for a d100).
 */
export function chiSquareCriticalValue(degreesOfFreedom: number): number {
  if (!Number.isInteger(degreesOfFreedom) || degreesOfFreedom < 1) {
    throw new RangeError(
      `chiSquareCriticalValue: degrees of freedom must be a positive integer, got ${degreesOfFreedom}`,
    );
  }
  const tabled = CHI_SQUARE_CRITICAL_P001[degreesOfFreedom];
  if (tabled !== undefined) return tabled;
  const k = degreesOfFreedom;
  return k * (1 - 2 / (9 * k) + Z_P001 * Math.sqrt(2 / (9 * k))) ** 3;
}

/** Σ (observed − expected)² / expected over the bins. */
export function chiSquareStatistic(observed: readonly number[], expected: readonly number[]): number {
  if (observed.length !== expected.length) {
    throw new RangeError(
      `chiSquareStatistic: ${observed.length} observed bins but ${expected.length} expected`,
    );
  }
  return observed.reduce((sum, count, i) => {
    const e = expected[i]!;
    if (!(e > 0)) throw new RangeError(`chiSquareStatistic: expected count in bin ${i} must be positive`);
    return sum + (count - e) ** 2 / e;
  }, 0);
}

export interface GoodnessOfFit {
  statistic: number;
  degreesOfFreedom: number;
  /** The p = 0.001 critical value for these degrees of freedom. */
  criticalValue: number;
  /** True when the counts are too unlikely (p < 0.001) to come from the given distribution. */
  rejected: boolean;
}

/**
 * Tests observed bin counts against bin probabilities at p = 0.001. A fair die is wrongly
 * rejected once in a thousand runs; keep each expected count at 5 or more for the test to hold.
 */
export function chiSquareGoodnessOfFit(
  observed: readonly number[],
  probabilities: readonly number[],
): GoodnessOfFit {
  const n = observed.reduce((sum, count) => sum + count, 0);
  const statistic = chiSquareStatistic(
    observed,
    probabilities.map((p) => p * n),
  );
  const degreesOfFreedom = observed.length - 1;
  const criticalValue = chiSquareCriticalValue(degreesOfFreedom);
  return { statistic, degreesOfFreedom, criticalValue, rejected: statistic > criticalValue };
}

/** Counts how often each integer in min..max occurs; values outside the range are an error. */
export function tally(values: Iterable<number>, min: number, max: number): number[] {
  const counts = new Array<number>(max - min + 1).fill(0);
  for (const value of values) {
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new RangeError(`tally: ${value} is outside ${min}..${max}`);
    }
    counts[value - min]! += 1;
  }
  return counts;
}

/** Every face of a fair die with `sides` sides is equally likely. */
export function uniformProbabilities(sides: number): number[] {
  return new Array<number>(sides).fill(1 / sides);
}

/**
 * The exact distribution of the sum of 4 Fate dice (4dF, or 4d3 on a Fate table), for sums
 * −4..+4: 1, 4, 10, 16, 19, 16, 10, 4, 1 ways out of 3⁴ = 81.
 */
export const FOUR_FATE_DICE_SUM_PROBABILITIES: readonly number[] = [1, 4, 10, 16, 19, 16, 10, 4, 1].map(
  (ways) => ways / 81,
);
