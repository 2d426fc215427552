import type { MessageKey } from "../../i18n/types.js";
/**
 * A Mountain Witch conflict (docs/rules/mountain-witch.md §1.1–1.3) as a pure state machine over a JSON object.
 *
 * Model (see README.md in this folder):
 * - One conflict state is one two-sided conflict, sides `a` and `b`. A group conflict
 *   that splits into several simultaneous two-sided conflicts is several states (use
 *   `groupIntoConflicts` to form them from declared opponents).
 * - `opposed` mode: every participant rolls 1d6 (so the GM rolls once per opposing
 *   character or obstacle); a side's result is its best entry. One pairing, id 0.
 * - `common-danger` mode: side `b` is one danger that rolls once; every entry on side
 *   `a` (a character plus its helpers) is compared with it on its own. One pairing per
 *   entry, whose id is the entry's lead character id.
 * - An *entry* is a character who rolls for itself plus any helpers: the helpers' dice
 *   are added to its die and the pair counts as one roll.
 *
 * Phases: `open` (join, assist, betray, declare kill intent, trade) → `rolled` (trade on
 * a tie, buy narration, spend damage) → `closed`.
 */
import type { DiceSource } from "../dice.js";
import { DomainError, refuse } from "../errors.js";
import type { CharacterStatus, DamageDuration, DamageEntry, Strength } from "./damage.js";
import { damageDuration, expiresOnRoll, penaltyEntries } from "./damage.js";
import type { DamageQuality, DegreeKey, SideKey, SuccessPiece, TradeLevel } from "./degree.js";
import { compareResults, spendSuccesses, TRADE_LEVELS, tradeSuccesses } from "./degree.js";
import type { TrustLink, TrustSpend } from "./trust.js";
import { BUY_NARRATION_COST, HELP_COST, spendTrust } from "./trust.js";

export type ConflictMode = "opposed" | "common-danger";
export type ConflictPhase = "open" | "rolled" | "closed";
export type ParticipantKind = "pc" | "npc";

/** What the rules need to know about a character that enters a conflict. */
export interface CharacterRef {
  id: number;
  name: string;
  kind: ParticipantKind;
  /** The player's Discord user id; null for the GM's characters and obstacles. */
  playerId: string | null;
  strength: Strength;
  status: CharacterStatus;
}

export interface Participant {
  /** The character id; obstacles added only for this conflict get negative ids. */
  id: number;
  name: string;
  /** A message key naming the participant instead of `name` (the "incapacity" obstacle). */
  nameKey: MessageKey | null;
  kind: ParticipantKind;
  playerId: string | null;
  strength: Strength;
  side: SideKey;
  /** A dead character's player may still help with trust (docs/rules/mountain-witch.md §1.2). */
  dead: boolean;
  /** The character whose die this one's die is added to, or null when rolling for itself. */
  helps: number | null;
}

/**
 * Help by a dead character's player (docs/rules/mountain-witch.md §1.2): no presence, no participation, no limit
 * on how many characters they help; their die carries no damage penalty.
 */
export interface DeadHelp {
  helperId: number;
  helperName: string;
  targetId: number;
}

export interface Betrayal {
  betrayerId: number;
  betrayedId: number;
  points: number;
}

export interface KillIntent {
  byId: number;
  targetId: number;
}

export interface Trade {
  declarerId: number;
  level: TradeLevel;
  beforeRoll: boolean;
}

/** A spending of trust recorded in the conflict (the before/after points go to the holder only). */
export interface TrustUseRecord {
  use: TrustSpend["use"];
  giverId: number;
  holderId: number;
  amount: number;
}

export interface DieRoll {
  characterId: number;
  die: number;
  /** −1 per active damage entry (docs/rules/mountain-witch.md §1.1). */
  penalty: number;
  /** The damage entries behind the penalty. */
  penaltyDamageIds: number[];
  /** die − penalty; may be negative. */
  value: number;
}

export interface EntryResult {
  leadId: number;
  lead: DieRoll;
  /** Each helper's roll and what it adds (a negative value adds 0); `dead` for a dead character's help. */
  helpers: { roll: DieRoll; added: number; dead?: boolean }[];
  /** Betrayal points of this entry's members that count: only those against the character compared with. */
  betrayalBonus: number;
  total: number;
}

export interface SideResult {
  side: SideKey;
  entries: EntryResult[];
  /** Betrayal points spent from outside the conflict (dead characters) against the character compared with. */
  betrayalBonus: number;
  result: number;
}

export interface RollOffDie {
  characterId: number;
  die: number;
}

export type NarrationReason = "highest" | "roll-off" | "trade" | "bought";

export interface Narration {
  /** Who narrates, and the side they narrate for (null for a bought narration). */
  characterId: number;
  playerId: string | null;
  side: SideKey | null;
  reason: NarrationReason;
  /** Top entries of the winning side that tied (including the narrator). */
  tiedIds: number[];
  /** Roll-off rounds between players whose characters tied. */
  rollOff: RollOffDie[][];
}

export interface InflictedDamage {
  pairingId: number;
  attackerSide: SideKey;
  targetId: number;
  quality: DamageQuality;
  duration: DamageDuration;
  ability: string | null;
  condition: string | null;
  /** Set when the damage takes the target out. */
  takenOut: "incapacitated" | "dead" | null;
  /** Set on the damage a group trade costs its declarer, applied by the rules (not narration). */
  tradeCost?: boolean;
}

export interface Pairing {
  /** 0 in opposed mode; in common-danger mode the id of the entry's lead character. */
  id: number;
  /** Null when a trade was declared before the roll (no dice). */
  a: SideResult | null;
  b: SideResult | null;
  winner: SideKey | null;
  degree: DegreeKey;
  margin: number;
  successes: Record<SideKey, SuccessPiece[]>;
  remaining: Record<SideKey, SuccessPiece[]>;
  trade: Trade | null;
  narration: Narration | null;
  damage: InflictedDamage[];
}

export interface ConflictState {
  mode: ConflictMode;
  title: string | null;
  phase: ConflictPhase;
  /** Set for a recovery attempt: the incapacitated character (docs/rules/mountain-witch.md §1.2). */
  recoveryOf: number | null;
  participants: Participant[];
  betrayals: Betrayal[];
  /** Help by dead characters' players (absent in states stored before it existed). */
  deadHelps?: DeadHelp[];
  killIntents: KillIntent[];
  trades: Trade[];
  trustUses: TrustUseRecord[];
  nextObstacleId: number;
  /** Every die rolled for the conflict, in rolling order (roll-offs are in the narrations). */
  dice: DieRoll[];
  pairings: Pairing[];
  /** Damage entries that ended because their character rolled (wounds). */
  expiredDamageIds: number[];
}

export interface ConflictRollResult {
  dice: DieRoll[];
  pairings: Pairing[];
  expiredDamageIds: number[];
  /** The damage trades declared before the roll cost their declarers (the store records it). */
  tradeCosts: InflictedDamage[];
}

export const INCAPACITY_OBSTACLE_KEY = "mw.obstacle.incapacity";

export function openConflict(input: { mode?: ConflictMode; title?: string | null } = {}): ConflictState {
  return {
    mode: input.mode ?? "opposed",
    title: input.title ?? null,
    phase: "open",
    recoveryOf: null,
    participants: [],
    betrayals: [],
    deadHelps: [],
    killIntents: [],
    trades: [],
    trustUses: [],
    nextObstacleId: -1,
    dice: [],
    pairings: [],
    expiredDamageIds: [],
  };
}

/**
 * A recovery attempt (docs/rules/mountain-witch.md §1.2): the incapacitated character against "incapacity", a
 * weak opponent that must be taken out. Others may join and help as usual.
 */
export function openRecoveryConflict(character: CharacterRef): ConflictState {
  if (character.status !== "incapacitated") refuse("errors.mw.notIncapacitated");
  const state = openConflict({ mode: "opposed", title: null });
  return {
    ...state,
    recoveryOf: character.id,
    nextObstacleId: -2,
    participants: [
      participantFrom({ ...character, status: "active" }, "a"),
      {
        id: -1,
        name: "",
        nameKey: INCAPACITY_OBSTACLE_KEY,
        kind: "npc",
        playerId: null,
        strength: "weak",
        side: "b",
        dead: false,
        helps: null,
      },
    ],
  };
}

/** A recovery attempt succeeds when incapacity was taken out. */
export function recoveryOutcome(state: ConflictState): "recovered" | "failed" {
  if (state.recoveryOf === null) refuse("errors.mw.notRecoveryConflict");
  const obstacle = state.participants.find((p) => p.nameKey === INCAPACITY_OBSTACLE_KEY);
  const takenOut = state.pairings.some((pr) =>
    pr.damage.some((d) => d.targetId === obstacle?.id && d.takenOut !== null),
  );
  return takenOut ? "recovered" : "failed";
}

function participantFrom(ref: CharacterRef, side: SideKey, helps: number | null = null): Participant {
  return {
    id: ref.id,
    name: ref.name,
    nameKey: null,
    kind: ref.kind,
    playerId: ref.kind === "pc" ? ref.playerId : null,
    // Player characters are always strong.
    strength: ref.kind === "pc" ? "strong" : ref.strength,
    side,
    dead: ref.status === "dead",
    helps,
  };
}

function requirePhase(state: ConflictState, phase: ConflictPhase): void {
  if (state.phase === phase) return;
  if (state.phase === "closed") refuse("errors.mw.conflictClosed");
  if (phase === "open") refuse("errors.mw.conflictAlreadyRolled");
  refuse("errors.mw.conflictNotRolled");
}

export function findParticipant(state: ConflictState, id: number): Participant | null {
  return state.participants.find((p) => p.id === id) ?? null;
}

function requireParticipant(state: ConflictState, id: number): Participant {
  const p = findParticipant(state, id);
  if (!p) refuse("errors.mw.notInConflict");
  return p;
}

function isBetrayed(state: ConflictState, characterId: number): boolean {
  return state.betrayals.some((b) => b.betrayedId === characterId);
}

function assertMayEnter(ref: CharacterRef): void {
  if (ref.status === "incapacitated") refuse("errors.mw.characterIncapacitated", { name: ref.name });
}

/** A character joins side `side` and rolls for itself. */
export function addParticipant(state: ConflictState, ref: CharacterRef, side: SideKey): ConflictState {
  requirePhase(state, "open");
  if (findParticipant(state, ref.id)) refuse("errors.mw.alreadyInConflict", { name: ref.name });
  assertMayEnter(ref);
  if (ref.status === "dead") refuse("errors.mw.characterDead", { name: ref.name });
  if (state.mode === "common-danger") {
    if (side === "b" && state.participants.some((p) => p.side === "b")) refuse("errors.mw.dangerAlreadySet");
    if (side === "b" && ref.kind === "pc") refuse("errors.mw.dangerMustBeGm");
  }
  return { ...state, participants: [...state.participants, participantFrom(ref, side)] };
}

/** The GM adds an opponent or obstacle that exists only in this conflict. */
export function addObstacle(
  state: ConflictState,
  input: { name: string; strength: Strength; side?: SideKey },
): { state: ConflictState; id: number } {
  const id = state.nextObstacleId;
  const ref: CharacterRef = {
    id,
    name: input.name,
    kind: "npc",
    playerId: null,
    strength: input.strength,
    status: "active",
  };
  const next = addParticipant({ ...state, nextObstacleId: id - 1 }, ref, input.side ?? "b");
  return { state: next, id };
}

/**
 * A participant leaves the conflict before the roll (docs/rules/mountain-witch.md §1.1: one
 * may sit a round out, and change one's mind until the dice are thrown). The trust spent by
 * them, on them or against them in this conflict comes back (`refunds`): their help and
 * betrayals, the help given to them and the betrayals of them. Those who helped them roll for
 * themselves again; their kill intents and trade go with them.
 */
export function leaveConflict(
  state: ConflictState,
  id: number,
): { state: ConflictState; refunds: TrustUseRecord[] } {
  requirePhase(state, "open");
  const p = requireParticipant(state, id);
  const involves = (r: TrustUseRecord) =>
    (r.use === "help" || r.use === "betray") && (r.holderId === id || r.giverId === id);
  const refunds = state.trustUses.filter(involves);
  return {
    state: {
      ...state,
      participants: state.participants
        .filter((q) => q.id !== p.id)
        .map((q) => (q.helps === p.id ? { ...q, helps: null } : q)),
      deadHelps: deadHelpsOf(state).filter((h) => h.targetId !== id),
      betrayals: state.betrayals.filter((b) => b.betrayerId !== id && b.betrayedId !== id),
      killIntents: state.killIntents.filter((k) => k.byId !== id && k.targetId !== id),
      trades: state.trades.filter((t) => t.declarerId !== id),
      trustUses: state.trustUses.filter((r) => !involves(r)),
    },
    refunds,
  };
}

/**
 * Help (docs/rules/mountain-witch.md §1.3): the helper spends 1 point given to the helper by the helped
 * character; the helper's die will be added to the helped character's die. A dead
 * character's player may help too.
 */
export function assist(
  state: ConflictState,
  input: { helper: CharacterRef; targetId: number },
  trust: readonly TrustLink[],
): { state: ConflictState; spent: TrustSpend } {
  requirePhase(state, "open");
  const { helper, targetId } = input;
  if (helper.id === targetId) refuse("errors.mw.cannotHelpSelf");
  const target = requireParticipant(state, targetId);
  if (helper.kind !== "pc" || target.kind !== "pc") refuse("errors.mw.helpOnlyPlayerCharacters");
  if (target.helps !== null) refuse("errors.mw.helpChain", { name: target.name });
  if (helper.status === "dead") return assistAsDead(state, helper, target, trust);
  assertMayEnter(helper);
  if (isBetrayed(state, helper.id)) refuse("errors.mw.betrayedCannotSpend");
  const existing = findParticipant(state, helper.id);
  if (existing) {
    if (existing.helps !== null) refuse("errors.mw.alreadyHelping", { name: existing.name });
    if (existing.side !== target.side) refuse("errors.mw.helperOnOtherSide", { name: existing.name });
    if (state.participants.some((p) => p.helps === helper.id))
      refuse("errors.mw.helpChain", { name: helper.name });
  }
  if (state.trades.some((t) => tradeLead(state, t) === targetId)) refuse("errors.mw.alreadyTraded");
  const spent = spendTrust(trust, targetId, helper.id, HELP_COST, "help");
  const asHelper = participantFrom(helper, target.side, targetId);
  const participants = existing
    ? state.participants.map((p) => (p.id === helper.id ? { ...p, helps: targetId } : p))
    : [...state.participants, asHelper];
  return { state: { ...state, participants, trustUses: [...state.trustUses, useRecord(spent)] }, spent };
}

/**
 * A dead character's player helps without restriction (docs/rules/mountain-witch.md §1.2): from outside the
 * conflict, any number of characters, once each.
 */
function assistAsDead(
  state: ConflictState,
  helper: CharacterRef,
  target: Participant,
  trust: readonly TrustLink[],
): { state: ConflictState; spent: TrustSpend } {
  const helps = deadHelpsOf(state);
  if (helps.some((h) => h.helperId === helper.id && h.targetId === target.id))
    refuse("errors.mw.alreadyHelpingTarget", { name: helper.name, target: target.name });
  if (state.trades.some((t) => tradeLead(state, t) === target.id)) refuse("errors.mw.alreadyTraded");
  const spent = spendTrust(trust, target.id, helper.id, HELP_COST, "help");
  return {
    state: {
      ...state,
      deadHelps: [...helps, { helperId: helper.id, helperName: helper.name, targetId: target.id }],
      trustUses: [...state.trustUses, useRecord(spent)],
    },
    spent,
  };
}

export function deadHelpsOf(state: ConflictState): DeadHelp[] {
  return state.deadHelps ?? [];
}

function useRecord(spent: TrustSpend): TrustUseRecord {
  return { use: spent.use, giverId: spent.giverId, holderId: spent.holderId, amount: spent.amount };
}

/**
 * Betrayal (docs/rules/mountain-witch.md §1.3): the betrayer spends N points the betrayed gave them for +N
 * against the betrayed in this conflict. From then on the betrayed may not spend trust
 * in this conflict. A living betrayer must be in the conflict on the other side; a dead
 * character's player may betray anyone in it from outside (the bonus goes to whoever is
 * compared with the betrayed). The bonus counts only in the comparison with the betrayed.
 */
export function betray(
  state: ConflictState,
  input: { betrayer: CharacterRef; betrayedId: number; points: number },
  trust: readonly TrustLink[],
): { state: ConflictState; spent: TrustSpend } {
  requirePhase(state, "open");
  const { betrayer, betrayedId, points } = input;
  if (!Number.isInteger(points) || points < 1) refuse("errors.mw.trustAmountInvalid");
  if (betrayer.id === betrayedId) refuse("errors.mw.trustSelf");
  const betrayed = requireParticipant(state, betrayedId);
  if (betrayed.kind !== "pc" || betrayer.kind !== "pc") refuse("errors.mw.betrayOnlyPlayerCharacters");
  if (isBetrayed(state, betrayer.id)) refuse("errors.mw.betrayedCannotSpend");
  // A dead character's player spends trust without restriction (docs/rules/mountain-witch.md §1.2): no presence needed.
  if (betrayer.status !== "dead") {
    const inConflict = findParticipant(state, betrayer.id);
    if (!inConflict) refuse("errors.mw.betrayerNotInConflict");
    if (!opposes(state, inConflict, betrayed))
      refuse("errors.mw.betrayTargetNotOpposing", { name: betrayed.name });
  }
  const spent = spendTrust(trust, betrayedId, betrayer.id, points, "betray");
  const already = state.betrayals.find((b) => b.betrayerId === betrayer.id && b.betrayedId === betrayedId);
  const betrayals = already
    ? state.betrayals.map((b) => (b === already ? { ...b, points: b.points + points } : b))
    : [...state.betrayals, { betrayerId: betrayer.id, betrayedId, points }];
  return { state: { ...state, betrayals, trustUses: [...state.trustUses, useRecord(spent)] }, spent };
}

/**
 * After the roll: whether a betrayal's points were added — only when the betrayed character's
 * roll was the one their side was compared with (their best entry before any betrayal). Null
 * before the roll, or when the betrayed's pairing was traded without dice.
 */
export function betrayalAdded(state: ConflictState, betrayal: Betrayal): boolean | null {
  if (state.phase === "open") return null;
  const betrayed = findParticipant(state, betrayal.betrayedId);
  if (!betrayed) return null;
  const pairing =
    state.mode === "opposed" ? state.pairings[0] : state.pairings.find((p) => p.id === entryLead(betrayed));
  const side = pairing?.[betrayed.side];
  if (!side) return null;
  const bases = side.entries.map((e) => ({
    base: e.total - e.betrayalBonus,
    members: [e.leadId, ...e.helpers.filter((h) => !h.dead).map((h) => h.roll.characterId)],
  }));
  const best = Math.max(...bases.map((e) => e.base));
  return bases.some((e) => e.base === best && e.members.includes(betrayed.id));
}

/** Two participants oppose each other when they are on different sides of the same pairing. */
function opposes(state: ConflictState, x: Participant, y: Participant): boolean {
  if (x.side === y.side) return false;
  if (state.mode === "opposed") return true;
  // Common danger: every character on side a faces only the danger.
  return x.side === "b" || y.side === "b";
}

/** Intent to kill, declared before the roll (taken out then means dead, not incapacitated). */
export function declareKillIntent(
  state: ConflictState,
  input: { byId: number; targetId: number },
): ConflictState {
  if (state.phase !== "open") {
    if (state.phase === "closed") refuse("errors.mw.conflictClosed");
    refuse("errors.mw.killIntentAfterRoll");
  }
  const by = requireParticipant(state, input.byId);
  const target = requireParticipant(state, input.targetId);
  if (!opposes(state, by, target)) refuse("errors.mw.targetNotOpponent", { name: target.name });
  if (state.killIntents.some((k) => k.byId === by.id && k.targetId === target.id)) return state;
  return { ...state, killIntents: [...state.killIntents, { byId: by.id, targetId: target.id }] };
}

/**
 * Trade (docs/rules/mountain-witch.md §1.1), declared by a player: before the roll (no roll happens, it counts
 * as a tie) or on a tie. Both sides get the chosen success. The GM can never trade.
 *
 * The opponents' half of a trade is success with damage on the declarer at the quality traded
 * («этот Ущерб причиняется тому, кто объявил размен»). In a group pairing the rules apply it at
 * once (`tradeCost`, for the store to record); one on one it is the opponent's to apply or to
 * leave as a mutual success (see `spenderOf`).
 */
export function declareTrade(
  state: ConflictState,
  input: { declarerId: number; level: TradeLevel },
): { state: ConflictState; tradeCost: InflictedDamage | null } {
  if (!TRADE_LEVELS.includes(input.level)) refuse("errors.mw.tradeLevelInvalid");
  if (state.phase === "closed") refuse("errors.mw.conflictClosed");
  const declarer = requireParticipant(state, input.declarerId);
  if (declarer.kind !== "pc") refuse("errors.mw.gmCannotTrade");
  if (state.phase === "open") {
    if (state.trades.some((t) => tradeLead(state, t) === entryLead(declarer)))
      refuse("errors.mw.alreadyTraded");
    const trade: Trade = { declarerId: declarer.id, level: input.level, beforeRoll: true };
    const next = { ...state, trades: [...state.trades, trade] };
    // In an opposed conflict a trade before the roll settles the whole conflict: no dice.
    if (state.mode === "opposed") {
      assertRollable(next);
      return withTradeCost({ ...next, phase: "rolled", pairings: [tradedPairing(next, 0, trade)] }, 0);
    }
    return { state: next, tradeCost: null };
  }
  const pairing = pairingOf(state, declarer);
  if (pairing.trade) refuse("errors.mw.alreadyTraded");
  if (pairing.winner !== null) refuse("errors.mw.tradeNeedsTie");
  const trade: Trade = { declarerId: declarer.id, level: input.level, beforeRoll: false };
  const successes = tradeSuccesses(input.level);
  const traded: Pairing = {
    ...pairing,
    trade,
    successes: { a: successes, b: successes },
    remaining: { a: successes, b: successes },
    narration: tradeNarration(declarer),
  };
  return withTradeCost(
    { ...state, pairings: state.pairings.map((p) => (p.id === pairing.id ? traded : p)) },
    pairing.id,
  );
}

/** In a group pairing, the rules spend the opponents' half of its trade on the declarer at the quality traded. */
function withTradeCost(
  state: ConflictState,
  pairingId: number,
): { state: ConflictState; tradeCost: InflictedDamage | null } {
  const pairing = findPairing(state, pairingId);
  const trade = pairing.trade;
  if (!trade || !isGroupPairing(state, pairing)) return { state, tradeCost: null };
  const declarer = requireParticipant(state, trade.declarerId);
  const spent = spendDamage(state, {
    attackerSide: declarer.side === "a" ? "b" : "a",
    targetId: declarer.id,
    quality: trade.level,
    pairingId,
  });
  const tradeCost: InflictedDamage = { ...spent.damage, tradeCost: true };
  return {
    state: {
      ...spent.state,
      pairings: spent.state.pairings.map((p) =>
        p.id === pairingId ? { ...p, damage: p.damage.map((d) => (d === spent.damage ? tradeCost : d)) } : p,
      ),
    },
    tradeCost,
  };
}

function tradeNarration(declarer: Participant): Narration {
  return {
    characterId: declarer.id,
    playerId: declarer.playerId,
    side: declarer.side,
    reason: "trade",
    tiedIds: [],
    rollOff: [],
  };
}

function tradedPairing(state: ConflictState, id: number, trade: Trade): Pairing {
  const declarer = requireParticipant(state, trade.declarerId);
  const successes = tradeSuccesses(trade.level);
  return {
    id,
    a: null,
    b: null,
    winner: null,
    degree: "tie",
    margin: 0,
    successes: { a: successes, b: successes },
    remaining: { a: successes, b: successes },
    trade,
    narration: tradeNarration(declarer),
    damage: [],
  };
}

/** The character whose roll an entry is: itself, or the character it helps. */
function entryLead(p: Participant): number {
  return p.helps ?? p.id;
}

function tradeLead(state: ConflictState, trade: Trade): number {
  return entryLead(requireParticipant(state, trade.declarerId));
}

function entryMembers(state: ConflictState, leadId: number): Participant[] {
  return state.participants.filter((p) => p.id === leadId || p.helps === leadId);
}

function leads(state: ConflictState, side: SideKey): Participant[] {
  return state.participants.filter((p) => p.side === side && p.helps === null);
}

function assertRollable(state: ConflictState): void {
  const a = leads(state, "a");
  const b = leads(state, "b");
  if (state.mode === "common-danger") {
    if (b.length !== 1) refuse("errors.mw.dangerMissing");
    if (a.length === 0) refuse("errors.mw.conflictNeedsTwoSides");
    return;
  }
  if (a.length === 0 || b.length === 0) refuse("errors.mw.conflictNeedsTwoSides");
}

function pairingOf(state: ConflictState, p: Participant): Pairing {
  if (state.mode === "opposed") return state.pairings[0]!;
  if (p.side === "b") {
    if (state.pairings.length !== 1) refuse("errors.mw.pairingNeeded");
    return state.pairings[0]!;
  }
  return state.pairings.find((pr) => pr.id === entryLead(p))!;
}

/**
 * Rolls every die of the conflict at once (docs/rules/mountain-witch.md §1.1): 1d6 per participant (the danger
 * once in common-danger mode), damage penalties, helpers' dice added, betrayal bonuses,
 * degrees, successes and narration rights with roll-offs. The roll is final.
 *
 * `damage` holds each character's active damage entries (missing: none).
 */
export function rollConflict(
  state: ConflictState,
  dice: DiceSource,
  damage: Readonly<Record<number, readonly DamageEntry[]>> = {},
): { state: ConflictState; result: ConflictRollResult } {
  requirePhase(state, "open");
  assertRollable(state);
  const tradedLeads = new Set(state.trades.map((t) => tradeLead(state, t)));
  const allRolls: DieRoll[] = [];
  const rolls = new Map<number, DieRoll>();
  const expired: number[] = [];
  const danger = state.mode === "common-danger" ? leads(state, "b")[0]! : null;
  const rollsThisTime = (p: Participant): boolean => {
    if (state.mode === "opposed") return true;
    if (p.side === "b") return leads(state, "a").some((l) => !tradedLeads.has(l.id));
    return !tradedLeads.has(p.helps ?? p.id);
  };
  for (const p of state.participants) {
    if (!rollsThisTime(p)) continue;
    // A dead character's die carries no damage penalty, and its wounds do not run out by it.
    const entries = p.dead ? [] : (damage[p.id] ?? []);
    const penaltySources = penaltyEntries(entries);
    const die = dice.roll(6);
    const roll: DieRoll = {
      characterId: p.id,
      die,
      penalty: penaltySources.length,
      penaltyDamageIds: penaltySources.map((e) => e.id),
      value: die - penaltySources.length,
    };
    allRolls.push(roll);
    rolls.set(p.id, roll);
    expired.push(...entries.filter(expiresOnRoll).map((e) => e.id));
  }
  // Dead characters' help: one die each, no penalty, after everyone else's (a fixed order).
  const deadRolls = new Map<DeadHelp, DieRoll>();
  for (const h of deadHelpsOf(state)) {
    if (state.mode === "common-danger" && tradedLeads.has(h.targetId)) continue;
    const die = dice.roll(6);
    const roll: DieRoll = { characterId: h.helperId, die, penalty: 0, penaltyDamageIds: [], value: die };
    allRolls.push(roll);
    deadRolls.set(h, roll);
  }

  /** An entry without betrayal: its lead's die plus its helpers' (a negative helper adds 0). */
  const baseEntry = (lead: Participant) => {
    const members = entryMembers(state, lead.id);
    const helpers = [
      ...members
        .filter((m) => m.id !== lead.id)
        .map((m) => {
          const roll = rolls.get(m.id)!;
          return { roll, added: Math.max(0, roll.value) };
        }),
      ...deadHelpsOf(state)
        .filter((h) => h.targetId === lead.id)
        .map((h) => {
          const roll = deadRolls.get(h)!;
          return { roll, added: Math.max(0, roll.value), dead: true };
        }),
    ];
    const leadRoll = rolls.get(lead.id)!;
    return {
      lead,
      members,
      leadRoll,
      helpers,
      base: leadRoll.value + helpers.reduce((sum, h) => sum + h.added, 0),
    };
  };
  /**
   * The characters a side is compared through: the members of its best entries before
   * betrayal. A betrayal bonus counts only against them (the betrayer's result is compared
   * with the betrayed's, not with anyone else's).
   */
  const comparedIds = (sideLeads: Participant[]): Set<number> => {
    const bases = sideLeads.map(baseEntry);
    const best = Math.max(...bases.map((e) => e.base));
    return new Set(bases.filter((e) => e.base === best).flatMap((e) => e.members.map((m) => m.id)));
  };
  const sideResult = (side: SideKey, sideLeads: Participant[], against: Participant[]): SideResult => {
    const opposite = comparedIds(against);
    const counts = (b: Betrayal) => opposite.has(b.betrayedId);
    const entries = sideLeads.map((lead): EntryResult => {
      const e = baseEntry(lead);
      const betrayalBonus = state.betrayals
        .filter((b) => e.members.some((m) => m.id === b.betrayerId) && counts(b))
        .reduce((sum, b) => sum + b.points, 0);
      return {
        leadId: lead.id,
        lead: e.leadRoll,
        helpers: e.helpers,
        betrayalBonus,
        total: e.base + betrayalBonus,
      };
    });
    // Betrayers outside the conflict (dead characters): their bonus counts against the betrayed.
    const betrayalBonus = state.betrayals
      .filter((b) => !findParticipant(state, b.betrayerId) && counts(b))
      .reduce((sum, b) => sum + b.points, 0);
    return { side, entries, betrayalBonus, result: Math.max(...entries.map((e) => e.total)) + betrayalBonus };
  };

  const pairings: Pairing[] = [];
  if (state.mode === "opposed") {
    const a = leads(state, "a");
    const b = leads(state, "b");
    pairings.push(resolvePairing(state, 0, sideResult("a", a, b), sideResult("b", b, a), dice));
  } else {
    for (const lead of leads(state, "a")) {
      const trade = state.trades.find((t) => tradeLead(state, t) === lead.id);
      if (trade) {
        pairings.push(tradedPairing(state, lead.id, trade));
        continue;
      }
      pairings.push(
        resolvePairing(
          state,
          lead.id,
          sideResult("a", [lead], [danger!]),
          sideResult("b", [danger!], [lead]),
          dice,
        ),
      );
    }
  }
  let rolled: ConflictState = {
    ...state,
    phase: "rolled",
    dice: allRolls,
    pairings,
    expiredDamageIds: expired,
  };
  const tradeCosts: InflictedDamage[] = [];
  for (const pairing of pairings) {
    if (!pairing.trade) continue;
    const costed = withTradeCost(rolled, pairing.id);
    rolled = costed.state;
    if (costed.tradeCost) tradeCosts.push(costed.tradeCost);
  }
  const result: ConflictRollResult = {
    dice: allRolls,
    pairings: rolled.pairings,
    expiredDamageIds: expired,
    tradeCosts,
  };
  return { state: rolled, result };
}

function resolvePairing(
  state: ConflictState,
  id: number,
  a: SideResult,
  b: SideResult,
  dice: DiceSource,
): Pairing {
  const outcome = compareResults(a.result, b.result);
  const winnerSide = outcome.winner === "a" ? a : outcome.winner === "b" ? b : null;
  return {
    id,
    a,
    b,
    winner: outcome.winner,
    degree: outcome.degree.key,
    margin: outcome.degree.margin,
    successes: outcome.successes,
    remaining: outcome.successes,
    trade: null,
    narration: winnerSide ? narrationFor(state, winnerSide, dice) : null,
    damage: [],
  };
}

/**
 * Narration goes to the owner of the winning side's best entry (the helped character
 * when Help was used). Players whose characters tie for it roll off, 1d6 each, again
 * on ties. Entries of one owner (the GM's) need no roll-off.
 */
function narrationFor(state: ConflictState, side: SideResult, dice: DiceSource): Narration {
  const best = Math.max(...side.entries.map((e) => e.total));
  const tied = side.entries.filter((e) => e.total === best).map((e) => requireParticipant(state, e.leadId));
  const owners = new Map<string, Participant>();
  for (const p of tied) {
    const owner = p.playerId ?? "gm";
    if (!owners.has(owner)) owners.set(owner, p);
  }
  const base = { side: side.side, tiedIds: tied.map((p) => p.id) };
  if (owners.size === 1) {
    const p = tied[0]!;
    return { ...base, characterId: p.id, playerId: p.playerId, reason: "highest", rollOff: [] };
  }
  const rounds: RollOffDie[][] = [];
  let contenders = [...owners.values()];
  while (contenders.length > 1) {
    const round = contenders.map((p) => ({ characterId: p.id, die: dice.roll(6) }));
    rounds.push(round);
    const top = Math.max(...round.map((r) => r.die));
    contenders = contenders.filter((_, i) => round[i]!.die === top);
  }
  const winner = contenders[0]!;
  return { ...base, characterId: winner.id, playerId: winner.playerId, reason: "roll-off", rollOff: rounds };
}

function findPairing(state: ConflictState, pairingId: number): Pairing {
  const pairing = state.pairings.find((p) => p.id === pairingId);
  if (!pairing) refuse("errors.mw.pairingNotFound");
  return pairing;
}

/** The narrator of a pairing (after any bought narration), or null when nobody narrates (a tie). */
export function narratorOf(state: ConflictState, pairingId = 0): Narration | null {
  requirePhase(state, "rolled");
  return findPairing(state, pairingId).narration;
}

/**
 * Buy narration (docs/rules/mountain-witch.md §1.3): after the roll and before narration, the buyer spends 1
 * point given by a character of that conflict and narrates its outcome instead. The
 * buyer need not be in the scene.
 */
export function buyNarration(
  state: ConflictState,
  input: { buyer: CharacterRef; ofId: number; pairingId?: number },
  trust: readonly TrustLink[],
): { state: ConflictState; spent: TrustSpend } {
  requirePhase(state, "rolled");
  const { buyer, ofId } = input;
  const of = requireParticipant(state, ofId);
  if (of.kind !== "pc" || buyer.kind !== "pc") refuse("errors.mw.narrationOnlyPlayerCharacters");
  if (isBetrayed(state, buyer.id)) refuse("errors.mw.betrayedCannotSpend");
  const pairing = input.pairingId === undefined ? pairingOf(state, of) : findPairing(state, input.pairingId);
  if (narrationStarted(pairing)) refuse("errors.mw.narrationStarted");
  if (pairing.narration?.reason === "bought") refuse("errors.mw.narrationAlreadyBought");
  if (pairing.narration?.characterId === buyer.id) refuse("errors.mw.alreadyNarrator");
  const spent = spendTrust(trust, ofId, buyer.id, BUY_NARRATION_COST, "narration");
  const narration: Narration = {
    characterId: buyer.id,
    playerId: buyer.playerId,
    side: null,
    reason: "bought",
    tiedIds: [],
    rollOff: pairing.narration?.rollOff ?? [],
  };
  return {
    state: {
      ...state,
      pairings: state.pairings.map((p) => (p.id === pairing.id ? { ...p, narration } : p)),
      trustUses: [...state.trustUses, useRecord(spent)],
    },
    spent,
  };
}

/** A pairing's narration has begun once its narrator spent damage (a trade's cost is the rules', not narration). */
export function narrationStarted(pairing: Pairing): boolean {
  return pairing.damage.some((d) => !d.tradeCost);
}

function isGroupPairing(state: ConflictState, pairing: Pairing): boolean {
  const members =
    state.mode === "opposed" ? state.participants.length : entryMembers(state, pairing.id).length + 1;
  return members > 2;
}

/**
 * Spends successes of the attacking side as damage on a character of the other side
 * (docs/rules/mountain-witch.md §1.2). Returns the damage, with its duration by the target's strength; the
 * store records it (a `taken-out` result changes the character's status instead).
 */
export function spendDamage(
  state: ConflictState,
  input: {
    attackerSide: SideKey;
    targetId: number;
    quality: DamageQuality;
    pairingId?: number;
    ability?: string | null;
    condition?: string | null;
    /** Death instead of incapacity when taken out; defaults to whether intent to kill was declared. */
    kill?: boolean;
  },
): { state: ConflictState; damage: InflictedDamage } {
  requirePhase(state, "rolled");
  const target = requireParticipant(state, input.targetId);
  if (target.side === input.attackerSide) refuse("errors.mw.targetNotOpponent", { name: target.name });
  const pairing =
    input.pairingId === undefined ? pairingOf(state, target) : findPairing(state, input.pairingId);
  if (state.mode === "common-danger" && target.side === "a" && entryLead(target) !== pairing.id)
    refuse("errors.mw.targetNotOpponent", { name: target.name });
  if (pairing.damage.some((d) => d.targetId === target.id && d.takenOut !== null))
    refuse("errors.mw.alreadyTakenOut", { name: target.name });
  const rest = spendSuccesses(pairing.remaining[input.attackerSide], input.quality);
  if (pairing.remaining[input.attackerSide].length === 0) refuse("errors.mw.notEnoughSuccesses");
  const trade = pairing.trade;
  if (trade) {
    const declarer = requireParticipant(state, trade.declarerId);
    // The opponents' half of a trade is damage on its declarer, at the quality traded.
    if (input.attackerSide !== declarer.side && target.id !== declarer.id)
      refuse("errors.mw.tradeDamageOnDeclarer", { name: declarer.name });
    if (input.attackerSide !== declarer.side && input.quality !== trade.level)
      refuse("errors.mw.tradeDamageAtLevel", {
        name: declarer.name,
        level: `@mw.degree.${trade.level}`,
      });
  }
  if (rest === null) refuse("errors.mw.notEnoughSuccesses");
  const duration = damageDuration(target.strength, input.quality);
  const ability = nonEmpty(input.ability);
  const condition = nonEmpty(input.condition);
  if (duration === "taken-out" && (ability !== null || condition !== null))
    refuse("errors.mw.takenOutNoAbilityOrCondition", { name: target.name });
  const declared = state.killIntents.some(
    (k) => k.targetId === target.id && findParticipant(state, k.byId)?.side === input.attackerSide,
  );
  if (input.kill === true && !declared) refuse("errors.mw.killNotDeclared", { name: target.name });
  const kill = input.kill ?? declared;
  const damage: InflictedDamage = {
    pairingId: pairing.id,
    attackerSide: input.attackerSide,
    targetId: target.id,
    quality: input.quality,
    duration: condition !== null ? "condition" : duration,
    ability,
    condition,
    takenOut: duration === "taken-out" ? (kill ? "dead" : "incapacitated") : null,
  };
  const updated: Pairing = {
    ...pairing,
    remaining: { ...pairing.remaining, [input.attackerSide]: rest },
    damage: [...pairing.damage, damage],
  };
  return {
    state: { ...state, pairings: state.pairings.map((p) => (p.id === pairing.id ? updated : p)) },
    damage,
  };
}

function nonEmpty(text: string | null | undefined): string | null {
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
}

export function closeConflict(state: ConflictState): ConflictState {
  if (state.phase === "closed") refuse("errors.mw.conflictClosed");
  return { ...state, phase: "closed" };
}

/** Each side's participants by id (for panels). */
export function sideMembers(state: ConflictState, side: SideKey): Participant[] {
  return state.participants.filter((p) => p.side === side);
}

/** Who is acting on a conflict, as the rules need to know it. */
export interface ConflictActor {
  userId: string;
  isGm: boolean;
}

/**
 * Narration and the successes of a pairing belong to its narrator alone (docs/rules/mountain-witch.md §1.1):
 * the higher roller, a trade's declarer or the buyer of the narration. The narration of
 * GM characters and obstacles is the GM's.
 */
export function narratesPairing(pairing: Pairing, who: ConflictActor): boolean {
  const n = pairing.narration;
  if (!n) return false;
  return n.playerId === null ? who.isGm : n.playerId === who.userId;
}

export function pairingsNarratedBy(state: ConflictState, who: ConflictActor): Pairing[] {
  return state.pairings.filter((p) => narratesPairing(p, who));
}

/**
 * Who spends a side's successes in a pairing: its narrator — except the opponents' half of a
 * trade, which is the opponents' own (the GM's for the GM's characters and obstacles, a
 * player's for their character): they apply it to the declarer, or leave it as a mutual
 * success. `playerId` null means the GM.
 */
export function spenderOf(
  state: ConflictState,
  pairing: Pairing,
  side: SideKey,
): { playerId: string | null } | null {
  const trade = pairing.trade;
  if (trade) {
    const declarer = findParticipant(state, trade.declarerId);
    if (declarer && declarer.side !== side) {
      const opponent = pairingMembers(state, pairing)[side].find((p) => p.helps === null);
      return { playerId: opponent?.playerId ?? null };
    }
  }
  const n = pairing.narration;
  return n ? { playerId: n.playerId } : null;
}

/** Whether `who` spends `side`'s successes of `pairing` (see `spenderOf`). */
export function spendsSide(
  state: ConflictState,
  pairing: Pairing,
  side: SideKey,
  who: ConflictActor,
): boolean {
  const spender = spenderOf(state, pairing, side);
  if (!spender) return false;
  return spender.playerId === null ? who.isGm : spender.playerId === who.userId;
}

/**
 * The pairing a character's comparison is in: in common-danger mode the pairing of the
 * character's entry (null for the danger itself, which is in all of them).
 */
export function pairingOfCharacter(state: ConflictState, characterId: number): Pairing | null {
  requirePhase(state, "rolled");
  if (state.mode === "opposed") return state.pairings[0] ?? null;
  const p = findParticipant(state, characterId);
  if (!p || p.side === "b") return state.pairings.find((pr) => pr.id === characterId) ?? null;
  return state.pairings.find((pr) => pr.id === entryLead(p)) ?? null;
}

export function pairingById(state: ConflictState, pairingId: number): Pairing {
  return findPairing(state, pairingId);
}

/** The characters in one pairing, by side (common danger: one entry and the danger). */
export function pairingMembers(state: ConflictState, pairing: Pairing): Record<SideKey, Participant[]> {
  if (state.mode === "opposed") return { a: sideMembers(state, "a"), b: sideMembers(state, "b") };
  return { a: entryMembers(state, pairing.id), b: leads(state, "b") };
}

/** One way to spend a pairing's successes as damage, with what it would do to the target. */
export interface DamageChoice {
  attackerSide: SideKey;
  targetId: number;
  quality: DamageQuality;
  duration: DamageDuration;
  takenOut: InflictedDamage["takenOut"];
}

/**
 * Every damage the pairing's remaining successes can still buy, target by target and
 * quality by quality (for the panel's damage choice): exactly what `spendDamage` accepts.
 */
export function damageChoices(state: ConflictState, pairingId: number): DamageChoice[] {
  if (state.phase !== "rolled") return [];
  const pairing = findPairing(state, pairingId);
  const members = pairingMembers(state, pairing);
  const choices: DamageChoice[] = [];
  for (const attackerSide of ["a", "b"] as const) {
    if (pairing.remaining[attackerSide].length === 0) continue;
    const targets = members[attackerSide === "a" ? "b" : "a"];
    for (const target of targets) {
      for (const quality of ["partial", "normal", "critical", "double"] as const) {
        try {
          const { damage } = spendDamage(state, { attackerSide, targetId: target.id, quality, pairingId });
          choices.push({
            attackerSide,
            targetId: target.id,
            quality,
            duration: damage.duration,
            takenOut: damage.takenOut,
          });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
        }
      }
    }
  }
  return choices;
}
