import { refuse } from "../errors.js";
import { type Aspect, type Invoker, makeAspect } from "./aspects.js";

export type StressKind = "physical" | "mental";
export const STRESS_KINDS: readonly StressKind[] = ["physical", "mental"];

/** A stress track: one flag per box, true when checked. Box k (1-based) absorbs up to k shifts. */
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
  /** Who inflicted the hit that took this slot: they get a free invoke on it once it is named. */
  inflictedBy?: Invoker | null;
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

/** What a hit did: the box and slots it used (indices 0-based), or the character is taken out. */
export type HitAbsorption =
  | {
      kind: "absorbed";
      shifts: number;
      /** The stress box checked (0-based): at most one per hit. */
      boxes: number[];
      consequences: ConsequenceSlotId[];
      /** Shifts the chosen box and consequences could take (≥ shifts). */
      absorbed: number;
      track: StressTrack;
      slots: ConsequenceSlot[];
    }
  | {
      kind: "takenOut";
      shifts: number;
      /** The most this character could still have absorbed with one hit. */
      capacity: number;
      track: StressTrack;
      slots: ConsequenceSlot[];
    };

/** One way to take a hit: at most one stress box and any free consequence slots. */
export interface Absorption {
  boxes: number[];
  consequences: ConsequenceSlotId[];
}

/** How the player wants to take the hit; omitted, `absorbHit` picks the cheapest way. */
export type AbsorbChoice = Absorption | "takenOut";

/** What box `index` (0-based) absorbs: its number (docs/rules/fate.md §3.3). */
export function boxValue(index: number): number {
  return index + 1;
}

/** The most one hit of the track's kind can still take: the largest free box plus every usable slot. */
export function absorbCapacity(track: StressTrack, slots: readonly ConsequenceSlot[]): number {
  const freeBoxes = track.boxes.flatMap((checked, i) => (checked ? [] : [boxValue(i)]));
  const largestBox = freeBoxes.length > 0 ? Math.max(...freeBoxes) : 0;
  return (
    largestBox +
    slots.filter((s) => usable(s, track.kind)).reduce((sum, s) => sum + CONSEQUENCE_SHIFTS[s.severity], 0)
  );
}

/** Shifts a way of taking a hit absorbs. */
export function absorptionValue(plan: Absorption, slots: readonly ConsequenceSlot[]): number {
  const consequenceShifts = plan.consequences.reduce((sum, id) => {
    const found = slots.find((s) => s.id === id);
    return sum + (found ? CONSEQUENCE_SHIFTS[found.severity] : 0);
  }, 0);
  return plan.boxes.reduce((sum, b) => sum + boxValue(b), 0) + consequenceShifts;
}

/**
 * Every sensible way to absorb the whole hit (docs/rules/fate.md §3.3), cheapest first: for each
 * set of free consequence slots none of which could be left out, the smallest free box that makes
 * up the rest (no box when the consequences are enough). Cheapest means fewest consequence shifts
 * (stress clears after the conflict, consequences stay), then fewest consequences, then the
 * smallest box; a slot that only takes this kind of harm goes before an ordinary one of the same
 * size. Empty when nothing absorbs the hit: the character is taken out. A hit of 0 needs nothing.
 */
export function absorptionOptions(
  track: StressTrack,
  slots: readonly ConsequenceSlot[],
  shifts: number,
): Absorption[] {
  if (shifts <= 0) return [{ boxes: [], consequences: [] }];
  const candidates = slots.filter((s) => usable(s, track.kind));
  const freeBoxes = track.boxes.flatMap((checked, i) => (checked ? [] : [i]));
  const found: { plan: Absorption; score: number[] }[] = [];
  for (let mask = 0; mask < 1 << candidates.length; mask += 1) {
    const chosen = candidates.filter((_, i) => mask & (1 << i));
    const value = (list: readonly ConsequenceSlot[]) =>
      list.reduce((sum, s) => sum + CONSEQUENCE_SHIFTS[s.severity], 0);
    const consequenceShifts = value(chosen);
    const rest = shifts - consequenceShifts;
    const box = rest <= 0 ? null : freeBoxes.find((i) => boxValue(i) >= rest);
    if (box === undefined) continue;
    const total = consequenceShifts + (box === null ? 0 : boxValue(box));
    // A consequence that could be left out (with the same box) is a waste: not offered.
    if (chosen.some((s) => total - CONSEQUENCE_SHIFTS[s.severity] >= shifts)) continue;
    const general = chosen.filter((s) => s.onlyFor === null).length;
    found.push({
      plan: { boxes: box === null ? [] : [box], consequences: chosen.map((s) => s.id) },
      score: [consequenceShifts, chosen.length, box === null ? 0 : boxValue(box), general],
    });
  }
  found.sort((a, b) =>
    lexicographicallyLess(a.score, b.score) ? -1 : lexicographicallyLess(b.score, a.score) ? 1 : 0,
  );
  return found.map((f) => f.plan);
}

/** The cheapest way to take the hit (the first of `absorptionOptions`), or null when it takes the character out. */
export function defaultAbsorption(
  track: StressTrack,
  slots: readonly ConsequenceSlot[],
  shifts: number,
): Absorption | null {
  return absorptionOptions(track, slots, shifts)[0] ?? null;
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
 * character's consequence slots (docs/rules/fate.md §3.3): one stress box of value ≥ what the
 * consequences leave, plus any free consequence slots; a hit nothing absorbs takes the character
 * out. With `choice` the player picks the box and slots (checked here: one box at most, and the
 * whole hit absorbed); without, the cheapest way. A hit of 0 absorbs nothing and costs nothing.
 */
export function absorbHit(
  track: StressTrack,
  slots: readonly ConsequenceSlot[],
  shifts: number,
  choice?: AbsorbChoice,
  inflictedBy: Invoker | null = null,
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
  if (boxes.length > 1) return refuse("errors.fate.oneBoxPerHit");
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
  const absorbed =
    boxes.reduce((sum, b) => sum + boxValue(b), 0) +
    used.reduce((sum, s) => sum + CONSEQUENCE_SHIFTS[s.severity], 0);
  if (absorbed < shifts) return refuse("errors.fate.hitNotAbsorbed", { shifts, absorbed });
  return {
    kind: "absorbed",
    shifts,
    boxes,
    consequences: used.map((s) => s.id),
    absorbed,
    track: { kind: track.kind, boxes: track.boxes.map((checked, i) => checked || boxes.includes(i)) },
    slots: slots.map((s) => (used.includes(s) ? { ...s, taken: true, inflictedBy } : s)),
  };
}

/**
 * Names a taken consequence: it becomes an aspect (docs/rules/fate.md §3.3). Whoever inflicted
 * the hit that took the slot (`inflictedBy`, or the one the slot remembers) gets one free invoke
 * on it, for them and their side.
 */
export function nameConsequence(
  slots: readonly ConsequenceSlot[],
  id: ConsequenceSlotId,
  name: string,
  inflictedBy: Invoker | string | null = null,
): ConsequenceSlot[] {
  const target = slots.find((s) => s.id === id);
  if (!target) return refuse("errors.fate.noSuchConsequenceSlot", { slot: id });
  const given = typeof inflictedBy === "string" ? { id: inflictedBy, side: null } : inflictedBy;
  const by = given ?? target.inflictedBy ?? null;
  const aspect = makeAspect(name, "consequence", {
    freeInvokes: by ? 1 : 0,
    holderId: by?.id ?? null,
    side: by?.side ?? null,
  });
  return slots.map((s) => (s === target ? { ...s, taken: true, aspect, inflictedBy: by } : s));
}

/**
 * The slot a consequence's name goes to (docs/rules/fate.md §3.3): the one asked for, or — none
 * asked — the slot a hit took and nobody named yet. Naming is never a hit: while a hit's slot
 * waits for its name, a free slot is not taken instead (`waiting` is that slot, for the refusal).
 */
export function slotToName(
  slots: readonly ConsequenceSlot[],
  id: ConsequenceSlotId | undefined,
):
  | { kind: "slot"; slot: ConsequenceSlot }
  | { kind: "waiting"; waiting: ConsequenceSlot }
  | { kind: "none" } {
  const waiting = slots.find((s) => s.taken && !s.aspect) ?? null;
  if (id === undefined) return waiting ? { kind: "slot", slot: waiting } : { kind: "none" };
  const slot = slots.find((s) => s.id === id);
  if (!slot) return refuse("errors.fate.noSuchConsequenceSlot", { slot: id });
  if (slot.aspect) return refuse("errors.fate.consequenceSlotTaken", { slot: slot.id });
  if (!slot.taken && waiting) return { kind: "waiting", waiting };
  return { kind: "slot", slot };
}

/** The GM clears a consequence (docs/rules/fate.md §3.3: consequences stay until the GM clears them). */
export function clearConsequence(
  slots: readonly ConsequenceSlot[],
  id: ConsequenceSlotId,
): ConsequenceSlot[] {
  const target = slots.find((s) => s.id === id);
  if (!target) return refuse("errors.fate.noSuchConsequenceSlot", { slot: id });
  if (!target.taken) return refuse("errors.fate.consequenceSlotFree", { slot: id });
  return slots.map((s) => (s === target ? { ...s, taken: false, aspect: null, inflictedBy: null } : s));
}
