import type { Flow, Prisma } from "../generated/prisma/client.js";
import { refuse } from "../rules/errors.js";
import type { Tx } from "../store/db.js";
import type { ActionContext, ActionResult } from "./use-case.js";
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
  | "fate.check"
  | "fate.compel"
  | "fate.conflict"
  | "fate.contest";

export interface TypedFlow<S> extends Omit<Flow, "state"> {
  state: S;
}

export async function createFlow<S>(
  tx: Tx,
  input: { tableId: number; kind: FlowKind; state: S; createdByUserId: string },
): Promise<TypedFlow<S>> {
  const flow = await tx.flow.create({
    data: { ...input, state: input.state as Prisma.InputJsonValue },
  });
  return flow as unknown as TypedFlow<S>;
}

/** The open flow of a kind at a table (the newest), or null. */
export async function findOpenFlow<S>(tx: Tx, tableId: number, kind: FlowKind): Promise<TypedFlow<S> | null> {
  const flow = await tx.flow.findFirst({
    where: { tableId, kind, status: "open" },
    orderBy: { id: "desc" },
  });
  return flow as unknown as TypedFlow<S> | null;
}

/** A flow by id that must belong to this table and be of this kind (ids from buttons are user input). */
export async function requireFlow<S>(
  tx: Tx,
  tableId: number,
  flowId: number,
  kind: FlowKind,
  options: { open?: boolean } = { open: true },
): Promise<TypedFlow<S>> {
  const flow = await tx.flow.findFirst({ where: { id: flowId, tableId, kind } });
  if (!flow) refuse("errors.flow.notFound");
  if (options.open !== false && flow.status !== "open") refuse("errors.flow.closed");
  return flow as unknown as TypedFlow<S>;
}

export async function saveFlowState<S>(tx: Tx, flowId: number, state: S, close = false): Promise<void> {
  await tx.flow.update({
    where: { id: flowId },
    data: {
      state: state as Prisma.InputJsonValue,
      updatedAt: new Date(),
      ...(close ? { status: "closed", closedAt: new Date() } : {}),
    },
  });
}

export async function setFlowPanel(
  tx: Tx,
  flowId: number,
  channelId: string,
  messageId: string,
): Promise<void> {
  // updateMany: no need to read back the whole row (its state JSON) after every new panel.
  await tx.flow.updateMany({
    where: { id: flowId },
    data: { panelChannelId: channelId, panelMessageId: messageId },
  });
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

/**
 * The usual answer of an action on a flow with a public panel: a click on the panel edits it
 * in place; a slash command answers with the new state and brings the panel up to date too.
 */
export function answerWithPanel(
  ctx: Pick<ActionContext, "invocation">,
  flow: Pick<Flow, "id" | "panelMessageId">,
  view: MessageView,
): ActionResult {
  return isFromPanel(ctx, flow)
    ? { replyMode: "update", reply: view }
    : { reply: view, effects: [{ kind: "editPanel", flowId: flow.id, view }] };
}
