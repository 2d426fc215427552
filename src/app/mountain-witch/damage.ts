/** `/damage list|clear`: the damage entries on characters (public), cleared by the GM (conditional damage, mistakes). */
import type { Character } from "../../generated/prisma/client.js";
import { familyKey, type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import type { DamageDuration } from "../../rules/mountain-witch/index.js";
import { liveTableCharactersByName } from "../../store/characters.js";
import { sqlFor } from "../../store/db.js";
import { intArray } from "../../store/sql.js";
import { findCharacter } from "../access.js";
import { appendLog } from "../log.js";
import { durationText } from "./shared.js";
import { gmAction, mwAction } from "./use-cases.js";

/** What a damage line shows of an entry. */
export interface DamageLineEntry {
  id: number;
  duration: string;
  ability: string | null;
  condition: string | null;
  note: string | null;
}

export function damageLine(lang: Lang, e: DamageLineEntry): string {
  const what = e.ability ? t(lang, "mw.damage.ability", { ability: e.ability }) : "−1";
  const note = e.note ? ` — _${e.note}_` : "";
  return `\`#${e.id}\` ${what} · ${durationText(lang, e.duration as DamageDuration, e.condition)}${note}`;
}

export const damageList = mwAction("damage.list", "public read", async (ctx) => {
  const { table } = ctx;
  const sql = sqlFor(ctx.tx);
  let characters: Character[];
  if (ctx.intent.character) characters = [await findCharacter(ctx.tx, table.id, ctx.intent.character)];
  else characters = await liveTableCharactersByName(ctx.tx, table.id);
  const entries = await sql.rows<DamageLineEntry & { characterId: number }>`
      SELECT id, character_id, duration, ability, condition, note FROM damage_entry
      WHERE character_id = ANY(${intArray(characters.map((c) => c.id))}::int[]) AND cleared_at IS NULL
      ORDER BY id`;
  // Without a name: everyone who carries damage or is out of play.
  const shown = ctx.intent.character
    ? characters
    : characters.filter((c) => c.status !== "active" || entries.some((e) => e.characterId === c.id));
  const fields = shown.map((c) => {
    const mine = entries.filter((e) => e.characterId === c.id);
    const status =
      c.status !== "active" ? ` (${t(ctx.publicLang, familyKey("character.status.", c.status))})` : "";
    return {
      name: `${c.name}${status}`,
      value: mine.map((e) => damageLine(ctx.publicLang, e)).join("\n") || t(ctx.publicLang, "mw.damage.none"),
    };
  });
  return {
    reply: {
      embeds: [
        {
          title: t(ctx.publicLang, "mw.damage.title"),
          fields: fields.slice(0, 25),
          description: fields.length ? undefined : t(ctx.publicLang, "mw.damage.nobody"),
        },
      ],
    },
  };
});

export const damageClear = gmAction("damage.clear", "public change", async (ctx) => {
  const { table } = ctx;
  const character = await findCharacter(ctx.tx, table.id, ctx.intent.character);
  // Find and clear in one statement: RETURNING gives the entry as it was (only cleared_at changes).
  const entry = await sqlFor(ctx.tx).one<DamageLineEntry>`
      UPDATE damage_entry SET cleared_at = ${ctx.now}
      WHERE id = ${ctx.intent.entry} AND character_id = ${character.id} AND cleared_at IS NULL
      RETURNING id, duration, ability, condition, note`;
  if (!entry) refuse("errors.mw.damageEntryNotFound", { name: character.name, id: ctx.intent.entry });
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
          description: t(ctx.publicLang, "mw.damage.cleared", {
            name: character.name,
            line: damageLine(ctx.publicLang, entry),
          }),
          tone: "success",
        },
      ],
    },
  };
});

export const damageUseCases = [damageList, damageClear];
