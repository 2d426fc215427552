import { z } from "zod";
import { ASPECT_KINDS, type Aspect, type FreeInvoke } from "../../rules/fate/aspects.js";
import type { ChallengeRoll, ChallengeTask, FateChallenge } from "../../rules/fate/challenge.js";
import { type AppliedInvoke, type FateCheck, INVOKE_MODES, type Opposition } from "../../rules/fate/check.js";
import type { CompelOffer } from "../../rules/fate/compel.js";
import type { ConflictParticipant, FateConflict } from "../../rules/fate/conflict.js";
import type { ExchangeOutcome, FateContest } from "../../rules/fate/contest.js";
import type { FateDiceRoll } from "../../rules/fate/dice.js";
import {
  FACTION_ABILITY_KEYS,
  FACTION_TRACKS,
  type FactionAbility,
  type FactionAbsorption,
  type FactionCheck,
} from "../../rules/fate/faction.js";
import { ACTIONS, type FateAction } from "../../rules/fate/outcomes.js";
import { SKILL_KEYS, type SkillKey } from "../../rules/fate/skills.js";
import {
  type ConsequenceSlot,
  SEVERITIES,
  type Severity,
  STRESS_KINDS,
  type StressKind,
} from "../../rules/fate/stress.js";
import { defineFlowKind } from "../flows.js";
import type { CompelFlowState } from "./compel.js";
import type { ConflictFlowState } from "./conflict-state.js";
import type { ContestFlowState } from "./contest.js";
import type { FactionCheckFlowState } from "./faction-check.js";
import type { FactionHitFlowState } from "./faction-hit.js";
import type { HitFlowState } from "./harm.js";
import { SLOT_IDS } from "./intents.js";
import type { CheckFlowState } from "./state.js";

/*
 * The shapes of this area's flows as stored in `flow.state` (docs/rules/fate.md): each kind's
 * schema is checked on every load, and `upgrades` turns a state saved by an older bot into the
 * current shape, so a check, a conflict or a compel in play survives a deploy.
 */

// The rules' stored pieces.

const skillKey = z.enum(SKILL_KEYS as [SkillKey, ...SkillKey[]]);
const action = z.enum(ACTIONS as [FateAction, ...FateAction[]]);
const stressKind = z.enum(STRESS_KINDS as [StressKind, ...StressKind[]]);
const nullableId = z.string().nullable();

const fateDice: z.ZodType<FateDiceRoll> = z.object({
  rolled: z.array(z.number().int()),
  faces: z.array(z.union([z.literal(1), z.literal(-1), z.literal(0)])),
  symbols: z.array(z.enum(["+", "−", "0"])),
  total: z.number().int(),
});

const opposition: z.ZodType<Opposition> = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("none") }),
  z.object({ kind: z.literal("passive"), value: z.number() }),
  z.object({ kind: z.literal("active"), value: z.number(), characterId: nullableId }),
]);

const appliedInvoke: z.ZodType<AppliedInvoke> = z.object({
  aspect: z.string(),
  invokerId: z.string(),
  mode: z.enum(INVOKE_MODES as [AppliedInvoke["mode"], ...AppliedInvoke["mode"][]]),
  paidWith: z.enum(["free-invoke", "fate-point"]),
});

/** What a character's check and a faction's check both keep: the roll, its rerolls, what it is against, its invokes. */
const rolled = {
  bonus: z.number(),
  action,
  dice: fateDice,
  rerolledDice: z.array(fateDice),
  opposition,
  invokes: z.array(appliedInvoke),
};

const fateCheck: z.ZodType<FateCheck> = z.object({
  characterId: z.string(),
  skill: skillKey,
  skillValue: z.number(),
  ...rolled,
});

const freeInvoke: z.ZodType<FreeInvoke> = z.object({
  holderId: nullableId,
  side: nullableId.optional(),
});

const aspect: z.ZodType<Aspect> = z.object({
  name: z.string(),
  kind: z.enum(ASPECT_KINDS),
  freeInvokes: z.array(freeInvoke),
});

const consequenceSlot: z.ZodType<ConsequenceSlot> = z.object({
  id: z.enum(SLOT_IDS),
  severity: z.enum(SEVERITIES as [Severity, ...Severity[]]),
  onlyFor: stressKind.nullable(),
  taken: z.boolean(),
  aspect: aspect.nullable(),
  inflictedBy: z.object({ id: z.string(), side: nullableId }).nullable().optional(),
});

// fate.check

/** Version 1: checks stored before a boost could be traded had no `tradedForBoost`. */
export const checkFlow = defineFlowKind<CheckFlowState>({
  kind: "fate.check",
  version: 2,
  schema: z.object({
    check: fateCheck,
    rollerId: z.number().int(),
    rollerName: z.string(),
    targetId: z.number().int().nullable(),
    targetName: z.string().nullable(),
    aspect: z.string().nullable(),
    existingAspect: z.boolean(),
    advantageDone: z.boolean(),
    awaitingDefence: z.boolean(),
    linkFlowId: z.number().int().nullable(),
    hitApplied: z.number().int().nullable(),
    tradedForBoost: z.boolean(),
    contestFlowId: z.number().int().nullable(),
  }),
  upgrades: { 1: (old: Omit<CheckFlowState, "tradedForBoost">) => ({ tradedForBoost: false, ...old }) },
});

// fate.compel

const compelOffer: z.ZodType<CompelOffer> = z.object({
  targetId: z.string(),
  aspect: z.string(),
  points: z.number().int(),
  by: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("gm") }),
    z.object({ kind: z.literal("character"), characterId: z.string() }),
  ]),
  escrow: z.number().int(),
});

/** Version 1: compels stored before self-compels waited for the GM, or before factions could be compelled. */
export const compelFlow = defineFlowKind<CompelFlowState>({
  kind: "fate.compel",
  version: 2,
  schema: z.object({
    offer: compelOffer,
    targetId: z.number().int(),
    targetName: z.string(),
    targetOwnerId: z.string().nullable(),
    compellerId: z.number().int().nullable(),
    compellerName: z.string().nullable(),
    answer: z.enum(["accepted", "boughtOff", "declined", "expired"]).nullable(),
    needsGm: z.boolean(),
    targetFactionId: z.string().nullable(),
  }),
  upgrades: {
    1: (old: Omit<CompelFlowState, "needsGm" | "targetFactionId">) => ({
      needsGm: false,
      targetFactionId: null,
      ...old,
    }),
  },
});

// fate.conflict

const participant: z.ZodType<ConflictParticipant> = z.object({
  characterId: z.string(),
  side: z.string(),
  status: z.enum(["in", "conceded", "takenOut", "left"]),
  consequencesTaken: z.number().int(),
  pendingHit: z.object({ shifts: z.number().int(), kind: stressKind }).nullable(),
  consequencesAtJoin: z.array(z.string()).optional(),
});

const conflict: z.ZodType<FateConflict> = z.object({
  title: z.string(),
  exchange: z.number().int(),
  participants: z.array(participant),
  status: z.enum(["open", "ended"]),
  order: z.array(z.string()).optional(),
  turn: z.number().int().optional(),
});

/** Version 1: conflicts stored before turns were pinged had no `players` (then nobody is pinged). */
export const conflictFlow = defineFlowKind<ConflictFlowState>({
  kind: "fate.conflict",
  version: 2,
  schema: z.object({
    conflict,
    names: z.record(z.string(), z.string()),
    players: z.record(z.string(), z.string().nullable()),
  }),
  upgrades: { 1: (old: Omit<ConflictFlowState, "players">) => ({ players: {}, ...old }) },
});

// fate.contest

const exchangeOutcome: z.ZodType<ExchangeOutcome> = z.object({
  winnerId: nullableId,
  victories: z.number().int(),
  twist: z.boolean(),
  margin: z.number().nullable(),
});

const contest: z.ZodType<FateContest> = z.object({
  title: z.string(),
  participants: z.array(z.string()),
  victories: z.record(z.string(), z.number().int()),
  exchanges: z.array(exchangeOutcome),
  winnerId: nullableId,
  status: z.enum(["open", "ended"]),
});

export const contestFlow = defineFlowKind<ContestFlowState>({
  kind: "fate.contest",
  version: 1,
  schema: z.object({
    contest,
    names: z.record(z.string(), z.string()),
    passive: z.number().nullable(),
    rolls: z.record(z.string(), z.union([z.number().int(), z.literal("forfeit")])),
    last: z
      .object({
        results: z.record(z.string(), z.number().nullable()),
        winnerId: nullableId,
        victories: z.number().int(),
        twist: z.boolean(),
      })
      .nullable(),
  }),
});

// fate.hit

export const hitFlow = defineFlowKind<HitFlowState>({
  kind: "fate.hit",
  version: 1,
  schema: z.object({
    targetId: z.number().int(),
    targetName: z.string(),
    shifts: z.number().int(),
    kind: stressKind.nullable(),
    attacker: z.object({ id: z.number().int(), name: z.string(), side: nullableId }).nullable(),
    checkFlowId: z.number().int().nullable(),
    taken: z.string().nullable(),
  }),
});

// fate.challenge

const challengeRoll: z.ZodType<ChallengeRoll> = z.object({
  characterId: z.string(),
  characterName: z.string(),
  skill: skillKey,
  skillValue: z.number(),
  bonus: z.number(),
  dice: fateDice,
  result: z.number(),
  shifts: z.number(),
  outcome: z.enum(["fail", "tie", "success", "style"]),
  invokes: z.array(appliedInvoke).optional(),
  rerolledDice: z.array(fateDice).optional(),
  order: z.number().int().optional(),
});

const challengeTask: z.ZodType<ChallengeTask> = z.object({
  name: z.string(),
  skill: skillKey.nullable(),
  difficulty: z.number(),
  roll: challengeRoll.nullable(),
});

export const challengeFlow = defineFlowKind<FateChallenge>({
  kind: "fate.challenge",
  version: 1,
  schema: z.object({
    title: z.string(),
    tasks: z.array(challengeTask),
    status: z.enum(["open", "ended"]),
  }),
});

// fate.faction-check, fate.faction-hit

const factionCheck: z.ZodType<FactionCheck> = z.object({
  factionId: z.string(),
  ability: z.enum(FACTION_ABILITY_KEYS as [FactionAbility, ...FactionAbility[]]),
  abilityValue: z.number(),
  ...rolled,
});

export const factionCheckFlow = defineFlowKind<FactionCheckFlowState>({
  kind: "fate.faction-check",
  version: 1,
  schema: z.object({ check: factionCheck, factionName: z.string() }),
});

const factionHarm = z.object({
  stress: z.record(z.enum(FACTION_TRACKS), z.array(z.boolean())),
  consequences: z.array(consequenceSlot),
});

const factionAbsorption: z.ZodType<FactionAbsorption> = z.object({
  box: z.number().int().nullable(),
  consequences: z.array(z.enum(SLOT_IDS)),
  absorbed: z.number().int(),
});

export const factionHitFlow = defineFlowKind<FactionHitFlowState>({
  kind: "fate.faction-hit",
  version: 1,
  schema: z.object({
    factionId: z.string(),
    factionName: z.string(),
    track: z.enum(FACTION_TRACKS),
    shifts: z.number().int(),
    before: factionHarm,
    after: factionHarm,
    chosen: factionAbsorption,
    consequenceName: z.string().nullable(),
  }),
});
