/** `/conflict …` for The Mountain Witch: one flow per conflict, its rules state as JSON, a panel that follows it. */
import type { Character, GameTable } from "../../generated/prisma/client.js";
import { t } from "../../i18n/index.js";
import { DomainError, refuse } from "../../rules/errors.js";
import {
  addObstacle,
  addParticipant,
  assist,
  betray,
  buyNarration,
  type ConflictState,
  closeConflict,
  type DamageQuality,
  damageChoices,
  damagePenalty,
  declareKillIntent,
  declareTrade,
  findParticipant,
  INCAPACITY_OBSTACLE_KEY,
  leaveConflict,
  narratesPairing,
  openConflict,
  type Pairing,
  type Participant,
  pairingById,
  pairingOfCharacter,
  pairingsNarratedBy,
  recoveryOutcome,
  rollConflict,
  spendDamage,
} from "../../rules/mountain-witch/index.js";
import { sqlFor } from "../../store/db.js";
import { intArray } from "../../store/sql.js";
import { actingCharacter, findCharacter, isGm, requireTable } from "../access.js";
import {
  answerWithPanel,
  createFlow,
  isFromPanel,
  openFlows,
  requireFlow,
  saveFlowState,
  type TypedFlow,
} from "../flows.js";
import { appendLog } from "../log.js";
import { cleanName, cleanText, nameKey } from "../names.js";
import { type ActionContext, type ActionResult, defineUseCase, type Effect } from "../use-case.js";
import type { MessageView } from "../views.js";
import { conflictPanel, participantName } from "./conflict-view.js";
import { conflictFlow } from "./flow-states.js";
import { mwIntents } from "./intents.js";
import {
  activeDamage,
  adoptPanel,
  clearDamage,
  persistDamage,
  persistTrustRefund,
  persistTrustSpend,
  refOf,
  trustLinks,
} from "./shared.js";
import { beginPlay } from "./starting-trust.js";

const SYSTEMS = ["mountain-witch"] as const;

type Ctx = ActionContext<{ type: string; flowId?: number }>;

/** The conflict an action is about: the button's, or the one the character is in, or the newest open one. */
async function loadConflict(
  ctx: Pick<ActionContext, "tx" | "table">,
  id: number | undefined,
  characterId?: number,
): Promise<TypedFlow<ConflictState>> {
  const table = requireTable(ctx);
  if (id !== undefined) return requireFlow(ctx.tx, conflictFlow, table.id, id);
  // The newest first.
  const open = (await openFlows(ctx.tx, conflictFlow, table.id)).reverse();
  if (open.length === 0) refuse("errors.mw.noConflict");
  const mine =
    characterId !== undefined ? open.find((f) => findParticipant(f.state, characterId)) : undefined;
  return mine ?? open[0]!;
}

/** Names of characters outside the conflict that the panel mentions (buyers, dead betrayers). */
async function outsideNames(
  ctx: Pick<ActionContext, "tx">,
  state: ConflictState,
): Promise<Record<number, string>> {
  const ids = new Set<number>();
  for (const b of state.betrayals) if (!findParticipant(state, b.betrayerId)) ids.add(b.betrayerId);
  for (const p of state.pairings) if (p.narration?.reason === "bought") ids.add(p.narration.characterId);
  if (ids.size === 0) return {};
  const rows = await sqlFor(ctx.tx).rows<{ id: number; name: string }>`
    SELECT id, name FROM "character" WHERE id = ANY(${intArray([...ids])}::int[])`;
  return Object.fromEntries(rows.map((r) => [r.id, r.name]));
}

async function panel(
  ctx: Pick<ActionContext, "tx" | "publicLang">,
  flow: { id: number },
  state: ConflictState,
) {
  const penalties: Record<number, number> = {};
  if (state.phase === "open") {
    const damage = await activeDamage(
      ctx.tx,
      state.participants.map((p) => p.id),
    );
    for (const [id, entries] of Object.entries(damage)) penalties[Number(id)] = damagePenalty(entries);
  }
  return conflictPanel(ctx.publicLang, flow.id, state, await outsideNames(ctx, state), penalties);
}

/** A participant chosen on the panel (by id) or named in a command. */
async function chosenParticipant(
  ctx: Pick<ActionContext, "tx" | "table" | "publicLang" | "userLang">,
  state: ConflictState,
  input: { id?: number | undefined; name?: string | undefined },
): Promise<Participant> {
  if (input.id !== undefined) return requireParticipantOf(state, input.id);
  if (input.name) return participantNamed(ctx, state, input.name);
  refuse("errors.mw.targetNeeded");
}

/** Saves the new state and answers with the panel (editing it in place when a panel button was pressed). */
async function saved(
  ctx: Ctx,
  flow: TypedFlow<ConflictState>,
  state: ConflictState,
  extra: { note?: string; effects?: Effect[]; close?: boolean } = {},
): Promise<ActionResult> {
  await saveFlowState(ctx.tx, conflictFlow, flow.id, state, extra.close ?? state.phase === "closed");
  // The conflict's buttons and menus are on its public panel only.
  await adoptPanel(ctx, flow);
  const view = await panel(ctx, flow, state);
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
  effects.push({ kind: "editPanel", flowId: flow.id, view });
  return {
    reply: {
      embeds: [{ description: extra.note ?? t(ctx.publicLang, "mw.conflict.updated"), tone: "success" }],
    },
    effects,
  };
}

/** A participant named by the user: a conflict-only obstacle by its name, or a stored character. */
async function participantNamed(
  ctx: Pick<ActionContext, "tx" | "table" | "publicLang" | "userLang">,
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
  const character = await findCharacter(ctx.tx, requireTable(ctx).id, who);
  const p = findParticipant(state, character.id);
  if (!p) refuse("errors.mw.notInConflict");
  return p;
}

function requireParticipantOf(state: ConflictState, id: number): Participant {
  const p = findParticipant(state, id);
  if (!p) refuse("errors.mw.notInConflict");
  return p;
}

async function characterById(tx: ActionContext["tx"], table: GameTable, id: number): Promise<Character> {
  const character = await sqlFor(tx).one<Character>`
    SELECT * FROM "character" WHERE id = ${id} AND table_id = ${table.id} AND deleted_at IS NULL`;
  if (!character) refuse("errors.character.notFound", { name: `#${id}` });
  return character;
}

/** Each character takes part in one conflict per round: not in another open conflict that has not been rolled. */
async function assertFree(
  ctx: Pick<ActionContext, "tx">,
  table: GameTable,
  characterId: number,
  except: number,
) {
  const others = (await openFlows(ctx.tx, conflictFlow, table.id)).filter((f) => f.id !== except);
  if (others.some((f) => f.state.phase === "open" && findParticipant(f.state, characterId)))
    refuse("errors.mw.inAnotherConflict");
}

export const conflictStart = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.start"],
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const title = ctx.intent.title ? cleanText(ctx.intent.title, 100) || null : null;
    let state = openConflict({ mode: ctx.intent.mode ?? "opposed", title });
    if (ctx.intent.opponent) {
      const existing = await sqlFor(ctx.tx).one<Character>`
        SELECT * FROM "character"
        WHERE table_id = ${table.id} AND name_key = ${nameKey(ctx.intent.opponent)} AND deleted_at IS NULL`;
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
    const flow = await createFlow(ctx.tx, conflictFlow, {
      tableId: table.id,
      state,
      createdByUserId: ctx.actor.userId,
    });
    await appendLog(ctx, table.id, {
      action: "conflict.start",
      summary: { key: "log.mw.conflict.start", params: { id: flow.id } },
    });
    return {
      reply: await panel(ctx, flow, state),
      replyIsPanelOf: flow.id,
      ...(revealed
        ? { effects: [{ kind: "post" as const, channelId: table.channelId, view: revealed }] }
        : {}),
    };
  },
});

export const conflictAdd = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.add"],
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const flow = await loadConflict(ctx, ctx.intent.flowId);
    const existing = await sqlFor(ctx.tx).one<Character>`
      SELECT * FROM "character"
      WHERE table_id = ${table.id} AND name_key = ${nameKey(ctx.intent.name)} AND deleted_at IS NULL`;
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
  },
});

export const conflictJoin = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.join"],
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
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
  },
});

/**
 * Leaving a conflict before the roll: the character sits this round out, and every point
 * of trust spent by, on or against them in it comes back (docs/rules/mountain-witch.md §1.1).
 * A player leaves with their own character; the GM may take out anyone.
 */
export const conflictLeave = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.leave"],
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
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
      const rows = await sqlFor(ctx.tx).rows<{ id: number; name: string }>`
        SELECT id, name FROM "character" WHERE id = ANY(${intArray(ids)}::int[])`;
      const names = new Map(rows.map((r) => [r.id, r.name]));
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
  },
});

export const conflictAssist = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.assist"],
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
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
  },
});

export const conflictBetray = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.betray"],
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
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
  },
});

/** The panel's betrayal: after choosing whom, a short form asks how many points (showing how many one holds). */
export const conflictBetrayForm = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.betray-form"],
  table: "required",
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    const { table } = ctx;
    const betrayer = await actingCharacter(ctx, undefined);
    const flow = await loadConflict(ctx, ctx.intent.flowId, betrayer.id);
    if (flow.state.phase !== "open") refuse("errors.mw.conflictAlreadyRolled");
    const betrayed = requireParticipantOf(flow.state, ctx.intent.targetId);
    if (betrayed.id === betrayer.id) refuse("errors.mw.trustSelf");
    const held =
      (await trustLinks(ctx.tx, table.id)).find(
        (l) => l.giverId === betrayed.id && l.holderId === betrayer.id,
      )?.points ?? 0;
    if (held < 1) refuse("errors.mw.notEnoughTrust", { have: held, need: 1 });
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
  },
});

export const conflictTrade = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.trade"],
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    // The GM never trades: say so rather than "which character?".
    if (isGm(table, ctx.actor)) {
      const own = await sqlFor(ctx.tx).one<{ id: number }>`
        SELECT id FROM "character"
        WHERE table_id = ${table.id} AND owner_user_id = ${ctx.actor.userId} AND deleted_at IS NULL LIMIT 1`;
      if (!own) refuse("errors.mw.gmCannotTrade");
    }
    const declarer = await actingCharacter(ctx, ctx.intent.character);
    if (declarer.kind !== "pc") refuse("errors.mw.gmCannotTrade");
    const flow = await loadConflict(ctx, ctx.intent.flowId, declarer.id);
    const level = ctx.intent.level ?? "normal";
    const { state } = declareTrade(flow.state, { declarerId: declarer.id, level });
    await appendLog(ctx, table.id, {
      action: "conflict.trade",
      characterId: declarer.id,
      summary: {
        key: "log.mw.conflict.trade",
        params: { name: declarer.name, level: `@mw.degree.${level}` },
      },
    });
    return saved(ctx, flow, state, {
      note: t(ctx.publicLang, "mw.conflict.tradeDeclared", {
        name: declarer.name,
        level: t(ctx.publicLang, `mw.degree.${level}`),
      }),
    });
  },
});

export const conflictKill = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.kill"],
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
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
        if (
          stored.ownerUserId !== ctx.actor.userId &&
          !(stored.ownerUserId === null && isGm(table, ctx.actor))
        )
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
  },
});

/** Rolls one conflict: every die, expired wounds cleared, logged and saved. Returns its panel. */
async function rollOne(ctx: Ctx, table: GameTable, flow: TypedFlow<ConflictState>) {
  const damage = await activeDamage(
    ctx.tx,
    flow.state.participants.map((p) => p.id),
  );
  const { state, result } = rollConflict(flow.state, ctx.dice, damage);
  await clearDamage(ctx, result.expiredDamageIds);
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

export const conflictRoll = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.roll"],
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
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
  },
});

/**
 * The GM rolls every open conflict of the table at once (a group conflict split into several
 * simultaneous conflicts, docs/rules/mountain-witch.md §1.1: all dice before any narration).
 * A conflict that cannot be rolled yet is named with the reason and left open.
 */
export const conflictRollAll = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.roll-all"],
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    return rollAll(ctx, ctx.table);
  },
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
      effects.push({ kind: "editPanel", flowId: flow.id, view });
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

export const conflictNarrate = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.narrate"],
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const buyer = await actingCharacter(ctx, ctx.intent.buyer);
    const flow = await loadConflict(ctx, ctx.intent.flowId);
    const of = await chosenParticipant(ctx, flow.state, { id: ctx.intent.ofId, name: ctx.intent.character });
    const links = await trustLinks(ctx.tx, table.id);
    const { state, spent } = buyNarration(flow.state, { buyer: refOf(buyer), ofId: of.id }, links);
    await persistTrustSpend(ctx, table.id, spent, { giver: of.name, holder: buyer.name });
    return saved(ctx, flow, state, {
      note: t(ctx.publicLang, "mw.conflict.narrationBought", { buyer: buyer.name, name: of.name }),
    });
  },
});

/**
 * The pairing whose successes an action spends: the one named (by the panel, or by a
 * character in it), else the only one the actor narrates, else the target's own.
 */
function pairingToSpend(
  state: ConflictState,
  who: { userId: string; isGm: boolean },
  named: { pairingId?: number; character?: Participant; target?: Participant },
): Pairing {
  if (named.pairingId !== undefined) return pairingById(state, named.pairingId);
  if (named.character) {
    const own = pairingOfCharacter(state, named.character.id);
    if (!own) refuse("errors.mw.pairingNeeded", { names: pairingNames(state, state.pairings) });
    return own;
  }
  if (state.pairings.length === 1) return state.pairings[0]!;
  const target = named.target ? pairingOfCharacter(state, named.target.id) : null;
  if (target) return target;
  const narrated = pairingsNarratedBy(state, who);
  if (narrated.length === 1) return narrated[0]!;
  refuse("errors.mw.pairingNeeded", {
    names: pairingNames(state, narrated.length ? narrated : state.pairings),
  });
}

function pairingNames(state: ConflictState, pairings: readonly Pairing[]): string {
  return pairings.map((p) => findParticipant(state, p.id)?.name ?? `#${p.id}`).join(", ");
}

/** A damage quality as the command gives it or as typed: ½ / 0.5, 1, 1½ / 1.5, 2, or its name. */
function qualityFrom(text: string): DamageQuality {
  const key = text.trim().toLowerCase().replace(",", ".");
  const byText: Record<string, DamageQuality> = {
    partial: "partial",
    "½": "partial",
    "1/2": "partial",
    "0.5": "partial",
    ".5": "partial",
    normal: "normal",
    "1": "normal",
    critical: "critical",
    "1½": "critical",
    "1.5": "critical",
    double: "double",
    "2": "double",
  };
  const quality = byText[key];
  if (!quality) refuse("errors.mw.qualityUnknown", { text: text.trim().slice(0, 20) });
  return quality;
}

/**
 * The panel's short form for damage the menu does not give: on an ability, or conditional
 * (docs/rules/mountain-witch.md §1.2). The narrator types the target, the successes spent and
 * the ability or the condition; `conflict.damage` checks it all.
 */
export const conflictDamageForm = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.damage-form"],
  table: "required",
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    const { table } = ctx;
    const flow = await loadConflict(ctx, ctx.intent.flowId);
    if (flow.state.phase !== "rolled") refuse("errors.mw.conflictNotRolled");
    const who = { userId: ctx.actor.userId, isGm: isGm(table, ctx.actor) };
    const mine = pairingsNarratedBy(flow.state, who).filter(
      (p) => damageChoices(flow.state, p.id).length > 0,
    );
    if (mine.length === 0) refuse("errors.mw.noSuccesses");
    const targets = [
      ...new Set(
        mine.flatMap((p) =>
          damageChoices(flow.state, p.id).map((c) =>
            participantName(ctx.userLang, requireParticipantOf(flow.state, c.targetId)),
          ),
        ),
      ),
    ];
    return {
      modal: {
        title: t(ctx.userLang, "mw.conflict.damageFormTitle").slice(0, 45),
        intent: { type: "conflict.damage", flowId: flow.id },
        inputs: [
          {
            field: "target",
            label: t(ctx.userLang, "mw.conflict.damageFormTarget").slice(0, 45),
            style: "short" as const,
            ...(targets.length === 1 ? { value: targets[0]! } : {}),
            placeholder: targets.join(", ").slice(0, 100),
            required: true,
            maxLength: 64,
          },
          {
            field: "quality",
            label: t(ctx.userLang, "mw.conflict.damageFormQuality").slice(0, 45),
            style: "short" as const,
            placeholder: "½ · 1 · 1½ · 2",
            required: true,
            maxLength: 8,
          },
          {
            field: "ability",
            label: t(ctx.userLang, "mw.conflict.damageFormAbility").slice(0, 45),
            style: "short" as const,
            required: false,
            maxLength: 100,
          },
          {
            field: "condition",
            label: t(ctx.userLang, "mw.conflict.damageFormCondition").slice(0, 45),
            style: "short" as const,
            required: false,
            maxLength: 100,
          },
        ],
      },
    };
  },
});

export const conflictDamage = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.damage"],
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const flow = await loadConflict(ctx, ctx.intent.flowId);
    if (flow.state.phase === "open") refuse("errors.mw.conflictNotRolled");
    const who = { userId: ctx.actor.userId, isGm: isGm(table, ctx.actor) };
    const chosen = ctx.intent.choice?.split(":");
    let target = chosen
      ? requireParticipantOf(flow.state, Number(chosen[1]))
      : ctx.intent.target
        ? await participantNamed(ctx, flow.state, ctx.intent.target)
        : undefined;
    const pairing = pairingToSpend(flow.state, who, {
      ...(ctx.intent.pairingId !== undefined ? { pairingId: ctx.intent.pairingId } : {}),
      ...(ctx.intent.character
        ? { character: await participantNamed(ctx, flow.state, ctx.intent.character) }
        : {}),
      ...(target ? { target } : {}),
    });
    // Narration and the successes of a pairing are its narrator's alone (docs/rules/mountain-witch.md §1.1).
    if (!narratesPairing(pairing, who)) {
      const narrator = pairing.narration;
      if (!narrator) refuse("errors.mw.noSuccesses");
      const narratorName =
        narrator.playerId === null
          ? t(ctx.userLang, "mw.conflict.gm")
          : (findParticipant(flow.state, narrator.characterId)?.name ??
            (await outsideNames(ctx, flow.state))[narrator.characterId] ??
            `#${narrator.characterId}`);
      refuse("errors.mw.notNarrator", { name: narratorName });
    }
    const typed = chosen?.[2] ?? ctx.intent.quality;
    const quality = typed === undefined || typed.trim() === "" ? undefined : qualityFrom(typed);
    if (!quality) refuse("errors.mw.qualityNeeded");
    if (!target) {
      const ids = [
        ...new Set(
          damageChoices(flow.state, pairing.id)
            .filter((c) => c.quality === quality)
            .map((c) => c.targetId),
        ),
      ];
      if (ids.length === 0) refuse("errors.mw.notEnoughSuccesses");
      if (ids.length > 1) refuse("errors.mw.damageTargetNeeded");
      target = requireParticipantOf(flow.state, ids[0]!);
    }
    const attackerSide = target.side === "a" ? "b" : "a";
    const { state, damage } = spendDamage(flow.state, {
      attackerSide,
      targetId: target.id,
      quality,
      pairingId: pairing.id,
      ability: ctx.intent.ability ? cleanText(ctx.intent.ability, 100) : null,
      condition: ctx.intent.condition ? cleanText(ctx.intent.condition, 100) : null,
      ...(ctx.intent.kill !== undefined ? { kill: ctx.intent.kill } : {}),
    });
    const effects: Effect[] = [];
    let note = t(ctx.publicLang, "mw.conflict.damageDone", { name: participantName(ctx.publicLang, target) });
    if (target.id > 0) {
      const stored = await characterById(ctx.tx, table, target.id);
      await persistDamage(ctx, table, stored, damage, state.title);
    }
    // A recovery attempt succeeds once incapacity is taken out: back in play, with one more permanent wound.
    if (
      state.recoveryOf !== null &&
      target.nameKey === INCAPACITY_OBSTACLE_KEY &&
      recoveryOutcome(state) === "recovered"
    ) {
      const patient = await characterById(ctx.tx, table, state.recoveryOf);
      await sqlFor(ctx.tx).run`UPDATE "character" SET status = 'active' WHERE id = ${patient.id}`;
      await persistDamage(
        ctx,
        table,
        patient,
        { quality: "critical", duration: "permanent", ability: null, condition: null, takenOut: null },
        null,
      );
      await appendLog(ctx, table.id, {
        action: "character.status",
        characterId: patient.id,
        summary: { key: "log.mw.recovered", params: { name: patient.name } },
        before: { status: patient.status },
        after: { status: "active" },
      });
      note = t(ctx.publicLang, "mw.conflict.recovered", { name: patient.name });
    }
    return saved(ctx, flow, state, { note, effects });
  },
});

export const conflictShow = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.show"],
  table: "required",
  mutates: false,
  ephemeral: false,
  async run(ctx) {
    const flow = await loadConflict(ctx, ctx.intent.flowId);
    return { reply: await panel(ctx, flow, flow.state) };
  },
});

export const conflictEnd = defineUseCase({
  systems: SYSTEMS,
  schema: mwIntents["conflict.end"],
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const flow = await loadConflict(ctx, ctx.intent.flowId);
    const state = closeConflict(flow.state);
    await appendLog(ctx, table.id, {
      action: "conflict.end",
      summary: { key: "log.mw.conflict.end", params: { id: flow.id } },
    });
    return saved(ctx, flow, state, { note: t(ctx.publicLang, "mw.conflict.ended"), close: true });
  },
});

export const conflictUseCases = [
  conflictStart,
  conflictAdd,
  conflictJoin,
  conflictLeave,
  conflictAssist,
  conflictBetray,
  conflictBetrayForm,
  conflictTrade,
  conflictKill,
  conflictRoll,
  conflictRollAll,
  conflictNarrate,
  conflictDamage,
  conflictDamageForm,
  conflictShow,
  conflictEnd,
];
