import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scriptedDice } from "../../../src/rules/dice.js";
import {
  challengeTally,
  endChallenge,
  findChallengeTask,
  invokeOnChallengeTask,
  latestTaskRolledBy,
  parseChallengeTasks,
  rollChallengeTask,
  startChallenge,
} from "../../../src/rules/fate/challenge.js";
import { SKILL_KEYS } from "../../../src/rules/fate/skills.js";
import { expectRefusal } from "./refusal.js";

const roll = (task: number, skill: (typeof SKILL_KEYS)[number], skillValue: number, faces: number[]) => ({
  input: { task, characterId: "a", characterName: "Ilsa", skill, skillValue },
  dice: scriptedDice(faces),
});

describe("a challenge (docs/rules/fate.md §3.4)", () => {
  it("«Вызов — это череда действий преодоления»: tasks from skills or names, each with a difficulty", () => {
    const tasks = parseChallengeTasks("Athletics, Скрытность 3, Save the scrolls: 1");
    expect(tasks).toEqual([
      { name: "Athletics", skill: "athletics", difficulty: 2 },
      { name: "Скрытность", skill: "stealth", difficulty: 3 },
      { name: "Save the scrolls", skill: null, difficulty: 1 },
    ]);
    expectRefusal(() => parseChallengeTasks(" , "), "errors.fate.challengeNoTasks");
    expectRefusal(
      () => startChallenge("x", parseChallengeTasks("Lore, lore")),
      "errors.fate.challengeTaskTwice",
    );
  });

  it("«используется навык, отличающийся от уже использованных»; each task rolled once; results tallied together", () => {
    let challenge = startChallenge("Hold the burning bridge", parseChallengeTasks("Athletics, Crafts, Will"));
    expect(challengeTally(challenge).leaning).toBeNull();
    const a = roll(0, "athletics", 2, [3, 3, 3, 1]); // +1 + 2 = 3 vs 2 → +1 success
    challenge = rollChallengeTask(challenge, a.input, a.dice);
    expectRefusal(() => {
      const again = roll(1, "athletics", 2, [3, 3, 3, 3]);
      rollChallengeTask(challenge, again.input, again.dice);
    }, "errors.fate.skillUsedInChallenge");
    expectRefusal(() => {
      const again = roll(0, "lore", 2, [3, 3, 3, 3]);
      rollChallengeTask(challenge, again.input, again.dice);
    }, "errors.fate.challengeTaskDone");
    const b = roll(1, "crafts", 0, [2, 2, 3, 3]); // −2 vs 2 → −4 fail
    challenge = rollChallengeTask(challenge, b.input, b.dice);
    const c = roll(2, "will", 4, [1, 3, 3, 3]); // +1 + 4 = 5 vs 2 → +3 style
    challenge = rollChallengeTask(challenge, c.input, c.dice);
    expect(challenge.tasks.map((t) => t.roll?.outcome)).toEqual(["success", "fail", "style"]);
    expect(challengeTally(challenge)).toEqual({
      fail: 1,
      tie: 0,
      success: 1,
      style: 1,
      open: 0,
      leaning: "success",
    });
    const ended = endChallenge(challenge);
    expectRefusal(() => endChallenge(ended), "errors.fate.challengeEnded");
  });

  it("«Призывая Аспект… получить +2… перебросить проверку» works on a task's roll too", () => {
    let challenge = startChallenge("Climb", parseChallengeTasks("Athletics 3, Lore"));
    const a = roll(0, "athletics", 2, [3, 3, 3, 3]); // 0 + 2 = 2 vs 3 → fail
    challenge = rollChallengeTask(challenge, a.input, a.dice);
    expect(challenge.tasks[0]!.roll!.outcome).toBe("fail");
    const invoked = {
      aspect: "Sure-footed",
      invokerId: "a",
      mode: "plus2" as const,
      paidWith: "fate-point" as const,
    };
    challenge = invokeOnChallengeTask(challenge, 0, invoked, scriptedDice([]));
    expect(challenge.tasks[0]!.roll).toMatchObject({ result: 4, shifts: 1, outcome: "success" });
    expectRefusal(
      () => invokeOnChallengeTask(challenge, 0, invoked, scriptedDice([])),
      "errors.fate.aspectAlreadyInvoked",
    );
    challenge = invokeOnChallengeTask(
      challenge,
      0,
      { ...invoked, mode: "reroll", aspect: "Rope" },
      scriptedDice([1, 1, 3, 3]),
    );
    expect(challenge.tasks[0]!.roll).toMatchObject({ result: 6, shifts: 3, outcome: "style" });
    expect(challenge.tasks[0]!.roll!.rerolledDice).toHaveLength(1);
    expectRefusal(
      () => invokeOnChallengeTask(challenge, 1, invoked, scriptedDice([])),
      "errors.fate.challengeTaskNotRolled",
    );
    expect(latestTaskRolledBy(challenge, ["a"])).toBe(0);
    expect(latestTaskRolledBy(challenge, ["b"])).toBeNull();
  });

  it("finds a task by number, name or skill", () => {
    const challenge = startChallenge("Storm", parseChallengeTasks("Riding, Keep the cargo dry"));
    expect(findChallengeTask(challenge, "2")).toBe(1);
    expect(findChallengeTask(challenge, "keep the cargo dry")).toBe(1);
    expect(findChallengeTask(challenge, "Наездничество")).toBe(0);
    expectRefusal(() => findChallengeTask(challenge, "Swim"), "errors.fate.unknownChallengeTask");
  });

  it("property: however the rolls go, no skill is used twice and the tally counts every rolled task once", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            task: fc.integer({ min: 0, max: 3 }),
            skill: fc.constantFrom(...SKILL_KEYS.slice(0, 5)),
            faces: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 4, maxLength: 4 }),
          }),
          { maxLength: 10 },
        ),
        (attempts) => {
          let challenge = startChallenge("P", parseChallengeTasks("A, B, C, D"));
          for (const attempt of attempts) {
            try {
              challenge = rollChallengeTask(
                challenge,
                {
                  task: attempt.task,
                  characterId: "x",
                  characterName: "X",
                  skill: attempt.skill,
                  skillValue: 1,
                },
                scriptedDice(attempt.faces),
              );
            } catch {
              // refused: nothing changed
            }
          }
          const skills = challenge.tasks.flatMap((t) => (t.roll ? [t.roll.skill] : []));
          expect(new Set(skills).size).toBe(skills.length);
          const tally = challengeTally(challenge);
          expect(tally.fail + tally.tie + tally.success + tally.style + tally.open).toBe(4);
        },
      ),
    );
  });
});
