import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  challengePanel,
  severalHunters,
  teamActionsView,
} from "../../src/app/beast-hunters/challenge-view.js";
import type { Intent } from "../../src/app/intent.js";
import type { MessageView } from "../../src/app/views.js";
import {
  advantageOf,
  applyChallengeAction,
  type ChallengeAction,
  type ChallengeState,
  newHunterSheet,
  newReserve,
  SPHERES,
  stageCounts,
  startChallenge,
} from "../../src/rules/beast-hunters/index.js";
import { scriptedDice, seededDice } from "../../src/rules/dice.js";
import { DomainError } from "../../src/rules/errors.js";
import { expectWithinDiscordLimits } from "./beast-hunters-controls.js";

/** The largest flow id PostgreSQL's int column holds: the longest custom_ids the panel can make. */
const FLOW_ID = 2_147_483_647;
/** Names as long as `cleanName` lets them be (64), with the characters that make encoding longest. */
const long = (prefix: string) => `${prefix} ${'ж"\\'.repeat(30)}`.slice(0, 64);

type Pick = (n: number) => number;

function setup(hunters: number, obstacles: number, sphere: (typeof SPHERES)[number]): ChallengeState {
  const sheet = () => ({
    ...newHunterSheet(),
    traits: [...Array(7)].map((_, i) => ({
      name: long(`Trait${i}`),
      sphere: SPHERES[i % 3]!,
      value: 2 + (i % 3) * 2,
    })),
    resources: [...Array(6)].map((_, i) => ({
      name: long(`Res${i}`),
      sphere: SPHERES[i % 3]!,
      kind: i % 2 === 0 ? ("attack" as const) : ("defence" as const),
      value: 2 + (i % 4),
    })),
  });
  return startChallenge({
    sphere,
    phase: 2,
    hunters: Array.from({ length: hunters }, (_, i) => ({
      characterId: String(2_147_483_640 + i),
      name: long(`Hunter${i}`),
      sheet: sheet(),
    })),
    obstacles: Array.from({ length: obstacles }, (_, i) => ({
      id: i === 0 ? "obstacle" : `obstacle${i + 1}`,
      name: long(`Beast${i}`),
      traits: [...Array(6)].map((_, j) => ({ name: long(`Claw${j}`), value: 2 })),
      resources: [...Array(5)].map((_, j) => ({
        name: long(`Hide${j}`),
        kind: j % 2 === 0 ? ("attack" as const) : ("defence" as const),
        value: 2,
      })),
      initiative: 2 * i,
      boxes: stageCounts(2, 1, 1, 1, 1),
    })),
    reserve: newReserve(500, 500),
    climax: true,
    knockoutHasNoEffect: false,
  }).state;
}

/** A plausible (often refused) next action, mostly by whoever holds the turn. */
function randomAction(state: ChallengeState, r: Pick): ChallengeAction {
  const pick = <T>(items: readonly T[]): T | undefined =>
    items.length === 0 ? undefined : items[r(items.length) - 1];
  const actorId = state.pendingFatal ?? state.pendingBonus?.actor ?? state.turn;
  const actor = state.participants.find((p) => p.id === actorId)!;
  const opponents = state.participants.filter((p) => p.side !== actor.side);
  const target = pick(opponents)!;
  const mate = pick(state.participants.filter((p) => p.side === "hunters" && p.id !== actorId));
  const trait = pick(actor.traits)!.name;
  switch (r(14)) {
    case 1:
    case 2:
      return { type: "activate", actor: actorId, trait, as: pick(["attack", "defence"] as const)! };
    case 3:
    case 4:
      return { type: "maneuver", actor: actorId, target: target.id };
    case 5:
      return { type: "offerAdvantage", points: 2 * r(8), target: target.id };
    case 6:
      return { type: "accept", actor: actorId };
    case 7:
    case 8:
      return { type: "strike", actor: actorId, dice: r(3), target: target.id };
    case 9:
      return { type: "help", actor: actorId, helped: mate?.id ?? actorId, trait };
    case 10:
      return { type: "switchTarget", actor: actorId, from: target.id, to: pick(opponents)!.id, points: null };
    case 11:
      return {
        type: "passAdvantage",
        actor: actorId,
        to: mate?.id ?? actorId,
        target: target.id,
        points: null,
        switchTo: null,
      };
    case 12:
      return r(2) === 1
        ? { type: "proposeTask", name: long(`Task${r(30)}`), difficulty: 1, by: actorId }
        : { type: "achieve", actor: actorId, task: pick(state.tasks)?.name ?? "none", dice: 1, target: null };
    case 13:
      return { type: "declineBonus", actor: actorId };
    default:
      return r(20) === 1
        ? { type: "giveUp", actor: pick(state.participants.filter((p) => p.side === "hunters"))!.id }
        : { type: "chooseFate", actor: actorId, choice: r(2) === 1 ? "survive" : "retire" };
  }
}

/** What the panel's and team menu's picks ask the rules for (mirrors the `challenge.menu` use case). */
function actionOf(state: ChallengeState, actor: string, intent: Intent): ChallengeAction | null {
  if (intent.type === "challenge.maneuver") return { type: "maneuver", actor, target: null };
  if (intent.type === "challenge.strike")
    return { type: "strike", actor, dice: Number(intent.dice), target: null };
  if (intent.type !== "challenge.menu") return null;
  const [kind, a = "", b = "", c] = String(intent.pick).split(":");
  switch (kind) {
    case "m":
      return { type: "maneuver", actor, target: a };
    case "x":
      return { type: "strike", actor, target: a, dice: Number(b) };
    case "h":
      return { type: "help", actor, helped: a, trait: String(intent.pick).slice(3 + a.length) };
    case "s":
      return { type: "switchTarget", actor, from: a, to: b, points: null };
    case "p":
      return { type: "passAdvantage", actor, to: a, target: b, points: null, switchTo: c ?? null };
    default:
      // Activate, reassign, neutralise and restore were there before (and may rightly be refused, e.g. a 4th trait).
      void state;
      return null;
  }
}

/** Every intent a view can send: buttons as they are, each select option filled in. */
function sendable(view: MessageView): Intent[] {
  return (view.rows ?? [])
    .flat()
    .flatMap((c) =>
      c.kind === "button" ? [c.intent] : c.options.map((o) => ({ ...c.intent, [c.field]: o.value })),
    );
}

/** How many offered picks of each kind were tried (so the property is seen to reach them). */
const tried: Record<string, number> = {};

/** Maneuvers, strikes and the team actions the controls offer are all accepted by the rules. */
function expectOffersAccepted(state: ChallengeState, actor: string, view: MessageView): void {
  for (const intent of sendable(view)) {
    const action = actionOf(state, actor, intent);
    if (!action) continue;
    tried[action.type] = (tried[action.type] ?? 0) + 1;
    try {
      applyChallengeAction(state, action, seededDice(1));
    } catch (error) {
      if (error instanceof DomainError)
        throw new Error(
          `${JSON.stringify(intent)} offered but refused: ${error.code} ${JSON.stringify(error.params)}`,
        );
      throw error;
    }
  }
}

function checkControls(state: ChallengeState): void {
  for (const lang of ["en", "ru"] as const) {
    const panel = challengePanel(lang, FLOW_ID, {
      challenge: state,
      price: { lines: [], ceiling: 500, obstacles: [] },
    });
    expectWithinDiscordLimits(panel);
    const types = sendable(panel).map((i) => i.type);
    const playing = state.status === "active" && !state.pendingBonus;
    expect(types.includes("challenge.team"), "the team button only with several hunters").toBe(
      playing && severalHunters(state),
    );
    expect(types.includes("challenge.taskform")).toBe(state.status === "active");
    if (state.status !== "active") continue;
    const actor = state.pendingBonus?.actor ?? state.turn;
    // What the rules accept does not depend on the language.
    if (lang === "en") expectOffersAccepted(state, actor, panel);
    if (!playing || !severalHunters(state)) continue;
    const team = teamActionsView(lang, FLOW_ID, state, actor);
    expect(team.ephemeral).toBe(true);
    expectWithinDiscordLimits(team);
    if (lang === "en") expectOffersAccepted(state, actor, team);
  }
}

describe("the challenge panel's controls (random play)", () => {
  it("stay within Discord's limits, show the team actions only with several hunters, and offer only what the rules accept", () => {
    fc.assert(
      fc.property(
        fc.record({
          hunters: fc.integer({ min: 1, max: 5 }),
          obstacles: fc.integer({ min: 1, max: 2 }),
          sphere: fc.constantFrom(...SPHERES),
          seed: fc.integer(),
          steps: fc.integer({ min: 10, max: 60 }),
        }),
        (s) => {
          let state = setup(s.hunters, s.obstacles, s.sphere);
          const chooser = seededDice(s.seed);
          const dice = seededDice(s.seed ^ 0x2545f491);
          const r: Pick = (n) => chooser.roll(Math.max(1, n));
          checkControls(state);
          for (let step = 0; step < s.steps && state.status !== "closed"; step++) {
            try {
              state = applyChallengeAction(state, randomAction(state, r), dice).state;
            } catch (error) {
              if (!(error instanceof DomainError)) throw error;
              continue;
            }
            checkControls(state);
          }
        },
      ),
      // Bounded to stay a few seconds on two cores.
      { numRuns: 20 },
    );
    // The random play reaches every kind of offered pick.
    for (const type of ["maneuver", "strike", "help", "switchTarget", "passAdvantage"])
      expect(tried[type] ?? 0, type).toBeGreaterThan(0);
  });

  it("offers a 12+ maneuver's free strike against that maneuver's target when there are several hunters", () => {
    let state = setup(2, 1, "physical");
    const [first, second] = state.participants.filter((p) => p.side === "hunters");
    // The obstacle's turn comes after the first hunter's; it rolls 20 against 2.
    state = applyChallengeAction(
      state,
      { type: "activate", actor: first!.id, trait: first!.traits[0]!.name, as: "attack" },
      seededDice(1),
    ).state;
    expect(state.turn).toBe("obstacle");
    state = applyChallengeAction(
      state,
      { type: "maneuver", actor: "obstacle", target: second!.id },
      scriptedDice([10, 10, 1, 1]),
    ).state;
    expect(state.pendingBonus).toMatchObject({ actor: "obstacle", target: second!.id });
    expect(advantageOf(state, "obstacle", second!.id)).toBeGreaterThanOrEqual(12);
    const panel = challengePanel("en", FLOW_ID, {
      challenge: state,
      price: { lines: [], ceiling: 500, obstacles: [] },
    });
    expectWithinDiscordLimits(panel);
    const strikes = sendable(panel).filter((i) => i.type === "challenge.strike");
    expect(strikes.map((i) => i.dice)).toEqual([1, 2, 3]);
    expect(sendable(panel).map((i) => i.type)).toEqual(
      expect.arrayContaining(["challenge.skip", "challenge.taskform", "challenge.show"]),
    );
    expectOffersAccepted(state, "obstacle", panel);
  });
});
