/** Invoking an aspect on a check (docs/rules/fate.md §3.2): +2, a reroll, or +2 to a passive opposition. */

import type { Flow, GameTable } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { checkResult, type InvokeMode, invokeAspect, withOpposition } from "../../rules/fate/check.js";
import { sqlFor } from "../../store/db.js";
import { isGm, requireControl } from "../access.js";
import {
  panelEdit,
  requireFlow,
  saveFlowState,
  type TypedFlow,
  typedFlow,
  typedFlowOrNull,
} from "../flows.js";
import { appendLog } from "../log.js";
import { nameKey } from "../names.js";
import type { AutocompleteSource, Effect } from "../use-case.js";
import { type Ctx, panel } from "./check.js";
import { invokerOf } from "./conflict-state.js";
import { findInvokableAspect, invokableAspects, saveInvokedAspect } from "./faction.js";
import { checkFlow } from "./flow-states.js";
import { payHostileInvoke } from "./hostile-invoke.js";
import { fateIntents } from "./intents.js";
import { type CheckFlowState, characterById, saveFatePoints } from "./state.js";
import { defineFateUseCase } from "./use-cases.js";
import { invokeSelectOptions, ladderText } from "./views.js";

/** The GM's invokes for the opposition come from the bank: the rules are silent on a limit, so there is none. */
const GM_BANK = 99;

/** The check an invoke applies to: the button's, or the actor's latest (the table's latest with a difficulty for `passive`). */
async function checkForInvoke(
  ctx: Ctx,
  table: GameTable,
  mode: InvokeMode,
  id: number | undefined,
): Promise<TypedFlow<CheckFlowState>> {
  if (id !== undefined) return requireFlow(ctx.tx, checkFlow, table.id, id);
  // Among the table's 50 latest open checks: the newest with a difficulty, or the newest whose
  // roller the actor plays (the GM: an NPC's).
  const found =
    mode === "passive"
      ? typedFlowOrNull(
          checkFlow,
          await sqlFor(ctx.tx).one<Flow>`
          SELECT f.* FROM (
            SELECT * FROM flow WHERE table_id = ${table.id} AND kind = 'fate.check' AND status = 'open'
            ORDER BY id DESC LIMIT 50
          ) f
          WHERE f.state -> 'check' -> 'opposition' ->> 'kind' = 'passive'
          ORDER BY f.id DESC LIMIT 1`,
        )
      : typedFlowOrNull(
          checkFlow,
          await sqlFor(ctx.tx).one<Flow>`
          SELECT f.* FROM (
            SELECT * FROM flow WHERE table_id = ${table.id} AND kind = 'fate.check' AND status = 'open'
            ORDER BY id DESC LIMIT 50
          ) f
          JOIN "character" c ON c.id = (f.state ->> 'rollerId')::int
          WHERE c.owner_user_id = ${ctx.actor.userId} OR (c.owner_user_id IS NULL AND ${isGm(table, ctx.actor)}::boolean)
          ORDER BY f.id DESC LIMIT 1`,
        );
  return found ?? refuse("errors.fate.noCheck");
}

/** Who may invoke on this check: the roller's player (the GM for NPCs); for `passive`, the GM. */
async function invokerFor(ctx: Ctx, table: GameTable, state: CheckFlowState, mode: InvokeMode) {
  // +2 to a difficulty is paid with a character's own fate point: `/fp spend on:passive` (fp.ts).
  if (mode === "passive") return refuse("errors.fate.passiveIsSpend");
  const roller = await characterById(ctx.tx, table.id, state.rollerId);
  requireControl(ctx, roller);
  return roller;
}

export const invokeMenu = defineFateUseCase({
  schema: fateIntents["fate.invoke-menu"],
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    const flow = await requireFlow(ctx.tx, checkFlow, ctx.table.id, ctx.intent.flowId);
    const invoker = await invokerFor(ctx, ctx.table, flow.state, ctx.intent.mode);
    if (ctx.intent.mode === "passive" && flow.state.check.opposition.kind !== "passive") {
      refuse("errors.fate.noPassiveOpposition");
    }
    const aspects = await invokableAspects(ctx.tx, ctx.table);
    if (aspects.length === 0) refuse("errors.fate.noAspects");
    // The free invokes shown are those this invoker may spend: their own and their side's (docs/rules/fate.md §3.2).
    const who = invoker ? await invokerOf(ctx, ctx.table, invoker) : null;
    const state = flow.state;
    const relevant = (a: (typeof aspects)[number]) =>
      a.characterId === null || a.characterId === state.rollerId || a.characterId === state.targetId;
    const fp = invoker ? invoker.fatePoints : null;
    return {
      reply: {
        ephemeral: true,
        content:
          (fp === null
            ? t(ctx.userLang, "fate.invoke.menuGm", { mode: `@fate.invokeMode.${ctx.intent.mode}` })
            : t(ctx.userLang, "fate.invoke.menu", { mode: `@fate.invokeMode.${ctx.intent.mode}`, fp })) +
          moreAspectsNote(ctx.userLang, aspects.length),
        rows: [
          [
            {
              kind: "select",
              intent: { type: "invoke", flowId: flow.id, mode: ctx.intent.mode },
              field: "aspect",
              placeholder: t(ctx.userLang, "fate.select.aspect"),
              options: invokeSelectOptions(ctx.userLang, aspects, who, relevant),
            },
          ],
        ],
      },
    };
  },
});

export const invoke = defineFateUseCase({
  schema: fateIntents.invoke,
  async run(ctx) {
    const mode = ctx.intent.mode ?? "plus2";
    const named =
      ctx.intent.check === undefined ? undefined : Number(String(ctx.intent.check).replace("#", ""));
    const flow = await checkForInvoke(ctx, ctx.table, mode, ctx.intent.flowId ?? named);
    const invokerRow = await invokerFor(ctx, ctx.table, flow.state, mode);
    const found = await findInvokableAspect(ctx.tx, ctx.table, ctx.intent.aspect, flow.state.rollerId);
    const invoker = invokerRow
      ? { id: String(invokerRow.id), fatePoints: invokerRow.fatePoints }
      : { id: "gm", fatePoints: GM_BANK };
    // Free invokes belong to a side (docs/rules/fate.md §3.2): only the holder and their allies spend them.
    const who = invokerRow ? await invokerOf(ctx, ctx.table, invokerRow) : { id: "gm", side: "npc" };
    const side = who.side;
    const result = invokeAspect(
      { check: flow.state.check, invoker, side, aspect: found.aspect, mode, paidWith: ctx.intent.pay },
      ctx.dice,
    );
    if (invokerRow && result.invoker.fatePoints !== invokerRow.fatePoints) {
      await saveFatePoints(ctx.tx, invokerRow.id, result.invoker.fatePoints);
    }
    await saveInvokedAspect(ctx.tx, ctx.table, found, result.aspect);
    const hostile = await payHostileInvoke(ctx, ctx.table, found, who, result.spent.paidWith);
    const state: CheckFlowState = { ...flow.state, check: result.check };
    await saveFlowState(ctx.tx, checkFlow, flow.id, state);
    const effects: Effect[] = [panelEdit(flow, panel(ctx, flow, state))];
    if (state.linkFlowId !== null) {
      const linked = typedFlowOrNull(
        checkFlow,
        await sqlFor(ctx.tx).one<Flow>`
        SELECT * FROM flow WHERE id = ${state.linkFlowId} AND table_id = ${ctx.table.id} AND status = 'open'`,
      );
      if (linked) {
        const other = linked.state;
        const updated: CheckFlowState = {
          ...other,
          check: withOpposition(other.check, {
            kind: "active",
            value: checkResult(state.check),
            characterId: String(state.rollerId),
          }),
        };
        await saveFlowState(ctx.tx, checkFlow, linked.id, updated);
        effects.push(panelEdit(linked, panel(ctx, linked, updated)));
      }
    }
    await appendLog(ctx, ctx.table.id, {
      action: "fate.invoke",
      characterId: invokerRow?.id ?? null,
      summary: {
        key: "log.fate.invoke",
        params: {
          name: invokerRow?.name ?? "GM",
          aspect: found.aspect.name,
          mode: `@fate.invokeMode.${mode}`,
          payment: `@fate.payment.${result.spent.paidWith}`,
        },
      },
      before: { fatePoints: invokerRow?.fatePoints ?? null, freeInvokes: found.aspect.freeInvokes.length },
      after: {
        fatePoints: invokerRow ? result.invoker.fatePoints : null,
        freeInvokes: result.aspect?.freeInvokes.length ?? 0,
      },
      dice: mode === "reroll" ? { rerolled: flow.state.check.dice, now: result.check.dice } : undefined,
    });
    // From the invoker's own menu the answer replaces that menu (private); else it is posted.
    const fromMenu = ctx.invocation.sourceMessageId !== undefined && ctx.intent.flowId !== undefined;
    const lang = fromMenu ? ctx.userLang : ctx.publicLang;
    const text = t(lang, "fate.invoke.done", {
      name: invokerRow?.name ?? t(lang, "fate.gm"),
      aspect: found.aspect.name,
      mode: `@fate.invokeMode.${mode}`,
      payment: `@fate.payment.${result.spent.paidWith}`,
      result: ladderText(lang, checkResult(result.check)),
    });
    // The owner's point is public news: posted even when the invoke came from a private menu.
    if (hostile)
      effects.push({ kind: "post", channelId: ctx.invocation.channelId, view: { content: hostile } });
    if (fromMenu) {
      return { reply: { ephemeral: true, content: text, rows: [] }, replyMode: "update", effects };
    }
    // The panel itself is edited in place: the answer does not post a second copy of it.
    return { reply: { content: text }, effects };
  },
});

/** `/invoke check:` — the table's open checks, newest first: "#12 Grukh · Fight (attack) → Bandit". */
export const checkSource: AutocompleteSource = {
  name: "fate-check",
  async choices({ db, table, userLang, query }) {
    if (!table) return [];
    const flows = (
      await sqlFor(db).rows<Flow>`
      SELECT * FROM flow WHERE table_id = ${table.id} AND kind = 'fate.check' AND status = 'open'
      ORDER BY id DESC LIMIT 50`
    ).map((row) => typedFlow(checkFlow, row));
    const wanted = nameKey(query.replace("#", ""));
    return flows
      .map((f) => ({
        name: t(userLang, "fate.check.choice", {
          id: f.id,
          name: f.state.rollerName,
          skill: `@fate.skill.${f.state.check.skill}`,
          action: `@fate.action.${f.state.check.action}`,
          target: f.state.targetName ?? "",
          hasTarget: f.state.targetName ? "yes" : "no",
        }).slice(0, 100),
        value: String(f.id),
      }))
      .filter((c) => wanted === "" || nameKey(c.name).includes(wanted))
      .slice(0, 25);
  },
};

/** A select holds 25 aspects: beyond them, the rest are found by `/invoke aspect:` (autocomplete). */
export function moreAspectsNote(lang: Lang, count: number): string {
  return count > 25 ? `\n${t(lang, "fate.invoke.moreAspects", { count: count - 25 })}` : "";
}
