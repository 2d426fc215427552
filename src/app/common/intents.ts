import { defineIntents } from "../intent.js";

/**
 * The intents of this area: each type's fields, checked by its use case (`schema: commonIntents["…"]`)
 * and, at compile time, on every button, select and form a view builds (`KnownIntent`).
 */
export const commonIntents = defineIntents({});

/** Intent types whose schemas still live in their use case: moved here one by one, then this goes. */
export type CommonPendingIntentTypes =
  | "character.create"
  | "character.delete"
  | "character.delete-confirm"
  | "character.export"
  | "character.import"
  | "character.list"
  | "character.rename"
  | "character.show"
  | "help"
  | "macro.delete"
  | "macro.list"
  | "macro.roll"
  | "macro.save"
  | "roll"
  | "table.archive"
  | "table.archive-confirm"
  | "table.export"
  | "table.gm"
  | "table.import"
  | "table.import-confirm"
  | "table.language"
  | "table.log"
  | "table.setup"
  | "table.show"
  | "table.stats";
