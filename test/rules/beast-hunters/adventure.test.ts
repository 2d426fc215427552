import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  afterFatalChoice,
  asAdventure,
  challengeVpRemainder,
  endAdventure,
  finalStanding,
  newAdventure,
  splitChallengeVp,
  stillPlaying,
} from "../../../src/rules/beast-hunters/index.js";

describe("adventures that end", () => {
  it("«персонаж проигрывает приключение, но спасается живым»: out of the adventure, the others play on", () => {
    const adventure = afterFatalChoice(newAdventure(), "yak", "survive", "physical");
    expect(stillPlaying(adventure, "yak")).toBe(false);
    expect(stillPlaying(adventure, "borak")).toBe(true);
    expect(adventure.ended).toBeNull();
    expect(finalStanding(adventure, "yak")).toBe("lost");
  });

  it("«автоматически выигрывает и испытание, и приключение, но навсегда изымается из игры»: the adventure ends, won", () => {
    const lost = afterFatalChoice(newAdventure(), "yak", "survive", "physical");
    const adventure = afterFatalChoice(lost, "borak", "retire", "social");
    expect(adventure.ended).toMatchObject({ reason: "sacrifice", won: true });
    expect(finalStanding(adventure, "borak")).toBe("retired");
    expect(finalStanding(adventure, "yak")).toBe("lost");
    // A hunter still playing when the adventure is won has won it too.
    expect(finalStanding(adventure, "dakh")).toBe("won");
    expect(stillPlaying(adventure, "dakh")).toBe(false);
  });

  it("fatal physical damage taken to win: «смертельно ранен и умирает после завершения приключения»", () => {
    expect(finalStanding(afterFatalChoice(newAdventure(), "yak", "retire", "physical"), "yak")).toBe("dead");
  });

  it("«Когда резерв опустеет, приключение закончится»; a lost climax is a lost adventure", () => {
    expect(finalStanding(endAdventure(newAdventure(), "reserve", true), "yak")).toBe("won");
    expect(finalStanding(endAdventure(newAdventure(), "climax", false), "yak")).toBe("lost");
    const ended = endAdventure(newAdventure(), "reserve", true);
    expect(endAdventure(ended, "climax", false).ended).toEqual(ended.ended);
  });

  it("reads an empty stored object as an adventure just begun", () => {
    expect(asAdventure({})).toEqual(newAdventure());
    expect(asAdventure(null)).toEqual(newAdventure());
  });
});

describe("victory points with several hunters ([decision]: the seed is written for one hunter)", () => {
  it("an 8-point challenge won by three hunters: 3 + 3 + 2, the remainder to the defeating strike", () => {
    expect(splitChallengeVp(8, ["yak", "borak", "dakh"], "dakh")).toEqual({ yak: 2, borak: 2, dakh: 4 });
    expect(splitChallengeVp(8, ["yak", "borak", "dakh"], null)).toEqual({ yak: 4, borak: 2, dakh: 2 });
    expect(splitChallengeVp(7, ["yak"], "yak")).toEqual({ yak: 7 });
    expect(splitChallengeVp(7, [], null)).toEqual({});
  });

  it("names who gets the remainder, and how much: the striker standing, else the first hunter standing; none when it divides", () => {
    expect(challengeVpRemainder(8, ["yak", "borak", "dakh"], "dakh")).toEqual({ to: "dakh", points: 2 });
    expect(challengeVpRemainder(8, ["yak", "borak", "dakh"], null)).toEqual({ to: "yak", points: 2 });
    // The striker fell after the strike: the first standing hunter gets it, as the split gives it.
    expect(challengeVpRemainder(3, ["yak", "borak"], "dakh")).toEqual({ to: "yak", points: 1 });
    expect(splitChallengeVp(3, ["yak", "borak"], "dakh")).toEqual({ yak: 2, borak: 1 });
    expect(challengeVpRemainder(6, ["yak", "borak", "dakh"], "dakh")).toBeNull();
    expect(challengeVpRemainder(7, [], null)).toBeNull();
  });

  it("the split always sums to the rating and differs by at most the remainder", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        fc.option(fc.nat(10)),
        (rating, standing, strikerIndex) => {
          const striker = strikerIndex === null ? null : (standing[strikerIndex] ?? null);
          const vp = splitChallengeVp(rating, standing, striker);
          const values = Object.values(vp);
          expect(values.reduce((a, b) => a + b, 0)).toBe(rating);
          expect(Object.keys(vp).sort()).toEqual([...standing].sort());
          const share = Math.floor(rating / standing.length);
          for (const v of values) expect(v).toBeGreaterThanOrEqual(share);
          if (striker !== null) expect(vp[striker]).toBe(Math.max(...values));
        },
      ),
    );
  });
});
