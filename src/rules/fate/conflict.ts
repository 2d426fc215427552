import { refuse } from "../errors.js";
import type { HitAbsorption, StressKind } from "./stress.js";

export type ParticipantStatus = "in" | "conceded" | "takenOut";

export interface ConflictParticipant {
  characterId: string;
  /** Participants with the same side fight together; the conflict ends when one side is left. */
  side: string;
  status: ParticipantStatus;
  /** Consequences taken in this conflict: each is worth a fate point on conceding. */
  consequencesTaken: number;
  /** A hit rolled against this character and not yet absorbed: the dice are down, no conceding. */
  pendingHit: { shifts: number; kind: StressKind } | null;
}

export interface FateConflict {
  title: string;
  exchange: number;
  participants: ConflictParticipant[];
  status: "open" | "ended";
}

export const MAX_TITLE = 100;

export function startConflict(
  title: string,
  participants: { characterId: string; side: string }[] = [],
): FateConflict {
  let conflict: FateConflict = {
    title: title.trim().slice(0, MAX_TITLE),
    exchange: 1,
    participants: [],
    status: "open",
  };
  for (const p of participants) conflict = joinConflict(conflict, p.characterId, p.side);
  return conflict;
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

export function joinConflict(conflict: FateConflict, characterId: string, side: string): FateConflict {
  assertOpen(conflict);
  if (conflict.participants.some((p) => p.characterId === characterId))
    refuse("errors.fate.alreadyInConflict");
  const joined: ConflictParticipant = {
    characterId,
    side,
    status: "in",
    consequencesTaken: 0,
    pendingHit: null,
  };
  return { ...conflict, participants: [...conflict.participants, joined] };
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
    return settle(update(conflict, targetId, { status: "takenOut", pendingHit: null }));
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
 * `characterId` concedes. Only before a roll: with a hit already rolled against them they
 * must take it first ("если кубики брошены — назад не отмотать").
 */
export function concede(
  conflict: FateConflict,
  characterId: string,
): { conflict: FateConflict; fatePoints: number } {
  assertOpen(conflict);
  const who = participant(conflict, characterId);
  assertStillIn(who);
  if (who.pendingHit) refuse("errors.fate.concedeAfterRoll");
  return {
    conflict: settle(update(conflict, characterId, { status: "conceded" })),
    fatePoints: concedeFatePoints(who.consequencesTaken),
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

/** The GM ends the conflict (stress clears for everyone in it: `clearStress`). */
export function endConflict(conflict: FateConflict): FateConflict {
  assertOpen(conflict);
  return { ...conflict, status: "ended" };
}
