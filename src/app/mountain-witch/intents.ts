import { z } from "zod";
import { DARK_FATES, ZODIAC_SIGNS } from "../../rules/mountain-witch/index.js";
import { defineIntents } from "../intent.js";

/** A character's or an obstacle's name as typed. */
const name = z.string().min(1).max(100);
/** The flow a panel's button is on; a slash command leaves it out (the open one is meant). */
const flowId = z.coerce.number().int().positive().optional();
const strength = z.enum(["weak", "medium", "strong"]);
/** A trust action in a DM names its table (an id from the autocomplete, or typed). */
const trustTable = z.union([z.string(), z.number()]).optional();
const ability = z.string().max(200).optional();
/** Whose dark fate: the DM button's table and character, or a name typed in the channel. */
const hand = {
  tableId: z.coerce.number().int().optional(),
  characterId: z.coerce.number().int().optional(),
  character: name.optional(),
};

/**
 * The intents of this area: each type's fields, checked by its use case (`schema: mwIntents["…"]`)
 * and, at compile time, on every button, select and form a view builds (`KnownIntent`).
 */
export const mwIntents = defineIntents({
  // Conflicts (conflict.ts).
  "conflict.start": {
    opponent: name.optional(),
    strength: strength.optional(),
    title: z.string().max(200).optional(),
    mode: z.enum(["opposed", "common-danger"]).optional(),
  },
  "conflict.add": { name, strength: strength.optional(), flowId },
  "conflict.join": { character: name.optional(), against: name.optional(), flowId },
  "conflict.leave": { character: name.optional(), flowId },
  "conflict.assist": {
    target: name.optional(),
    targetId: z.coerce.number().int().optional(),
    character: name.optional(),
    flowId,
  },
  "conflict.betray": {
    target: name.optional(),
    targetId: z.coerce.number().int().optional(),
    /** A number from the command, or the text typed in the panel's short form. */
    points: z.union([z.number(), z.string().max(10)]),
    character: name.optional(),
    flowId,
  },
  "conflict.betray-form": { targetId: z.coerce.number().int(), flowId },
  "conflict.trade": {
    level: z.enum(["normal", "critical", "double"]).optional(),
    character: name.optional(),
    flowId,
  },
  "conflict.kill": {
    target: name.optional(),
    targetId: z.coerce.number().int().optional(),
    character: name.optional(),
    flowId,
  },
  "conflict.roll": { all: z.boolean().optional(), flowId },
  "conflict.roll-all": { flowId },
  "conflict.narrate": {
    character: name.optional(),
    ofId: z.coerce.number().int().optional(),
    buyer: name.optional(),
    flowId,
  },
  "conflict.damage-form": { flowId },
  "conflict.pairing": { pairingId: z.coerce.number().int(), flowId },
  "conflict.damage": {
    target: name.optional(),
    /** A quality from the command, or what was typed in the panel's short form ("½", "1", "1.5", "2", …). */
    quality: z.string().max(20).optional(),
    /** Whose pairing (common danger): a character in it. */
    character: name.optional(),
    /** From the panel: the pairing, and the chosen "side:targetId:quality". */
    pairingId: z.coerce.number().int().optional(),
    choice: z
      .string()
      .regex(/^[ab]:-?\d+:(partial|normal|critical|double)$/)
      .optional(),
    ability: z.string().max(200).optional(),
    condition: z.string().max(200).optional(),
    kill: z.boolean().optional(),
    flowId,
  },
  "conflict.show": { flowId },
  "conflict.end": { flowId },

  // Duels (duel.ts).
  "duel.challenge": { opponent: name, lethal: z.boolean().optional(), character: name.optional() },
  "duel.accept": { flowId },
  "duel.decline": { flowId },
  "duel.peek": { flowId },
  "duel.next": { flowId },
  "duel.strike": { flowId },
  "duel.damage": {
    quality: z.enum(["partial", "normal", "critical", "double"]),
    condition: z.string().max(200).optional(),
    kill: z.boolean().optional(),
    flowId,
  },
  "duel.round": { flowId },
  "duel.end": { flowId },
  "duel.trust-pick": { choice: z.string().regex(/^(help|betray|narration):\d+$/), flowId },
  "duel.trust": {
    use: z.enum(["help", "betray", "narration"]),
    target: name,
    points: z.coerce.number().int().min(1).max(99).optional(),
    character: name.optional(),
    flowId,
  },

  // Trust and chapters (trust.ts).
  "chapter.next": {},
  "trust.dm-closed": { flowId: z.number().int(), characterId: z.number().int() },
  "trust.set": {
    target: name,
    value: z.coerce.number().int().min(-99).max(99),
    table: trustTable,
    character: name.optional(),
  },
  "trust.submit": {
    table: trustTable,
    character: name.optional(),
    flowId: z.coerce.number().int().optional(),
    characterId: z.coerce.number().int().optional(),
  },
  "trust.edit": {
    flowId: z.coerce.number().int(),
    characterId: z.coerce.number().int(),
    /** Set on the button of the channel note for closed DMs. */
    inChannel: z.literal(1).optional(),
  },
  /** The form's values come as `v<holderId>` fields besides these (its use case lets them through). */
  "trust.modal": {
    flowId: z.coerce.number().int(),
    characterId: z.coerce.number().int(),
    inChannel: z.literal(1).optional(),
  },
  "trust.reveal": { flowId: z.coerce.number().int().optional() },
  "trust.show": { table: trustTable, character: name.optional() },
  "trust.matrix": {},

  // Dark fates (fates.ts).
  "darkfate.deal": { mode: z.enum(["deal", "choose"]).optional() },
  "darkfate.redraw": hand,
  "darkfate.keep": hand,
  "darkfate.choose": { fate: z.enum(DARK_FATES), ...hand },
  "darkfate.reveal": { character: name.optional() },
  "darkfate.show": {},

  // Damage (damage.ts).
  "damage.list": { character: z.string().min(1).max(100).optional() },
  "damage.clear": { character: z.string().min(1).max(100), entry: z.coerce.number().int().positive() },

  // Sheets (sheet.ts).
  "character.abilities": { name: name.optional(), first: ability, second: ability, third: ability },
  "character.background": {
    name: name.optional(),
    text: z.string().max(2000).optional(),
    ronin: z.string().max(2000).optional(),
    money: z.string().max(2000).optional(),
  },
  "character.props": { text: z.string().max(2000), name: name.optional() },
  "character.zodiac": { sign: z.enum(ZODIAC_SIGNS), name: name.optional() },
  "character.status": { name, status: z.enum(["active", "incapacitated", "dead"]) },
  "character.recover": { name: name.optional() },
});
