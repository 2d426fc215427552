/**
 * Group conflicts (docs/rules/mountain-witch.md §1.1): participants are grouped into sides by shared
 * opponents. Everyone declares whom they act against; each connected group of
 * opponents is one two-sided conflict, and the two sides are found by colouring it.
 * A group that cannot be split into two sides (A against B, B against C, C against A)
 * is refused: each of those conflicts must have exactly two sides.
 */
import { refuse } from "../errors.js";

export interface Opposition {
  id: number;
  /** The participants this one acts against. */
  against: readonly number[];
}

export interface SidesGroup {
  a: number[];
  b: number[];
}

export function groupIntoConflicts(declarations: readonly Opposition[]): SidesGroup[] {
  const neighbours = new Map<number, Set<number>>();
  const link = (x: number, y: number) => {
    if (!neighbours.has(x)) neighbours.set(x, new Set());
    neighbours.get(x)!.add(y);
  };
  for (const d of declarations) {
    if (!neighbours.has(d.id)) neighbours.set(d.id, new Set());
    for (const other of d.against) {
      if (other === d.id) refuse("errors.mw.opposesSelf");
      link(d.id, other);
      link(other, d.id);
    }
  }
  const colour = new Map<number, "a" | "b">();
  const groups: SidesGroup[] = [];
  for (const start of neighbours.keys()) {
    if (colour.has(start)) continue;
    const group: SidesGroup = { a: [], b: [] };
    colour.set(start, "a");
    const queue = [start];
    while (queue.length > 0) {
      const x = queue.shift()!;
      const side = colour.get(x)!;
      group[side].push(x);
      for (const y of neighbours.get(x)!) {
        const ys = colour.get(y);
        if (ys === undefined) {
          colour.set(y, side === "a" ? "b" : "a");
          queue.push(y);
        } else if (ys === side) {
          refuse("errors.mw.notTwoSided");
        }
      }
    }
    // Somebody with no opponent is not in any conflict this round.
    if (group.b.length > 0) groups.push(group);
  }
  return groups;
}
