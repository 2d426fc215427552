import { refuse } from "../errors.js";
import type { HitAbsorption, StressKind } from "./stress.js";

/** In the fight; conceded; taken out; or left the conflict without conceding (joined by mistake, walked away). */
export type ParticipantStatus = "in" | "conceded" | "takenOut" | "left";

export interface ConflictParticipant {
  characterId: string;
  /** Participants with the same side fight together; the conflict ends when one side is left. */
  side: string;
  status: ParticipantStatus;
  /** Consequences taken in this conflict: each is worth a fate point on conceding. */
  consequencesTaken: number;
  /** A hit rolled against this character and not yet absorbed: the dice are down, no conceding. */
  pendingHit: { shifts: number; kind: StressKind } | null;
  /** The consequence slots already taken when they joined: any other one taken since counts on conceding. */
  consequencesAtJoin?: string[];
}

export interface FateConflict {
  title: string;
  /** The exchange being played, from 1. */
  exchange: number;
  participants: ConflictParticipant[];
  status: "open" | "ended";
  /** The order of the exchange (character ids); missing in conflicts stored before turns: the participants' order. */
  order?: string[];
  /** The index in `order` of whose turn it is. */
  turn?: number;
}

export const MAX_TITLE = 100;

export function startConflict(
  title: string,
  participants: { characterId: string; side: string; consequences?: string[] }[] = [],
): FateConflict {
  let conflict: FateConflict = {
    title: title.trim().slice(0, MAX_TITLE),
    exchange: 1,
    participants: [],
    status: "open",
  };
  for (const p of participants) conflict = joinConflict(conflict, p.characterId, p.side, p.consequences);
  return { ...conflict, turn: 0 };
}

function assertOpen(conflict: FateConflict): void {
  if (conflict.status !== "open") refuse("errors.fate.conflictEnded");
}

function participant(conflict: FateConflict, characterId: string): ConflictParticipant {
  const found = conflict.participants.find((p) => p.characterId === characterId);
  return found ?? refuse("errors.fate.notInConflict");
}

function update(
  conflict: FateConflict,
  characterId: string,
  change: Partial<ConflictParticipant>,
): FateConflict {
  return {
    ...conflict,
    participants: conflict.participants.map((p) => (p.characterId === characterId ? { ...p, ...change } : p)),
  };
}

/**
 * `characterId` joins, at the start or in the middle of the conflict (docs/rules/fate.md §3.4):
 * they act last in the exchange order until the GM changes it. `consequencesTaken` lists the
 * consequence slots they already had taken, so only new ones pay on conceding. One who left
 * may come back; one who conceded or was taken out may not.
 */
export function joinConflict(
  conflict: FateConflict,
  characterId: string,
  side: string,
  consequencesTaken: readonly string[] = [],
): FateConflict {
  assertOpen(conflict);
  const existing = conflict.participants.find((p) => p.characterId === characterId);
  if (existing && existing.status !== "left") refuse("errors.fate.alreadyInConflict");
  const joined: ConflictParticipant = {
    characterId,
    side,
    status: "in",
    consequencesTaken: existing?.consequencesTaken ?? 0,
    pendingHit: null,
    consequencesAtJoin: existing?.consequencesAtJoin ?? [...consequencesTaken],
  };
  const order = turnOrder(conflict).filter((id) => id !== characterId);
  const participants = existing
    ? conflict.participants.map((p) => (p.characterId === characterId ? joined : p))
    : [...conflict.participants, joined];
  return { ...conflict, participants, order: [...order, characterId], turn: conflict.turn ?? 0 };
}

/** `characterId` leaves without conceding (no fate points): out of the turn order; the conflict ends if one side is left. */
export function leaveConflict(conflict: FateConflict, characterId: string): FateConflict {
  assertOpen(conflict);
  const who = participant(conflict, characterId);
  assertStillIn(who);
  if (who.pendingHit) refuse("errors.fate.concedeAfterRoll");
  return settle(leaveTurnOrder(update(conflict, characterId, { status: "left" }), characterId));
}

/** The exchange order: ids of everyone who ever joined (stored order first, then any missing). */
export function turnOrder(conflict: FateConflict): string[] {
  const stored = (conflict.order ?? []).filter((id) =>
    conflict.participants.some((p) => p.characterId === id),
  );
  const missing = conflict.participants.map((p) => p.characterId).filter((id) => !stored.includes(id));
  return [...stored, ...missing];
}

function isIn(conflict: FateConflict, id: string): boolean {
  return conflict.participants.some((p) => p.characterId === id && p.status === "in");
}

/** Whose turn it is: the first one still in from the turn index on (null when nobody is). */
export function currentTurn(conflict: FateConflict): string | null {
  const order = turnOrder(conflict);
  if (conflict.status !== "open") return null;
  const start = Math.min(conflict.turn ?? 0, order.length);
  for (let i = start; i < order.length; i += 1) if (isIn(conflict, order[i]!)) return order[i]!;
  return null;
}

/**
 * The next turn: the next one still in after the current one; after the last of the exchange,
 * the first of the next exchange (docs/rules/fate.md §3.4).
 */
export function nextTurn(conflict: FateConflict): FateConflict {
  assertOpen(conflict);
  const order = turnOrder(conflict);
  const current = currentTurn(conflict);
  const from = current === null ? order.length : order.indexOf(current);
  for (let i = from + 1; i < order.length; i += 1) {
    if (isIn(conflict, order[i]!)) return { ...conflict, order, turn: i };
  }
  const first = order.findIndex((id) => isIn(conflict, id));
  return { ...conflict, order, turn: Math.max(first, 0), exchange: conflict.exchange + 1 };
}

/**
 * The GM sets the order of the exchange (ids, first to act first); anyone not named keeps
 * their place after them. The turn goes back to the first one still in; the exchange stays.
 */
export function setTurnOrder(conflict: FateConflict, ids: readonly string[]): FateConflict {
  assertOpen(conflict);
  for (const id of ids) participant(conflict, id);
  const named = [...new Set(ids)];
  const order = [...named, ...turnOrder(conflict).filter((id) => !named.includes(id))];
  const first = order.findIndex((id) => isIn(conflict, id));
  return { ...conflict, order, turn: Math.max(first, 0) };
}

/** Someone out of the fight leaves the turn order: when it was their turn, it passes on (same exchange, or the next). */
function leaveTurnOrder(conflict: FateConflict, characterId: string): FateConflict {
  const order = turnOrder(conflict);
  const index = order.indexOf(characterId);
  const turn = conflict.turn ?? 0;
  if (index !== turn || conflict.status !== "open") return { ...conflict, order };
  for (let i = index + 1; i < order.length; i += 1) {
    if (isIn(conflict, order[i]!)) return { ...conflict, order, turn: i };
  }
  const first = order.findIndex((id) => isIn(conflict, id));
  return { ...conflict, order, turn: Math.max(first, 0), exchange: conflict.exchange + 1 };
}

function assertStillIn(p: ConflictParticipant): void {
  if (p.status !== "in") refuse("errors.fate.outOfConflict");
}

/** An attack's hit has been rolled against `targetId`: it must be absorbed (or take them out) before anything else. */
export function registerHit(
  conflict: FateConflict,
  targetId: string,
  shifts: number,
  kind: StressKind,
): FateConflict {
  assertOpen(conflict);
  const target = participant(conflict, targetId);
  assertStillIn(target);
  if (target.pendingHit) refuse("errors.fate.hitPending");
  return update(conflict, targetId, { pendingHit: { shifts, kind } });
}

/** Records how the target took its hit (from `absorbHit`/`takeHit`). */
export function resolveHit(
  conflict: FateConflict,
  targetId: string,
  absorption: HitAbsorption,
): FateConflict {
  const target = participant(conflict, targetId);
  assertStillIn(target);
  if (absorption.kind === "takenOut") {
    return settle(
      leaveTurnOrder(update(conflict, targetId, { status: "takenOut", pendingHit: null }), targetId),
    );
  }
  return update(conflict, targetId, {
    consequencesTaken: target.consequencesTaken + absorption.consequences.length,
    pendingHit: null,
  });
}

/** Fate points for conceding (docs/rules/fate.md §3.4): 1, plus 1 per consequence taken in this conflict. */
export function concedeFatePoints(consequencesTaken: number): number {
  return 1 + consequencesTaken;
}

/**
 * The consequences `p` has taken in this conflict, however they were recorded (docs/rules/fate.md
 * §3.4): those counted by hits, or, when more, the slots taken now that were free when they joined.
 */
export function consequencesTakenInConflict(
  p: ConflictParticipant,
  takenNow: readonly string[] = [],
): number {
  const atJoin = p.consequencesAtJoin;
  const since = atJoin ? takenNow.filter((id) => !atJoin.includes(id)).length : 0;
  return Math.max(p.consequencesTaken, since);
}

/**
 * `characterId` concedes (docs/rules/fate.md §3.4). Only before a roll: with an action against
 * them already rolled and not settled (`actionPending`, or a hit waiting) they must take it first
 * («если кубики брошены — назад не отмотать»). Pays 1 FP + 1 per consequence taken in this
 * conflict (`takenNow`: the slots taken on their sheet now); they leave the turn order.
 */
export function concede(
  conflict: FateConflict,
  characterId: string,
  { actionPending = false, takenNow = [] }: { actionPending?: boolean; takenNow?: readonly string[] } = {},
): { conflict: FateConflict; fatePoints: number } {
  assertOpen(conflict);
  const who = participant(conflict, characterId);
  assertStillIn(who);
  if (who.pendingHit || actionPending) refuse("errors.fate.concedeAfterRoll");
  const conceded = update(conflict, characterId, { status: "conceded" });
  return {
    conflict: settle(leaveTurnOrder(conceded, characterId)),
    fatePoints: concedeFatePoints(consequencesTakenInConflict(who, takenNow)),
  };
}

/** The sides with someone still fighting. */
export function standingSides(conflict: FateConflict): string[] {
  return [...new Set(conflict.participants.filter((p) => p.status === "in").map((p) => p.side))];
}

/** The conflict ends by itself when at most one side is still in it. */
function settle(conflict: FateConflict): FateConflict {
  const sides = new Set(conflict.participants.map((p) => p.side));
  return sides.size > 1 && standingSides(conflict).length <= 1 ? { ...conflict, status: "ended" } : conflict;
}

/** The winning side once the conflict is over by concession or being taken out; null while it goes on or if nobody stands. */
export function conflictWinner(conflict: FateConflict): string | null {
  const sides = standingSides(conflict);
  return conflict.status === "ended" && sides.length === 1 ? (sides[0] ?? null) : null;
}

/** Whether `characterId` is in the open conflict and still fighting (false when out, or not in it at all). */
export function stillFighting(conflict: FateConflict, characterId: string): boolean {
  return conflict.status === "open" && isIn(conflict, characterId);
}

/** Whether `characterId` is in the conflict but out of the fight (conceded, taken out, left): no more hits for them. */
export function outOfTheFight(conflict: FateConflict, characterId: string): boolean {
  const p = conflict.participants.find((x) => x.characterId === characterId);
  return p !== undefined && p.status !== "in";
}

/** The GM ends the conflict (stress clears for everyone in it: `clearStress`). */
export function endConflict(conflict: FateConflict): FateConflict {
  assertOpen(conflict);
  return { ...conflict, status: "ended" };
}
