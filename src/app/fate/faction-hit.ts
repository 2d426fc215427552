/** A hit on a faction (docs/rules/fate.md §3.5): the GM chooses how its stress and consequences take it. */

import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { makeAspect } from "../../rules/fate/aspects.js";
import {
  FACTION_TRACKS,
  type Faction,
  type FactionAbsorption,
  type FactionHit,
  type FactionTrack,
  factionAbsorptions,
  hitFaction,
} from "../../rules/fate/faction.js";
import { type ConsequenceSlotId, nameConsequence, slotToName } from "../../rules/fate/stress.js";
import { requireFlow, saveFlowState, startFlow } from "../flows.js";
import { appendLog } from "../log.js";
import { cleanName } from "../names.js";
import type { ComponentView, MessageView } from "../views.js";
import { factionEmbed, factionsOf, findFaction, saveFaction, trackText } from "./faction.js";
import { factionHitFlow } from "./flow-states.js";
import { fateIntents } from "./intents.js";
import { defineFateUseCase } from "./use-cases.js";

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
  // Naming is its own step, a button per consequence the hit took (never `/faction hit` again).
  const unnamed =
    hit.kind === "absorbed"
      ? hit.absorption.consequences.filter((id) => !after.consequences.find((c) => c.id === id)?.aspect)
      : [];
  const rows: ComponentView[][] = [];
  if (others.length > 0 && flowId !== null)
    rows.push([
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
    ]);
  const severities = unnamed.filter((id): id is Severity => SEVERITIES.includes(id as Severity));
  if (severities.length > 0)
    rows.push(
      severities.map((severity) => ({
        kind: "button" as const,
        style: "primary" as const,
        label: t(lang, "fate.button.nameConsequence", { slot: `@fate.consequenceSlot.${severity}` }),
        intent: { type: "faction.consequence-form" as const, name: state.factionId, severity },
      })),
    );
  return { content, embeds: [factionEmbed(lang, after)], rows };
}

const SEVERITIES = ["mild", "moderate", "severe"] as const;
type Severity = (typeof SEVERITIES)[number];

/** GM: names a consequence a hit took — its own step, never a hit (docs/rules/fate.md §3.5). */
export const factionNameConsequence = defineFateUseCase({
  schema: fateIntents["faction.consequence"],
  access: "gm",
  async run(ctx) {
    const faction = findFaction(factionsOf(ctx.table), ctx.intent.name);
    const target = slotToName(faction.consequences, ctx.intent.severity);
    if (target.kind === "none") refuse("errors.fate.factionNoConsequenceToName", { name: faction.name });
    if (target.kind === "waiting")
      refuse("errors.fate.factionNameTakenSlot", {
        name: faction.name,
        slot: `@fate.consequenceSlot.${target.waiting.id}`,
      });
    const slot = target.slot;
    if (!slot.taken)
      refuse("errors.fate.factionConsequenceFree", {
        name: faction.name,
        slot: `@fate.consequenceSlot.${slot.id}`,
      });
    const aspect = cleanName(ctx.intent.consequence, 100);
    const after: Faction = {
      ...faction,
      consequences: nameConsequence(faction.consequences, slot.id, aspect),
    };
    await saveFaction(ctx.tx, ctx.table, after);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.faction.consequence",
      summary: {
        key: "log.fate.factionConsequenceNamed",
        params: { name: faction.name, slot: `@fate.consequenceSlot.${slot.id}`, aspect },
      },
      before: { aspect: null },
      after: { aspect },
    });
    return {
      reply: {
        content: t(ctx.publicLang, "fate.faction.consequenceNamedNow", {
          name: faction.name,
          slot: `@fate.consequenceSlot.${slot.id}`,
          aspect,
        }),
        embeds: [factionEmbed(ctx.publicLang, after)],
      },
    };
  },
});

/** The button under a faction's hit: a form naming exactly the slot it took. */
export const factionNameConsequenceForm = defineFateUseCase({
  schema: fateIntents["faction.consequence-form"],
  access: "gm",
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    const faction = findFaction(factionsOf(ctx.table), ctx.intent.name);
    const slot = faction.consequences.find((c) => c.id === ctx.intent.severity);
    if (!slot?.taken)
      refuse("errors.fate.factionConsequenceFree", {
        name: faction.name,
        slot: `@fate.consequenceSlot.${ctx.intent.severity}`,
      });
    if (slot.aspect) refuse("errors.fate.consequenceSlotTaken", { slot: slot.id });
    return {
      modal: {
        title: t(ctx.userLang, "fate.consequence.formTitle", {
          name: faction.name.slice(0, 30),
          slot: `@fate.consequenceSlot.${slot.id}`,
        }).slice(0, 45),
        intent: { type: "faction.consequence", name: faction.id, severity: ctx.intent.severity },
        inputs: [
          {
            field: "consequence",
            label: t(ctx.userLang, "fate.consequence.formLabel"),
            style: "short",
            maxLength: 100,
          },
        ],
      },
    };
  },
});

/**
 * GM: a hit on one of a faction's tracks (Politics, Army, Economy: three boxes each, then
 * consequences 2/4/6 — docs/rules/fate.md §3.5), taken the cheapest way that absorbs all of it;
 * the GM may pick another way from the message while nothing else changed the faction.
 * `consequence` names the consequence it takes (then it is a faction aspect, invocable).
 */
export const factionHit = defineFateUseCase({
  schema: fateIntents["faction.hit"],
  access: "gm",
  async run(ctx) {
    const faction = findFaction(factionsOf(ctx.table), ctx.intent.name);
    const named = ctx.intent.consequence ? cleanName(ctx.intent.consequence, 100) : null;
    const { hit, after } = takeFactionHit(faction, ctx.intent.track, ctx.intent.shifts, named);
    await saveFaction(ctx.tx, ctx.table, after);
    await appendLog(ctx, ctx.table.id, {
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
    const state: FactionHitFlowState = {
      factionId: faction.id,
      factionName: faction.name,
      track: ctx.intent.track,
      shifts: ctx.intent.shifts,
      before: { stress: faction.stress, consequences: faction.consequences },
      after: { stress: after.stress, consequences: after.consequences },
      chosen: hit.kind === "takenOut" ? { box: null, consequences: [], absorbed: 0 } : hit.absorption,
      consequenceName: named,
    };
    if (hit.kind === "takenOut") return { reply: hitView(ctx.publicLang, null, state, after, hit) };
    const ways = factionAbsorptions(faction, ctx.intent.track, ctx.intent.shifts).length;
    if (ways <= 1) return { reply: hitView(ctx.publicLang, null, state, after, hit) };
    const flow = await startFlow(ctx, factionHitFlow, ctx.table.id, state);
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
export const factionHitWay = defineFateUseCase({
  schema: fateIntents["faction.hit-way"],
  access: "gm",
  async run(ctx) {
    const flow = await requireFlow(ctx.tx, factionHitFlow, ctx.table.id, ctx.intent.flowId);
    const state = flow.state;
    const faction = findFaction(factionsOf(ctx.table), state.factionId);
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
    await saveFaction(ctx.tx, ctx.table, after);
    const next: FactionHitFlowState = {
      ...state,
      after: { stress: after.stress, consequences: after.consequences },
      chosen: hit.absorption,
    };
    await saveFlowState(ctx.tx, factionHitFlow, flow.id, next, true);
    await appendLog(ctx, ctx.table.id, {
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
