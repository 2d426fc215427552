import type { Character, Flow, GameTable } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { checkResult } from "../../rules/fate/check.js";
import {
  type ContestRoll,
  type FateContest,
  recordExchange,
  startContest,
} from "../../rules/fate/contest.js";
import { resolveSkill } from "../../rules/fate/skills.js";
import { characterAtTable, ownsAnyCharacterOf } from "../../store/characters.js";
import { sqlFor } from "../../store/db.js";
import { actingCharacter, canControl, findCharacter, isGm, requireTable } from "../access.js";
import {
  findOpenFlow,
  panelEdit,
  requireFlow,
  saveFlowState,
  startFlow,
  type TypedFlow,
  typedFlowOrNull,
} from "../flows.js";
import { appendLog } from "../log.js";
import { cleanText } from "../names.js";
import type { ActionContext, Effect } from "../use-case.js";
import type { MessageView } from "../views.js";
import { panel, rollCheck } from "./check.js";
import { checkView } from "./check-view.js";
import { checkFlow, contestFlow } from "./flow-states.js";
import { fateIntents } from "./intents.js";
import { defineFateUseCase } from "./use-cases.js";
import { ladderText, skillOptions } from "./views.js";

/** A contest (flow kind `fate.contest`): the rules' contest plus this exchange's rolls (check flow ids). */
export interface ContestFlowState {
  contest: FateContest;
  names: Record<string, string>;
  passive: number | null;
  /** Character id → the check flow of their roll this exchange, or "forfeit". */
  rolls: Record<string, number | "forfeit">;
  /** Results of this exchange as last shown (filled when it resolves). */
  last: {
    results: Record<string, number | null>;
    winnerId: string | null;
    victories: number;
    twist: boolean;
  } | null;
}

function contestView(
  lang: Lang,
  flowId: number,
  state: ContestFlowState,
  results: Record<string, number | null>,
): MessageView {
  const { contest } = state;
  const lines = contest.participants.map((id) => {
    const roll = state.rolls[id];
    const now =
      roll === undefined
        ? t(lang, "fate.contest.notRolled")
        : roll === "forfeit"
          ? t(lang, "fate.contest.forfeit")
          : ladderText(lang, results[id] ?? 0);
    return t(lang, "fate.contest.line", {
      name: state.names[id] ?? id,
      victories: contest.victories[id] ?? 0,
      now,
    });
  });
  if (state.last) {
    const last = state.last;
    lines.push(
      last.twist
        ? t(lang, "fate.contest.twist")
        : last.winnerId
          ? t(lang, "fate.contest.exchangeWon", {
              name: state.names[last.winnerId] ?? "",
              victories: last.victories,
            })
          : t(lang, "fate.contest.noWinner"),
    );
  }
  if (contest.winnerId)
    lines.push(t(lang, "fate.contest.won", { name: state.names[contest.winnerId] ?? "" }));
  else if (contest.status === "ended") lines.push(t(lang, "fate.contest.endedUndecided"));
  const open = contest.status === "open";
  const allRolled = contest.participants.every((id) => state.rolls[id] !== undefined);
  return {
    embeds: [
      {
        title: t(lang, "fate.contest.title", {
          title: contest.title || t(lang, "fate.contest.untitled"),
          // The exchange going on; once it is over, the number played.
          exchange: open ? contest.exchanges.length + 1 : contest.exchanges.length,
        }),
        description: lines.join("\n"),
        footer:
          state.passive !== null
            ? t(lang, "fate.contest.vs", { value: ladderText(lang, state.passive) })
            : undefined,
        tone: open ? "info" : "success",
      },
    ],
    rows: open
      ? [
          [
            {
              kind: "select",
              intent: { type: "contest.roll", flowId },
              field: "skill",
              placeholder: t(lang, "fate.select.contestRoll"),
              options: skillOptions(lang),
            },
          ],
          ...(allRolled
            ? [
                [
                  {
                    kind: "button" as const,
                    label: t(lang, "fate.button.resolveExchange"),
                    intent: { type: "contest.resolve" as const, flowId },
                  },
                ],
              ]
            : []),
        ]
      : [],
  };
}

async function currentResults(ctx: Pick<ActionContext, "tx">, table: GameTable, state: ContestFlowState) {
  const results: Record<string, number | null> = {};
  for (const [id, roll] of Object.entries(state.rolls)) {
    if (roll === "forfeit") {
      results[id] = null;
      continue;
    }
    const flow = typedFlowOrNull(
      checkFlow,
      await sqlFor(ctx.tx).one<Flow>`
      SELECT * FROM flow WHERE id = ${roll} AND table_id = ${table.id}`,
    );
    results[id] = flow ? checkResult(flow.state.check) : null;
  }
  return results;
}

async function theContest(ctx: Pick<ActionContext, "tx" | "table">, id: number | undefined) {
  const table = requireTable(ctx);
  if (id !== undefined) return requireFlow(ctx.tx, contestFlow, table.id, id);
  const flow = await findOpenFlow(ctx.tx, contestFlow, table.id);
  if (!flow) refuse("errors.fate.noContest");
  return flow as TypedFlow<ContestFlowState>;
}

export const contestStart = defineFateUseCase({
  schema: fateIntents["contest.start"],
  access: "gm",
  async run(ctx) {
    if (await findOpenFlow(ctx.tx, contestFlow, ctx.table.id)) refuse("errors.fate.contestOpen");
    const names = [ctx.intent.first, ctx.intent.second, ctx.intent.third, ctx.intent.fourth].filter(
      (n): n is string => n !== undefined,
    );
    const rows: Character[] = [];
    for (const name of names) rows.push(await findCharacter(ctx.tx, ctx.table.id, name));
    const title = ctx.intent.title ? cleanText(ctx.intent.title, 100) : "";
    const contest = startContest(
      title,
      rows.map((r) => String(r.id)),
    );
    const state: ContestFlowState = {
      contest,
      names: Object.fromEntries(rows.map((r) => [String(r.id), r.name])),
      passive: ctx.intent.vs ?? null,
      rolls: {},
      last: null,
    };
    const flow = await startFlow(ctx, contestFlow, ctx.table.id, state);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.contest.start",
      summary: { key: "log.fate.contestStart", params: { names: rows.map((r) => r.name).join(", ") } },
    });
    return { reply: contestView(ctx.publicLang, flow.id, state, {}), replyIsPanelOf: flow.id };
  },
});

export const contestRoll = defineFateUseCase({
  schema: fateIntents["contest.roll"],
  async run(ctx) {
    const flow = await theContest(ctx, ctx.intent.flowId);
    const state = flow.state;
    let row: Character;
    if (ctx.intent.character) row = await actingCharacter(ctx, ctx.intent.character);
    else {
      // From the panel: the actor's own character in this contest (the GM's NPC if they have just one).
      const mine: Character[] = [];
      for (const id of state.contest.participants) {
        const c = await characterAtTable(ctx.tx, ctx.table.id, Number(id));
        if (c && canControl(ctx.table, ctx.actor, c)) mine.push(c);
      }
      if (mine.length === 0) refuse("errors.fate.noneOfYoursInContest");
      if (mine.length > 1) refuse("errors.character.whichOne", { names: mine.map((c) => c.name).join(", ") });
      row = mine[0]!;
    }
    const id = String(row.id);
    if (!state.contest.participants.includes(id)) refuse("errors.fate.notInContest");
    if (state.rolls[id] !== undefined) refuse("errors.fate.alreadyRolledExchange", { name: row.name });
    const effects: Effect[] = [];
    let reply: MessageView;
    let replyIsPanelOf: number | undefined;
    const next: ContestFlowState = { ...state, rolls: { ...state.rolls } };
    if (ctx.intent.forfeit) {
      next.rolls[id] = "forfeit";
      reply = { content: t(ctx.publicLang, "fate.contest.forfeited", { name: row.name }) };
      await appendLog(ctx, ctx.table.id, {
        action: "fate.contest.forfeit",
        characterId: row.id,
        summary: { key: "log.fate.contestForfeit", params: { name: row.name } },
      });
    } else {
      if (!ctx.intent.skill) refuse("errors.fate.skillNeeded");
      const skill = resolveSkill(ctx.intent.skill);
      const rolled = await rollCheck(ctx, ctx.table, row, {
        skill,
        action: "overcome",
        bonus: ctx.intent.bonus ?? 0,
        opposition: state.passive !== null ? { kind: "passive", value: state.passive } : { kind: "none" },
        target: null,
        aspect: null,
        existingAspect: false,
        awaitingDefence: false,
        linkFlowId: null,
        contestFlowId: flow.id,
      });
      next.rolls[id] = rolled.flow.id;
      reply = panel(ctx, rolled.flow, rolled.state);
      replyIsPanelOf = rolled.flow.id;
      effects.push(...rolled.effects);
    }
    await saveFlowState(ctx.tx, contestFlow, flow.id, next);
    effects.push({
      kind: "editPanel",
      flowId: flow.id,
      view: contestView(ctx.publicLang, flow.id, next, await currentResults(ctx, ctx.table, next)),
    });
    return { reply, replyIsPanelOf, effects };
  },
});

/**
 * Resolves the exchange once everyone has rolled (or forfeited), with the results as they
 * stand after any invokes: GM or a participant's player.
 */
export const contestResolve = defineFateUseCase({
  schema: fateIntents["contest.resolve"],
  async run(ctx) {
    const flow = await theContest(ctx, ctx.intent.flowId);
    const state = flow.state;
    if (!isGm(ctx.table, ctx.actor)) {
      const ids = state.contest.participants.map(Number);
      const own = await ownsAnyCharacterOf(ctx.tx, ctx.table.id, ctx.actor.userId, ids);
      if (!own) refuse("errors.fate.noneOfYoursInContest");
    }
    const results = await currentResults(ctx, ctx.table, state);
    const rolls: ContestRoll[] = state.contest.participants
      .filter((id) => state.rolls[id] !== undefined)
      .map((id) => ({ characterId: id, result: results[id] ?? null }));
    const { contest, exchange } = recordExchange(
      state.contest,
      rolls,
      state.passive !== null ? { passive: state.passive } : {},
    );
    // The exchange's checks are settled: no more invokes on them.
    const effects: Effect[] = [];
    for (const roll of Object.values(state.rolls)) {
      if (roll === "forfeit") continue;
      const check = typedFlowOrNull(
        checkFlow,
        await sqlFor(ctx.tx).one<Flow>`
        SELECT * FROM flow WHERE id = ${roll} AND table_id = ${ctx.table.id}`,
      );
      if (check?.status !== "open") continue;
      const checkState = check.state;
      await saveFlowState(ctx.tx, checkFlow, check.id, checkState, true);
      effects.push(panelEdit(check, panel(ctx, check, checkState, false)));
    }
    const next: ContestFlowState = {
      ...state,
      contest,
      rolls: {},
      last: { results, winnerId: exchange.winnerId, victories: exchange.victories, twist: exchange.twist },
    };
    await saveFlowState(ctx.tx, contestFlow, flow.id, next, contest.status === "ended");
    // Decided: any roll of it still open stops taking invokes.
    if (contest.status === "ended") effects.push(...(await closeContestRolls(ctx, ctx.table, flow.id)));
    await appendLog(ctx, ctx.table.id, {
      action: "fate.contest.exchange",
      summary: {
        key: exchange.twist ? "log.fate.contestTwist" : "log.fate.contestExchange",
        params: {
          name: exchange.winnerId ? (state.names[exchange.winnerId] ?? "") : "—",
          victories: exchange.victories,
        },
      },
      before: { victories: state.contest.victories },
      after: { victories: contest.victories, winner: contest.winnerId },
    });
    const view = contestView(ctx.publicLang, flow.id, next, results);
    const fromPanel = ctx.invocation.sourceMessageId !== undefined && ctx.intent.flowId !== undefined;
    if (fromPanel) return { reply: view, replyMode: "update", effects };
    return {
      reply: { ...view, rows: [] },
      effects: [...effects, panelEdit(flow, view)],
    };
  },
});

export const contestShow = defineFateUseCase({
  schema: fateIntents["contest.show"],
  mutates: false,
  async run(ctx) {
    const flow = await theContest(ctx, undefined);
    return {
      reply: contestView(
        ctx.publicLang,
        flow.id,
        flow.state,
        await currentResults(ctx, ctx.table, flow.state),
      ),
    };
  },
});

/** A contest's rolls still open (a decided, ended or abandoned contest's): closed, no more invokes. */
async function closeContestRolls(
  ctx: Pick<ActionContext, "tx" | "publicLang">,
  table: GameTable,
  contestId: number,
): Promise<Effect[]> {
  const rows = await sqlFor(ctx.tx).rows<Flow>`
    SELECT * FROM flow WHERE table_id = ${table.id} AND kind = 'fate.check' AND status = 'open'
      AND state ->> 'contestFlowId' = ${String(contestId)}
    ORDER BY id`;
  const effects: Effect[] = [];
  for (const row of rows) {
    const check = typedFlowOrNull(checkFlow, row);
    if (!check) continue;
    await saveFlowState(ctx.tx, checkFlow, check.id, check.state, true);
    effects.push(panelEdit(check, checkView(ctx.publicLang, check.id, check.state, false)));
  }
  return effects;
}

/**
 * Ends the table's open contest, decided or not (`/contest end`, the end of the scene): it stops
 * blocking a new one and its rolls stop taking invokes (docs/rules/fate.md §3.4). Null: none open.
 */
export async function endOpenContest(
  ctx: Pick<ActionContext, "tx" | "publicLang" | "actor" | "invocation">,
  table: GameTable,
  id?: number,
): Promise<{ view: MessageView; effects: Effect[]; flowId: number } | null> {
  const flow =
    id !== undefined
      ? await requireFlow(ctx.tx, contestFlow, table.id, id)
      : await findOpenFlow(ctx.tx, contestFlow, table.id);
  if (!flow) return null;
  if (flow.status !== "open" || flow.state.contest.status !== "open") refuse("errors.fate.contestEnded");
  const state = flow.state;
  const results = await currentResults(ctx, table, state);
  const next: ContestFlowState = { ...state, contest: { ...state.contest, status: "ended" } };
  await saveFlowState(ctx.tx, contestFlow, flow.id, next, true);
  const effects = await closeContestRolls(ctx, table, flow.id);
  await appendLog(ctx, table.id, {
    action: "fate.contest.end",
    summary: {
      key: "log.fate.contestEnd",
      params: { title: state.contest.title || "—", exchanges: state.contest.exchanges.length },
    },
    before: { victories: state.contest.victories },
  });
  const view = contestView(ctx.publicLang, flow.id, next, results);
  return { view, effects: [...effects, panelEdit(flow, view)], flowId: flow.id };
}

/** GM: ends the contest, decided or not (a stalled one too). */
export const contestEnd = defineFateUseCase({
  schema: fateIntents["contest.end"],
  access: "gm",
  async run(ctx) {
    const ended = await endOpenContest(ctx, ctx.table, ctx.intent.flowId);
    if (!ended) return refuse("errors.fate.noContest");
    return { reply: { ...ended.view, rows: [] }, effects: ended.effects };
  },
});
