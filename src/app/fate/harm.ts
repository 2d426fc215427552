import type { Character, Flow, GameTable } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import type { Invoker } from "../../rules/fate/aspects.js";
import { takeHit } from "../../rules/fate/character.js";
import { outOfTheFight } from "../../rules/fate/conflict.js";
import {
  type Absorption,
  absorptionOptions,
  absorptionValue,
  boxValue,
  type ConsequenceSlotId,
  type HitAbsorption,
  type StressKind,
} from "../../rules/fate/stress.js";
import { sqlFor } from "../../store/db.js";
import { requireControl } from "../access.js";
import { requireFlow, saveFlowState, startFlow, type TypedFlow, typedFlow } from "../flows.js";
import { appendLog } from "../log.js";
import type { ActionContext, Effect } from "../use-case.js";
import type { ComponentView, MessageView } from "../views.js";
import { openConflict, recordHitInConflict } from "./conflict-state.js";
import { hitFlow } from "./flow-states.js";
import { fateIntents } from "./intents.js";
import { characterById, fateCharacter, saveFateCharacter } from "./state.js";
import { defineFateUseCase } from "./use-cases.js";

type Ctx = Pick<ActionContext, "tx" | "actor" | "publicLang" | "userLang" | "invocation" | "table">;

/** A hit waiting for its target to choose how to take it (kind `fate.hit`): docs/rules/fate.md §3.3. */
export interface HitFlowState {
  targetId: number;
  targetName: string;
  shifts: number;
  /** Which track; null while it is to be chosen (an attack whose skill does not say). */
  kind: StressKind | null;
  /** Who dealt it: they get the free invoke on any consequence it takes. */
  attacker: { id: number; name: string; side: string | null } | null;
  /** The attack check it came from, if any. */
  checkFlowId: number | null;
  /** How it was taken, once chosen (the flow is closed then). */
  taken: string | null;
}

/** The sentence describing how a hit was taken. */
export function absorptionText(lang: Lang, name: string, absorption: HitAbsorption): string {
  if (absorption.kind === "takenOut") {
    return t(lang, "fate.hit.takenOut", { name, shifts: absorption.shifts, capacity: absorption.capacity });
  }
  const parts = absorptionParts(lang, absorption);
  if (parts.length === 0) return t(lang, "fate.hit.nothing", { name });
  return t(lang, "fate.hit.absorbed", { name, shifts: absorption.shifts, parts: parts.join(", ") });
}

function absorptionParts(lang: Lang, plan: Absorption): string[] {
  const parts: string[] = [];
  for (const box of plan.boxes) parts.push(t(lang, "fate.hit.box", { box: boxValue(box) }));
  for (const slot of plan.consequences) parts.push(t(lang, `fate.consequenceSlot.${slot}`));
  return parts;
}

/** "b3|mild,moderate": a select value for one way of taking the hit. */
export function encodeAbsorption(plan: Absorption): string {
  return `${plan.boxes.length > 0 ? `b${plan.boxes[0]}` : "-"}|${plan.consequences.join(",")}`;
}

export function decodeAbsorption(value: string): Absorption {
  const [box = "-", slots = ""] = value.split("|");
  const index = box.startsWith("b") ? Number(box.slice(1)) : Number.NaN;
  return {
    boxes: Number.isInteger(index) ? [index] : [],
    consequences: slots.split(",").filter((s) => s.length > 0) as ConsequenceSlotId[],
  };
}

/**
 * Takes a hit on a stored character the way chosen (`choice`; omitted, the only or cheapest
 * way): saved, logged, counted in the open conflict. The consequence slots it took remember
 * who inflicted it; the answer names exactly those slots, with a button to name each one.
 */
export async function applyHit(
  ctx: Ctx,
  table: GameTable,
  row: Character,
  shifts: number,
  kind: StressKind,
  choice?: Absorption | "takenOut",
  inflictedBy: Invoker | null = null,
): Promise<{
  text: string;
  absorption: HitAbsorption;
  effects: Effect[];
  row: Character;
  rows: ComponentView[][];
}> {
  const before = fateCharacter(row);
  const { character, absorption } = takeHit(before, shifts, kind, choice, inflictedBy);
  const saved = await saveFateCharacter(ctx.tx, row, character);
  await appendLog(ctx, table.id, {
    action: "fate.hit",
    characterId: row.id,
    summary: {
      key: absorption.kind === "takenOut" ? "log.fate.takenOut" : "log.fate.hit",
      params: { name: row.name, shifts, kind: `@fate.stress.${kind}` },
    },
    before: {
      stress: before.stress[kind].boxes,
      consequences: before.consequences.filter((s) => s.taken).map((s) => s.id),
    },
    after: {
      stress: character.stress[kind].boxes,
      consequences: character.consequences.filter((s) => s.taken).map((s) => s.id),
      takenOut: absorption.kind === "takenOut",
      inflictedBy: inflictedBy?.id ?? null,
    },
  });
  const effects = await recordHitInConflict(ctx, table, row.id, absorption, inflictedBy?.id ?? null);
  const taken = absorption.kind === "absorbed" ? absorption.consequences : [];
  const hints = taken.map((slot) =>
    t(ctx.publicLang, "fate.hit.nameThisConsequence", {
      name: row.name,
      slot: `@fate.consequenceSlot.${slot}`,
      severity: slot,
    }),
  );
  const rows: ComponentView[][] =
    taken.length > 0
      ? [
          taken.slice(0, 5).map((slot) => ({
            kind: "button" as const,
            style: "primary" as const,
            label: t(ctx.publicLang, "fate.button.nameConsequence", {
              slot: `@fate.consequenceSlot.${slot}`,
            }),
            intent: { type: "fate.name-consequence" as const, characterId: row.id, slot },
          })),
        ]
      : [];
  return {
    text: [absorptionText(ctx.publicLang, row.name, absorption), ...hints].join("\n"),
    absorption,
    effects,
    row: saved,
    rows,
  };
}

/** A conceded or taken-out character takes no further hits while the conflict is open (docs/rules/fate.md §3.4). */
export async function refuseIfOutOfTheFight(ctx: Ctx, table: GameTable, row: Character): Promise<void> {
  const conflict = await openConflict(ctx, table);
  if (conflict && outOfTheFight(conflict.state.conflict, String(row.id))) {
    refuse("errors.fate.targetOutOfConflict", { name: row.name });
  }
}

/** The hit's panel: who must choose and the ways to take it, cheapest first (or which track first). */
export function hitView(
  lang: Lang,
  flow: { id: number },
  state: HitFlowState,
  target: Character | null,
  playerUserId: string | null,
): MessageView {
  const who = playerUserId ? `<@${playerUserId}>` : state.targetName;
  const lines = [
    t(lang, "fate.hit.waiting", {
      name: state.targetName,
      shifts: state.shifts,
      attacker: state.attacker?.name ?? "—",
      hasAttacker: state.attacker ? "yes" : "no",
    }),
  ];
  if (state.taken !== null) {
    return { embeds: [{ description: [...lines, state.taken].join("\n"), tone: "neutral" }], rows: [] };
  }
  const rows: ComponentView[][] = [];
  if (state.kind === null) {
    lines.push(t(lang, "fate.hit.chooseKind", { who }));
    rows.push(
      (["physical", "mental"] as const).map((kind) => ({
        kind: "button" as const,
        style: "secondary" as const,
        label: t(lang, `fate.stress.${kind}`),
        intent: { type: "fate.absorb" as const, flowId: flow.id, kind },
      })),
    );
  } else if (target) {
    const sheet = fateCharacter(target);
    const options = absorptionOptions(sheet.stress[state.kind], sheet.consequences, state.shifts);
    lines.push(
      t(lang, "fate.hit.choose", { who, kind: `@fate.stress.${state.kind}`, count: options.length }),
    );
    rows.push([
      {
        kind: "select",
        intent: { type: "fate.absorb", flowId: flow.id },
        field: "option",
        placeholder: t(lang, "fate.select.absorb"),
        options: options.slice(0, 25).map((plan) => ({
          label: absorptionParts(lang, plan).join(" + ").slice(0, 100),
          value: encodeAbsorption(plan),
          description: t(lang, "fate.hit.optionAbsorbs", {
            absorbed: absorptionValue(plan, sheet.consequences),
          }).slice(0, 100),
        })),
      },
    ]);
  }
  return {
    // The ping is in the content: Discord notifies no one mentioned only inside an embed.
    ...(playerUserId ? { content: `<@${playerUserId}>` } : {}),
    embeds: [{ description: lines.join("\n"), tone: "warning" }],
    rows,
    mentionUsers: playerUserId ? [playerUserId] : [],
  };
}

/** The user who chooses how `target` takes a hit: its player, the GM for the GM's characters. */
export function chooserOf(table: GameTable, target: Character): string | null {
  return target.ownerUserId ?? table.gmUserId;
}

/**
 * A hit of `shifts` lands on `target` (docs/rules/fate.md §3.3). With one way to take it (or
 * none: taken out) it is applied at once; with several, or a track still to choose, a panel asks
 * the target's player (the GM for the GM's characters) to choose. Returns the answer and effects.
 */
export async function landHit(
  ctx: Ctx,
  table: GameTable,
  target: Character,
  shifts: number,
  kind: StressKind | null,
  attacker: HitFlowState["attacker"],
  checkFlowId: number | null,
): Promise<{ view: MessageView; effects: Effect[]; flowId: number | null }> {
  await refuseIfOutOfTheFight(ctx, table, target);
  if (kind !== null) {
    const sheet = fateCharacter(target);
    const options = absorptionOptions(sheet.stress[kind], sheet.consequences, shifts);
    if (options.length <= 1) {
      const inflictedBy = attacker ? { id: String(attacker.id), side: attacker.side } : null;
      const applied = await applyHit(ctx, table, target, shifts, kind, options[0] ?? "takenOut", inflictedBy);
      return { view: { content: applied.text, rows: applied.rows }, effects: applied.effects, flowId: null };
    }
  }
  const state: HitFlowState = {
    targetId: target.id,
    targetName: target.name,
    shifts,
    kind,
    attacker,
    checkFlowId,
    taken: null,
  };
  const flow = await startFlow(ctx, hitFlow, table.id, state);
  await appendLog(ctx, table.id, {
    action: "fate.hit.waiting",
    characterId: target.id,
    summary: { key: "log.fate.hitWaiting", params: { name: target.name, shifts } },
    after: { shifts, kind, attacker: attacker?.name ?? null },
  });
  return {
    view: hitView(ctx.publicLang, flow, state, target, chooserOf(table, target)),
    effects: [],
    flowId: flow.id,
  };
}

/** The open hit still waiting for `characterId` to choose how to take it (concession waits for it). */
export async function waitingHitsOn(ctx: Pick<ActionContext, "tx">, table: GameTable, characterId: number) {
  const rows = await sqlFor(ctx.tx).rows<Flow>`
    SELECT * FROM flow WHERE table_id = ${table.id} AND kind = 'fate.hit' AND status = 'open'
      AND state -> 'targetId' = ${JSON.stringify(characterId)}::jsonb`;
  return rows.map((row) => typedFlow(hitFlow, row));
}

/** The target's player (the GM for the GM's characters, or for an absent player) chooses how to take the hit. */
export const absorbChoice = defineFateUseCase({
  schema: fateIntents["fate.absorb"],
  async run(ctx) {
    const flow = await requireFlow(ctx.tx, hitFlow, ctx.table.id, ctx.intent.flowId);
    const target = await characterById(ctx.tx, ctx.table.id, flow.state.targetId);
    requireControl(ctx, target, { gmMayActForPlayers: true });
    let state = flow.state;
    if (state.kind === null) {
      if (!ctx.intent.kind) refuse("errors.fate.chooseHitKind");
      state = { ...state, kind: ctx.intent.kind };
      const sheet = fateCharacter(target);
      const options = absorptionOptions(sheet.stress[state.kind!], sheet.consequences, state.shifts);
      if (options.length > 1) {
        await saveFlowState(ctx.tx, hitFlow, flow.id, state);
        return {
          reply: hitView(ctx.publicLang, flow, state, target, chooserOf(ctx.table, target)),
          replyMode: "update",
        };
      }
      return finish(ctx, ctx.table, flow, state, target, options[0] ?? "takenOut");
    }
    if (!ctx.intent.option) refuse("errors.fate.chooseAbsorption");
    // The sheet may have changed since the panel was drawn (another hit): then it is redrawn with the
    // ways that still work, and the chooser is told to pick again.
    const sheet = fateCharacter(target);
    const current = absorptionOptions(sheet.stress[state.kind!], sheet.consequences, state.shifts).map(
      encodeAbsorption,
    );
    const chosen = encodeAbsorption(decodeAbsorption(ctx.intent.option!));
    if (!current.includes(chosen) && current.length > 0) {
      return {
        reply: hitView(ctx.publicLang, flow, state, target, chooserOf(ctx.table, target)),
        replyMode: "update" as const,
        effects: [
          {
            kind: "followup" as const,
            view: { ephemeral: true, content: t(ctx.userLang, "fate.hit.chooseAgain") },
          },
        ],
      };
    }
    if (current.length === 0) return finish(ctx, ctx.table, flow, state, target, "takenOut");
    return finish(ctx, ctx.table, flow, state, target, decodeAbsorption(ctx.intent.option!));
  },
});

async function finish(
  ctx: Ctx,
  table: GameTable,
  flow: TypedFlow<HitFlowState>,
  state: HitFlowState,
  target: Character,
  choice: Absorption | "takenOut",
) {
  const inflictedBy = state.attacker ? { id: String(state.attacker.id), side: state.attacker.side } : null;
  const applied = await applyHit(ctx, table, target, state.shifts, state.kind!, choice, inflictedBy);
  const done: HitFlowState = { ...state, taken: applied.text };
  await saveFlowState(ctx.tx, hitFlow, flow.id, done, true);
  return {
    reply: { ...hitView(ctx.publicLang, flow, done, target, null), rows: applied.rows, mentionUsers: [] },
    replyMode: "update" as const,
    effects: applied.effects,
  };
}
