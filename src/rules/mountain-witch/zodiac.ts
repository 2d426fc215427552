/** Zodiac signs and the starting trust they give (docs/rules/mountain-witch.md §1.6). */
import { refuse } from "../errors.js";
import type { TrustLink } from "./trust.js";

export type ZodiacSign =
  | "rat"
  | "ox"
  | "tiger"
  | "rabbit"
  | "dragon"
  | "snake"
  | "horse"
  | "ram"
  | "monkey"
  | "rooster"
  | "dog"
  | "boar";

export const ZODIAC_SIGNS = [
  "rat",
  "ox",
  "tiger",
  "rabbit",
  "dragon",
  "snake",
  "horse",
  "ram",
  "monkey",
  "rooster",
  "dog",
  "boar",
] as const satisfies readonly ZodiacSign[];

export interface ZodiacRelations {
  allies: readonly [ZodiacSign, ZodiacSign];
  enemy: ZodiacSign;
}

export const ZODIAC: Readonly<Record<ZodiacSign, ZodiacRelations>> = {
  rat: { allies: ["dragon", "monkey"], enemy: "horse" },
  ox: { allies: ["rooster", "snake"], enemy: "ram" },
  tiger: { allies: ["dog", "horse"], enemy: "monkey" },
  rabbit: { allies: ["ram", "boar"], enemy: "rooster" },
  dragon: { allies: ["rat", "monkey"], enemy: "dog" },
  snake: { allies: ["ox", "rooster"], enemy: "boar" },
  horse: { allies: ["tiger", "dog"], enemy: "rat" },
  ram: { allies: ["rabbit", "boar"], enemy: "ox" },
  monkey: { allies: ["dragon", "rat"], enemy: "tiger" },
  rooster: { allies: ["ox", "snake"], enemy: "rabbit" },
  dog: { allies: ["tiger", "horse"], enemy: "dragon" },
  boar: { allies: ["rabbit", "ram"], enemy: "snake" },
};

export function isZodiacSign(value: string): value is ZodiacSign {
  return (ZODIAC_SIGNS as readonly string[]).includes(value);
}

export const ALLIED_TRUST = 3;
export const NEUTRAL_TRUST = 2;
export const ENEMY_TRUST = 0;

/** Starting trust between two different signs: allied 3, enemy 0, otherwise 2. */
export function initialTrust(a: ZodiacSign, b: ZodiacSign): number {
  if (a === b) refuse("errors.mw.zodiacTaken");
  if (ZODIAC[a].allies.includes(b)) return ALLIED_TRUST;
  if (ZODIAC[a].enemy === b) return ENEMY_TRUST;
  return NEUTRAL_TRUST;
}

/** A sign may be taken by one character per table. */
export function assertSignFree(sign: ZodiacSign, taken: readonly ZodiacSign[]): void {
  if (taken.includes(sign)) refuse("errors.mw.zodiacTaken");
}

/** The starting trust matrix: a link for every ordered pair of characters, points full. */
export function initialTrustFromZodiac(
  characters: readonly { characterId: number; sign: ZodiacSign }[],
): TrustLink[] {
  const seen = new Set<ZodiacSign>();
  for (const c of characters) {
    if (seen.has(c.sign)) refuse("errors.mw.zodiacTaken");
    seen.add(c.sign);
  }
  return characters.flatMap((giver) =>
    characters
      .filter((holder) => holder.characterId !== giver.characterId)
      .map((holder) => {
        const value = initialTrust(giver.sign, holder.sign);
        return { giverId: giver.characterId, holderId: holder.characterId, value, points: value };
      }),
  );
}
