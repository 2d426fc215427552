import { refuse } from "../errors.js";
import {
  type Aspect,
  type CharacterAspectKind,
  findAspect,
  type Invoker,
  makeAspect,
  sameAspectName,
} from "./aspects.js";
import { DEFAULT_REFRESH, refreshFatePoints } from "./fate-points.js";
import { closestSkills, echo, isSkillKey, SKILL_KEYS, type SkillKey } from "./skills.js";
import {
  type AbsorbChoice,
  absorbHit,
  type ConsequenceSlot,
  clearTrack,
  consequenceSlots,
  emptyTrack,
  type HitAbsorption,
  resizeTrack,
  type StressKind,
  type StressTrack,
  stressBoxes,
} from "./stress.js";

/** Skill values by key; a missing key is +0 (the same as an explicit 0). */
export type SkillRanks = Partial<Record<SkillKey, number>>;

/**
 * A stunt (docs/rules/fate.md §3.3). Magic abilities are stunts; a magic stunt may have an ULTIMATE, whose
 * use disables that magic until the next game week.
 */
export interface Stunt {
  name: string;
  text: string;
  magic: boolean;
  /** The ULTIMATE's name (written in capitals, as the seed insists), or null. */
  ultimate: string | null;
  /** Set by an ULTIMATE; cleared at the next game week. */
  disabledUntilNextWeek: boolean;
}

export interface Race {
  name: string;
  stunts: Stunt[];
  bonuses: SkillRanks;
}

export interface FateCharacter {
  id: string;
  name: string;
  /** The player's Discord user id; null for a GM character (NPC). */
  ownerId: string | null;
  refresh: number;
  fatePoints: number;
  /** Ambition, Belief, Connections, Flaw, Talent — at most one of each. */
  aspects: Aspect[];
  /** The pyramid, before race bonuses. */
  skills: SkillRanks;
  race: Race | null;
  stunts: Stunt[];
  /** Weapon and armour ratings (from stunts or race). */
  wr: number;
  ar: number;
  stress: Record<StressKind, StressTrack>;
  consequences: ConsequenceSlot[];
}

/** The pyramid of docs/rules/fate.md §3.3: how many skills may sit at each rank. */
export const PYRAMID: ReadonlyArray<{ rank: number; count: number }> = [
  { rank: 4, count: 1 },
  { rank: 3, count: 2 },
  { rank: 2, count: 3 },
  { rank: 1, count: 4 },
];
export const MAX_PYRAMID_RANK = 4;
export const RACE_BONUS_TOTAL = 5;
export const MAX_RACE_BONUS = 2;
/** No skill above +5 with race bonuses. */
export const MAX_SKILL = 5;
export const MAX_STUNTS = 2;
export const MAX_RACE_STUNTS = 2;
export const MAX_REFRESH = 10;
export const MAX_RATING = 10;
export const MAX_NAME = 100;
export const MAX_STUNT_TEXT = 1000;

function checkSkillKeys(ranks: SkillRanks): void {
  for (const key of Object.keys(ranks)) {
    if (!isSkillKey(key)) {
      refuse("errors.fate.unknownSkill", {
        input: echo(key),
        suggestions: closestSkills(key, "en", 3).join(", "),
      });
    }
  }
}

/**
 * Checks a pyramid: ranks 0..+4, at most one +4, two +3, three +2, four +1. With
 * `complete`, every rank must be filled (a finished sheet); without, a sheet being entered
 * a skill at a time passes as long as no rank is over-full.
 */
export function validatePyramid(skills: SkillRanks, { complete = false }: { complete?: boolean } = {}): void {
  checkSkillKeys(skills);
  for (const key of SKILL_KEYS) {
    const value = skills[key] ?? 0;
    if (!Number.isInteger(value) || value < 0 || value > MAX_PYRAMID_RANK) {
      refuse("errors.fate.skillRankInvalid", { skill: key, value, max: MAX_PYRAMID_RANK });
    }
  }
  for (const { rank, count } of PYRAMID) {
    const have = SKILL_KEYS.filter((key) => (skills[key] ?? 0) === rank).length;
    if (have > count) refuse("errors.fate.pyramidRankFull", { rank, max: count, count: have });
    if (complete && have < count) refuse("errors.fate.pyramidIncomplete", { rank, need: count, count: have });
  }
}

/**
 * Checks race bonuses: each 0..+2, at most 5 in all (exactly 5 with `complete`), and with
 * `skills`, no skill above +5 once the bonus is added.
 */
export function validateRaceBonuses(
  bonuses: SkillRanks,
  { complete = false, skills = {} }: { complete?: boolean; skills?: SkillRanks } = {},
): void {
  checkSkillKeys(bonuses);
  let total = 0;
  for (const key of SKILL_KEYS) {
    const bonus = bonuses[key] ?? 0;
    if (!Number.isInteger(bonus) || bonus < 0 || bonus > MAX_RACE_BONUS) {
      refuse("errors.fate.raceBonusInvalid", { skill: key, value: bonus, max: MAX_RACE_BONUS });
    }
    const value = (skills[key] ?? 0) + bonus;
    if (value > MAX_SKILL) refuse("errors.fate.skillAboveCap", { skill: key, value, max: MAX_SKILL });
    total += bonus;
  }
  if (total > RACE_BONUS_TOTAL) refuse("errors.fate.raceBonusTotal", { total, max: RACE_BONUS_TOTAL });
  if (complete && total < RACE_BONUS_TOTAL) {
    refuse("errors.fate.raceBonusIncomplete", { total, need: RACE_BONUS_TOTAL });
  }
}

function checkName(name: string): string {
  const trimmed = name.trim().replace(/\s+/g, " ");
  if (trimmed.length === 0 || trimmed.length > MAX_NAME)
    return refuse("errors.fate.nameInvalid", { max: MAX_NAME });
  return trimmed;
}

export function makeStunt(
  name: string,
  text: string,
  { magic = false, ultimate = null }: { magic?: boolean; ultimate?: string | null } = {},
): Stunt {
  if (text.length > MAX_STUNT_TEXT) refuse("errors.fate.stuntTextTooLong", { max: MAX_STUNT_TEXT });
  if (ultimate !== null && !magic) refuse("errors.fate.ultimateNeedsMagic");
  const ultimateName = ultimate === null ? null : checkName(ultimate).toLocaleUpperCase();
  return {
    name: checkName(name),
    text: text.trim(),
    magic,
    ultimate: ultimateName,
    disabledUntilNextWeek: false,
  };
}

export function makeRace(name: string, bonuses: SkillRanks, stunts: Stunt[] = []): Race {
  validateRaceBonuses(bonuses);
  if (stunts.length > MAX_RACE_STUNTS) refuse("errors.fate.tooManyRaceStunts", { max: MAX_RACE_STUNTS });
  return { name: checkName(name), stunts, bonuses: { ...bonuses } };
}

/** The value rolled: pyramid rank + race bonus. */
export function totalSkill(character: Pick<FateCharacter, "skills" | "race">, key: SkillKey): number {
  return (character.skills[key] ?? 0) + (character.race?.bonuses[key] ?? 0);
}

/** Resizes stress tracks and consequence slots after Physique or Eloquence changed. */
export function syncTracks(character: FateCharacter): FateCharacter {
  const physique = totalSkill(character, "physique");
  const eloquence = totalSkill(character, "eloquence");
  return {
    ...character,
    stress: {
      physical: resizeTrack(character.stress.physical, stressBoxes(physique)),
      mental: resizeTrack(character.stress.mental, stressBoxes(eloquence)),
    },
    consequences: consequenceSlots({ physique, eloquence }, character.consequences),
  };
}

function checkRating(value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > MAX_RATING) {
    refuse("errors.fate.ratingInvalid", { max: MAX_RATING });
  }
}

export interface NewCharacter {
  id: string;
  name: string;
  ownerId: string | null;
  refresh?: number;
  skills?: SkillRanks;
  race?: Race | null;
  stunts?: Stunt[];
  wr?: number;
  ar?: number;
}

/** A new character: fate points equal to the refresh (default 3), tracks sized by Physique and Eloquence. */
export function newCharacter(input: NewCharacter): FateCharacter {
  const refresh = input.refresh ?? DEFAULT_REFRESH;
  if (!Number.isInteger(refresh) || refresh < 0 || refresh > MAX_REFRESH) {
    refuse("errors.fate.refreshInvalid", { max: MAX_REFRESH });
  }
  const skills = { ...(input.skills ?? {}) };
  const race = input.race ?? null;
  validatePyramid(skills);
  validateRaceBonuses(race?.bonuses ?? {}, { skills });
  const stunts = input.stunts ?? [];
  if (stunts.length > MAX_STUNTS) refuse("errors.fate.tooManyStunts", { max: MAX_STUNTS });
  const wr = input.wr ?? 0;
  const ar = input.ar ?? 0;
  checkRating(wr);
  checkRating(ar);
  return syncTracks({
    id: input.id,
    name: checkName(input.name),
    ownerId: input.ownerId,
    refresh,
    fatePoints: refresh,
    aspects: [],
    skills,
    race,
    stunts,
    wr,
    ar,
    stress: { physical: emptyTrack("physical", 0), mental: emptyTrack("mental", 0) },
    consequences: [],
  });
}

/** Sets one skill's pyramid rank (0 removes it from the pyramid). */
export function setSkill(character: FateCharacter, key: SkillKey, rank: number): FateCharacter {
  const skills = { ...character.skills, [key]: rank };
  if (rank === 0) delete skills[key];
  return setSkills(character, skills);
}

export function setSkills(character: FateCharacter, skills: SkillRanks): FateCharacter {
  validatePyramid(skills);
  validateRaceBonuses(character.race?.bonuses ?? {}, { skills });
  return syncTracks({ ...character, skills: { ...skills } });
}

export function setRace(character: FateCharacter, race: Race | null): FateCharacter {
  validateRaceBonuses(race?.bonuses ?? {}, { skills: character.skills });
  return syncTracks({ ...character, race });
}

export function setRatings(
  character: FateCharacter,
  { wr, ar }: { wr?: number; ar?: number },
): FateCharacter {
  const next = { ...character, wr: wr ?? character.wr, ar: ar ?? character.ar };
  checkRating(next.wr);
  checkRating(next.ar);
  return next;
}

export function setRefresh(character: FateCharacter, refresh: number): FateCharacter {
  if (!Number.isInteger(refresh) || refresh < 0 || refresh > MAX_REFRESH) {
    refuse("errors.fate.refreshInvalid", { max: MAX_REFRESH });
  }
  return { ...character, refresh };
}

/** Sets (or replaces) the character's aspect of `kind`; an empty name removes it. */
export function setCharacterAspect(
  character: FateCharacter,
  kind: CharacterAspectKind,
  name: string,
): FateCharacter {
  const others = character.aspects.filter((a) => a.kind !== kind);
  if (name.trim() === "") return { ...character, aspects: others };
  const aspect = makeAspect(name, kind);
  if (others.some((a) => sameAspectName(a.name, aspect.name))) {
    refuse("errors.fate.aspectExists", { name: aspect.name });
  }
  const kept = character.aspects.find((a) => a.kind === kind);
  // Renaming keeps free invokes already earned on it.
  return { ...character, aspects: [...others, { ...aspect, freeInvokes: kept?.freeInvokes ?? [] }] };
}

/** Every aspect of the character that can be invoked or compelled: its own and its named consequences. */
export function characterAspects(character: FateCharacter): Aspect[] {
  const consequences = character.consequences.flatMap((s) => (s.aspect ? [s.aspect] : []));
  return [...character.aspects, ...consequences];
}

/** Writes back an aspect changed by an invoke (free invoke spent) wherever it lives on the character. */
export function replaceCharacterAspect(character: FateCharacter, aspect: Aspect): FateCharacter {
  const inAspects = character.aspects.some((a) => sameAspectName(a.name, aspect.name));
  if (inAspects) {
    return {
      ...character,
      aspects: character.aspects.map((a) => (sameAspectName(a.name, aspect.name) ? aspect : a)),
    };
  }
  findAspect(characterAspects(character), aspect.name);
  return {
    ...character,
    consequences: character.consequences.map((s) =>
      s.aspect && sameAspectName(s.aspect.name, aspect.name) ? { ...s, aspect } : s,
    ),
  };
}

export function addStunt(character: FateCharacter, stunt: Stunt): FateCharacter {
  if (character.stunts.length >= MAX_STUNTS) refuse("errors.fate.tooManyStunts", { max: MAX_STUNTS });
  if (allStunts(character).some((s) => sameAspectName(s.name, stunt.name))) {
    refuse("errors.fate.stuntExists", { name: stunt.name });
  }
  return { ...character, stunts: [...character.stunts, stunt] };
}

export function removeStunt(character: FateCharacter, name: string): FateCharacter {
  const found = findStunt(character, name);
  if (!character.stunts.includes(found)) refuse("errors.fate.raceStuntFixed", { name: found.name });
  return { ...character, stunts: character.stunts.filter((s) => s !== found) };
}

export function allStunts(character: FateCharacter): Stunt[] {
  return [...character.stunts, ...(character.race?.stunts ?? [])];
}

export function findStunt(character: FateCharacter, name: string): Stunt {
  const found = allStunts(character).find((s) => sameAspectName(s.name, name));
  return found ?? refuse("errors.fate.unknownStunt", { name: echo(name) });
}

function replaceStunt(character: FateCharacter, before: Stunt, after: Stunt): FateCharacter {
  if (character.stunts.includes(before)) {
    return { ...character, stunts: character.stunts.map((s) => (s === before ? after : s)) };
  }
  const race = character.race;
  if (!race) return character;
  return { ...character, race: { ...race, stunts: race.stunts.map((s) => (s === before ? after : s)) } };
}

/** Refuses when this magic has been spent by an ULTIMATE this week. */
export function assertMagicAvailable(character: FateCharacter, name: string): Stunt {
  const stunt = findStunt(character, name);
  if (!stunt.magic) return refuse("errors.fate.notMagic", { name: stunt.name });
  if (stunt.disabledUntilNextWeek) return refuse("errors.fate.magicSpent", { name: stunt.name });
  return stunt;
}

/**
 * Unleashes a magic stunt's ULTIMATE: allowed once, then that magic cannot be used until the
 * next game week (the seed: "вы более не можете применять свою магию в течение игровой недели").
 */
export function useUltimate(character: FateCharacter, name: string): FateCharacter {
  const stunt = assertMagicAvailable(character, name);
  if (stunt.ultimate === null) refuse("errors.fate.noUltimate", { name: stunt.name });
  return replaceStunt(character, stunt, { ...stunt, disabledUntilNextWeek: true });
}

/** A new game week: fate points back up to the refresh (more are kept), magic spent by an ULTIMATE returns. */
export function startNewWeek(character: FateCharacter): FateCharacter {
  const wake = (s: Stunt): Stunt => (s.disabledUntilNextWeek ? { ...s, disabledUntilNextWeek: false } : s);
  return {
    ...character,
    fatePoints: refreshFatePoints(character.fatePoints, character.refresh),
    stunts: character.stunts.map(wake),
    race: character.race && { ...character.race, stunts: character.race.stunts.map(wake) },
  };
}

/** A hit on the character's `kind` track; see `absorbHit`. */
export function takeHit(
  character: FateCharacter,
  shifts: number,
  kind: StressKind,
  choice?: AbsorbChoice,
  inflictedBy: Invoker | null = null,
): { character: FateCharacter; absorption: HitAbsorption } {
  const absorption = absorbHit(character.stress[kind], character.consequences, shifts, choice, inflictedBy);
  return {
    character: {
      ...character,
      stress: { ...character.stress, [kind]: absorption.track },
      consequences: absorption.slots,
    },
    absorption,
  };
}

/** Stress clears after the scene (conflict); consequences stay. */
export function clearStress(character: FateCharacter): FateCharacter {
  return {
    ...character,
    stress: { physical: clearTrack(character.stress.physical), mental: clearTrack(character.stress.mental) },
  };
}
