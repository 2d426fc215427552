import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import {
  type ChallengeTask,
  challengeTally,
  endChallenge,
  type FateChallenge,
  findChallengeTask,
  invokeOnChallengeTask,
  latestTaskRolledBy,
  parseChallengeTasks,
  rollChallengeTask,
  startChallenge,
} from "../../rules/fate/challenge.js";
import { totalSkill } from "../../rules/fate/character.js";
import { payForInvoke } from "../../rules/fate/check.js";
import { signed } from "../../rules/fate/ladder.js";
import { resolveSkill } from "../../rules/fate/skills.js";
import { liveTableCharacters } from "../../store/characters.js";
import { actingCharacter, canControl, requireControl, requireTable } from "../access.js";
import {
  answerWithPanel,
  findOpenFlow,
  isFromOwnMessage,
  panelEdit,
  requireFlow,
  saveFlowState,
  startFlow,
} from "../flows.js";
import { appendLog } from "../log.js";
import { cleanName } from "../names.js";
import type { ActionContext, Effect } from "../use-case.js";
import type { EmbedView, MessageView } from "../views.js";
import { invokerOf } from "./conflict-state.js";
import { findInvokableAspect, invokableAspects, saveInvokedAspect } from "./faction.js";
import { challengeFlow } from "./flow-states.js";
import { payHostileInvoke } from "./hostile-invoke.js";
import { fateIntents } from "./intents.js";
import { moreAspectsNote } from "./invoke.js";
import { characterById, fateCharacter, saveFatePoints } from "./state.js";
import { defineFateUseCase } from "./use-cases.js";
import { invokeSelectOptions, ladderText, skillText } from "./views.js";

/** A Fate challenge in the `flow` table (kind `fate.challenge`): the rules' state as it is. */
export type ChallengeFlowState = FateChallenge;

function taskLine(lang: Lang, index: number, task: ChallengeTask): string {
  const head = t(lang, "fate.challenge.task", {
    n: index + 1,
    task: task.name,
    difficulty: ladderText(lang, task.difficulty),
  });
  if (!task.roll) return `☐ ${head}`;
  const roll = task.roll;
  const mark = roll.outcome === "fail" ? "❌" : roll.outcome === "tie" ? "➖" : "✅";
  const extra = [
    ...(roll.rerolledDice ?? []).map((d) =>
      t(lang, "fate.check.rerolled", { dice: `\`${d.symbols.join(" ")}\` (${d.rolled.join(" ")})` }),
    ),
    ...((roll.invokes ?? []).length > 0
      ? [
          t(lang, "fate.check.invokes", {
            list: (roll.invokes ?? [])
              .map(
                (i) =>
                  `${i.aspect} (${t(lang, `fate.invokeMode.${i.mode}`)}, ${t(lang, `fate.payment.${i.paidWith}`)})`,
              )
              .join("; "),
          }),
        ]
      : []),
  ].map((l) => `\n   ${l}`);
  const plus2 = (roll.invokes ?? []).filter((i) => i.mode === "plus2").length * 2;
  return `${mark} ${head}\n   ${t(lang, "fate.challenge.rolled", {
    name: roll.characterName,
    skill: skillText(lang, roll.skill),
    dice: `\`${roll.dice.symbols.join(" ")}\` (${roll.dice.rolled.join(" ")}) ${signed(roll.dice.total)}`,
    value: signed(roll.skillValue),
    bonus: (roll.bonus === 0 ? "" : ` ${signed(roll.bonus)}`) + (plus2 === 0 ? "" : ` ${signed(plus2)}`),
    result: ladderText(lang, roll.result),
    shifts: signed(roll.shifts),
    outcome: t(lang, `fate.outcome.${roll.outcome}`),
  })}${extra.join("")}`;
}

function challengeEmbed(lang: Lang, challenge: FateChallenge): EmbedView {
  const tally = challengeTally(challenge);
  const lines = challenge.tasks.map((task, i) => taskLine(lang, i, task));
  lines.push(
    "",
    t(lang, "fate.challenge.tally", {
      success: tally.success,
      style: tally.style,
      tie: tally.tie,
      fail: tally.fail,
      open: tally.open,
    }),
  );
  if (tally.leaning) lines.push(t(lang, `fate.challenge.leaning.${tally.leaning}`));
  if (challenge.status === "ended") lines.push(t(lang, "fate.challenge.ended"));
  else if (tally.open > 0) lines.push(t(lang, "fate.challenge.howToRoll"));
  else lines.push(t(lang, "fate.challenge.allRolled"));
  return {
    title: t(lang, "fate.challenge.title", { title: challenge.title }),
    description: lines.join("\n"),
    tone: challenge.status === "ended" ? "neutral" : "info",
  };
}

function challengeView(lang: Lang, challenge: FateChallenge, flowId?: number): MessageView {
  const rolled = challenge.tasks.some((t) => t.roll);
  return {
    embeds: [challengeEmbed(lang, challenge)],
    rows:
      challenge.status === "open" && rolled && flowId !== undefined
        ? [
            [
              {
                kind: "button",
                label: t(lang, "fate.button.plus2"),
                intent: { type: "fate-challenge.invoke-menu", flowId, mode: "plus2" },
              },
              {
                kind: "button",
                style: "secondary",
                label: t(lang, "fate.button.reroll"),
                intent: { type: "fate-challenge.invoke-menu", flowId, mode: "reroll" },
              },
            ],
          ]
        : [],
  };
}

async function openChallenge(ctx: Pick<ActionContext, "tx" | "table">) {
  const table = requireTable(ctx);
  const flow = await findOpenFlow(ctx.tx, challengeFlow, table.id);
  return { table, flow: flow ?? refuse("errors.fate.noChallenge") };
}

/** GM: a challenge — its tasks (skills or names, each with a difficulty) on a panel. */
export const fateChallengeStart = defineFateUseCase({
  schema: fateIntents["fate-challenge.start"],
  access: "gm",
  async run(ctx) {
    const open = await findOpenFlow(ctx.tx, challengeFlow, ctx.table.id);
    if (open) refuse("errors.fate.challengeOpen", { title: open.state.title });
    const challenge = startChallenge(
      cleanName(ctx.intent.title, 100),
      parseChallengeTasks(ctx.intent.tasks, ctx.intent.vs),
    );
    const flow = await startFlow(ctx, challengeFlow, ctx.table.id, challenge);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.challenge.start",
      summary: {
        key: "log.fate.challengeStart",
        params: { title: challenge.title, count: challenge.tasks.length },
      },
      after: challenge,
    });
    return { reply: challengeView(ctx.publicLang, challenge), replyIsPanelOf: flow.id };
  },
});

/** A player rolls one task for their character (the GM for anyone): an overcome with an unused skill. */
export const fateChallengeRoll = defineFateUseCase({
  schema: fateIntents["fate-challenge.roll"],
  async run(ctx) {
    const { table, flow } = await openChallenge(ctx);
    const roller = await actingCharacter(ctx, ctx.intent.character, { gmMayActForPlayers: true });
    const skill = resolveSkill(ctx.intent.skill);
    const index = findChallengeTask(flow.state, ctx.intent.task);
    const next = rollChallengeTask(
      flow.state,
      {
        task: index,
        characterId: String(roller.id),
        characterName: roller.name,
        skill,
        skillValue: totalSkill(fateCharacter(roller), skill),
        bonus: ctx.intent.bonus,
      },
      ctx.dice,
    );
    await saveFlowState(ctx.tx, challengeFlow, flow.id, next);
    const roll = next.tasks[index]!.roll!;
    await appendLog(ctx, table.id, {
      action: "fate.challenge.roll",
      characterId: roller.id,
      summary: {
        key: "log.fate.challengeRoll",
        params: {
          name: roller.name,
          task: next.tasks[index]!.name,
          skill: `@fate.skill.${skill}`,
          result: roll.result,
          shifts: roll.shifts,
        },
      },
      dice: roll.dice,
      after: { skillValue: roll.skillValue, bonus: roll.bonus, difficulty: next.tasks[index]!.difficulty },
    });
    const line = t(ctx.publicLang, "fate.challenge.rollDone", {
      name: roller.name,
      task: next.tasks[index]!.name,
      outcome: t(ctx.publicLang, `fate.outcome.${roll.outcome}`),
      shifts: signed(roll.shifts),
    });
    return {
      reply: { content: line, embeds: [challengeEmbed(ctx.publicLang, next)] },
      effects: [panelEdit(flow, challengeView(ctx.publicLang, next, flow.id))],
    };
  },
});

export const fateChallengeShow = defineFateUseCase({
  schema: fateIntents["fate-challenge.show"],
  mutates: false,
  async run(ctx) {
    const { flow } = await openChallenge(ctx);
    return answerWithPanel(ctx, flow, challengeView(ctx.publicLang, flow.state, flow.id));
  },
});

/** GM: the challenge ends; the panel keeps the results and the tally, for the GM to narrate the outcome. */
export const fateChallengeEnd = defineFateUseCase({
  schema: fateIntents["fate-challenge.end"],
  access: "gm",
  async run(ctx) {
    const { table, flow } = await openChallenge(ctx);
    const ended = endChallenge(flow.state);
    await saveFlowState(ctx.tx, challengeFlow, flow.id, ended, true);
    const tally = challengeTally(ended);
    await appendLog(ctx, table.id, {
      action: "fate.challenge.end",
      summary: { key: "log.fate.challengeEnd", params: { title: ended.title } },
      after: tally,
    });
    return {
      reply: {
        content: t(ctx.publicLang, "fate.challenge.endSummary", {
          title: ended.title,
          success: tally.success + tally.style,
          fail: tally.fail,
          tie: tally.tie,
          open: tally.open,
        }),
        embeds: [challengeEmbed(ctx.publicLang, ended)],
      },
      effects: [panelEdit(flow, challengeView(ctx.publicLang, ended))],
    };
  },
});

/** The roller's player (the GM for a GM character): the aspects to invoke on their latest roll here. */
export const fateChallengeInvokeMenu = defineFateUseCase({
  schema: fateIntents["fate-challenge.invoke-menu"],
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    const flow = await requireFlow(ctx.tx, challengeFlow, ctx.table.id, ctx.intent.flowId);
    const mine = await liveTableCharacters(ctx.tx, ctx.table.id);
    const ids = mine.filter((c) => canControl(ctx.table, ctx.actor, c)).map((c) => String(c.id));
    const task = latestTaskRolledBy(flow.state, ids);
    if (task === null) refuse("errors.fate.noChallengeRollOfYours");
    const roll = flow.state.tasks[task]!.roll!;
    const roller = mine.find((c) => String(c.id) === roll.characterId)!;
    const aspects = await invokableAspects(ctx.tx, ctx.table);
    if (aspects.length === 0) refuse("errors.fate.noAspects");
    const who = await invokerOf(ctx, ctx.table, roller);
    return {
      reply: {
        ephemeral: true,
        content:
          t(ctx.userLang, "fate.challenge.invokeMenu", {
            name: roller.name,
            task: flow.state.tasks[task]!.name,
            mode: `@fate.invokeMode.${ctx.intent.mode}`,
            fp: roller.fatePoints,
          }) + moreAspectsNote(ctx.userLang, aspects.length),
        rows: [
          [
            {
              kind: "select",
              intent: { type: "fate-challenge.invoke", flowId: flow.id, mode: ctx.intent.mode, task },
              field: "aspect",
              placeholder: t(ctx.userLang, "fate.select.aspect"),
              options: invokeSelectOptions(ctx.userLang, aspects, who),
            },
          ],
        ],
      },
    };
  },
});

/**
 * Invokes an aspect on a task's roll (its roller's player; the GM for a GM character): a free
 * invoke the roller may use first, else one of the roller's fate points (docs/rules/fate.md §3.2).
 */
export const fateChallengeInvoke = defineFateUseCase({
  schema: fateIntents["fate-challenge.invoke"],
  async run(ctx) {
    const flow = await requireFlow(ctx.tx, challengeFlow, ctx.table.id, ctx.intent.flowId);
    const roll = flow.state.tasks[ctx.intent.task]?.roll;
    if (!roll)
      refuse("errors.fate.challengeTaskNotRolled", { task: flow.state.tasks[ctx.intent.task]?.name ?? "?" });
    const roller = await characterById(ctx.tx, ctx.table.id, Number(roll.characterId));
    requireControl(ctx, roller);
    const found = await findInvokableAspect(ctx.tx, ctx.table, ctx.intent.aspect, roller.id);
    const invokerId = String(roller.id);
    // The one payment path of every invoke: the roller's and their allies' free invokes first.
    const who = await invokerOf(ctx, ctx.table, roller);
    const paid = payForInvoke(found.aspect, roller, who);
    const paidWith = paid.paidWith;
    const next = invokeOnChallengeTask(
      flow.state,
      ctx.intent.task,
      { aspect: found.aspect.name, invokerId, mode: ctx.intent.mode, paidWith },
      ctx.dice,
    );
    const fatePoints = paid.payer.fatePoints;
    if (paidWith === "fate-point") await saveFatePoints(ctx.tx, roller.id, fatePoints);
    else await saveInvokedAspect(ctx.tx, ctx.table, found, paid.aspect);
    const hostile = await payHostileInvoke(ctx, ctx.table, found, who, paidWith);
    await saveFlowState(ctx.tx, challengeFlow, flow.id, next);
    const rolled = next.tasks[ctx.intent.task]!;
    await appendLog(ctx, ctx.table.id, {
      action: "fate.challenge.invoke",
      characterId: roller.id,
      summary: {
        key: "log.fate.challengeInvoke",
        params: {
          name: roller.name,
          aspect: found.aspect.name,
          task: rolled.name,
          mode: `@fate.invokeMode.${ctx.intent.mode}`,
          payment: `@fate.payment.${paidWith}`,
        },
      },
      before: {
        fatePoints: roller.fatePoints,
        freeInvokes: found.aspect.freeInvokes.length,
        result: roll.result,
      },
      after: { fatePoints, result: rolled.roll!.result },
      dice: ctx.intent.mode === "reroll" ? { rerolled: roll.dice, now: rolled.roll!.dice } : undefined,
    });
    const fromMenu = isFromOwnMessage(ctx, flow);
    const lang = fromMenu ? ctx.userLang : ctx.publicLang;
    const text = t(lang, "fate.challenge.invoked", {
      name: roller.name,
      aspect: found.aspect.name,
      task: rolled.name,
      mode: `@fate.invokeMode.${ctx.intent.mode}`,
      payment: `@fate.payment.${paidWith}`,
      result: ladderText(lang, rolled.roll!.result),
      outcome: t(lang, `fate.outcome.${rolled.roll!.outcome}`),
    });
    const effects: Effect[] = [panelEdit(flow, challengeView(ctx.publicLang, next, flow.id))];
    if (hostile)
      effects.push({ kind: "post", channelId: ctx.invocation.channelId, view: { content: hostile } });
    if (fromMenu)
      return { reply: { ephemeral: true, content: text, rows: [] }, replyMode: "update" as const, effects };
    return { reply: { content: text, embeds: [challengeEmbed(ctx.publicLang, next)] }, effects };
  },
});
