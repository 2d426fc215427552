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

/** ln Γ(x) for x > 0 (Lanczos approximation, g = 7, n = 9: about 15 significant digits). */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = c[0]!;
  for (let i = 1; i < 9; i += 1) sum += c[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** The regularized upper incomplete gamma function Q(a, x) (series below a + 1, continued fraction above). */
function upperRegularizedGamma(a: number, x: number): number {
  if (x <= 0) return 1;
  const front = Math.exp(-x + a * Math.log(x) - logGamma(a));
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 1000 && Math.abs(term) > Math.abs(sum) * 1e-15; n += 1) {
      term *= x / (a + n);
      sum += term;
    }
    return Math.max(0, 1 - sum * front);
  }
  // Lentz's continued fraction.
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i += 1) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.min(1, front * h);
}

/** The p-value of a chi-square statistic: how likely a value at least this large is from fair dice. */
export function chiSquarePValue(statistic: number, degreesOfFreedom: number): number {
  return upperRegularizedGamma(degreesOfFreedom / 2, statistic / 2);
}
