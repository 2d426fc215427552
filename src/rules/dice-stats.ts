/**
 * Dice statistics for `/table stats` (docs/rules/common.md §4): how often each face of each die
 * size came up, the averages against a fair die's, and a chi-square verdict on fairness. Pure
 * arithmetic over face counts, no I/O.
 */
import { chiSquarePValue, chiSquareStatistic, uniformProbabilities } from "./fairness.js";

/** Below this p-value the dice are called off; at or above it they look fair. */
export const FAIR_P_VALUE = 0.01;

/** The chi-square test needs at least this many expected rolls of every face to mean anything. */
export const MIN_EXPECTED_PER_FACE = 5;

/** How many times one player rolled one face of one die size. */
export interface FaceCount {
  userId: string;
  sides: number;
  face: number;
  count: number;
}

export type FairnessVerdict = "fair" | "off" | "tooFew";

export interface DieSizeStats {
  sides: number;
  /** Dice of this size rolled. */
  count: number;
  mean: number;
  /** A fair die's average: (sides + 1) / 2. */
  expectedMean: number;
  /** faceCounts[i] is how often face i + 1 came up. */
  faceCounts: number[];
  /** How often each face would come up on a fair die: count / sides. */
  expectedPerFace: number;
  /** The chi-square test's p-value; null while there are too few dice for it. */
  pValue: number | null;
  verdict: FairnessVerdict;
  /** Dice of this size needed before the test can judge them. */
  needed: number;
}

export interface PlayerDieStats {
  userId: string;
  sides: number;
  count: number;
  mean: number;
  expectedMean: number;
}

export interface DiceStatistics {
  total: number;
  /** Die sizes, the most rolled first (ties: the smaller die first). */
  bySize: DieSizeStats[];
  /** Per player and die size, players by how many dice they rolled. */
  byPlayer: PlayerDieStats[];
}

/** The chi-square verdict for one die size's face counts. */
export function fairnessOf(sides: number, faceCounts: readonly number[]) {
  const count = faceCounts.reduce((sum, n) => sum + n, 0);
  const needed = MIN_EXPECTED_PER_FACE * sides;
  if (sides < 2) return { pValue: 1, verdict: "fair" as const, needed: 0 };
  if (count < needed) return { pValue: null, verdict: "tooFew" as const, needed };
  const expected = uniformProbabilities(sides).map((p) => p * count);
  const pValue = chiSquarePValue(chiSquareStatistic(faceCounts, expected), sides - 1);
  return { pValue, verdict: pValue >= FAIR_P_VALUE ? ("fair" as const) : ("off" as const), needed };
}

export function diceStatistics(rows: readonly FaceCount[]): DiceStatistics {
  const sizes = new Map<number, number[]>();
  const players = new Map<string, { userId: string; sides: number; count: number; sum: number }>();
  let total = 0;
  for (const row of rows) {
    if (row.face < 1 || row.face > row.sides || row.count <= 0) continue;
    const faces = sizes.get(row.sides) ?? new Array<number>(row.sides).fill(0);
    faces[row.face - 1]! += row.count;
    sizes.set(row.sides, faces);
    const key = `${row.userId}:${row.sides}`;
    const player = players.get(key) ?? { userId: row.userId, sides: row.sides, count: 0, sum: 0 };
    player.count += row.count;
    player.sum += row.face * row.count;
    players.set(key, player);
    total += row.count;
  }
  const bySize = [...sizes.entries()]
    .map(([sides, faceCounts]): DieSizeStats => {
      const count = faceCounts.reduce((sum, n) => sum + n, 0);
      const sum = faceCounts.reduce((acc, n, i) => acc + n * (i + 1), 0);
      return {
        sides,
        count,
        mean: sum / count,
        expectedMean: (sides + 1) / 2,
        faceCounts,
        expectedPerFace: count / sides,
        ...fairnessOf(sides, faceCounts),
      };
    })
    .sort((a, b) => b.count - a.count || a.sides - b.sides);
  const perPlayer = new Map<string, number>();
  for (const p of players.values()) perPlayer.set(p.userId, (perPlayer.get(p.userId) ?? 0) + p.count);
  const byPlayer = [...players.values()]
    .map((p) => ({
      userId: p.userId,
      sides: p.sides,
      count: p.count,
      mean: p.sum / p.count,
      expectedMean: (p.sides + 1) / 2,
    }))
    .sort(
      (a, b) =>
        perPlayer.get(b.userId)! - perPlayer.get(a.userId)! ||
        a.userId.localeCompare(b.userId) ||
        a.sides - b.sides,
    );
  return { total, bySize, byPlayer };
}
