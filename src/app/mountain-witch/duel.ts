/**
 * `/duel …`: a challenge, then secret dice. Each duellist sees their own dice only in
 * ephemeral messages, which the bot edits (through that interaction's token) as the
 * duel moves on; the public panel shows how many dice each has rolled, never a face,
 * until the reveal.
 */
import type { Character, GameTable } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import {
  acceptDuel,
  challengeDuel,
  type DuelState,
  declineDuel,
  duelIsOver,
  duelTrust,
  nextDuelRound,
  rollNext,
  type SideKey,
  sideOfPlayer,
  spendDuelDamage,
  strike,
} from "../../rules/mountain-witch/index.js";
import { characterAtTable, characterStatuses, liveCharacterById } from "../../store/characters.js";
import { actingCharacter, findCharacter, isGm, requireControl } from "../access.js";
import {
  answerWithPanel,
  createFlow,
  isFromOwnMessage,
  openFlows,
  panelEdit,
  requireFlow,
  saveFlowState,
  type TypedFlow,
} from "../flows.js";
import type { Intent } from "../intent.js";
import { languageOf } from "../languages.js";
import { appendLog } from "../log.js";
import { cleanText } from "../names.js";
import type { ActionContext, ActionResult, Effect } from "../use-case.js";
import type { MessageView } from "../views.js";
import { duelPanel, personalView } from "./duel-view.js";
import { type DuelFlowState, duelFlow } from "./flow-states.js";
import {
  activeDamage,
  adoptPanel,
  clearDamage,
  persistDamage,
  persistTrustSpend,
  refOf,
  trustLinks,
} from "./shared.js";
import { beginPlay } from "./starting-trust.js";
import { mwAction } from "./use-cases.js";

const TOKEN_LIFETIME_MS = 14 * 60 * 1000;

async function loadDuel(
  ctx: Pick<ActionContext<Intent, "required">, "tx" | "table" | "actor">,
  id?: number,
): Promise<TypedFlow<DuelFlowState>> {
  const { table } = ctx;
  if (id !== undefined) return requireFlow(ctx.tx, duelFlow, table.id, id);
  // The newest first.
  const open = (await openFlows(ctx.tx, duelFlow, table.id)).reverse();
  const mine = open.find((f) => sideOfPlayer(f.state.duel, ctx.actor.userId) !== null);
  const flow = mine ?? open[0];
  if (!flow) refuse("errors.mw.noDuel");
  return flow;
}

function mySide(state: Pick<DuelFlowState, "duel">, userId: string): SideKey {
  const side = sideOfPlayer(state.duel, userId);
  if (!side) refuse("errors.mw.notDuellist");
  return side;
}

/** Edits a duellist's secret message, if the bot still may (its token is fresh). */
function secretEdit(lang: Lang, flowId: number, state: DuelFlowState, side: SideKey, now: Date): Effect[] {
  const secret = state.secret[side];
  if (!secret || now.getTime() - Date.parse(secret.at) > TOKEN_LIFETIME_MS) return [];
  return [
    {
      kind: "editInteractionReply",
      interactionToken: secret.token,
      view: personalView(lang, flowId, state.duel, state.duel[side].playerId),
    },
  ];
}

/**
 * The answer to a duellist's own action: the secret message (edited in place when the
 * button was on it, new otherwise), the public panel, and the other duellist's message.
 */
async function duellistAnswer(
  ctx: ActionContext<{ type: string }, "required">,
  flow: TypedFlow<DuelFlowState>,
  before: DuelFlowState,
  duel: DuelState,
  side: SideKey,
): Promise<ActionResult> {
  const { table } = ctx;
  const state: DuelFlowState = {
    ...before,
    duel,
    secret: {
      ...before.secret,
      [side]: { token: ctx.invocation.interactionToken, at: ctx.now.toISOString() },
    },
  };
  const other: SideKey = side === "a" ? "b" : "a";
  const revealedNow = duel.phase === "revealed" && before.duel.phase !== "revealed";
  const panelNow = duelPanel(ctx.publicLang, flow.id, duel);
  // At the reveal the old panel keeps the result without its controls; the reveal message becomes the panel.
  const effects: Effect[] = [panelEdit(flow, revealedNow ? { ...panelNow, rows: [] } : panelNow)];
  const otherChanged =
    JSON.stringify(before.duel[other].dice) !== JSON.stringify(duel[other].dice) ||
    duel.phase !== before.duel.phase;
  // The other duellist's secret view is drawn in their own language, whoever caused the redraw.
  if (otherChanged)
    effects.push(...secretEdit(await languageOf(ctx, duel[other].playerId), flow.id, state, other, ctx.now));
  if (revealedNow) {
    await clearDamage(ctx, duel.result?.expiredDamageIds ?? []);
    await appendLog(ctx, table.id, {
      action: "duel.reveal",
      summary: {
        key: "log.mw.duel.reveal",
        params: { a: duel.a.name, b: duel.b.name, degree: `@mw.degree.${duel.result!.degree}` },
      },
      dice: { a: duel.result!.a, b: duel.result!.b },
    });
    effects.push({ kind: "postPanel", flowId: flow.id, channelId: table.channelId, view: panelNow });
  }
  await saveFlowState(ctx.tx, duelFlow, flow.id, state);
  const view = personalView(ctx.userLang, flow.id, duel, ctx.actor.userId);
  const onMySecret = isFromOwnMessage(ctx, flow);
  return onMySecret ? { replyMode: "update", reply: view, effects } : { reply: view, effects };
}

async function logSecretDice(
  ctx: ActionContext<{ type: string }, "required">,
  table: GameTable,
  duel: DuelState,
  sides: readonly SideKey[],
) {
  // Each duellist's dice are logged for that duellist's eyes only.
  for (const side of sides) {
    await appendLog(ctx, table.id, {
      action: "duel.dice",
      characterId: duel[side].characterId,
      summary: {
        key: "log.mw.duel.dice",
        params: { name: duel[side].name, dice: duel[side].dice.join(", ") },
      },
      dice: duel[side].dice,
      visibleTo: duel[side].playerId,
    });
  }
}

export const duelChallenge = mwAction("duel.challenge", "public change", async (ctx) => {
  const { table } = ctx;
  const challenger = await actingCharacter(ctx, ctx.intent.character);
  const opponent = await findCharacter(ctx.tx, table.id, ctx.intent.opponent);
  const open = await openFlows(ctx.tx, duelFlow, table.id);
  const involved = open.filter((f) =>
    [f.state.duel.a.characterId, f.state.duel.b.characterId].some(
      (id) => id === challenger.id || id === opponent.id,
    ),
  );
  const ids = involved.flatMap((f) => [f.state.duel.a.characterId, f.state.duel.b.characterId]);
  const statuses = await characterStatuses(ctx.tx, ids);
  // A finished duel never blocks a new challenge: it is closed now. One still being fought does.
  const busy = involved.find((f) => !duelIsFinished(f.state, statuses));
  if (busy) {
    const fighting = [busy.state.duel.a, busy.state.duel.b].find(
      (d) => d.characterId === challenger.id || d.characterId === opponent.id,
    )!;
    // The challenger's own duel can be finished by them; someone else's is theirs to finish.
    if (fighting.characterId === challenger.id) refuse("errors.mw.alreadyDuelling", { name: fighting.name });
    refuse("errors.mw.opponentDuelling", { name: fighting.name });
  }
  for (const finished of involved) await closeDuel(ctx, table, finished, finished.state);
  const duel = challengeDuel({
    challenger: refOf(challenger),
    opponent: refOf(opponent),
    lethal: ctx.intent.lethal ?? true,
  });
  const revealed = await beginPlay(ctx, table, ctx.publicLang);
  const flow = await createFlow(ctx.tx, duelFlow, {
    tableId: table.id,
    state: { duel, secret: { a: null, b: null }, stopped: [] },
    createdByUserId: ctx.actor.userId,
  });
  await appendLog(ctx, table.id, {
    action: "duel.challenge",
    summary: { key: "log.mw.duel.challenge", params: { a: challenger.name, b: opponent.name } },
  });
  const view = duelPanel(ctx.publicLang, flow.id, duel);
  return {
    reply: { ...view, mentionUsers: [duel.b.playerId] },
    replyIsPanelOf: flow.id,
    ...(revealed ? { effects: [{ kind: "post" as const, channelId: table.channelId, view: revealed }] } : {}),
  };
});

async function requireOpponentPlayer(
  ctx: ActionContext<{ type: string }, "required">,
  flow: TypedFlow<DuelFlowState>,
): Promise<Character> {
  const { table } = ctx;
  const opponent = await characterAtTable(ctx.tx, table.id, flow.state.duel.b.characterId);
  if (!opponent) refuse("errors.flow.notFound");
  requireControl(ctx, opponent);
  return opponent;
}

export const duelAccept = mwAction("duel.accept", "public change", async (ctx) => {
  const { table } = ctx;
  const flow = await loadDuel(ctx, ctx.intent.flowId);
  await requireOpponentPlayer(ctx, flow);
  // Accept and Decline are on the public challenge panel only.
  await adoptPanel(ctx, flow);
  const damage = await activeDamage(ctx.tx, flow.tableId, [
    flow.state.duel.a.characterId,
    flow.state.duel.b.characterId,
  ]);
  const duel = acceptDuel(flow.state.duel, ctx.dice, damage);
  await clearDamage(ctx, duel.expiredDamageIds);
  await logSecretDice(ctx, table, duel, ["a", "b"]);
  await saveFlowState(ctx.tx, duelFlow, flow.id, { ...flow.state, duel });
  const view = duelPanel(ctx.publicLang, flow.id, duel);
  return answerWithPanel(ctx, flow, view);
});

export const duelDecline = mwAction("duel.decline", "public change", async (ctx) => {
  const flow = await loadDuel(ctx, ctx.intent.flowId);
  await requireOpponentPlayer(ctx, flow);
  // Accept and Decline are on the public challenge panel only.
  await adoptPanel(ctx, flow);
  const duel = declineDuel(flow.state.duel);
  await saveFlowState(ctx.tx, duelFlow, flow.id, { ...flow.state, duel }, true);
  const view = duelPanel(ctx.publicLang, flow.id, duel);
  return answerWithPanel(ctx, flow, view);
});

export const duelPeek = mwAction("duel.peek", "private change", async (ctx) => {
  const flow = await loadDuel(ctx, ctx.intent.flowId);
  const side = mySide(flow.state, ctx.actor.userId);
  return duellistAnswer(ctx, flow, flow.state, flow.state.duel, side);
});

export const duelNext = mwAction("duel.next", "private change", async (ctx) => {
  const { table } = ctx;
  const flow = await loadDuel(ctx, ctx.intent.flowId);
  const side = mySide(flow.state, ctx.actor.userId);
  const duel = rollNext(flow.state.duel, side, ctx.dice);
  if (duel.a.dice.length !== flow.state.duel.a.dice.length) await logSecretDice(ctx, table, duel, ["a", "b"]);
  return duellistAnswer(ctx, flow, flow.state, duel, side);
});

export const duelStrike = mwAction("duel.strike", "private change", async (ctx) => {
  const flow = await loadDuel(ctx, ctx.intent.flowId);
  const side = mySide(flow.state, ctx.actor.userId);
  const duel = strike(flow.state.duel, side, ctx.dice);
  return duellistAnswer(ctx, flow, flow.state, duel, side);
});

export const duelDamage = mwAction("duel.damage", "public change", async (ctx) => {
  const { table } = ctx;
  const flow = await loadDuel(ctx, ctx.intent.flowId);
  const side = await damagingSide(ctx, table, flow.state.duel);
  const { state: duel, damage } = spendDuelDamage(flow.state.duel, {
    attackerSide: side,
    quality: ctx.intent.quality,
    condition: ctx.intent.condition ? cleanText(ctx.intent.condition, 100) : null,
    ...(ctx.intent.kill !== undefined ? { kill: ctx.intent.kill } : {}),
  });
  const target = await characterAtTable(ctx.tx, table.id, damage.targetId);
  if (!target) throw new Error(`duel target ${damage.targetId} not found`);
  await persistDamage(ctx, table, target, { ...damage, ability: null }, null);
  const state: DuelFlowState = { ...flow.state, duel };
  // A duellist taken out (dead or incapacitated) ends the duel by itself.
  if (duelIsOver(duel)) await closeDuel(ctx, table, flow, state);
  else await saveFlowState(ctx.tx, duelFlow, flow.id, state);
  const view = duelPanel(ctx.publicLang, flow.id, duel, { stopped: state.stopped });
  return answerWithPanel(ctx, flow, view);
});

/**
 * Whose the round's damage is to choose (docs/rules/mountain-witch.md §1.1, §1.4): the winner's,
 * unless a dead character's player bought the narration — then the buyer's alone, for the
 * winning side.
 */
async function damagingSide(
  ctx: ActionContext<{ type: string }, "required">,
  table: GameTable,
  duel: DuelState,
): Promise<SideKey> {
  const result = duel.result;
  const buyer = result?.narratorBought ? duel.trustUses.findLast((u) => u.use === "narration") : undefined;
  if (!result?.winner || !buyer) return mySide({ duel }, ctx.actor.userId);
  if (buyer.spenderPlayerId !== ctx.actor.userId) {
    const who = await characterAtTable(ctx.tx, table.id, buyer.spenderId);
    refuse("errors.mw.duelNarrationBought", { name: who?.name ?? `#${buyer.spenderId}` });
  }
  return result.winner;
}

/** Closes a duel flow and logs its end. */
async function closeDuel(
  ctx: ActionContext<{ type: string }, "required">,
  table: GameTable,
  flow: TypedFlow<DuelFlowState>,
  state: DuelFlowState,
): Promise<void> {
  await saveFlowState(ctx.tx, duelFlow, flow.id, state, true);
  await appendLog(ctx, table.id, {
    action: "duel.end",
    summary: { key: "log.mw.duel.end", params: { a: state.duel.a.name, b: state.duel.b.name } },
  });
}

/**
 * A duel that no longer holds anyone: its round is revealed (whatever comes next is a new
 * choice), it was declined, or a duellist is no longer active. A new challenge closes it.
 */
function duelIsFinished(state: DuelFlowState, statuses: ReadonlyMap<number, string>): boolean {
  const { duel } = state;
  if (duel.phase === "revealed" || duel.phase === "declined") return true;
  return [duel.a.characterId, duel.b.characterId].some((id) => (statuses.get(id) ?? "active") !== "active");
}

export const duelRound = mwAction("duel.round", "public change", async (ctx) => {
  const { table } = ctx;
  const flow = await loadDuel(ctx, ctx.intent.flowId);
  mySide(flow.state, ctx.actor.userId);
  const ids = [flow.state.duel.a.characterId, flow.state.duel.b.characterId];
  const fighters = await characterStatuses(ctx.tx, ids);
  if ([...fighters.values()].some((status) => status !== "active")) refuse("errors.mw.duelOver");
  const duel = nextDuelRound(flow.state.duel, ctx.dice, await activeDamage(ctx.tx, table.id, ids));
  await clearDamage(ctx, duel.expiredDamageIds);
  await logSecretDice(ctx, table, duel, ["a", "b"]);
  await saveFlowState(ctx.tx, duelFlow, flow.id, { duel, secret: { a: null, b: null }, stopped: [] });
  const view = duelPanel(ctx.publicLang, flow.id, duel);
  // The last round's reveal keeps its result, without controls that belong to a finished round
  // (only when that message is known: an edit without it would land on the new panel).
  const last = duelPanel(ctx.publicLang, flow.id, flow.state.duel, { stopped: flow.state.stopped });
  const effects: Effect[] = flow.panelMessageId ? [panelEdit(flow, { ...last, rows: [] })] : [];
  return { reply: view, replyIsPanelOf: flow.id, effects };
});

export const duelEnd = mwAction("duel.end", "public change", async (ctx) => {
  const { table } = ctx;
  const flow = await loadDuel(ctx, ctx.intent.flowId);
  const gm = isGm(table, ctx.actor);
  const side = sideOfPlayer(flow.state.duel, ctx.actor.userId);
  if (!gm && !side) mySide(flow.state, ctx.actor.userId);
  // After a reveal a duellist stops; the duel ends when both have (docs/rules/mountain-witch.md §1.4).
  // The GM, a duellist before the reveal or during a challenge ends it at once.
  if (!gm && side && flow.state.duel.phase === "revealed") {
    const stopped = [...new Set([...flow.state.stopped, side])];
    const state: DuelFlowState = { ...flow.state, stopped };
    const both = stopped.length === 2;
    if (both) await closeDuel(ctx, table, flow, state);
    else await saveFlowState(ctx.tx, duelFlow, flow.id, state);
    return answerWithPanel(
      ctx,
      flow,
      duelPanel(ctx.publicLang, flow.id, state.duel, { stopped, ended: both }),
    );
  }
  await closeDuel(ctx, table, flow, flow.state);
  const view = duelPanel(ctx.publicLang, flow.id, flow.state.duel, { ended: true });
  const ended: MessageView =
    flow.state.duel.phase === "revealed"
      ? view
      : {
          ...view,
          rows: [],
          embeds: [...(view.embeds ?? []), { description: t(ctx.publicLang, "mw.duel.ended") }],
        };
  return answerWithPanel(ctx, flow, ended);
});

export const duelTrustUse = mwAction("duel.trust", "public change", async (ctx) => {
  const spender = await actingCharacter(ctx, ctx.intent.character);
  const target = await findCharacter(ctx.tx, ctx.table.id, ctx.intent.target);
  const flow = await loadDuel(ctx, ctx.intent.flowId);
  return spendInDuel(ctx, flow, spender, target, ctx.intent.use, ctx.intent.points);
});

/** The panel's menu for the dead: help, betray (1 point a pick) or buy the narration, on a duellist. */
export const duelTrustPick = mwAction("duel.trust-pick", "public change", async (ctx) => {
  const [use, id] = ctx.intent.choice.split(":") as ["help" | "betray" | "narration", string];
  const spender = await actingCharacter(ctx, undefined);
  const flow = await loadDuel(ctx, ctx.intent.flowId);
  const target = await liveCharacterById(ctx.tx, ctx.table.id, Number(id));
  if (!target) refuse("errors.mw.notInDuel");
  return spendInDuel(ctx, flow, spender, target, use, use === "betray" ? 1 : undefined);
});

async function spendInDuel(
  ctx: ActionContext<Intent, "required">,
  flow: TypedFlow<DuelFlowState>,
  spender: Character,
  target: Character,
  use: "help" | "betray" | "narration",
  points: number | undefined,
): Promise<ActionResult> {
  const { table } = ctx;
  const links = await trustLinks(ctx.tx, table.id);
  const { state: duel, spent } = duelTrust(
    flow.state.duel,
    { spender: refOf(spender), use, targetId: target.id, ...(points !== undefined ? { points } : {}) },
    links,
  );
  await persistTrustSpend(ctx, table.id, spent, { giver: target.name, holder: spender.name });
  await saveFlowState(ctx.tx, duelFlow, flow.id, { ...flow.state, duel });
  const view = duelPanel(ctx.publicLang, flow.id, duel);
  return {
    reply: {
      embeds: [
        {
          description: t(ctx.publicLang, `mw.duel.trustDone.${use}`, {
            name: spender.name,
            target: target.name,
            n: spent.amount,
          }),
          tone: "success",
        },
      ],
    },
    effects: [panelEdit(flow, view)],
  };
}

export const duelUseCases = [
  duelChallenge,
  duelAccept,
  duelDecline,
  duelPeek,
  duelNext,
  duelStrike,
  duelDamage,
  duelRound,
  duelEnd,
  duelTrustUse,
  duelTrustPick,
];
