import type { GameTable } from "../../generated/prisma/client.js";
import { type MessageKey, t } from "../../i18n/index.js";
import {
  applyChallengeAction,
  type ChallengeAction,
  type ChallengeEvent,
  type ChallengeState,
  refundReserve,
} from "../../rules/beast-hunters/index.js";
import { refuse } from "../../rules/errors.js";
import { characterAtTable, creditVictoryPoints, setCharacterStatus } from "../../store/characters.js";
import { actingCharacter, isGm } from "../access.js";
import {
  findOpenFlow,
  isFromPanel,
  panelEdit,
  requireFlow,
  saveFlowState,
  type TypedFlow,
} from "../flows.js";
import { appendLog } from "../log.js";
import { nameKey } from "../names.js";
import type { ActionContext, ActionResult } from "../use-case.js";
import type { MessageView } from "../views.js";
import { adventureOf, settleAdventure } from "./adventure.js";
import { eventLines, eventLogEntries } from "./challenge-events-view.js";
import { challengePanel } from "./challenge-view.js";
import { type ChallengeFlowState, challengeFlow } from "./flow-states.js";
import { dropNegotiation, findNegotiation } from "./negotiation.js";
import { asReserve, findReserve, recordReserve, requireReserve } from "./reserve.js";
import { hunterSheet, saveHunterSheet } from "./sheets.js";
import { type BhIntent, type BhUseCaseOptions, defineBhUseCase } from "./use-cases.js";

export type Flow = TypedFlow<ChallengeFlowState>;

export async function loadFlow(ctx: ActionContext, table: GameTable, id: number | undefined): Promise<Flow> {
  if (id !== undefined) return requireFlow(ctx.tx, challengeFlow, table.id, id);
  const flow = await findOpenFlow(ctx.tx, challengeFlow, table.id);
  if (!flow) return refuseNoChallenge(ctx, table);
  return flow;
}

/**
 * No challenge is open: the refusal names the step that works now — the hunters' reserve first,
 * the next adventure after this one ended, the open negotiation's ways on, or opening one.
 */
export async function refuseNoChallenge(ctx: Pick<ActionContext, "tx">, table: GameTable): Promise<never> {
  const pool = await findReserve(ctx.tx, table.id);
  if (!pool) refuse("errors.bh.noReserve");
  if (adventureOf(pool).ended) refuse("errors.bh.adventureOver");
  const negotiation = await findNegotiation(ctx, table.id);
  if (negotiation) refuse("errors.bh.inNegotiation", { phase: negotiation.state.phase });
  refuse("errors.bh.noChallenge");
}

/**
 * The participant an actor acts as: the GM acts for the obstacle (or names it); players for
 * their own hunter in the challenge. `turnAction`: the action takes the turn — then the GM's
 * click on a hunter's turn, and the GM's fatal choice, act for that hunter (an absent player's;
 * `play` says so and logs it), as naming the hunter with `character` does.
 */
export async function actingParticipant(
  ctx: ActionContext,
  table: GameTable,
  state: ChallengeState,
  name: string | undefined,
  options: { turnAction?: boolean } = {},
): Promise<string> {
  const gm = isGm(table, ctx.actor);
  const obstacles = state.participants.filter((p) => p.side === "gm");
  if (name) {
    const named = participantByName(state, name);
    const obstacle = named?.side === "gm" ? named : undefined;
    if (obstacle) {
      if (!gm) refuse("errors.gmOnly");
      return obstacle.id;
    }
  } else if (gm) {
    const hunter = options.turnAction ? hunterDue(ctx, state) : null;
    if (hunter) return hunter;
    return (
      obstacles.find((p) => p.id === state.turn) ??
      obstacles.find((p) => p.status === "in") ??
      obstacles[0]!
    ).id;
  }
  // The GM may act for an absent player's hunter by naming it; `play` says so and logs it.
  const character = await actingCharacter(ctx, name, { gmMayActForPlayers: gm });
  const id = String(character.id);
  if (!state.participants.some((p) => p.id === id))
    refuse("errors.bh.notInChallenge", { name: character.name });
  return id;
}

/**
 * The hunter the GM's turn action stands for: the one with a pending fatal choice, or — for a
 * click on a panel — the hunter whose turn (or free action) it is. Null on an obstacle's turn.
 */
function hunterDue(ctx: ActionContext, state: ChallengeState): string | null {
  if (state.status === "fatalChoice") return state.pendingFatal;
  if (ctx.invocation.sourceMessageId === undefined || state.status !== "active") return null;
  const due = state.pendingBonus?.actor ?? state.turn;
  return state.participants.some((p) => p.id === due && p.side === "hunters") ? due : null;
}

/** The GM acted for a player's hunter: a public line and a log entry naming who did it. */
async function gmActedFor(
  ctx: ActionContext,
  table: GameTable,
  state: ChallengeState,
  action: ChallengeAction,
): Promise<string[]> {
  if (!isGm(table, ctx.actor)) return [];
  const actor = "actor" in action ? action.actor : null;
  const hunter = state.participants.find((p) => p.id === actor && p.side === "hunters");
  if (!hunter) return [];
  await appendLog(ctx, table.id, {
    action: "challenge.gmActedFor",
    characterId: Number(hunter.id),
    summary: { key: "bh.log.gmActedFor", params: { name: hunter.name, action: action.type } },
  });
  return [t(ctx.publicLang, "bh.gmActsFor", { name: hunter.name })];
}

/**
 * The participant a typed name means: the exact name, else the one participant whose name it
 * begins ("Bandits" for "Bandits on the ford"); a prefix of several is ambiguous.
 */
export function participantByName(state: ChallengeState, name: string) {
  const key = nameKey(name);
  const exact = state.participants.find((p) => nameKey(p.name) === key);
  if (exact) return exact;
  const starting = state.participants.filter((p) => nameKey(p.name).startsWith(key));
  return starting.length === 1 ? starting[0]! : null;
}

export function participantId(state: ChallengeState, name: string | undefined): string | null {
  if (!name) return null;
  const found = participantByName(state, name);
  if (!found) refuse("errors.bh.unknownTarget", { name: name.slice(0, 64) });
  return found.id;
}

/** Applies the action, saves, logs every event, settles VP/refunds/damage on the sheets, and answers. */
export async function play(
  ctx: ActionContext,
  table: GameTable,
  flow: Flow,
  action: ChallengeAction,
  options: { extraLines?: string[] } = {},
): Promise<ActionResult> {
  const before = flow.state.challenge;
  const result = applyChallengeAction(before, action, ctx.dice);
  const next: ChallengeFlowState = { ...flow.state, challenge: result.state };
  const actedFor = await gmActedFor(ctx, table, before, action);
  for (const entry of eventLogEntries(result.state, result.events)) await appendLog(ctx, table.id, entry);
  await settle(ctx, table, result.state, result.events);
  const ending = await settleAdventure(ctx, table, before, result.state, result.events);
  const ping = await turnPing(ctx, table, result.state, result.events);
  // After every read of the action: the state's write waits for the COMMIT and goes with it.
  await saveFlowState(ctx.tx, challengeFlow, flow.id, next, result.state.status === "closed");
  const answered = answer(
    ctx,
    flow.id,
    next,
    [...actedFor, ...(options.extraLines ?? []), ...eventLines(ctx.publicLang, result.state, result.events)],
    flow,
    ping,
  );
  return { ...answered, effects: [...(answered.effects ?? []), ...ending] };
}

/** Writes what a challenge changes outside itself: hunters' boxes, VP, the refund, retirements. */
async function settle(ctx: ActionContext, table: GameTable, state: ChallengeState, events: ChallengeEvent[]) {
  const hunterIds = new Set(
    events
      .flatMap((e) => (e.type === "damageMarked" ? [e.participant] : []))
      .filter((id) => isHunter(state, id)),
  );
  for (const id of hunterIds) {
    const character = await characterAtTable(ctx.tx, table.id, Number(id));
    if (!character) throw new Error(`character ${id} not found`);
    const sheet = hunterSheet(character);
    const damage = state.participants.find((p) => p.id === id)!.damage;
    await saveHunterSheet(ctx.tx, Number(id), {
      ...sheet,
      damage: { ...sheet.damage, [state.sphere]: { ...damage } },
    });
  }
  for (const event of events) {
    if (event.type === "taskResolved")
      await awardVp(ctx, table, state, event.vp, "bh.reason.task", { task: event.task });
    if (event.type !== "challengeEnded") continue;
    const outcome = event.outcome;
    await awardVp(ctx, table, state, outcome.vp, "bh.reason.challenge", { name: state.name ?? "—" });
    if (outcome.refund > 0) {
      const pool = await requireReserve(ctx.tx, table.id);
      const change = refundReserve(asReserve(pool), outcome.refund);
      await recordReserve(ctx, table, pool, change.reserve, {
        action: "challenge.refund",
        key: "bh.log.refund",
        params: { amount: outcome.refund },
      });
    }
    for (const id of outcome.retired) {
      await setCharacterStatus(ctx.tx, Number(id), "retired");
      await appendLog(ctx, table.id, {
        action: "character.status",
        characterId: Number(id),
        summary: { key: "bh.log.retired", params: { name: nameIn(state, id) } },
        before: { status: "active" },
        after: { status: "retired" },
      });
    }
  }
}

function isHunter(state: ChallengeState, id: string): boolean {
  return state.participants.some((p) => p.id === id && p.side === "hunters");
}

export function nameIn(state: ChallengeState, id: string): string {
  return state.participants.find((p) => p.id === id)?.name ?? id;
}

async function awardVp(
  ctx: ActionContext,
  table: GameTable,
  state: ChallengeState,
  vp: Record<string, number>,
  reasonKey: MessageKey,
  reasonParams: Record<string, string | number>,
) {
  for (const [id, amount] of Object.entries(vp)) {
    if (amount <= 0) continue;
    const character = await creditVictoryPoints(ctx.tx, Number(id), amount);
    if (!character) throw new Error(`character ${id} not found`);
    await appendLog(ctx, table.id, {
      action: "character.vp",
      characterId: character.id,
      summary: { key: "bh.log.vpAwarded", params: { name: nameIn(state, id), amount } },
      before: { vp: character.victoryPoints - amount },
      after: { vp: character.victoryPoints },
      reason: t(ctx.publicLang, reasonKey, reasonParams),
    });
  }
}

/** From the panel: update it in place and post what happened; from a command: answer with what happened and edit the panel. */
export function answer(
  ctx: ActionContext,
  id: number,
  state: ChallengeFlowState,
  lines: string[],
  flow: Flow,
  ping: Ping | null = null,
): ActionResult {
  const panel = challengePanel(ctx.publicLang, id, state);
  const text = lines.filter((l) => l !== "").join("\n");
  const summary: MessageView = {
    ...(ping ?? {}),
    embeds: [{ description: text || "—", tone: "info" as const }],
  };
  if (isFromPanel(ctx, flow)) {
    return {
      replyMode: "update",
      reply: panel,
      effects: [{ kind: "post", channelId: ctx.invocation.channelId, view: summary }],
    };
  }
  return { reply: summary, effects: [panelEdit(flow, panel)] };
}

type Ping = Pick<MessageView, "content" | "mentionUsers">;

/** The old panel after `/challenge show` moved it: a pointer to the new one, every control disabled. */
function movedPanel(ctx: ActionContext, panel: MessageView): MessageView {
  const at = Math.floor(Date.now() / 1000);
  return {
    embeds: [
      { description: t(ctx.publicLang, "bh.panel.moved", { at: `<t:${at}:T>` }), tone: "warning" },
      ...(panel.embeds ?? []),
    ],
    rows: (panel.rows ?? []).map((row) => row.map((c) => ({ ...c, disabled: true }))),
  };
}

/**
 * The turn line pings the one who must act now — the hunter's player, or the GM for an
 * obstacle; a pending fatal choice pings that hunter's player. Only that user may be mentioned.
 */
export async function turnPing(
  ctx: ActionContext,
  table: GameTable,
  state: ChallengeState,
  events: readonly ChallengeEvent[],
): Promise<Ping | null> {
  const moved = events.some(
    (e) =>
      e.type === "turnPassed" ||
      e.type === "challengeStarted" ||
      e.type === "obstacleAdded" ||
      e.type === "fatalDamage",
  );
  if (!moved) return null;
  const who =
    state.status === "fatalChoice" ? state.pendingFatal : state.status === "active" ? state.turn : null;
  const p = state.participants.find((x) => x.id === who);
  if (!p) return null;
  let userId: string | null = table.gmUserId;
  if (p.side === "hunters") {
    const owner = await characterAtTable(ctx.tx, table.id, Number(p.id));
    userId = owner?.ownerUserId ?? null;
  }
  if (!userId) return null;
  const key = state.status === "fatalChoice" ? "bh.ping.fatal" : "bh.ping.turn";
  return {
    content: t(ctx.publicLang, key, { mention: `<@${userId}>`, name: p.name }),
    mentionUsers: [userId],
  };
}

export function splitList(text: string | undefined): string[] {
  return (text ?? "")
    .split(/[,;\n]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The intents a use case turns into one rules action for the acting participant (`action`). */
type ActionIntentType =
  | "challenge.activate"
  | "challenge.reassign"
  | "challenge.menu"
  | "challenge.maneuver"
  | "challenge.accept"
  | "challenge.strike"
  | "challenge.neutralize"
  | "challenge.restore"
  | "challenge.giveup"
  | "challenge.help"
  | "challenge.switch"
  | "challenge.pass"
  | "challenge.fate"
  | "challenge.skip";
/** The intents of a use case on one challenge (`onChallenge`). */
type ChallengeIntentType =
  | ActionIntentType
  | "challenge.end"
  | "challenge.obstacle"
  | "challenge.obstacleform"
  | "challenge.offer"
  | "challenge.task"
  | "challenge.taskform"
  | "challenge.taskmenu"
  | "challenge.achieve"
  | "challenge.resolve"
  | "challenge.team";
/** Such an intent as its use case reads it: each names its challenge (or none: the open one); most, a hunter. */
type ChallengeIntent<T extends ChallengeIntentType> = BhIntent<T> & { flowId?: number; character?: string };

/**
 * A use case on the challenge its intent names (from a panel), or the table's open one (from a
 * command): `run` gets it loaded, after the declared access is checked.
 */
export function onChallenge<T extends ChallengeIntentType>(
  type: T,
  options: BhUseCaseOptions,
  run: (args: {
    ctx: ActionContext<ChallengeIntent<T>, "required">;
    table: GameTable;
    flow: Flow;
    state: ChallengeState;
  }) => Promise<ActionResult>,
) {
  return defineBhUseCase(type, options, async (ctx, table) => {
    const intent = ctx.intent as ChallengeIntent<T>;
    const flow = await loadFlow(ctx, table, intent.flowId);
    return run({
      ctx: ctx as ActionContext<ChallengeIntent<T>, "required">,
      table,
      flow,
      state: flow.state.challenge,
    });
  });
}

/** A use case that turns its intent into one rules action for the acting participant. */
export function action<T extends ActionIntentType>(
  type: T,
  build: (args: {
    ctx: ActionContext;
    table: GameTable;
    state: ChallengeState;
    intent: ChallengeIntent<T>;
    actor: () => Promise<string>;
  }) => Promise<ChallengeAction> | ChallengeAction,
) {
  return onChallenge(type, { mutates: true, ephemeral: false }, async ({ ctx, table, flow, state }) => {
    const intent = ctx.intent;
    const built = await build({
      ctx,
      table,
      state,
      intent,
      // Giving up is never a click's default: the GM names the hunter who gives up.
      actor: () =>
        actingParticipant(ctx, table, state, intent.character, { turnAction: type !== "challenge.giveup" }),
    });
    return play(ctx, table, flow, built);
  });
}

export function requirePlaying(state: ChallengeState): void {
  if (state.status === "fatalChoice")
    refuse("errors.bh.fatalChoicePending", { name: nameIn(state, state.pendingFatal!) });
  if (state.status !== "active") refuse("errors.bh.challengeOver");
}

export function sideOf(state: ChallengeState, id: string) {
  return state.participants.find((p) => p.id === id)!.side;
}

const endChallenge = onChallenge(
  "challenge.end",
  { access: "gm", mutates: true, ephemeral: false },
  async ({ ctx, table, flow, state }) => {
    if (state.status === "active" || state.status === "fatalChoice") {
      if (!ctx.intent.concede) refuse("errors.bh.challengeStillActive");
      return play(ctx, table, flow, { type: "concede" });
    }
    return play(ctx, table, flow, { type: "close" });
  },
);

/**
 * `/challenge end` (the GM): closes or concedes the challenge; during a negotiation (no challenge
 * yet) it drops the negotiation, free — conceding it is `/reserve concede`.
 */
export const challengeEnd = defineBhUseCase(
  "challenge.end",
  { access: "gm", mutates: true, ephemeral: false },
  async (ctx, table) => {
    const negotiation =
      ctx.intent.flowId === undefined && !(await findOpenFlow(ctx.tx, challengeFlow, table.id))
        ? await findNegotiation(ctx, table.id)
        : null;
    if (!negotiation) return endChallenge.run(ctx);
    if (ctx.intent.concede) refuse("errors.bh.concedeNegotiationWith", { phase: negotiation.state.phase });
    return dropNegotiation(ctx, table, negotiation);
  },
);

export const challengeShow = defineBhUseCase(
  "challenge.show",
  { mutates: false, ephemeral: false },
  async (ctx, table) => {
    const flow =
      ctx.intent.flowId !== undefined
        ? await requireFlow(ctx.tx, challengeFlow, table.id, ctx.intent.flowId, {
            open: false,
          })
        : await loadFlow(ctx, table, undefined);
    const panel = challengePanel(ctx.publicLang, flow.id, flow.state);
    if (isFromPanel(ctx, flow)) return { replyMode: "update", reply: panel };
    // A fresh panel further down the channel: later actions edit this one. The old message says
    // where the live panel went and keeps no live buttons.
    const moved =
      flow.status === "open" && flow.panelMessageId ? [panelEdit(flow, movedPanel(ctx, panel))] : [];
    return { reply: panel, replyIsPanelOf: flow.id, effects: moved };
  },
);
