import {
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  ButtonStyle,
  ComponentType,
  MessageFlags,
  TextInputStyle,
} from "discord.js";
import type { ComponentView, EmbedView, MessageView, ModalView, Tone } from "../app/views.js";
import { encodeIntent } from "./custom-id.js";

const TONE_COLOURS: Record<Tone, number> = {
  neutral: 0x5865f2,
  success: 0x3ba55d,
  failure: 0xed4245,
  warning: 0xfaa61a,
  secret: 0x2f3136,
  info: 0x4f8cc9,
};

const BUTTON_STYLES = {
  primary: ButtonStyle.Primary,
  secondary: ButtonStyle.Secondary,
  success: ButtonStyle.Success,
  danger: ButtonStyle.Danger,
} as const;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

function renderEmbed(embed: EmbedView): APIEmbed {
  return {
    ...(embed.title ? { title: clip(embed.title, 256) } : {}),
    ...(embed.description ? { description: clip(embed.description, 4096) } : {}),
    ...(embed.fields
      ? {
          fields: embed.fields.slice(0, 25).map((f) => ({
            name: clip(f.name || "\u200b", 256),
            value: clip(f.value || "\u200b", 1024),
            inline: f.inline ?? false,
          })),
        }
      : {}),
    ...(embed.footer ? { footer: { text: clip(embed.footer, 2048) } } : {}),
    ...(embed.image ? { image: { url: `attachment://${embed.image}` } } : {}),
    color: TONE_COLOURS[embed.tone ?? "neutral"],
  };
}

function renderComponent(c: ComponentView): APIComponentInMessageActionRow {
  if (c.kind === "button") {
    return {
      type: ComponentType.Button,
      custom_id: encodeIntent(c.intent),
      label: clip(c.label, 80),
      style: BUTTON_STYLES[c.style ?? "secondary"],
      disabled: c.disabled ?? false,
      ...(c.emoji ? { emoji: { name: c.emoji } } : {}),
    };
  }
  return {
    type: ComponentType.StringSelect,
    custom_id: encodeIntent({ ...c.intent, _field: c.field }),
    placeholder: c.placeholder ? clip(c.placeholder, 150) : undefined,
    options: c.options.slice(0, 25).map((o) => ({
      label: clip(o.label, 100),
      value: clip(o.value, 100),
      ...(o.description ? { description: clip(o.description, 100) } : {}),
    })),
    min_values: c.minValues ?? 1,
    max_values: Math.min(c.maxValues ?? 1, c.options.length),
    disabled: c.disabled ?? false,
  };
}

function renderBody(view: MessageView) {
  const rows = (view.rows ?? []).filter((r) => r.length > 0).slice(0, 5);
  return {
    content: view.content ? clip(view.content, 2000) : "",
    embeds: (view.embeds ?? []).slice(0, 10).map(renderEmbed),
    components: rows.map(
      (row): APIActionRowComponent<APIComponentInMessageActionRow> => ({
        type: ComponentType.ActionRow,
        components: row.slice(0, 5).map(renderComponent),
      }),
    ),
  };
}

/** A message body for the REST API (channel posts, DMs, webhook edits). Nobody is pinged unless the view names them. */
export function renderApiMessage(view: MessageView) {
  return { ...renderBody(view), allowed_mentions: { parse: [], users: view.mentionUsers ?? [] } };
}

/** The same, as discord.js options for editing an interaction's message. */
export function renderEdit(view: MessageView) {
  return {
    ...renderBody(view),
    allowedMentions: { parse: [] as never[], users: view.mentionUsers ?? [], repliedUser: false },
    ...(view.files?.length
      ? { files: view.files.map((f) => ({ attachment: Buffer.from(f.data), name: f.name })) }
      : {}),
  };
}

/** The same, as discord.js options for a new interaction reply or followup. */
export function renderReply(view: MessageView) {
  return view.ephemeral ? { ...renderEdit(view), flags: MessageFlags.Ephemeral as const } : renderEdit(view);
}

export function renderModal(modal: ModalView) {
  return {
    title: clip(modal.title, 45),
    custom_id: encodeIntent(modal.intent),
    components: modal.inputs.slice(0, 5).map((input) => ({
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.TextInput,
          custom_id: input.field,
          label: clip(input.label, 45),
          style: input.style === "paragraph" ? TextInputStyle.Paragraph : TextInputStyle.Short,
          required: input.required ?? true,
          ...(input.value !== undefined ? { value: input.value } : {}),
          ...(input.placeholder ? { placeholder: clip(input.placeholder, 100) } : {}),
          ...(input.maxLength ? { max_length: input.maxLength } : {}),
        },
      ],
    })),
  };
}
