/**
 * Damage (docs/rules/mountain-witch.md §1.2): how long a spent success lasts on a target of a given strength,
 * and the −1 penalties that active damage puts on a character's die.
 */
import type { DamageQuality } from "./degree.js";

/** Opponent strength. Player characters are always strong. */
export type Strength = "weak" | "medium" | "strong";
export const STRENGTHS: readonly Strength[] = ["weak", "medium", "strong"];

/**
 * How long a damage entry lasts. `next-roll` is a wound (until the character's next
 * roll), `chapter` until the chapter ends, `condition` until the GM clears it once a
 * stated condition is met; `taken-out` is not an entry but the character leaving play.
 */
export type DamageDuration = "next-roll" | "chapter" | "permanent" | "condition" | "taken-out";
export const DAMAGE_DURATIONS: readonly DamageDuration[] = [
  "next-roll",
  "chapter",
  "permanent",
  "condition",
  "taken-out",
];

const DURATION_BY_STRENGTH: Record<Strength, Record<DamageQuality, DamageDuration>> = {
  strong: { partial: "next-roll", normal: "chapter", critical: "permanent", double: "taken-out" },
  medium: { partial: "next-roll", normal: "chapter", critical: "taken-out", double: "taken-out" },
  weak: { partial: "chapter", normal: "taken-out", critical: "taken-out", double: "taken-out" },
};

/** The duration of damage of `quality` on a target of `strength` (more than enough takes out). */
export function damageDuration(strength: Strength, quality: DamageQuality): DamageDuration {
  return DURATION_BY_STRENGTH[strength][quality];
}

/** One active damage entry on a character, as stored (ids come from the store). */
export interface DamageEntry {
  id: number;
  characterId: number;
  duration: Exclude<DamageDuration, "taken-out">;
  /** Ability damage: that ability is unusable for the duration, and there is no −1. */
  ability: string | null;
  /** Conditional damage: what clears it (poison → antidote). */
  condition: string | null;
}

/** The damage entries that put −1 on the character's die (ability damage does not). */
export function penaltyEntries(entries: readonly DamageEntry[]): DamageEntry[] {
  return entries.filter((e) => e.ability === null);
}

/** The total penalty active damage puts on a character's die. */
export function damagePenalty(entries: readonly DamageEntry[]): number {
  return penaltyEntries(entries).length;
}

/** The abilities the character cannot use now. */
export function unusableAbilities(entries: readonly DamageEntry[]): string[] {
  return entries.flatMap((e) => (e.ability === null ? [] : [e.ability]));
}

/** Entries that end when their character rolls (wounds, and abilities lost until the next roll). */
export function expiresOnRoll(entry: DamageEntry): boolean {
  return entry.duration === "next-roll";
}

/** Entries that end when a new chapter starts. */
export function expiresAtChapterEnd(entry: DamageEntry): boolean {
  return entry.duration === "chapter";
}

/** Character status as the rules see it. */
export type CharacterStatus = "active" | "incapacitated" | "dead";
