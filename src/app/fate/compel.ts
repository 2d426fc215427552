import { z } from "zod";
import type { Character } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { acceptCompel, buyOffCompel, type CompelOffer, offerCompel } from "../../rules/fate/compel.js";
import { sqlFor } from "../../store/db.js";
import { actingCharacter, findCharacter, isGm, requireTable } from "../access.js";
import { createFlow, requireFlow, saveFlowState } from "../flows.js";
import { appendLog } from "../log.js";
import { type ActionContext, defineUseCase } from "../use-case.js";
import type { MessageView } from "../views.js";
import { characterById, saveFatePoints, tableAspects } from "./state.js";

/** A compel waiting for its target's answer (flow kind `fate.compel`). */
export interface CompelFlowState {
  offer: CompelOffer;
  targetId: number;
  targetName: string;
  targetOwnerId: string | null;
  compellerId: number | null;
  compellerName: string | null;
  answer: "accepted" | "boughtOff" | null;
}

function compelView(lang: Lang, flowId: number, state: CompelFlowState): MessageView {
  const { offer } = state;
  const lines = [
    t(lang, "fate.compel.offer", {
      by: state.compellerName ?? t(lang, "fate.gm"),
      target: state.targetName,
      aspect: offer.aspect,
      points: offer.points,
    }),
  ];
  if (state.answer) {
    lines.push(t(lang, `fate.compel.${state.answer}`, { target: state.targetName, points: offer.points }));
  } else {
    lines.push(t(lang, "fate.compel.waiting", { target: state.targetName, points: offer.points }));
  }
  return {
    content: !state.answer && state.targetOwnerId ? `<@${state.targetOwnerId}>` : undefined,
    mentionUsers: !state.answer && state.targetOwnerId ? [state.targetOwnerId] : undefined,
    embeds: [
      {
        title: t(lang, "fate.compel.title"),
        description: lines.join("\n"),
        tone: state.answer ? "neutral" : "warning",
      },
    ],
    rows: state.answer
      ? []
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
        ],
  };
}

export const compel = defineUseCase({
  type: "compel",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("compel"),
    target: z.string().min(1).max(100),
    aspect: z.string().min(1).max(100),
    points: z.number().int().min(1).max(5),
    by: z.string().min(1).max(100).optional(),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireTable(ctx);
    const target = await findCharacter(ctx.tx, table.id, ctx.intent.target);
    const aspects = (await tableAspects(ctx.tx, table.id)).map((a) => a.aspect);
    const gm = isGm(table, ctx.actor);
    // The GM compels from the bank unless naming a character; a player compels as their character.
    let compeller: Character | null = null;
    if (!gm || ctx.intent.by) {
      compeller = ctx.intent.by
        ? await actingCharacter(ctx, ctx.intent.by)
        : target.ownerUserId === ctx.actor.userId
          ? target
          : await actingCharacter(ctx, undefined);
    }
    const by = compeller
      ? { kind: "character" as const, characterId: String(compeller.id) }
      : { kind: "gm" as const };
    const { offer, compeller: paid } = offerCompel({
      target: { id: String(target.id), fatePoints: target.fatePoints },
      aspect: ctx.intent.aspect,
      aspects,
      points: ctx.intent.points,
      by,
      compeller: compeller ? { id: String(compeller.id), fatePoints: compeller.fatePoints } : undefined,
    });
    if (compeller && paid) {
      await saveFatePoints(ctx.tx, compeller.id, paid.fatePoints);
    }
    const state: CompelFlowState = {
      offer,
      targetId: target.id,
      targetName: target.name,
      targetOwnerId: target.ownerUserId,
      compellerId: compeller?.id ?? null,
      compellerName: compeller?.name ?? null,
      answer: null,
    };
    const flow = await createFlow(ctx.tx, {
      tableId: table.id,
      kind: "fate.compel",
      state,
      createdByUserId: ctx.actor.userId,
    });
    await appendLog(ctx, table.id, {
      action: "fate.compel",
      characterId: target.id,
      summary: {
        key: "log.fate.compel",
        params: { target: target.name, aspect: offer.aspect, points: offer.points },
      },
      before: compeller ? { compellerFatePoints: compeller.fatePoints } : undefined,
      after: compeller && paid ? { compellerFatePoints: paid.fatePoints, escrow: offer.escrow } : undefined,
    });
    return { reply: compelView(ctx.publicLang, flow.id, state), replyIsPanelOf: flow.id };
  },
});

/** Only the target answers: its player, or the GM for a GM character. */
async function answerable(ctx: Pick<ActionContext, "tx" | "actor" | "table">, flowId: number) {
  const table = requireTable(ctx);
  const flow = await requireFlow<CompelFlowState>(ctx.tx, table.id, flowId, "fate.compel");
  const target = await characterById(ctx.tx, table.id, flow.state.targetId);
  const mayAnswer = target.ownerUserId ? target.ownerUserId === ctx.actor.userId : isGm(table, ctx.actor);
  if (!mayAnswer) refuse("errors.fate.notCompelTarget", { name: target.name });
  return { table, flow, target };
}

export const compelAccept = defineUseCase({
  type: "compel.accept",
  systems: ["fate"],
  schema: z.object({ type: z.literal("compel.accept"), flowId: z.number().int().positive() }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table, flow, target } = await answerable(ctx, ctx.intent.flowId);
    const after = acceptCompel(flow.state.offer, { id: String(target.id), fatePoints: target.fatePoints });
    await saveFatePoints(ctx.tx, target.id, after.fatePoints);
    const state: CompelFlowState = { ...flow.state, answer: "accepted" };
    await saveFlowState(ctx.tx, flow.id, state, true);
    await appendLog(ctx, table.id, {
      action: "fate.compel.accept",
      characterId: target.id,
      summary: {
        key: "log.fate.compelAccepted",
        params: { name: target.name, points: flow.state.offer.points },
      },
      before: { fatePoints: target.fatePoints },
      after: { fatePoints: after.fatePoints },
    });
    return { reply: compelView(ctx.publicLang, flow.id, state), replyMode: "update" };
  },
});

export const compelBuyOff = defineUseCase({
  type: "compel.buyoff",
  systems: ["fate"],
  schema: z.object({ type: z.literal("compel.buyoff"), flowId: z.number().int().positive() }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table, flow, target } = await answerable(ctx, ctx.intent.flowId);
    const compeller =
      flow.state.compellerId !== null
        ? await sqlFor(ctx.tx).one<Character>`SELECT * FROM "character" WHERE id = ${flow.state.compellerId}`
        : null;
    const paid = buyOffCompel(
      flow.state.offer,
      { id: String(target.id), fatePoints: target.fatePoints },
      compeller && flow.state.offer.escrow > 0
        ? { id: String(compeller.id), fatePoints: compeller.fatePoints }
        : null,
    );
    await saveFatePoints(ctx.tx, target.id, paid.target.fatePoints);
    if (compeller && paid.compeller) await saveFatePoints(ctx.tx, compeller.id, paid.compeller.fatePoints);
    const state: CompelFlowState = { ...flow.state, answer: "boughtOff" };
    await saveFlowState(ctx.tx, flow.id, state, true);
    await appendLog(ctx, table.id, {
      action: "fate.compel.buyoff",
      characterId: target.id,
      summary: {
        key: "log.fate.compelBoughtOff",
        params: { name: target.name, points: flow.state.offer.points },
      },
      before: { fatePoints: target.fatePoints },
      after: { fatePoints: paid.target.fatePoints },
    });
    return { reply: compelView(ctx.publicLang, flow.id, state), replyMode: "update" };
  },
});
