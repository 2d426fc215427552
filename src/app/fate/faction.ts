import { z } from "zod";
import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { sameAspectName } from "../../rules/fate/aspects.js";
import {
  FACTION_ABILITY_KEYS,
  type Faction,
  type FactionAbilities,
  newFaction,
  resolveFactionAbility,
} from "../../rules/fate/faction.js";
import { adjustFatePoints } from "../../rules/fate/fate-points.js";
import { signed } from "../../rules/fate/ladder.js";
import { echo } from "../../rules/fate/skills.js";
import { absorbHit } from "../../rules/fate/stress.js";
import { requireGm, requireTable } from "../access.js";
import { appendLog } from "../log.js";
import { cleanName } from "../names.js";
import { defineUseCase } from "../use-case.js";
import type { EmbedView } from "../views.js";
import { absorptionText } from "./harm.js";
import { saveTableState, tableState } from "./state.js";
import { boxesText } from "./views.js";

const factionName = z.string().min(1).max(100);

/** "military 4, Магическая сила 3, commerce 2" (or the compact "military:4 commerce:2") → ratings. */
export function parseAbilities(text: string): FactionAbilities {
  const abilities: FactionAbilities = {};
  for (const item of text
    .split(/[,;\n]+/)
    .map((s) => s.trim())
    .flatMap((s) => (/^\S+[:=]\+?\d+(\s+\S+[:=]\+?\d+)+$/.test(s) ? s.split(/\s+/) : [s]))
    .filter(Boolean)) {
    const match = /^(.+?)\s*[:=]?\s*\+?(\d+)$/.exec(item);
    if (!match) refuse("errors.fate.ranksUnreadable", { item: echo(item) });
    abilities[resolveFactionAbility(match[1]!)] = Number(match[2]);
  }
  return abilities;
}

function findFaction(factions: readonly Faction[], name: string): Faction {
  const found = factions.find((f) => sameAspectName(f.name, name));
  return found ?? refuse("errors.fate.unknownFaction", { name: echo(name) });
}

function factionEmbed(lang: Lang, faction: Faction): EmbedView {
  const abilities =
    FACTION_ABILITY_KEYS.filter((k) => (faction.abilities[k] ?? 0) > 0)
      .sort((a, b) => (faction.abilities[b] ?? 0) - (faction.abilities[a] ?? 0))
      .map((k) => `${signed(faction.abilities[k] ?? 0)} ${t(lang, `fate.factionAbility.${k}`)}`)
      .join(" · ") || "—";
  const consequences = faction.consequences
    .filter((s) => s.taken)
    .map(
      (s) => `${t(lang, `fate.consequenceSlot.${s.id}`)}: ${s.aspect?.name ?? t(lang, "fate.sheet.unnamed")}`,
    )
    .join("\n");
  return {
    title: t(lang, "fate.faction.title", { name: faction.name }),
    fields: [
      {
        name: t(lang, "fate.sheet.aspects"),
        value: faction.aspects.map((a) => `• ${a.name}`).join("\n") || "—",
      },
      { name: t(lang, "fate.faction.abilities"), value: abilities },
      { name: t(lang, "fate.sheet.fp"), value: String(faction.fatePoints), inline: true },
      {
        name: t(lang, "fate.sheet.stress"),
        value: `${t(lang, "fate.stress.physical")}: ${boxesText(faction.stress.physical.boxes)}\n${t(lang, "fate.stress.mental")}: ${boxesText(faction.stress.mental.boxes)}`,
        inline: true,
      },
      ...(consequences
        ? [{ name: t(lang, "fate.sheet.consequences"), value: consequences, inline: true }]
        : []),
    ],
    tone: "info",
  };
}

export const factionCreate = defineUseCase({
  type: "faction.create",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("faction.create"),
    name: factionName,
    abilities: z.string().max(300).optional(),
    aspects: z.string().max(500).optional(),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireGm(ctx);
    const state = tableState(table);
    const name = cleanName(ctx.intent.name, 100);
    if (state.factions.some((f) => sameAspectName(f.name, name)))
      refuse("errors.fate.factionExists", { name });
    const faction = newFaction({
      id: `f${ctx.now.getTime().toString(36)}${state.factions.length}`,
      name,
      abilities: ctx.intent.abilities ? parseAbilities(ctx.intent.abilities) : {},
      aspects: (ctx.intent.aspects ?? "")
        .split(/[;\n]+/)
        .map((a) => a.trim())
        .filter(Boolean)
        .map((a) => cleanName(a, 100)),
    });
    await saveTableState(ctx.tx, table, { ...state, factions: [...state.factions, faction] });
    await appendLog(ctx, table.id, {
      action: "fate.faction.create",
      summary: { key: "log.fate.factionCreate", params: { name } },
      after: faction,
    });
    return { reply: { embeds: [factionEmbed(ctx.publicLang, faction)] } };
  },
});

export const factionShow = defineUseCase({
  type: "faction.show",
  systems: ["fate"],
  schema: z.object({ type: z.literal("faction.show"), name: factionName.optional() }),
  table: "required",
  mutates: false,
  ephemeral: false,
  async run(ctx) {
    const table = requireTable(ctx);
    const { factions } = tableState(table);
    if (ctx.intent.name)
      return { reply: { embeds: [factionEmbed(ctx.publicLang, findFaction(factions, ctx.intent.name))] } };
    return {
      reply: {
        embeds: [
          {
            title: t(ctx.publicLang, "fate.faction.listTitle"),
            description:
              factions.map((f) => `• **${f.name}** (${f.fatePoints} FP)`).join("\n") ||
              t(ctx.publicLang, "fate.faction.none"),
          },
        ],
      },
    };
  },
});

/** GM: a faction's fate points (docs/rules/fate.md §3.5: 1 per scene where no character present can pass it one). */
export const factionFp = defineUseCase({
  type: "faction.fp",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("faction.fp"),
    name: factionName,
    amount: z.number().int().min(-20).max(20),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireGm(ctx);
    const state = tableState(table);
    const faction = findFaction(state.factions, ctx.intent.name);
    const after = adjustFatePoints(faction, ctx.intent.amount);
    await saveTableState(ctx.tx, table, {
      ...state,
      factions: state.factions.map((f) => (f === faction ? after : f)),
    });
    await appendLog(ctx, table.id, {
      action: "fate.faction.fp",
      summary: { key: "log.fate.factionFp", params: { name: faction.name, amount: ctx.intent.amount } },
      before: { fatePoints: faction.fatePoints },
      after: { fatePoints: after.fatePoints },
    });
    return { reply: { embeds: [factionEmbed(ctx.publicLang, after)] } };
  },
});

/** GM: a hit on a faction, on its two-box tracks and consequences ([decision] docs/rules/fate.md §3.5). */
export const factionHit = defineUseCase({
  type: "faction.hit",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("faction.hit"),
    name: factionName,
    shifts: z.number().int().min(0).max(30),
    kind: z.enum(["physical", "mental"]).optional(),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireGm(ctx);
    const state = tableState(table);
    const faction = findFaction(state.factions, ctx.intent.name);
    const kind = ctx.intent.kind ?? "physical";
    const absorption = absorbHit(faction.stress[kind], faction.consequences, ctx.intent.shifts);
    const after: Faction = {
      ...faction,
      stress: { ...faction.stress, [kind]: absorption.track },
      consequences: absorption.slots,
    };
    await saveTableState(ctx.tx, table, {
      ...state,
      factions: state.factions.map((f) => (f === faction ? after : f)),
    });
    await appendLog(ctx, table.id, {
      action: "fate.faction.hit",
      summary: { key: "log.fate.factionHit", params: { name: faction.name, shifts: ctx.intent.shifts } },
      before: { stress: faction.stress, consequences: faction.consequences },
      after: { stress: after.stress, consequences: after.consequences },
    });
    return {
      reply: {
        content: absorptionText(ctx.publicLang, faction.name, absorption),
        embeds: [factionEmbed(ctx.publicLang, after)],
      },
    };
  },
});

export const factionDelete = defineUseCase({
  type: "faction.delete",
  systems: ["fate"],
  schema: z.object({ type: z.literal("faction.delete"), name: factionName }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireGm(ctx);
    const state = tableState(table);
    const faction = findFaction(state.factions, ctx.intent.name);
    await saveTableState(ctx.tx, table, { ...state, factions: state.factions.filter((f) => f !== faction) });
    await appendLog(ctx, table.id, {
      action: "fate.faction.delete",
      summary: { key: "log.fate.factionDelete", params: { name: faction.name } },
      before: faction,
    });
    return { reply: { content: t(ctx.publicLang, "fate.faction.deleted", { name: faction.name }) } };
  },
});
