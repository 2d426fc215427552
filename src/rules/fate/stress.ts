import { refuse } from "../errors.js";
import { type Aspect, makeAspect } from "./aspects.js";

export type StressKind = "physical" | "mental";
export const STRESS_KINDS: readonly StressKind[] = ["physical", "mental"];

/** A stress track: one flag per box, true when checked. Each box absorbs one shift. */
export interface StressTrack {
  kind: StressKind;
  boxes: boolean[];
}

export type Severity = "mild" | "moderate" | "severe";
export const SEVERITIES: readonly Severity[] = ["mild", "moderate", "severe"];

/** How many shifts each consequence absorbs (docs/rules/fate.md §3.3). */
export const CONSEQUENCE_SHIFTS: Readonly<Record<Severity, number>> = { mild: 2, moderate: 4, severe: 6 };

/**
 * A consequence slot. The three ordinary slots take harm of either kind; the extra mild slot
 * from Physique or Eloquence +5 takes only its own kind. A taken slot holds its aspect once
 * it has been named (null until then).
 */
export interface ConsequenceSlot {
  id: ConsequenceSlotId;
  severity: Severity;
  onlyFor: StressKind | null;
  taken: boolean;
  aspect: Aspect | null;
}

export type ConsequenceSlotId = "mild" | "moderate" | "severe" | "mildPhysical" | "mildMental";

export const BASE_STRESS_BOXES = 2;

/** The skill that widens each track: Physique the physical one, Eloquence the mental one. */
export const STRESS_SKILL = { physical: "physique", mental: "eloquence" } as const;

/** Boxes in a track for the skill's value: 2, +1 at +1/+2, +2 at +3 and above. */
export function stressBoxes(skillValue: number): number {
  if (skillValue >= 3) return BASE_STRESS_BOXES + 2;
  if (skillValue >= 1) return BASE_STRESS_BOXES + 1;
  return BASE_STRESS_BOXES;
}

/** Physique or Eloquence at +5 also gives an extra mild consequence slot of that kind. */
export function extraMildSlot(skillValue: number): boolean {
  return skillValue >= 5;
}

export function emptyTrack(kind: StressKind, size: number): StressTrack {
  return { kind, boxes: Array.from({ length: size }, () => false) };
}

/** A track resized after its skill changed: checked boxes stay checked as far as they still exist. */
export function resizeTrack(track: StressTrack, size: number): StressTrack {
  return { kind: track.kind, boxes: Array.from({ length: size }, (_, i) => track.boxes[i] ?? false) };
}

export function clearTrack(track: StressTrack): StressTrack {
  return emptyTrack(track.kind, track.boxes.length);
}

function slot(id: ConsequenceSlotId, severity: Severity, onlyFor: StressKind | null): ConsequenceSlot {
  return { id, severity, onlyFor, taken: false, aspect: null };
}

/**
 * The consequence slots for these Physique and Eloquence values. Existing slots keep their
 * state; an extra slot the character no longer earns is dropped only while it is free, so a
 * consequence already taken never disappears with a changed skill.
 */
export function consequenceSlots(
  { physique, eloquence }: { physique: number; eloquence: number },
  existing: readonly ConsequenceSlot[] = [],
): ConsequenceSlot[] {
  const wanted: ConsequenceSlot[] = [slot("mild", "mild", null), slot("moderate", "moderate", null)];
  wanted.push(slot("severe", "severe", null));
  if (extraMildSlot(physique)) wanted.push(slot("mildPhysical", "mild", "physical"));
  if (extraMildSlot(eloquence)) wanted.push(slot("mildMental", "mild", "mental"));
  const kept = wanted.map((w) => existing.find((e) => e.id === w.id) ?? w);
  const orphans = existing.filter((e) => e.taken && !kept.some((k) => k.id === e.id));
  return [...kept, ...orphans];
}

function usable(s: ConsequenceSlot, kind: StressKind): boolean {
  return !s.taken && (s.onlyFor === null || s.onlyFor === kind);
}

/** What a hit did: the boxes and slots it used (indices 0-based), or the character is taken out. */
export type HitAbsorption =
  | {
      kind: "absorbed";
      shifts: number;
      boxes: number[];
      consequences: ConsequenceSlotId[];
      /** Shifts the chosen boxes and consequences could take (≥ shifts). */
      absorbed: number;
      track: StressTrack;
      slots: ConsequenceSlot[];
    }
  | {
      kind: "takenOut";
      shifts: number;
      /** The most this character could still have absorbed. */
      capacity: number;
      track: StressTrack;
      slots: ConsequenceSlot[];
    };

/** How the player wants to take the hit; omitted, `absorbHit` picks the default. */
export type AbsorbChoice = { boxes: number[]; consequences: ConsequenceSlotId[] } | "takenOut";

/** What could still be absorbed of a hit of `kind`: free boxes plus every usable slot. */
export function absorbCapacity(track: StressTrack, slots: readonly ConsequenceSlot[]): number {
  const boxes = track.boxes.filter((checked) => !checked).length;
  return (
    boxes +
    slots.filter((s) => usable(s, track.kind)).reduce((sum, s) => sum + CONSEQUENCE_SHIFTS[s.severity], 0)
  );
}

/**
 * The default way to take a hit, "fewest lasting resources": among the combinations of free
 * consequence slots that, with the free boxes, absorb the whole hit, take the one with the
 * fewest consequence shifts (stress clears after the conflict, consequences stay), then the
 * fewest consequences, then the fewest boxes; a slot that only takes this kind of harm goes
 * before an ordinary one of the same size. Boxes are checked from the first free one.
 * Returns null when nothing absorbs the hit.
 */
export function defaultAbsorption(
  track: StressTrack,
  slots: readonly ConsequenceSlot[],
  shifts: number,
): { boxes: number[]; consequences: ConsequenceSlotId[] } | null {
  const candidates = slots.filter((s) => usable(s, track.kind));
  const freeBoxes = track.boxes.flatMap((checked, i) => (checked ? [] : [i]));
  let best: { boxes: number[]; consequences: ConsequenceSlot[]; score: number[] } | null = null;
  for (let mask = 0; mask < 1 << candidates.length; mask += 1) {
    const chosen = candidates.filter((_, i) => mask & (1 << i));
    const consequenceShifts = chosen.reduce((sum, s) => sum + CONSEQUENCE_SHIFTS[s.severity], 0);
    const boxCount = Math.max(0, shifts - consequenceShifts);
    if (boxCount > freeBoxes.length) continue;
    const general = chosen.filter((s) => s.onlyFor === null).length;
    const score = [consequenceShifts, chosen.length, boxCount, general];
    if (!best || lexicographicallyLess(score, best.score)) {
      best = { boxes: freeBoxes.slice(0, boxCount), consequences: chosen, score };
    }
  }
  return best && { boxes: best.boxes, consequences: best.consequences.map((s) => s.id) };
}

function lexicographicallyLess(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}

/**
 * Takes a hit of `shifts` on `track` (its kind decides which slots can help) and the
 * character's consequence slots. [decision, docs/rules/fate.md §3.3] Each box absorbs one shift, any number
 * of boxes may be checked for one hit; a hit that the free boxes and slots cannot absorb takes
 * the character out. With `choice` the player picks boxes and slots (checked here); without,
 * `defaultAbsorption`. A hit of 0 absorbs nothing and costs nothing.
 */
export function absorbHit(
  track: StressTrack,
  slots: readonly ConsequenceSlot[],
  shifts: number,
  choice?: AbsorbChoice,
): HitAbsorption {
  if (!Number.isInteger(shifts) || shifts < 0) return refuse("errors.fate.hitInvalid");
  const takenOut: HitAbsorption = {
    kind: "takenOut",
    shifts,
    capacity: absorbCapacity(track, slots),
    track,
    slots: [...slots],
  };
  if (choice === "takenOut") return takenOut;
  const plan = choice ?? defaultAbsorption(track, slots, shifts);
  if (!plan) return takenOut;
  const boxes = [...new Set(plan.boxes)].sort((a, b) => a - b);
  for (const box of boxes) {
    if (!Number.isInteger(box) || box < 0 || box >= track.boxes.length) {
      return refuse("errors.fate.noSuchStressBox", { box: box + 1, count: track.boxes.length });
    }
    if (track.boxes[box]) return refuse("errors.fate.stressBoxChecked", { box: box + 1 });
  }
  const used = [...new Set(plan.consequences)].map((id) => {
    const found = slots.find((s) => s.id === id);
    if (!found) return refuse("errors.fate.noSuchConsequenceSlot", { slot: id });
    if (found.taken) return refuse("errors.fate.consequenceSlotTaken", { slot: id });
    if (!usable(found, track.kind)) return refuse("errors.fate.consequenceSlotWrongKind", { slot: id });
    return found;
  });
  const absorbed = boxes.length + used.reduce((sum, s) => sum + CONSEQUENCE_SHIFTS[s.severity], 0);
  if (absorbed < shifts) return refuse("errors.fate.hitNotAbsorbed", { shifts, absorbed });
  return {
    kind: "absorbed",
    shifts,
    boxes,
    consequences: used.map((s) => s.id),
    absorbed,
    track: { kind: track.kind, boxes: track.boxes.map((checked, i) => checked || boxes.includes(i)) },
    slots: slots.map((s) => (used.includes(s) ? { ...s, taken: true } : s)),
  };
}

/**
 * Names a taken consequence: it becomes an aspect. [decision] Following Fate Core, when
 * `inflictedBy` is given, that character gets one free invoke on it.
 */
export function nameConsequence(
  slots: readonly ConsequenceSlot[],
  id: ConsequenceSlotId,
  name: string,
  inflictedBy: string | null = null,
): ConsequenceSlot[] {
  const target = slots.find((s) => s.id === id);
  if (!target) return refuse("errors.fate.noSuchConsequenceSlot", { slot: id });
  const aspect = makeAspect(name, "consequence", { freeInvokes: inflictedBy ? 1 : 0, holderId: inflictedBy });
  return slots.map((s) => (s === target ? { ...s, taken: true, aspect } : s));
}

/** The GM clears a consequence (docs/rules/fate.md §3.3: consequences stay until the GM clears them). */
export function clearConsequence(
  slots: readonly ConsequenceSlot[],
  id: ConsequenceSlotId,
): ConsequenceSlot[] {
  const target = slots.find((s) => s.id === id);
  if (!target) return refuse("errors.fate.noSuchConsequenceSlot", { slot: id });
  if (!target.taken) return refuse("errors.fate.consequenceSlotFree", { slot: id });
  return slots.map((s) => (s === target ? { ...s, taken: false, aspect: null } : s));
}
