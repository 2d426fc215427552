/**
 * The common commands' short answers, built one way: a one-line notice, and the two halves of a
 * confirmation (the private question with its button, then the answer once it is pressed).
 */
import type { KnownIntent } from "../intents.js";
import type { ActionResult, Effect } from "../use-case.js";
import type { EmbedView, MessageView, Tone } from "../views.js";

/** One embed that says `description`; `ephemeral` for a private answer. */
export function notice(description: string, tone: Tone, options: { ephemeral?: boolean } = {}): MessageView {
  return { ...(options.ephemeral ? { ephemeral: true } : {}), embeds: [{ description, tone }] };
}

/**
 * The private question before an action that cannot be taken back (closing a table, replacing it,
 * deleting a character): what will happen, and one danger button that does it.
 */
export function confirmation(question: string, button: { label: string; intent: KnownIntent }): MessageView {
  return {
    ephemeral: true,
    embeds: [{ description: question, tone: "warning" }],
    rows: [[{ kind: "button", label: button.label, style: "danger", intent: button.intent }]],
  };
}

/**
 * The answer to a pressed confirmation: the private question is replaced by `done` (its button
 * gone), and the table's channel is told what happened, with any further effects.
 */
export function confirmed(
  done: string,
  announce: { channelId: string; embed: EmbedView },
  ...effects: Effect[]
): ActionResult {
  return {
    replyMode: "update",
    reply: { embeds: [{ description: done, tone: "info" }], rows: [] },
    effects: [
      { kind: "post", channelId: announce.channelId, view: { embeds: [announce.embed] } },
      ...effects,
    ],
  };
}
