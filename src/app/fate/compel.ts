import type { Character, GameTable } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import {
  acceptCompel,
  buyOffCompel,
  type CompelOffer,
  compelNeedsGmAgreement,
  offerCompel,
  withdrawCompel,
} from "../../rules/fate/compel.js";
import type { Faction } from "../../rules/fate/faction.js";
import { characterById as anyCharacterById } from "../../store/characters.js";
import { actingCharacter, findCharacter, isGm, requireTable } from "../access.js";
import { openFlows, panelEdit, requireFlow, saveFlowState, startFlow } from "../flows.js";
import { appendLog } from "../log.js";
import { nameKey } from "../names.js";
import type { ActionContext, Effect } from "../use-case.js";
import type { MessageView } from "../views.js";
import { factionsOf, findFaction, invokableAspects, saveFactionState } from "./faction.js";
import { compelFlow } from "./flow-states.js";
import { fateIntents } from "./intents.js";
import { characterById, saveFatePoints } from "./state.js";
import { defineFateUseCase } from "./use-cases.js";

/** A compel waiting for its target's answer (flow kind `fate.compel`). */
export interface CompelFlowState {
  offer: CompelOffer;
  /** The character compelled; 0 when it is a faction (then `targetFactionId`). */
  targetId: number;
  targetName: string;
  targetOwnerId: string | null;
  compellerId: number | null;
  compellerName: string | null;
  /** `expired`: the scene ended with the compel unanswered (docs/rules/fate.md §3.2). */
  answer: "accepted" | "boughtOff" | "declined" | "expired" | null;
  /**
   * A player compelling their own character waits for the GM's agreement before any fate point
   * changes hands (docs/rules/fate.md §3.2).
   */
  needsGm: boolean;
  /** A faction compelled through one of its aspects (the GM answers for it); null: a character. */
  targetFactionId: string | null;
}

function compelView(lang: Lang, flowId: number, state: CompelFlowState): MessageView {
  const { offer } = state;
  const self = state.needsGm;
  const lines = [
    t(lang, self ? "fate.compel.selfOffer" : "fate.compel.offer", {
      // The sentence starts with the compeller: "The GM compels…".
      by: state.compellerName ?? t(lang, "fate.gmSubject"),
      target: state.targetName,
      aspect: offer.aspect,
      points: offer.points,
    }),
  ];
  if (state.answer) {
    lines.push(t(lang, `fate.compel.${state.answer}`, { target: state.targetName, points: offer.points }));
  } else if (self) {
    lines.push(t(lang, "fate.compel.waitingForGm", { target: state.targetName, points: offer.points }));
  } else {
    lines.push(t(lang, "fate.compel.waiting", { target: state.targetName, points: offer.points }));
  }
  const ping = !state.answer && !self && state.targetOwnerId ? state.targetOwnerId : null;
  const buttons: MessageView["rows"] = self
    ? [
        [
          {
            kind: "button",
            style: "success",
            label: t(lang, "fate.button.gmAgreeCompel", { points: offer.points }),
            intent: { type: "compel.gm-agree", flowId },
          },
          {
            kind: "button",
            style: "secondary",
            label: t(lang, "fate.button.gmDeclineCompel"),
            intent: { type: "compel.gm-decline", flowId },
          },
        ],
      ]
    : [
        [
          {
            kind: "button",
            style: "success",
            label: t(lang, "fate.button.acceptCompel", { points: offer.points }),
            intent: { type: "compel.accept", flowId },
          },
          {
            kind: "button",
            style: "secondary",
            label: t(lang, "fate.button.buyOffCompel", { points: offer.points }),
            intent: { type: "compel.buyoff", flowId },
          },
        ],
      ];
  return {
    content: ping ? `<@${ping}>` : undefined,
    mentionUsers: ping ? [ping] : undefined,
    embeds: [
      {
        title: t(lang, "fate.compel.title"),
        description: lines.join("\n"),
        tone: state.answer ? "neutral" : "warning",
      },
    ],
    rows: state.answer ? [] : buttons,
  };
}

/** The compelled: a character by name, else a faction of the table by name. */
async function compelTarget(
  ctx: Pick<ActionContext, "tx" | "table">,
  name: string,
): Promise<{ character: Character; faction: null } | { character: null; faction: Faction }> {
  const table = requireTable(ctx);
  try {
    return { character: await findCharacter(ctx.tx, table.id, name), faction: null };
  } catch (error) {
    const faction = factionsOf(table).find((f) => nameKey(f.name) === nameKey(name));
    if (!faction) throw error;
    return { character: null, faction };
  }
}

export const compel = defineFateUseCase({
  schema: fateIntents.compel,
  async run(ctx) {
    const compelled = await compelTarget(ctx, ctx.intent.target);
    const aspects = (await invokableAspects(ctx.tx, ctx.table)).map((a) => a.aspect);
    const gm = isGm(ctx.table, ctx.actor);
    const target = compelled.character;
    const targetHolder = target
      ? { id: String(target.id), fatePoints: target.fatePoints }
      : { id: `faction:${compelled.faction!.id}`, fatePoints: compelled.faction!.fatePoints };
    // The GM compels from the bank unless naming a character; a player compels as their character.
    let compeller: Character | null = null;
    if (!gm || ctx.intent.by) {
      compeller = ctx.intent.by
        ? await actingCharacter(ctx, ctx.intent.by)
        : target && target.ownerUserId === ctx.actor.userId
          ? target
          : await actingCharacter(ctx, undefined);
    }
    const by = compeller
      ? { kind: "character" as const, characterId: String(compeller.id) }
      : { kind: "gm" as const };
    const { offer, compeller: paid } = offerCompel({
      target: targetHolder,
      aspect: ctx.intent.aspect,
      aspects,
      points: ctx.intent.points,
      by,
      compeller: compeller ? { id: String(compeller.id), fatePoints: compeller.fatePoints } : undefined,
    });
    if (compeller && paid) {
      await saveFatePoints(ctx.tx, compeller.id, paid.fatePoints);
      if (paid.fatePoints !== compeller.fatePoints)
        await logEscrow(ctx, ctx.table.id, compeller, paid.fatePoints, "log.fate.compelEscrow");
    }
    // A player's own character, compelled by that player: the GM agrees first (docs/rules/fate.md §3.2).
    const needsGm = compelNeedsGmAgreement(offer, gm);
    const state: CompelFlowState = {
      offer,
      targetId: target?.id ?? 0,
      targetName: target?.name ?? compelled.faction!.name,
      targetOwnerId: target?.ownerUserId ?? null,
      compellerId: compeller?.id ?? null,
      compellerName: compeller?.name ?? null,
      answer: null,
      needsGm,
      targetFactionId: compelled.faction?.id ?? null,
    };
    const flow = await startFlow(ctx, compelFlow, ctx.table.id, state);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.compel",
      characterId: target?.id ?? null,
      summary: {
        key: needsGm ? "log.fate.selfCompel" : "log.fate.compel",
        params: { target: state.targetName, aspect: offer.aspect, points: offer.points },
      },
      before: compeller ? { compellerFatePoints: compeller.fatePoints } : undefined,
      after: compeller && paid ? { compellerFatePoints: paid.fatePoints, escrow: offer.escrow } : undefined,
    });
    return { reply: compelView(ctx.publicLang, flow.id, state), replyIsPanelOf: flow.id };
  },
});

/** Who holds the compelled side's fate points: a character's row, or a faction in the table state. */
type Answerer =
  | { kind: "character"; character: Character; fatePoints: number }
  | { kind: "faction"; faction: Faction; fatePoints: number };

/** Only the target answers: its player, or the GM for a GM character or a faction. */
async function answerable(ctx: Pick<ActionContext, "tx" | "actor" | "table">, flowId: number) {
  const table = requireTable(ctx);
  const flow = await requireFlow(ctx.tx, compelFlow, table.id, flowId);
  if (flow.state.needsGm) refuse("errors.fate.compelNeedsGm", { name: flow.state.targetName });
  if (flow.state.targetFactionId) {
    if (!isGm(table, ctx.actor)) refuse("errors.fate.notCompelTarget", { name: flow.state.targetName });
    const faction = findFaction(factionsOf(table), flow.state.targetFactionId);
    const answerer: Answerer = { kind: "faction", faction, fatePoints: faction.fatePoints };
    return { table, flow, answerer };
  }
  const target = await characterById(ctx.tx, table.id, flow.state.targetId);
  const mayAnswer = target.ownerUserId ? target.ownerUserId === ctx.actor.userId : isGm(table, ctx.actor);
  if (!mayAnswer) refuse("errors.fate.notCompelTarget", { name: target.name });
  const answerer: Answerer = { kind: "character", character: target, fatePoints: target.fatePoints };
  return { table, flow, answerer };
}

function holderId(answerer: Answerer): string {
  return answerer.kind === "character" ? String(answerer.character.id) : `faction:${answerer.faction.id}`;
}

async function saveAnswerer(
  ctx: Pick<ActionContext, "tx" | "table">,
  answerer: Answerer,
  fatePoints: number,
): Promise<void> {
  if (answerer.kind === "character") await saveFatePoints(ctx.tx, answerer.character.id, fatePoints);
  else await saveFactionState(ctx.tx, requireTable(ctx), { ...answerer.faction, fatePoints });
}

export const compelAccept = defineFateUseCase({
  schema: fateIntents["compel.accept"],
  async run(ctx) {
    const { table, flow, answerer } = await answerable(ctx, ctx.intent.flowId);
    const after = acceptCompel(flow.state.offer, { id: holderId(answerer), fatePoints: answerer.fatePoints });
    await saveAnswerer(ctx, answerer, after.fatePoints);
    const state: CompelFlowState = { ...flow.state, answer: "accepted" };
    await saveFlowState(ctx.tx, compelFlow, flow.id, state, true);
    await appendLog(ctx, table.id, {
      action: "fate.compel.accept",
      characterId: answerer.kind === "character" ? answerer.character.id : null,
      summary: {
        key: "log.fate.compelAccepted",
        params: { name: flow.state.targetName, points: flow.state.offer.points },
      },
      before: { fatePoints: answerer.fatePoints },
      after: { fatePoints: after.fatePoints },
    });
    return { reply: compelView(ctx.publicLang, flow.id, state), replyMode: "update" };
  },
});

export const compelBuyOff = defineFateUseCase({
  schema: fateIntents["compel.buyoff"],
  async run(ctx) {
    const { table, flow, answerer } = await answerable(ctx, ctx.intent.flowId);
    const compeller =
      flow.state.compellerId !== null ? await anyCharacterById(ctx.tx, flow.state.compellerId) : null;
    const paid = buyOffCompel(
      flow.state.offer,
      { id: holderId(answerer), fatePoints: answerer.fatePoints },
      compeller && flow.state.offer.escrow > 0
        ? { id: String(compeller.id), fatePoints: compeller.fatePoints }
        : null,
    );
    await saveAnswerer(ctx, answerer, paid.target.fatePoints);
    if (compeller && paid.compeller) {
      await saveFatePoints(ctx.tx, compeller.id, paid.compeller.fatePoints);
      if (paid.compeller.fatePoints !== compeller.fatePoints)
        await logEscrow(ctx, table.id, compeller, paid.compeller.fatePoints, "log.fate.compelEscrowBack");
    }
    const state: CompelFlowState = { ...flow.state, answer: "boughtOff" };
    await saveFlowState(ctx.tx, compelFlow, flow.id, state, true);
    await appendLog(ctx, table.id, {
      action: "fate.compel.buyoff",
      characterId: answerer.kind === "character" ? answerer.character.id : null,
      summary: {
        key: "log.fate.compelBoughtOff",
        params: { name: flow.state.targetName, points: flow.state.offer.points },
      },
      before: { fatePoints: answerer.fatePoints },
      after: { fatePoints: paid.target.fatePoints },
    });
    return { reply: compelView(ctx.publicLang, flow.id, state), replyMode: "update" };
  },
});

/** The GM's answer to a self-compel: agreed, the character takes the points; declined, nothing changes. */
async function gmAnswer(ctx: ActionContext<{ type: string; flowId: number }>, agree: boolean) {
  const table = requireTable(ctx);
  const flow = await requireFlow(ctx.tx, compelFlow, table.id, ctx.intent.flowId);
  if (!flow.state.needsGm) refuse("errors.fate.compelNotSelf");
  if (!isGm(table, ctx.actor)) refuse("errors.fate.compelGmAgrees", { name: flow.state.targetName });
  const target = await characterById(ctx.tx, table.id, flow.state.targetId);
  const state: CompelFlowState = { ...flow.state, answer: agree ? "accepted" : "declined" };
  let after = target.fatePoints;
  if (agree) {
    after = acceptCompel(flow.state.offer, {
      id: String(target.id),
      fatePoints: target.fatePoints,
    }).fatePoints;
    await saveFatePoints(ctx.tx, target.id, after);
  }
  await saveFlowState(ctx.tx, compelFlow, flow.id, state, true);
  await appendLog(ctx, table.id, {
    action: agree ? "fate.compel.gm-agree" : "fate.compel.gm-decline",
    characterId: target.id,
    summary: {
      key: agree ? "log.fate.selfCompelAgreed" : "log.fate.selfCompelDeclined",
      params: { name: target.name, points: flow.state.offer.points },
    },
    before: { fatePoints: target.fatePoints },
    after: { fatePoints: after },
  });
  return { reply: compelView(ctx.publicLang, flow.id, state), replyMode: "update" as const };
}

export const compelGmAgree = defineFateUseCase({
  schema: fateIntents["compel.gm-agree"],
  run: (ctx) => gmAnswer(ctx, true),
});

export const compelGmDecline = defineFateUseCase({
  schema: fateIntents["compel.gm-decline"],
  run: (ctx) => gmAnswer(ctx, false),
});

/** A compeller's fate points put up for a compel, or given back: the compeller's own log entry. */
async function logEscrow(
  ctx: Pick<ActionContext, "tx" | "actor">,
  tableId: number,
  compeller: Character,
  after: number,
  key: "log.fate.compelEscrow" | "log.fate.compelEscrowBack",
) {
  await appendLog(ctx, tableId, {
    action: key === "log.fate.compelEscrow" ? "fate.compel.escrow" : "fate.compel.escrow-back",
    characterId: compeller.id,
    summary: { key, params: { name: compeller.name, points: Math.abs(after - compeller.fatePoints) } },
    before: { fatePoints: compeller.fatePoints },
    after: { fatePoints: after },
  });
}

/**
 * The end of the scene: compels still unanswered expire (docs/rules/fate.md §3.2) — nobody gains
 * or pays, and a compelling character gets back the points put up.
 */
export async function expireOpenCompels(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang">,
  table: GameTable,
): Promise<Effect[]> {
  const effects: Effect[] = [];
  for (const flow of await openFlows(ctx.tx, compelFlow, table.id)) {
    const { offer, compellerId } = flow.state;
    if (offer.escrow > 0 && compellerId !== null) {
      const compeller = await anyCharacterById(ctx.tx, compellerId);
      if (compeller) {
        const back = withdrawCompel(offer, { id: String(compeller.id), fatePoints: compeller.fatePoints });
        if (back) {
          await saveFatePoints(ctx.tx, compeller.id, back.fatePoints);
          await logEscrow(ctx, table.id, compeller, back.fatePoints, "log.fate.compelEscrowBack");
        }
      }
    }
    const state: CompelFlowState = { ...flow.state, answer: "expired" };
    await saveFlowState(ctx.tx, compelFlow, flow.id, state, true);
    effects.push(panelEdit(flow, compelView(ctx.publicLang, flow.id, state)));
  }
  return effects;
}
