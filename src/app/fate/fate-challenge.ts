import { z } from "zod";
import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import {
  type ChallengeTask,
  challengeTally,
  endChallenge,
  type FateChallenge,
  findChallengeTask,
  parseChallengeTasks,
  rollChallengeTask,
  startChallenge,
} from "../../rules/fate/challenge.js";
import { totalSkill } from "../../rules/fate/character.js";
import { signed } from "../../rules/fate/ladder.js";
import { resolveSkill } from "../../rules/fate/skills.js";
import { actingCharacter, requireGm, requireTable } from "../access.js";
import { answerWithPanel, createFlow, findOpenFlow, panelEdit, saveFlowState } from "../flows.js";
import { appendLog } from "../log.js";
import { cleanName } from "../names.js";
import { type ActionContext, defineUseCase } from "../use-case.js";
import type { EmbedView, MessageView } from "../views.js";
import { fateCharacter } from "./state.js";
import { ladderText, skillText } from "./views.js";

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
  return `${mark} ${head}\n   ${t(lang, "fate.challenge.rolled", {
    name: roll.characterName,
    skill: skillText(lang, roll.skill),
    dice: `\`${roll.dice.symbols.join(" ")}\` (${roll.dice.rolled.join(" ")}) ${signed(roll.dice.total)}`,
    value: signed(roll.skillValue),
    bonus: roll.bonus === 0 ? "" : ` ${signed(roll.bonus)}`,
    result: ladderText(lang, roll.result),
    shifts: signed(roll.shifts),
    outcome: t(lang, `fate.outcome.${roll.outcome}`),
  })}`;
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

function challengeView(lang: Lang, challenge: FateChallenge): MessageView {
  return { embeds: [challengeEmbed(lang, challenge)] };
}

async function openChallenge(ctx: Pick<ActionContext, "tx" | "table">) {
  const table = requireTable(ctx);
  const flow = await findOpenFlow<ChallengeFlowState>(ctx.tx, table.id, "fate.challenge");
  return { table, flow: flow ?? refuse("errors.fate.noChallenge") };
}

/** GM: a challenge — its tasks (skills or names, each with a difficulty) on a panel. */
export const fateChallengeStart = defineUseCase({
  type: "fate-challenge.start",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("fate-challenge.start"),
    title: z.string().min(1).max(100),
    tasks: z.string().min(1).max(500),
    vs: z.number().int().min(-20).max(20).optional(),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireGm(ctx);
    const open = await findOpenFlow<ChallengeFlowState>(ctx.tx, table.id, "fate.challenge");
    if (open) refuse("errors.fate.challengeOpen", { title: open.state.title });
    const challenge = startChallenge(
      cleanName(ctx.intent.title, 100),
      parseChallengeTasks(ctx.intent.tasks, ctx.intent.vs),
    );
    const flow = await createFlow(ctx.tx, {
      tableId: table.id,
      kind: "fate.challenge",
      state: challenge,
      createdByUserId: ctx.actor.userId,
    });
    await appendLog(ctx, table.id, {
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
export const fateChallengeRoll = defineUseCase({
  type: "fate-challenge.roll",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("fate-challenge.roll"),
    task: z.string().min(1).max(100),
    skill: z.string().min(1).max(100),
    bonus: z.number().int().min(-20).max(20).optional(),
    character: z.string().min(1).max(100).optional(),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
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
    await saveFlowState(ctx.tx, flow.id, next);
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
      effects: [panelEdit(flow, challengeView(ctx.publicLang, next))],
    };
  },
});

export const fateChallengeShow = defineUseCase({
  type: "fate-challenge.show",
  systems: ["fate"],
  schema: z.object({ type: z.literal("fate-challenge.show") }),
  table: "required",
  mutates: false,
  ephemeral: false,
  async run(ctx) {
    const { flow } = await openChallenge(ctx);
    return answerWithPanel(ctx, flow, challengeView(ctx.publicLang, flow.state));
  },
});

/** GM: the challenge ends; the panel keeps the results and the tally, for the GM to narrate the outcome. */
export const fateChallengeEnd = defineUseCase({
  type: "fate-challenge.end",
  systems: ["fate"],
  schema: z.object({ type: z.literal("fate-challenge.end") }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    requireGm(ctx);
    const { table, flow } = await openChallenge(ctx);
    const ended = endChallenge(flow.state);
    await saveFlowState(ctx.tx, flow.id, ended, true);
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
