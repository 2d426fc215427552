import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contestExchange, recordExchange, startContest } from "../../../src/rules/fate/contest.js";
import { expectRefusal } from "./refusal.js";

describe("a contest exchange (docs/rules/fate.md §3.4)", () => {
  it("worked example: a lone success with style wins 2 victories", () => {
    const exchange = contestExchange([
      { characterId: "a", result: 5 },
      { characterId: "b", result: 2 },
    ]);
    expect(exchange).toEqual({ winnerId: "a", victories: 2, twist: false, margin: 3 });
  });

  it("the highest result wins 1 victory", () => {
    expect(
      contestExchange([
        { characterId: "a", result: 3 },
        { characterId: "b", result: 1 },
        { characterId: "c", result: -1 },
      ]),
    ).toMatchObject({ winnerId: "a", victories: 1 });
  });

  it("a tie for highest gives no victory and a twist", () => {
    expect(
      contestExchange([
        { characterId: "a", result: 3 },
        { characterId: "b", result: 3 },
        { characterId: "c", result: 0 },
      ]),
    ).toEqual({ winnerId: null, victories: 0, twist: true, margin: 0 });
  });

  it("against a difficulty: style only if nobody else got it too", () => {
    const passive = { passive: 1 };
    expect(
      contestExchange(
        [
          { characterId: "a", result: 5 },
          { characterId: "b", result: 4 },
        ],
        passive,
      ),
    ).toMatchObject({ winnerId: "a", victories: 1 });
    expect(
      contestExchange(
        [
          { characterId: "a", result: 5 },
          { characterId: "b", result: 2 },
        ],
        passive,
      ),
    ).toMatchObject({ winnerId: "a", victories: 2 });
  });

  it("a failed advantage forfeits the roll; a lone roller wins one victory", () => {
    expect(
      contestExchange([
        { characterId: "a", result: null },
        { characterId: "b", result: -2 },
      ]),
    ).toEqual({ winnerId: "b", victories: 1, twist: false, margin: null });
    expect(contestExchange([{ characterId: "a", result: null }])).toMatchObject({
      winnerId: null,
      twist: false,
    });
  });

  it("property: at most one winner, with 0–2 victories, and a twist exactly on a tie for highest", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -6, max: 12 }), { minLength: 2, maxLength: 5 }), (results) => {
        const rolls = results.map((result, i) => ({ characterId: `p${i}`, result }));
        const exchange = contestExchange(rolls);
        const [top, second] = [...results].sort((x, y) => y - x) as [number, number];
        const tie = top === second;
        expect(exchange.twist).toBe(tie);
        expect(exchange.winnerId === null).toBe(tie);
        const expectedVictories = tie ? 0 : top - second >= 3 ? 2 : 1;
        expect(exchange.victories).toBe(expectedVictories);
      }),
    );
  });
});

describe("a contest", () => {
  it("the first to 3 victories wins", () => {
    let contest = startContest("Race to the gate", ["a", "b"]);
    const play = (a: number, b: number) => {
      contest = recordExchange(contest, [
        { characterId: "a", result: a },
        { characterId: "b", result: b },
      ]).contest;
    };
    play(3, 1);
    play(1, 1);
    play(0, 2);
    expect(contest.victories).toEqual({ a: 1, b: 1 });
    expect(contest.status).toBe("open");
    play(6, 2);
    expect(contest).toMatchObject({ victories: { a: 3, b: 1 }, winnerId: "a", status: "ended" });
    expect(contest.exchanges.map((e) => e.twist)).toEqual([false, true, false, false]);
    expectRefusal(
      () =>
        recordExchange(contest, [
          { characterId: "a", result: 1 },
          { characterId: "b", result: 0 },
        ]),
      "errors.fate.contestEnded",
    );
  });

  it("needs two participants and every participant's roll", () => {
    expectRefusal(() => startContest("Solo", ["a", "a"]), "errors.fate.contestNeedsTwo");
    const contest = startContest("Debate", ["a", "b"]);
    expectRefusal(
      () => recordExchange(contest, [{ characterId: "a", result: 1 }]),
      "errors.fate.contestRollsMissing",
      {
        count: 1,
      },
    );
    expectRefusal(
      () =>
        recordExchange(contest, [
          { characterId: "a", result: 1 },
          { characterId: "z", result: 1 },
        ]),
      "errors.fate.notInContest",
    );
  });
});
