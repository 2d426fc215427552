import { z } from "zod";
import { ASPECT_KINDS, type AspectKind, MAX_FREE_INVOKES } from "../../rules/fate/aspects.js";
import { INVOKE_MODES, type InvokeMode } from "../../rules/fate/check.js";
import { FACTION_TRACKS } from "../../rules/fate/faction.js";
import { FATE_POINT_USES } from "../../rules/fate/fp-spend.js";
import { ACTIONS, type FateAction } from "../../rules/fate/outcomes.js";
import { defineIntents } from "../intent.js";

/** A flow's id, as a button or a select carries it. */
const flowId = z.number().int().positive();
const characterName = z.string().min(1).max(100);
const factionName = z.string().min(1).max(100);
const aspectName = z.string().min(1).max(100);
const skillName = z.string().min(1).max(100);
/** A bonus or a difficulty on the ladder. */
const modifier = z.number().int().min(-20).max(20);
const action = z.enum(ACTIONS as [FateAction, ...FateAction[]]);
const stressKind = z.enum(["physical", "mental"]);
/** The invokes a panel's button asks for (a passive spend has its own form). */
const invokeMode = z.enum(["plus2", "reroll"]);
/** The invokes `/invoke` takes: the panel's two and the passive +2. */
const checkInvokeMode = z.enum(INVOKE_MODES as [InvokeMode, ...InvokeMode[]]);
/** A boost's name, as its owner writes it in the form. */
const boostName = z.string().min(1).max(90);

/** The consequence slots a character may have (docs/rules/fate.md §3.3). */
export const SLOT_IDS = ["mild", "moderate", "severe", "mildPhysical", "mildMental"] as const;
/** Aspects a GM or a player adds by hand; consequences and factions' aspects come from their own commands. */
export const ADDABLE_KINDS = ASPECT_KINDS.filter((k) => k !== "consequence" && k !== "faction") as [
  AspectKind,
  ...AspectKind[],
];

/**
 * The intents of this area: each type's fields, checked by its use case (`schema: fateIntents["…"]`)
 * and, at compile time, on every button, select and form a view builds (`KnownIntent`).
 */
export const fateIntents = defineIntents({
  // Aspects (aspect.ts)
  "aspect.add": {
    name: aspectName,
    character: characterName.optional(),
    invokes: z.number().int().min(0).max(MAX_FREE_INVOKES).optional(),
    kind: z.enum(ADDABLE_KINDS).optional(),
  },
  "aspect.remove": { name: aspectName, character: characterName.optional() },
  "aspect.list": {},
  "aspect.compel": { name: aspectName },

  // Checks, invokes and attacks (check.ts)
  check: {
    skill: skillName,
    action: action.optional(),
    vs: modifier.optional(),
    target: characterName.optional(),
    bonus: modifier.optional(),
    character: characterName.optional(),
    aspect: aspectName.optional(),
  },
  "fate.invoke-menu": { flowId, mode: checkInvokeMode },
  invoke: {
    aspect: aspectName,
    mode: checkInvokeMode.optional(),
    pay: z.enum(["free-invoke", "fate-point"]).optional(),
    flowId: flowId.optional(),
    /** `/invoke check:`: the check to invoke on, by its number (autocomplete lists the open ones). */
    check: z.union([flowId, z.string().regex(/^#?\d{1,9}$/)]).optional(),
  },
  "fate.defend": { flowId, skill: skillName, bonus: modifier.optional() },
  "fate.apply-hit": { flowId, kind: stressKind.optional() },
  "fate.resolve-attack": { flowId, name: boostName.optional() },
  "fate.trade-boost": { flowId, name: boostName.optional() },
  "fate.set-difficulty": { flowId, vs: z.union([modifier, z.string().regex(/^-?\d{1,2}$/)]) },
  "fate.claim-advantage": { flowId },

  // Compels (compel.ts)
  compel: {
    target: characterName,
    aspect: aspectName,
    points: z.number().int().min(1).max(5),
    by: characterName.optional(),
  },
  "compel.accept": { flowId },
  "compel.buyoff": { flowId },
  "compel.gm-agree": { flowId },
  "compel.gm-decline": { flowId },

  // Conflicts (conflict.ts)
  "conflict.start": { title: z.string().max(200).optional() },
  "conflict.concede": { character: characterName.optional(), flowId: flowId.optional() },
  "conflict.end": { flowId: flowId.optional() },
  "conflict.show": {},
  "conflict.join": {
    character: characterName.optional(),
    side: z.enum(["pc", "npc"]).optional(),
    flowId: flowId.optional(),
  },
  "conflict.leave": { character: characterName.optional(), flowId: flowId.optional() },
  "conflict.order": { order: z.string().min(1).max(500) },
  "conflict.next": { flowId: flowId.optional() },

  // Contests (contest.ts)
  "contest.start": {
    first: characterName,
    second: characterName,
    third: characterName.optional(),
    fourth: characterName.optional(),
    title: z.string().max(200).optional(),
    vs: modifier.optional(),
  },
  "contest.roll": {
    skill: skillName.optional(),
    character: characterName.optional(),
    bonus: modifier.optional(),
    forfeit: z.boolean().optional(),
    flowId: flowId.optional(),
  },
  "contest.resolve": { flowId: flowId.optional() },
  "contest.end": { flowId: flowId.optional() },
  "contest.show": {},

  // Factions (faction.ts)
  "faction.create": {
    name: factionName,
    abilities: z.string().max(300).optional(),
    aspects: z.string().max(500).optional(),
    stunts: z.string().max(1000).optional(),
  },
  "faction.show": { name: factionName.optional() },
  "faction.fp": { name: factionName, amount: modifier },
  "faction.scene": { name: factionName, from: characterName.optional() },
  "faction.hit": {
    name: factionName,
    shifts: z.number().int().min(0).max(30),
    track: z.enum(FACTION_TRACKS),
    consequence: aspectName.optional(),
  },
  "faction.hit-way": { flowId, way: z.string().min(1).max(60) },
  /** Names a consequence a hit took (never a hit itself); `severity` omitted: the one waiting. */
  "faction.consequence": {
    name: factionName,
    consequence: aspectName,
    severity: z.enum(["mild", "moderate", "severe"]).optional(),
  },
  "faction.consequence-form": { name: factionName, severity: z.enum(["mild", "moderate", "severe"]) },
  "faction.clear": { name: factionName, severity: z.enum(["mild", "moderate", "severe"]) },
  "faction.delete": { name: factionName },
  "faction.check": {
    faction: factionName,
    ability: skillName,
    action: action.optional(),
    vs: modifier.optional(),
    bonus: modifier.optional(),
  },
  "faction.invoke-menu": { flowId, mode: invokeMode },
  "faction.invoke": { flowId, mode: invokeMode, aspect: aspectName },

  // Challenges (fate-challenge.ts)
  "fate-challenge.start": {
    title: z.string().min(1).max(100),
    tasks: z.string().min(1).max(500),
    vs: modifier.optional(),
  },
  "fate-challenge.roll": {
    task: z.string().min(1).max(100),
    skill: skillName,
    bonus: modifier.optional(),
    character: characterName.optional(),
  },
  "fate-challenge.show": {},
  "fate-challenge.end": {},
  "fate-challenge.invoke-menu": { flowId, mode: invokeMode },
  "fate-challenge.invoke": {
    flowId,
    mode: invokeMode,
    task: z.number().int().min(0).max(20),
    aspect: aspectName,
  },

  // Fate points (fp.ts)
  "fp.show": { character: characterName.optional() },
  "fp.give": { character: characterName, amount: modifier, reason: z.string().max(300).optional() },
  "fp.refresh": {},
  "fp.spend-form": {},
  "fp.spend": {
    on: z.enum(FATE_POINT_USES),
    reason: z.string().min(1).max(300),
    stunt: z.string().min(1).max(100).optional(),
    aspect: aspectName.optional(),
    character: characterName.optional(),
  },

  // Taking a hit (harm.ts)
  "fate.absorb": { flowId, option: z.string().min(1).max(60).optional(), kind: stressKind.optional() },

  // The sheet (sheet.ts)
  "character.skill": {
    skill: skillName.optional(),
    value: z.number().int().min(-10).max(10).optional(),
    ranks: z.string().max(1000).optional(),
    character: characterName.optional(),
  },
  "character.stunt": {
    name: z.string().min(1).max(100),
    text: z.string().max(1000).optional(),
    magic: z.boolean().optional(),
    ultimate: z.string().max(100).optional(),
    remove: z.boolean().optional(),
    character: characterName.optional(),
  },
  "character.race": {
    name: z.string().min(1).max(100),
    bonuses: z.string().max(300).optional(),
    stunt1: z.string().max(1000).optional(),
    stunt2: z.string().max(1000).optional(),
    character: characterName.optional(),
  },
  "character.ratings": {
    refresh: z.number().int().min(0).max(10).optional(),
    wr: z.number().int().min(0).max(10).optional(),
    ar: z.number().int().min(0).max(10).optional(),
    character: characterName.optional(),
  },
  "character.ultimate": { stunt: z.string().min(1).max(100), character: characterName.optional() },

  // Stress and consequences (stress.ts)
  "stress.hit": {
    character: characterName,
    shifts: z.number().int().min(0).max(30),
    kind: stressKind.optional(),
  },
  "stress.clear": { character: characterName.optional() },
  "consequence.add": {
    character: characterName.optional(),
    /** From the "name the consequence" form: the character by id. */
    characterId: z.number().int().positive().optional(),
    /** Omitted: the slot a hit took and nobody named yet. */
    severity: z.enum(SLOT_IDS).optional(),
    name: aspectName,
  },
  "consequence.clear": { character: characterName, severity: z.enum(SLOT_IDS) },
  "fate.name-consequence": { characterId: z.number().int().positive(), slot: z.enum(SLOT_IDS) },
});
