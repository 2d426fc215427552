import type { Character } from "../../generated/prisma/client.js";
import { familyKey, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import {
  characterById,
  createCharacter,
  deleteCharacter,
  liveCharacterById,
  liveCharacterByKey,
  liveCharacterOfSign,
  ownedCharacters,
  renameCharacter,
  tableCharacters,
} from "../../store/characters.js";
import { actingCharacter, findCharacter, isGm, requireControl, requireTable } from "../access.js";
import { hooksFor } from "../hooks.js";
import { appendLog } from "../log.js";
import { cleanName, nameKey } from "../names.js";
import type { ActionContext } from "../use-case.js";
import type { EmbedView } from "../views.js";
import { confirmation, confirmed, notice } from "./answers.js";
import { tableUseCase } from "./use-cases.js";

export const characterCreate = tableUseCase(
  "character.create",
  { mutates: true, ephemeral: false },
  async (ctx, table) => {
    const gm = isGm(table, ctx.actor);
    const kind = ctx.intent.kind ?? (ctx.intent.player || !gm ? "pc" : "npc");
    const characterName = cleanName(ctx.intent.name);
    if (kind === "npc" && !gm) refuse("errors.character.npcGmOnly");
    if (kind === "npc" && ctx.intent.player) refuse("errors.character.npcHasNoPlayer");
    const owner = kind === "pc" ? (ctx.intent.player ?? ctx.actor.userId) : null;
    if (owner && owner !== ctx.actor.userId && !gm) refuse("errors.character.othersGmOnly");
    if (ctx.intent.zodiac && table.system !== "mountain-witch")
      refuse("errors.character.zodiacMountainWitchOnly");
    if (ctx.intent.strength && table.system !== "mountain-witch")
      refuse("errors.character.strengthMountainWitchOnly");
    // Player characters are always strong (docs/rules/mountain-witch.md §1.2).
    if (kind === "pc" && ctx.intent.strength && ctx.intent.strength !== "strong")
      refuse("errors.character.pcAlwaysStrong");
    const key = nameKey(characterName);
    const clash = await liveCharacterByKey(ctx.tx, table.id, key);
    if (clash) refuse("errors.character.nameTaken", { name: clash.name });
    if (ctx.intent.zodiac) {
      const holder = await liveCharacterOfSign(ctx.tx, table.id, ctx.intent.zodiac);
      if (holder)
        refuse("errors.character.zodiacTaken", {
          sign: `@mw.sign.${ctx.intent.zodiac}`,
          name: holder.name,
        });
    }
    const character = await createCharacter(ctx.tx, {
      tableId: table.id,
      name: characterName,
      nameKey: key,
      ownerUserId: owner,
      kind,
      strength: kind === "pc" ? "strong" : (ctx.intent.strength ?? "medium"),
      zodiac: ctx.intent.zodiac ?? null,
    });
    await hooksFor(table.system).onCharacterCreated?.(ctx, character);
    await appendLog(ctx, table.id, {
      action: "character.create",
      characterId: character.id,
      summary: { key: "log.character.create", params: { name: character.name, kind } },
      after: { name: character.name, owner, kind, strength: character.strength, zodiac: character.zodiac },
    });
    // As the game's hook left it (it may have set up the sheet).
    const fresh = (await characterById(ctx.tx, character.id))!;
    return {
      reply: {
        content: t(ctx.publicLang, "character.create.done", { name: fresh.name }),
        embeds: [await sheetEmbed(ctx, fresh)],
      },
    };
  },
);

export async function sheetEmbed(
  ctx: Pick<ActionContext, "tx" | "publicLang" | "table">,
  character: Character,
): Promise<EmbedView> {
  const table = requireTable(ctx);
  const fields = (await hooksFor(table.system).sheetFields?.(ctx, character)) ?? [];
  const who = character.ownerUserId
    ? `<@${character.ownerUserId}>`
    : t(ctx.publicLang, "character.gmCharacter");
  const status =
    character.status !== "active"
      ? ` · ${t(ctx.publicLang, familyKey("character.status.", character.status))}`
      : "";
  // A GM character's kind already says whose it is: "GM character", not "GM character · GM character".
  const owner = character.ownerUserId ? ` · ${who}` : "";
  return {
    title: character.name,
    description: `${t(ctx.publicLang, familyKey("character.kind.", character.kind))}${owner}${status}`,
    fields,
    tone: "info",
  };
}

export const characterShow = tableUseCase(
  "character.show",
  { mutates: false, ephemeral: false },
  async (ctx, table) => {
    let character: Character;
    if (ctx.intent.name) character = await findCharacter(ctx.tx, table.id, ctx.intent.name);
    else {
      const [own] = await ownedCharacters(ctx.tx, table.id, ctx.actor.userId);
      if (!own) refuse("errors.character.noneOwned");
      character = own;
    }
    return { reply: { embeds: [await sheetEmbed(ctx, character)] } };
  },
);

export const characterList = tableUseCase(
  "character.list",
  { mutates: false, ephemeral: false },
  async (ctx, table) => {
    const characters = await tableCharacters(ctx.tx, table.id);
    const lines = characters.map((c) => {
      const who = c.ownerUserId ? `<@${c.ownerUserId}>` : t(ctx.publicLang, "character.gmCharacter");
      const strength =
        table.system === "mountain-witch" && c.kind === "npc"
          ? ` · ${t(ctx.publicLang, familyKey("mw.strength.", c.strength ?? ""))}`
          : "";
      const status =
        c.status !== "active" ? ` · ${t(ctx.publicLang, familyKey("character.status.", c.status))}` : "";
      return `• **${c.name}** — ${who}${strength}${status}`;
    });
    return {
      reply: {
        embeds: [
          {
            title: t(ctx.publicLang, "character.list.title", { count: characters.length }),
            description: lines.join("\n") || t(ctx.publicLang, "character.list.empty"),
          },
        ],
      },
    };
  },
);

export const characterRename = tableUseCase(
  "character.rename",
  { mutates: true, ephemeral: false },
  async (ctx, table) => {
    const character = await actingCharacter(ctx, ctx.intent.name, { gmMayActForPlayers: true });
    const newName = cleanName(ctx.intent.newName);
    const key = nameKey(newName);
    const clash = await liveCharacterByKey(ctx.tx, table.id, key, { except: character.id });
    if (clash) refuse("errors.character.nameTaken", { name: clash.name });
    await renameCharacter(ctx.tx, character.id, newName, key);
    await appendLog(ctx, table.id, {
      action: "character.rename",
      characterId: character.id,
      summary: { key: "log.character.rename", params: { from: character.name, to: newName } },
      before: { name: character.name },
      after: { name: newName },
    });
    const done = t(ctx.publicLang, "character.rename.done", { from: character.name, to: newName });
    return { reply: notice(done, "success") };
  },
);

export const characterDelete = tableUseCase(
  "character.delete",
  { mutates: false, ephemeral: true },
  async (ctx) => {
    const character = await actingCharacter(ctx, ctx.intent.name, { gmMayActForPlayers: true });
    return {
      reply: confirmation(t(ctx.userLang, "character.delete.confirm", { name: character.name }), {
        label: t(ctx.userLang, "character.delete.button"),
        intent: { type: "character.delete-confirm", characterId: character.id },
      }),
    };
  },
);

export const characterDeleteConfirm = tableUseCase(
  "character.delete-confirm",
  { mutates: true, ephemeral: false },
  async (ctx, table) => {
    const character = await liveCharacterById(ctx.tx, table.id, ctx.intent.characterId);
    if (!character) refuse("errors.character.alreadyDeleted");
    requireControl(ctx, character, { gmMayActForPlayers: true });
    // Soft delete: the log keeps referring to it, and the name becomes free again.
    await deleteCharacter(ctx.tx, character, ctx.now);
    await appendLog(ctx, table.id, {
      action: "character.delete",
      characterId: character.id,
      summary: { key: "log.character.delete", params: { name: character.name } },
      before: { name: character.name, owner: character.ownerUserId },
    });
    const announce = t(ctx.publicLang, "character.delete.announce", {
      name: character.name,
      user: `<@${ctx.actor.userId}>`,
    });
    return confirmed(t(ctx.userLang, "character.delete.done", { name: character.name }), {
      channelId: table.channelId,
      embed: { description: announce },
    });
  },
);
