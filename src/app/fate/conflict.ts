import type { Character } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { totalSkill } from "../../rules/fate/character.js";
import {
  concede,
  currentTurn,
  joinConflict,
  leaveConflict,
  nextTurn,
  setTurnOrder,
  startConflict,
} from "../../rules/fate/conflict.js";
import { liveCharactersOfUserOrGmAmong } from "../../store/characters.js";
import { sqlFor } from "../../store/db.js";
import { actingCharacter, findCharacter, isGm, requireTable } from "../access.js";
import { panelEdit, requireFlow, saveFlowState, startFlow, type TypedFlow } from "../flows.js";
import { appendLog } from "../log.js";
import { cleanText } from "../names.js";
import type { ActionContext, Effect } from "../use-case.js";
import type { MessageView } from "../views.js";
import { unsettledAttacksOn } from "./attack.js";
import { type ConflictFlowState, finishConflict, openConflict } from "./conflict-state.js";
import { conflictView, turnPing } from "./conflict-view.js";
import { conflictFlow } from "./flow-states.js";
import { waitingHitsOn } from "./harm.js";
import { fateIntents } from "./intents.js";
import { fateCharacter, liveCharacters, saveFatePoints } from "./state.js";
import { defineFateUseCase } from "./use-cases.js";

async function theConflict(ctx: Pick<ActionContext, "tx" | "table">, id: number | undefined) {
  const table = requireTable(ctx);
  if (id !== undefined) return requireFlow(ctx.tx, conflictFlow, table.id, id);
  const flow = await openConflict(ctx, table);
  if (!flow) refuse("errors.fate.noConflict");
  return flow as TypedFlow<ConflictFlowState>;
}

/**
 * The characters named in this scene (created in it) or with a log entry since the scene last
 * ended (docs/rules/fate.md §3.4): those who acted, or were acted on, in it.
 */
async function charactersActingInScene(
  ctx: Pick<ActionContext, "tx">,
  tableId: number,
): Promise<Set<number>> {
  const rows = await sqlFor(ctx.tx).rows<{ id: number }>`
    WITH scene AS (
      SELECT coalesce(max(id), 0) AS id, coalesce(max(at), 'epoch'::timestamptz) AS at FROM log_entry
      WHERE table_id = ${tableId} AND action = 'fate.scene.end'
    )
    SELECT DISTINCT character_id AS id FROM log_entry, scene
    WHERE table_id = ${tableId} AND character_id IS NOT NULL AND log_entry.id > scene.id
    UNION
    SELECT c.id FROM "character" c, scene WHERE c.table_id = ${tableId} AND c.created_at > scene.at`;
  return new Set(rows.map((r) => Number(r.id)));
}

/**
 * The GM starts a conflict: the players' characters on one side, the GM's who acted in the scene
 * on the other.
 */
export const conflictStart = defineFateUseCase({
  schema: fateIntents["conflict.start"],
  access: "gm",
  async run(ctx) {
    if (await openConflict(ctx, ctx.table)) refuse("errors.fate.conflictOpen");
    // [decision, docs/rules/fate.md §3.4] The rules name no skill for the order of an exchange: it
    // starts by Notice, highest first (Fate's custom), and the GM changes it with /conflict order.
    // The players' characters, and the GM's who acted in this scene (rolled, were hit, compelled…):
    // not every NPC at the table is in every fight; the GM adds others with /conflict join.
    const acting = await charactersActingInScene(ctx, ctx.table.id);
    const characters = (await liveCharacters(ctx.tx, ctx.table.id))
      .filter((c) => c.status === "active" && (c.kind === "pc" || acting.has(c.id)))
      .map((c) => ({ row: c, notice: totalSkill(fateCharacter(c), "notice") }))
      .sort((a, b) => b.notice - a.notice || a.row.id - b.row.id)
      .map((c) => c.row);
    const title = ctx.intent.title ? cleanText(ctx.intent.title, 100) : "";
    const conflict = startConflict(
      title,
      characters.map((c) => ({
        characterId: String(c.id),
        side: c.kind === "pc" ? "pc" : "npc",
        consequences: takenSlots(c),
      })),
    );
    const state: ConflictFlowState = {
      conflict,
      names: Object.fromEntries(characters.map((c) => [String(c.id), c.name])),
      players: Object.fromEntries(characters.map((c) => [String(c.id), c.ownerUserId])),
    };
    const flow = await startFlow(ctx, conflictFlow, ctx.table.id, state);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.conflict.start",
      summary: { key: "log.fate.conflictStart", params: { title: title || "—" } },
      after: { participants: characters.map((c) => c.name) },
    });
    return {
      reply: conflictView(ctx.publicLang, flow.id, state, true),
      replyIsPanelOf: flow.id,
      effects: turnPing(ctx, ctx.table, state),
    };
  },
});

/** The GM's characters (NPCs, or ones the GM plays) still fighting in the conflict. */
async function gmCharactersStillIn(
  ctx: Pick<ActionContext, "tx" | "actor">,
  tableId: number,
  state: ConflictFlowState,
): Promise<Character[]> {
  const ids = state.conflict.participants.filter((p) => p.status === "in").map((p) => Number(p.characterId));
  return liveCharactersOfUserOrGmAmong(ctx.tx, tableId, ids, ctx.actor.userId);
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

/** The consequence slots taken on a character's sheet now. */
function takenSlots(row: Character): string[] {
  return fateCharacter(row)
    .consequences.filter((s) => s.taken)
    .map((s) => s.id);
}

/** Concede before a roll: 1 FP plus 1 per consequence taken in this conflict. */
export const conflictConcede = defineFateUseCase({
  schema: fateIntents["conflict.concede"],
  async run(ctx) {
    const flow = await theConflict(ctx, ctx.intent.flowId);
    let row: Character;
    if (!ctx.intent.character && isGm(ctx.table, ctx.actor)) {
      // The GM concedes for one of the GM's characters still fighting: the only one, or the one picked.
      const mine = await gmCharactersStillIn(ctx, ctx.table.id, flow.state);
      if (mine.length === 0) refuse("errors.fate.noCharacterInConflict");
      if (mine.length > 1) return { reply: concedeChoice(ctx.userLang, flow.id, mine) };
      row = mine[0]!;
    } else row = await actingCharacter(ctx, ctx.intent.character);
    // «если кубики брошены — назад не отмотать»: an action rolled against them is settled first.
    const pending = [
      ...(await unsettledAttacksOn(ctx, ctx.table, row.id)).map((f) => f.state.rollerName),
      ...(await waitingHitsOn(ctx, ctx.table, row.id)).map((f) => f.state.attacker?.name ?? "—"),
    ];
    if (
      pending.length > 0 &&
      flow.state.conflict.participants.some((p) => p.characterId === String(row.id))
    ) {
      refuse("errors.fate.concedeActionPending", { name: row.name, attacker: pending[0]! });
    }
    const { conflict, fatePoints } = concede(flow.state.conflict, String(row.id), {
      takenNow: takenSlots(row),
    });
    const after = row.fatePoints + fatePoints;
    await saveFatePoints(ctx.tx, row.id, after);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.concede",
      characterId: row.id,
      summary: { key: "log.fate.concede", params: { name: row.name, points: fatePoints } },
      before: { fatePoints: row.fatePoints },
      after: { fatePoints: after },
    });
    const state: ConflictFlowState = { ...flow.state, conflict };
    let effects: Effect[];
    if (conflict.status === "ended") effects = await finishConflict(ctx, ctx.table, flow, state);
    else {
      await saveFlowState(ctx.tx, conflictFlow, flow.id, state);
      effects = [panelEdit(flow, conflictView(ctx.publicLang, flow.id, state, true))];
      if (currentTurn(state.conflict) !== currentTurn(flow.state.conflict))
        effects.push(...turnPing(ctx, ctx.table, state));
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

export const conflictEnd = defineFateUseCase({
  schema: fateIntents["conflict.end"],
  access: "gm",
  async run(ctx) {
    const flow = await theConflict(ctx, ctx.intent.flowId);
    const effects = await finishConflict(ctx, ctx.table, flow, flow.state);
    return { reply: { content: t(ctx.publicLang, "fate.conflict.endedByGm") }, effects };
  },
});

export const conflictShow = defineFateUseCase({
  schema: fateIntents["conflict.show"],
  mutates: false,
  async run(ctx) {
    const flow = await theConflict(ctx, undefined);
    return { reply: conflictView(ctx.publicLang, flow.id, flow.state, true) };
  },
});

/** Saves a changed conflict: redraws the panel, pings whose turn it is when it changed, ends it when one side is left. */
async function saveConflict(
  ctx: ActionContext,
  table: NonNullable<ActionContext["table"]>,
  flow: TypedFlow<ConflictFlowState>,
  state: ConflictFlowState,
): Promise<Effect[]> {
  if (state.conflict.status === "ended") return finishConflict(ctx, table, flow, state);
  await saveFlowState(ctx.tx, conflictFlow, flow.id, state);
  const effects: Effect[] = [panelEdit(flow, conflictView(ctx.publicLang, flow.id, state, true))];
  const before = currentTurn(flow.state.conflict);
  const after = currentTurn(state.conflict);
  if (after !== before || state.conflict.exchange !== flow.state.conflict.exchange) {
    effects.push(...turnPing(ctx, table, state));
  }
  return effects;
}

/**
 * Joins the open conflict mid-way (docs/rules/fate.md §3.4): the named character or the actor's
 * own; the players' characters on the players' side and the GM's on the GM's unless `side` says.
 */
export const conflictJoin = defineFateUseCase({
  schema: fateIntents["conflict.join"],
  async run(ctx) {
    const flow = await theConflict(ctx, ctx.intent.flowId);
    const row = await actingCharacter(ctx, ctx.intent.character);
    const side = ctx.intent.side ?? (row.kind === "pc" ? "pc" : "npc");
    const conflict = joinConflict(flow.state.conflict, String(row.id), side, takenSlots(row));
    const state: ConflictFlowState = {
      ...flow.state,
      conflict,
      names: { ...flow.state.names, [String(row.id)]: row.name },
      players: { ...flow.state.players, [String(row.id)]: row.ownerUserId },
    };
    await appendLog(ctx, ctx.table.id, {
      action: "fate.conflict.join",
      characterId: row.id,
      summary: { key: "log.fate.conflictJoin", params: { name: row.name } },
      after: { side, exchange: conflict.exchange },
    });
    const effects = await saveConflict(ctx, ctx.table, flow, state);
    return {
      reply: {
        content: t(ctx.publicLang, "fate.conflict.joined", {
          name: row.name,
          side: `@fate.conflict.side.${side}`,
          exchange: conflict.exchange,
        }),
      },
      effects,
    };
  },
});

/** Leaves the open conflict without conceding (no fate points): out of the turn order. */
export const conflictLeave = defineFateUseCase({
  schema: fateIntents["conflict.leave"],
  async run(ctx) {
    const flow = await theConflict(ctx, ctx.intent.flowId);
    const row = await actingCharacter(ctx, ctx.intent.character, { gmMayActForPlayers: true });
    const pending = await unsettledAttacksOn(ctx, ctx.table, row.id);
    if (pending.length > 0 || (await waitingHitsOn(ctx, ctx.table, row.id)).length > 0) {
      refuse("errors.fate.leaveAfterRoll", { name: row.name });
    }
    const conflict = leaveConflict(flow.state.conflict, String(row.id));
    await appendLog(ctx, ctx.table.id, {
      action: "fate.conflict.leave",
      characterId: row.id,
      summary: { key: "log.fate.conflictLeave", params: { name: row.name } },
    });
    const effects = await saveConflict(ctx, ctx.table, flow, { ...flow.state, conflict });
    return { reply: { content: t(ctx.publicLang, "fate.conflict.left", { name: row.name }) }, effects };
  },
});

/** The GM sets the order of the exchange: names separated by commas, first to act first. */
export const conflictOrder = defineFateUseCase({
  schema: fateIntents["conflict.order"],
  access: "gm",
  async run(ctx) {
    const flow = await theConflict(ctx, undefined);
    const names = ctx.intent.order
      .split(/[,;\n]/)
      .map((n) => n.trim())
      .filter((n) => n.length > 0);
    const ids: string[] = [];
    for (const name of names) {
      const row = await findCharacter(ctx.tx, ctx.table.id, name);
      if (!flow.state.conflict.participants.some((p) => p.characterId === String(row.id))) {
        refuse("errors.fate.notInThisConflict", { name: row.name });
      }
      ids.push(String(row.id));
    }
    const conflict = setTurnOrder(flow.state.conflict, ids);
    const state: ConflictFlowState = { ...flow.state, conflict };
    await appendLog(ctx, ctx.table.id, {
      action: "fate.conflict.order",
      summary: { key: "log.fate.conflictOrder", params: { order: names.join(", ") } },
    });
    const effects = await saveConflict(ctx, ctx.table, flow, state);
    return {
      reply: {
        content: t(ctx.publicLang, "fate.conflict.ordered", {
          order: conflict.order!.map((id) => state.names[id] ?? id).join(" → "),
        }),
      },
      effects,
    };
  },
});

/** The turn passes on: the GM, or the player whose character's turn it is. After the last, the next exchange. */
export const conflictNext = defineFateUseCase({
  schema: fateIntents["conflict.next"],
  async run(ctx) {
    const flow = await theConflict(ctx, ctx.intent.flowId);
    const turn = currentTurn(flow.state.conflict);
    const player = turn ? flow.state.players[turn] : undefined;
    if (!isGm(ctx.table, ctx.actor) && (player === undefined || player !== ctx.actor.userId)) {
      refuse("errors.fate.notYourTurn", { name: turn ? (flow.state.names[turn] ?? turn) : "—" });
    }
    const conflict = nextTurn(flow.state.conflict);
    const state: ConflictFlowState = { ...flow.state, conflict };
    const effects = await saveConflict(ctx, ctx.table, flow, state);
    const next = currentTurn(conflict);
    // From the panel's button the panel itself is redrawn (the ping is the new message).
    if (ctx.invocation.sourceMessageId !== undefined && ctx.intent.flowId !== undefined) {
      return {
        reply: conflictView(ctx.publicLang, flow.id, state, state.conflict.status === "open"),
        replyMode: "update",
        effects: effects.filter((e) => e.kind !== "editPanel" || e.flowId !== flow.id),
      };
    }
    return {
      reply: {
        content: t(ctx.publicLang, "fate.conflict.turnPassed", {
          exchange: conflict.exchange,
          name: next ? (state.names[next] ?? next) : "—",
        }),
      },
      effects,
    };
  },
});
