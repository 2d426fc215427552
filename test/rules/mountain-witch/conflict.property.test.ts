import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededDice } from "../../../src/rules/dice.js";
import {
  addParticipant,
  assist,
  type ConflictState,
  type DamageEntry,
  openConflict,
  rollConflict,
  type SideKey,
} from "../../../src/rules/mountain-witch/index.js";
import { link, npc, pc } from "./helpers.js";

interface Setup {
  mode: "opposed" | "common-danger";
  /** Participants in join order: PCs 1–4 and NPCs 10–13, each on a side. */
  members: { id: number; side: SideKey }[];
  /** Extra PCs 20–22 helping a PC of the conflict (index into the PCs). */
  helpers: number[];
  penalties: Record<number, number>;
  seed: number;
}

const setup: fc.Arbitrary<Setup> = fc
  .record({
    mode: fc.constantFrom<"opposed" | "common-danger">("opposed", "common-danger"),
    pcs: fc.integer({ min: 1, max: 4 }),
    npcs: fc.integer({ min: 1, max: 4 }),
    helpers: fc.array(fc.nat(), { maxLength: 3 }),
    pcSides: fc.array(fc.constantFrom<SideKey>("a", "b"), { minLength: 4, maxLength: 4 }),
    penalties: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 30, maxLength: 30 }),
    seed: fc.integer(),
  })
  .map((r) => {
    const pcs = Array.from({ length: r.pcs }, (_, i) => i + 1);
    const npcs = Array.from({ length: r.mode === "common-danger" ? 1 : r.npcs }, (_, i) => i + 10);
    const pcSide = (i: number): SideKey => (r.mode === "common-danger" ? "a" : i === 0 ? "a" : r.pcSides[i]!);
    const members = [
      ...pcs.map((id, i) => ({ id, side: pcSide(i) })),
      ...npcs.map((id) => ({ id, side: "b" as SideKey })),
    ];
    const penalties: Record<number, number> = {};
    [...pcs, ...npcs, 20, 21, 22].forEach((id, i) => {
      penalties[id] = r.penalties[i]!;
    });
    return {
      mode: r.mode,
      members,
      helpers: r.helpers.map((h) => pcs[h % pcs.length]!),
      penalties,
      seed: r.seed,
    };
  });

function build(s: Setup, flip: boolean): ConflictState {
  let state = openConflict({ mode: s.mode });
  const sideOf = (side: SideKey): SideKey => (flip ? (side === "a" ? "b" : "a") : side);
  for (const m of s.members) {
    const ref = m.id < 10 ? pc(m.id) : npc(m.id, "medium");
    state = addParticipant(state, ref, s.mode === "common-danger" ? m.side : sideOf(m.side));
  }
  s.helpers.forEach((targetId, i) => {
    const helperId = 20 + i;
    state = assist(state, { helper: pc(helperId), targetId }, [link(targetId, helperId, 1)]).state;
  });
  return state;
}

function damageOf(s: Setup): Record<number, DamageEntry[]> {
  const out: Record<number, DamageEntry[]> = {};
  let id = 1;
  for (const [who, n] of Object.entries(s.penalties)) {
    out[Number(who)] = Array.from({ length: n }, () => ({
      id: id++,
      characterId: Number(who),
      duration: "chapter" as const,
      ability: null,
      condition: null,
    }));
  }
  return out;
}

function isRollable(state: ConflictState): boolean {
  return state.participants.some((p) => p.side === "a") && state.participants.some((p) => p.side === "b");
}

describe("conflict properties", () => {
  it("every die is 1–6, and every die rolled is in the result", () => {
    fc.assert(
      fc.property(setup, (s) => {
        const state = build(s, false);
        if (!isRollable(state)) return;
        const { result } = rollConflict(state, seededDice(s.seed), damageOf(s));
        const dice = [
          ...result.dice.map((d) => d.die),
          ...result.pairings.flatMap((p) => p.narration?.rollOff.flat().map((r) => r.die) ?? []),
        ];
        for (const d of dice) expect(Number.isInteger(d) && d >= 1 && d <= 6).toBe(true);
        // One die per participant, the danger's only once.
        expect(result.dice).toHaveLength(state.participants.length);
        for (const d of result.dice) expect(d.value).toBe(d.die - d.penalty);
      }),
    );
  });

  it("the degree is antisymmetric: swapping the sides swaps the winner and keeps the degree", () => {
    fc.assert(
      fc.property(
        setup.filter((s) => s.mode === "opposed"),
        (s) => {
          const state = build(s, false);
          if (!isRollable(state)) return;
          const there = rollConflict(state, seededDice(s.seed), damageOf(s)).result.pairings[0]!;
          const back = rollConflict(build(s, true), seededDice(s.seed), damageOf(s)).result.pairings[0]!;
          expect(back.degree).toBe(there.degree);
          expect(back.margin).toBe(there.margin);
          expect(back.winner).toBe(there.winner === null ? null : there.winner === "a" ? "b" : "a");
          expect(back.successes).toEqual({ a: there.successes.b, b: there.successes.a });
          expect(back.narration?.characterId).toBe(there.narration?.characterId);
        },
      ),
    );
  });

  it("a helper never lowers the sum, and the side's result is its best entry", () => {
    fc.assert(
      fc.property(setup, (s) => {
        const state = build(s, false);
        if (!isRollable(state)) return;
        const { result } = rollConflict(state, seededDice(s.seed), damageOf(s));
        for (const p of result.pairings) {
          for (const side of [p.a!, p.b!]) {
            for (const e of side.entries) {
              expect(e.total).toBeGreaterThanOrEqual(e.lead.value + e.betrayalBonus);
              for (const h of e.helpers) expect(h.added).toBe(Math.max(0, h.roll.value));
            }
            expect(side.result).toBe(Math.max(...side.entries.map((e) => e.total)) + side.betrayalBonus);
          }
          expect(p.margin).toBe(Math.abs(p.a!.result - p.b!.result));
        }
        expect(JSON.parse(JSON.stringify(result))).toStrictEqual(result);
      }),
    );
  });
});
