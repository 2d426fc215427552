/**
 * The Mountain Witch flows as stored (`flow.state`): a conflict, a duel, a chapter's trust round.
 * Each kind's schema is checked on every load; when a shape changes, its version goes up and an
 * upgrade turns a state saved by the previous version into the current one (docs/ARCHITECTURE.md,
 * "Changing a flow's shape").
 */
import { z } from "zod";
import {
  type ConflictState,
  type DuelState,
  INCAPACITY_OBSTACLE_KEY,
  type SideKey,
  type TrustRoundState,
} from "../../rules/mountain-witch/index.js";
import { defineFlowKind } from "../flows.js";

const int = z.number().int();
const ids = z.array(int);
const side = z.enum(["a", "b"]);
const strength = z.enum(["weak", "medium", "strong"]);
const kind = z.enum(["pc", "npc"]);
const degree = z.enum(["tie", "partial", "mixed", "normal", "critical", "double"]);
const quality = z.enum(["partial", "normal", "critical", "double"]);
const tradeLevel = z.enum(["normal", "critical", "double"]);
const duration = z.enum(["next-roll", "chapter", "permanent", "condition", "taken-out"]);
const takenOut = z.enum(["incapacitated", "dead"]).nullable();
const trustUse = z.enum(["help", "betray", "narration"]);
const pieces = z.array(z.enum(["half", "whole"]));
const perSide = <T extends z.ZodType>(value: T) => z.object({ a: value, b: value });

// --- Conflicts (docs/rules/mountain-witch.md §1.1–1.3) ---

const participant = z.object({
  id: int,
  name: z.string(),
  // The one participant named by a message key: the incapacity a recovery attempt fights.
  nameKey: z.literal(INCAPACITY_OBSTACLE_KEY).nullable(),
  kind,
  playerId: z.string().nullable(),
  strength,
  side,
  dead: z.boolean(),
  helps: int.nullable(),
});

const dieRoll = z.object({
  characterId: int,
  die: int,
  penalty: int,
  penaltyDamageIds: ids,
  value: int,
});

const sideResult = z.object({
  side,
  entries: z.array(
    z.object({
      leadId: int,
      lead: dieRoll,
      helpers: z.array(z.object({ roll: dieRoll, added: int, dead: z.boolean().optional() })),
      betrayalBonus: int,
      total: int,
    }),
  ),
  betrayalBonus: int,
  result: int,
});

const trade = z.object({ declarerId: int, level: tradeLevel, beforeRoll: z.boolean() });

const pairing = z.object({
  id: int,
  a: sideResult.nullable(),
  b: sideResult.nullable(),
  winner: side.nullable(),
  degree,
  margin: int,
  successes: perSide(pieces),
  remaining: perSide(pieces),
  trade: trade.nullable(),
  narration: z
    .object({
      characterId: int,
      playerId: z.string().nullable(),
      side: side.nullable(),
      reason: z.enum(["highest", "roll-off", "trade", "bought"]),
      tiedIds: ids,
      rollOff: z.array(z.array(z.object({ characterId: int, die: int }))),
    })
    .nullable(),
  damage: z.array(
    z.object({
      pairingId: int,
      attackerSide: side,
      targetId: int,
      quality,
      duration,
      ability: z.string().nullable(),
      condition: z.string().nullable(),
      takenOut,
      /** Absent on damage saved before a group trade's cost was applied by the rules. */
      tradeCost: z.boolean().optional(),
    }),
  ),
});

const conflictState = z.object({
  mode: z.enum(["opposed", "common-danger"]),
  title: z.string().nullable(),
  phase: z.enum(["open", "rolled", "closed"]),
  recoveryOf: int.nullable(),
  participants: z.array(participant),
  betrayals: z.array(z.object({ betrayerId: int, betrayedId: int, points: int })),
  deadHelps: z.array(z.object({ helperId: int, helperName: z.string(), targetId: int })),
  killIntents: z.array(z.object({ byId: int, targetId: int })),
  trades: z.array(trade),
  trustUses: z.array(z.object({ use: trustUse, giverId: int, holderId: int, amount: int })),
  nextObstacleId: int,
  dice: z.array(dieRoll),
  pairings: z.array(pairing),
  expiredDamageIds: ids,
}) satisfies z.ZodType<ConflictState>;

/**
 * `mw.conflict`. Version 2: `deadHelps` (help by dead characters' players) is always there;
 * conflicts saved before it existed have none.
 */
export const conflictFlow = defineFlowKind<ConflictState>({
  kind: "mw.conflict",
  version: 2,
  schema: conflictState,
  upgrades: { 1: (old) => ({ deadHelps: [], ...old }) },
});

// --- Duels (docs/rules/mountain-witch.md §1.4) ---

const duellist = z.object({
  characterId: int,
  name: z.string(),
  playerId: z.string(),
  dice: ids,
  wantsNext: z.boolean(),
  penalty: int,
  penaltyDamageIds: ids,
});

const duelSideResult = z.object({
  dice: ids,
  diceTotal: int,
  penalty: int,
  help: z.array(z.object({ characterId: int, die: int })),
  betrayal: int,
  total: int,
});

const duelState = z.object({
  phase: z.enum(["challenged", "declined", "rolling", "revealed"]),
  round: int,
  lethal: z.boolean(),
  a: duellist,
  b: duellist,
  trustUses: z.array(
    z.object({
      use: trustUse,
      spenderId: int,
      spenderPlayerId: z.string().nullable(),
      /** Absent in duels saved before the panel named who spent the points. */
      spenderName: z.string().optional(),
      targetId: int,
      amount: int,
    }),
  ),
  expiredDamageIds: ids,
  result: z
    .object({
      a: duelSideResult,
      b: duelSideResult,
      winner: side.nullable(),
      degree,
      margin: int,
      successes: perSide(pieces),
      remaining: perSide(pieces),
      narratorId: int.nullable(),
      narratorBought: z.boolean(),
      damage: z.array(
        z.object({
          attackerSide: side,
          targetId: int,
          quality,
          duration,
          condition: z.string().nullable(),
          takenOut,
        }),
      ),
      expiredDamageIds: ids,
      struckBy: z.enum(["a", "b", "auto"]),
    })
    .nullable(),
}) satisfies z.ZodType<DuelState>;

/** Where a duellist's secret message is, so the bot can edit it (interaction tokens last 15 minutes). */
const secretMessage = z.object({ token: z.string(), at: z.string() });

export interface DuelFlowState {
  duel: DuelState;
  secret: Record<SideKey, { token: string; at: string } | null>;
  /** Duellists who chose to stop after a reveal; both stopping ends the duel. */
  stopped: SideKey[];
}

/**
 * `mw.duel`. Version 2: `stopped` is always there; duels saved before (and challenges saved
 * without it) have nobody stopped.
 */
export const duelFlow = defineFlowKind<DuelFlowState>({
  kind: "mw.duel",
  version: 2,
  schema: z.object({
    duel: duelState,
    secret: perSide(secretMessage.nullable()),
    stopped: z.array(side),
  }),
  upgrades: { 1: (old) => ({ stopped: [], ...old }) },
});

// --- Trust rounds (docs/rules/mountain-witch.md §1.3) ---

const proposal = z.object({ giverId: int, holderId: int, value: int });

export interface TrustRoundFlow {
  round: TrustRoundState;
  /** Givers whose player could not be reached by DM: they submit in the channel. */
  dmClosed: number[];
}

/** `mw.trust-round`: a chapter's trust round, collected in secret or in the open. */
export const trustRoundFlow = defineFlowKind<TrustRoundFlow>({
  kind: "mw.trust-round",
  version: 1,
  schema: z.object({
    round: z.object({
      chapter: int,
      mode: z.enum(["secret", "open"]),
      giverIds: ids,
      values: z.array(proposal),
      proposals: z.array(proposal),
      submitted: ids,
      phase: z.enum(["collecting", "revealed"]),
    }) satisfies z.ZodType<TrustRoundState>,
    dmClosed: ids,
  }),
});
