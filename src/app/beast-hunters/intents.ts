import { z } from "zod";
import type { TraitRole } from "../../rules/beast-hunters/index.js";
import { defineIntents } from "../intent.js";

// Fields several intents share.
/** The challenge (or negotiation) a panel's control belongs to; a command leaves it out (the open one). */
const flowId = z.number().int().positive().optional();
/** A panel's own flow: always there. */
const panelFlowId = z.number().int().positive();
const nameField = z.string().min(1).max(100);
const optionalName = nameField.optional();
/** The hunter a player (or the GM, for an absent player) acts as. */
const character = optionalName;
const role = z
  .enum(["attack", "defense", "defence"])
  .transform((r): TraitRole => (r === "attack" ? "attack" : "defence"));
const sphere = z.enum(["physical", "social", "mental"]);
const phase = z.union([z.literal(1), z.literal(2), z.literal(3)]);
/** A number from the command, text from a form. */
const initiative = z.union([z.number().int().min(0).max(40), z.string().max(20)]);
const points = z.number().int().min(1).max(1000);
const vpChange = { amount: points, reason: z.string().min(1).max(200), character };

/**
 * The intents of this area: each type's fields, checked by its use case (`schema: bhIntents["…"]`)
 * and, at compile time, on every button, select and form a view builds (`KnownIntent`).
 */
export const bhIntents = defineIntents({
  // The reserve and the adventure (reserve.ts).
  "reserve.set": {
    // Numbers from the command; text from the new-adventure form.
    total: z.coerce.number().int().min(0).max(10_000),
    ceiling: z.coerce.number().int().min(1).max(10_000),
    adventure: z.enum(["new", "same"]).optional(),
    /** Set by the confirmation button: clearing a running adventure was asked for and agreed. */
    confirm: z.boolean().optional(),
  },
  "reserve.form": {
    total: z.number().int().min(0).max(10_000).optional(),
    ceiling: z.number().int().min(1).max(10_000).optional(),
  },
  "reserve.show": {},
  "reserve.spend": { amount: z.number().int().min(1).max(10_000), reason: z.string().min(1).max(200) },
  "reserve.concede": {
    phase,
    // A number from the command, a string from the negotiation panel's concession menu.
    rating: z.coerce.number().int().min(1).max(10_000).optional(),
    /** The hunters in the negotiation (names, comma-separated); all still playing by default. */
    hunters: z.string().max(300).optional(),
    /** From the negotiation panel's button: that negotiation (an open one is used anyway). */
    negotiation: z.number().int().positive().optional(),
  },

  // The negotiation (negotiation.ts).
  "challenge.negotiate": {
    sphere: sphere.optional(),
    phase: phase.optional(),
    name: optionalName,
    hunters: z.string().max(300).optional(),
    climax: z.boolean().optional(),
  },
  "negotiation.phase": { flowId: panelFlowId },
  "negotiation.premenu": { flowId: panelFlowId },
  "negotiation.preactivate": {
    flowId: panelFlowId,
    pick: z.string().min(3).max(120).optional(),
    trait: z.string().min(1).max(100).optional(),
  },
  "negotiation.form": { flowId: panelFlowId },
  /** The panel's concede button: the GM's private menu of ratings and what each costs. */
  "negotiation.concedemenu": { flowId: panelFlowId },
  /** A hunter gives up (free); the GM names an absent player's hunter. */
  "negotiation.giveup": { flowId, character },
  /** The GM drops a negotiation opened by mistake (free). */
  "negotiation.drop": { flowId },

  // A challenge's start and its obstacles.
  "challenge.start": {
    // Required by the slash command; a form submitted from a negotiation takes them from it.
    sphere: sphere.optional(),
    phase: phase.optional(),
    name: optionalName,
    traits: z.string().max(300).optional(),
    resources: z.string().max(300).optional(),
    initiative: initiative.optional(),
    boxes: z.string().max(30).optional(),
    neutralize: z.string().max(200).optional(),
    climax: z.boolean().optional(),
    preActivate: z.string().max(200).optional(),
    gmPreActivate: z.string().max(100).optional(),
    first: z.enum(["hunters", "gm"]).optional(),
    hunters: z.string().max(300).optional(),
    /** `/challenge start form:true`: open the guided form instead. */
    form: z.boolean().optional(),
    /** The negotiation this challenge ends (set by the form). */
    negotiation: z.number().int().positive().optional(),
    /** Submitted from the form: a bad field is reported alone and what was typed is kept. */
    guided: z.boolean().optional(),
  },
  "challenge.obstacle": {
    flowId,
    name: nameField,
    traits: z.string().max(300).optional(),
    resources: z.string().max(300).optional(),
    initiative: initiative.optional(),
    boxes: z.string().max(30).optional(),
    guided: z.boolean().optional(),
  },
  "challenge.obstacleform": { flowId },

  // A challenge's actions.
  "challenge.activate": { flowId, trait: nameField, as: role, character },
  "challenge.reassign": { flowId, trait: z.string().min(1).max(300), as: role, character },
  "challenge.maneuver": { flowId, target: optionalName, character },
  "challenge.offer": {
    flowId,
    // A number from the command, a string from the panel's offer menu (one target).
    points: z.coerce.number().int().min(1).max(100).optional(),
    /** The panel's offer menu with several targets: `<points>:<target id>`. */
    pick: z.string().min(3).max(120).optional(),
    target: optionalName,
    neutralize: optionalName,
    restore: optionalName,
  },
  "challenge.accept": { flowId, character },
  "challenge.strike": { flowId, dice: z.number().int().min(1).max(25), target: optionalName, character },
  "challenge.neutralize": { flowId, resource: nameField, target: optionalName, character },
  "challenge.restore": { flowId, resource: nameField, character },
  "challenge.menu": {
    flowId,
    // Several values: traits picked to flip together (one Reassign action).
    pick: z.union([z.string().min(3).max(120), z.array(z.string().min(3).max(120)).min(1).max(25)]),
    // `menu` names which of the panel's selects sent it: their custom_ids must differ on one message.
    menu: z.enum(["x", "h", "s", "p"]).optional(),
  },
  "challenge.giveup": { flowId, character },
  "challenge.fate": { flowId, choice: z.enum(["survive", "retire"]), character },
  "challenge.skip": { flowId, character },
  "challenge.end": { flowId, concede: z.boolean().optional() },
  "challenge.show": { flowId },

  // Tasks.
  "challenge.task": {
    flowId,
    name: nameField,
    // A number from the command; text from the panel's form (empty: the base difficulty 1).
    difficulty: z.union([z.number().int().min(1).max(13), z.string().max(20)]).optional(),
  },
  "challenge.taskform": { flowId },
  "challenge.taskmenu": { flowId, pick: z.string().min(3).max(110) },
  "challenge.achieve": {
    flowId,
    task: nameField,
    dice: z.number().int().min(1).max(25),
    target: optionalName,
    character,
    pool: z.boolean().optional(),
  },
  "challenge.resolve": { flowId, task: nameField },

  // Team moves (several hunters).
  "challenge.team": { flowId },
  "challenge.help": { flowId, hunter: nameField, trait: nameField, character },
  "challenge.switch": { flowId, from: nameField, to: nameField, points: points.optional(), character },
  "challenge.pass": {
    flowId,
    to: nameField,
    target: optionalName,
    points: points.optional(),
    switchTo: optionalName,
    character,
  },

  // A hunter's sheet (sheet-commands.ts).
  "character.trait.set": { name: nameField, sphere, value: z.number().int().min(1).max(40), character },
  "character.trait.remove": { name: nameField, character },
  "character.trait.replace": { traits: z.string().min(1).max(1000), character },
  "character.resource.set": {
    name: nameField,
    category: z.enum(["PA", "PD", "SA", "SD", "MA", "MD"]),
    value: z.number().int().min(1).max(40),
    character,
  },
  "character.resource.remove": { name: nameField, character },
  "character.resource.replace": { resources: z.string().min(1).max(1000), character },
  "character.tattoo.add": { text: z.string().min(1).max(200), character },
  "character.tattoo.remove": { number: z.number().int().min(1).max(50), character },
  "character.initiative": {
    physical: z.number().int().min(0).max(40).optional(),
    social: z.number().int().min(0).max(40).optional(),
    mental: z.number().int().min(0).max(40).optional(),
    character,
  },
  "character.boxes": {
    physical: z.string().max(30).optional(),
    social: z.string().max(30).optional(),
    mental: z.string().max(30).optional(),
    character,
  },
  "character.vp.add": vpChange,
  "character.vp.spend": vpChange,
});
