/**
 * Degree of success (docs/rules/mountain-witch.md §1.1) and the successes it gives each side.
 *
 * Successes are kept as *pieces* rather than a number because the rulebook forbids
 * breaking a whole success into two halves: a critical is one whole plus one half,
 * a double is two wholes, and each piece is spent on its own.
 */

export type DegreeKey = "tie" | "partial" | "mixed" | "normal" | "critical" | "double";
export const DEGREE_KEYS: readonly DegreeKey[] = ["tie", "partial", "mixed", "normal", "critical", "double"];

/** One spendable success: a half (½) or a whole (1). */
export type SuccessPiece = "half" | "whole";

export interface Degree {
  key: DegreeKey;
  /** The winner's result minus the loser's (≥ 0). */
  margin: number;
  /** What the winner gets. */
  winner: SuccessPiece[];
  /** What the loser gets (only a mixed success gives the loser anything). */
  loser: SuccessPiece[];
}

/** The degree named by the margin between the two results (5 and more is a double success). */
export function degreeOfSuccess(margin: number): Degree {
  if (!Number.isInteger(margin) || margin < 0) throw new RangeError(`degreeOfSuccess: bad margin ${margin}`);
  switch (margin) {
    case 0:
      return { key: "tie", margin, winner: [], loser: [] };
    case 1:
      return { key: "partial", margin, winner: ["half"], loser: [] };
    case 2:
      return { key: "mixed", margin, winner: ["whole"], loser: ["half"] };
    case 3:
      return { key: "normal", margin, winner: ["whole"], loser: [] };
    case 4:
      return { key: "critical", margin, winner: ["whole", "half"], loser: [] };
    default:
      return { key: "double", margin, winner: ["whole", "whole"], loser: [] };
  }
}

export type SideKey = "a" | "b";

export function otherSide(side: SideKey): SideKey {
  return side === "a" ? "b" : "a";
}

export interface Outcome {
  /** The side with the higher result, or null on a tie. */
  winner: SideKey | null;
  degree: Degree;
  /** Successes each side gets from this comparison. */
  successes: Record<SideKey, SuccessPiece[]>;
}

/** Compares two sides' results (either may be negative: 6 − (−1) = 7 is a double success). */
export function compareResults(a: number, b: number): Outcome {
  const degree = degreeOfSuccess(Math.abs(a - b));
  if (a === b) return { winner: null, degree, successes: { a: [], b: [] } };
  const winner: SideKey = a > b ? "a" : "b";
  return {
    winner,
    degree,
    successes: winner === "a" ? { a: degree.winner, b: degree.loser } : { a: degree.loser, b: degree.winner },
  };
}

/** The success levels a player may pick for a trade (never partial or mixed). */
export type TradeLevel = "normal" | "critical" | "double";
export const TRADE_LEVELS: readonly TradeLevel[] = ["normal", "critical", "double"];

export function tradeSuccesses(level: TradeLevel): SuccessPiece[] {
  return degreeOfSuccess(level === "normal" ? 3 : level === "critical" ? 4 : 5).winner;
}

/** The quality of a success spent as damage: what it costs (½, 1, 1½, 2). */
export type DamageQuality = "partial" | "normal" | "critical" | "double";
export const DAMAGE_QUALITIES: readonly DamageQuality[] = ["partial", "normal", "critical", "double"];

/** Successes as a number of halves (for display and invariants). */
export function halves(pieces: readonly SuccessPiece[]): number {
  return pieces.reduce((sum, p) => sum + (p === "half" ? 1 : 2), 0);
}

/**
 * Spends successes of the given quality from `pieces`, or returns null when they are
 * not there. A half is paid with a half when there is one, otherwise with a whole (the
 * rest of that whole is lost: a whole success cannot be split); 1½ is a whole and a
 * half, or two wholes; 2 is two wholes.
 */
export function spendSuccesses(
  pieces: readonly SuccessPiece[],
  quality: DamageQuality,
): SuccessPiece[] | null {
  const rest = [...pieces];
  const take = (piece: SuccessPiece): boolean => {
    const i = rest.indexOf(piece);
    if (i < 0) return false;
    rest.splice(i, 1);
    return true;
  };
  const wholes = rest.filter((p) => p === "whole").length;
  const hasHalf = rest.includes("half");
  switch (quality) {
    case "partial":
      return take("half") || take("whole") ? rest : null;
    case "normal":
      return take("whole") ? rest : null;
    case "critical":
      if (wholes >= 1 && hasHalf) {
        take("whole");
        take("half");
        return rest;
      }
      if (wholes >= 2) {
        take("whole");
        take("whole");
        return rest;
      }
      return null;
    case "double":
      if (wholes < 2) return null;
      take("whole");
      take("whole");
      return rest;
  }
}
