/**
 * Mountain Witch sheets: abilities, background, zodiac, status and recovery attempts
 * (`/character abilities|background|zodiac|status|recover`), the starting trust links
 * when a player character is created, and the public sheet fields (never the fate,
 * unless its owner revealed it).
 */
import type { Character, GameTable } from "../../generated/prisma/client.js";
import { familyKey, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import {
  assertMayAttemptRecovery,
  isZodiacSign,
  openRecoveryConflict,
  ZODIAC,
} from "../../rules/mountain-witch/index.js";
import { liveCharacterOfSign, setCharacterStatus, setCharacterZodiac } from "../../store/characters.js";
import { sqlFor } from "../../store/db.js";
import { actingCharacter, findCharacter, requireControl, requireTable } from "../access.js";
import { startFlow } from "../flows.js";
import type { Intent } from "../intent.js";
import { appendLog, type LogInput } from "../log.js";
import { cleanText } from "../names.js";
import type { ActionContext, ActionResult, SystemHooks } from "../use-case.js";
import type { EmbedView } from "../views.js";
import { conflictPanel } from "./conflict-view.js";
import { type DamageLineEntry, damageLine } from "./damage.js";
import { conflictFlow } from "./flow-states.js";
import { mwSheet, mwTableState, refOf, saveSheet, trustCharacters, zodiacTrust } from "./shared.js";
import { forgetStartingEdits } from "./starting-trust.js";
import { gmAction, mwAction } from "./use-cases.js";

/** (Re)sets the starting trust between a character and every other player character, both ways. */
async function seedTrust(tx: ActionContext["tx"], table: GameTable, character: Character): Promise<void> {
  if (character.kind !== "pc") return;
  const others = (await trustCharacters(tx, table.id)).filter((c) => c.id !== character.id);
  for (const other of others) {
    const value = zodiacTrust(character, other);
    for (const [giverId, holderId] of [
      [character.id, other.id],
      [other.id, character.id],
    ] as const) {
      await sqlFor(tx).run`
        INSERT INTO trust_link (table_id, giver_id, holder_id, value, points)
        VALUES (${table.id}, ${giverId}, ${holderId}, ${value}, ${value})
        ON CONFLICT (giver_id, holder_id) DO UPDATE SET value = EXCLUDED.value, points = EXCLUDED.points`;
    }
  }
}

export const hooks: SystemHooks = {
  async onCharacterCreated(ctx, character) {
    const table = requireTable(ctx);
    if (table.system !== "mountain-witch") return;
    await saveSheet(ctx.tx, character, {});
    await seedTrust(ctx.tx, table, character);
  },
  async sheetFields(ctx, character) {
    const table = requireTable(ctx);
    const sheet = mwSheet(character);
    const damage = await sqlFor(ctx.tx).rows<DamageLineEntry>`
      SELECT id, duration, ability, condition, note FROM damage_entry
      WHERE character_id = ${character.id} AND cleared_at IS NULL ORDER BY id`;
    const lost = new Set(damage.flatMap((d) => (d.ability ? [d.ability.toLowerCase()] : [])));
    const fields: { name: string; value: string; inline?: boolean }[] = [];
    if (character.kind === "npc") {
      fields.push({
        name: t(ctx.publicLang, "mw.sheet.strength"),
        value: t(ctx.publicLang, familyKey("mw.strength.", character.strength ?? "")),
        inline: true,
      });
    } else {
      const sign = character.zodiac && isZodiacSign(character.zodiac) ? character.zodiac : null;
      fields.push({
        name: t(ctx.publicLang, "mw.sheet.zodiac"),
        value: sign
          ? t(ctx.publicLang, "mw.sheet.zodiacLine", {
              sign: t(ctx.publicLang, `mw.sign.${sign}`),
              allies: ZODIAC[sign].allies.map((a) => t(ctx.publicLang, `mw.sign.${a}`)).join(", "),
              enemy: t(ctx.publicLang, `mw.sign.${ZODIAC[sign].enemy}`),
            })
          : "—",
      });
      // The seed's sketch of the sign, «может помочь при создании образа».
      if (sign)
        fields.push({
          name: t(ctx.publicLang, "mw.sheet.zodiacSketch"),
          value: `_${t(ctx.publicLang, `mw.zodiacSketch.${sign}`)}_`,
        });
      const abilities = sheet.abilities.map((a) =>
        lost.has(a.toLowerCase()) ? `~~${a}~~ ${t(ctx.publicLang, "mw.sheet.unusable")}` : a,
      );
      fields.push({
        name: t(ctx.publicLang, "mw.sheet.abilities"),
        value: abilities.map((a) => `• ${a}`).join("\n") || "—",
      });
      if (sheet.props) fields.push({ name: t(ctx.publicLang, "mw.sheet.props"), value: sheet.props });
      if (sheet.ronin) fields.push({ name: t(ctx.publicLang, "mw.sheet.ronin"), value: sheet.ronin });
      if (sheet.money) fields.push({ name: t(ctx.publicLang, "mw.sheet.money"), value: sheet.money });
      if (sheet.background)
        fields.push({ name: t(ctx.publicLang, "mw.sheet.background"), value: sheet.background });
      const deck = mwTableState(table).fates;
      const hand = deck?.hands.find((h) => h.characterId === character.id);
      // The dark fate is public only once its owner revealed it.
      fields.push({
        name: t(ctx.publicLang, "mw.sheet.fate"),
        value: hand?.revealed
          ? `${t(ctx.publicLang, `mw.fate.${hand.fate}`)} — ${t(ctx.publicLang, `mw.fate.desc.${hand.fate}`)}`
          : hand
            ? t(ctx.publicLang, "mw.fate.hidden")
            : t(ctx.publicLang, "mw.fate.notYet"),
        inline: true,
      });
    }
    fields.push({
      name: t(ctx.publicLang, "mw.sheet.damage"),
      value:
        damage.map((d) => damageLine(ctx.publicLang, d)).join("\n") || t(ctx.publicLang, "mw.damage.none"),
    });
    return fields;
  },
  async tableFields(ctx) {
    const table = requireTable(ctx);
    const mw = mwTableState(table);
    const fates = mw.fates;
    return [
      {
        name: t(ctx.publicLang, "mw.table.matrix"),
        value: t(ctx.publicLang, mw.matrixLocked ? "mw.table.matrixLocked" : "mw.table.matrixOpen"),
        inline: true,
      },
      {
        name: t(ctx.publicLang, "mw.table.fates"),
        value: fates
          ? t(ctx.publicLang, fates.mode === "deal" ? "mw.table.fatesDealt" : "mw.table.fatesChosen", {
              count: fates.hands.length,
            })
          : t(ctx.publicLang, "mw.table.fatesNone"),
        inline: true,
      },
    ];
  },
};

async function sheetTarget(
  ctx: Pick<ActionContext, "tx" | "table" | "actor">,
  characterName: string | undefined,
): Promise<Character> {
  const character = await actingCharacter(ctx, characterName, { gmMayActForPlayers: true });
  if (character.kind !== "pc") refuse("errors.mw.sheetPlayerOnly");
  return character;
}

/** A sheet change is logged for its character and answered in the channel with what the sheet now says. */
async function sheetChanged(
  ctx: ActionContext<Intent, "required">,
  character: Character,
  log: Omit<LogInput, "characterId">,
  shown: EmbedView,
): Promise<ActionResult> {
  await appendLog(ctx, ctx.table.id, { ...log, characterId: character.id });
  return { reply: { embeds: [{ ...shown, tone: "success" }] } };
}

export const characterAbilities = mwAction("character.abilities", "public change", async (ctx) => {
  const character = await sheetTarget(ctx, ctx.intent.name);
  const before = mwSheet(character).abilities;
  const next = [...before];
  const slots = [ctx.intent.first, ctx.intent.second, ctx.intent.third];
  if (slots.every((s) => s === undefined)) refuse("errors.mw.abilitiesNeeded");
  slots.forEach((s, i) => {
    if (s === undefined) return;
    // "-" clears a slot.
    next[i] = s.trim() === "-" ? "" : cleanText(s, 100);
  });
  const abilities = next.filter((a) => a && a.length > 0).slice(0, 3);
  await saveSheet(ctx.tx, character, { abilities });
  return sheetChanged(
    ctx,
    character,
    {
      action: "character.abilities",
      summary: { key: "log.mw.sheet.abilities", params: { name: character.name } },
      before: { abilities: before },
      after: { abilities },
    },
    {
      title: character.name,
      description: abilities.map((a) => `• ${a}`).join("\n") || "—",
      footer: t(ctx.publicLang, "mw.sheet.abilitiesSaved"),
    },
  );
});

/**
 * Background (docs/rules/mountain-witch.md §1.5): the two questions of character creation —
 * why and how the character became a ronin, why they need the money badly enough to go
 * against the Witch — and free notes. "-" clears one.
 */
export const characterBackground = mwAction("character.background", "public change", async (ctx) => {
  const character = await sheetTarget(ctx, ctx.intent.name);
  const { text, ronin, money } = ctx.intent;
  if (text === undefined && ronin === undefined && money === undefined) refuse("errors.mw.backgroundNeeded");
  const answer = (value: string | undefined, old: string | null) =>
    value === undefined ? old : value.trim() === "-" ? null : cleanText(value, 1000) || null;
  const sheet = mwSheet(character);
  const patch = {
    background: answer(text, sheet.background),
    ronin: answer(ronin, sheet.ronin),
    money: answer(money, sheet.money),
  };
  await saveSheet(ctx.tx, character, patch);
  const fields = [
    { name: t(ctx.publicLang, "mw.sheet.ronin"), value: patch.ronin ?? "—" },
    { name: t(ctx.publicLang, "mw.sheet.money"), value: patch.money ?? "—" },
    { name: t(ctx.publicLang, "mw.sheet.background"), value: patch.background ?? "—" },
  ];
  return sheetChanged(
    ctx,
    character,
    {
      action: "character.background",
      summary: { key: "log.mw.sheet.background", params: { name: character.name } },
    },
    {
      title: character.name,
      fields,
      footer: t(ctx.publicLang, "mw.sheet.backgroundSaved"),
    },
  );
});

/** Props (docs/rules/mountain-witch.md §1.5): items and flourishes that colour the character, no mechanical effect. */
export const characterProps = mwAction("character.props", "public change", async (ctx) => {
  const character = await sheetTarget(ctx, ctx.intent.name);
  const props = ctx.intent.text.trim() === "-" ? null : cleanText(ctx.intent.text, 1000) || null;
  await saveSheet(ctx.tx, character, { props });
  return sheetChanged(
    ctx,
    character,
    {
      action: "character.props",
      summary: { key: "log.mw.sheet.props", params: { name: character.name } },
    },
    {
      title: character.name,
      fields: [{ name: t(ctx.publicLang, "mw.sheet.props"), value: props ?? "—" }],
      footer: t(ctx.publicLang, "mw.sheet.propsSaved"),
    },
  );
});

export const characterZodiac = mwAction("character.zodiac", "public change", async (ctx) => {
  const { table } = ctx;
  const character = await sheetTarget(ctx, ctx.intent.name);
  if (mwTableState(table).matrixLocked) refuse("errors.mw.zodiacLocked");
  const holder = await liveCharacterOfSign(ctx.tx, table.id, ctx.intent.sign, { except: character.id });
  if (holder)
    refuse("errors.character.zodiacTaken", {
      sign: `@mw.sign.${ctx.intent.sign}`,
      name: holder.name,
    });
  const updated = (await setCharacterZodiac(ctx.tx, character.id, ctx.intent.sign))!;
  // The starting matrix follows the signs until play begins.
  await seedTrust(ctx.tx, table, updated);
  await forgetStartingEdits(ctx.tx, table, updated.id);
  return sheetChanged(
    ctx,
    character,
    {
      action: "character.zodiac",
      summary: {
        key: "log.mw.sheet.zodiac",
        params: { name: character.name, sign: `@mw.sign.${ctx.intent.sign}` },
      },
      before: { zodiac: character.zodiac },
      after: { zodiac: ctx.intent.sign },
    },
    {
      description: t(ctx.publicLang, "mw.sheet.zodiacSaved", {
        name: character.name,
        sign: t(ctx.publicLang, `mw.sign.${ctx.intent.sign}`),
      }),
    },
  );
});

export const characterStatus = gmAction("character.status", "public change", async (ctx) => {
  const { table } = ctx;
  const character = await findCharacter(ctx.tx, table.id, ctx.intent.name);
  await setCharacterStatus(ctx.tx, character.id, ctx.intent.status);
  if (ctx.intent.status === "incapacitated" && character.status !== "incapacitated") {
    await saveSheet(ctx.tx, character, {
      incapacitatedInChapter: table.chapter,
      recoveryTriedInChapter: null,
    });
  }
  return sheetChanged(
    ctx,
    character,
    {
      action: "character.status",
      summary: {
        key: "log.mw.sheet.status",
        params: { name: character.name, status: `@character.status.${ctx.intent.status}` },
      },
      before: { status: character.status },
      after: { status: ctx.intent.status },
    },
    {
      description: t(ctx.publicLang, "mw.sheet.statusSaved", {
        name: character.name,
        status: t(ctx.publicLang, `character.status.${ctx.intent.status}`),
      }),
    },
  );
});

export const characterRecover = mwAction("character.recover", "public change", async (ctx) => {
  const { table } = ctx;
  const character = ctx.intent.name
    ? await findCharacter(ctx.tx, table.id, ctx.intent.name)
    : await actingCharacter(ctx, undefined);
  requireControl(ctx, character, { gmMayActForPlayers: true });
  const sheet = mwSheet(character);
  assertMayAttemptRecovery(
    {
      characterId: character.id,
      status:
        character.status === "incapacitated"
          ? "incapacitated"
          : character.status === "dead"
            ? "dead"
            : "active",
      incapacitatedInChapter: sheet.incapacitatedInChapter,
      recoveryTriedInChapter: sheet.recoveryTriedInChapter,
    },
    table.chapter,
  );
  const state = openRecoveryConflict(refOf(character));
  await saveSheet(ctx.tx, character, { recoveryTriedInChapter: table.chapter });
  const flow = await startFlow(ctx, conflictFlow, table.id, state);
  await appendLog(ctx, table.id, {
    action: "character.recover",
    characterId: character.id,
    summary: { key: "log.mw.recoveryAttempt", params: { name: character.name } },
  });
  return { reply: conflictPanel(ctx.publicLang, flow.id, state), replyIsPanelOf: flow.id };
});

export const sheetUseCases = [
  characterAbilities,
  characterBackground,
  characterProps,
  characterZodiac,
  characterStatus,
  characterRecover,
];
