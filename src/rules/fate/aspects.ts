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
 * One free invoke, and whose it is (docs/rules/fate.md §3.2): `holderId` is the character who
 * earned it (who created the advantage, the opponent who profited from a failed one, whoever
 * inflicted a consequence); `side` the side they fight on, whose members (the holder's allies)
 * may spend it too. Neither set — a free invoke the GM handed out, or one stored before sides
 * were kept — anyone at the table may spend.
 */
export interface FreeInvoke {
  holderId: string | null;
  side?: string | null;
}

/** Who wants to spend a free invoke: a character and the side they are on. */
export interface Invoker {
  id: string;
  side: string | null;
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
  {
    freeInvokes = 0,
    holderId = null,
    side = null,
  }: { freeInvokes?: number; holderId?: string | null; side?: string | null } = {},
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
  return { name: trimmed, kind, freeInvokes: Array.from({ length: count }, () => ({ holderId, side })) };
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

/** Whether `invoker` may spend this free invoke: it is theirs, their side's, or nobody's in particular. */
export function mayUseFreeInvoke(invoke: FreeInvoke, invoker: Invoker | string): boolean {
  const who: Invoker = typeof invoker === "string" ? { id: invoker, side: null } : invoker;
  const side = invoke.side ?? null;
  if (invoke.holderId === null && side === null) return true;
  if (invoke.holderId !== null && invoke.holderId === who.id) return true;
  return side !== null && who.side !== null && side === who.side;
}

/** Free invokes on `aspect` that `invoker` may use (docs/rules/fate.md §3.2). */
export function usableFreeInvokes(aspect: Aspect, invoker: Invoker | string): number {
  return aspect.freeInvokes.filter((f) => mayUseFreeInvoke(f, invoker)).length;
}

/**
 * Uses one free invoke of `aspect` for `invoker`: one they hold themselves first, then one of
 * their side's, then an unowned one. Each free invoke can be spent once: it is removed. One that
 * belongs to another side is refused.
 */
export function spendFreeInvoke<A extends Aspect>(aspect: A, invoker: Invoker | string): A {
  const who: Invoker = typeof invoker === "string" ? { id: invoker, side: null } : invoker;
  const order = [
    (f: FreeInvoke) => f.holderId !== null && f.holderId === who.id,
    (f: FreeInvoke) => f.side != null && who.side !== null && f.side === who.side,
    (f: FreeInvoke) => f.holderId === null && (f.side ?? null) === null,
  ];
  let index = -1;
  for (const test of order) {
    index = aspect.freeInvokes.findIndex(test);
    if (index >= 0) break;
  }
  if (index < 0) {
    if (aspect.freeInvokes.length > 0)
      return refuse("errors.fate.freeInvokeNotYours", { aspect: aspect.name });
    return refuse("errors.fate.noFreeInvokes", { aspect: aspect.name });
  }
  return { ...aspect, freeInvokes: aspect.freeInvokes.filter((_, i) => i !== index) };
}
