/** A faction's check (docs/rules/fate.md §3.5): rolled by the GM with an ability, invokes on its panel. */

import type { GameTable } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import {
  type Faction,
  type FactionCheck,
  factionCheckOutcome,
  factionCheckResult,
  factionCheckShifts,
  factionInvoke,
  resolveFactionAbility,
  rollFactionCheck,
} from "../../rules/fate/faction.js";
import { signed } from "../../rules/fate/ladder.js";
import { outcome } from "../../rules/fate/outcomes.js";
import type { Tx } from "../../store/db.js";
import { tableById } from "../../store/tables.js";
import { requireTable } from "../access.js";
import { isFromOwnMessage, openFlows, panelEdit, requireFlow, saveFlowState, startFlow } from "../flows.js";
import { appendLog } from "../log.js";
import type { ActionContext, Effect } from "../use-case.js";
import type { EmbedView, MessageView } from "../views.js";
import { invokesLine } from "./check-view.js";
import {
  factionsOf,
  findFaction,
  findInvokableAspect,
  invokableAspects,
  saveFaction,
  saveInvokedAspect,
} from "./faction.js";
import { factionCheckFlow } from "./flow-states.js";
import { payHostileInvoke } from "./hostile-invoke.js";
import { fateIntents } from "./intents.js";
import { defineFateUseCase } from "./use-cases.js";
import { diceText, invokeSelectOptions, ladderText } from "./views.js";

/** A faction check in the `flow` table (kind `fate.faction-check`). */
export interface FactionCheckFlowState {
  check: FactionCheck;
  factionName: string;
}

function factionCheckEmbed(lang: Lang, state: FactionCheckFlowState): EmbedView {
  const { check } = state;
  const plus2 = check.invokes.filter((i) => i.mode === "plus2").length * 2;
  const formula = [
    `${signed(check.dice.total)} ${t(lang, "fate.check.term.dice")}`,
    `${signed(check.abilityValue)} ${t(lang, `fate.factionAbility.${check.ability}`)}`,
    ...(check.bonus !== 0 ? [`${signed(check.bonus)} ${t(lang, "fate.check.term.bonus")}`] : []),
    ...(plus2 !== 0 ? [`${signed(plus2)} ${t(lang, "fate.check.term.invokes")}`] : []),
  ].join(" ");
  const lines = [t(lang, "fate.check.dice", { dice: diceText(check.dice) })];
  for (const old of check.rerolledDice) lines.push(t(lang, "fate.check.rerolled", { dice: diceText(old) }));
  lines.push(t(lang, "fate.check.result", { formula, result: ladderText(lang, factionCheckResult(check)) }));
  const shifts = factionCheckShifts(check);
  const judged = factionCheckOutcome(check);
  let tone: EmbedView["tone"] = "neutral";
  if (shifts !== null && judged && check.opposition.kind !== "none") {
    const result = outcome(shifts);
    tone = result === "fail" ? "failure" : result === "tie" ? "warning" : "success";
    lines.push(
      t(lang, "fate.check.vsPassive", {
        value: ladderText(lang, check.opposition.value),
        shifts: signed(shifts),
        outcome: t(lang, `fate.outcome.${result}`),
      }),
    );
    lines.push(t(lang, judged.effects.key, { hit: judged.effects.hit }));
  } else {
    lines.push(t(lang, "fate.check.noOpposition"));
  }
  if (check.invokes.length > 0) lines.push(invokesLine(lang, check.invokes));
  return {
    title: t(lang, "fate.faction.checkTitle", {
      name: state.factionName,
      ability: t(lang, `fate.factionAbility.${check.ability}`),
      action: t(lang, `fate.action.${check.action}`),
    }),
    description: lines.join("\n"),
    tone,
  };
}

function factionCheckView(lang: Lang, id: number, state: FactionCheckFlowState, open = true): MessageView {
  return {
    embeds: [factionCheckEmbed(lang, state)],
    rows: open
      ? [
          [
            {
              kind: "button",
              label: t(lang, "fate.button.plus2"),
              intent: { type: "faction.invoke-menu", flowId: id, mode: "plus2" },
            },
            {
              kind: "button",
              style: "secondary",
              label: t(lang, "fate.button.reroll"),
              intent: { type: "faction.invoke-menu", flowId: id, mode: "reroll" },
            },
          ],
        ]
      : [],
  };
}

/** GM: a faction acts — 4d3 + one of its abilities (+ bonus), against a difficulty if given. */
export const factionCheck = defineFateUseCase({
  schema: fateIntents["faction.check"],
  access: "gm",
  async run(ctx) {
    const faction = findFaction(factionsOf(ctx.table), ctx.intent.faction);
    const ability = resolveFactionAbility(ctx.intent.ability);
    const check = rollFactionCheck(
      faction,
      { ability, bonus: ctx.intent.bonus, action: ctx.intent.action, vs: ctx.intent.vs },
      ctx.dice,
    );
    const state: FactionCheckFlowState = { check, factionName: faction.name };
    const flow = await startFlow(ctx, factionCheckFlow, ctx.table.id, state);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.faction.check",
      summary: {
        key: "log.fate.factionCheck",
        params: {
          name: faction.name,
          ability: `@fate.factionAbility.${ability}`,
          result: factionCheckResult(check),
        },
      },
      dice: check.dice,
      after: { abilityValue: check.abilityValue, bonus: check.bonus, opposition: check.opposition },
    });
    return { reply: factionCheckView(ctx.publicLang, flow.id, state), replyIsPanelOf: flow.id };
  },
});

/** A faction check flow of this table and the faction that rolled it. */
async function factionCheckOf(tx: Tx, table: GameTable, flowId: number) {
  const flow = await requireFlow(tx, factionCheckFlow, table.id, flowId);
  return { flow, faction: findFaction(factionsOf(table), flow.state.check.factionId) };
}

/** GM: the aspects the faction may invoke on its check (its own first), as a private select. */
export const factionInvokeMenu = defineFateUseCase({
  schema: fateIntents["faction.invoke-menu"],
  access: "gm",
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    const { flow, faction } = await factionCheckOf(ctx.tx, ctx.table, ctx.intent.flowId);
    const all = await invokableAspects(ctx.tx, ctx.table);
    if (all.length === 0) refuse("errors.fate.noAspects");
    const who = { id: `faction:${faction.id}`, side: null };
    const own = (a: (typeof all)[number]) => a.ref.startsWith(`f${faction.id}.`);
    return {
      reply: {
        ephemeral: true,
        content: t(ctx.userLang, "fate.faction.invokeMenu", {
          name: faction.name,
          mode: `@fate.invokeMode.${ctx.intent.mode}`,
          fp: faction.fatePoints,
        }),
        rows: [
          [
            {
              kind: "select",
              intent: { type: "faction.invoke", flowId: flow.id, mode: ctx.intent.mode },
              field: "aspect",
              placeholder: t(ctx.userLang, "fate.select.aspect"),
              options: invokeSelectOptions(ctx.userLang, all, who, own),
            },
          ],
        ],
      },
    };
  },
});

/** GM: the faction invokes an aspect on its check, with a free invoke or one of its fate points. */
export const factionInvokeAspect = defineFateUseCase({
  schema: fateIntents["faction.invoke"],
  access: "gm",
  async run(ctx) {
    const { flow, faction } = await factionCheckOf(ctx.tx, ctx.table, ctx.intent.flowId);
    const found = await findInvokableAspect(ctx.tx, ctx.table, ctx.intent.aspect);
    const result = factionInvoke(
      { check: flow.state.check, faction, aspect: found.aspect, mode: ctx.intent.mode },
      ctx.dice,
    );
    // The faction's own aspect lives in the faction: write both changes in one save.
    const ownRef = new RegExp(`^f${faction.id}\\.(a\\d+|mild|moderate|severe)$`).exec(found.ref);
    if (ownRef) {
      const part = ownRef[1]!;
      const updated: Faction = part.startsWith("a")
        ? {
            ...result.faction,
            aspects: result.faction.aspects.map((a, i) =>
              i === Number(part.slice(1)) && result.aspect ? result.aspect : a,
            ),
          }
        : {
            ...result.faction,
            consequences: result.faction.consequences.map((s) =>
              s.id === part && result.aspect ? { ...s, aspect: result.aspect } : s,
            ),
          };
      await saveFaction(ctx.tx, ctx.table, updated);
    } else {
      if (result.faction.fatePoints !== faction.fatePoints)
        await saveFaction(ctx.tx, ctx.table, result.faction);
      const fresh = result.faction.fatePoints !== faction.fatePoints ? await reloadTable(ctx) : ctx.table;
      await saveInvokedAspect(ctx.tx, fresh, found, result.aspect);
    }
    const hostile = await payHostileInvoke(
      ctx,
      ctx.table,
      found,
      { id: `faction:${faction.id}`, side: null },
      result.spent.paidWith,
    );
    const state: FactionCheckFlowState = { ...flow.state, check: result.check };
    await saveFlowState(ctx.tx, factionCheckFlow, flow.id, state);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.faction.invoke",
      summary: {
        key: "log.fate.factionInvoke",
        params: {
          name: faction.name,
          aspect: found.aspect.name,
          mode: `@fate.invokeMode.${ctx.intent.mode}`,
          payment: `@fate.payment.${result.spent.paidWith}`,
        },
      },
      before: { fatePoints: faction.fatePoints, freeInvokes: found.aspect.freeInvokes.length },
      after: { fatePoints: result.faction.fatePoints, freeInvokes: result.aspect?.freeInvokes.length ?? 0 },
      dice:
        ctx.intent.mode === "reroll"
          ? { rerolled: flow.state.check.dice, now: result.check.dice }
          : undefined,
    });
    const fromMenu = isFromOwnMessage(ctx, flow);
    const lang = fromMenu ? ctx.userLang : ctx.publicLang;
    const text = t(lang, "fate.faction.invoked", {
      name: faction.name,
      aspect: found.aspect.name,
      mode: `@fate.invokeMode.${ctx.intent.mode}`,
      payment: `@fate.payment.${result.spent.paidWith}`,
      result: ladderText(lang, factionCheckResult(result.check)),
      fp: result.faction.fatePoints,
    });
    const effects: Effect[] = [panelEdit(flow, factionCheckView(ctx.publicLang, flow.id, state))];
    if (hostile)
      effects.push({ kind: "post", channelId: ctx.invocation.channelId, view: { content: hostile } });
    if (fromMenu)
      return { reply: { ephemeral: true, content: text, rows: [] }, replyMode: "update", effects };
    return { reply: { content: text, embeds: [factionCheckEmbed(ctx.publicLang, state)] }, effects };
  },
});

/** The table row as saved in this transaction (the factions were just written). */
async function reloadTable(ctx: Pick<ActionContext, "tx" | "table">): Promise<GameTable> {
  const table = requireTable(ctx);
  return (await tableById(ctx.tx, table.id))!;
}

/** The end of the scene: the factions' open checks stop taking invokes. */
export async function closeFactionChecks(
  ctx: Pick<ActionContext, "tx" | "publicLang">,
  table: GameTable,
): Promise<Effect[]> {
  const effects: Effect[] = [];
  for (const flow of await openFlows(ctx.tx, factionCheckFlow, table.id)) {
    await saveFlowState(ctx.tx, factionCheckFlow, flow.id, flow.state, true);
    effects.push(panelEdit(flow, factionCheckView(ctx.publicLang, flow.id, flow.state, false)));
  }
  return effects;
}
