import type { Flow } from "../generated/prisma/client.js";
import { refuse } from "../rules/errors.js";
import { sqlFor, type Tx } from "../store/db.js";
import type { ActionContext, ActionResult, Effect } from "./use-case.js";
import type { MessageView } from "./views.js";

/**
 * Long-lived flows (conflicts, duels, trust rounds, challenges, checks, compels, contests)
 * keep their whole rules state as JSON in one row, so every panel and button works after a
 * restart. Callers hold the table lock (see execute.ts), so load → change → save is safe.
 */
export type FlowKind =
  | "mw.conflict"
  | "mw.duel"
  | "mw.trust-round"
  | "bh.challenge"
  | "bh.negotiation"
  | "fate.check"
  | "fate.compel"
  | "fate.conflict"
  | "fate.contest"
  | "fate.hit"
  | "fate.challenge"
  | "fate.faction-check"
  | "fate.faction-hit";

export interface TypedFlow<S> extends Omit<Flow, "state"> {
  state: S;
}

export async function createFlow<S>(
  tx: Tx,
  input: { tableId: number; kind: FlowKind; state: S; createdByUserId: string },
): Promise<TypedFlow<S>> {
  const now = new Date();
  const flow = await sqlFor(tx).one<TypedFlow<S>>`
    INSERT INTO flow (table_id, kind, status, state, created_by_user_id, created_at, updated_at)
    VALUES (${input.tableId}, ${input.kind}, 'open', ${input.state}::jsonb, ${input.createdByUserId}, ${now}, ${now})
    RETURNING *`;
  return flow!;
}

/** The open flow of a kind at a table (the newest), or null. */
export async function findOpenFlow<S>(tx: Tx, tableId: number, kind: FlowKind): Promise<TypedFlow<S> | null> {
  return sqlFor(tx).one<TypedFlow<S>>`
    SELECT * FROM flow WHERE table_id = ${tableId} AND kind = ${kind} AND status = 'open' ORDER BY id DESC LIMIT 1`;
}

/** A flow by id that must belong to this table and be of this kind (ids from buttons are user input). */
export async function requireFlow<S>(
  tx: Tx,
  tableId: number,
  flowId: number,
  kind: FlowKind,
  options: { open?: boolean } = { open: true },
): Promise<TypedFlow<S>> {
  const flow = await sqlFor(tx).one<TypedFlow<S>>`
    SELECT * FROM flow WHERE id = ${flowId} AND table_id = ${tableId} AND kind = ${kind}`;
  if (!flow) refuse("errors.flow.notFound");
  if (options.open !== false && flow.status !== "open") refuse("errors.flow.closed");
  return flow;
}

export async function saveFlowState<S>(tx: Tx, flowId: number, state: S, close = false): Promise<void> {
  const now = new Date();
  if (close) {
    await sqlFor(tx).run`
      UPDATE flow SET state = ${state}::jsonb, updated_at = ${now}, status = 'closed', closed_at = ${now} WHERE id = ${flowId}`;
  } else {
    await sqlFor(tx).run`UPDATE flow SET state = ${state}::jsonb, updated_at = ${now} WHERE id = ${flowId}`;
  }
}

export async function setFlowPanel(
  tx: Tx,
  flowId: number,
  channelId: string,
  messageId: string,
): Promise<void> {
  await sqlFor(tx).run`
    UPDATE flow SET panel_channel_id = ${channelId}, panel_message_id = ${messageId} WHERE id = ${flowId}`;
}

/** Where a flow's panel is, if it has one (for editing it after an action). */
export async function flowPanel(
  tx: Tx,
  flowId: number,
): Promise<{ id: number; panelChannelId: string | null; panelMessageId: string | null } | null> {
  return sqlFor(tx).one`SELECT id, panel_channel_id, panel_message_id FROM flow WHERE id = ${flowId}`;
}

/** Was this action a click on the flow's own panel message? */
export function isFromPanel(
  ctx: Pick<ActionContext, "invocation">,
  flow: Pick<Flow, "panelMessageId">,
): boolean {
  return (
    ctx.invocation.sourceMessageId !== undefined && ctx.invocation.sourceMessageId === flow.panelMessageId
  );
}

/** Redraws a flow's panel after the answer, at the place read with the flow (no second read). */
export function panelEdit(
  flow: Pick<Flow, "id" | "panelChannelId" | "panelMessageId">,
  view: MessageView,
): Effect {
  return {
    kind: "editPanel",
    flowId: flow.id,
    view,
    panel: { channelId: flow.panelChannelId, messageId: flow.panelMessageId },
  };
}

/**
 * The usual answer of an action on a flow with a public panel: a click on the panel edits it
 * in place; a slash command answers with the new state and brings the panel up to date too.
 */
export function answerWithPanel(
  ctx: Pick<ActionContext, "invocation">,
  flow: Pick<Flow, "id" | "panelChannelId" | "panelMessageId">,
  view: MessageView,
): ActionResult {
  return isFromPanel(ctx, flow)
    ? { replyMode: "update", reply: view }
    : { reply: view, effects: [panelEdit(flow, view)] };
}
