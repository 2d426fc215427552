import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addObstacle,
  advantageOf,
  newHunterSheet,
  newReserve,
  nothingPlayedYet,
  startChallenge,
} from "../../../src/rules/beast-hunters/index.js";
import { act, expectRefusal, yakhara } from "./helpers.js";

const YAK = "yak";
const KOR = "kor";

function twoHunters(reserveTotal = 30, ceiling = 10) {
  return startChallenge({
    name: "Bandits",
    sphere: "physical",
    phase: 2,
    hunters: [
      { characterId: YAK, name: "Якхара", sheet: yakhara() },
      {
        characterId: KOR,
        name: "Kor",
        sheet: {
          ...newHunterSheet(),
          traits: [{ name: "Big", sphere: "physical", value: 2 }],
          initiative: { physical: 0, social: 1, mental: 1 },
        },
      },
    ],
    obstacles: [{ name: "Bandits", traits: [{ name: "Hungry", value: 4 }], resources: [], initiative: 0 }],
    reserve: newReserve(reserveTotal, ceiling),
  });
}

describe("several obstacles", () => {
  it("a second obstacle bought before play adds its rating within the ceiling and costs the difference", () => {
    const started = twoHunters();
    // Bandits: Hungry 4 (2) + boxes (1) = 3, ×1 in phase 2.
    expect(started.rating).toBe(3);
    const wolf = addObstacle(
      started.state,
      { name: "Wolf", traits: [], resources: [{ name: "Fangs", kind: "attack", value: 2 }], initiative: 4 },
      started.reserve.reserve,
    );
    // Wolf: Fangs A2 (1) + initiative 4 (2) + boxes (1) = 4; the rating is now 7, 4 more paid.
    expect(wolf.state.rating).toBe(7);
    expect(wolf.extraCost).toBe(4);
    expect(wolf.reserve.after).toBe(30 - 3 - 4);
    // Turn order drawn again: Wolf (4) before Якхара (3).
    expect(wolf.state.participants.map((p) => p.id)).toEqual(["obstacle-2", YAK, KOR, "obstacle"]);
    expect(wolf.state.turn).toBe("obstacle-2");
    expectRefusal(
      () =>
        addObstacle(
          wolf.state,
          { name: "Bear", traits: [{ name: "Huge", value: 8 }], resources: [], initiative: 0 },
          wolf.reserve.reserve,
        ),
      "errors.bh.overCeiling",
      { rating: 12, ceiling: 10 },
    );
  });

  it("no obstacle once play has begun", () => {
    const started = twoHunters();
    const played = act(started.state, {
      type: "activate",
      actor: YAK,
      trait: "Проницательность",
      as: "attack",
    }).state;
    expect(nothingPlayedYet(played)).toBe(false);
    expectRefusal(
      () =>
        addObstacle(
          played,
          { name: "Wolf", traits: [], resources: [], initiative: 0 },
          started.reserve.reserve,
        ),
      "errors.bh.obstacleAfterPlay",
    );
  });

  it("«Переключиться на другую цель … 11 очков преимущества против цели А превращаются в 6 очков … против цели Б»", () => {
    const started = twoHunters();
    const wolf = addObstacle(
      started.state,
      { name: "Wolf", traits: [], resources: [], initiative: 0 },
      started.reserve.reserve,
    ).state;
    // Якхара (initiative 3) acts first: the GM offers 11 AP against the bandits and she accepts.
    expect(wolf.turn).toBe(YAK);
    let state = act(wolf, { type: "offerAdvantage", points: 11, target: "obstacle" }).state;
    state = act(state, { type: "accept", actor: YAK }).state;
    expect(advantageOf(state, YAK, "obstacle")).toBe(11);
    // The bandits, Kor and the wolf act in turn; then Якхара switches her AP to the wolf.
    expect(state.turn).toBe("obstacle");
    state = act(state, { type: "activate", actor: "obstacle", trait: "Hungry", as: "attack" }).state;
    expect(state.turn).toBe(KOR);
    state = act(state, { type: "activate", actor: KOR, trait: "Big", as: "defence" }).state;
    expect(state.turn).toBe("obstacle-2");
    // The wolf's maneuver against Якхара: 2 vs 20 + 0, nothing gained.
    state = act(state, { type: "maneuver", actor: "obstacle-2", target: YAK }, [1, 1, 10, 10]).state;
    expect(state.turn).toBe(YAK);
    const switched = act(state, { type: "switchTarget", actor: YAK, from: "obstacle", to: "obstacle-2" });
    expect(advantageOf(switched.state, YAK, "obstacle")).toBe(0);
    expect(advantageOf(switched.state, YAK, "obstacle-2")).toBe(6);
  });

  it("property: any added obstacle keeps the rating within the ceiling and the reserve never below 0", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 3, max: 20 }),
        (init, trait, total) => {
          const started = twoHunters(total, 10);
          try {
            const added = addObstacle(
              started.state,
              {
                name: "Wolf",
                traits: trait > 0 ? [{ name: "T", value: trait * 2 }] : [],
                resources: [],
                initiative: init * 2,
              },
              started.reserve.reserve,
            );
            expect(added.state.rating).toBeLessThanOrEqual(10);
            expect(added.reserve.after).toBeGreaterThanOrEqual(0);
            expect(added.state.cost).toBe(added.state.rating);
          } catch {
            // refused: over the ceiling or the reserve
          }
        },
      ),
    );
  });
});
