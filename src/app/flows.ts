import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import type { Flow } from "../generated/prisma/client.js";
import { refuse } from "../rules/errors.js";
import { type Db, type OpeningRead, sqlFor, Tx } from "../store/db.js";
import { type BatchedStatement, literalSql, modelFromRow } from "../store/sql.js";
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
  | "fate.faction-hit"
  | "table.import";

export interface TypedFlow<S> extends Omit<Flow, "state"> {
  state: S;
}

/**
 * A flow kind's state as stored: its zod schema, checked on every load, and the version of its
 * shape. When a shape changes, `version` goes up and `upgrades[old]` turns a state of version
 * `old` into one of `old + 1`: a flow saved before a deploy loads, upgraded, and plays on.
 */
export interface FlowKindSpec<S> {
  kind: FlowKind;
  version: number;
  schema: z.ZodType<S>;
  // biome-ignore lint/suspicious/noExplicitAny: an upgrade reads a shape no type describes any more
  upgrades?: Readonly<Record<number, (state: any) => unknown>>;
}

export function defineFlowKind<S>(spec: FlowKindSpec<S>): FlowKindSpec<S> {
  for (let v = 1; v < spec.version; v++) {
    if (!spec.upgrades?.[v]) throw new Error(`${spec.kind}: no upgrade from state version ${v}`);
  }
  return spec;
}

/**
 * A stored flow row with its state upgraded to the current shape and checked. A state that does
 * not fit is a defect (or a row written by a newer version of the bot): it fails loudly here,
 * never half-read by the rules.
 */
export function typedFlow<S>(spec: FlowKindSpec<S>, row: Flow | TypedFlow<unknown>): TypedFlow<S> {
  if (row.kind !== spec.kind) throw new Error(`flow ${row.id} is a ${row.kind}, not a ${spec.kind}`);
  const stored = row.stateVersion ?? 1;
  if (stored > spec.version)
    throw new Error(`flow ${row.id}: state version ${stored} is newer than this bot's ${spec.version}`);
  let state: unknown = row.state;
  for (let v = stored; v < spec.version; v++) state = spec.upgrades![v]!(state);
  const parsed = spec.schema.safeParse(state);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `flow ${row.id} (${spec.kind}): stored state does not fit at ${issue?.path.join(".")}: ${issue?.message}`,
    );
  }
  // Under test, a schema that would drop or change a field (and lose it on the next save) fails here.
  if (process.env.VITEST && !isDeepStrictEqual(parsed.data, state))
    throw new Error(`flow ${row.id} (${spec.kind}): the state schema drops or changes a stored field`);
  return { ...row, state: parsed.data, stateVersion: spec.version };
}

export async function createFlow<S>(
  tx: Tx,
  spec: FlowKindSpec<S>,
  input: { tableId: number; state: S; createdByUserId: string },
): Promise<TypedFlow<S>> {
  const [rows] = await tx.batch([newFlowStatement(spec, input)]);
  return createdFlow<S>(rows!);
}

/**
 * A new flow's INSERT, for a `tx.batch` with statements it does not depend on (closing the flows
 * it replaces, in the same round trip); `createdFlow` reads its rows.
 */
export function newFlowStatement<S>(
  spec: FlowKindSpec<S>,
  input: { tableId: number; state: S; createdByUserId: string },
): BatchedStatement {
  const now = new Date();
  return literalSql`
    INSERT INTO flow (table_id, kind, status, state, state_version, created_by_user_id, created_at, updated_at)
    VALUES (${input.tableId}, ${spec.kind}, 'open', ${input.state}::jsonb, ${spec.version}, ${input.createdByUserId}, ${now}, ${now})
    RETURNING *`;
}

/** The flow `newFlowStatement` inserted, from its rows. */
export function createdFlow<S>(rows: Record<string, unknown>[]): TypedFlow<S> {
  return modelFromRow<TypedFlow<S>>(rows[0]!);
}

/** A row found by an area's own SQL (or null), upgraded and checked like every other load. */
export function typedFlowOrNull<S>(spec: FlowKindSpec<S>, row: Flow | null): TypedFlow<S> | null {
  return row ? typedFlow(spec, row) : null;
}

/** Which opening read brings the open flows of a kind (`openFlowsRead`), if one does. */
const openingReadOfKind = new Map<FlowKind, OpeningRead>();

/**
 * The table's open flows of these kinds, read with a transaction's opening (a game's
 * `openingReads`): most of a game's actions load one (a button's, or the one open), and
 * `requireFlow`, `findOpenFlow` and `openFlows` take them from there until the transaction writes
 * a flow. A flow that is not among them (closed, another table's) is queried as before.
 */
export function openFlowsRead(...specs: Pick<FlowKindSpec<unknown>, "kind">[]): OpeningRead {
  const kinds = specs.map((spec) => spec.kind);
  const read: OpeningRead = {
    statement: ({ tableId }) => literalSql`
      SELECT * FROM flow WHERE table_id = ${tableId} AND kind = ANY(${`{${kinds.join(",")}}`}::text[]) AND status = 'open'
      ORDER BY id`,
    scope: ({ tableId }) => String(tableId),
    table: "flow",
  };
  for (const kind of kinds) {
    if (openingReadOfKind.has(kind)) throw new Error(`${kind}: two opening reads bring its flows`);
    openingReadOfKind.set(kind, read);
  }
  return read;
}

/** The open flows of a kind at the table that came with the opening, oldest first; undefined if none were read. */
function openedFlows(tx: Db | Tx, kind: FlowKind, tableId: number): Flow[] | undefined {
  const read = openingReadOfKind.get(kind);
  if (!read || !(tx instanceof Tx)) return undefined;
  return tx
    .openedRows(read, String(tableId), (row) => row.kind === kind)
    ?.map((row) => modelFromRow<Flow>(row));
}

/** A new flow of a kind at a table, opened by whoever acts. */
export function startFlow<S>(
  ctx: Pick<ActionContext, "tx" | "actor">,
  spec: FlowKindSpec<S>,
  tableId: number,
  state: S,
): Promise<TypedFlow<S>> {
  return createFlow(ctx.tx, spec, { tableId, state, createdByUserId: ctx.actor.userId });
}

/** The open flow of a kind at a table (the newest), or null. */
export async function findOpenFlow<S>(
  tx: Db | Tx,
  spec: FlowKindSpec<S>,
  tableId: number,
): Promise<TypedFlow<S> | null> {
  const opened = openedFlows(tx, spec.kind, tableId);
  const row = opened
    ? (opened.at(-1) ?? null)
    : await sqlFor(tx).one<Flow>`
    SELECT * FROM flow WHERE table_id = ${tableId} AND kind = ${spec.kind} AND status = 'open' ORDER BY id DESC LIMIT 1`;
  return row ? typedFlow(spec, row) : null;
}

/** Every open flow of a kind at a table, oldest first. */
export async function openFlows<S>(
  tx: Db | Tx,
  spec: FlowKindSpec<S>,
  tableId: number,
): Promise<TypedFlow<S>[]> {
  const rows =
    openedFlows(tx, spec.kind, tableId) ??
    (await sqlFor(tx).rows<Flow>`
    SELECT * FROM flow WHERE table_id = ${tableId} AND kind = ${spec.kind} AND status = 'open' ORDER BY id`);
  return rows.map((row) => typedFlow(spec, row));
}

/** A flow by id that must belong to this table and be of this kind (ids from buttons are user input). */
export async function requireFlow<S>(
  tx: Db | Tx,
  spec: FlowKindSpec<S>,
  tableId: number,
  flowId: number,
  options: { open?: boolean } = { open: true },
): Promise<TypedFlow<S>> {
  const row =
    openedFlows(tx, spec.kind, tableId)?.find((flow) => flow.id === flowId) ??
    (await sqlFor(tx).one<Flow>`
    SELECT * FROM flow WHERE id = ${flowId} AND table_id = ${tableId} AND kind = ${spec.kind}`);
  if (!row) refuse("errors.flow.notFound");
  if (options.open !== false && row.status !== "open") refuse("errors.flow.closed");
  return typedFlow(spec, row);
}

/** Saves a flow's state (in its kind's current shape), and closes the flow when `close`. */
export async function saveFlowState<S>(
  tx: Db | Tx,
  spec: FlowKindSpec<S>,
  flowId: number,
  state: S,
  close = false,
): Promise<void> {
  const now = new Date();
  // Usually an action's last write: in a transaction it goes with the COMMIT (Tx.later).
  const write = tx instanceof Tx ? tx.later.bind(tx) : sqlFor(tx).run;
  if (close) {
    await write`
      UPDATE flow SET state = ${state}::jsonb, state_version = ${spec.version},
        updated_at = ${now}, status = 'closed', closed_at = ${now} WHERE id = ${flowId}`;
  } else {
    await write`
      UPDATE flow SET state = ${state}::jsonb, state_version = ${spec.version}, updated_at = ${now} WHERE id = ${flowId}`;
  }
}

/**
 * Where a panel was posted, stored once Discord has answered: its own statement, outside the
 * action's transaction. Its commit does not wait for the disk: were the server to crash within
 * that fraction of a second, the flow would lack its panel's id, which it already does between the
 * answer and this write (`isFromPanel`), and the next action would not redraw the old panel.
 */
export async function setFlowPanel(
  db: Db,
  flowId: number,
  channelId: string,
  messageId: string,
): Promise<void> {
  await sqlFor(db).run`
    WITH quick AS (SELECT set_config('synchronous_commit', 'off', true))
    UPDATE flow SET panel_channel_id = ${channelId}, panel_message_id = ${messageId}
    FROM quick WHERE id = ${flowId}`;
}

/** Where a flow's panel is, if it has one (for editing it after an action). */
export async function flowPanel(
  tx: Db | Tx,
  flowId: number,
): Promise<{ id: number; panelChannelId: string | null; panelMessageId: string | null } | null> {
  return sqlFor(tx).one`SELECT id, panel_channel_id, panel_message_id FROM flow WHERE id = ${flowId}`;
}

/** Was this action a click on the flow's own panel message? */
export function isFromPanel(
  ctx: Pick<ActionContext, "invocation">,
  flow: Pick<Flow, "panelMessageId">,
): boolean {
  const { sourceMessageId, sourceMessagePublic } = ctx.invocation;
  if (sourceMessageId === undefined) return false;
  if (flow.panelMessageId !== null) return sourceMessageId === flow.panelMessageId;
  // A panel's message id is stored just after it is posted: a click that comes first, on a public
  // message carrying this flow's buttons, is on that panel (no other public message has them yet).
  return sourceMessagePublic === true;
}

/** Was this action a click on another message than the flow's panel (the actor's own menu or view)? */
export function isFromOwnMessage(
  ctx: Pick<ActionContext, "invocation">,
  flow: Pick<Flow, "panelMessageId">,
): boolean {
  return ctx.invocation.sourceMessageId !== undefined && !isFromPanel(ctx, flow);
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
