/**
 * The chapter-start trust round (docs/rules/mountain-witch.md §1.3). Each player adjusts the values their
 * character gives the others: +1 at most per target, lower by any amount, or keep.
 * In secret mode nothing is shown until every giver has submitted or the GM closes
 * the round; then all changes are revealed at once and points refill.
 */
import { refuse } from "../errors.js";
import type { TrustLink } from "./trust.js";
import { validateTrustAdjustment } from "./trust.js";

export type TrustMode = "secret" | "open";

export interface TrustProposal {
  giverId: number;
  holderId: number;
  value: number;
}

export interface TrustRoundState {
  /** The chapter that starts when the round closes. */
  chapter: number;
  mode: TrustMode;
  /** The characters who adjust (dead characters' players too). */
  giverIds: number[];
  /** Values as they were when the round opened. */
  values: TrustProposal[];
  /** Changed values only; a missing proposal keeps the value. Secret in secret mode. */
  proposals: TrustProposal[];
  submitted: number[];
  phase: "collecting" | "revealed";
}

export interface TrustChange {
  giverId: number;
  holderId: number;
  before: number;
  after: number;
}

export function openTrustRound(input: {
  chapter: number;
  mode: TrustMode;
  giverIds: readonly number[];
  links: readonly TrustLink[];
}): TrustRoundState {
  return {
    chapter: input.chapter,
    mode: input.mode,
    giverIds: [...input.giverIds],
    values: input.links
      .filter((l) => input.giverIds.includes(l.giverId))
      .map((l) => ({ giverId: l.giverId, holderId: l.holderId, value: l.value })),
    proposals: [],
    submitted: [],
    phase: "collecting",
  };
}

function oldValue(state: TrustRoundState, giverId: number, holderId: number): number {
  const found = state.values.find((v) => v.giverId === giverId && v.holderId === holderId);
  if (!found) refuse("errors.mw.trustTargetUnknown");
  return found.value;
}

function requireCollecting(state: TrustRoundState, giverId: number): void {
  if (state.phase !== "collecting") refuse("errors.mw.trustRoundClosed");
  if (!state.giverIds.includes(giverId)) refuse("errors.mw.notInTrustRound");
  if (state.submitted.includes(giverId)) refuse("errors.mw.trustAlreadySubmitted");
}

/** The giver sets the new value they give `holderId` (validated against the old value). */
export function proposeTrust(state: TrustRoundState, proposal: TrustProposal): TrustRoundState {
  requireCollecting(state, proposal.giverId);
  if (proposal.giverId === proposal.holderId) refuse("errors.mw.trustSelf");
  validateTrustAdjustment(oldValue(state, proposal.giverId, proposal.holderId), proposal.value);
  const others = state.proposals.filter(
    (p) => !(p.giverId === proposal.giverId && p.holderId === proposal.holderId),
  );
  return { ...state, proposals: [...others, { ...proposal }] };
}

export function submitTrust(state: TrustRoundState, giverId: number): TrustRoundState {
  requireCollecting(state, giverId);
  return { ...state, submitted: [...state.submitted, giverId] };
}

export function allTrustSubmitted(state: TrustRoundState): boolean {
  return state.giverIds.every((id) => state.submitted.includes(id));
}

/**
 * Closes the round: every giver has submitted, or the GM closes it (`force`). Only submitted
 * values count: «каждый записывает изменения на бумажку, а потом все одновременно показывают» —
 * a draft nobody showed is not a decision, so a giver who has not submitted keeps every value.
 * Returns every value that changed and the givers whose values stayed for want of a submission.
 */
export function revealTrustRound(
  state: TrustRoundState,
  options: { force?: boolean } = {},
): { state: TrustRoundState; changes: TrustChange[]; unsubmitted: number[] } {
  if (state.phase !== "collecting") refuse("errors.mw.trustRoundClosed");
  if (!options.force && !allTrustSubmitted(state)) refuse("errors.mw.trustRoundIncomplete");
  const unsubmitted = state.giverIds.filter((id) => !state.submitted.includes(id));
  const changes = state.proposals
    .filter((p) => state.submitted.includes(p.giverId))
    .map((p) => ({
      giverId: p.giverId,
      holderId: p.holderId,
      before: oldValue(state, p.giverId, p.holderId),
      after: p.value,
    }))
    .filter((c) => c.before !== c.after);
  return {
    state: {
      ...state,
      phase: "revealed",
      proposals: state.proposals.filter((p) => state.submitted.includes(p.giverId)),
    },
    changes,
    unsubmitted,
  };
}

/** What a viewer may see: their own row and proposals; others only whether they submitted. */
export function trustRoundVisibleTo(
  state: TrustRoundState,
  viewerCharacterId: number | null,
): {
  submitted: number[];
  pending: number[];
  own: TrustProposal[] | null;
  proposals: TrustProposal[] | null;
} {
  const own =
    viewerCharacterId !== null && state.giverIds.includes(viewerCharacterId)
      ? state.values
          .filter((v) => v.giverId === viewerCharacterId)
          .map(
            (v) =>
              state.proposals.find((p) => p.giverId === v.giverId && p.holderId === v.holderId) ?? { ...v },
          )
      : null;
  const everyone = state.mode === "open" || state.phase === "revealed";
  return {
    submitted: [...state.submitted],
    pending: state.giverIds.filter((id) => !state.submitted.includes(id)),
    own,
    proposals: everyone ? [...state.proposals] : null,
  };
}
