import type { DiceSource } from "../dice.js";
import { refuse } from "../errors.js";
import type { AppliedInvoke } from "./check.js";
import { type FateDiceRoll, rollFateDice } from "./dice.js";
import { type Outcome, outcome } from "./outcomes.js";
import { echo, normaliseName, resolveSkill, type SkillKey } from "./skills.js";

/** One overcome roll made for a task of the challenge. */
export interface ChallengeRoll {
  characterId: string;
  characterName: string;
  skill: SkillKey;
  skillValue: number;
  bonus: number;
  dice: FateDiceRoll;
  result: number;
  shifts: number;
  outcome: Outcome;
  /** Invokes on this roll (+2 or a reroll). Missing in rolls saved before invokes: none. */
  invokes?: AppliedInvoke[];
  /** Dice replaced by rerolls, oldest first. */
  rerolledDice?: FateDiceRoll[];
  /** 1 for the challenge's first roll, 2 for the next…; missing in rolls saved before: 0. */
  order?: number;
}

/** One task: a name (often a skill's), its difficulty, and the roll once made. */
export interface ChallengeTask {
  name: string;
  /** The skill the task is named after, if it is; the roll may still use another unused skill. */
  skill: SkillKey | null;
  difficulty: number;
  roll: ChallengeRoll | null;
}

/**
 * A challenge (docs/rules/fate.md §3.4): "a series of overcome actions… each stage uses a skill
 * different from those already used; then the results are weighed together for the outcome".
 */
export interface FateChallenge {
  title: string;
  tasks: ChallengeTask[];
  status: "open" | "ended";
}

export const MAX_CHALLENGE_TASKS = 10;
/** [decision, docs/rules/fate.md §3.4] The difficulty of a task when the GM gives none: Fair (+2). */
export const DEFAULT_TASK_DIFFICULTY = 2;

/**
 * "Athletics, Stealth 3, Lore: 1, Cross the river" → tasks: a trailing number is that task's
 * difficulty (else `difficulty`); a task named after a skill (English key or Russian name)
 * remembers it.
 */
export function parseChallengeTasks(
  text: string,
  difficulty = DEFAULT_TASK_DIFFICULTY,
): Omit<ChallengeTask, "roll">[] {
  const items = text
    .split(/[,;\n]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) refuse("errors.fate.challengeNoTasks");
  if (items.length > MAX_CHALLENGE_TASKS)
    refuse("errors.fate.challengeTooManyTasks", { max: MAX_CHALLENGE_TASKS });
  return items.map((item) => {
    const match = /^(.+?)\s*[:=]?\s*([-+−]?\d+)$/.exec(item);
    const name = (match ? match[1]! : item).trim().replace(/\s+/g, " ").slice(0, 60);
    const value = match ? Number(match[2]!.replace("−", "-")) : difficulty;
    if (!Number.isInteger(value) || Math.abs(value) > 20)
      refuse("errors.fate.oppositionOutOfRange", { max: 20 });
    let skill: SkillKey | null = null;
    try {
      skill = resolveSkill(name);
    } catch {
      skill = null;
    }
    return { name, skill, difficulty: value };
  });
}

export function startChallenge(title: string, tasks: readonly Omit<ChallengeTask, "roll">[]): FateChallenge {
  const names = new Set<string>();
  for (const task of tasks) {
    const key = normaliseName(task.name);
    if (names.has(key)) refuse("errors.fate.challengeTaskTwice", { task: echo(task.name) });
    names.add(key);
  }
  return {
    title: title.trim().slice(0, 100),
    tasks: tasks.map((t) => ({ ...t, roll: null })),
    status: "open",
  };
}

/** The task a player names: by its number (1, 2, …), its name, or the skill it is named after. */
export function findChallengeTask(challenge: FateChallenge, input: string): number {
  const wanted = input.trim();
  if (/^\d+$/.test(wanted)) {
    const index = Number(wanted) - 1;
    if (index >= 0 && index < challenge.tasks.length) return index;
  }
  const key = normaliseName(wanted);
  let index = challenge.tasks.findIndex((t) => normaliseName(t.name) === key);
  if (index < 0) {
    let skill: SkillKey | null = null;
    try {
      skill = resolveSkill(wanted);
    } catch {
      skill = null;
    }
    if (skill) index = challenge.tasks.findIndex((t) => t.skill === skill);
  }
  if (index < 0) {
    return refuse("errors.fate.unknownChallengeTask", {
      task: echo(wanted),
      tasks: challenge.tasks.map((t, i) => `${i + 1}. ${t.name}`).join(", "),
    });
  }
  return index;
}

/**
 * Rolls the overcome for one task: 4d3 + the skill + a bonus against the task's difficulty.
 * A task is rolled once; a skill already used in this challenge is refused.
 */
export function rollChallengeTask(
  challenge: FateChallenge,
  input: {
    task: number;
    characterId: string;
    characterName: string;
    skill: SkillKey;
    skillValue: number;
    bonus?: number;
  },
  dice: DiceSource,
): FateChallenge {
  if (challenge.status !== "open") refuse("errors.fate.challengeEnded");
  const task = challenge.tasks[input.task];
  if (!task) throw new Error(`rollChallengeTask: no task ${input.task}`);
  if (task.roll) {
    refuse("errors.fate.challengeTaskDone", { task: task.name, name: task.roll.characterName });
  }
  const used = challenge.tasks.find((t) => t.roll?.skill === input.skill);
  if (used) refuse("errors.fate.skillUsedInChallenge", { skill: input.skill, task: used.name });
  const bonus = input.bonus ?? 0;
  if (!Number.isInteger(bonus) || Math.abs(bonus) > 20) refuse("errors.fate.bonusOutOfRange", { max: 20 });
  const rolled = rollFateDice(dice);
  const result = rolled.total + input.skillValue + bonus;
  const shifts = result - task.difficulty;
  const roll: ChallengeRoll = {
    characterId: input.characterId,
    characterName: input.characterName,
    skill: input.skill,
    skillValue: input.skillValue,
    bonus,
    dice: rolled,
    result,
    shifts,
    outcome: outcome(shifts),
    invokes: [],
    rerolledDice: [],
    order: challenge.tasks.filter((t) => t.roll).length + 1,
  };
  return {
    ...challenge,
    tasks: challenge.tasks.map((t, i) => (i === input.task ? { ...t, roll } : t)),
  };
}

export interface ChallengeTally {
  fail: number;
  tie: number;
  success: number;
  style: number;
  /** Tasks not rolled yet. */
  open: number;
  /**
   * A hint for the GM, who decides (docs/rules/fate.md §3.4: "the results together decide"): more successes
   * (with style counting as one) than failures → success, more failures → fail, otherwise
   * mixed; ties are successes at a minor cost and count for neither. Null before any roll.
   */
  leaning: "success" | "mixed" | "fail" | null;
}

export function challengeTally(challenge: FateChallenge): ChallengeTally {
  const rolls = challenge.tasks.flatMap((t) => (t.roll ? [t.roll] : []));
  const count = (o: Outcome) => rolls.filter((r) => r.outcome === o).length;
  const tally = { fail: count("fail"), tie: count("tie"), success: count("success"), style: count("style") };
  const wins = tally.success + tally.style;
  const leaning =
    rolls.length === 0 ? null : wins > tally.fail ? "success" : wins < tally.fail ? "fail" : "mixed";
  return { ...tally, open: challenge.tasks.length - rolls.length, leaning };
}

export function endChallenge(challenge: FateChallenge): FateChallenge {
  if (challenge.status !== "open") refuse("errors.fate.challengeEnded");
  return { ...challenge, status: "ended" };
}

/**
 * An invoke on a task's roll after seeing it (docs/rules/fate.md §3.2): +2 to the result or a
 * reroll of the four dice; the result, shifts and outcome follow. As on a check, one aspect is
 * paid for with a fate point once per roll. Paying (a free invoke or a fate point) is the caller's.
 */
export function invokeOnChallengeTask(
  challenge: FateChallenge,
  task: number,
  invoke: {
    aspect: string;
    invokerId: string;
    mode: "plus2" | "reroll";
    paidWith: AppliedInvoke["paidWith"];
  },
  dice: DiceSource,
): FateChallenge {
  if (challenge.status !== "open") refuse("errors.fate.challengeEnded");
  const roll = challenge.tasks[task]?.roll;
  if (!roll)
    return refuse("errors.fate.challengeTaskNotRolled", { task: challenge.tasks[task]?.name ?? "?" });
  const invokes = roll.invokes ?? [];
  if (
    invoke.paidWith === "fate-point" &&
    invokes.some(
      (i) => i.paidWith === "fate-point" && normaliseName(i.aspect) === normaliseName(invoke.aspect),
    )
  ) {
    return refuse("errors.fate.aspectAlreadyInvoked", { aspect: invoke.aspect });
  }
  const nextInvokes = [...invokes, { ...invoke }];
  let rolled = roll.dice;
  let rerolledDice = roll.rerolledDice ?? [];
  if (invoke.mode === "reroll") {
    rerolledDice = [...rerolledDice, roll.dice];
    rolled = rollFateDice(dice);
  }
  const plus2 = nextInvokes.filter((i) => i.mode === "plus2").length * 2;
  const result = rolled.total + roll.skillValue + roll.bonus + plus2;
  const shifts = result - challenge.tasks[task]!.difficulty;
  const next: ChallengeRoll = {
    ...roll,
    dice: rolled,
    rerolledDice,
    invokes: nextInvokes,
    result,
    shifts,
    outcome: outcome(shifts),
  };
  return { ...challenge, tasks: challenge.tasks.map((t, i) => (i === task ? { ...t, roll: next } : t)) };
}

/** The task whose roll came last among those made by these characters (for "invoke on my roll"), or null. */
export function latestTaskRolledBy(challenge: FateChallenge, characterIds: readonly string[]): number | null {
  let best: number | null = null;
  challenge.tasks.forEach((t, i) => {
    if (!t.roll || !characterIds.includes(t.roll.characterId)) return;
    if (best === null || (t.roll.order ?? 0) >= (challenge.tasks[best]!.roll!.order ?? 0)) best = i;
  });
  return best;
}
