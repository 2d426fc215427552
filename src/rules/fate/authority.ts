import { refuse } from "../errors.js";

/** Who is acting: a Discord user, and whether they are this table's GM. */
export interface Actor {
  userId: string;
  isGm: boolean;
}

/** A character as far as permissions go: its player, or null for an NPC (the GM's). */
export interface Owned {
  name: string;
  ownerId: string | null;
}

export function mayActFor(actor: Actor, character: Owned): boolean {
  return actor.isGm || (character.ownerId !== null && character.ownerId === actor.userId);
}

/** Players act only for their own characters; the GM acts for anyone (PRODUCT, "What every user can expect"). */
export function assertMayActFor(actor: Actor, character: Owned): void {
  if (!mayActFor(actor, character)) refuse("errors.fate.notYourCharacter", { name: character.name });
}

export function assertGm(actor: Actor): void {
  if (!actor.isGm) refuse("errors.fate.gmOnly");
}
