import { defineIntents } from "../intent.js";

/**
 * The intents of this area: each type's fields, checked by its use case (`schema: bhIntents["…"]`)
 * and, at compile time, on every button, select and form a view builds (`KnownIntent`).
 */
export const bhIntents = defineIntents({});

/** Intent types whose schemas still live in their use case: moved here one by one, then this goes. */
export type BhPendingIntentTypes =
  | "challenge.accept"
  | "challenge.achieve"
  | "challenge.activate"
  | "challenge.end"
  | "challenge.fate"
  | "challenge.giveup"
  | "challenge.help"
  | "challenge.maneuver"
  | "challenge.menu"
  | "challenge.negotiate"
  | "challenge.neutralize"
  | "challenge.obstacle"
  | "challenge.obstacleform"
  | "challenge.offer"
  | "challenge.pass"
  | "challenge.reassign"
  | "challenge.resolve"
  | "challenge.restore"
  | "challenge.show"
  | "challenge.skip"
  | "challenge.start"
  | "challenge.strike"
  | "challenge.switch"
  | "challenge.task"
  | "challenge.taskform"
  | "challenge.taskmenu"
  | "challenge.team"
  | "character.boxes"
  | "character.initiative"
  | "character.resource.remove"
  | "character.resource.replace"
  | "character.resource.set"
  | "character.tattoo.add"
  | "character.tattoo.remove"
  | "character.trait.remove"
  | "character.trait.replace"
  | "character.trait.set"
  | "character.vp.add"
  | "character.vp.spend"
  | "negotiation.form"
  | "negotiation.phase"
  | "negotiation.preactivate"
  | "negotiation.premenu"
  | "reserve.concede"
  | "reserve.form"
  | "reserve.set"
  | "reserve.show"
  | "reserve.spend"
  | "reserve.spend";
