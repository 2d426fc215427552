import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { catalogues } from "../../../src/i18n/index.js";
import {
  applyChallengeAction,
  type ChallengeAction,
  type ChallengeState,
  newReserve,
  participant,
  SPHERES,
  STAGES,
  stageCounts,
  startChallenge,
} from "../../../src/rules/beast-hunters/index.js";
import { seededDice } from "../../../src/rules/dice.js";
import { DomainError } from "../../../src/rules/errors.js";
import { yakhara } from "./helpers.js";

type Pick = (n: number) => number;

/** A plausible (often invalid) action for the current state, chosen by `r`. */
function randomAction(state: ChallengeState, r: Pick): ChallengeAction {
  const pick = <T>(items: readonly T[]): T | undefined =>
    items.length === 0 ? undefined : items[r(items.length) - 1];
  const ids = state.participants.map((p) => p.id);
  const actorId = r(10) <= 8 ? (state.pendingFatal ?? state.pendingBonus?.actor ?? state.turn) : pick(ids)!;
  const actor = participant(state, actorId);
  const opponents = state.participants.filter((p) => p.side !== actor.side);
  const target = pick(opponents) ?? actor;
  const friend = pick(state.participants.filter((p) => p.side === "hunters" && p.id !== actorId));
  const trait = pick(actor.traits)?.name ?? "nope";
  const resource = pick(target.resources)?.name ?? "nope";
  const ownResource = pick(actor.resources)?.name ?? "nope";
  const task = pick(state.tasks)?.name ?? "nope";
  const role = pick(["attack", "defence"] as const)!;
  switch (r(25)) {
    case 1:
    case 2:
      return { type: "activate", actor: actorId, trait, as: role };
    case 3:
      return { type: "reassign", actor: actorId, roles: { [trait]: role } };
    case 4:
    case 5:
    case 6:
      return { type: "maneuver", actor: actorId, target: r(3) === 1 ? null : target.id };
    case 7:
    case 8:
    case 23:
    case 24:
    case 25:
      return { type: "strike", actor: actorId, dice: r(4) - 1, target: r(3) === 1 ? null : target.id };
    case 9:
      return { type: "offerAdvantage", points: r(16), target: r(2) === 1 ? null : target.id };
    case 10:
      return { type: "accept", actor: actorId };
    case 11:
      return { type: "neutralise", actor: actorId, target: target.id, resource };
    case 12:
      return r(2) === 1
        ? { type: "restore", actor: actorId, resource: ownResource }
        : { type: "offerRestore", resource: ownResource };
    case 13:
      return { type: "proposeTask", name: `Task ${r(3)}`, difficulty: r(5), by: actorId };
    case 14:
      return { type: "achieve", actor: actorId, task, dice: r(3), target: null };
    case 15:
      return r(3) === 1
        ? { type: "resolveTask", task, side: r(2) === 1 ? "gm" : "hunters" }
        : r(2) === 1
          ? { type: "agreeTask", task, side: r(2) === 1 ? "gm" : "hunters" }
          : { type: "declineBonus", actor: actorId };
    case 16:
      return { type: "help", actor: actorId, helped: friend?.id ?? actorId, trait };
    case 17:
      return { type: "switchTarget", actor: actorId, from: target.id, to: pick(opponents)?.id ?? target.id };
    case 18:
      return {
        type: "passAdvantage",
        actor: actorId,
        to: friend?.id ?? actorId,
        target: target.id,
        points: r(2) === 1 ? null : r(12),
        switchTo: r(2) === 1 ? null : (pick(opponents)?.id ?? null),
      };
    case 19:
      return r(12) === 1
        ? { type: "giveUp", actor: actorId }
        : { type: "offerNeutralise", target: target.id, resource, margin: r(8) - 1 };
    case 20:
      return r(40) === 1 ? { type: "concede" } : { type: "close" };
    case 21:
      return { type: "chooseFate", actor: actorId, choice: r(2) === 1 ? "survive" : "retire" };
    default:
      return {
        type: "buyTaskDice",
        task,
        dice: 1,
        contributions: [{ hunter: friend?.id ?? actorId, points: 6 }],
      };
  }
}

function checkInvariants(state: ChallengeState): void {
  for (const [actor, row] of Object.entries(state.advantage)) {
    for (const [target, ap] of Object.entries(row)) {
      expect(Number.isInteger(ap), `AP ${actor} → ${target}`).toBe(true);
      expect(ap, `AP ${actor} → ${target}`).toBeGreaterThanOrEqual(0);
    }
  }
  for (const p of state.participants) {
    for (const stage of STAGES) {
      expect(p.damage[stage]).toBeGreaterThanOrEqual(0);
      expect(p.damage[stage], `${p.id} ${stage}`).toBeLessThanOrEqual(p.boxes[stage]);
    }
    for (const role of ["attack", "defence"]) {
      expect(p.traits.filter((t) => t.active === role).length).toBeLessThanOrEqual(3);
    }
  }
  if (state.status === "active") expect(participant(state, state.turn).status).toBe("in");
  if (state.status === "fatalChoice") expect(state.pendingFatal).not.toBeNull();
  if (state.outcome) {
    expect(state.outcome.refund).toBe(state.outcome.reason === "giveUp" ? state.cost : 0);
    expect(state.status === "aftermath" || state.status === "closed").toBe(true);
  }
  expect(JSON.parse(JSON.stringify(state))).toEqual(state);
}

const setupArb = fc.record({
  hunters: fc.integer({ min: 1, max: 3 }),
  obstacles: fc.integer({ min: 1, max: 2 }),
  sphere: fc.constantFrom(...SPHERES),
  knockoutHasNoEffect: fc.boolean(),
  light: fc.integer({ min: 1, max: 3 }),
  traitValue: fc.constantFrom(2, 4, 6),
  seed: fc.integer(),
  steps: fc.integer({ min: 20, max: 100 }),
});

describe("challenge properties (random play)", () => {
  it("AP never go negative, boxes never exceed their stage, the state stays plain JSON, refusals are known messages", () => {
    fc.assert(
      fc.property(setupArb, (s) => {
        const hunters = Array.from({ length: s.hunters }, (_, i) => ({
          characterId: `h${i + 1}`,
          name: `Hunter ${i + 1}`,
          sheet: yakhara(),
        }));
        const obstacles = Array.from({ length: s.obstacles }, (_, i) => ({
          id: `o${i + 1}`,
          name: `Obstacle ${i + 1}`,
          traits: [
            { name: "Fierce", value: s.traitValue },
            { name: "Cunning", value: 2 },
          ],
          resources: [
            { name: "Claws", kind: "attack" as const, value: 4 },
            { name: "Hide", kind: "defence" as const, value: 2 },
          ],
          initiative: 2 * i,
          boxes: stageCounts(s.light, 1, 1, 1, 1),
        }));
        let state = startChallenge({
          sphere: s.sphere,
          phase: 2,
          hunters,
          obstacles,
          reserve: newReserve(200, 100),
          climax: true,
          knockoutHasNoEffect: s.knockoutHasNoEffect,
        }).state;
        checkInvariants(state);
        const chooser = seededDice(s.seed);
        const dice = seededDice(s.seed ^ 0x5bd1e995);
        const r: Pick = (n) => chooser.roll(Math.max(1, n));
        for (let step = 0; step < s.steps && state.status !== "closed"; step++) {
          const action = randomAction(state, r);
          try {
            const result = applyChallengeAction(state, action, dice);
            state = result.state;
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
            expect(catalogues.en[error.code], error.code).toBeDefined();
            expect(catalogues.ru[error.code], error.code).toBeDefined();
          }
          checkInvariants(state);
        }
      }),
      // Bounded so the suite stays fast on two cores; each run plays up to 100 random actions.
      { numRuns: 60 },
    );
  });
});
