import type { GameTable } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { type Aspect, sameAspectName } from "../../rules/fate/aspects.js";
import { makeStunt } from "../../rules/fate/character.js";
import {
  clearFactionStress,
  FACTION_ABILITY_KEYS,
  FACTION_TRACKS,
  type Faction,
  type FactionAbilities,
  type FactionTrack,
  factionSceneFatePoint,
  loadFaction,
  newFaction,
  passFatePointToFaction,
  resolveFactionAbility,
} from "../../rules/fate/faction.js";
import { adjustFatePoints } from "../../rules/fate/fate-points.js";
import { signed } from "../../rules/fate/ladder.js";
import { echo } from "../../rules/fate/skills.js";
import type { Tx } from "../../store/db.js";
import { actingCharacter } from "../access.js";
import { appendLog } from "../log.js";
import { cleanName, cleanText, nameKey } from "../names.js";
import type { EmbedView } from "../views.js";
import { fateIntents } from "./intents.js";
import {
  findTableAspect,
  saveFatePoints,
  saveTableAspect,
  saveTableState,
  type TableAspect,
  tableAspects,
  tableState,
} from "./state.js";
import { defineFateUseCase } from "./use-cases.js";
import { boxesText } from "./views.js";

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

/** The table's factions, whatever version stored them (docs/rules/fate.md §3.5). */
export function factionsOf(table: GameTable): Faction[] {
  return tableState(table).factions.map(loadFaction);
}

async function saveFactions(tx: Tx, table: GameTable, factions: Faction[]): Promise<void> {
  await saveTableState(tx, table, { ...tableState(table), factions });
}

/** Writes one faction back into the table state. */
export async function saveFactionState(tx: Tx, table: GameTable, faction: Faction): Promise<void> {
  await saveFaction(tx, table, faction);
}

export async function saveFaction(tx: Tx, table: GameTable, faction: Faction): Promise<void> {
  await saveFactions(
    tx,
    table,
    factionsOf(table).map((f) => (f.id === faction.id ? faction : f)),
  );
}

export function findFaction(factions: readonly Faction[], name: string): Faction {
  const found = factions.find((f) => sameAspectName(f.name, name) || f.id === name);
  return found ?? refuse("errors.fate.unknownFaction", { name: echo(name) });
}

export function trackText(lang: Lang, track: FactionTrack): string {
  return t(lang, `fate.factionTrack.${track}`);
}

export function factionEmbed(lang: Lang, faction: Faction): EmbedView {
  const abilities =
    FACTION_ABILITY_KEYS.filter((k) => (faction.abilities[k] ?? 0) > 0)
      .sort((a, b) => (faction.abilities[b] ?? 0) - (faction.abilities[a] ?? 0))
      .map((k) => `${signed(faction.abilities[k] ?? 0)} ${t(lang, `fate.factionAbility.${k}`)}`)
      .join(" · ") || "—";
  const consequences = faction.consequences
    .map(
      (s) =>
        `${t(lang, `fate.consequenceSlot.${s.id}`)}: ${
          s.taken ? (s.aspect?.name ?? t(lang, "fate.sheet.unnamed")) : "—"
        }`,
    )
    .join("\n");
  const aspects = faction.aspects
    .map((a) =>
      a.freeInvokes.length > 0
        ? `• ${a.name} (${t(lang, "fate.faction.freeInvokes", { count: a.freeInvokes.length })})`
        : `• ${a.name}`,
    )
    .join("\n");
  return {
    title: t(lang, "fate.faction.title", { name: faction.name }),
    fields: [
      { name: t(lang, "fate.sheet.aspects"), value: aspects || "—" },
      { name: t(lang, "fate.faction.abilities"), value: abilities },
      ...(faction.stunts.length > 0
        ? [
            {
              name: t(lang, "fate.faction.stunts"),
              value: faction.stunts
                .map((s) => (s.text ? `• **${s.name}**: ${s.text}` : `• **${s.name}**`))
                .join("\n")
                .slice(0, 1024),
            },
          ]
        : []),
      { name: t(lang, "fate.sheet.fp"), value: String(faction.fatePoints), inline: true },
      {
        name: t(lang, "fate.sheet.stress"),
        value: FACTION_TRACKS.map((k) => `${trackText(lang, k)}: ${boxesText(faction.stress[k])}`).join("\n"),
        inline: true,
      },
      { name: t(lang, "fate.sheet.consequences"), value: consequences, inline: true },
    ],
    tone: "info",
  };
}

/** "Name: what it does; Name: …" → stunts. */
function parseStunts(text: string) {
  return text
    .split(/[;\n]+/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [name, ...rest] = s.split(":");
      return makeStunt(cleanName(name ?? "", 100), cleanText(rest.join(":"), 500));
    });
}

export const factionCreate = defineFateUseCase({
  schema: fateIntents["faction.create"],
  access: "gm",
  async run(ctx) {
    const factions = factionsOf(ctx.table);
    const name = cleanName(ctx.intent.name, 100);
    if (factions.some((f) => sameAspectName(f.name, name))) refuse("errors.fate.factionExists", { name });
    const faction = newFaction({
      id: `f${ctx.now.getTime().toString(36)}${factions.length}`,
      name,
      abilities: ctx.intent.abilities ? parseAbilities(ctx.intent.abilities) : {},
      aspects: (ctx.intent.aspects ?? "")
        .split(/[;\n]+/)
        .map((a) => a.trim())
        .filter(Boolean)
        .map((a) => cleanName(a, 100)),
      stunts: ctx.intent.stunts ? parseStunts(ctx.intent.stunts) : [],
    });
    await saveFactions(ctx.tx, ctx.table, [...factions, faction]);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.faction.create",
      summary: { key: "log.fate.factionCreate", params: { name } },
      after: faction,
    });
    return { reply: { embeds: [factionEmbed(ctx.publicLang, faction)] } };
  },
});

export const factionShow = defineFateUseCase({
  schema: fateIntents["faction.show"],
  mutates: false,
  async run(ctx) {
    const factions = factionsOf(ctx.table);
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
export const factionFp = defineFateUseCase({
  schema: fateIntents["faction.fp"],
  access: "gm",
  async run(ctx) {
    const faction = findFaction(factionsOf(ctx.table), ctx.intent.name);
    const after = adjustFatePoints(faction, ctx.intent.amount);
    await saveFaction(ctx.tx, ctx.table, after);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.faction.fp",
      summary: { key: "log.fate.factionFp", params: { name: faction.name, amount: ctx.intent.amount } },
      before: { fatePoints: faction.fatePoints },
      after: { fatePoints: after.fatePoints },
    });
    return { reply: { embeds: [factionEmbed(ctx.publicLang, after)] } };
  },
});

/**
 * GM: a new scene with the faction in it (docs/rules/fate.md §3.5): last scene's stress boxes
 * clear, and the faction gets 1 FP — unless a character present passes it one of theirs
 * (`from`: that character's point goes to the faction; [decision] the GM records it for the player).
 */
export const factionScene = defineFateUseCase({
  schema: fateIntents["faction.scene"],
  access: "gm",
  async run(ctx) {
    const faction = findFaction(factionsOf(ctx.table), ctx.intent.name);
    const cleared = clearFactionStress(faction);
    const giver = ctx.intent.from
      ? await actingCharacter(ctx, ctx.intent.from, { gmMayActForPlayers: true })
      : null;
    let after: Faction;
    let giverAfter: number | null = null;
    if (giver) {
      const passed = passFatePointToFaction({ fatePoints: giver.fatePoints }, cleared);
      after = passed.faction;
      giverAfter = passed.character.fatePoints;
      await saveFatePoints(ctx.tx, giver.id, giverAfter);
    } else {
      after = factionSceneFatePoint(cleared, false);
    }
    await saveFaction(ctx.tx, ctx.table, after);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.faction.scene",
      characterId: giver?.id ?? null,
      summary: giver
        ? {
            key: "log.fate.factionScenePassed",
            params: {
              name: faction.name,
              character: giver.name,
              from: faction.fatePoints,
              to: after.fatePoints,
            },
          }
        : {
            key: "log.fate.factionScene",
            params: { name: faction.name, from: faction.fatePoints, to: after.fatePoints },
          },
      // An entry's `fatePoints` are its character's (the giver's), as everywhere in the log.
      before: giver
        ? { fatePoints: giver.fatePoints, factionFatePoints: faction.fatePoints, stress: faction.stress }
        : { factionFatePoints: faction.fatePoints, stress: faction.stress },
      after: giver
        ? { fatePoints: giverAfter, factionFatePoints: after.fatePoints, stress: after.stress }
        : { factionFatePoints: after.fatePoints, stress: after.stress },
    });
    return {
      reply: {
        content: giver
          ? t(ctx.publicLang, "fate.faction.scenePassed", {
              name: faction.name,
              character: giver.name,
              cfrom: giver.fatePoints,
              cto: giverAfter ?? 0,
              from: faction.fatePoints,
              to: after.fatePoints,
            })
          : t(ctx.publicLang, "fate.faction.sceneFp", {
              name: faction.name,
              from: faction.fatePoints,
              to: after.fatePoints,
            }),
        embeds: [factionEmbed(ctx.publicLang, after)],
      },
    };
  },
});

/** GM: a faction's consequence heals (docs/rules/fate.md §3.5: consequences as for characters, §3.3 recovery). */
export const factionClear = defineFateUseCase({
  schema: fateIntents["faction.clear"],
  access: "gm",
  async run(ctx) {
    const faction = findFaction(factionsOf(ctx.table), ctx.intent.name);
    const slot = faction.consequences.find((s) => s.id === ctx.intent.severity);
    if (!slot?.taken)
      refuse("errors.fate.factionConsequenceFree", {
        name: faction.name,
        slot: `@fate.consequenceSlot.${ctx.intent.severity}`,
      });
    const after: Faction = {
      ...faction,
      consequences: faction.consequences.map((s) =>
        s.id === ctx.intent.severity ? { ...s, taken: false, aspect: null } : s,
      ),
    };
    await saveFaction(ctx.tx, ctx.table, after);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.faction.clear",
      summary: {
        key: "log.fate.factionClear",
        params: { name: faction.name, slot: `@fate.consequenceSlot.${ctx.intent.severity}` },
      },
      before: { aspect: slot.aspect?.name ?? null },
    });
    return {
      reply: {
        content: t(ctx.publicLang, "fate.faction.cleared", {
          name: faction.name,
          slot: `@fate.consequenceSlot.${ctx.intent.severity}`,
        }),
        embeds: [factionEmbed(ctx.publicLang, after)],
      },
    };
  },
});

export const factionDelete = defineFateUseCase({
  schema: fateIntents["faction.delete"],
  access: "gm",
  async run(ctx) {
    const factions = factionsOf(ctx.table);
    const faction = findFaction(factions, ctx.intent.name);
    await saveFactions(
      ctx.tx,
      ctx.table,
      factions.filter((f) => f.id !== faction.id),
    );
    await appendLog(ctx, ctx.table.id, {
      action: "fate.faction.delete",
      summary: { key: "log.fate.factionDelete", params: { name: faction.name } },
      before: faction,
    });
    return { reply: { content: t(ctx.publicLang, "fate.faction.deleted", { name: faction.name }) } };
  },
});

// --- Faction aspects for /invoke and /compel (docs/rules/fate.md §3.5) ---

/**
 * The faction aspects and named faction consequences, as table aspects: `ref` is
 * `f<factionId>.a<index>` (an aspect) or `f<factionId>.<slot>` (a consequence);
 * `characterName` carries the faction's name for lists.
 */
export function factionTableAspects(table: GameTable): TableAspect[] {
  return factionsOf(table).flatMap((f) => [
    ...f.aspects.map((aspect, i) => ({
      ref: `f${f.id}.a${i}`,
      aspect,
      characterId: null,
      characterName: f.name,
    })),
    ...f.consequences
      .filter((s) => s.taken && s.aspect)
      .map((s) => ({ ref: `f${f.id}.${s.id}`, aspect: s.aspect!, characterId: null, characterName: f.name })),
  ]);
}

/** Every aspect that can be invoked or compelled: the table's (scene, characters, consequences), then the factions'. */
export async function invokableAspects(tx: Tx, table: GameTable): Promise<TableAspect[]> {
  return [...(await tableAspects(tx, table.id)), ...factionTableAspects(table)];
}

function findFactionAspect(table: GameTable, nameOrRef: string): TableAspect | null {
  const all = factionTableAspects(table);
  return (
    all.find((a) => a.ref === nameOrRef) ??
    all.find(
      (a) => sameAspectName(a.aspect.name, nameOrRef) || nameKey(a.aspect.name) === nameKey(nameOrRef),
    ) ??
    null
  );
}

/** The aspect an invoke names: the table's own first (`findTableAspect`), else a faction's. */
export async function findInvokableAspect(
  tx: Tx,
  table: GameTable,
  nameOrRef: string,
  preferCharacterId: number | null = null,
): Promise<TableAspect> {
  if (!nameOrRef.startsWith("f")) {
    try {
      return await findTableAspect(tx, table.id, nameOrRef, preferCharacterId);
    } catch (error) {
      const found = findFactionAspect(table, nameOrRef);
      if (found) return found;
      throw error;
    }
  }
  return findFactionAspect(table, nameOrRef) ?? findTableAspect(tx, table.id, nameOrRef, preferCharacterId);
}

/** Writes an invoked aspect back: into its faction for a faction aspect, else where `saveTableAspect` keeps it. */
export async function saveInvokedAspect(
  tx: Tx,
  table: GameTable,
  found: TableAspect,
  after: Aspect | null,
): Promise<void> {
  const match = /^f(.+)\.(a\d+|mild|moderate|severe)$/.exec(found.ref);
  if (!match) return saveTableAspect(tx, found, after);
  const faction = findFaction(factionsOf(table), match[1]!);
  const part = match[2]!;
  const next: Faction = part.startsWith("a")
    ? {
        ...faction,
        aspects: faction.aspects.map((a, i) => (i === Number(part.slice(1)) && after ? after : a)),
      }
    : {
        ...faction,
        consequences: faction.consequences.map((s) => (s.id === part && after ? { ...s, aspect: after } : s)),
      };
  await saveFaction(tx, table, next);
}

// --- Faction checks (docs/rules/fate.md §3.5) ---
