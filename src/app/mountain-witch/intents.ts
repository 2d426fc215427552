import { defineIntents } from "../intent.js";

/**
 * The intents of this area: each type's fields, checked by its use case (`schema: mwIntents["…"]`)
 * and, at compile time, on every button, select and form a view builds (`KnownIntent`).
 */
export const mwIntents = defineIntents({});

/** Intent types whose schemas still live in their use case: moved here one by one, then this goes. */
export type MwPendingIntentTypes =
  | "chapter.next"
  | "character.abilities"
  | "character.background"
  | "character.props"
  | "character.recover"
  | "character.status"
  | "character.zodiac"
  | "conflict.add"
  | "conflict.assist"
  | "conflict.betray"
  | "conflict.betray-form"
  | "conflict.damage"
  | "conflict.damage-form"
  | "conflict.end"
  | "conflict.join"
  | "conflict.kill"
  | "conflict.leave"
  | "conflict.narrate"
  | "conflict.roll"
  | "conflict.roll-all"
  | "conflict.show"
  | "conflict.start"
  | "conflict.trade"
  | "damage.clear"
  | "damage.list"
  | "darkfate.choose"
  | "darkfate.deal"
  | "darkfate.keep"
  | "darkfate.redraw"
  | "darkfate.reveal"
  | "darkfate.show"
  | "duel.accept"
  | "duel.challenge"
  | "duel.damage"
  | "duel.decline"
  | "duel.end"
  | "duel.next"
  | "duel.peek"
  | "duel.round"
  | "duel.strike"
  | "duel.trust"
  | "trust.dm-closed"
  | "trust.edit"
  | "trust.matrix"
  | "trust.modal"
  | "trust.reveal"
  | "trust.set"
  | "trust.show"
  | "trust.submit";
