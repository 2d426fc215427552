import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import type { Flow } from "../generated/prisma/client.js";
import { refuse } from "../rules/errors.js";
import { type Db, sqlFor, Tx } from "../store/db.js";
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

type KindOrSpec<S> = FlowKind | FlowKindSpec<S>;

function read<S>(kind: KindOrSpec<S>, row: TypedFlow<S>): TypedFlow<S>;
function read<S>(kind: KindOrSpec<S>, row: TypedFlow<S> | null): TypedFlow<S> | null;
function read<S>(kind: KindOrSpec<S>, row: TypedFlow<S> | null): TypedFlow<S> | null {
  if (!row || typeof kind === "string") return row;
  return typedFlow(kind, row);
}

const kindOf = <S>(kind: KindOrSpec<S>): FlowKind => (typeof kind === "string" ? kind : kind.kind);

export async function createFlow<S>(
  tx: Db | Tx,
  spec: FlowKindSpec<S>,
  input: { tableId: number; state: S; createdByUserId: string },
): Promise<TypedFlow<S>>;
/** Until every kind has its spec: the state is stored unchecked, as version 1. */
export async function createFlow<S>(
  tx: Db | Tx,
  input: { tableId: number; kind: FlowKind; state: S; createdByUserId: string },
): Promise<TypedFlow<S>>;
export async function createFlow<S>(
  tx: Db | Tx,
  first: FlowKindSpec<S> | { tableId: number; kind: FlowKind; state: S; createdByUserId: string },
  second?: { tableId: number; state: S; createdByUserId: string },
): Promise<TypedFlow<S>> {
  const spec = second ? (first as FlowKindSpec<S>) : null;
  const input = second ?? (first as { tableId: number; kind: FlowKind; state: S; createdByUserId: string });
  const kind = spec?.kind ?? (first as { kind: FlowKind }).kind;
  const version = spec?.version ?? 1;
  const now = new Date();
  const flow = await sqlFor(tx).one<TypedFlow<S>>`
    INSERT INTO flow (table_id, kind, status, state, state_version, created_by_user_id, created_at, updated_at)
    VALUES (${input.tableId}, ${kind}, 'open', ${input.state}::jsonb, ${version}, ${input.createdByUserId}, ${now}, ${now})
    RETURNING *`;
  return flow!;
}

export async function findOpenFlow<S>(
  tx: Db | Tx,
  spec: FlowKindSpec<S>,
  tableId: number,
): Promise<TypedFlow<S> | null>;
/** Until every kind has its spec: the state is read unchecked. */
export async function findOpenFlow<S>(
  tx: Db | Tx,
  tableId: number,
  kind: FlowKind,
): Promise<TypedFlow<S> | null>;
/** The open flow of a kind at a table (the newest), or null. */
export async function findOpenFlow<S>(
  tx: Db | Tx,
  first: number | FlowKindSpec<S>,
  second: number | FlowKind,
): Promise<TypedFlow<S> | null> {
  const [tableId, kind] =
    typeof first === "number" ? [first, second as FlowKind] : [second as number, first as FlowKindSpec<S>];
  const row = await sqlFor(tx).one<TypedFlow<S>>`
    SELECT * FROM flow WHERE table_id = ${tableId} AND kind = ${kindOf(kind)} AND status = 'open' ORDER BY id DESC LIMIT 1`;
  return read(kind, row);
}

/** Every open flow of a kind at a table, oldest first. */
export async function openFlows<S>(
  tx: Db | Tx,
  spec: FlowKindSpec<S>,
  tableId: number,
): Promise<TypedFlow<S>[]> {
  const rows = await sqlFor(tx).rows<TypedFlow<S>>`
    SELECT * FROM flow WHERE table_id = ${tableId} AND kind = ${spec.kind} AND status = 'open' ORDER BY id`;
  return rows.map((row) => typedFlow(spec, row));
}

export async function requireFlow<S>(
  tx: Db | Tx,
  spec: FlowKindSpec<S>,
  tableId: number,
  flowId: number,
  options?: { open?: boolean },
): Promise<TypedFlow<S>>;
/** Until every kind has its spec: the state is read unchecked. */
export async function requireFlow<S>(
  tx: Db | Tx,
  tableId: number,
  flowId: number,
  kind: FlowKind,
  options?: { open?: boolean },
): Promise<TypedFlow<S>>;
/** A flow by id that must belong to this table and be of this kind (ids from buttons are user input). */
export async function requireFlow<S>(
  tx: Db | Tx,
  ...args:
    | [FlowKindSpec<S>, number, number, { open?: boolean }?]
    | [number, number, FlowKind, { open?: boolean }?]
): Promise<TypedFlow<S>> {
  const [kind, tableId, flowId, options = { open: true }] =
    typeof args[0] === "number"
      ? [args[2] as FlowKind, args[0], args[1] as number, args[3]]
      : [args[0], args[1], args[2] as number, args[3] as { open?: boolean } | undefined];
  const row = await sqlFor(tx).one<TypedFlow<S>>`
    SELECT * FROM flow WHERE id = ${flowId} AND table_id = ${tableId} AND kind = ${kindOf(kind)}`;
  if (!row) refuse("errors.flow.notFound");
  if (options.open !== false && row.status !== "open") refuse("errors.flow.closed");
  return read(kind, row);
}

export async function saveFlowState<S>(
  tx: Db | Tx,
  spec: FlowKindSpec<S>,
  flowId: number,
  state: S,
  close?: boolean,
): Promise<void>;
/** Until every kind has its spec: saved as it is, its version unchanged. */
export async function saveFlowState<S>(tx: Db | Tx, flowId: number, state: S, close?: boolean): Promise<void>;
/** Saves a flow's state (in its kind's current shape), and closes the flow when `close`. */
export async function saveFlowState<S>(
  tx: Db | Tx,
  ...args: [FlowKindSpec<S>, number, S, boolean?] | [number, S, boolean?]
): Promise<void> {
  const [version, flowId, state, close = false] =
    typeof args[0] === "number"
      ? [null, args[0], args[1] as S, args[2] as boolean | undefined]
      : [args[0].version, args[1] as number, args[2] as S, args[3] as boolean | undefined];
  const now = new Date();
  // Usually an action's last write: in a transaction it goes with the COMMIT (Tx.later).
  const write = tx instanceof Tx ? tx.later.bind(tx) : sqlFor(tx).run;
  if (close) {
    await write`
      UPDATE flow SET state = ${state}::jsonb, state_version = coalesce(${version}::int, state_version),
        updated_at = ${now}, status = 'closed', closed_at = ${now} WHERE id = ${flowId}`;
  } else {
    await write`
      UPDATE flow SET state = ${state}::jsonb, state_version = coalesce(${version}::int, state_version),
        updated_at = ${now} WHERE id = ${flowId}`;
  }
}

export async function setFlowPanel(
  tx: Db | Tx,
  flowId: number,
  channelId: string,
  messageId: string,
): Promise<void> {
  await sqlFor(tx).run`
    UPDATE flow SET panel_channel_id = ${channelId}, panel_message_id = ${messageId} WHERE id = ${flowId}`;
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
