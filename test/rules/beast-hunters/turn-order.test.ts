import { describe, expect, it } from "vitest";
import {
  type ChallengeState,
  type HunterInput,
  newReserve,
  type ObstacleInput,
  startChallenge,
} from "../../../src/rules/beast-hunters/index.js";
import { act, yakhara } from "./helpers.js";

/** `count` hunters with physical initiative 8, 6, 4, 2 (so the order among them is fixed). */
function hunters(count: number): HunterInput[] {
  return Array.from({ length: count }, (_, i) => {
    const sheet = yakhara();
    return {
      characterId: `h${i + 1}`,
      name: `Hunter ${i + 1}`,
      sheet: { ...sheet, initiative: { ...sheet.initiative, physical: 8 - 2 * i } },
    };
  });
}

function obstacles(count: number, initiative: number): ObstacleInput[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `Beast ${i + 1}`,
    traits: [],
    resources: [],
    initiative,
  }));
}

function start(h: number, o: number, obstacleInitiative = 0): ChallengeState {
  return startChallenge({
    sphere: "physical",
    phase: 2,
    obstacles: obstacles(o, obstacleInitiative),
    hunters: hunters(h),
    reserve: newReserve(100, 20),
  }).state;
}

/** The turns of `rounds` whole rounds, every participant passing its turn. */
function turns(state: ChallengeState, count: number): string[] {
  const seen: string[] = [];
  let s = state;
  for (let i = 0; i < count; i++) {
    seen.push(s.turn);
    s = act(s, { type: "passTurn", actor: s.turn }).state;
  }
  return seen;
}

describe("«После этого игроки ходят по очереди» with several hunters: rounds", () => {
  const cases = [1, 2, 3, 4].flatMap((h) => [1, 2].map((o) => ({ h, o })));

  it.each(cases)(
    "«Каждый игрок делает в свой ход одно действие»: $h hunter(s) against $o obstacle(s) — in every round each hunter acts once and each obstacle once",
    ({ h, o }) => {
      const size = h + o;
      for (const obstacleInitiative of [0, 10]) {
        const state = start(h, o, obstacleInitiative);
        const seen = turns(state, size * 3);
        for (let round = 0; round < 3; round++) {
          const inRound = seen.slice(round * size, (round + 1) * size);
          // Everyone standing exactly once per round, so no side gets more turns than it has members.
          expect(new Set(inRound).size, `round ${round + 1}: ${inRound.join(" ")}`).toBe(size);
          // The sides alternate while both have someone left to act this round.
          const sides = inRound.map((id) => (id.startsWith("h") ? "H" : "O"));
          const alternating = 2 * Math.min(h, o);
          for (let i = 1; i < alternating; i++) expect(sides[i]).not.toBe(sides[i - 1]);
        }
        // The highest initiative opens every round.
        const first = obstacleInitiative > 8 ? "obstacle" : "h1";
        expect(seen.filter((_, i) => i % size === 0)).toEqual([first, first, first]);
      }
    },
  );

  it("the seed's duel: one hunter and one obstacle simply alternate", () => {
    expect(turns(start(1, 1), 4)).toEqual(["h1", "obstacle", "h1", "obstacle"]);
  });

  it("three hunters against one spirit: the spirit acts once a round, not after every hunter", () => {
    expect(turns(start(3, 1), 8)).toEqual(["h1", "obstacle", "h2", "h3", "h1", "obstacle", "h2", "h3"]);
  });

  it("a hunter who gives up on their turn hands it to the next hunter still to act this round", () => {
    let state = start(3, 1);
    state = act(state, { type: "passTurn", actor: "h1" }).state;
    state = act(state, { type: "passTurn", actor: "obstacle" }).state;
    expect(state.turn).toBe("h2");
    state = act(state, { type: "giveUp", actor: "h2" }).state;
    expect(state.turn).toBe("h3");
    // The next round has h1, the obstacle and h3.
    expect(turns(state, 4)).toEqual(["h3", "h1", "obstacle", "h3"]);
  });
});
