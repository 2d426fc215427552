/**
 * `/conflict …` for The Mountain Witch: one flow per conflict, its rules state as JSON, a panel
 * that follows it. Here: setting a conflict up (start, add, join, leave), showing and ending it,
 * and what every conflict action shares; the round is in conflict-round.ts, narration and damage
 * after the roll in conflict-damage.ts.
 */
import type { Character, GameTable } from "../../generated/prisma/client.js";
import { t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import {
  addObstacle,
  addParticipant,
  type ConflictState,
  closeConflict,
  damagePenalty,
  findParticipant,
  leaveConflict,
  openConflict,
  type Participant,
} from "../../rules/mountain-witch/index.js";
import {
  characterNames,
  liveCharacterById,
  liveCharacterByKey,
  ownedCharacters,
} from "../../store/characters.js";
import { actingCharacter, findCharacter, isGm } from "../access.js";
import {
  findOpenFlow,
  isFromPanel,
  openFlows,
  panelEdit,
  requireFlow,
  saveFlowState,
  startFlow,
  type TypedFlow,
} from "../flows.js";
import type { Intent } from "../intent.js";
import { appendLog } from "../log.js";
import { cleanName, cleanText, nameKey } from "../names.js";
import type { ActionContext, ActionResult, Effect } from "../use-case.js";
import type { MessageView } from "../views.js";
import { conflictPanel, participantName } from "./conflict-view.js";
import { conflictFlow, trustRoundFlow } from "./flow-states.js";
import { activeDamage, adoptPanel, persistTrustRefund, refOf } from "./shared.js";
import { beginPlay } from "./starting-trust.js";
import { gmAction, mwAction } from "./use-cases.js";

export type Ctx = ActionContext<{ type: string; flowId?: number }, "required">;
/** What a helper of an action at the channel's table sees: the table is there. */
type AtTable = ActionContext<Intent, "required">;

/** The conflict an action is about: the button's, or the one the character is in, or the newest open one. */
export async function loadConflict(
  ctx: Pick<AtTable, "tx" | "table">,
  id: number | undefined,
  characterId?: number,
): Promise<TypedFlow<ConflictState>> {
  const { table } = ctx;
  if (id !== undefined) return requireFlow(ctx.tx, conflictFlow, table.id, id);
  // The newest first.
  const open = (await openFlows(ctx.tx, conflictFlow, table.id)).reverse();
  if (open.length === 0) refuse("errors.mw.noConflict");
  const mine =
    characterId !== undefined ? open.find((f) => findParticipant(f.state, characterId)) : undefined;
  return mine ?? open[0]!;
}

/** Names of characters outside the conflict that the panel mentions (buyers, dead betrayers). */
export async function outsideNames(
  ctx: Pick<ActionContext, "tx">,
  state: ConflictState,
): Promise<Record<number, string>> {
  const ids = new Set<number>();
  for (const b of state.betrayals) if (!findParticipant(state, b.betrayerId)) ids.add(b.betrayerId);
  for (const p of state.pairings) if (p.narration?.reason === "bought") ids.add(p.narration.characterId);
  if (ids.size === 0) return {};
  return Object.fromEntries(await characterNames(ctx.tx, [...ids]));
}

export async function panel(
  ctx: Pick<ActionContext, "tx" | "publicLang">,
  flow: { id: number; tableId: number },
  state: ConflictState,
) {
  const penalties: Record<number, number> = {};
  if (state.phase === "open") {
    const damage = await activeDamage(
      ctx.tx,
      flow.tableId,
      state.participants.map((p) => p.id),
    );
    for (const [id, entries] of Object.entries(damage)) penalties[Number(id)] = damagePenalty(entries);
  }
  return conflictPanel(ctx.publicLang, flow.id, state, await outsideNames(ctx, state), penalties);
}

/** A participant chosen on the panel (by id) or named in a command. */
export async function chosenParticipant(
  ctx: Pick<AtTable, "tx" | "table" | "publicLang" | "userLang">,
  state: ConflictState,
  input: { id?: number | undefined; name?: string | undefined },
): Promise<Participant> {
  if (input.id !== undefined) return requireParticipantOf(state, input.id);
  if (input.name) return participantNamed(ctx, state, input.name);
  refuse("errors.mw.targetNeeded");
}

/** Saves the new state and answers with the panel (editing it in place when a panel button was pressed). */
export async function saved(
  ctx: Ctx,
  flow: TypedFlow<ConflictState>,
  state: ConflictState,
  extra: { note?: string; effects?: Effect[]; close?: boolean } = {},
): Promise<ActionResult> {
  // The panel's reads first: the state's write then waits for the COMMIT and goes with it.
  const view = await panel(ctx, flow, state);
  await saveFlowState(ctx.tx, conflictFlow, flow.id, state, extra.close ?? state.phase === "closed");
  // The conflict's buttons and menus are on its public panel only.
  await adoptPanel(ctx, flow);
  const effects: Effect[] = [...(extra.effects ?? [])];
  if (isFromPanel(ctx, flow)) {
    return {
      replyMode: "update",
      reply: view,
      effects: [
        ...effects,
        ...(extra.note ? [{ kind: "followup" as const, view: { content: extra.note } }] : []),
      ],
    };
  }
  effects.push(panelEdit(flow, view));
  return {
    reply: {
      embeds: [{ description: extra.note ?? t(ctx.publicLang, "mw.conflict.updated"), tone: "success" }],
    },
    effects,
  };
}

/** A participant named by the user: a conflict-only obstacle by its name, or a stored character. */
export async function participantNamed(
  ctx: Pick<AtTable, "tx" | "table" | "publicLang" | "userLang">,
  state: ConflictState,
  who: string,
): Promise<Participant> {
  const key = nameKey(who);
  const local = state.participants.find(
    (p) =>
      nameKey(participantName(ctx.userLang, p)) === key ||
      nameKey(participantName(ctx.publicLang, p)) === key ||
      nameKey(p.name) === key,
  );
  if (local) return local;
  const character = await findCharacter(ctx.tx, ctx.table.id, who);
  const p = findParticipant(state, character.id);
  if (!p) refuse("errors.mw.notInConflict");
  return p;
}

export function requireParticipantOf(state: ConflictState, id: number): Participant {
  const p = findParticipant(state, id);
  if (!p) refuse("errors.mw.notInConflict");
  return p;
}

export async function characterById(
  tx: ActionContext["tx"],
  table: GameTable,
  id: number,
): Promise<Character> {
  const character = await liveCharacterById(tx, table.id, id);
  if (!character) refuse("errors.character.notFound", { name: `#${id}` });
  return character;
}

/** Each character takes part in one conflict per round: not in another open conflict that has not been rolled. */
export async function assertFree(
  ctx: Pick<ActionContext, "tx">,
  table: GameTable,
  characterId: number,
  except: number,
) {
  const others = (await openFlows(ctx.tx, conflictFlow, table.id)).filter((f) => f.id !== except);
  if (others.some((f) => f.state.phase === "open" && findParticipant(f.state, characterId)))
    refuse("errors.mw.inAnotherConflict");
}

export const conflictStart = mwAction("conflict.start", "public change", async (ctx) => {
  const { table } = ctx;
  const title = ctx.intent.title ? cleanText(ctx.intent.title, 100) || null : null;
  let state = openConflict({ mode: ctx.intent.mode ?? "opposed", title });
  if (ctx.intent.opponent) {
    const existing = await liveCharacterByKey(ctx.tx, table.id, nameKey(ctx.intent.opponent));
    if (existing) {
      state = addParticipant(state, refOf(existing), "b");
    } else {
      // A new obstacle exists only in this conflict: the GM's to name.
      if (!isGm(table, ctx.actor)) await findCharacter(ctx.tx, table.id, ctx.intent.opponent);
      state = addObstacle(state, {
        name: cleanName(ctx.intent.opponent),
        strength: ctx.intent.strength ?? "medium",
      }).state;
    }
  }
  // A player who starts a conflict is in it.
  if (!isGm(table, ctx.actor)) {
    const own = await actingCharacter(ctx, undefined);
    state = addParticipant(state, refOf(own), "a");
  }
  const revealed = await beginPlay(ctx, table, ctx.publicLang);
  const flow = await startFlow(ctx, conflictFlow, table.id, state);
  await appendLog(ctx, table.id, {
    action: "conflict.start",
    summary: { key: "log.mw.conflict.start", params: { id: flow.id } },
  });
  const effects: Effect[] = revealed ? [{ kind: "post", channelId: table.channelId, view: revealed }] : [];
  const roundWarning = await trustRoundWarning(ctx, table);
  if (roundWarning) effects.push({ kind: "followup", view: roundWarning });
  return { reply: await panel(ctx, flow, state), replyIsPanelOf: flow.id, effects };
});

/**
 * Play may start before the chapter's trust round is revealed: the points were refilled when the
 * chapter began, but the values are still the last chapter's. The GM is told, privately.
 */
export async function trustRoundWarning(
  ctx: Pick<ActionContext, "tx" | "actor" | "userLang">,
  table: GameTable,
): Promise<MessageView | null> {
  if (!isGm(table, ctx.actor)) return null;
  const round = await findOpenFlow(ctx.tx, trustRoundFlow, table.id);
  if (round?.state.round.phase !== "collecting") return null;
  const pending = round.state.round.giverIds.filter((id) => !round.state.round.submitted.includes(id));
  const names = new Map(await characterNames(ctx.tx, pending));
  return {
    ephemeral: true,
    embeds: [
      {
        description: t(ctx.userLang, "mw.trust.roundStillOpen", {
          chapter: round.state.round.chapter,
          names: pending.map((id) => names.get(id) ?? "?").join(", ") || "—",
        }),
        tone: "warning",
      },
    ],
  };
}

export const conflictAdd = gmAction("conflict.add", "public change", async (ctx) => {
  const { table } = ctx;
  const flow = await loadConflict(ctx, ctx.intent.flowId);
  const existing = await liveCharacterByKey(ctx.tx, table.id, nameKey(ctx.intent.name));
  let state: ConflictState;
  if (existing) {
    await assertFree(ctx, table, existing.id, flow.id);
    // The GM adds opponents: to the GM's side, player characters too (a conflict between players).
    state = addParticipant(flow.state, refOf(existing), "b");
  } else {
    state = addObstacle(flow.state, {
      name: cleanName(ctx.intent.name),
      strength: ctx.intent.strength ?? "medium",
    }).state;
  }
  return saved(ctx, flow, state, {
    note: t(ctx.publicLang, "mw.conflict.added", { name: existing?.name ?? cleanName(ctx.intent.name) }),
  });
});

export const conflictJoin = mwAction("conflict.join", "public change", async (ctx) => {
  const { table } = ctx;
  // The GM has no character of their own to join with: say how the GM's side grows.
  if (isGm(table, ctx.actor) && !ctx.intent.character) {
    const own = await ownedCharacters(ctx.tx, table.id, ctx.actor.userId);
    if (own.length === 0) refuse("errors.mw.gmJoinHow");
  }
  const character = await actingCharacter(ctx, ctx.intent.character, { gmMayActForPlayers: true });
  const flow = await loadConflict(ctx, ctx.intent.flowId);
  await assertFree(ctx, table, character.id, flow.id);
  let side: "a" | "b" = character.kind === "pc" ? "a" : "b";
  if (ctx.intent.against) {
    const opponent = await participantNamed(ctx, flow.state, ctx.intent.against);
    side = opponent.side === "a" ? "b" : "a";
  }
  const state = addParticipant(flow.state, refOf(character), side);
  return saved(ctx, flow, state, {
    note: t(ctx.publicLang, "mw.conflict.joined", { name: character.name }),
  });
});

/**
 * Leaving a conflict before the roll: the character sits this round out, and every point
 * of trust spent by, on or against them in it comes back (docs/rules/mountain-witch.md §1.1).
 * A player leaves with their own character; the GM may take out anyone.
 */
export const conflictLeave = mwAction("conflict.leave", "public change", async (ctx) => {
  const { table } = ctx;
  const gm = isGm(table, ctx.actor);
  let leaver: Participant;
  let flow: TypedFlow<ConflictState>;
  if (ctx.intent.character && gm) {
    flow = await loadConflict(ctx, ctx.intent.flowId);
    leaver = await participantNamed(ctx, flow.state, ctx.intent.character);
  } else {
    const own = await actingCharacter(ctx, ctx.intent.character);
    flow = await loadConflict(ctx, ctx.intent.flowId, own.id);
    leaver = requireParticipantOf(flow.state, own.id);
  }
  const { state, refunds } = leaveConflict(flow.state, leaver.id);
  if (refunds.length > 0) {
    const ids = [...new Set(refunds.flatMap((r) => [r.giverId, r.holderId]))];
    const names = await characterNames(ctx.tx, ids);
    for (const r of refunds)
      await persistTrustRefund(ctx, table.id, r, {
        giver: names.get(r.giverId) ?? `#${r.giverId}`,
        holder: names.get(r.holderId) ?? `#${r.holderId}`,
      });
  }
  const returned = refunds.reduce((sum, r) => sum + r.amount, 0);
  return saved(ctx, flow, state, {
    note: t(ctx.publicLang, "mw.conflict.left", {
      name: participantName(ctx.publicLang, leaver),
      n: returned,
    }),
  });
});

export const conflictShow = mwAction("conflict.show", "public read", async (ctx) => {
  const flow = await loadConflict(ctx, ctx.intent.flowId);
  return { reply: await panel(ctx, flow, flow.state) };
});

export const conflictEnd = gmAction("conflict.end", "public change", async (ctx) => {
  const { table } = ctx;
  const flow = await loadConflict(ctx, ctx.intent.flowId);
  const state = closeConflict(flow.state);
  await appendLog(ctx, table.id, {
    action: "conflict.end",
    summary: { key: "log.mw.conflict.end", params: { id: flow.id } },
  });
  return saved(ctx, flow, state, { note: t(ctx.publicLang, "mw.conflict.ended"), close: true });
});

export const conflictUseCases = [
  conflictStart,
  conflictAdd,
  conflictJoin,
  conflictLeave,
  conflictShow,
  conflictEnd,
];
