import type { DiceSource } from "../dice.js";
import { refuse } from "../errors.js";
import { type Aspect, addAspect, makeAspect, sameAspectName, usableFreeInvokes } from "./aspects.js";
import type { Stunt } from "./character.js";
import { type AppliedInvoke, type Opposition, payForInvoke } from "./check.js";
import { type FateDiceRoll, rollFateDice } from "./dice.js";
import { gainFatePoints, spendFatePoints } from "./fate-points.js";
import { type ActionEffects, actionOutcome, type FateAction, type Outcome, outcome } from "./outcomes.js";
import { echo, normaliseName } from "./skills.js";
import {
  CONSEQUENCE_SHIFTS,
  type ConsequenceSlot,
  type ConsequenceSlotId,
  consequenceSlots,
} from "./stress.js";

/** The seven faction abilities of docs/rules/fate.md §3.5 ([decision]: the seed says six and lists seven). */
export const FACTION_ABILITIES = [
  { key: "military", en: "Military", ru: "Военная сила" },
  { key: "magic", en: "Magic", ru: "Магическая сила" },
  { key: "resources", en: "Resources", ru: "Ресурсы" },
  { key: "commerce", en: "Commerce", ru: "Коммерция" },
  { key: "popularity", en: "Popularity", ru: "Популярность" },
  { key: "espionage", en: "Espionage", ru: "Шпионаж" },
  { key: "art", en: "Art", ru: "Искусство" },
] as const;

export type FactionAbility = (typeof FACTION_ABILITIES)[number]["key"];
export const FACTION_ABILITY_KEYS: readonly FactionAbility[] = FACTION_ABILITIES.map((a) => a.key);
export type FactionAbilities = Partial<Record<FactionAbility, number>>;

/** The ratings to distribute: +4, +3, +2, +1, +1; the rest are +0. */
export const FACTION_RATINGS: readonly number[] = [4, 3, 2, 1, 1];
export const MAX_FACTION_ASPECTS = 3;

/** A faction's three stress tracks (docs/rules/fate.md §3.5): Politics, Army, Economy. */
export const FACTION_TRACKS = ["politics", "army", "economy"] as const;
export type FactionTrack = (typeof FACTION_TRACKS)[number];
/** Three boxes each; no ability widens them. */
export const FACTION_TRACK_BOXES = 3;

export interface Faction {
  id: string;
  name: string;
  aspects: Aspect[];
  abilities: FactionAbilities;
  stunts: Stunt[];
  fatePoints: number;
  /** One flag per box (true when checked); box k (1-based) absorbs up to k shifts. */
  stress: Record<FactionTrack, boolean[]>;
  consequences: ConsequenceSlot[];
}

export function resolveFactionAbility(input: string): FactionAbility {
  const wanted = normaliseName(input);
  const found = FACTION_ABILITIES.find(
    (a) => a.key === wanted || normaliseName(a.en) === wanted || normaliseName(a.ru) === wanted,
  );
  return found?.key ?? refuse("errors.fate.unknownFactionAbility", { input: echo(input) });
}

/**
 * Checks faction ratings: each one of +4, +3, +2, +1 or 0, no more of each than the
 * distribution allows (one +4, one +3, one +2, two +1); with `complete`, all five handed out.
 */
export function validateFactionAbilities(
  abilities: FactionAbilities,
  { complete = false }: { complete?: boolean } = {},
): void {
  for (const key of Object.keys(abilities)) {
    if (!(FACTION_ABILITY_KEYS as readonly string[]).includes(key)) {
      refuse("errors.fate.unknownFactionAbility", { input: echo(key) });
    }
  }
  for (const key of FACTION_ABILITY_KEYS) {
    const value = abilities[key] ?? 0;
    if (value !== 0 && !FACTION_RATINGS.includes(value)) {
      refuse("errors.fate.factionRatingInvalid", { ability: key, value });
    }
  }
  for (const rating of new Set(FACTION_RATINGS)) {
    const allowed = FACTION_RATINGS.filter((r) => r === rating).length;
    const have = FACTION_ABILITY_KEYS.filter((k) => (abilities[k] ?? 0) === rating).length;
    if (have > allowed) refuse("errors.fate.factionRatingFull", { rank: rating, max: allowed, count: have });
    if (complete && have < allowed)
      refuse("errors.fate.factionRatingIncomplete", { rank: rating, need: allowed, count: have });
  }
}

function emptyFactionStress(): Record<FactionTrack, boolean[]> {
  return {
    politics: Array.from({ length: FACTION_TRACK_BOXES }, () => false),
    army: Array.from({ length: FACTION_TRACK_BOXES }, () => false),
    economy: Array.from({ length: FACTION_TRACK_BOXES }, () => false),
  };
}

export function newFaction(input: {
  id: string;
  name: string;
  aspects?: string[];
  abilities?: FactionAbilities;
  stunts?: Stunt[];
}): Faction {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100) refuse("errors.fate.nameInvalid", { max: 100 });
  const abilities = { ...(input.abilities ?? {}) };
  validateFactionAbilities(abilities);
  let aspects: Aspect[] = [];
  for (const aspect of input.aspects ?? []) aspects = withFactionAspect(aspects, aspect);
  return {
    id: input.id,
    name,
    aspects,
    abilities,
    stunts: input.stunts ?? [],
    fatePoints: 0,
    stress: emptyFactionStress(),
    consequences: consequenceSlots({ physique: 0, eloquence: 0 }),
  };
}

/**
 * A faction as stored by any version: the first ones kept two character-like tracks
 * (`{ physical: { boxes }, mental: { boxes } }`). [decision, docs/rules/fate.md §3.5] Their checked
 * boxes carry over, physical to Army and mental to Politics, as far as three boxes go.
 */
export function loadFaction(raw: unknown): Faction {
  const stored = raw as Faction & { stress?: Record<string, unknown> };
  const stress = emptyFactionStress();
  const old = (stored.stress ?? {}) as Record<string, unknown>;
  const boxesOf = (value: unknown): boolean[] | null => {
    if (Array.isArray(value)) return value.map(Boolean);
    const boxes = (value as { boxes?: unknown } | undefined)?.boxes;
    return Array.isArray(boxes) ? boxes.map(Boolean) : null;
  };
  const sources: Record<FactionTrack, unknown> = {
    politics: old.politics ?? old.mental,
    army: old.army ?? old.physical,
    economy: old.economy,
  };
  for (const track of FACTION_TRACKS) {
    const boxes = boxesOf(sources[track]);
    if (boxes) stress[track] = stress[track].map((_, i) => boxes[i] ?? false);
  }
  return {
    id: stored.id,
    name: stored.name,
    aspects: stored.aspects ?? [],
    abilities: stored.abilities ?? {},
    stunts: stored.stunts ?? [],
    fatePoints: stored.fatePoints ?? 0,
    stress,
    consequences: consequenceSlots({ physique: 0, eloquence: 0 }, stored.consequences ?? []),
  };
}

function withFactionAspect(aspects: Aspect[], name: string): Aspect[] {
  if (aspects.length >= MAX_FACTION_ASPECTS)
    refuse("errors.fate.tooManyFactionAspects", { max: MAX_FACTION_ASPECTS });
  return addAspect(aspects, makeAspect(name, "faction"));
}

/** Adds one of the faction's (at most three) aspects. */
export function addFactionAspect(faction: Faction, name: string): Faction {
  return { ...faction, aspects: withFactionAspect(faction.aspects, name) };
}

/**
 * The start of a scene with the faction in it: it gets 1 FP when no character present can
 * pass it one (docs/rules/fate.md §3.5); otherwise nothing.
 */
export function factionSceneFatePoint(faction: Faction, characterCanPass: boolean): Faction {
  return characterCanPass ? faction : gainFatePoints(faction, 1);
}

/**
 * A character present passes the faction one of their fate points instead (docs/rules/fate.md
 * §3.5: "a character able to pass it theirs"): the character has one fewer, the faction one more.
 */
export function passFatePointToFaction<C extends { fatePoints: number }>(
  character: C,
  faction: Faction,
): { character: C; faction: Faction } {
  return { character: spendFatePoints(character, 1), faction: gainFatePoints(faction, 1) };
}

// --- Hits on a faction (docs/rules/fate.md §3.5) ---

/** One way to take a hit: at most one stress box (0-based index) and some free consequence slots. */
export interface FactionAbsorption {
  box: number | null;
  consequences: ConsequenceSlotId[];
  /** Shifts the box and slots can take (≥ the hit). */
  absorbed: number;
}

/**
 * Every combination that absorbs the whole hit on `track` — one free box (box k takes up to k
 * shifts) plus free consequence slots (2, 4, 6) — with nothing in it that could be left out,
 * cheapest first: fewest consequence shifts spent, then fewest consequences, then the
 * smallest box. Empty when nothing absorbs the hit: the faction is taken out.
 */
export function factionAbsorptions(
  faction: Faction,
  track: FactionTrack,
  shifts: number,
): FactionAbsorption[] {
  if (shifts <= 0) return [{ box: null, consequences: [], absorbed: 0 }];
  const boxes: (number | null)[] = [null];
  faction.stress[track].forEach((checked, i) => {
    if (!checked) boxes.push(i);
  });
  const free = faction.consequences.filter((s) => !s.taken && s.onlyFor === null);
  const found: FactionAbsorption[] = [];
  for (const box of boxes) {
    for (let mask = 0; mask < 1 << free.length; mask += 1) {
      const slots = free.filter((_, i) => mask & (1 << i));
      const parts = [...(box === null ? [] : [box + 1]), ...slots.map((s) => CONSEQUENCE_SHIFTS[s.severity])];
      const absorbed = parts.reduce((a, b) => a + b, 0);
      if (absorbed < shifts) continue;
      // Minimal: dropping any one part would leave the hit partly absorbed.
      if (parts.some((p) => absorbed - p >= shifts)) continue;
      found.push({ box, consequences: slots.map((s) => s.id), absorbed });
    }
  }
  const cost = (a: FactionAbsorption) => a.absorbed - (a.box === null ? 0 : a.box + 1);
  return found.sort(
    (a, b) =>
      cost(a) - cost(b) || a.consequences.length - b.consequences.length || (a.box ?? -1) - (b.box ?? -1),
  );
}

export type FactionHit =
  | { kind: "absorbed"; track: FactionTrack; shifts: number; absorption: FactionAbsorption; faction: Faction }
  | { kind: "takenOut"; track: FactionTrack; shifts: number; faction: Faction };

/**
 * A hit of `shifts` on one of the faction's tracks, taken the way `choice` says (one of
 * `factionAbsorptions`, default the cheapest). The chosen box is checked and the slots are
 * taken (their aspects are named afterwards); with no way to absorb it the faction is taken out.
 */
export function hitFaction(
  faction: Faction,
  track: FactionTrack,
  shifts: number,
  choice?: { box: number | null; consequences: ConsequenceSlotId[] },
): FactionHit {
  const options = factionAbsorptions(faction, track, shifts);
  if (options.length === 0) return { kind: "takenOut", track, shifts, faction };
  const picked = choice
    ? options.find(
        (o) =>
          o.box === choice.box &&
          o.consequences.length === choice.consequences.length &&
          o.consequences.every((c) => choice.consequences.includes(c)),
      )
    : options[0];
  if (!picked) return refuse("errors.fate.factionAbsorptionInvalid");
  const stress = { ...faction.stress, [track]: faction.stress[track].map((b, i) => b || i === picked.box) };
  const consequences = faction.consequences.map((s) =>
    picked.consequences.includes(s.id) ? { ...s, taken: true } : s,
  );
  return {
    kind: "absorbed",
    track,
    shifts,
    absorption: picked,
    faction: { ...faction, stress, consequences },
  };
}

/** The end of a scene (conflict) for the faction: its stress boxes clear; consequences stay. */
export function clearFactionStress(faction: Faction): Faction {
  return { ...faction, stress: emptyFactionStress() };
}

// --- Faction checks (docs/rules/fate.md §3.5) ---

/** A faction's check: 4d3 + one of its abilities + a bonus, with the invokes spent on it. */
export interface FactionCheck {
  factionId: string;
  ability: FactionAbility;
  abilityValue: number;
  bonus: number;
  action: FateAction;
  dice: FateDiceRoll;
  rerolledDice: FateDiceRoll[];
  opposition:
    | Exclude<Opposition, { kind: "active" }>
    | { kind: "active"; value: number; characterId: string | null };
  invokes: AppliedInvoke[];
}

export function rollFactionCheck(
  faction: Faction,
  input: { ability: FactionAbility; bonus?: number; action?: FateAction; vs?: number | null },
  dice: DiceSource,
): FactionCheck {
  const bonus = input.bonus ?? 0;
  if (!Number.isInteger(bonus) || Math.abs(bonus) > 20) refuse("errors.fate.bonusOutOfRange", { max: 20 });
  return {
    factionId: faction.id,
    ability: input.ability,
    abilityValue: faction.abilities[input.ability] ?? 0,
    bonus,
    action: input.action ?? "overcome",
    dice: rollFateDice(dice),
    rerolledDice: [],
    opposition:
      input.vs === null || input.vs === undefined ? { kind: "none" } : { kind: "passive", value: input.vs },
    invokes: [],
  };
}

export function factionCheckResult(check: FactionCheck): number {
  return (
    check.dice.total +
    check.abilityValue +
    check.bonus +
    2 * check.invokes.filter((i) => i.mode === "plus2").length
  );
}

export function factionCheckShifts(check: FactionCheck): number | null {
  return check.opposition.kind === "none" ? null : factionCheckResult(check) - check.opposition.value;
}

export function factionCheckOutcome(
  check: FactionCheck,
): { outcome: Outcome; effects: ActionEffects } | null {
  const shifts = factionCheckShifts(check);
  return shifts === null ? null : { outcome: outcome(shifts), effects: actionOutcome(check.action, shifts) };
}

/**
 * The faction invokes an aspect (its own, the scene's, anyone's) on its check, after the roll:
 * +2 or a reroll, paid with a free invoke it may use or one of its fate points. As for
 * characters, one aspect is paid for with a fate point once per check; a boost only through its
 * free invoke and then it is gone (docs/rules/fate.md §3.2).
 */
export function factionInvoke<A extends Aspect>(
  request: {
    check: FactionCheck;
    faction: Faction;
    aspect: A;
    mode: "plus2" | "reroll";
    paidWith?: "free-invoke" | "fate-point";
  },
  dice: DiceSource,
): { check: FactionCheck; faction: Faction; aspect: A | null; spent: AppliedInvoke } {
  const { aspect, faction } = request;
  const invokerId = `faction:${faction.id}`;
  // A faction is on no conflict's side: it spends the free invokes it holds and unowned ones.
  const who = { id: invokerId, side: null };
  if (
    request.paidWith === undefined &&
    aspect.kind !== "boost" &&
    usableFreeInvokes(aspect, who) === 0 &&
    faction.fatePoints < 1
  )
    return refuse("errors.fate.factionCannotInvoke", { aspect: aspect.name, faction: faction.name });
  const paid = payForInvoke(aspect, faction, who, request.paidWith);
  const paidWith = paid.paidWith;
  if (
    paidWith === "fate-point" &&
    request.check.invokes.some((i) => i.paidWith === "fate-point" && sameAspectName(i.aspect, aspect.name))
  ) {
    return refuse("errors.fate.aspectAlreadyInvoked", { aspect: aspect.name });
  }
  const spent: AppliedInvoke = { aspect: aspect.name, invokerId, mode: request.mode, paidWith };
  const check: FactionCheck = { ...request.check, invokes: [...request.check.invokes, spent] };
  if (request.mode === "reroll") {
    check.rerolledDice = [...request.check.rerolledDice, request.check.dice];
    check.dice = rollFateDice(dice);
  }
  return { check, faction: paid.payer, aspect: paid.aspect, spent };
}
