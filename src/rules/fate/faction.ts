import { refuse } from "../errors.js";
import { type Aspect, addAspect, makeAspect } from "./aspects.js";
import type { Stunt } from "./character.js";
import { gainFatePoints } from "./fate-points.js";
import { echo, normaliseName } from "./skills.js";
import {
  BASE_STRESS_BOXES,
  type ConsequenceSlot,
  consequenceSlots,
  emptyTrack,
  type StressTrack,
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

export interface Faction {
  id: string;
  name: string;
  aspects: Aspect[];
  abilities: FactionAbilities;
  stunts: Stunt[];
  fatePoints: number;
  /** [decision, docs/rules/fate.md §3.5] The same two-box tracks as characters, not widened by any ability. */
  stress: { physical: StressTrack; mental: StressTrack };
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
    stress: {
      physical: emptyTrack("physical", BASE_STRESS_BOXES),
      mental: emptyTrack("mental", BASE_STRESS_BOXES),
    },
    consequences: consequenceSlots({ physique: 0, eloquence: 0 }),
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
