/** `/damage list|clear`: the damage entries on characters (public), cleared by the GM (conditional damage, mistakes). */
import { z } from "zod";
import type { Character } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import type { DamageDuration } from "../../rules/mountain-witch/index.js";
import { findCharacter, requireGm, requireTable } from "../access.js";
import { appendLog } from "../log.js";
import { defineUseCase } from "../use-case.js";
import { durationText } from "./shared.js";

const SYSTEMS = ["mountain-witch"] as const;

export function damageLine(
  lang: Lang,
  e: { id: number; duration: string; ability: string | null; condition: string | null; note: string | null },
): string {
  const what = e.ability ? t(lang, "mw.damage.ability", { ability: e.ability }) : "−1";
  const note = e.note ? ` — _${e.note}_` : "";
  return `\`#${e.id}\` ${what} · ${durationText(lang, e.duration as DamageDuration, e.condition)}${note}`;
}

export const damageList = defineUseCase({
  type: "damage.list",
  systems: SYSTEMS,
  schema: z.object({ type: z.literal("damage.list"), character: z.string().min(1).max(100).optional() }),
  table: "required",
  mutates: false,
  ephemeral: false,
  async run(ctx) {
    const table = requireTable(ctx);
    let characters: Character[];
    if (ctx.intent.character) characters = [await findCharacter(ctx.tx, table.id, ctx.intent.character)];
    else
      characters = await ctx.tx.character.findMany({
        where: { tableId: table.id, deletedAt: null },
        orderBy: { name: "asc" },
      });
    const entries = await ctx.tx.damageEntry.findMany({
      where: { characterId: { in: characters.map((c) => c.id) }, clearedAt: null },
      orderBy: { id: "asc" },
    });
    // Without a name: everyone who carries damage or is out of play.
    const shown = ctx.intent.character
      ? characters
      : characters.filter((c) => c.status !== "active" || entries.some((e) => e.characterId === c.id));
    const fields = shown.map((c) => {
      const mine = entries.filter((e) => e.characterId === c.id);
      const status = c.status !== "active" ? ` (${t(ctx.lang, `character.status.${c.status}`)})` : "";
      return {
        name: `${c.name}${status}`,
        value: mine.map((e) => damageLine(ctx.lang, e)).join("\n") || t(ctx.lang, "mw.damage.none"),
      };
    });
    return {
      reply: {
        embeds: [
          {
            title: t(ctx.lang, "mw.damage.title"),
            fields: fields.slice(0, 25),
            description: fields.length ? undefined : t(ctx.lang, "mw.damage.nobody"),
          },
        ],
      },
    };
  },
});

export const damageClear = defineUseCase({
  type: "damage.clear",
  systems: SYSTEMS,
  schema: z.object({
    type: z.literal("damage.clear"),
    character: z.string().min(1).max(100),
    entry: z.coerce.number().int().positive(),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireGm(ctx);
    const character = await findCharacter(ctx.tx, table.id, ctx.intent.character);
    const entry = await ctx.tx.damageEntry.findFirst({
      where: { id: ctx.intent.entry, characterId: character.id, clearedAt: null },
    });
    if (!entry) refuse("errors.mw.damageEntryNotFound", { name: character.name, id: ctx.intent.entry });
    await ctx.tx.damageEntry.update({ where: { id: entry.id }, data: { clearedAt: ctx.now } });
    await appendLog(ctx, table.id, {
      action: "damage.clear",
      characterId: character.id,
      summary: { key: "log.mw.damage.clear", params: { name: character.name, id: entry.id } },
      before: { id: entry.id, duration: entry.duration, ability: entry.ability, condition: entry.condition },
    });
    return {
      reply: {
        embeds: [
          {
            description: t(ctx.lang, "mw.damage.cleared", {
              name: character.name,
              line: damageLine(ctx.lang, entry),
            }),
            tone: "success",
          },
        ],
      },
    };
  },
});

export const damageUseCases = [damageList, damageClear];
