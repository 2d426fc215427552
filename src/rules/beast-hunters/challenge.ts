/**
 * Playing a challenge (docs/rules/beast-hunters.md §2.5) as a pure reducer over plain JSON:
 * `applyChallengeAction(state, action, dice) → { state, events }`. The input state is never
 * mutated; every die rolled and every number changed is reported in `events`.
 *
 * Decisions where the rules are silent (documented for the table, see the report):
 * - Turn order: participants sorted by the sphere's initiative (a tie between the sides goes
 *   to `tieGoesTo`, the hunters' choice, default hunters first). Play goes in rounds: in each
 *   round every participant still standing has one turn — each hunter once, each obstacle once.
 *   Within a round the sides alternate while both have someone still to act (each side's members
 *   in initiative order); then the rest of the side that has more act in turn. One hunter against
 *   one obstacle is the seed's plain alternation.
 * - With several hunters, a won challenge's rating in VP is shared by the hunters still standing,
 *   the remainder to the one who dealt the defeating strike (`splitChallengeVp`).
 * - A task's difficulty counts once both sides accepted it (proposing it accepts it for the
 *   proposer's side); it is rolled when both sides pressed ready. A task never agreed is dropped
 *   when the challenge closes.
 * - A give-up refunds the cost only when it ends the challenge (the last hunter standing gave up).
 * - Achievement VP (2 × difficulty) is split equally among the hunters who bought dice for the
 *   task; a remainder goes one point each to the earliest buyers.
 * - A help bonus is spent on the helped hunter's next rolled action of their own.
 */
import { klona } from "klona";
import { type DiceSource, rollMany } from "../dice.js";
import { refuse } from "../errors.js";
import { challengeVpRemainder, splitChallengeVp } from "./adventure.js";
import {
  type ActionResult,
  type ApReason,
  activeTraitBonus,
  advantageOf,
  BONUS_THRESHOLD,
  bestResource,
  type ChallengeAction,
  type ChallengeEvent,
  type ChallengeOutcome,
  type ChallengeState,
  type EndReason,
  findResource,
  findTrait,
  MAX_ACTIVE_PER_ROLE,
  MIN_OFFER,
  type Participant,
  participant,
  type RollDetail,
  type Side,
  sameName,
  type Task,
  taskAgreed,
  taskReady,
} from "./challenge-state.js";
import { AP_PER_DIE, AP_PER_DIE_AFTER, markDamage, stageFull, strikeStage, strikeTotal } from "./damage.js";
import type { Stage, TraitRole } from "./types.js";

export function applyChallengeAction(
  state: ChallengeState,
  action: ChallengeAction,
  dice: DiceSource,
): ActionResult {
  const next = klona(state);
  const events: ChallengeEvent[] = [];
  const handler = HANDLERS[action.type] as
    | ((s: ChallengeState, a: ChallengeAction, d: DiceSource, e: ChallengeEvent[]) => void)
    | undefined;
  if (!handler) refuse("errors.bh.unknownAction", { action: String(action.type) });
  handler(next, action, dice, events);
  return { state: next, events };
}

type Handler<T extends ChallengeAction["type"]> = (
  state: ChallengeState,
  action: Extract<ChallengeAction, { type: T }>,
  dice: DiceSource,
  events: ChallengeEvent[],
) => void;

const HANDLERS: { [T in ChallengeAction["type"]]: Handler<T> } = {
  activate(state, action, _dice, events) {
    const actor = takeTurn(state, action.actor);
    const trait = findTrait(actor, action.trait);
    if (trait.active) refuse("errors.bh.traitAlreadyActive", { trait: trait.name });
    checkRole(action.as);
    if (countActive(actor, action.as) >= MAX_ACTIVE_PER_ROLE) {
      refuse("errors.bh.tooManyActive", { role: action.as, max: MAX_ACTIVE_PER_ROLE });
    }
    trait.active = action.as;
    events.push({
      type: "traitActivated",
      actor: actor.id,
      trait: trait.name,
      as: action.as,
      value: trait.effective,
      preActivated: false,
    });
    endTurn(state, events);
  },

  reassign(state, action, _dice, events) {
    const actor = takeTurn(state, action.actor);
    const changes: { trait: string; from: TraitRole; to: TraitRole }[] = [];
    for (const [name, role] of Object.entries(action.roles)) {
      checkRole(role);
      const trait = findTrait(actor, name);
      if (!trait.active) refuse("errors.bh.traitNotActive", { trait: trait.name });
      if (trait.active !== role) changes.push({ trait: trait.name, from: trait.active, to: role });
      trait.active = role;
    }
    if (changes.length === 0) refuse("errors.bh.nothingToReassign");
    for (const role of ["attack", "defence"] as const) {
      if (countActive(actor, role) > MAX_ACTIVE_PER_ROLE)
        refuse("errors.bh.tooManyActive", { role, max: MAX_ACTIVE_PER_ROLE });
    }
    events.push({ type: "traitsReassigned", actor: actor.id, changes });
    endTurn(state, events);
  },

  offerAdvantage(state, action, _dice, events) {
    const hunter = huntersTurnForOffer(state);
    if (!Number.isInteger(action.points) || action.points < MIN_OFFER) {
      refuse("errors.bh.offerTooSmall", { points: action.points, min: MIN_OFFER });
    }
    const target = standingOpponent(state, hunter, action.target);
    state.pendingOffer = { kind: "advantage", hunter: hunter.id, target: target.id, points: action.points };
    events.push({ type: "offerMade", offer: state.pendingOffer });
  },

  offerNeutralise(state, action, _dice, events) {
    const hunter = huntersTurnForOffer(state);
    const target = standingOpponent(state, hunter, action.target);
    const resource = findResource(target, action.resource);
    if (resource.neutralised) refuse("errors.bh.resourceAlreadyNeutralised", { resource: resource.name });
    checkMargin(action.margin);
    state.pendingOffer = {
      kind: "neutralise",
      hunter: hunter.id,
      target: target.id,
      resource: resource.name,
      margin: action.margin,
    };
    events.push({ type: "offerMade", offer: state.pendingOffer });
  },

  offerRestore(state, action, _dice, events) {
    const hunter = huntersTurnForOffer(state);
    const resource = findResource(hunter, action.resource);
    if (!resource.neutralised) refuse("errors.bh.resourceNotNeutralised", { resource: resource.name });
    state.pendingOffer = { kind: "restore", hunter: hunter.id, resource: resource.name };
    events.push({ type: "offerMade", offer: state.pendingOffer });
  },

  accept(state, action, _dice, events) {
    const offer = state.pendingOffer;
    const actor = takeTurn(state, action.actor);
    if (!offer || offer.hunter !== actor.id) refuse("errors.bh.noOffer");
    events.push({ type: "offerAccepted", offer });
    if (offer.kind === "advantage") {
      const target = standingOpponent(state, actor, offer.target);
      gainAdvantage(state, actor, target, offer.points, "offer", events);
      if (!state.pendingBonus) endTurn(state, events);
    } else if (offer.kind === "neutralise") {
      const owner = participant(state, offer.target);
      const resource = findResource(owner, offer.resource);
      resource.neutralised = { margin: offer.margin, by: actor.id };
      events.push({
        type: "resourceNeutralised",
        owner: owner.id,
        resource: resource.name,
        margin: offer.margin,
        by: actor.id,
        granted: true,
      });
      endTurn(state, events);
    } else {
      const resource = findResource(actor, offer.resource);
      resource.neutralised = null;
      events.push({ type: "resourceRestored", owner: actor.id, resource: resource.name, granted: true });
      endTurn(state, events);
    }
  },

  maneuver(state, action, dice, events) {
    const actor = takeTurn(state, action.actor);
    const target = standingOpponent(state, actor, action.target);
    const roll = opposedRoll(dice, actor, "attack", target, "defence");
    events.push({ type: "opposedRoll", purpose: "maneuver", ...roll });
    if (roll.margin > 0) gainAdvantage(state, actor, target, roll.margin, "maneuver", events);
    if (!state.pendingBonus) endTurn(state, events);
  },

  strike(state, action, dice, events) {
    const free = state.pendingBonus !== null;
    const actor = takeTurn(state, action.actor, { bonusAction: true });
    checkDiceCount(action.dice);
    const apSpent = action.dice * AP_PER_DIE;
    const target = standingOpponent(
      state,
      actor,
      action.target ?? spendingTarget(state, actor, apSpent, true),
    );
    spendAdvantage(state, actor.id, target.id, apSpent, "strike", events);
    const rolled = rollMany(dice, action.dice, 6);
    const attack = bestResource(actor, "attack");
    const defence = bestResource(target, "defence");
    const total = strikeTotal(rolled, attack?.value ?? 0, defence?.value ?? 0);
    const stage = strikeStage(total);
    events.push({
      type: "strikeRolled",
      actor: actor.id,
      target: target.id,
      apSpent,
      dice: rolled,
      attackResource: attack ? { name: attack.name, value: attack.value } : null,
      defenceResource: defence ? { name: defence.name, value: defence.value } : null,
      total,
      stage,
      free,
    });
    state.pendingBonus = null;
    const fall = stage ? takeDamage(state, target, stage, events) : null;
    concludeAction(state, events, fall, actor.id);
  },

  declineBonus(state, action, _dice, events) {
    requireActive(state);
    const actor = participant(state, action.actor);
    if (!state.pendingBonus || state.pendingBonus.actor !== actor.id) refuse("errors.bh.noBonus");
    state.pendingBonus = null;
    events.push({ type: "bonusActionDeclined", actor: actor.id });
    endTurn(state, events);
  },

  /** [decision] docs/rules/beast-hunters.md §2.5: a turn may be passed without an action (an absent player's, by the GM). */
  passTurn(state, action, _dice, events) {
    const actor = takeTurn(state, action.actor);
    events.push({ type: "turnSkipped", actor: actor.id });
    endTurn(state, events);
  },

  neutralise(state, action, dice, events) {
    const actor = takeTurn(state, action.actor);
    const target = standingOpponent(state, actor, action.target);
    const resource = findResource(target, action.resource);
    if (resource.neutralised) refuse("errors.bh.resourceAlreadyNeutralised", { resource: resource.name });
    const roll = opposedRoll(dice, actor, "attack", target, "defence");
    events.push({ type: "opposedRoll", purpose: "neutralise", ...roll });
    if (roll.margin > 0) {
      resource.neutralised = { margin: roll.margin, by: actor.id };
      events.push({
        type: "resourceNeutralised",
        owner: target.id,
        resource: resource.name,
        margin: roll.margin,
        by: actor.id,
        granted: false,
      });
    } else {
      events.push({
        type: "neutraliseFailed",
        owner: target.id,
        resource: resource.name,
        margin: roll.margin,
      });
    }
    endTurn(state, events);
  },

  restore(state, action, dice, events) {
    const actor = takeTurn(state, action.actor);
    const resource = findResource(actor, action.resource);
    const neutralised = resource.neutralised;
    if (!neutralised) refuse("errors.bh.resourceNotNeutralised", { resource: resource.name });
    const byStanding =
      neutralised.by !== null && participant(state, neutralised.by).status === "in" ? neutralised.by : null;
    const opponent = standingOpponent(state, actor, action.against ?? byStanding);
    const roll = opposedRoll(dice, actor, "defence", opponent, "attack");
    events.push({ type: "opposedRoll", purpose: "restore", ...roll });
    if (roll.margin > 0 && roll.margin >= neutralised.margin) {
      resource.neutralised = null;
      events.push({ type: "resourceRestored", owner: actor.id, resource: resource.name, granted: false });
    } else {
      events.push({
        type: "restoreFailed",
        owner: actor.id,
        resource: resource.name,
        margin: roll.margin,
        needed: neutralised.margin,
      });
    }
    endTurn(state, events);
  },

  proposeTask(state, action, _dice, events) {
    requireActive(state);
    const name = action.name.trim();
    if (!name) refuse("errors.bh.emptyName");
    const by = action.by ?? null;
    const side: Side = by === null ? "gm" : participant(state, by).side;
    const max = maxTaskDifficulty(state);
    if (!Number.isInteger(action.difficulty) || action.difficulty < 1 || action.difficulty > max) {
      refuse("errors.bh.badDifficulty", { difficulty: action.difficulty, min: 1, max });
    }
    const existing = state.tasks.find((t) => sameName(t.name, name));
    if (existing) {
      // The other side answers a proposal: the same difficulty accepts it, another one counters it.
      if (existing.result || taskAgreed(existing)) refuse("errors.bh.taskExists", { task: existing.name });
      if (existing.difficulty === action.difficulty) {
        agree(existing, side, events);
        return;
      }
      existing.difficulty = action.difficulty;
      existing.agreed = { hunters: side === "hunters", gm: side === "gm" };
      events.push({ type: "taskProposed", task: existing.name, difficulty: action.difficulty, by });
      return;
    }
    state.tasks.push({
      name,
      proposedBy: by,
      difficulty: action.difficulty,
      gmDice: 0,
      hunterDice: 0,
      buyers: [],
      agreed: { hunters: side === "hunters", gm: side === "gm" },
      ready: { hunters: false, gm: false },
      result: null,
    });
    events.push({ type: "taskProposed", task: name, difficulty: action.difficulty, by });
  },

  agreeTask(state, action, _dice, events) {
    if (state.status !== "active" && state.status !== "aftermath") requireActive(state);
    const task = openTask(state, action.task);
    if (taskAgreed(task)) refuse("errors.bh.taskAlreadyAgreed", { task: task.name });
    agree(task, action.side, events);
  },

  achieve(state, action, _dice, events) {
    const actor = takeTurn(state, action.actor, { bonusAction: true });
    const task = openTask(state, action.task);
    requireAgreed(task);
    checkDiceCount(action.dice);
    const cost = action.dice * AP_PER_DIE;
    const target = anyOpponent(state, actor, action.target ?? spendingTarget(state, actor, cost, false));
    spendAdvantage(state, actor.id, target.id, cost, "achieve", events);
    let totalDice: number;
    if (actor.side === "gm") {
      task.gmDice += action.dice;
      totalDice = task.gmDice;
    } else {
      task.hunterDice += action.dice;
      if (!task.buyers.includes(actor.id)) task.buyers.push(actor.id);
      totalDice = task.hunterDice;
    }
    // New dice: whoever was ready to roll looks again.
    task.ready = { hunters: false, gm: false };
    events.push({
      type: "taskDiceBought",
      task: task.name,
      side: actor.side,
      dice: action.dice,
      apPerDie: AP_PER_DIE,
      contributions: [{ hunter: actor.id, points: action.dice * AP_PER_DIE }],
      totalDice,
    });
    state.pendingBonus = null;
    endTurn(state, events);
  },

  resolveTask(state, action, dice, events) {
    if (state.status !== "active" && state.status !== "aftermath") requireActive(state);
    const task = openTask(state, action.task);
    requireAgreed(task);
    if (action.side !== "hunters" && action.side !== "gm") refuse("errors.staleAction");
    if (taskReady(task, action.side)) refuse("errors.bh.taskAlreadyReady", { task: task.name });
    task.ready = { hunters: taskReady(task, "hunters"), gm: taskReady(task, "gm"), [action.side]: true };
    events.push({ type: "taskReady", task: task.name, side: action.side });
    if (!task.ready.hunters || !task.ready.gm) return;
    resolveTask(task, dice, events);
    closeIfDone(state);
  },

  buyTaskDice(state, action, _dice, events) {
    if (state.status !== "aftermath") refuse("errors.bh.extraDiceOnlyAfterWin");
    if (state.outcome?.winner !== "hunters") refuse("errors.bh.extraDiceOnlyAfterWin");
    const task = openTask(state, action.task);
    requireAgreed(task);
    checkDiceCount(action.dice);
    const need = action.dice * AP_PER_DIE_AFTER;
    const offered = action.contributions.reduce((sum, c) => sum + c.points, 0);
    if (offered !== need) refuse("errors.bh.poolMismatch", { need, offered });
    const hunters = new Set<string>();
    for (const c of action.contributions) {
      const hunter = participant(state, c.hunter);
      if (hunter.side !== "hunters") refuse("errors.bh.notAHunter", { name: hunter.name });
      if (hunters.has(hunter.id)) refuse("errors.bh.duplicateParticipant", { id: hunter.id });
      hunters.add(hunter.id);
      if (!Number.isInteger(c.points) || c.points < 1) refuse("errors.bh.badAmount", { amount: c.points });
      const have = totalAdvantage(state, hunter.id);
      if (have < c.points) refuse("errors.bh.notEnoughAdvantage", { need: c.points, have });
    }
    for (const c of action.contributions) {
      let owed = c.points;
      for (const target of state.participants) {
        const have = advantageOf(state, c.hunter, target.id);
        if (owed === 0 || have === 0) continue;
        const take = Math.min(have, owed);
        spendAdvantage(state, c.hunter, target.id, take, "taskDice", events);
        owed -= take;
      }
      if (!task.buyers.includes(c.hunter)) task.buyers.push(c.hunter);
    }
    task.hunterDice += action.dice;
    task.ready = { hunters: false, gm: false };
    events.push({
      type: "taskDiceBought",
      task: task.name,
      side: "hunters",
      dice: action.dice,
      apPerDie: AP_PER_DIE_AFTER,
      contributions: action.contributions.map((c) => ({ hunter: c.hunter, points: c.points })),
      totalDice: task.hunterDice,
    });
  },

  help(state, action, _dice, events) {
    requireSeveralHunters(state);
    const actor = takeTurn(state, action.actor);
    if (actor.side !== "hunters") refuse("errors.bh.notAHunter", { name: actor.name });
    const helped = participant(state, action.helped);
    if (helped.side !== "hunters") refuse("errors.bh.notAHunter", { name: helped.name });
    if (helped.id === actor.id) refuse("errors.bh.helpYourself");
    if (helped.status !== "in") refuse("errors.bh.participantOut", { name: helped.name });
    const trait = findTrait(actor, action.trait);
    if (!trait.active) refuse("errors.bh.traitNotActive", { trait: trait.name });
    helped.help.push({ helper: actor.id, trait: trait.name, value: trait.effective });
    events.push({
      type: "helpGiven",
      actor: actor.id,
      helped: helped.id,
      trait: trait.name,
      value: trait.effective,
    });
    endTurn(state, events);
  },

  switchTarget(state, action, _dice, events) {
    requireSeveralHunters(state);
    const actor = takeTurn(state, action.actor);
    const from = anyOpponent(state, actor, action.from);
    const to = standingOpponent(state, actor, action.to);
    if (from.id === to.id) refuse("errors.bh.sameTarget");
    const points = pointsToMove(state, actor.id, from.id, action.points);
    spendAdvantage(state, actor.id, from.id, points, "switch", events);
    addAdvantage(state, actor.id, to.id, halfRoundedUp(points), "switch", events);
    endTurn(state, events);
  },

  passAdvantage(state, action, _dice, events) {
    requireSeveralHunters(state);
    const actor = takeTurn(state, action.actor);
    if (actor.side !== "hunters") refuse("errors.bh.notAHunter", { name: actor.name });
    const to = participant(state, action.to);
    if (to.side !== "hunters") refuse("errors.bh.notAHunter", { name: to.name });
    if (to.id === actor.id) refuse("errors.bh.helpYourself");
    if (to.status !== "in") refuse("errors.bh.participantOut", { name: to.name });
    const target = anyOpponent(state, actor, action.target);
    const points = pointsToMove(state, actor.id, target.id, action.points);
    if (action.switchTo) {
      const switchTo = standingOpponent(state, actor, action.switchTo);
      if (switchTo.id === target.id) refuse("errors.bh.sameTarget");
      spendAdvantage(state, actor.id, target.id, points, "pass", events);
      addAdvantage(state, to.id, switchTo.id, halfRoundedUp(points), "pass", events);
    } else {
      spendAdvantage(state, actor.id, target.id, points, "pass", events);
      addAdvantage(state, to.id, target.id, points, "pass", events);
    }
    endTurn(state, events);
  },

  giveUp(state, action, _dice, events) {
    requireActive(state);
    const hunter = participant(state, action.actor);
    if (hunter.side !== "hunters") refuse("errors.bh.notAHunter", { name: hunter.name });
    if (hunter.status !== "in") refuse("errors.bh.participantOut", { name: hunter.name });
    hunter.status = "gaveUp";
    hunter.help = [];
    events.push({ type: "gaveUp", participant: hunter.id });
    if (state.pendingOffer?.hunter === hunter.id) state.pendingOffer = null;
    if (state.pendingBonus?.actor === hunter.id) state.pendingBonus = null;
    checkEnd(state, events, "giveUp");
    if (state.status === "active" && state.turn === hunter.id) {
      // The hunters' side keeps its action: the next hunter still to act this round takes it.
      const round = roundOf(state);
      const next =
        state.participants.find(
          (p) => p.side === "hunters" && p.status === "in" && !round.acted.includes(p.id),
        ) ?? null;
      if (next) {
        events.push({ type: "turnPassed", from: hunter.id, to: next.id });
        state.turn = next.id;
      } else endTurn(state, events);
    }
  },

  concede(state, _action, _dice, events) {
    requireActive(state);
    events.push({ type: "gmConceded" });
    finish(state, "hunters", "gmConceded", events);
  },

  chooseFate(state, action, _dice, events) {
    if (state.status !== "fatalChoice" || state.pendingFatal !== action.actor)
      refuse("errors.bh.noFatalChoice");
    const hunter = participant(state, action.actor);
    if (action.choice !== "survive" && action.choice !== "retire") {
      refuse("errors.bh.badFateChoice", { choice: String(action.choice) });
    }
    state.pendingFatal = null;
    state.status = "active";
    events.push({ type: "fateChosen", participant: hunter.id, choice: action.choice });
    if (action.choice === "retire") {
      hunter.status = "retired";
      finish(state, "hunters", "sacrifice", events);
    } else {
      hunter.status = "fatal";
      concludeAction(state, events, "fatal");
    }
  },

  close(state, _action, dice, events) {
    if (state.status === "closed") refuse("errors.bh.challengeOver");
    if (state.status !== "aftermath") refuse("errors.bh.challengeStillActive");
    // Unresolved tasks are rolled now; one whose difficulty was never agreed is dropped.
    for (const task of state.tasks) {
      if (task.result) continue;
      if (taskAgreed(task)) resolveTask(task, dice, events);
      else events.push({ type: "taskDropped", task: task.name });
    }
    state.tasks = state.tasks.filter((task) => task.result !== null);
    state.status = "closed";
  },
};

// ---------------------------------------------------------------------------------------
// Helpers (they mutate the reducer's private copy)

function requireActive(state: ChallengeState): void {
  if (state.status === "fatalChoice") {
    refuse("errors.bh.fatalChoicePending", { name: participant(state, state.pendingFatal!).name });
  }
  if (state.status !== "active") refuse("errors.bh.challengeOver");
}

/** The actor must hold the turn (or the pending free action); any pending offer lapses. */
function takeTurn(
  state: ChallengeState,
  actorId: string,
  options: { bonusAction?: boolean } = {},
): Participant {
  requireActive(state);
  const actor = participant(state, actorId);
  if (state.pendingBonus) {
    const bonusActor = participant(state, state.pendingBonus.actor);
    if (!(options.bonusAction && bonusActor.id === actor.id)) {
      refuse("errors.bh.bonusPending", { name: bonusActor.name });
    }
  } else if (state.turn !== actor.id) {
    refuse("errors.bh.notYourTurn", { name: participant(state, state.turn).name });
  }
  // Acting otherwise (rolling instead, or any other action) declines the GM's offer; `accept` reads it first.
  if (state.pendingOffer && state.pendingOffer.hunter === actor.id) state.pendingOffer = null;
  return actor;
}

function huntersTurnForOffer(state: ChallengeState): Participant {
  requireActive(state);
  if (state.pendingBonus)
    refuse("errors.bh.bonusPending", { name: participant(state, state.pendingBonus.actor).name });
  const hunter = participant(state, state.turn);
  if (hunter.side !== "hunters") refuse("errors.bh.offerOnlyOnHuntersTurn");
  return hunter;
}

function requireSeveralHunters(state: ChallengeState): void {
  if (state.participants.filter((p) => p.side === "hunters").length < 2) refuse("errors.bh.multiHunterOnly");
}

function checkRole(role: string): asserts role is TraitRole {
  if (role !== "attack" && role !== "defence") refuse("errors.bh.badRole", { role: String(role) });
}

function checkDiceCount(dice: number): void {
  if (!Number.isInteger(dice) || dice < 1) refuse("errors.bh.badDiceCount", { dice });
}

function checkMargin(margin: number): void {
  if (!Number.isInteger(margin) || margin < 1) refuse("errors.bh.badMargin", { margin });
}

function countActive(p: Participant, role: TraitRole): number {
  return p.traits.filter((t) => t.active === role).length;
}

function opponents(state: ChallengeState, actor: Participant): Participant[] {
  return state.participants.filter((p) => p.side !== actor.side);
}

/** An opponent (standing or not: AP against a fallen target can still be spent or moved). */
function anyOpponent(
  state: ChallengeState,
  actor: Participant,
  targetId: string | null | undefined,
): Participant {
  if (targetId === null || targetId === undefined) return standingOpponent(state, actor, null);
  const target = participant(state, targetId);
  if (target.side === actor.side) refuse("errors.bh.notAnOpponent", { name: target.name });
  return target;
}

/** An opponent still in the fight; the only one when none is named. */
function standingOpponent(
  state: ChallengeState,
  actor: Participant,
  targetId: string | null | undefined,
): Participant {
  if (targetId === null || targetId === undefined) {
    const standing = opponents(state, actor).filter((p) => p.status === "in");
    if (standing.length !== 1) refuse("errors.bh.chooseTarget");
    return standing[0]!;
  }
  const target = participant(state, targetId);
  if (target.side === actor.side) refuse("errors.bh.notAnOpponent", { name: target.name });
  if (target.status !== "in") refuse("errors.bh.participantOut", { name: target.name });
  return target;
}

/**
 * The target an unnamed strike or achievement spends AP against: the free action's target,
 * else the one opponent with enough AP; null leaves it to the usual "the only opponent" rule.
 */
function spendingTarget(
  state: ChallengeState,
  actor: Participant,
  cost: number,
  standingOnly: boolean,
): string | null {
  if (state.pendingBonus?.actor === actor.id) return state.pendingBonus.target;
  const candidates = opponents(state, actor).filter((p) => !standingOnly || p.status === "in");
  const affordable = candidates.filter((p) => advantageOf(state, actor.id, p.id) >= cost);
  // Not enough AP against anyone: say so, rather than ask which target.
  if (affordable.length === 0 && candidates.length > 1) {
    const have = Math.max(0, ...candidates.map((p) => advantageOf(state, actor.id, p.id)));
    refuse("errors.bh.notEnoughAdvantage", { need: cost, have });
  }
  return affordable.length === 1 ? affordable[0]!.id : null;
}

/** docs/rules/beast-hunters.md §2.5: base 1, the GM adds 0..(number of hunters), each hunter may add 1. */
export function maxTaskDifficulty(state: ChallengeState): number {
  return 1 + 2 * state.participants.filter((p) => p.side === "hunters").length;
}

function agree(task: Task, side: Side, events: ChallengeEvent[]): void {
  if (side !== "hunters" && side !== "gm") refuse("errors.staleAction");
  const agreed = { hunters: task.agreed?.hunters ?? true, gm: task.agreed?.gm ?? true, [side]: true };
  task.agreed = agreed;
  events.push({
    type: "taskAgreed",
    task: task.name,
    difficulty: task.difficulty,
    side,
    settled: agreed.hunters && agreed.gm,
  });
}

function requireAgreed(task: Task): void {
  if (taskAgreed(task)) return;
  const waiting: Side = task.agreed?.gm ? "hunters" : "gm";
  refuse("errors.bh.taskNotAgreed", { task: task.name, difficulty: task.difficulty, waiting });
}

function openTask(state: ChallengeState, name: string): Task {
  const task = state.tasks.find((t) => sameName(t.name, name));
  if (!task) refuse("errors.bh.unknownTask", { task: name });
  if (task.result) refuse("errors.bh.taskResolved", { task: task.name });
  return task;
}

function totalAdvantage(state: ChallengeState, actor: string): number {
  return Object.values(state.advantage[actor] ?? {}).reduce((sum, ap) => sum + ap, 0);
}

function halfRoundedUp(points: number): number {
  return Math.ceil(points / 2);
}

function pointsToMove(
  state: ChallengeState,
  actor: string,
  from: string,
  requested: number | null | undefined,
): number {
  const have = advantageOf(state, actor, from);
  const points = requested ?? have;
  if (!Number.isInteger(points) || points < 1) {
    if (requested === null || requested === undefined)
      refuse("errors.bh.notEnoughAdvantage", { need: 1, have });
    refuse("errors.bh.badAmount", { amount: points });
  }
  if (points > have) refuse("errors.bh.notEnoughAdvantage", { need: points, have });
  return points;
}

function setAdvantage(
  state: ChallengeState,
  actor: string,
  target: string,
  after: number,
  reason: ApReason,
  events: ChallengeEvent[],
): void {
  const before = advantageOf(state, actor, target);
  if (after < 0) throw new Error(`advantage would go negative: ${actor} → ${target}`);
  const row = state.advantage[actor] ?? {};
  row[target] = after;
  state.advantage[actor] = row;
  events.push({ type: "advantageChanged", actor, target, before, after, reason });
}

function addAdvantage(
  state: ChallengeState,
  actor: string,
  target: string,
  points: number,
  reason: ApReason,
  events: ChallengeEvent[],
): void {
  setAdvantage(state, actor, target, advantageOf(state, actor, target) + points, reason, events);
}

function spendAdvantage(
  state: ChallengeState,
  actor: string,
  target: string,
  points: number,
  reason: ApReason,
  events: ChallengeEvent[],
): void {
  const have = advantageOf(state, actor, target);
  if (have < points) refuse("errors.bh.notEnoughAdvantage", { need: points, have });
  setAdvantage(state, actor, target, have - points, reason, events);
}

/** AP gained in one maneuver (rolled or accepted); 12 or more grants a free Strike or Achievement now. */
function gainAdvantage(
  state: ChallengeState,
  actor: Participant,
  target: Participant,
  points: number,
  reason: ApReason,
  events: ChallengeEvent[],
): void {
  addAdvantage(state, actor.id, target.id, points, reason, events);
  if (points >= BONUS_THRESHOLD) {
    state.pendingBonus = { actor: actor.id, target: target.id, gained: points };
    events.push({ type: "bonusActionGranted", actor: actor.id, target: target.id, gained: points });
  }
}

function rollTraits(dice: DiceSource, p: Participant, role: TraitRole, extra: number): RollDetail {
  const rolled = rollMany(dice, 2, 10);
  const bonus = activeTraitBonus(p, role) + extra;
  return { dice: rolled, bonus, total: rolled[0]! + rolled[1]! + bonus };
}

/** 2d10 + active traits for each side (the actor first, then the opponent); the actor spends any help waiting for them. */
function opposedRoll(
  dice: DiceSource,
  actor: Participant,
  actorRole: TraitRole,
  opponent: Participant,
  opponentRole: TraitRole,
) {
  const help = actor.help;
  actor.help = [];
  const actorRoll = rollTraits(
    dice,
    actor,
    actorRole,
    help.reduce((sum, h) => sum + h.value, 0),
  );
  const opponentRoll = rollTraits(dice, opponent, opponentRole, 0);
  return {
    actor: actor.id,
    opponent: opponent.id,
    actorRole,
    actorRoll,
    opponentRoll,
    help,
    margin: actorRoll.total - opponentRoll.total,
  };
}

/** Fills a box (moving up when a stage is full) and applies knockout or fatal; returns how the target fell, if it did. */
function takeDamage(
  state: ChallengeState,
  target: Participant,
  struck: Stage,
  events: ChallengeEvent[],
): EndReason | null {
  const marked = markDamage(target.boxes, target.damage, struck);
  const at = marked.stage;
  events.push({
    type: "damageMarked",
    participant: target.id,
    struck,
    stage: at,
    before: at ? target.damage[at] : 0,
    after: at ? marked.damage[at] : 0,
  });
  target.damage = marked.damage;
  if (at === "knockout" && stageFull(target.boxes, target.damage, "knockout")) {
    if (state.knockoutHasNoEffect) {
      events.push({ type: "knockoutIgnored", participant: target.id });
      return null;
    }
    target.status = target.side === "gm" ? "beaten" : "knockedOut";
    events.push({ type: "knockedOut", participant: target.id });
    return "knockout";
  }
  if (at === "fatal" && stageFull(target.boxes, target.damage, "fatal")) {
    events.push({ type: "fatalDamage", participant: target.id });
    if (target.side === "gm") {
      target.status = "beaten";
      return "fatal";
    }
    state.pendingFatal = target.id;
    state.status = "fatalChoice";
    return "fatal";
  }
  return null;
}

/** After an action that may have felled someone: end the challenge or pass the turn. */
function concludeAction(
  state: ChallengeState,
  events: ChallengeEvent[],
  fall: EndReason | null,
  striker: string | null = null,
): void {
  if (state.status !== "active") return;
  if (fall) checkEnd(state, events, fall, striker);
  if (state.status === "active") endTurn(state, events);
}

function checkEnd(
  state: ChallengeState,
  events: ChallengeEvent[],
  reason: EndReason,
  striker: string | null = null,
): void {
  if (state.status !== "active") return;
  const standing = (side: Side) => state.participants.some((p) => p.side === side && p.status === "in");
  if (!standing("gm")) finish(state, "hunters", "beaten", events, striker);
  else if (!standing("hunters")) finish(state, "gm", reason, events);
}

function finish(
  state: ChallengeState,
  winner: Side,
  reason: EndReason,
  events: ChallengeEvent[],
  striker: string | null = null,
): void {
  const hunters = state.participants.filter((p) => p.side === "hunters");
  const standing = hunters.filter((h) => h.status === "in").map((h) => h.id);
  const vp = winner === "hunters" ? splitChallengeVp(state.rating, standing, striker) : {};
  const remainder = winner === "hunters" ? challengeVpRemainder(state.rating, standing, striker) : null;
  const outcome: ChallengeOutcome = {
    winner,
    reason,
    refund: reason === "giveUp" ? state.cost : 0,
    vp,
    ...(winner === "hunters" && striker !== null ? { striker } : {}),
    ...(remainder ? { remainder } : {}),
    lostAdventure: hunters.filter((h) => h.status === "fatal").map((h) => h.id),
    retired: hunters.filter((h) => h.status === "retired").map((h) => h.id),
  };
  state.outcome = outcome;
  state.pendingOffer = null;
  state.pendingBonus = null;
  state.pendingFatal = null;
  state.status = "aftermath";
  closeIfDone(state);
  events.push({ type: "challengeEnded", outcome });
}

function closeIfDone(state: ChallengeState): void {
  if (state.status === "aftermath" && state.tasks.every((t) => t.result)) state.status = "closed";
}

/** The round in play (a challenge saved before rounds is in round 1, nobody has acted yet). */
function roundOf(state: ChallengeState): { number: number; acted: string[] } {
  state.round ??= { number: 1, acted: [] };
  return state.round;
}

/**
 * The actor's turn is over: the next is whoever the round says ([decision]
 * docs/rules/beast-hunters.md §2.5) — the other side's first member standing who has not acted
 * this round, else their own side's; when everyone standing has acted, a new round begins with
 * the first standing in initiative order.
 */
function endTurn(state: ChallengeState, events: ChallengeEvent[]): void {
  const actor = participant(state, state.turn);
  state.lastActed[actor.side] = actor.id;
  state.pendingOffer = null;
  state.pendingBonus = null;
  const round = roundOf(state);
  if (!round.acted.includes(actor.id)) round.acted.push(actor.id);
  const next = nextInRound(state, actor.side) ?? startRound(state) ?? actor;
  state.turn = next.id;
  events.push({ type: "turnPassed", from: actor.id, to: next.id });
}

/** Who acts next in this round after someone of `side`: the other side first, while it has anyone left. */
function nextInRound(state: ChallengeState, side: Side): Participant | null {
  const acted = roundOf(state).acted;
  const left = state.participants.filter((p) => p.status === "in" && !acted.includes(p.id));
  return left.find((p) => p.side !== side) ?? left[0] ?? null;
}

function startRound(state: ChallengeState): Participant | null {
  const round = roundOf(state);
  state.round = { number: round.number + 1, acted: [] };
  return state.participants.find((p) => p.status === "in") ?? null;
}

/** Rolls a task: the GM difficulty + own dice, the hunters their dice; ties go to the hunters. */
function resolveTask(task: Task, dice: DiceSource, events: ChallengeEvent[]): void {
  const gmDice = rollMany(dice, task.difficulty + task.gmDice, 6);
  const hunterDice = rollMany(dice, task.hunterDice, 6);
  const gmTotal = gmDice.reduce((s, d) => s + d, 0);
  const hunterTotal = hunterDice.reduce((s, d) => s + d, 0);
  const winner: Side = hunterTotal >= gmTotal ? "hunters" : "gm";
  const vp = winner === "hunters" ? splitTaskVp(2 * task.difficulty, task.buyers) : {};
  task.result = { gmDice, hunterDice, gmTotal, hunterTotal, winner, vp };
  events.push({ type: "taskResolved", task: task.name, difficulty: task.difficulty, ...task.result });
}

/** Equal shares; a remainder goes one point each to the earliest buyers. */
export function splitTaskVp(total: number, buyers: readonly string[]): Record<string, number> {
  const vp: Record<string, number> = {};
  if (buyers.length === 0) return vp;
  const share = Math.floor(total / buyers.length);
  const remainder = total - share * buyers.length;
  buyers.forEach((buyer, i) => {
    vp[buyer] = share + (i < remainder ? 1 : 0);
  });
  return vp;
}
