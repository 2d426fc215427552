import { describe, expect, it } from "vitest";
import {
  challengeTally,
  endChallenge,
  recordChallengeStep,
  startChallenge,
} from "../../../src/rules/fate/challenge.js";
import { expectRefusal } from "./refusal.js";

describe("a challenge (docs/rules/fate.md §3.4)", () => {
  it("is a series of overcome rolls, each with a different skill, tallied together", () => {
    let challenge = startChallenge("Hold the burning bridge");
    expect(challengeTally(challenge).leaning).toBeNull();
    challenge = recordChallengeStep(challenge, { characterId: "a", skill: "athletics", shifts: 1 });
    challenge = recordChallengeStep(challenge, { characterId: "b", skill: "crafts", shifts: -2 });
    challenge = recordChallengeStep(challenge, { characterId: "a", skill: "will", shifts: 3 });
    expect(challenge.steps.map((s) => s.outcome)).toEqual(["success", "fail", "style"]);
    expect(challengeTally(challenge)).toEqual({ fail: 1, tie: 0, success: 1, style: 1, leaning: "success" });
    expectRefusal(
      () => recordChallengeStep(challenge, { characterId: "b", skill: "athletics", shifts: 0 }),
      "errors.fate.skillUsedInChallenge",
      { skill: "athletics" },
    );
  });

  it("leans to fail or mixed, and ends", () => {
    let challenge = startChallenge("Storm");
    challenge = recordChallengeStep(challenge, { characterId: "a", skill: "riding", shifts: -1 });
    expect(challengeTally(challenge).leaning).toBe("fail");
    challenge = recordChallengeStep(challenge, { characterId: "a", skill: "notice", shifts: 2 });
    expect(challengeTally(challenge).leaning).toBe("mixed");
    const ended = endChallenge(challenge);
    expectRefusal(
      () => recordChallengeStep(ended, { characterId: "a", skill: "lore", shifts: 1 }),
      "errors.fate.challengeEnded",
    );
  });
});
