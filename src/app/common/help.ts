import { z } from "zod";
import { t } from "../../i18n/index.js";
import { defineUseCase } from "../use-case.js";

export const HELP_TOPICS = ["start", "mountain-witch", "beast-hunters", "fate", "dice"] as const;
const SYSTEM_TOPIC: Record<string, (typeof HELP_TOPICS)[number]> = {
  "mountain-witch": "mountain-witch",
  "beast-hunters": "beast-hunters",
  fate: "fate",
};

export const help = defineUseCase({
  type: "help",
  schema: z.object({ type: z.literal("help"), topic: z.enum(HELP_TOPICS).optional() }),
  table: "optional",
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    // Without a topic: the table's game if the channel has one, else how to start.
    const topic = ctx.intent.topic ?? (ctx.table ? SYSTEM_TOPIC[ctx.table.system] : undefined) ?? "start";
    const lang = ctx.userLang;
    const topics = HELP_TOPICS.map((name) => t(lang, `cmd.help.topic.choice.${name}`)).join(" · ");
    return {
      reply: {
        ephemeral: true,
        embeds: [
          {
            title: t(lang, `help.${topic}.title`),
            description: t(lang, topic in SYSTEM_TOPIC ? `help.${topic}.round` : `help.${topic}.body`),
            footer: t(lang, "help.footer", { topics }),
            tone: "info",
          },
        ],
      },
    };
  },
});
