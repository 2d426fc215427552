import type { Flow } from "../../generated/prisma/client.js";
import { t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { findStunt, startNewWeek } from "../../rules/fate/character.js";
import { checkOpposition, checkResult, invokeAspect } from "../../rules/fate/check.js";
import { adjustFatePoints } from "../../rules/fate/fate-points.js";
import { spendFatePointOn } from "../../rules/fate/fp-spend.js";
import { sqlFor } from "../../store/db.js";
import { actingCharacter, findCharacter, isGm } from "../access.js";
import { panelEdit, saveFlowState, typedFlowOrNull } from "../flows.js";
import { appendLog, type LogSummary } from "../log.js";
import { cleanText } from "../names.js";
import type { Effect } from "../use-case.js";
import { panel } from "./check.js";
import { invokerOf } from "./conflict-state.js";
import { findInvokableAspect, saveInvokedAspect } from "./faction.js";
import { checkFlow } from "./flow-states.js";
import { payHostileInvoke } from "./hostile-invoke.js";
import { fateIntents } from "./intents.js";
import {
  type CheckFlowState,
  fateCharacter,
  liveCharacters,
  saveFateCharacter,
  saveFatePoints,
  saveTableState,
  tableState,
} from "./state.js";
import { defineFateUseCase } from "./use-cases.js";
import { ladderText } from "./views.js";

export const fpShow = defineFateUseCase({
  schema: fateIntents["fp.show"],
  mutates: false,
  async run(ctx) {
    const rows = ctx.intent.character
      ? [await findCharacter(ctx.tx, ctx.table.id, ctx.intent.character)]
      : await liveCharacters(ctx.tx, ctx.table.id);
    const lines = rows.map((c) =>
      t(ctx.publicLang, "fate.fp.line", { name: c.name, fp: c.fatePoints, refresh: c.refresh }),
    );
    return {
      reply: {
        embeds: [
          {
            title: t(ctx.publicLang, "fate.fp.title", { week: tableState(ctx.table).fateWeek }),
            description: lines.join("\n") || t(ctx.publicLang, "fate.fp.none"),
            tone: "info",
          },
        ],
      },
    };
  },
});

export const fpGive = defineFateUseCase({
  schema: fateIntents["fp.give"],
  access: "gm",
  async run(ctx) {
    const row = await findCharacter(ctx.tx, ctx.table.id, ctx.intent.character);
    const reason = ctx.intent.reason ? cleanText(ctx.intent.reason, 200) : null;
    const after = adjustFatePoints({ fatePoints: row.fatePoints }, ctx.intent.amount);
    await saveFatePoints(ctx.tx, row.id, after.fatePoints);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.fp.give",
      characterId: row.id,
      summary: { key: "log.fate.fpGive", params: { name: row.name, amount: ctx.intent.amount } },
      before: { fatePoints: row.fatePoints },
      after: { fatePoints: after.fatePoints },
      reason,
    });
    return {
      reply: {
        content: t(ctx.publicLang, ctx.intent.amount >= 0 ? "fate.fp.given" : "fate.fp.taken", {
          name: row.name,
          amount: Math.abs(ctx.intent.amount),
          fp: after.fatePoints,
        }),
      },
    };
  },
});

/** A new game week (GM): fate points back up to each refresh (more are kept), spent ULTIMATEs return. */
export const fpRefresh = defineFateUseCase({
  schema: fateIntents["fp.refresh"],
  access: "gm",
  async run(ctx) {
    const state = tableState(ctx.table);
    const week = state.fateWeek + 1;
    const lines: string[] = [];
    for (const row of await liveCharacters(ctx.tx, ctx.table.id)) {
      const before = fateCharacter(row);
      const after = startNewWeek(before);
      await saveFateCharacter(ctx.tx, row, after);
      const magic = after.stunts.filter(
        (s, i) => before.stunts[i]?.disabledUntilNextWeek && !s.disabledUntilNextWeek,
      );
      await appendLog(ctx, ctx.table.id, {
        action: "fate.fp.refresh",
        characterId: row.id,
        summary: {
          key: "log.fate.refresh",
          params: { name: row.name, from: before.fatePoints, to: after.fatePoints },
        },
        before: { fatePoints: before.fatePoints },
        after: { fatePoints: after.fatePoints, magicRestored: magic.map((s) => s.name) },
      });
      lines.push(
        t(ctx.publicLang, "fate.fp.refreshLine", {
          name: row.name,
          from: before.fatePoints,
          to: after.fatePoints,
        }) +
          (magic.length > 0
            ? ` ${t(ctx.publicLang, "fate.fp.magicBack", { names: magic.map((s) => s.name).join(", ") })}`
            : ""),
      );
    }
    await saveTableState(ctx.tx, ctx.table, { ...state, fateWeek: week });
    return {
      reply: {
        embeds: [
          {
            title: t(ctx.publicLang, "fate.fp.refreshTitle", { week }),
            description: lines.join("\n") || t(ctx.publicLang, "fate.fp.none"),
            tone: "success",
          },
        ],
      },
    };
  },
});

/**
 * The check panel's "+2 to the difficulty" button: a private form for `/fp spend on:passive`
 * (the aspect invoked and the reason; the GM also names the GM character who pays).
 */
export const fpSpendForm = defineFateUseCase({
  schema: fateIntents["fp.spend-form"],
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    const lang = ctx.userLang;
    return {
      modal: {
        title: t(lang, "fate.fp.formTitle"),
        intent: { type: "fp.spend", on: "passive" },
        inputs: [
          { field: "aspect", label: t(lang, "fate.fp.formAspect"), style: "short", maxLength: 100 },
          { field: "reason", label: t(lang, "fate.fp.formReason"), style: "short", maxLength: 200 },
          ...(isGm(ctx.table, ctx.actor)
            ? [
                {
                  field: "character",
                  label: t(lang, "fate.fp.formCharacter"),
                  style: "short" as const,
                  maxLength: 100,
                },
              ]
            : []),
        ],
      },
    };
  },
});

/**
 * A player spends one of their character's fate points (docs/rules/fate.md §3.2), with a reason
 * that goes into the log: on a stunt that needs one, a story detail, or +2 to the passive
 * opposition of the table's latest check with a difficulty (an invoke of `aspect`). The GM
 * spends a GM character's points the same way, naming it; there is no unlimited bank.
 */
export const fpSpend = defineFateUseCase({
  schema: fateIntents["fp.spend"],
  async run(ctx) {
    const row = await actingCharacter(ctx, ctx.intent.character, { gmMayActForPlayers: true });
    const reason = cleanText(ctx.intent.reason, 200);
    const effects: Effect[] = [];
    let after: number;
    let detail: string;
    let summary: LogSummary;
    if (ctx.intent.on === "passive") {
      if (!ctx.intent.aspect) refuse("errors.fate.spendNeedsAspect");
      const flow = typedFlowOrNull(
        checkFlow,
        await sqlFor(ctx.tx).one<Flow>`
        SELECT f.* FROM (
          SELECT * FROM flow WHERE table_id = ${ctx.table.id} AND kind = 'fate.check' AND status = 'open'
          ORDER BY id DESC LIMIT 50
        ) f
        WHERE f.state -> 'check' -> 'opposition' ->> 'kind' = 'passive'
        ORDER BY f.id DESC LIMIT 1`,
      );
      if (!flow) refuse("errors.fate.noPassiveCheck");
      if (flow.state.rollerId === row.id) refuse("errors.fate.passiveOwnCheck", { name: row.name });
      const found = await findInvokableAspect(ctx.tx, ctx.table, ctx.intent.aspect, null);
      const who = await invokerOf(ctx, ctx.table, row);
      const result = invokeAspect(
        {
          check: flow.state.check,
          invoker: { id: String(row.id), fatePoints: row.fatePoints },
          side: who.side,
          aspect: found.aspect,
          mode: "passive",
          paidWith: "fate-point",
        },
        ctx.dice,
      );
      await saveInvokedAspect(ctx.tx, ctx.table, found, result.aspect);
      const hostile = await payHostileInvoke(ctx, ctx.table, found, who, result.spent.paidWith);
      if (hostile)
        effects.push({ kind: "post", channelId: ctx.invocation.channelId, view: { content: hostile } });
      const state: CheckFlowState = { ...flow.state, check: result.check };
      await saveFlowState(ctx.tx, checkFlow, flow.id, state);
      effects.push(panelEdit(flow, panel(ctx, flow, state)));
      after = result.invoker.fatePoints;
      detail = t(ctx.publicLang, "fate.fp.spentPassive", {
        aspect: found.aspect.name,
        roller: flow.state.rollerName,
        difficulty: ladderText(ctx.publicLang, checkOpposition(result.check) ?? 0),
        result: ladderText(ctx.publicLang, checkResult(result.check)),
      });
      summary = {
        key: "log.fate.fpSpentPassive",
        params: { name: row.name, aspect: found.aspect.name, roller: flow.state.rollerName },
      };
    } else {
      const character = fateCharacter(row);
      const stunt =
        ctx.intent.on === "stunt" ? (ctx.intent.stunt ? findStunt(character, ctx.intent.stunt) : null) : null;
      after = spendFatePointOn(
        { fatePoints: row.fatePoints },
        { on: ctx.intent.on, reason, stunt },
      ).fatePoints;
      detail = stunt
        ? t(ctx.publicLang, "fate.fp.spentStunt", { stunt: stunt.name })
        : t(ctx.publicLang, "fate.fp.spentDetail");
      summary = stunt
        ? { key: "log.fate.fpSpentStunt", params: { name: row.name, stunt: stunt.name } }
        : { key: "log.fate.fpSpentDetail", params: { name: row.name } };
    }
    await saveFatePoints(ctx.tx, row.id, after);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.fp.spend",
      characterId: row.id,
      summary,
      before: { fatePoints: row.fatePoints },
      after: { fatePoints: after, on: ctx.intent.on },
      reason,
    });
    return {
      reply: {
        content: t(ctx.publicLang, "fate.fp.spent", {
          name: row.name,
          detail,
          reason,
          from: row.fatePoints,
          to: after,
        }),
      },
      effects,
    };
  },
});
