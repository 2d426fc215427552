/**
 * A challenge's tasks (docs/rules/beast-hunters.md §2.5): proposing and agreeing on a difficulty,
 * buying dice, rolling it when both sides are ready; after a won challenge, extra dice from AP.
 */
import { t } from "../../i18n/index.js";
import type { ChallengeState } from "../../rules/beast-hunters/index.js";
import { refuse } from "../../rules/errors.js";
import { cleanName } from "../names.js";
import { actingParticipant, onChallenge, participantId, play, requirePlaying, sideOf } from "./challenge.js";

/** The panel's "new task" button: a form with the same fields as `/challenge task`. */
export const challengeTaskForm = onChallenge(
  "challenge.taskform",
  { mutates: false, ephemeral: true },
  async ({ ctx, table, flow, state }) => {
    requirePlaying(state);
    // Whoever may set up a task (the GM or a hunter in the challenge) gets the form; others are told why.
    await actingParticipant(ctx, table, state, undefined);
    const hunters = state.participants.filter((p) => p.side === "hunters").length;
    return {
      modal: {
        title: t(ctx.userLang, "bh.task.modalTitle"),
        intent: { type: "challenge.task", flowId: flow.id },
        inputs: [
          { field: "name", label: t(ctx.userLang, "bh.task.nameLabel"), style: "short", maxLength: 64 },
          {
            field: "difficulty",
            label: t(ctx.userLang, "bh.task.difficultyLabel"),
            style: "short",
            required: false,
            maxLength: 2,
            placeholder: t(ctx.userLang, "bh.task.difficultyPlaceholder", {
              hunters,
              max: maxDifficulty(state),
            }),
          },
        ],
      },
    };
  },
);

/** docs/rules/beast-hunters.md §2.5: base 1, the GM adds 0..(number of hunters), each hunter may add 1. */
function maxDifficulty(state: ChallengeState): number {
  return 1 + 2 * state.participants.filter((p) => p.side === "hunters").length;
}

/**
 * The panel's task menu: `g:<task>` accepts its difficulty for the clicker's side,
 * `a:<dice>:<task>` buys that many dice in one Achievement (4 AP each; `a:<task>`, from an older
 * panel, one), `r:<task>` says the clicker's side is ready to roll it.
 */
export const challengeTaskMenu = onChallenge(
  "challenge.taskmenu",
  { mutates: true, ephemeral: false },
  async ({ ctx, table, flow, state }) => {
    const actor = await actingParticipant(ctx, table, state, undefined);
    const side = sideOf(state, actor);
    const task = ctx.intent.pick.slice(2);
    if (ctx.intent.pick.startsWith("r:")) return play(ctx, table, flow, { type: "resolveTask", task, side });
    if (ctx.intent.pick.startsWith("g:")) return play(ctx, table, flow, { type: "agreeTask", task, side });
    if (!ctx.intent.pick.startsWith("a:")) refuse("errors.staleAction");
    // Buying dice is the turn's action: the GM's click on a hunter's turn acts for that hunter.
    const buyer = await actingParticipant(ctx, table, state, undefined, { turnAction: true });
    const counted = /^a:(\d{1,2}):(.+)$/s.exec(ctx.intent.pick);
    return play(ctx, table, flow, {
      type: "achieve",
      actor: buyer,
      task: counted ? counted[2]! : task,
      dice: counted ? Number(counted[1]) : 1,
      target: null,
    });
  },
);

export const challengeTask = onChallenge(
  "challenge.task",
  { mutates: true, ephemeral: false },
  async ({ ctx, table, flow, state }) => {
    const by = await actingParticipant(ctx, table, state, undefined);
    return play(ctx, table, flow, {
      type: "proposeTask",
      name: cleanName(ctx.intent.name),
      difficulty: difficultyOf(state, ctx.intent.difficulty),
      by,
    });
  },
);

function difficultyOf(state: ChallengeState, raw: number | string | undefined): number {
  if (typeof raw === "number") return raw;
  const text = (raw ?? "").trim();
  if (text === "") return 1;
  if (!/^\d{1,2}$/.test(text))
    refuse("errors.bh.badDifficulty", { difficulty: text.slice(0, 20), min: 1, max: maxDifficulty(state) });
  return Number(text);
}

export const challengeAchieve = onChallenge(
  "challenge.achieve",
  { mutates: true, ephemeral: false },
  async ({ ctx, table, flow, state }) => {
    const actor = await actingParticipant(ctx, table, state, ctx.intent.character, { turnAction: true });
    if (state.status !== "aftermath") {
      return play(ctx, table, flow, {
        type: "achieve",
        actor,
        task: ctx.intent.task,
        dice: ctx.intent.dice,
        target: participantId(state, ctx.intent.target),
      });
    }
    // After a won challenge: 6 AP a die, from the actor first, then (pool) from the other hunters.
    if (state.outcome?.winner !== "hunters") refuse("errors.bh.extraDiceOnlyAfterWin");
    const need = ctx.intent.dice * 6;
    const total = (id: string) => Object.values(state.advantage[id] ?? {}).reduce((s, ap) => s + ap, 0);
    const contributions: { hunter: string; points: number }[] = [];
    let owed = need;
    const givers = [
      actor,
      ...(ctx.intent.pool
        ? state.participants.filter((p) => p.side === "hunters" && p.id !== actor).map((p) => p.id)
        : []),
    ];
    for (const hunter of givers) {
      const points = Math.min(total(hunter), owed);
      if (points > 0) contributions.push({ hunter, points });
      owed -= points;
    }
    if (owed > 0) refuse("errors.bh.notEnoughAdvantageAfterWin", { need, have: need - owed });
    return play(ctx, table, flow, {
      type: "buyTaskDice",
      task: ctx.intent.task,
      dice: ctx.intent.dice,
      contributions,
    });
  },
);

export const challengeResolve = onChallenge(
  "challenge.resolve",
  { mutates: true, ephemeral: false },
  async ({ ctx, table, flow }) => {
    // Each side says it is ready; the task is rolled when both have.
    const actor = await actingParticipant(ctx, table, flow.state.challenge, undefined);
    return play(ctx, table, flow, {
      type: "resolveTask",
      task: ctx.intent.task,
      side: sideOf(flow.state.challenge, actor),
    });
  },
);
