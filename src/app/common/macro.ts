import { t } from "../../i18n/index.js";
import { parseDiceExpression } from "../../rules/dice-expression.js";
import { refuse } from "../../rules/errors.js";
import { sqlFor } from "../../store/db.js";
import { actingCharacter, requireGuild } from "../access.js";
import { hooksFor } from "../hooks.js";
import { cleanName, nameKey } from "../names.js";
import type { ActionContext, AutocompleteSource } from "../use-case.js";
import { notice } from "./answers.js";
import { performRoll } from "./roll.js";
import { channelUseCase } from "./use-cases.js";

/** Saved rolls a user may keep in one guild. */
export const MAX_SAVED_ROLLS = 50;

/** `{fight}`, `{драка}`: a sheet value filled in when the macro is rolled. */
const REFERENCE = /\{([^{}]{1,40})\}/g;

interface SavedRollRow {
  id: number;
  name: string;
  expression: string;
}

/** The names a macro refers to, in order of first use. */
export function referencedNames(expression: string): string[] {
  return [...new Set([...expression.matchAll(REFERENCE)].map((m) => m[1]!.trim()))];
}

/**
 * Replaces each `{name}` by the number `lookup` gives; a negative number goes in parentheses so
 * `4dF+{fight}` with −1 reads `4dF+(-1)`.
 */
export function fillReferences(expression: string, lookup: (name: string) => number): string {
  return expression.replace(REFERENCE, (_, name: string) => {
    const value = lookup(name.trim());
    return value < 0 ? `(${value})` : String(value);
  });
}

export const macroSave = channelUseCase("macro.save", { mutates: true, ephemeral: true }, async (ctx) => {
  const guildId = requireGuild(ctx);
  const name = cleanName(ctx.intent.name, 32);
  const expression = ctx.intent.expression.trim();
  // Checked now with every reference as 0, so a typo is found when saving, not at the table.
  parseDiceExpression(
    fillReferences(expression, () => 0),
    { fateTable: ctx.table?.system === "fate" },
  );
  const sql = sqlFor(ctx.tx);
  // One user's saves in one guild, one at a time: the cap holds under concurrent saves.
  await sql.rows`SELECT pg_advisory_xact_lock(hashtext(${`saved_roll:${guildId}:${ctx.actor.userId}`}))`;
  const existing = await sql.rows<{ nameKey: string }>`
      SELECT name_key FROM saved_roll WHERE guild_id = ${guildId} AND user_id = ${ctx.actor.userId}`;
  const key = nameKey(name);
  const replacing = existing.some((row) => row.nameKey === key);
  if (!replacing && existing.length >= MAX_SAVED_ROLLS) {
    refuse("errors.macro.tooMany", { max: MAX_SAVED_ROLLS });
  }
  await sql.run`
      INSERT INTO saved_roll (guild_id, user_id, name, name_key, expression, updated_at)
      VALUES (${guildId}, ${ctx.actor.userId}, ${name}, ${key}, ${expression}, ${ctx.now})
      ON CONFLICT (guild_id, user_id, name_key)
      DO UPDATE SET name = EXCLUDED.name, expression = EXCLUDED.expression, updated_at = EXCLUDED.updated_at`;
  const said = t(ctx.userLang, replacing ? "macro.replaced" : "macro.saved", { name, expression });
  return { reply: notice(said, "success", { ephemeral: true }) };
});

async function findSavedRoll(ctx: ActionContext, name: string): Promise<SavedRollRow> {
  const guildId = requireGuild(ctx);
  const [row] = await sqlFor(ctx.tx).rows<SavedRollRow>`
    SELECT id, name, expression FROM saved_roll
    WHERE guild_id = ${guildId} AND user_id = ${ctx.actor.userId} AND name_key = ${nameKey(name)}`;
  if (!row) refuse("errors.macro.notFound", { name: cleanName(name, 100) });
  return row;
}

export const macroRoll = channelUseCase(
  "macro.roll",
  { mutates: false, ephemeral: (intent) => intent.secret === true },
  async (ctx) => {
    const saved = await findSavedRoll(ctx, ctx.intent.name);
    const names = referencedNames(saved.expression);
    let expression = saved.expression;
    if (names.length > 0) {
      if (!ctx.table) refuse("errors.macro.needsTable", { name: saved.name });
      const sheetNumber = hooksFor(ctx.table.system).sheetNumber;
      if (!sheetNumber) refuse("errors.macro.noSheetNumbers", { name: saved.name });
      const character = await actingCharacter(ctx, ctx.intent.character, { gmMayActForPlayers: true });
      expression = fillReferences(saved.expression, (name) => {
        const value = sheetNumber(character, name);
        if (value === undefined)
          refuse("errors.macro.unknownValue", { value: name, character: character.name });
        return value;
      });
    }
    return performRoll(ctx, {
      expression,
      secret: ctx.intent.secret === true,
      gmCopy: ctx.intent.gmCopy === true,
      reason: saved.name,
    });
  },
);

export const macroList = channelUseCase("macro.list", { mutates: false, ephemeral: true }, async (ctx) => {
  const guildId = requireGuild(ctx);
  const rows = await sqlFor(ctx.tx).rows<SavedRollRow>`
      SELECT id, name, expression FROM saved_roll WHERE guild_id = ${guildId} AND user_id = ${ctx.actor.userId}
      ORDER BY name_key`;
  const lines = rows.map((r) => `• **${r.name}** — \`${r.expression.replace(/`/g, "'")}\``);
  return {
    reply: {
      ephemeral: true,
      embeds: [
        {
          title: t(ctx.userLang, "macro.list.title", { count: rows.length, max: MAX_SAVED_ROLLS }),
          description: lines.join("\n") || t(ctx.userLang, "macro.list.empty"),
          tone: "info",
        },
      ],
    },
  };
});

export const macroDelete = channelUseCase("macro.delete", { mutates: true, ephemeral: true }, async (ctx) => {
  const saved = await findSavedRoll(ctx, ctx.intent.name);
  await sqlFor(ctx.tx).run`DELETE FROM saved_roll WHERE id = ${saved.id}`;
  return {
    reply: notice(t(ctx.userLang, "macro.deleted", { name: saved.name }), "success", { ephemeral: true }),
  };
});

/** The user's own saved rolls in this guild (nobody else's: they are theirs alone). */
export const savedRollNames: AutocompleteSource = {
  name: "macro",
  async choices({ db, actor, query, guildId }) {
    if (!guildId) return [];
    const rows = await sqlFor(db).rows<SavedRollRow>`
      SELECT id, name, expression FROM saved_roll
      WHERE guild_id = ${guildId} AND user_id = ${actor.userId} AND strpos(name_key, ${nameKey(query)}) > 0
      ORDER BY name_key LIMIT 25`;
    return rows.map((r) => ({ name: `${r.name} — ${r.expression}`, value: r.name }));
  },
};
