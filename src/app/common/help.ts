import type { CommandModule } from "../../../commands/command.js";
import { HELP_TOPICS } from "../../../commands/help.js";
import { commonCommands, type Game, gameCommandModules } from "../../../commands/index.js";
import { commandText } from "../../../commands/names.js";
import type { CommandSpec, GroupSpec, SubcommandSpec } from "../../../commands/spec.js";
import { catalogues, type Lang, t } from "../../i18n/index.js";
import type { EmbedView, MessageView } from "../views.js";
import { channelUseCase } from "./use-cases.js";

export { HELP_TOPICS };
export type HelpTopic = (typeof HELP_TOPICS)[number];
const GAME_TOPICS: readonly string[] = ["mountain-witch", "beast-hunters", "fate"] satisfies Game[];
const isGameTopic = (topic: HelpTopic): topic is HelpTopic & Game => GAME_TOPICS.includes(topic);

/** Discord's limits: https://discord.com/developers/docs/resources/message#embed-object-embed-limits */
const FIELD_VALUE_MAX = 1024;
const FIELDS_PER_EMBED = 25;
const EMBEDS_PER_MESSAGE = 10;
/** Characters of all embeds of one message together. */
const MESSAGE_CHARS_MAX = 6000;

/** One line per subcommand: `/name sub required-option:…` — its description. */
function commandLines(lang: Lang, spec: CommandSpec): string[] {
  const line = (path: string[], node: { options?: CommandSpec["options"] }) => {
    const required = Object.fromEntries(
      (node.options ?? []).filter((o) => o.required).map((o) => [o.name, null]),
    );
    const description = catalogues[lang][`cmd.${path.join(".")}.desc`] ?? "";
    return `\`${commandText(lang, path.join(" "), required)}\` — ${description}`;
  };
  if (!spec.subcommands?.length) return [line([spec.name], spec)];
  return spec.subcommands.flatMap((sub: SubcommandSpec | GroupSpec) =>
    "group" in sub
      ? sub.subcommands.map((leaf) => line([spec.name, sub.name, leaf.name], leaf))
      : [line([spec.name, sub.name], sub)],
  );
}

/** A command's lines as embed fields named after the command, split where a field would overflow. */
function commandFields(lang: Lang, spec: CommandSpec): NonNullable<EmbedView["fields"]> {
  const name = commandText(lang, spec.name, {}, { partial: true });
  const fields: { name: string; value: string }[] = [];
  for (const line of commandLines(lang, spec)) {
    const last = fields.at(-1);
    if (last && last.value.length + 1 + line.length <= FIELD_VALUE_MAX) last.value += `\n${line}`;
    else fields.push({ name: fields.length === 0 ? name : `${name} (${fields.length + 1})`, value: line });
  }
  return fields;
}

function embedChars(embed: EmbedView): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.footer?.length ?? 0) +
    (embed.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0)
  );
}

/**
 * Packs the intro embed and the command fields into as few ephemeral messages as Discord's
 * limits allow (fields per embed, embeds per message, characters per message).
 */
function pack(intro: EmbedView, fields: NonNullable<EmbedView["fields"]>, footer: string): MessageView[] {
  const messages: EmbedView[][] = [[{ ...intro, fields: [] }]];
  for (const field of fields) {
    let message = messages.at(-1) as EmbedView[];
    let embed = message.at(-1) as EmbedView;
    const size = field.name.length + field.value.length;
    const messageChars = message.reduce((n, e) => n + embedChars(e), 0);
    if (messageChars + size + footer.length > MESSAGE_CHARS_MAX) {
      embed = { fields: [], tone: "info" };
      message = [embed];
      messages.push(message);
    } else if ((embed.fields?.length ?? 0) >= FIELDS_PER_EMBED) {
      if (message.length >= EMBEDS_PER_MESSAGE) throw new Error("help does not fit Discord's limits");
      embed = { fields: [], tone: "info" };
      message.push(embed);
    }
    embed.fields?.push(field);
  }
  const lastMessage = messages.at(-1) as EmbedView[];
  (lastMessage.at(-1) as EmbedView).footer = footer;
  return messages.map((embeds) => ({ ephemeral: true, embeds }));
}

/**
 * `/help`, generated from the command specs: the topic's text (for a game: how a round goes),
 * then every command and subcommand of it with its one-line description, named as the
 * reader's client shows them.
 */
export function helpMessages(lang: Lang, topic: HelpTopic): MessageView[] {
  const modules: readonly CommandModule[] = GAME_TOPICS.includes(topic)
    ? gameCommandModules([topic as Game])
    : topic === "start"
      ? commonCommands
      : [];
  const intro: EmbedView = {
    title: t(lang, `help.${topic}.title`),
    description: t(
      lang,
      isGameTopic(topic) ? (`help.${topic}.round` as const) : (`help.${topic}.body` as const),
    ),
    tone: "info",
  };
  const topics = HELP_TOPICS.map((name) => t(lang, `cmd.help.topic.choice.${name}`)).join(" · ");
  const footer = t(lang, "help.footer", { topics });
  return pack(
    intro,
    modules.flatMap((m) => commandFields(lang, m.spec)),
    footer,
  );
}

export const help = channelUseCase("help", { mutates: false, ephemeral: true }, async (ctx) => {
  // Without a topic: the table's game if the channel has one, else how to start.
  const topic =
    ctx.intent.topic ??
    (ctx.table && GAME_TOPICS.includes(ctx.table.system) ? (ctx.table.system as HelpTopic) : "start");
  const [first, ...more] = helpMessages(ctx.userLang, topic);
  return {
    reply: first as MessageView,
    effects: more.map((view) => ({ kind: "followup" as const, view })),
  };
});
