import { refuse } from "../errors.js";
import { echo, normaliseName } from "./skills.js";

/** The five aspects every character has (docs/rules/fate.md §3.2). */
export const CHARACTER_ASPECT_KINDS = ["ambition", "belief", "connections", "flaw", "talent"] as const;
export type CharacterAspectKind = (typeof CHARACTER_ASPECT_KINDS)[number];

/** Every kind of aspect the table tracks; names live in the catalogue under `fate.aspectKind.<kind>`. */
export const ASPECT_KINDS = [
  ...CHARACTER_ASPECT_KINDS,
  "situational",
  "boost",
  "consequence",
  "faction",
] as const;
export type AspectKind = (typeof ASPECT_KINDS)[number];

/**
 * One free invoke. `holderId` is the character who may use it (the opponent who profited from a
 * failed advantage, the one who inflicted a consequence); null means whoever created it and
 * their allies — in practice anyone at the table.
 */
export interface FreeInvoke {
  holderId: string | null;
}

/** An aspect: always true in the fiction, invocable for +2, a reroll or +2 passive opposition. */
export interface Aspect {
  name: string;
  kind: AspectKind;
  freeInvokes: FreeInvoke[];
}

export const MAX_ASPECT_NAME = 100;
/** More free invokes on one aspect than this is a typo, not a plan. */
export const MAX_FREE_INVOKES = 5;

export function makeAspect(
  name: string,
  kind: AspectKind,
  { freeInvokes = 0, holderId = null }: { freeInvokes?: number; holderId?: string | null } = {},
): Aspect {
  const trimmed = name.trim().replace(/\s+/g, " ");
  if (trimmed.length === 0 || trimmed.length > MAX_ASPECT_NAME) {
    return refuse("errors.fate.aspectNameInvalid", { max: MAX_ASPECT_NAME });
  }
  // A boost is one free use and gone: that is what makes it a boost.
  const count = kind === "boost" ? 1 : freeInvokes;
  if (!Number.isInteger(count) || count < 0 || count > MAX_FREE_INVOKES) {
    return refuse("errors.fate.freeInvokesInvalid", { max: MAX_FREE_INVOKES });
  }
  return { name: trimmed, kind, freeInvokes: Array.from({ length: count }, () => ({ holderId })) };
}

export function sameAspectName(a: string, b: string): boolean {
  return normaliseName(a) === normaliseName(b);
}

/** The aspect called `name` (any case) among `aspects`, or a refusal naming it. */
export function findAspect<A extends Aspect>(aspects: readonly A[], name: string): A {
  const found = aspects.find((a) => sameAspectName(a.name, name));
  return found ?? refuse("errors.fate.unknownAspect", { name: echo(name) });
}

/** Adds an aspect, refusing a second one with the same name in the same place. */
export function addAspect<A extends Aspect>(aspects: readonly A[], aspect: A): A[] {
  if (aspects.some((a) => sameAspectName(a.name, aspect.name))) {
    return refuse("errors.fate.aspectExists", { name: aspect.name });
  }
  return [...aspects, aspect];
}

/** Free invokes on `aspect` that `invokerId` may use: their own and the unowned ones. */
export function usableFreeInvokes(aspect: Aspect, invokerId: string): number {
  return aspect.freeInvokes.filter((f) => f.holderId === null || f.holderId === invokerId).length;
}

/**
 * Uses one free invoke of `aspect` for `invokerId`: one held by the invoker first (it is
 * theirs alone), then an unowned one. Each free invoke can be spent once: it is removed.
 */
export function spendFreeInvoke<A extends Aspect>(aspect: A, invokerId: string): A {
  let index = aspect.freeInvokes.findIndex((f) => f.holderId === invokerId);
  if (index < 0) index = aspect.freeInvokes.findIndex((f) => f.holderId === null);
  if (index < 0) return refuse("errors.fate.noFreeInvokes", { aspect: aspect.name });
  return { ...aspect, freeInvokes: aspect.freeInvokes.filter((_, i) => i !== index) };
}
