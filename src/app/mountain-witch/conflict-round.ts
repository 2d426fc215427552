/**
 * A Mountain Witch conflict's round (docs/rules/mountain-witch.md §1.1–1.2): what is declared
 * before the roll — help, betrayal, a trade of the outcome, intent to kill — and the roll itself,
 * of one conflict or of every open one at once.
 */
import type { GameTable } from "../../generated/prisma/client.js";
import { t } from "../../i18n/index.js";
import { DomainError, refuse } from "../../rules/errors.js";
import {
  assist,
  betray,
  type ConflictState,
  declareKillIntent,
  declareTrade,
  findParticipant,
  type InflictedDamage,
  rollConflict,
} from "../../rules/mountain-witch/index.js";
import { ownedCharacters } from "../../store/characters.js";
import { actingCharacter, isGm } from "../access.js";
import { answerWithPanel, openFlows, panelEdit, saveFlowState, type TypedFlow } from "../flows.js";
import { appendLog } from "../log.js";
import type { ActionResult, Effect } from "../use-case.js";
import type { MessageView } from "../views.js";
import {
  assertFree,
  type Ctx,
  characterById,
  chosenParticipant,
  loadConflict,
  panel,
  participantNamed,
  requireParticipantOf,
  saved,
} from "./conflict.js";
import { conflictFlow } from "./flow-states.js";
import {
  activeDamage,
  clearDamage,
  durationText,
  persistDamage,
  persistTrustSpend,
  refOf,
  trustLinks,
} from "./shared.js";
import { beginPlay } from "./starting-trust.js";
import { gmAction, mwAction } from "./use-cases.js";

export const conflictAssist = mwAction("conflict.assist", "public change", async (ctx) => {
  const { table } = ctx;
  const helper = await actingCharacter(ctx, ctx.intent.character);
  const flow = await loadConflict(ctx, ctx.intent.flowId);
  let targetId: number;
  if (ctx.intent.targetId !== undefined) targetId = ctx.intent.targetId;
  else if (ctx.intent.target) targetId = (await participantNamed(ctx, flow.state, ctx.intent.target)).id;
  else refuse("errors.mw.targetNeeded");
  // A dead character's player helps from outside any conflict, in as many as they like.
  if (!findParticipant(flow.state, helper.id) && helper.status !== "dead")
    await assertFree(ctx, table, helper.id, flow.id);
  const links = await trustLinks(ctx.tx, table.id);
  const { state, spent } = assist(flow.state, { helper: refOf(helper), targetId }, links);
  const target = findParticipant(state, targetId)!;
  await persistTrustSpend(ctx, table.id, spent, { giver: target.name, holder: helper.name });
  return saved(ctx, flow, state, {
    note: t(ctx.publicLang, "mw.conflict.assisted", { helper: helper.name, target: target.name }),
  });
});

export const conflictBetray = mwAction("conflict.betray", "public change", async (ctx) => {
  const { table } = ctx;
  const points = Number(String(ctx.intent.points).trim());
  if (!Number.isInteger(points) || points < 1 || points > 99) refuse("errors.mw.trustAmountInvalid");
  const betrayer = await actingCharacter(ctx, ctx.intent.character);
  const flow = await loadConflict(ctx, ctx.intent.flowId, betrayer.id);
  const betrayed = await chosenParticipant(ctx, flow.state, {
    id: ctx.intent.targetId,
    name: ctx.intent.target,
  });
  const links = await trustLinks(ctx.tx, table.id);
  const { state, spent } = betray(
    flow.state,
    { betrayer: refOf(betrayer), betrayedId: betrayed.id, points },
    links,
  );
  await persistTrustSpend(ctx, table.id, spent, { giver: betrayed.name, holder: betrayer.name });
  return saved(ctx, flow, state, {
    note: t(ctx.publicLang, "mw.conflict.betrayed", {
      betrayer: betrayer.name,
      betrayed: betrayed.name,
      n: points,
    }),
  });
});

/** The panel's betrayal: after choosing whom, a short form asks how many points (showing how many one holds). */
export const conflictBetrayForm = mwAction("conflict.betray-form", "private read", async (ctx) => {
  const { table } = ctx;
  const betrayer = await actingCharacter(ctx, undefined);
  const flow = await loadConflict(ctx, ctx.intent.flowId, betrayer.id);
  if (flow.state.phase !== "open") refuse("errors.mw.conflictAlreadyRolled");
  const betrayed = requireParticipantOf(flow.state, ctx.intent.targetId);
  if (betrayed.id === betrayer.id) refuse("errors.mw.trustSelf");
  const links = await trustLinks(ctx.tx, table.id);
  const held = links.find((l) => l.giverId === betrayed.id && l.holderId === betrayer.id)?.points ?? 0;
  if (held < 1) refuse("errors.mw.notEnoughTrust", { have: held, need: 1 });
  // Refused at the click rather than after the form: a betrayal of 1 is tried and dropped.
  betray(flow.state, { betrayer: refOf(betrayer), betrayedId: betrayed.id, points: 1 }, links);
  return {
    modal: {
      title: t(ctx.userLang, "mw.conflict.betrayTitle", { name: betrayed.name }).slice(0, 45),
      intent: { type: "conflict.betray", flowId: flow.id, targetId: betrayed.id },
      inputs: [
        {
          field: "points",
          label: t(ctx.userLang, "mw.conflict.betrayPoints", { n: held }).slice(0, 45),
          style: "short",
          value: "1",
          required: true,
          maxLength: 2,
        },
      ],
    },
  };
});

export const conflictTrade = mwAction("conflict.trade", "public change", async (ctx) => {
  const { table } = ctx;
  // The GM never trades: say so rather than "which character?".
  if (isGm(table, ctx.actor)) {
    const own = await ownedCharacters(ctx.tx, table.id, ctx.actor.userId);
    if (own.length === 0) refuse("errors.mw.gmCannotTrade");
  }
  const declarer = await actingCharacter(ctx, ctx.intent.character);
  if (declarer.kind !== "pc") refuse("errors.mw.gmCannotTrade");
  const flow = await loadConflict(ctx, ctx.intent.flowId, declarer.id);
  const level = ctx.intent.level ?? "normal";
  const { state, tradeCost } = declareTrade(flow.state, { declarerId: declarer.id, level });
  await persistTradeCosts(ctx, table, state, tradeCost ? [tradeCost] : []);
  await appendLog(ctx, table.id, {
    action: "conflict.trade",
    characterId: declarer.id,
    summary: {
      key: "log.mw.conflict.trade",
      params: { name: declarer.name, level: `@mw.degree.${level}` },
    },
  });
  const declared = t(ctx.publicLang, "mw.conflict.tradeDeclared", {
    name: declarer.name,
    level: t(ctx.publicLang, `mw.degree.${level}`),
  });
  const cost = tradeCost
    ? t(ctx.publicLang, "mw.conflict.tradeCost", {
        name: declarer.name,
        quality: t(ctx.publicLang, `mw.quality.${tradeCost.quality}`),
        effect: tradeCost.takenOut
          ? t(ctx.publicLang, `mw.takenOut.${tradeCost.takenOut}`, { name: declarer.name })
          : durationText(ctx.publicLang, tradeCost.duration, null),
      })
    : null;
  return saved(ctx, flow, state, { note: cost ? `${declared}\n${cost}` : declared });
});

/**
 * Records the damage group trades cost their declarers (docs/rules/mountain-witch.md §1.1): the
 * rules applied it when the trade took effect.
 */
async function persistTradeCosts(
  ctx: Ctx,
  table: GameTable,
  state: ConflictState,
  costs: readonly InflictedDamage[],
): Promise<void> {
  for (const cost of costs) {
    const declarer = await characterById(ctx.tx, table, cost.targetId);
    await persistDamage(ctx, table, declarer, cost, state.title);
  }
}

export const conflictKill = mwAction("conflict.kill", "public change", async (ctx) => {
  const { table } = ctx;
  const flow = await loadConflict(ctx, ctx.intent.flowId);
  const target = await chosenParticipant(ctx, flow.state, {
    id: ctx.intent.targetId,
    name: ctx.intent.target,
  });
  let byId: number;
  if (ctx.intent.character) {
    const by = await participantNamed(ctx, flow.state, ctx.intent.character);
    const stored = by.id > 0 ? await characterById(ctx.tx, table, by.id) : null;
    if (stored) {
      if (stored.ownerUserId !== ctx.actor.userId && !(stored.ownerUserId === null && isGm(table, ctx.actor)))
        refuse("errors.notYourCharacter", { name: stored.name });
    } else if (!isGm(table, ctx.actor)) refuse("errors.gmOnly");
    byId = by.id;
  } else if (isGm(table, ctx.actor)) {
    const gmSide = flow.state.participants.find((p) => p.kind === "npc" && p.side !== target.side);
    if (!gmSide) refuse("errors.mw.targetNotOpponent", { name: target.name });
    byId = gmSide.id;
  } else {
    byId = (await actingCharacter(ctx, undefined)).id;
  }
  const state = declareKillIntent(flow.state, { byId, targetId: target.id });
  return saved(ctx, flow, state, {
    note: t(ctx.publicLang, "mw.conflict.killDeclared", { target: target.name }),
  });
});

/** Rolls one conflict: every die, expired wounds cleared, logged and saved. Returns its panel. */
async function rollOne(ctx: Ctx, table: GameTable, flow: TypedFlow<ConflictState>) {
  const damage = await activeDamage(
    ctx.tx,
    table.id,
    flow.state.participants.map((p) => p.id),
  );
  const { state, result } = rollConflict(flow.state, ctx.dice, damage);
  await clearDamage(ctx, result.expiredDamageIds);
  await persistTradeCosts(ctx, table, state, result.tradeCosts);
  await appendLog(ctx, table.id, {
    action: "conflict.roll",
    summary: {
      key: "log.mw.conflict.roll",
      params: { id: flow.id, degrees: result.pairings.map((p) => p.degree).join(", ") },
    },
    dice: {
      dice: result.dice,
      pairings: result.pairings.map((p) => ({
        id: p.id,
        a: p.a?.result,
        b: p.b?.result,
        narration: p.narration,
      })),
    },
    after: { expiredDamageIds: result.expiredDamageIds },
  });
  const view = await panel(ctx, flow, state);
  await saveFlowState(ctx.tx, conflictFlow, flow.id, state);
  return view;
}

export const conflictRoll = gmAction("conflict.roll", "public change", async (ctx) => {
  const { table } = ctx;
  if (ctx.intent.all) return rollAll(ctx, table);
  const flow = await loadConflict(ctx, ctx.intent.flowId);
  const view = await rollOne(ctx, table, flow);
  const revealed = await beginPlay(ctx, table, ctx.publicLang);
  // The roll is public: a new message with every die, and the panel follows.
  const answer = answerWithPanel(ctx, flow, view);
  if (revealed)
    answer.effects = [
      ...(answer.effects ?? []),
      { kind: "post", channelId: table.channelId, view: revealed },
    ];
  return answer;
});

/**
 * The GM rolls every open conflict of the table at once (a group conflict split into several
 * simultaneous conflicts, docs/rules/mountain-witch.md §1.1: all dice before any narration).
 * A conflict that cannot be rolled yet is named with the reason and left open.
 */
export const conflictRollAll = gmAction("conflict.roll-all", "public change", async (ctx) => {
  return rollAll(ctx, ctx.table);
});

async function rollAll(ctx: Ctx, table: GameTable): Promise<ActionResult> {
  const open = await openFlows(ctx.tx, conflictFlow, table.id);
  const waiting = open.filter((f) => f.state.phase === "open");
  if (waiting.length === 0) refuse("errors.mw.noConflictToRoll");
  const effects: Effect[] = [];
  const lines: string[] = [];
  const embeds: NonNullable<MessageView["embeds"]> = [];
  for (const flow of waiting) {
    const title = flow.state.title ?? `#${flow.id}`;
    try {
      const view = await rollOne(ctx, table, flow);
      effects.push(panelEdit(flow, view));
      embeds.push(...(view.embeds ?? []));
      lines.push(t(ctx.publicLang, "mw.conflict.rollAllRolled", { title }));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      lines.push(
        t(ctx.publicLang, "mw.conflict.rollAllSkipped", {
          title,
          reason: t(ctx.publicLang, error.code, error.params as Record<string, string | number>),
        }),
      );
    }
  }
  const revealed = await beginPlay(ctx, table, ctx.publicLang);
  if (revealed) effects.push({ kind: "post", channelId: table.channelId, view: revealed });
  // One new message with every conflict's dice (a message holds ten embeds); each panel follows.
  return {
    reply: { embeds: [{ description: lines.join("\n"), tone: "info" }, ...embeds.slice(0, 9)] },
    effects,
  };
}

export const conflictRoundUseCases = [
  conflictAssist,
  conflictBetray,
  conflictBetrayForm,
  conflictTrade,
  conflictKill,
  conflictRoll,
  conflictRollAll,
];
