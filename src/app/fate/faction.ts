import type { GameTable } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { type Aspect, makeAspect, sameAspectName } from "../../rules/fate/aspects.js";
import { makeStunt } from "../../rules/fate/character.js";
import {
  clearFactionStress,
  FACTION_ABILITY_KEYS,
  FACTION_TRACKS,
  type Faction,
  type FactionAbilities,
  type FactionAbsorption,
  type FactionCheck,
  type FactionHit,
  type FactionTrack,
  factionAbsorptions,
  factionCheckOutcome,
  factionCheckResult,
  factionCheckShifts,
  factionInvoke,
  factionSceneFatePoint,
  hitFaction,
  loadFaction,
  newFaction,
  passFatePointToFaction,
  resolveFactionAbility,
  rollFactionCheck,
} from "../../rules/fate/faction.js";
import { adjustFatePoints } from "../../rules/fate/fate-points.js";
import { signed } from "../../rules/fate/ladder.js";
import { outcome } from "../../rules/fate/outcomes.js";
import { echo } from "../../rules/fate/skills.js";
import type { ConsequenceSlotId } from "../../rules/fate/stress.js";
import type { Tx } from "../../store/db.js";
import { tableById } from "../../store/tables.js";
import { actingCharacter, requireTable } from "../access.js";
import { createFlow, panelEdit, requireFlow, saveFlowState } from "../flows.js";
import { appendLog } from "../log.js";
import { cleanName, cleanText, nameKey } from "../names.js";
import { type ActionContext, defineUseCase } from "../use-case.js";
import type { EmbedView, MessageView } from "../views.js";
import { factionCheckFlow, factionHitFlow } from "./flow-states.js";
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
import { aspectInvokeOptions, boxesText, diceText, ladderText } from "./views.js";

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

async function saveFaction(tx: Tx, table: GameTable, faction: Faction): Promise<void> {
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

function trackText(lang: Lang, track: FactionTrack): string {
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

export const factionCreate = defineUseCase({
  systems: ["fate"],
  schema: fateIntents["faction.create"],
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const factions = factionsOf(table);
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
    await saveFactions(ctx.tx, table, [...factions, faction]);
    await appendLog(ctx, table.id, {
      action: "fate.faction.create",
      summary: { key: "log.fate.factionCreate", params: { name } },
      after: faction,
    });
    return { reply: { embeds: [factionEmbed(ctx.publicLang, faction)] } };
  },
});

export const factionShow = defineUseCase({
  systems: ["fate"],
  schema: fateIntents["faction.show"],
  table: "required",
  mutates: false,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const factions = factionsOf(table);
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
  systems: ["fate"],
  schema: fateIntents["faction.fp"],
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const faction = findFaction(factionsOf(table), ctx.intent.name);
    const after = adjustFatePoints(faction, ctx.intent.amount);
    await saveFaction(ctx.tx, table, after);
    await appendLog(ctx, table.id, {
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
export const factionScene = defineUseCase({
  systems: ["fate"],
  schema: fateIntents["faction.scene"],
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const faction = findFaction(factionsOf(table), ctx.intent.name);
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
    await saveFaction(ctx.tx, table, after);
    await appendLog(ctx, table.id, {
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
      before: {
        fatePoints: faction.fatePoints,
        stress: faction.stress,
        characterFatePoints: giver?.fatePoints,
      },
      after: {
        fatePoints: after.fatePoints,
        stress: after.stress,
        characterFatePoints: giverAfter ?? undefined,
      },
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

function factionHitText(lang: Lang, name: string, hit: FactionHit, named: string | null): string {
  const track = trackText(lang, hit.track);
  if (hit.kind === "takenOut") return t(lang, "fate.faction.takenOut", { name, shifts: hit.shifts, track });
  const parts: string[] = [];
  if (hit.absorption.box !== null)
    parts.push(t(lang, "fate.faction.box", { box: hit.absorption.box + 1, track }));
  for (const id of hit.absorption.consequences) parts.push(t(lang, `fate.consequenceSlot.${id}`));
  if (parts.length === 0) return t(lang, "fate.faction.noHit", { name });
  const text = t(lang, "fate.faction.hit", { name, shifts: hit.shifts, track, parts: parts.join(" + ") });
  if (hit.absorption.consequences.length === 0) return text;
  return `${text} ${named ? t(lang, "fate.faction.consequenceNamed", { aspect: named }) : t(lang, "fate.faction.nameConsequence")}`;
}

/** A faction hit the GM may still take another way (kind `fate.faction-hit`, docs/rules/fate.md §3.5). */
export interface FactionHitFlowState {
  factionId: string;
  factionName: string;
  track: FactionTrack;
  shifts: number;
  /** The faction's stress and consequences before the hit, and as the hit left them. */
  before: Pick<Faction, "stress" | "consequences">;
  after: Pick<Faction, "stress" | "consequences">;
  chosen: FactionAbsorption;
  consequenceName: string | null;
}

/** "b2|mild,moderate": one way of taking a faction hit, as a select value. */
function encodeWay(way: { box: number | null; consequences: readonly string[] }): string {
  return `${way.box === null ? "-" : `b${way.box}`}|${way.consequences.join(",")}`;
}

function decodeWay(value: string): { box: number | null; consequences: ConsequenceSlotId[] } {
  const [box = "-", slots = ""] = value.split("|");
  const index = box.startsWith("b") ? Number(box.slice(1)) : Number.NaN;
  return {
    box: Number.isInteger(index) ? index : null,
    consequences: slots.split(",").filter((s) => s.length > 0) as ConsequenceSlotId[],
  };
}

function wayText(lang: Lang, track: FactionTrack, way: FactionAbsorption): string {
  const parts: string[] = [];
  if (way.box !== null)
    parts.push(t(lang, "fate.faction.box", { box: way.box + 1, track: trackText(lang, track) }));
  for (const id of way.consequences) parts.push(t(lang, `fate.consequenceSlot.${id}`));
  return parts.join(" + ");
}

/** Applies a hit the chosen way and names its first consequence, if a name was given. */
function takeFactionHit(
  faction: Faction,
  track: FactionTrack,
  shifts: number,
  named: string | null,
  choice?: { box: number | null; consequences: ConsequenceSlotId[] },
): { hit: FactionHit; after: Faction } {
  const hit = hitFaction(faction, track, shifts, choice);
  let after = hit.faction;
  if (named && hit.kind === "absorbed" && hit.absorption.consequences.length > 0) {
    const first = hit.absorption.consequences[0];
    after = {
      ...after,
      consequences: after.consequences.map((s) =>
        s.id === first ? { ...s, aspect: makeAspect(named, "consequence") } : s,
      ),
    };
  }
  return { hit, after };
}

function hitView(
  lang: Lang,
  flowId: number | null,
  state: FactionHitFlowState,
  after: Faction,
  hit: FactionHit,
): MessageView {
  const others =
    hit.kind === "absorbed"
      ? factionAbsorptions({ ...after, ...state.before }, state.track, state.shifts).filter(
          (w) => encodeWay(w) !== encodeWay(state.chosen),
        )
      : [];
  const content = [
    factionHitText(lang, state.factionName, hit, state.consequenceName),
    ...(others.length > 0 && flowId !== null
      ? [t(lang, "fate.faction.otherWays", { count: others.length })]
      : []),
  ].join("\n");
  return {
    content,
    embeds: [factionEmbed(lang, after)],
    rows:
      others.length > 0 && flowId !== null
        ? [
            [
              {
                kind: "select",
                intent: { type: "faction.hit-way", flowId },
                field: "way",
                placeholder: t(lang, "fate.faction.chooseWay"),
                options: others.slice(0, 25).map((w) => ({
                  label: wayText(lang, state.track, w).slice(0, 90),
                  value: encodeWay(w),
                })),
              },
            ],
          ]
        : [],
  };
}

/**
 * GM: a hit on one of a faction's tracks (Politics, Army, Economy: three boxes each, then
 * consequences 2/4/6 — docs/rules/fate.md §3.5), taken the cheapest way that absorbs all of it;
 * the GM may pick another way from the message while nothing else changed the faction.
 * `consequence` names the consequence it takes (then it is a faction aspect, invocable).
 */
export const factionHit = defineUseCase({
  systems: ["fate"],
  schema: fateIntents["faction.hit"],
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const faction = findFaction(factionsOf(table), ctx.intent.name);
    const named = ctx.intent.consequence ? cleanName(ctx.intent.consequence, 100) : null;
    const { hit, after } = takeFactionHit(faction, ctx.intent.track, ctx.intent.shifts, named);
    await saveFaction(ctx.tx, table, after);
    await appendLog(ctx, table.id, {
      action: "fate.faction.hit",
      summary: {
        key: hit.kind === "takenOut" ? "log.fate.factionTakenOut" : "log.fate.factionHit",
        params: {
          name: faction.name,
          shifts: ctx.intent.shifts,
          track: `@fate.factionTrack.${ctx.intent.track}`,
        },
      },
      before: { stress: faction.stress, consequences: faction.consequences },
      after: { stress: after.stress, consequences: after.consequences },
    });
    if (hit.kind === "takenOut") {
      const state: FactionHitFlowState = {
        factionId: faction.id,
        factionName: faction.name,
        track: ctx.intent.track,
        shifts: ctx.intent.shifts,
        before: { stress: faction.stress, consequences: faction.consequences },
        after: { stress: after.stress, consequences: after.consequences },
        chosen: { box: null, consequences: [], absorbed: 0 },
        consequenceName: named,
      };
      return { reply: hitView(ctx.publicLang, null, state, after, hit) };
    }
    const state: FactionHitFlowState = {
      factionId: faction.id,
      factionName: faction.name,
      track: ctx.intent.track,
      shifts: ctx.intent.shifts,
      before: { stress: faction.stress, consequences: faction.consequences },
      after: { stress: after.stress, consequences: after.consequences },
      chosen: hit.absorption,
      consequenceName: named,
    };
    const ways = factionAbsorptions(faction, ctx.intent.track, ctx.intent.shifts).length;
    if (ways <= 1) return { reply: hitView(ctx.publicLang, null, state, after, hit) };
    const flow = await createFlow(ctx.tx, factionHitFlow, {
      tableId: table.id,
      state,
      createdByUserId: ctx.actor.userId,
    });
    return { reply: hitView(ctx.publicLang, flow.id, state, after, hit), replyIsPanelOf: flow.id };
  },
});

/** The same boxes checked and the same consequences taken (and named), whatever the key order. */
function sameHarm(
  a: Pick<Faction, "stress" | "consequences">,
  b: Pick<Faction, "stress" | "consequences">,
): boolean {
  const harm = (f: Pick<Faction, "stress" | "consequences">) =>
    JSON.stringify([
      FACTION_TRACKS.map((k) => f.stress[k]),
      [...f.consequences]
        .sort((x, y) => x.id.localeCompare(y.id))
        .map((c) => [c.id, c.taken, c.aspect?.name ?? null]),
    ]);
  return harm(a) === harm(b);
}

/** GM: takes the last hit another way (from the hit's message), while the faction is as the hit left it. */
export const factionHitWay = defineUseCase({
  systems: ["fate"],
  schema: fateIntents["faction.hit-way"],
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const flow = await requireFlow(ctx.tx, factionHitFlow, table.id, ctx.intent.flowId);
    const state = flow.state;
    const faction = findFaction(factionsOf(table), state.factionId);
    const same = sameHarm(faction, state.after);
    if (!same) refuse("errors.fate.factionChangedSinceHit", { name: faction.name });
    const before: Faction = {
      ...faction,
      stress: state.before.stress,
      consequences: state.before.consequences,
    };
    const { hit, after } = takeFactionHit(
      before,
      state.track,
      state.shifts,
      state.consequenceName,
      decodeWay(ctx.intent.way),
    );
    if (hit.kind !== "absorbed") throw new Error("faction.hit-way: a chosen way always absorbs the hit");
    await saveFaction(ctx.tx, table, after);
    const next: FactionHitFlowState = {
      ...state,
      after: { stress: after.stress, consequences: after.consequences },
      chosen: hit.absorption,
    };
    await saveFlowState(ctx.tx, factionHitFlow, flow.id, next, true);
    await appendLog(ctx, table.id, {
      action: "fate.faction.hit-way",
      summary: {
        key: "log.fate.factionHitWay",
        params: { name: faction.name, shifts: state.shifts, track: `@fate.factionTrack.${state.track}` },
      },
      before: { stress: faction.stress, consequences: faction.consequences },
      after: { stress: after.stress, consequences: after.consequences },
    });
    return { reply: hitView(ctx.publicLang, null, next, after, hit), replyMode: "update" };
  },
});

/** GM: a faction's consequence heals (docs/rules/fate.md §3.5: consequences as for characters, §3.3 recovery). */
export const factionClear = defineUseCase({
  systems: ["fate"],
  schema: fateIntents["faction.clear"],
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const faction = findFaction(factionsOf(table), ctx.intent.name);
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
    await saveFaction(ctx.tx, table, after);
    await appendLog(ctx, table.id, {
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

export const factionDelete = defineUseCase({
  systems: ["fate"],
  schema: fateIntents["faction.delete"],
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const factions = factionsOf(table);
    const faction = findFaction(factions, ctx.intent.name);
    await saveFactions(
      ctx.tx,
      table,
      factions.filter((f) => f.id !== faction.id),
    );
    await appendLog(ctx, table.id, {
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

/** A faction check in the `flow` table (kind `fate.faction-check`). */
export interface FactionCheckFlowState {
  check: FactionCheck;
  factionName: string;
}

function factionCheckEmbed(lang: Lang, state: FactionCheckFlowState): EmbedView {
  const { check } = state;
  const plus2 = check.invokes.filter((i) => i.mode === "plus2").length * 2;
  const formula = [
    `${signed(check.dice.total)} ${t(lang, "fate.check.term.dice")}`,
    `${signed(check.abilityValue)} ${t(lang, `fate.factionAbility.${check.ability}`)}`,
    ...(check.bonus !== 0 ? [`${signed(check.bonus)} ${t(lang, "fate.check.term.bonus")}`] : []),
    ...(plus2 !== 0 ? [`${signed(plus2)} ${t(lang, "fate.check.term.invokes")}`] : []),
  ].join(" ");
  const lines = [t(lang, "fate.check.dice", { dice: diceText(check.dice) })];
  for (const old of check.rerolledDice) lines.push(t(lang, "fate.check.rerolled", { dice: diceText(old) }));
  lines.push(t(lang, "fate.check.result", { formula, result: ladderText(lang, factionCheckResult(check)) }));
  const shifts = factionCheckShifts(check);
  const judged = factionCheckOutcome(check);
  let tone: EmbedView["tone"] = "neutral";
  if (shifts !== null && judged && check.opposition.kind !== "none") {
    const result = outcome(shifts);
    tone = result === "fail" ? "failure" : result === "tie" ? "warning" : "success";
    lines.push(
      t(lang, "fate.check.vsPassive", {
        value: ladderText(lang, check.opposition.value),
        shifts: signed(shifts),
        outcome: t(lang, `fate.outcome.${result}`),
      }),
    );
    lines.push(t(lang, judged.effects.key, { hit: judged.effects.hit }));
  } else {
    lines.push(t(lang, "fate.check.noOpposition"));
  }
  if (check.invokes.length > 0) {
    const list = check.invokes
      .map(
        (i) =>
          `${i.aspect} (${t(lang, `fate.invokeMode.${i.mode}`)}, ${t(lang, `fate.payment.${i.paidWith}`)})`,
      )
      .join("; ");
    lines.push(t(lang, "fate.check.invokes", { list }));
  }
  return {
    title: t(lang, "fate.faction.checkTitle", {
      name: state.factionName,
      ability: t(lang, `fate.factionAbility.${check.ability}`),
      action: t(lang, `fate.action.${check.action}`),
    }),
    description: lines.join("\n"),
    tone,
  };
}

function factionCheckView(lang: Lang, id: number, state: FactionCheckFlowState, open = true): MessageView {
  return {
    embeds: [factionCheckEmbed(lang, state)],
    rows: open
      ? [
          [
            {
              kind: "button",
              label: t(lang, "fate.button.plus2"),
              intent: { type: "faction.invoke-menu", flowId: id, mode: "plus2" },
            },
            {
              kind: "button",
              style: "secondary",
              label: t(lang, "fate.button.reroll"),
              intent: { type: "faction.invoke-menu", flowId: id, mode: "reroll" },
            },
          ],
        ]
      : [],
  };
}

/** GM: a faction acts — 4d3 + one of its abilities (+ bonus), against a difficulty if given. */
export const factionCheck = defineUseCase({
  systems: ["fate"],
  schema: fateIntents["faction.check"],
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const faction = findFaction(factionsOf(table), ctx.intent.faction);
    const ability = resolveFactionAbility(ctx.intent.ability);
    const check = rollFactionCheck(
      faction,
      { ability, bonus: ctx.intent.bonus, action: ctx.intent.action, vs: ctx.intent.vs },
      ctx.dice,
    );
    const state: FactionCheckFlowState = { check, factionName: faction.name };
    const flow = await createFlow(ctx.tx, factionCheckFlow, {
      tableId: table.id,
      state,
      createdByUserId: ctx.actor.userId,
    });
    await appendLog(ctx, table.id, {
      action: "fate.faction.check",
      summary: {
        key: "log.fate.factionCheck",
        params: {
          name: faction.name,
          ability: `@fate.factionAbility.${ability}`,
          result: factionCheckResult(check),
        },
      },
      dice: check.dice,
      after: { abilityValue: check.abilityValue, bonus: check.bonus, opposition: check.opposition },
    });
    return { reply: factionCheckView(ctx.publicLang, flow.id, state), replyIsPanelOf: flow.id };
  },
});

/** A faction check flow of this table and the faction that rolled it. */
async function factionCheckOf(tx: Tx, table: GameTable, flowId: number) {
  const flow = await requireFlow(tx, factionCheckFlow, table.id, flowId);
  return { flow, faction: findFaction(factionsOf(table), flow.state.check.factionId) };
}

/** GM: the aspects the faction may invoke on its check (its own first), as a private select. */
export const factionInvokeMenu = defineUseCase({
  systems: ["fate"],
  schema: fateIntents["faction.invoke-menu"],
  table: "required",
  access: "gm",
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    const { table } = ctx;
    const { flow, faction } = await factionCheckOf(ctx.tx, table, ctx.intent.flowId);
    const all = await invokableAspects(ctx.tx, table);
    const own = all.filter((a) => a.ref.startsWith(`f${faction.id}.`));
    const sorted = [...own, ...all.filter((a) => !own.includes(a))];
    if (sorted.length === 0) refuse("errors.fate.noAspects");
    return {
      reply: {
        ephemeral: true,
        content: t(ctx.userLang, "fate.faction.invokeMenu", {
          name: faction.name,
          mode: `@fate.invokeMode.${ctx.intent.mode}`,
          fp: faction.fatePoints,
        }),
        rows: [
          [
            {
              kind: "select",
              intent: { type: "faction.invoke", flowId: flow.id, mode: ctx.intent.mode },
              field: "aspect",
              placeholder: t(ctx.userLang, "fate.select.aspect"),
              options: aspectInvokeOptions(ctx.userLang, sorted),
            },
          ],
        ],
      },
    };
  },
});

/** GM: the faction invokes an aspect on its check, with a free invoke or one of its fate points. */
export const factionInvokeAspect = defineUseCase({
  systems: ["fate"],
  schema: fateIntents["faction.invoke"],
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const { flow, faction } = await factionCheckOf(ctx.tx, table, ctx.intent.flowId);
    const found = await findInvokableAspect(ctx.tx, table, ctx.intent.aspect);
    const result = factionInvoke(
      { check: flow.state.check, faction, aspect: found.aspect, mode: ctx.intent.mode },
      ctx.dice,
    );
    // The faction's own aspect lives in the faction: write both changes in one save.
    const ownRef = new RegExp(`^f${faction.id}\\.(a\\d+|mild|moderate|severe)$`).exec(found.ref);
    if (ownRef) {
      const part = ownRef[1]!;
      const updated: Faction = part.startsWith("a")
        ? {
            ...result.faction,
            aspects: result.faction.aspects.map((a, i) =>
              i === Number(part.slice(1)) && result.aspect ? result.aspect : a,
            ),
          }
        : {
            ...result.faction,
            consequences: result.faction.consequences.map((s) =>
              s.id === part && result.aspect ? { ...s, aspect: result.aspect } : s,
            ),
          };
      await saveFaction(ctx.tx, table, updated);
    } else {
      if (result.faction.fatePoints !== faction.fatePoints) await saveFaction(ctx.tx, table, result.faction);
      const fresh = result.faction.fatePoints !== faction.fatePoints ? await reloadTable(ctx) : table;
      await saveInvokedAspect(ctx.tx, fresh, found, result.aspect);
    }
    const state: FactionCheckFlowState = { ...flow.state, check: result.check };
    await saveFlowState(ctx.tx, factionCheckFlow, flow.id, state);
    await appendLog(ctx, table.id, {
      action: "fate.faction.invoke",
      summary: {
        key: "log.fate.factionInvoke",
        params: {
          name: faction.name,
          aspect: found.aspect.name,
          mode: `@fate.invokeMode.${ctx.intent.mode}`,
          payment: `@fate.payment.${result.spent.paidWith}`,
        },
      },
      before: { fatePoints: faction.fatePoints, freeInvokes: found.aspect.freeInvokes.length },
      after: { fatePoints: result.faction.fatePoints, freeInvokes: result.aspect?.freeInvokes.length ?? 0 },
      dice:
        ctx.intent.mode === "reroll"
          ? { rerolled: flow.state.check.dice, now: result.check.dice }
          : undefined,
    });
    const fromMenu =
      ctx.invocation.sourceMessageId !== undefined && ctx.invocation.sourceMessageId !== flow.panelMessageId;
    const lang = fromMenu ? ctx.userLang : ctx.publicLang;
    const text = t(lang, "fate.faction.invoked", {
      name: faction.name,
      aspect: found.aspect.name,
      mode: `@fate.invokeMode.${ctx.intent.mode}`,
      payment: `@fate.payment.${result.spent.paidWith}`,
      result: ladderText(lang, factionCheckResult(result.check)),
      fp: result.faction.fatePoints,
    });
    const effects = [panelEdit(flow, factionCheckView(ctx.publicLang, flow.id, state))];
    if (fromMenu)
      return { reply: { ephemeral: true, content: text, rows: [] }, replyMode: "update", effects };
    return { reply: { content: text, embeds: [factionCheckEmbed(ctx.publicLang, state)] }, effects };
  },
});

/** The table row as saved in this transaction (the factions were just written). */
async function reloadTable(ctx: Pick<ActionContext, "tx" | "table">): Promise<GameTable> {
  const table = requireTable(ctx);
  return (await tableById(ctx.tx, table.id))!;
}
