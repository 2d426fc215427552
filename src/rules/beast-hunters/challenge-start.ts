/** Setting up a challenge: price the obstacle, charge the reserve, order the turns (docs/rules/beast-hunters.md §2.3–2.5). */
import { refuse } from "../errors.js";
import {
  type ActionResult,
  type ChallengeEvent,
  type ChallengeState,
  findTrait,
  type Participant,
  participant,
  type Side,
  sameName,
} from "./challenge-state.js";
import type { NamedValue, ResourceValue } from "./parse.js";
import {
  buyChallenge,
  challengeCost,
  chargeReserve,
  checkCeiling,
  checkPhase,
  NEUTRALISED_IN_ADVANCE_MARGIN,
  type ObstaclePrice,
  priceObstacle,
  type Reserve,
  type ReserveChange,
} from "./pricing.js";
import { type HunterSheet, validateSheet } from "./sheet.js";
import {
  effectiveTraitValue,
  MINIMAL_BOXES,
  NO_DAMAGE,
  type Phase,
  SPHERES,
  type Sphere,
  type StageCounts,
  type TraitRole,
} from "./types.js";

export interface HunterInput {
  characterId: string;
  name: string;
  sheet: HunterSheet;
}

export interface ObstacleInput {
  /** Participant id; defaults to `obstacle` (then `obstacle-2`, …). */
  id?: string | null;
  name: string;
  traits: NamedValue[];
  resources: ResourceValue[];
  initiative: number;
  boxes?: StageCounts | null;
  /** Hunter resources (of the challenge's sphere) neutralised in advance; priced from the sheet value. */
  neutralise?: { hunter: string; resource: string }[];
}

export interface PreActivation {
  participant: string;
  trait: string;
  as: TraitRole;
  /** Made in the negotiation and already counted on the hunter's sheet (once per adventure). */
  recorded?: boolean;
}

export interface ChallengeSetup {
  name?: string | null;
  sphere: Sphere;
  phase: Phase;
  obstacles: ObstacleInput[];
  hunters: HunterInput[];
  reserve: Reserve;
  /** The adventure's last challenge: extra boxes may be bought. */
  climax?: boolean;
  /** See `knockoutHasNoEffect()`. */
  knockoutHasNoEffect?: boolean;
  preActivations?: PreActivation[];
  /** Who acts first when a hunter and an obstacle tie on initiative (the hunters choose). */
  tieGoesTo?: Side;
}

export interface ChallengeStart extends ActionResult {
  prices: { obstacle: string; price: ObstaclePrice }[];
  rating: number;
  cost: number;
  reserve: ReserveChange;
}

/**
 * Knockout has no effect (on anyone) in the last challenge of an adventure that is not a
 * hunt, and in the final fight with the beast of a hunt.
 */
export function knockoutHasNoEffect(context: {
  lastChallenge: boolean;
  hunt: boolean;
  beastFight: boolean;
}): boolean {
  return (context.lastChallenge && !context.hunt) || context.beastFight;
}

/** Prices the obstacle(s), checks ceiling and reserve, charges the phase cost and sets up the table. */
export function startChallenge(setup: ChallengeSetup): ChallengeStart {
  checkPhase(setup.phase);
  if (!SPHERES.includes(setup.sphere)) refuse("errors.bh.badSphere", { sphere: String(setup.sphere) });
  if (setup.hunters.length === 0) refuse("errors.bh.noHunters");
  if (setup.obstacles.length === 0) refuse("errors.bh.noObstacle");
  const climax = setup.climax ?? false;
  const sphere = setup.sphere;

  const hunters: Participant[] = setup.hunters.map((h) => {
    validateSheet(h.sheet);
    return {
      id: h.characterId,
      name: h.name,
      side: "hunters",
      initiative: h.sheet.initiative[sphere],
      traits: h.sheet.traits.map((t) => ({
        name: t.name,
        sphere: t.sphere,
        value: t.value,
        effective: effectiveTraitValue(t.value, t.sphere, sphere),
        active: null,
      })),
      resources: h.sheet.resources
        .filter((r) => r.sphere === sphere)
        .map((r) => ({ name: r.name, kind: r.kind, value: r.value, neutralised: null })),
      boxes: { ...h.sheet.boxes[sphere] },
      damage: { ...h.sheet.damage[sphere] },
      status: "in",
      help: [],
    };
  });

  const prices: { obstacle: string; price: ObstaclePrice }[] = [];
  const obstacles: Participant[] = setup.obstacles.map((o, i) => {
    const id = o.id ?? (i === 0 ? "obstacle" : `obstacle-${i + 1}`);
    const neutralise = (o.neutralise ?? []).map((n) => {
      const hunter = setup.hunters.find((h) => h.characterId === n.hunter);
      if (!hunter) refuse("errors.bh.unknownParticipant", { id: n.hunter });
      const resource = hunter.sheet.resources.find((r) => sameName(r.name, n.resource));
      if (!resource) refuse("errors.bh.unknownResource", { name: hunter.name, resource: n.resource });
      if (resource.sphere !== sphere)
        refuse("errors.bh.resourceNotInSphere", { resource: resource.name, sphere });
      return { hunter: n.hunter, resource: resource.name, value: resource.value };
    });
    const boxes = o.boxes ?? MINIMAL_BOXES;
    const price = priceObstacle(
      { traits: o.traits, resources: o.resources, initiative: o.initiative, boxes, neutralise },
      { climax },
    );
    prices.push({ obstacle: id, price });
    return {
      id,
      name: o.name,
      side: "gm",
      initiative: o.initiative,
      traits: o.traits.map((t) => ({
        name: t.name,
        sphere,
        value: t.value,
        effective: t.value,
        active: null,
      })),
      resources: o.resources.map((r) => ({ name: r.name, kind: r.kind, value: r.value, neutralised: null })),
      boxes: { ...boxes },
      damage: { ...NO_DAMAGE },
      status: "in",
      help: [],
    };
  });

  const ids = [...hunters, ...obstacles].map((p) => p.id);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate !== undefined) refuse("errors.bh.duplicateParticipant", { id: duplicate });

  const rating = prices.reduce((sum, p) => sum + p.price.rating, 0);
  const purchase = buyChallenge(setup.reserve, rating, setup.phase);

  const tieGoesTo = setup.tieGoesTo ?? "hunters";
  const sideRank = (p: Participant) => (p.side === tieGoesTo ? 0 : 1);
  const participants = [...hunters, ...obstacles]
    .map((p, index) => ({ p, index }))
    .sort((a, b) => b.p.initiative - a.p.initiative || sideRank(a.p) - sideRank(b.p) || a.index - b.index)
    .map(({ p }) => p);

  const state: ChallengeState = {
    version: 1,
    name: setup.name ?? null,
    sphere,
    phase: setup.phase,
    rating,
    cost: purchase.cost,
    climax,
    knockoutHasNoEffect: setup.knockoutHasNoEffect ?? false,
    participants,
    advantage: {},
    turn: participants[0]!.id,
    lastActed: { hunters: null, gm: null },
    round: { number: 1, acted: [] },
    status: "active",
    pendingOffer: null,
    pendingBonus: null,
    pendingFatal: null,
    tasks: [],
    outcome: null,
  };

  const events: ChallengeEvent[] = [
    {
      type: "challengeStarted",
      rating,
      cost: purchase.cost,
      reserveBefore: purchase.change.before,
      reserveAfter: purchase.change.after,
      order: participants.map((p) => p.id),
      first: state.turn,
    },
  ];

  for (const obstacle of setup.obstacles.map((o, i) => ({ o, id: obstacles[i]!.id }))) {
    for (const n of obstacle.o.neutralise ?? []) {
      const owner = participant(state, n.hunter);
      const resource = owner.resources.find((r) => sameName(r.name, n.resource))!;
      resource.neutralised = { margin: NEUTRALISED_IN_ADVANCE_MARGIN, by: obstacle.id };
      events.push({
        type: "resourceNeutralised",
        owner: owner.id,
        resource: resource.name,
        margin: NEUTRALISED_IN_ADVANCE_MARGIN,
        by: obstacle.id,
        granted: true,
      });
    }
  }

  applyPreActivations(state, setup, events);
  return { state, events, prices, rating, cost: purchase.cost, reserve: purchase.change };
}

/** Phase 1: none; phase 2: each hunter one; phase 3: each hunter one and the GM one (docs/rules/beast-hunters.md §2.3). */
function applyPreActivations(state: ChallengeState, setup: ChallengeSetup, events: ChallengeEvent[]): void {
  const list = setup.preActivations ?? [];
  if (list.length > 0 && state.phase === 1) refuse("errors.bh.preActivationNotAllowed", { phase: 1 });
  const perParticipant = new Map<string, number>();
  let gmCount = 0;
  for (const pre of list) {
    const who = participant(state, pre.participant);
    if (who.side === "gm") {
      gmCount += 1;
      if (state.phase !== 3) refuse("errors.bh.preActivationNotAllowed", { phase: state.phase });
      if (gmCount > 1) refuse("errors.bh.tooManyPreActivations", { name: who.name, max: 1 });
    } else {
      const count = (perParticipant.get(who.id) ?? 0) + 1;
      perParticipant.set(who.id, count);
      if (count > 1) refuse("errors.bh.tooManyPreActivations", { name: who.name, max: 1 });
      const sheet = setup.hunters.find((h) => h.characterId === who.id)!.sheet;
      if (!pre.recorded && sheet.preActivated.some((n) => sameName(n, pre.trait))) {
        refuse("errors.bh.alreadyPreActivated", { trait: pre.trait });
      }
    }
    const trait = findTrait(who, pre.trait);
    trait.active = pre.as;
    events.push({
      type: "traitActivated",
      actor: who.id,
      trait: trait.name,
      as: pre.as,
      value: trait.effective,
      preActivated: true,
    });
  }
}

/** Nothing has been played yet: no action taken, no AP, no task, no offer (pre-activations are fine). */
export function nothingPlayedYet(state: ChallengeState): boolean {
  return (
    state.status === "active" &&
    state.lastActed.hunters === null &&
    state.lastActed.gm === null &&
    Object.keys(state.advantage).length === 0 &&
    state.tasks.length === 0 &&
    state.pendingOffer === null
  );
}

export interface ObstacleAdded extends ActionResult {
  price: ObstaclePrice;
  /** What the added obstacle costs on top of what was paid (the whole rating × the phase multiplier). */
  extraCost: number;
  reserve: ReserveChange;
}

/**
 * A challenge with several obstacles (docs/rules/beast-hunters.md §2.4): the GM buys another one
 * before anything is played. The ratings add up (within the ceiling); the GM pays the difference
 * between the new and the old cost; the turn order is drawn again with the new initiative.
 */
export function addObstacle(state: ChallengeState, obstacle: ObstacleInput, reserve: Reserve): ObstacleAdded {
  if (!nothingPlayedYet(state)) refuse("errors.bh.obstacleAfterPlay");
  const taken = new Set(state.participants.map((p) => p.id));
  let n = 2;
  while (taken.has(`obstacle-${n}`)) n += 1;
  const id = obstacle.id ?? `obstacle-${n}`;
  if (taken.has(id)) refuse("errors.bh.duplicateParticipant", { id });
  if (state.participants.some((p) => sameName(p.name, obstacle.name)))
    refuse("errors.bh.duplicateParticipant", { id: obstacle.name });
  const boxes = obstacle.boxes ?? MINIMAL_BOXES;
  const price = priceObstacle(
    {
      traits: obstacle.traits,
      resources: obstacle.resources,
      initiative: obstacle.initiative,
      boxes,
      neutralise: [],
    },
    { climax: state.climax },
  );
  const rating = state.rating + price.rating;
  checkCeiling(rating, reserve.ceiling);
  const cost = challengeCost(rating, state.phase);
  const change = chargeReserve(reserve, cost - state.cost);
  const added: Participant = {
    id,
    name: obstacle.name,
    side: "gm",
    initiative: obstacle.initiative,
    traits: obstacle.traits.map((t) => ({
      name: t.name,
      sphere: state.sphere,
      value: t.value,
      effective: t.value,
      active: null,
    })),
    resources: obstacle.resources.map((r) => ({
      name: r.name,
      kind: r.kind,
      value: r.value,
      neutralised: null,
    })),
    boxes: { ...boxes },
    damage: { ...NO_DAMAGE },
    status: "in",
    help: [],
  };
  const sideRank = (p: Participant) => (p.side === "hunters" ? 0 : 1);
  const participants = [...state.participants, added]
    .map((p, index) => ({ p, index }))
    .sort((a, b) => b.p.initiative - a.p.initiative || sideRank(a.p) - sideRank(b.p) || a.index - b.index)
    .map(({ p }) => p);
  const next: ChallengeState = { ...state, participants, rating, cost, turn: participants[0]!.id };
  const events: ChallengeEvent[] = [
    {
      type: "obstacleAdded",
      obstacle: id,
      rating,
      extraCost: change.before - change.after,
      reserveBefore: change.before,
      reserveAfter: change.after,
      order: participants.map((p) => p.id),
      first: next.turn,
    },
  ];
  return { state: next, events, price, extraCost: change.before - change.after, reserve: change };
}
