/**
 * What the bot shows, as plain data. Use cases build these (already in the reader's
 * language); `src/discord/render.ts` is the only code that turns them into Discord payloads.
 */
import type { KnownIntent, PartialKnownIntent } from "./intents.js";

export type Tone = "neutral" | "success" | "failure" | "warning" | "secret" | "info";

export interface EmbedView {
  title?: string;
  description?: string;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: string;
  tone?: Tone;
  /** The name of one of the message's `files` to show as the embed's image. */
  image?: string;
}

/** A file attached to a message (a chart, an export). */
export interface FileView {
  name: string;
  data: Uint8Array;
}

export interface ButtonView {
  kind: "button";
  label: string;
  /** What pressing it does: the same intent a slash command would produce. */
  intent: KnownIntent;
  style?: "primary" | "secondary" | "success" | "danger";
  emoji?: string;
  disabled?: boolean;
}

export interface SelectView {
  kind: "select";
  /** The intent to run; the chosen value(s) are put into `intent[field]`. */
  intent: PartialKnownIntent;
  field: string;
  placeholder?: string;
  options: { label: string; value: string; description?: string }[];
  minValues?: number;
  maxValues?: number;
  disabled?: boolean;
}

export type ComponentView = ButtonView | SelectView;

export interface MessageView {
  content?: string;
  embeds?: EmbedView[];
  /** Rows of components: at most 5 rows, 5 buttons or 1 select per row. */
  rows?: ComponentView[][];
  /** Files attached to the message (interaction answers and followups only). */
  files?: FileView[];
  /** Only the interacting user sees it. */
  ephemeral?: boolean;
  /** User ids this message is allowed to ping (nobody by default, never @everyone or roles). */
  mentionUsers?: string[];
}

export interface ModalView {
  title: string;
  /** The intent to run on submit; each input's value is put into `intent[input.field]`. */
  intent: PartialKnownIntent;
  inputs: {
    field: string;
    label: string;
    style?: "short" | "paragraph";
    value?: string;
    placeholder?: string;
    required?: boolean;
    maxLength?: number;
  }[];
}
