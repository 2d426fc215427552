import { z } from "zod";
import type { Character } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { concede, startConflict } from "../../rules/fate/conflict.js";
import { sqlFor } from "../../store/db.js";
import { intArray } from "../../store/sql.js";
import { actingCharacter, isGm, requireGm, requireTable } from "../access.js";
import { createFlow, requireFlow, saveFlowState, type TypedFlow } from "../flows.js";
import { appendLog } from "../log.js";
import { cleanText } from "../names.js";
import { type ActionContext, defineUseCase, type Effect } from "../use-case.js";
import type { MessageView } from "../views.js";
import { type ConflictFlowState, conflictView, finishConflict, openConflict } from "./conflict-state.js";
import { liveCharacters, saveFatePoints } from "./state.js";

const flowId = z.number().int().positive();

async function theConflict(ctx: Pick<ActionContext, "tx" | "table">, id: number | undefined) {
  const table = requireTable(ctx);
  if (id !== undefined) return requireFlow<ConflictFlowState>(ctx.tx, table.id, id, "fate.conflict");
  const flow = await openConflict(ctx, table);
  if (!flow) refuse("errors.fate.noConflict");
  return flow as TypedFlow<ConflictFlowState>;
}

/** The GM starts a conflict: every active character joins, players' characters on one side, the GM's on the other. */
export const conflictStart = defineUseCase({
  type: "conflict.start",
  systems: ["fate"],
  schema: z.object({ type: z.literal("conflict.start"), title: z.string().max(200).optional() }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireGm(ctx);
    if (await openConflict(ctx, table)) refuse("errors.fate.conflictOpen");
    const characters = (await liveCharacters(ctx.tx, table.id)).filter((c) => c.status === "active");
    const title = ctx.intent.title ? cleanText(ctx.intent.title, 100) : "";
    const conflict = startConflict(
      title,
      characters.map((c) => ({ characterId: String(c.id), side: c.kind === "pc" ? "pc" : "npc" })),
    );
    const state: ConflictFlowState = {
      conflict,
      names: Object.fromEntries(characters.map((c) => [String(c.id), c.name])),
    };
    const flow = await createFlow(ctx.tx, {
      tableId: table.id,
      kind: "fate.conflict",
      state,
      createdByUserId: ctx.actor.userId,
    });
    await appendLog(ctx, table.id, {
      action: "fate.conflict.start",
      summary: { key: "log.fate.conflictStart", params: { title: title || "—" } },
      after: { participants: characters.map((c) => c.name) },
    });
    return { reply: conflictView(ctx.publicLang, flow.id, state, true), replyIsPanelOf: flow.id };
  },
});

/** The GM's characters (NPCs, or ones the GM plays) still fighting in the conflict. */
async function gmCharactersStillIn(
  ctx: Pick<ActionContext, "tx" | "actor">,
  tableId: number,
  state: ConflictFlowState,
): Promise<Character[]> {
  const ids = state.conflict.participants.filter((p) => p.status === "in").map((p) => Number(p.characterId));
  return sqlFor(ctx.tx).rows<Character>`
    SELECT * FROM "character"
    WHERE table_id = ${tableId} AND id = ANY(${intArray(ids)}::int[]) AND deleted_at IS NULL
      AND (owner_user_id IS NULL OR owner_user_id = ${ctx.actor.userId})
    ORDER BY name`;
}

/** Asks the GM (privately) which character concedes. */
function concedeChoice(lang: Lang, flowId: number, characters: Character[]): MessageView {
  return {
    ephemeral: true,
    content: t(lang, "fate.conflict.concedeWho"),
    rows: [
      [
        {
          kind: "select",
          intent: { type: "conflict.concede", flowId },
          field: "character",
          placeholder: t(lang, "fate.conflict.concedeWho"),
          options: characters.slice(0, 25).map((c) => ({ label: c.name, value: c.name })),
        },
      ],
    ],
  };
}

/** Concede before a roll: 1 FP plus 1 per consequence taken in this conflict. */
export const conflictConcede = defineUseCase({
  type: "conflict.concede",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("conflict.concede"),
    character: z.string().min(1).max(100).optional(),
    flowId: flowId.optional(),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireTable(ctx);
    const flow = await theConflict(ctx, ctx.intent.flowId);
    let row: Character;
    if (!ctx.intent.character && isGm(table, ctx.actor)) {
      // The GM concedes for one of the GM's characters still fighting: the only one, or the one picked.
      const mine = await gmCharactersStillIn(ctx, table.id, flow.state);
      if (mine.length === 0) refuse("errors.fate.noCharacterInConflict");
      if (mine.length > 1) return { reply: concedeChoice(ctx.userLang, flow.id, mine) };
      row = mine[0]!;
    } else row = await actingCharacter(ctx, ctx.intent.character);
    const { conflict, fatePoints } = concede(flow.state.conflict, String(row.id));
    const after = row.fatePoints + fatePoints;
    await saveFatePoints(ctx.tx, row.id, after);
    await appendLog(ctx, table.id, {
      action: "fate.concede",
      characterId: row.id,
      summary: { key: "log.fate.concede", params: { name: row.name, points: fatePoints } },
      before: { fatePoints: row.fatePoints },
      after: { fatePoints: after },
    });
    const state: ConflictFlowState = { ...flow.state, conflict };
    let effects: Effect[];
    if (conflict.status === "ended") effects = await finishConflict(ctx, table, flow, state);
    else {
      await saveFlowState(ctx.tx, flow.id, state);
      effects = [
        { kind: "editPanel", flowId: flow.id, view: conflictView(ctx.publicLang, flow.id, state, true) },
      ];
    }
    return {
      reply: {
        content: t(ctx.publicLang, "fate.conflict.conceded", {
          name: row.name,
          points: fatePoints,
          fp: after,
        }),
      },
      effects,
    };
  },
});

export const conflictEnd = defineUseCase({
  type: "conflict.end",
  systems: ["fate"],
  schema: z.object({ type: z.literal("conflict.end"), flowId: flowId.optional() }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireGm(ctx);
    const flow = await theConflict(ctx, ctx.intent.flowId);
    const state: ConflictFlowState = { ...flow.state, conflict: { ...flow.state.conflict, status: "ended" } };
    const effects = await finishConflict(ctx, table, flow, state);
    return { reply: { content: t(ctx.publicLang, "fate.conflict.ended") }, effects };
  },
});

export const conflictShow = defineUseCase({
  type: "conflict.show",
  systems: ["fate"],
  schema: z.object({ type: z.literal("conflict.show") }),
  table: "required",
  mutates: false,
  ephemeral: false,
  async run(ctx) {
    const flow = await theConflict(ctx, undefined);
    return { reply: conflictView(ctx.publicLang, flow.id, flow.state, true) };
  },
});
