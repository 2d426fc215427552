import type { Character, Flow, GameTable } from "../../generated/prisma/client.js";
import { t } from "../../i18n/index.js";
import type { Invoker } from "../../rules/fate/aspects.js";
import { clearStress } from "../../rules/fate/character.js";
import {
  conflictWinner,
  currentTurn,
  type FateConflict,
  nextTurn,
  resolveHit,
} from "../../rules/fate/conflict.js";
import type { HitAbsorption } from "../../rules/fate/stress.js";
import { characterAtTable } from "../../store/characters.js";
import { sqlFor } from "../../store/db.js";
import { findOpenFlow, panelEdit, saveFlowState, type TypedFlow, typedFlow } from "../flows.js";
import { appendLog } from "../log.js";
import type { ActionContext, Effect } from "../use-case.js";
import type { MessageView } from "../views.js";
import { checkView } from "./check-view.js";
import { conflictView, endAnnouncement, nameOf, turnPing } from "./conflict-view.js";
import { checkFlow, conflictFlow } from "./flow-states.js";
import { fateCharacter, saveFateCharacter } from "./state.js";

/** A Fate conflict in the `flow` table (kind `fate.conflict`). */
export interface ConflictFlowState {
  conflict: FateConflict;
  /** Character id → name, for the panel. */
  names: Record<string, string>;
  /** Character id → the user who plays them (null: the GM's), for the turn ping; a character missing here is not pinged. */
  players: Record<string, string | null>;
}

export function openConflict(ctx: Pick<ActionContext, "tx">, table: GameTable) {
  return findOpenFlow(ctx.tx, conflictFlow, table.id);
}

/**
 * The side a character acts on (docs/rules/fate.md §3.2): their side in the open conflict; outside
 * one, the players' characters are allies of each other and the GM's characters of each other.
 */
export async function sideOf(
  ctx: Pick<ActionContext, "tx">,
  table: GameTable,
  row: Pick<Character, "id" | "kind">,
): Promise<string> {
  const flow = await openConflict(ctx, table);
  const p = flow?.state.conflict.participants.find((x) => x.characterId === String(row.id));
  return p?.side ?? (row.kind === "pc" ? "pc" : "npc");
}

/** Who invokes, for spending free invokes (docs/rules/fate.md §3.2): the character and their side. */
export async function invokerOf(
  ctx: Pick<ActionContext, "tx">,
  table: GameTable,
  row: Pick<Character, "id" | "kind">,
): Promise<Invoker> {
  return { id: String(row.id), side: await sideOf(ctx, table, row) };
}

/**
 * The conflict is over (the GM ended it, or one side is left): stress clears for everyone in
 * it (docs/rules/fate.md §3.3), consequences stay, every open check and waiting hit closes
 * (docs/rules/fate.md §3.2: invokes go to a check of this conflict or none), the flow closes and
 * a new message announces the winner and the outcome.
 */
export async function finishConflict(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang" | "userLang" | "invocation">,
  table: GameTable,
  flow: TypedFlow<ConflictFlowState>,
  state: ConflictFlowState,
): Promise<Effect[]> {
  for (const p of state.conflict.participants) {
    const row = await characterAtTable(ctx.tx, table.id, Number(p.characterId));
    if (!row) continue;
    const before = fateCharacter(row);
    const cleared = clearStress(before);
    if (JSON.stringify(cleared.stress) === JSON.stringify(before.stress)) continue;
    await saveFateCharacter(ctx.tx, row, cleared);
    // Every change of stress is in the log, the character's own entry.
    await appendLog(ctx, table.id, {
      action: "fate.stress.clear",
      characterId: row.id,
      summary: { key: "log.fate.stressClear", params: { name: row.name } },
      before: { physical: before.stress.physical.boxes, mental: before.stress.mental.boxes },
    });
  }
  const ended: ConflictFlowState = { ...state, conflict: { ...state.conflict, status: "ended" } };
  await saveFlowState(ctx.tx, conflictFlow, flow.id, ended, true);
  const closed = await closeOpenChecks(ctx, table);
  await appendLog(ctx, table.id, {
    action: "fate.conflict.end",
    summary: { key: "log.fate.conflictEnd", params: { title: state.conflict.title || "—" } },
    after: {
      winner: conflictWinner(ended.conflict),
      exchanges: ended.conflict.exchange,
      outcomes: Object.fromEntries(
        ended.conflict.participants.map((p) => [nameOf(ended, p.characterId), p.status]),
      ),
      checksClosed: closed.length,
    },
  });
  return [
    panelEdit(flow, conflictView(ctx.publicLang, flow.id, ended, false)),
    ...closed,
    {
      kind: "post",
      channelId: ctx.invocation.channelId,
      view: { content: endAnnouncement(ctx.publicLang, ended) },
    },
  ];
}

/**
 * Closes every open check and waiting hit of the table (contest rolls stay with their contest):
 * at the end of a conflict or scene nothing stays open to take invokes (docs/rules/fate.md §3.2).
 * Returns the panel edits.
 */
export async function closeOpenChecks(
  ctx: Pick<ActionContext, "tx" | "publicLang">,
  table: GameTable,
): Promise<Effect[]> {
  const now = new Date();
  const flows = await sqlFor(ctx.tx).rows<Flow>`
    UPDATE flow SET status = 'closed', closed_at = ${now}, updated_at = ${now}
    WHERE table_id = ${table.id} AND status = 'open'
      AND (kind = 'fate.hit' OR (kind = 'fate.check' AND coalesce(state -> 'contestFlowId', 'null'::jsonb) = 'null'::jsonb))
    RETURNING *`;
  const note = t(ctx.publicLang, "fate.check.closedWithScene");
  return flows
    .sort((a, b) => a.id - b.id)
    .map((flow) => {
      const view: MessageView =
        flow.kind === "fate.check"
          ? checkView(ctx.publicLang, flow.id, typedFlow(checkFlow, flow).state, false)
          : { embeds: [{ description: note, tone: "neutral" }], rows: [] };
      if (flow.kind === "fate.check") view.content = note;
      return panelEdit(flow, view);
    });
}

/** Records a hit taken by `characterId` in the open conflict, if they are in it; ends it when a side is out. */
export async function recordHitInConflict(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang" | "userLang" | "invocation">,
  table: GameTable,
  characterId: number,
  absorption: HitAbsorption,
  attackerId: string | null = null,
): Promise<Effect[]> {
  const flow = await openConflict(ctx, table);
  if (!flow) return [];
  const participant = flow.state.conflict.participants.find((p) => p.characterId === String(characterId));
  if (participant?.status !== "in") return [];
  const before = currentTurn(flow.state.conflict);
  let conflict = resolveHit(flow.state.conflict, String(characterId), absorption);
  // The attack on its roller's turn is done: the turn passes (docs/rules/fate.md §3.4).
  if (conflict.status === "open" && attackerId !== null && currentTurn(conflict) === attackerId)
    conflict = nextTurn(conflict);
  const state: ConflictFlowState = { ...flow.state, conflict };
  if (state.conflict.status === "ended") return finishConflict(ctx, table, flow, state);
  await saveFlowState(ctx.tx, conflictFlow, flow.id, state);
  const effects: Effect[] = [panelEdit(flow, conflictView(ctx.publicLang, flow.id, state, true))];
  if (currentTurn(state.conflict) !== before) effects.push(...turnPing(ctx, table, state));
  return effects;
}

/** An attack settled without a hit on its roller's turn: the turn passes (docs/rules/fate.md §3.4). */
export async function passTurnAfterAttack(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang" | "userLang" | "invocation">,
  table: GameTable,
  attackerId: number,
): Promise<Effect[]> {
  const flow = await openConflict(ctx, table);
  if (!flow || currentTurn(flow.state.conflict) !== String(attackerId)) return [];
  const state: ConflictFlowState = { ...flow.state, conflict: nextTurn(flow.state.conflict) };
  await saveFlowState(ctx.tx, conflictFlow, flow.id, state);
  return [
    panelEdit(flow, conflictView(ctx.publicLang, flow.id, state, true)),
    ...turnPing(ctx, table, state),
  ];
}
