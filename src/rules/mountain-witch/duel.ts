/**
 * The duel (docs/rules/mountain-witch.md §1.4): a fair fight between two player characters, no trust, no
 * abilities. Each duellist rolls up to three d6 in secret; the sums decide the degree.
 *
 * The state holds both duellists' secret dice: never show it directly, show
 * `duelVisibleTo(state, userId)` instead, which hides the other side's dice until the
 * reveal. A dead character's player may still spend trust in a duel (docs/rules/mountain-witch.md §1.2).
 */
import type { DiceSource } from "../dice.js";
import { DomainError, refuse } from "../errors.js";
import type { CharacterRef } from "./conflict.js";
import type { DamageDuration, DamageEntry } from "./damage.js";
import { damageDuration, expiresOnRoll, penaltyEntries } from "./damage.js";
import type { DamageQuality, DegreeKey, SideKey, SuccessPiece } from "./degree.js";
import { compareResults, otherSide, spendSuccesses } from "./degree.js";
import type { TrustLink, TrustSpend } from "./trust.js";
import { BUY_NARRATION_COST, HELP_COST, spendTrust } from "./trust.js";

export const DUEL_MAX_DICE = 3;

export type DuelPhase = "challenged" | "declined" | "rolling" | "revealed";

export interface Duellist {
  characterId: number;
  name: string;
  playerId: string;
  /** Secret until the reveal. */
  dice: number[];
  /** True once this duellist chose to roll the next die and waits for the other (secret). */
  wantsNext: boolean;
  penalty: number;
  penaltyDamageIds: number[];
}

/** Trust spent by a dead character's player on a duel. */
export interface DuelTrustUse {
  use: TrustSpend["use"];
  spenderId: number;
  spenderPlayerId: string | null;
  /** For the panel: who spent the points (a dead character, not in the duel). */
  spenderName?: string;
  /** The duellist who gave the points (helped, betrayed, or whose duel's narration is bought). */
  targetId: number;
  amount: number;
}

export interface DuelSideResult {
  dice: number[];
  diceTotal: number;
  /** Damage penalties apply once to the sum. */
  penalty: number;
  /** Dice of dead characters' players who helped, rolled at the reveal. */
  help: { characterId: number; die: number }[];
  /** Betrayal points against the other duellist. */
  betrayal: number;
  total: number;
}

export interface DuelDamage {
  attackerSide: SideKey;
  targetId: number;
  quality: DamageQuality;
  duration: DamageDuration;
  condition: string | null;
  takenOut: "incapacitated" | "dead" | null;
}

export interface DuelResult {
  a: DuelSideResult;
  b: DuelSideResult;
  winner: SideKey | null;
  degree: DegreeKey;
  margin: number;
  successes: Record<SideKey, SuccessPiece[]>;
  remaining: Record<SideKey, SuccessPiece[]>;
  /** Who narrates: the winner's player, or a dead character's player who bought it; null on a tie. */
  narratorId: number | null;
  narratorBought: boolean;
  damage: DuelDamage[];
  /** Wounds that ended because the duellists rolled. */
  expiredDamageIds: number[];
  /** Who struck: a side, or "auto" after the third die. */
  struckBy: SideKey | "auto";
}

export interface DuelState {
  phase: DuelPhase;
  round: number;
  /** Intent to kill: a duel is a fight to the death unless the challenger says otherwise. */
  lethal: boolean;
  a: Duellist;
  b: Duellist;
  trustUses: DuelTrustUse[];
  /** Wounds that end because the duellists rolled this round (for the store to clear). */
  expiredDamageIds: number[];
  result: DuelResult | null;
}

function duellistFrom(ref: CharacterRef): Duellist {
  if (ref.kind !== "pc" || ref.playerId === null) refuse("errors.mw.duelOnlyPlayerCharacters");
  if (ref.status !== "active") refuse("errors.mw.duelNeedsActive", { name: ref.name });
  return {
    characterId: ref.id,
    name: ref.name,
    playerId: ref.playerId,
    dice: [],
    wantsNext: false,
    penalty: 0,
    penaltyDamageIds: [],
  };
}

/** A challenge (`a` challenges `b`); `b` accepts or declines. */
export function challengeDuel(input: {
  challenger: CharacterRef;
  opponent: CharacterRef;
  lethal?: boolean;
}): DuelState {
  if (input.challenger.id === input.opponent.id) refuse("errors.mw.duelSelf");
  return {
    phase: "challenged",
    round: 0,
    lethal: input.lethal ?? true,
    a: duellistFrom(input.challenger),
    b: duellistFrom(input.opponent),
    trustUses: [],
    expiredDamageIds: [],
    result: null,
  };
}

export function declineDuel(state: DuelState): DuelState {
  if (state.phase !== "challenged") refuse("errors.mw.duelNotChallenged");
  return { ...state, phase: "declined" };
}

type DamageByCharacter = Readonly<Record<number, readonly DamageEntry[]>>;

/** Starts a round: each duellist rolls the first die in secret. Penalties come from the damage at this moment. */
function startRound(state: DuelState, dice: DiceSource, damage: DamageByCharacter): DuelState {
  const fresh = (d: Duellist): Duellist => {
    const sources = penaltyEntries(damage[d.characterId] ?? []);
    return {
      ...d,
      dice: [dice.roll(6)],
      wantsNext: false,
      penalty: sources.length,
      penaltyDamageIds: sources.map((e) => e.id),
    };
  };
  const a = fresh(state.a);
  const b = fresh(state.b);
  const expiredDamageIds = [state.a, state.b].flatMap((d) =>
    (damage[d.characterId] ?? []).filter(expiresOnRoll).map((e) => e.id),
  );
  return {
    ...state,
    phase: "rolling",
    round: state.round + 1,
    a,
    b,
    trustUses: [],
    expiredDamageIds,
    result: null,
  };
}

/** The challenged duellist accepts: both roll their first die in secret. */
export function acceptDuel(state: DuelState, dice: DiceSource, damage: DamageByCharacter = {}): DuelState {
  if (state.phase !== "challenged") refuse("errors.mw.duelNotChallenged");
  return startRound(state, dice, damage);
}

/** Another round after a reveal, unless someone was taken out. */
export function nextDuelRound(state: DuelState, dice: DiceSource, damage: DamageByCharacter = {}): DuelState {
  if (state.phase !== "revealed") refuse("errors.mw.duelNotRevealed");
  if (state.result?.damage.some((d) => d.takenOut !== null)) refuse("errors.mw.duelOver");
  return startRound(state, dice, damage);
}

export function sideOf(state: DuelState, characterId: number): SideKey | null {
  if (state.a.characterId === characterId) return "a";
  if (state.b.characterId === characterId) return "b";
  return null;
}

/** The side a Discord user duels on, or null. */
export function sideOfPlayer(state: DuelState, userId: string): SideKey | null {
  if (state.a.playerId === userId) return "a";
  if (state.b.playerId === userId) return "b";
  return null;
}

function requireRolling(state: DuelState): void {
  if (state.phase === "revealed") refuse("errors.mw.duelAlreadyRevealed");
  if (state.phase !== "rolling") refuse("errors.mw.duelNotStarted");
}

/**
 * The duellist on `side` chooses to roll the next die. Only when both have chosen so
 * does each roll one more die; after the third die both strike automatically.
 */
export function rollNext(state: DuelState, side: SideKey, dice: DiceSource): DuelState {
  requireRolling(state);
  const me = state[side];
  const them = state[otherSide(side)];
  if (me.wantsNext) refuse("errors.mw.duelWaiting");
  if (!them.wantsNext) return { ...state, [side]: { ...me, wantsNext: true } };
  const roll = (d: Duellist): Duellist => ({ ...d, dice: [...d.dice, dice.roll(6)], wantsNext: false });
  // A fixed order (a, then b), so a scripted dice source reads the same whoever chose last.
  const a = roll(state.a);
  const b = roll(state.b);
  const next: DuelState = { ...state, a, b };
  return a.dice.length >= DUEL_MAX_DICE ? reveal(next, "auto", dice) : next;
}

/** The duellist on `side` strikes with what they have: all dice are revealed. */
export function strike(state: DuelState, side: SideKey, dice: DiceSource): DuelState {
  requireRolling(state);
  return reveal(state, side, dice);
}

function reveal(state: DuelState, struckBy: SideKey | "auto", dice: DiceSource): DuelState {
  const sideResult = (side: SideKey): DuelSideResult => {
    const d = state[side];
    const other = state[otherSide(side)];
    const help = state.trustUses
      .filter((u) => u.use === "help" && u.targetId === d.characterId)
      .map((u) => ({ characterId: u.spenderId, die: dice.roll(6) }));
    const betrayal = state.trustUses
      .filter((u) => u.use === "betray" && u.targetId === other.characterId)
      .reduce((sum, u) => sum + u.amount, 0);
    const diceTotal = d.dice.reduce((s, x) => s + x, 0);
    return {
      dice: d.dice,
      diceTotal,
      penalty: d.penalty,
      help,
      betrayal,
      total: diceTotal - d.penalty + help.reduce((s, h) => s + h.die, 0) + betrayal,
    };
  };
  const a = sideResult("a");
  const b = sideResult("b");
  const outcome = compareResults(a.total, b.total);
  const winnerId = outcome.winner === null ? null : state[outcome.winner].characterId;
  return {
    ...state,
    phase: "revealed",
    a: { ...state.a, wantsNext: false },
    b: { ...state.b, wantsNext: false },
    result: {
      a,
      b,
      winner: outcome.winner,
      degree: outcome.degree.key,
      margin: outcome.degree.margin,
      successes: outcome.successes,
      remaining: outcome.successes,
      narratorId: winnerId,
      narratorBought: false,
      damage: [],
      expiredDamageIds: state.expiredDamageIds,
      struckBy,
    },
  };
}

/**
 * Trust in a duel (docs/rules/mountain-witch.md §1.3/§1.2): never by the duellists, only by dead characters'
 * players. Help adds the helper's d6 (rolled at the reveal) to the helped duellist's
 * sum; betrayal adds N to the other duellist's sum; buying narration comes after the
 * reveal and before any damage.
 */
export function duelTrust(
  state: DuelState,
  input: { spender: CharacterRef; use: TrustSpend["use"]; targetId: number; points?: number },
  trust: readonly TrustLink[],
): { state: DuelState; spent: TrustSpend } {
  const { spender, use, targetId } = input;
  if (sideOf(state, spender.id) !== null) refuse("errors.mw.duellistCannotUseTrust");
  if (spender.status !== "dead") refuse("errors.mw.duelTrustOnlyDead");
  if (sideOf(state, targetId) === null) refuse("errors.mw.notInDuel");
  if (use === "narration") {
    if (state.phase !== "revealed" || state.result === null) refuse("errors.mw.duelNotRevealed");
    if (state.result.damage.length > 0) refuse("errors.mw.narrationStarted");
    if (state.result.narratorBought) refuse("errors.mw.narrationAlreadyBought");
  } else {
    requireRolling(state);
    // Without restriction (docs/rules/mountain-witch.md §1.2), but one help per duellist and round from each dead character.
    if (
      use === "help" &&
      state.trustUses.some((u) => u.use === "help" && u.spenderId === spender.id && u.targetId === targetId)
    )
      refuse("errors.mw.alreadyHelpingTarget", {
        name: spender.name,
        target: state[sideOf(state, targetId)!].name,
      });
  }
  const amount = use === "betray" ? (input.points ?? 0) : use === "help" ? HELP_COST : BUY_NARRATION_COST;
  const spent = spendTrust(trust, targetId, spender.id, amount, use);
  const record: DuelTrustUse = {
    use,
    spenderId: spender.id,
    spenderPlayerId: spender.playerId,
    spenderName: spender.name,
    targetId,
    amount,
  };
  const next: DuelState = { ...state, trustUses: [...state.trustUses, record] };
  if (use === "narration" && next.result) {
    return {
      state: { ...next, result: { ...next.result, narratorId: spender.id, narratorBought: true } },
      spent,
    };
  }
  return { state: next, spent };
}

/**
 * The winner of a round spends successes as one damage on the other duellist: damage from
 * one duel round is applied once, however many dice were rolled (docs/rules/mountain-witch.md §1.4). The loser's
 * ½ of a mixed success is narration only.
 */
export function spendDuelDamage(
  state: DuelState,
  input: { attackerSide: SideKey; quality: DamageQuality; condition?: string | null; kill?: boolean },
): { state: DuelState; damage: DuelDamage } {
  if (state.phase !== "revealed" || state.result === null) refuse("errors.mw.duelNotRevealed");
  const result = state.result;
  const target = state[otherSide(input.attackerSide)];
  if (result.damage.some((d) => d.takenOut !== null))
    refuse("errors.mw.alreadyTakenOut", { name: target.name });
  if (result.winner === null) refuse("errors.mw.duelNoWinner");
  if (result.winner !== input.attackerSide)
    refuse("errors.mw.duelDamageWinnerOnly", { name: state[result.winner].name });
  if (result.damage.length > 0) refuse("errors.mw.duelDamageOnce");
  const rest = spendSuccesses(result.remaining[input.attackerSide], input.quality);
  if (rest === null) refuse("errors.mw.notEnoughSuccesses");
  const duration = damageDuration("strong", input.quality);
  const condition = input.condition?.trim() ? input.condition.trim() : null;
  if (duration === "taken-out" && condition !== null)
    refuse("errors.mw.takenOutNoAbilityOrCondition", { name: target.name });
  if (input.kill === true && !state.lethal) refuse("errors.mw.killNotDeclared", { name: target.name });
  const kill = input.kill ?? state.lethal;
  const damage: DuelDamage = {
    attackerSide: input.attackerSide,
    targetId: target.characterId,
    quality: input.quality,
    duration: condition !== null ? "condition" : duration,
    condition,
    takenOut: duration === "taken-out" ? (kill ? "dead" : "incapacitated") : null,
  };
  return {
    state: {
      ...state,
      result: {
        ...result,
        remaining: { ...result.remaining, [input.attackerSide]: rest },
        damage: [...result.damage, damage],
      },
    },
    damage,
  };
}

export interface DuellistView {
  characterId: number;
  name: string;
  diceCount: number;
  /** Null while secret from the viewer. */
  dice: number[] | null;
  penalty: number;
  /** Whether this duellist waits for the other to roll on; null when not the viewer's own. */
  waiting: boolean | null;
}

export interface DuelView {
  phase: DuelPhase;
  round: number;
  lethal: boolean;
  /** The viewer's side, or null for anyone else (the GM included). */
  you: SideKey | null;
  a: DuellistView;
  b: DuellistView;
  /** Trust spent by dead characters' players (public). */
  trustUses: DuelTrustUse[];
  result: DuelResult | null;
}

/**
 * What `userId` may see of a duel: their own dice, and everyone's only after the
 * reveal. The app renders this, never the state itself.
 */
export function duelVisibleTo(state: DuelState, userId: string): DuelView {
  const you = sideOfPlayer(state, userId);
  const revealed = state.phase === "revealed";
  const view = (side: SideKey): DuellistView => {
    const d = state[side];
    const own = you === side;
    return {
      characterId: d.characterId,
      name: d.name,
      diceCount: d.dice.length,
      dice: revealed || own ? [...d.dice] : null,
      penalty: d.penalty,
      waiting: own ? d.wantsNext : null,
    };
  };
  return {
    phase: state.phase,
    round: state.round,
    lethal: state.lethal,
    you,
    a: view("a"),
    b: view("b"),
    trustUses: state.trustUses,
    result: state.result,
  };
}

/** One damage the round's winner may choose, with what it would do (for the reveal panel). */
export interface DuelDamageChoice {
  quality: DamageQuality;
  duration: DamageDuration;
  takenOut: DuelDamage["takenOut"];
}

/**
 * The damage choices open to the round's winner (docs/rules/mountain-witch.md §1.4): one per
 * quality its successes can buy, none once the round's one damage is dealt or on a tie.
 */
export function duelDamageChoices(state: DuelState): DuelDamageChoice[] {
  const winner = state.result?.winner;
  if (state.phase !== "revealed" || !winner) return [];
  const choices: DuelDamageChoice[] = [];
  for (const quality of ["partial", "normal", "critical", "double"] as const) {
    try {
      const { damage } = spendDuelDamage(state, { attackerSide: winner, quality });
      choices.push({ quality, duration: damage.duration, takenOut: damage.takenOut });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return choices;
}

/** Whether the duel is over: a duellist was taken out this round. */
export function duelIsOver(state: DuelState): boolean {
  return state.result?.damage.some((d) => d.takenOut !== null) ?? false;
}
