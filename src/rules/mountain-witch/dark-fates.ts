/**
 * Dark fates (docs/rules/mountain-witch.md §1.5): dealt at random from a deck of six without repeats, seen
 * only by the owning player (not even by the GM). A player may put theirs back and
 * draw once more from the rest; once every player has a final fate, the undealt fates
 * are shown to everyone. Alternatively the table lets players choose (repeats allowed).
 */
import type { DiceSource } from "../dice.js";
import { refuse } from "../errors.js";

export type DarkFate =
  | "tragic-love"
  | "oaths-of-the-past"
  | "revenge"
  | "true-motives"
  | "unholy-pact"
  | "worst-fear";

export const DARK_FATES = [
  "tragic-love",
  "oaths-of-the-past",
  "revenge",
  "true-motives",
  "unholy-pact",
  "worst-fear",
] as const satisfies readonly DarkFate[];

export function isDarkFate(value: string): value is DarkFate {
  return (DARK_FATES as readonly string[]).includes(value);
}

export type FateMode = "deal" | "choose";

export interface FateHand {
  characterId: number;
  fate: DarkFate;
  /** Put back and drawn again (allowed once). */
  redrawn: boolean;
  /** The player keeps this fate (after a redraw, or by choosing to keep it). */
  final: boolean;
  /** The owner showed it to the table; from then on it is public. */
  revealed: boolean;
}

export interface FateDeckState {
  mode: FateMode;
  /** Cards still in the deck (deal mode). Secret until every player's fate is final. */
  deck: DarkFate[];
  hands: FateHand[];
}

export function openFateDeck(mode: FateMode = "deal"): FateDeckState {
  return { mode, deck: [...DARK_FATES], hands: [] };
}

function draw(deck: readonly DarkFate[], dice: DiceSource): { card: DarkFate; deck: DarkFate[] } {
  if (deck.length === 0) refuse("errors.mw.fateDeckEmpty");
  const i = dice.roll(deck.length) - 1;
  return { card: deck[i]!, deck: deck.filter((_, j) => j !== i) };
}

function handOf(state: FateDeckState, characterId: number): FateHand | null {
  return state.hands.find((h) => h.characterId === characterId) ?? null;
}

function requireHand(state: FateDeckState, characterId: number): FateHand {
  const hand = handOf(state, characterId);
  if (!hand) refuse("errors.mw.fateNotDealt");
  return hand;
}

function requireMode(state: FateDeckState, mode: FateMode): void {
  if (state.mode !== mode) refuse(mode === "deal" ? "errors.mw.fateChooseMode" : "errors.mw.fateDealMode");
}

/** Deals one fate to each character who has none yet, in the order given. */
export function dealFates(
  state: FateDeckState,
  characterIds: readonly number[],
  dice: DiceSource,
): FateDeckState {
  requireMode(state, "deal");
  let deck = state.deck;
  const hands = [...state.hands];
  for (const characterId of characterIds) {
    if (hands.some((h) => h.characterId === characterId)) refuse("errors.mw.fateAlreadyDealt");
    const drawn = draw(deck, dice);
    deck = drawn.deck;
    hands.push({ characterId, fate: drawn.card, redrawn: false, final: false, revealed: false });
  }
  return { ...state, deck, hands };
}

/**
 * Put the fate back and draw once more from the rest: the card put back is not
 * among the cards of this draw, and returns to the deck afterwards.
 */
export function redrawFate(state: FateDeckState, characterId: number, dice: DiceSource): FateDeckState {
  requireMode(state, "deal");
  const hand = requireHand(state, characterId);
  if (hand.redrawn) refuse("errors.mw.fateAlreadyRedrawn");
  if (hand.final) refuse("errors.mw.fateFinal");
  const drawn = draw(state.deck, dice);
  return {
    ...state,
    deck: [...drawn.deck, hand.fate],
    hands: state.hands.map((h) =>
      h.characterId === characterId ? { ...h, fate: drawn.card, redrawn: true, final: true } : h,
    ),
  };
}

/** The player keeps the fate they were dealt. */
export function keepFate(state: FateDeckState, characterId: number): FateDeckState {
  const hand = requireHand(state, characterId);
  if (hand.final) refuse("errors.mw.fateFinal");
  return {
    ...state,
    hands: state.hands.map((h) => (h.characterId === characterId ? { ...h, final: true } : h)),
  };
}

/** Choose mode: the player picks any fate (repeats allowed); it is final at once. */
export function chooseFate(state: FateDeckState, characterId: number, fate: DarkFate): FateDeckState {
  requireMode(state, "choose");
  if (!isDarkFate(fate)) refuse("errors.mw.fateUnknown");
  const hand: FateHand = { characterId, fate, redrawn: false, final: true, revealed: false };
  const exists = handOf(state, characterId);
  if (exists?.revealed) refuse("errors.mw.fateFinal");
  return {
    ...state,
    hands: exists
      ? state.hands.map((h) => (h.characterId === characterId ? hand : h))
      : [...state.hands, hand],
  };
}

/** The owner shows their fate to the table. */
export function revealFate(state: FateDeckState, characterId: number): FateDeckState {
  const hand = requireHand(state, characterId);
  if (hand.revealed) refuse("errors.mw.fateAlreadyRevealed");
  return {
    ...state,
    hands: state.hands.map((h) =>
      h.characterId === characterId ? { ...h, final: true, revealed: true } : h,
    ),
  };
}

/** True once each of the given players' characters holds a final fate. */
export function allFatesFinal(state: FateDeckState, characterIds: readonly number[]): boolean {
  return characterIds.every((id) => handOf(state, id)?.final === true);
}

/** The undealt fates, shown to everyone once every player's fate is final (deal mode only). */
export function undealtFates(state: FateDeckState, characterIds: readonly number[]): DarkFate[] {
  requireMode(state, "deal");
  if (!allFatesFinal(state, characterIds)) refuse("errors.mw.fatesNotFinal");
  return DARK_FATES.filter((f) => state.deck.includes(f));
}

/** The fate `viewerCharacterId`'s player may see of `characterId`: their own, or a revealed one. */
export function fateVisibleTo(
  state: FateDeckState,
  characterId: number,
  viewerCharacterId: number | null,
): DarkFate | null {
  const hand = handOf(state, characterId);
  if (!hand) return null;
  return hand.revealed || hand.characterId === viewerCharacterId ? hand.fate : null;
}
