/**
 * The negotiation before a challenge (docs/rules/beast-hunters.md §2.3): three phases, the
 * pre-activations each may make, and how it ended (the GM conceded or went to dice).
 *
 * - Phase 1 (plan): nothing is pre-activated.
 * - Phase 2 (discussion): each hunter in the negotiation may pre-activate one of their traits.
 * - Phase 3 (problems): the hunters still may (one trait each in the whole negotiation), and the
 *   GM pre-activates one trait of their side.
 * - "каждая черта может быть пред-активирована лишь один раз за время приключения": a hunter's
 *   trait pre-activated once in the adventure is refused the next time.
 */
import { refuse } from "../errors.js";
import { sameName } from "./challenge-state.js";
import type { Phase, Sphere, TraitRole } from "./types.js";

/** Who pre-activates: a hunter (character id) or the GM's side. */
export const GM_SIDE = "gm";

export interface NegotiationHunter {
  id: string;
  name: string;
  /** The hunter's traits (name and the sphere they belong to), to offer and check. */
  traits: { name: string; sphere: Sphere; value: number }[];
}

export interface NegotiatedPreActivation {
  /** A hunter's character id, or `gm`. */
  by: string;
  trait: string;
  as: TraitRole;
  phase: Phase;
}

/**
 * `abandoned`: a new adventure began before the GM conceded or went to dice; `givenUp`: every
 * hunter in it gave up (nothing is spent); `dropped`: the GM dropped it (opened by mistake; free).
 */
export type NegotiationEnd = "concession" | "dice" | "abandoned" | "givenUp" | "dropped";

export interface NegotiationState {
  version: 1;
  name: string | null;
  sphere: Sphere;
  phase: Phase;
  climax: boolean;
  hunters: NegotiationHunter[];
  pre: NegotiatedPreActivation[];
  ended: { how: NegotiationEnd; phase: Phase; challengeFlowId: number | null } | null;
  /** What the GM typed in the challenge form, kept when a field was refused (field → text). */
  draft: Record<string, string>;
  /** Hunters who gave up in this negotiation (no longer in `hunters`). */
  gaveUp?: NegotiationHunter[];
}

export function newNegotiation(input: {
  name: string | null;
  sphere: Sphere;
  phase?: Phase;
  climax?: boolean;
  hunters: NegotiationHunter[];
}): NegotiationState {
  if (input.hunters.length === 0) refuse("errors.bh.noHunters");
  return {
    version: 1,
    name: input.name,
    sphere: input.sphere,
    phase: input.phase ?? 1,
    climax: input.climax ?? false,
    hunters: input.hunters,
    pre: [],
    ended: null,
    draft: {},
  };
}

/** Reads the stored JSON (fields added later get their defaults). */
export function asNegotiation(json: unknown): NegotiationState {
  const raw = json as NegotiationState;
  return { ...raw, pre: raw.pre ?? [], draft: raw.draft ?? {}, ended: raw.ended ?? null };
}

function requireOpen(state: NegotiationState): void {
  if (state.ended) refuse("errors.bh.negotiationOver");
}

/** The GM moves on to the next phase (never back). */
export function nextPhase(state: NegotiationState, to?: Phase): NegotiationState {
  requireOpen(state);
  const target = to ?? ((state.phase + 1) as Phase);
  if (target <= state.phase || target > 3) refuse("errors.bh.phaseForwardOnly", { phase: state.phase });
  return { ...state, phase: target };
}

/**
 * A pre-activation in the negotiation. `alreadyThisAdventure` are the hunter's traits
 * pre-activated earlier in the adventure (from the sheet).
 */
export function preActivate(
  state: NegotiationState,
  pre: { by: string; trait: string; as: TraitRole },
  alreadyThisAdventure: readonly string[] = [],
): { state: NegotiationState; added: NegotiatedPreActivation } {
  requireOpen(state);
  if (pre.as !== "attack" && pre.as !== "defence") refuse("errors.bh.badRole", { role: String(pre.as) });
  if (pre.by === GM_SIDE) {
    // Phase 3: "Ведущему разрешается активировать одну черту со своей стороны конфликта".
    if (state.phase !== 3) refuse("errors.bh.preActivationNotAllowed", { phase: state.phase });
    if (state.pre.some((p) => p.by === GM_SIDE))
      refuse("errors.bh.tooManyPreActivations", { name: "GM", max: 1 });
    const added: NegotiatedPreActivation = { by: GM_SIDE, trait: pre.trait.trim(), as: pre.as, phase: 3 };
    return { state: { ...state, pre: [...state.pre, added] }, added };
  }
  if (state.phase === 1) refuse("errors.bh.preActivationNotAllowed", { phase: 1 });
  const hunter = state.hunters.find((h) => h.id === pre.by);
  if (!hunter) refuse("errors.bh.notInNegotiation", { name: pre.by });
  const trait = hunter.traits.find((t) => sameName(t.name, pre.trait));
  if (!trait) refuse("errors.bh.unknownTrait", { name: hunter.name, trait: pre.trait.slice(0, 64) });
  if (state.pre.some((p) => p.by === hunter.id))
    refuse("errors.bh.tooManyPreActivations", { name: hunter.name, max: 1 });
  // "каждая черта может быть пред-активирована лишь один раз за время приключения"
  if (alreadyThisAdventure.some((n) => sameName(n, trait.name)))
    refuse("errors.bh.alreadyPreActivated", { trait: trait.name });
  const added: NegotiatedPreActivation = { by: hunter.id, trait: trait.name, as: pre.as, phase: state.phase };
  return { state: { ...state, pre: [...state.pre, added] }, added };
}

/**
 * A hunter gives up ("Если охотник не заинтересован, он может в любой момент сдаться"): they leave
 * the negotiation and its pre-activation with them; when nobody is left it ends, and "если
 * охотник сдаётся, то ведущий ничего не тратит".
 */
export function giveUpNegotiation(state: NegotiationState, hunterId: string): NegotiationState {
  requireOpen(state);
  const hunter = state.hunters.find((h) => h.id === hunterId);
  if (!hunter) refuse("errors.bh.notInNegotiation", { name: hunterId });
  const next: NegotiationState = {
    ...state,
    hunters: state.hunters.filter((h) => h.id !== hunterId),
    pre: state.pre.filter((p) => p.by !== hunterId),
    gaveUp: [...(state.gaveUp ?? []), hunter],
  };
  return next.hunters.length > 0 ? next : endNegotiation(next, "givenUp");
}

/** The negotiation ends: the GM conceded in this phase, or went to dice (the challenge it became). */
export function endNegotiation(
  state: NegotiationState,
  how: NegotiationEnd,
  challengeFlowId: number | null = null,
): NegotiationState {
  requireOpen(state);
  return { ...state, ended: { how, phase: state.phase, challengeFlowId }, draft: {} };
}
