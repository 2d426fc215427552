import { refuse } from "../errors.js";
import { type Outcome, outcome } from "./outcomes.js";
import type { SkillKey } from "./skills.js";

export interface ChallengeStep {
  characterId: string;
  skill: SkillKey;
  shifts: number;
  outcome: Outcome;
}

/** A challenge (docs/rules/fate.md §3.4): overcome rolls, each with a different skill, judged together. */
export interface FateChallenge {
  title: string;
  steps: ChallengeStep[];
  status: "open" | "ended";
}

export function startChallenge(title: string): FateChallenge {
  return { title: title.trim().slice(0, 100), steps: [], status: "open" };
}

/** Records one overcome roll; a skill already used in this challenge is refused. */
export function recordChallengeStep(
  challenge: FateChallenge,
  step: { characterId: string; skill: SkillKey; shifts: number },
): FateChallenge {
  if (challenge.status !== "open") refuse("errors.fate.challengeEnded");
  if (challenge.steps.some((s) => s.skill === step.skill))
    refuse("errors.fate.skillUsedInChallenge", { skill: step.skill });
  return { ...challenge, steps: [...challenge.steps, { ...step, outcome: outcome(step.shifts) }] };
}

export interface ChallengeTally {
  fail: number;
  tie: number;
  success: number;
  style: number;
  /**
   * A hint for the GM, who decides (docs/rules/fate.md §3.4: "the results together decide"): more successes
   * (with style counting as one) than failures → success, more failures → fail, otherwise
   * mixed; ties are successes at a minor cost and count for neither. Null before any roll.
   */
  leaning: "success" | "mixed" | "fail" | null;
}

export function challengeTally(challenge: FateChallenge): ChallengeTally {
  const count = (o: Outcome) => challenge.steps.filter((s) => s.outcome === o).length;
  const tally = { fail: count("fail"), tie: count("tie"), success: count("success"), style: count("style") };
  const wins = tally.success + tally.style;
  const leaning =
    challenge.steps.length === 0
      ? null
      : wins > tally.fail
        ? "success"
        : wins < tally.fail
          ? "fail"
          : "mixed";
  return { ...tally, leaning };
}

export function endChallenge(challenge: FateChallenge): FateChallenge {
  if (challenge.status !== "open") refuse("errors.fate.challengeEnded");
  return { ...challenge, status: "ended" };
}
