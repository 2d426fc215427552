/**
 * The stored shapes of the Mountain Witch flows (src/app/mountain-witch/flow-states.ts) hold every
 * state the rules can reach: a conflict or a duel played at random, saved as JSON and loaded again,
 * comes back the same (under vitest, loading fails if the schema would drop or change a field);
 * and the upgrade of a version-1 conflict only ever adds what was missing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FlowKindSpec, typedFlow } from "../../src/app/flows.js";
import { conflictFlow, duelFlow } from "../../src/app/mountain-witch/flow-states.js";
import type { Flow } from "../../src/generated/prisma/client.js";
import { seededDice } from "../../src/rules/dice.js";
import { DomainError } from "../../src/rules/errors.js";
import {
  acceptDuel,
  addObstacle,
  addParticipant,
  assist,
  betray,
  type ConflictState,
  challengeDuel,
  closeConflict,
  type DuelState,
  damageChoices,
  declareKillIntent,
  declareTrade,
  duelDamageChoices,
  openConflict,
  rollConflict,
  rollNext,
  spendDamage,
  spendDuelDamage,
  strike,
} from "../../src/rules/mountain-witch/index.js";
import { link, npc, pc } from "../rules/mountain-witch/helpers.js";

/** A flow row as PostgreSQL gives it back: the state through JSON. */
function stored<S>(spec: FlowKindSpec<S>, state: unknown, version = spec.version): Flow {
  return {
    id: 1,
    kind: spec.kind,
    status: "open",
    state: JSON.parse(JSON.stringify(state)),
    stateVersion: version,
  } as unknown as Flow;
}

/** Runs a rules step that may refuse (a random step often is not allowed): the state before, then. */
function tryStep<S>(state: S, step: (s: S) => S): S {
  try {
    return step(state);
  } catch (error) {
    if (error instanceof DomainError) return state;
    throw error;
  }
}

const conflictPlay = fc.record({
  mode: fc.constantFrom<"opposed" | "common-danger">("opposed", "common-danger"),
  pcs: fc.integer({ min: 1, max: 3 }),
  obstacle: fc.boolean(),
  deadHelper: fc.boolean(),
  betrayal: fc.boolean(),
  kill: fc.boolean(),
  trade: fc.boolean(),
  spends: fc.nat({ max: 3 }),
  close: fc.boolean(),
  seed: fc.integer(),
});

type Play = typeof conflictPlay extends fc.Arbitrary<infer T> ? T : never;

function playConflict(p: Play): ConflictState {
  let state = openConflict({ mode: p.mode, title: p.seed % 2 ? "The bridge" : null });
  for (let id = 1; id <= p.pcs; id++) state = addParticipant(state, pc(id), "a");
  state = p.obstacle
    ? addObstacle(state, { name: "Landslide", strength: "strong", side: "b" }).state
    : addParticipant(state, npc(10, "medium"), "b");
  const links = [link(1, 2, 3), link(1, 30, 2), link(2, 1, 3)];
  if (p.deadHelper)
    state = tryStep(state, (s) => assist(s, { helper: pc(30, "Ghost", "dead"), targetId: 1 }, links).state);
  if (p.betrayal)
    state = tryStep(state, (s) => betray(s, { betrayer: pc(2), betrayedId: 1, points: 1 }, links).state);
  if (p.kill)
    state = tryStep(state, (s) => declareKillIntent(s, { byId: 1, targetId: s.participants.at(-1)!.id }));
  if (p.trade) state = tryStep(state, (s) => declareTrade(s, { declarerId: 1, level: "normal" }).state);
  state = tryStep(state, (s) => rollConflict(s, seededDice(p.seed)).state);
  for (let i = 0; i < p.spends; i++) {
    const pairing = state.pairings.find((pr) => damageChoices(state, pr.id).length > 0);
    if (!pairing) break;
    const choice = damageChoices(state, pairing.id)[0]!;
    state = spendDamage(state, { ...choice, pairingId: pairing.id, ability: null, condition: null }).state;
  }
  return p.close ? closeConflict(state) : state;
}

describe("Mountain Witch flow states", () => {
  it("a conflict at any point of play loads back as it was saved", () => {
    fc.assert(
      fc.property(conflictPlay, (p) => {
        const state = playConflict(p);
        expect(typedFlow(conflictFlow, stored(conflictFlow, state)).state).toEqual(state);
      }),
    );
  });

  it("a version-1 conflict gains only the dead's help it could not have, and keeps it when it had it", () => {
    fc.assert(
      fc.property(conflictPlay, (p) => {
        const state = playConflict(p);
        const { deadHelps, ...v1 } = state;
        expect(typedFlow(conflictFlow, stored(conflictFlow, v1, 1)).state).toEqual({ ...v1, deadHelps: [] });
        // A row marked version 1 that already has the field (a backup re-imported) loads unchanged.
        expect(typedFlow(conflictFlow, stored(conflictFlow, state, 1)).state).toEqual({
          ...state,
          deadHelps,
        });
      }),
    );
  });

  it("a duel at any point of play loads back as it was saved, its stop votes included", () => {
    fc.assert(
      fc.property(
        fc.record({
          nexts: fc.array(fc.constantFrom<"a" | "b">("a", "b"), { maxLength: 4 }),
          striker: fc.constantFrom<"a" | "b">("a", "b"),
          damage: fc.boolean(),
          stopped: fc.subarray<"a" | "b">(["a", "b"]),
          seed: fc.integer(),
        }),
        (p) => {
          const dice = seededDice(p.seed);
          let duel: DuelState = challengeDuel({
            challenger: pc(1),
            opponent: pc(2),
            lethal: p.seed % 2 === 0,
          });
          duel = acceptDuel(duel, dice);
          for (const side of p.nexts) duel = tryStep(duel, (d) => rollNext(d, side, dice));
          duel = tryStep(duel, (d) => strike(d, p.striker, dice));
          const choice = duelDamageChoices(duel)[0];
          if (p.damage && choice && duel.result?.winner)
            duel = spendDuelDamage(duel, { attackerSide: duel.result.winner, quality: choice.quality }).state;
          const state = {
            duel,
            secret: { a: { token: "token-a", at: new Date(0).toISOString() }, b: null },
            stopped: p.stopped,
          };
          expect(typedFlow(duelFlow, stored(duelFlow, state)).state).toEqual(state);
          // Saved by version 1 (no stop votes): nobody has stopped.
          const { stopped: _, ...v1 } = state;
          expect(typedFlow(duelFlow, stored(duelFlow, v1, 1)).state).toEqual({
            ...v1,
            stopped: [],
          });
        },
      ),
    );
  });
});
