import { z } from "zod";
import { HELP_TOPICS } from "../../../commands/help.js";
import { ZODIAC_SIGNS } from "../../rules/mountain-witch/zodiac.js";
import { defineIntents } from "../intent.js";
import { SYSTEMS } from "../use-case.js";
import { LOG_FORMATS } from "./log-export.js";

/** A Discord user id, as a user option or a mention gives it. */
const userId = z.string().regex(/^\d{1,20}$/);
/** A character's name as typed. */
const name = z.string().min(1).max(100);
/** A saved roll's name as typed (cleaned and cut to 32 characters when saved). */
const macroName = z.string().max(100);

/** A file option as the router hands it over: its text, or null when it could not be read. */
export const uploadedFile = z.object({
  name: z.string().max(200),
  size: z.number().int().min(0),
  text: z.string().nullable(),
});
export type UploadedFile = z.infer<typeof uploadedFile>;

/** How far back `/table stats` looks: the last day, week or 30 days, or everything. */
export const STATS_PERIODS = ["day", "week", "month", "all"] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];

/**
 * The intents of this area: each type's fields, checked by its use case (`schema: commonIntents["…"]`)
 * and, at compile time, on every button, select and form a view builds (`KnownIntent`).
 */
export const commonIntents = defineIntents({
  // Help and dice (help.ts, roll.ts).
  help: { topic: z.enum(HELP_TOPICS).optional() },
  roll: {
    expression: z.string().max(400),
    secret: z.boolean().optional(),
    reason: z.string().max(400).optional(),
    gmCopy: z.boolean().optional(),
  },

  // Tables (table.ts, stats.ts, table-transfer.ts, page.ts, session.ts).
  "table.setup": { system: z.enum(SYSTEMS), trust: z.enum(["secret", "open"]).optional() },
  "table.show": {},
  "table.gm": { user: userId },
  "table.language": { lang: z.enum(["en", "ru"]) },
  "table.log": {
    limit: z.number().int().min(1).max(50).optional(),
    format: z.enum(LOG_FORMATS).optional(),
    from: z.string().max(40).optional(),
    to: z.string().max(40).optional(),
  },
  "table.stats": {
    user: userId.optional(),
    period: z.enum(STATS_PERIODS).optional(),
    public: z.boolean().optional(),
  },
  "table.export": {},
  "table.import": { file: uploadedFile, replace: z.boolean().optional() },
  /** The confirmation button of `/table import replace:true`: the flow holding the file. */
  "table.import-confirm": { flowId: z.number().int() },
  "table.page": { public: z.boolean().optional(), revoke: z.boolean().optional() },
  "table.session.end": {},
  "table.archive": {},
  /** The confirmation button of `/table archive`: the table it was asked for. */
  "table.archive-confirm": { tableId: z.number().int() },

  // Characters (character.ts, character-transfer.ts).
  "character.create": {
    name,
    player: userId.optional(),
    kind: z.enum(["pc", "npc"]).optional(),
    strength: z.enum(["weak", "medium", "strong"]).optional(),
    zodiac: z.enum(ZODIAC_SIGNS).optional(),
  },
  "character.show": { name: name.optional() },
  "character.list": {},
  "character.rename": { name, newName: name },
  "character.delete": { name },
  /** The confirmation button of `/character delete`. */
  "character.delete-confirm": { characterId: z.number().int() },
  "character.export": { name },
  "character.import": { file: uploadedFile.optional(), text: z.string().max(6000).optional() },

  // Saved rolls (macro.ts).
  "macro.save": { name: macroName, expression: z.string().max(400) },
  "macro.roll": {
    name: macroName,
    character: z.string().max(100).optional(),
    secret: z.boolean().optional(),
    gmCopy: z.boolean().optional(),
  },
  "macro.list": {},
  "macro.delete": { name: macroName },
});
