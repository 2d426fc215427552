import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scriptedDice, seededDice } from "../../../src/rules/dice.js";
import {
  acceptDuel,
  challengeDuel,
  type DuelState,
  declineDuel,
  duelTrust,
  duelVisibleTo,
  nextDuelRound,
  rollNext,
  spendDuelDamage,
  strike,
} from "../../../src/rules/mountain-witch/index.js";
import { expectRefusal, link, npc, pc, wound } from "./helpers.js";

function stored(state: DuelState): DuelState {
  const copy = JSON.parse(JSON.stringify(state)) as DuelState;
  expect(copy).toStrictEqual(state);
  return copy;
}

const kenji = pc(1, "Kenji");
const ayame = pc(2, "Ayame");

describe("the duel (docs/rules/mountain-witch.md §1.4)", () => {
  it("secret dice: each duellist sees only their own until the reveal; nobody else sees any", () => {
    let s = challengeDuel({ challenger: kenji, opponent: ayame });
    s = stored(acceptDuel(s, scriptedDice([3, 4])));
    expect(duelVisibleTo(s, "user-1")).toMatchObject({
      you: "a",
      a: { dice: [3] },
      b: { dice: null, diceCount: 1 },
    });
    expect(duelVisibleTo(s, "user-2")).toMatchObject({ you: "b", a: { dice: null }, b: { dice: [4] } });
    const gm = duelVisibleTo(s, "gm-user");
    expect(gm).toMatchObject({ you: null, a: { dice: null }, b: { dice: null }, result: null });
    // Choosing to roll on is secret too; only the chooser sees that they are waiting.
    s = rollNext(s, "a", scriptedDice([]));
    expect(duelVisibleTo(s, "user-1").a.waiting).toBe(true);
    expect(duelVisibleTo(s, "user-2").a.waiting).toBeNull();
    expect(JSON.stringify(duelVisibleTo(s, "user-2"))).not.toContain('"dice":[3]');
  });

  it("a die more only when both choose to roll on; after the third die both strike automatically", () => {
    let s = acceptDuel(challengeDuel({ challenger: kenji, opponent: ayame }), scriptedDice([3, 4]));
    s = rollNext(s, "a", scriptedDice([]));
    expectRefusal(() => rollNext(s, "a", scriptedDice([])), "errors.mw.duelWaiting");
    s = rollNext(s, "b", scriptedDice([5, 2]));
    expect([s.a.dice, s.b.dice]).toEqual([
      [3, 5],
      [4, 2],
    ]);
    s = rollNext(s, "b", scriptedDice([]));
    s = stored(rollNext(s, "a", scriptedDice([1, 6])));
    expect(s.phase).toBe("revealed");
    expect(s.result).toMatchObject({
      struckBy: "auto",
      a: { dice: [3, 5, 1], total: 9 },
      b: { dice: [4, 2, 6], total: 12 },
      winner: "b",
      degree: "normal",
      narratorId: 2,
    });
    expect(duelVisibleTo(s, "gm-user").a.dice).toEqual([3, 5, 1]);
    expectRefusal(() => rollNext(s, "a", scriptedDice([])), "errors.mw.duelAlreadyRevealed");
    expectRefusal(() => strike(s, "b", scriptedDice([])), "errors.mw.duelAlreadyRevealed");
  });

  it("a strike reveals at once, even from a duellist who had chosen to roll on", () => {
    let s = acceptDuel(challengeDuel({ challenger: kenji, opponent: ayame }), scriptedDice([6, 1]));
    s = rollNext(s, "b", scriptedDice([]));
    s = strike(s, "a", scriptedDice([]));
    expect(s.result).toMatchObject({
      struckBy: "a",
      a: { total: 6 },
      b: { total: 1 },
      degree: "double",
      margin: 5,
    });
  });

  it("damage penalties apply once to each sum, and wounds end with the roll", () => {
    const w1 = wound(2);
    const w2 = wound(2, "chapter");
    let s = acceptDuel(challengeDuel({ challenger: kenji, opponent: ayame }), scriptedDice([2, 2]), {
      2: [w1, w2],
    });
    s = rollNext(rollNext(s, "a", scriptedDice([])), "b", scriptedDice([2, 2]));
    s = strike(s, "b", scriptedDice([]));
    expect(s.result!.b).toMatchObject({ diceTotal: 4, penalty: 2, total: 2 });
    expect(s.result).toMatchObject({ winner: "a", degree: "mixed", expiredDamageIds: [w1.id] });
  });

  it("the winner spends the round's successes once; a lethal duel's taking out is death and ends it", () => {
    let s = acceptDuel(challengeDuel({ challenger: kenji, opponent: ayame }), scriptedDice([6, 1]));
    s = strike(s, "b", scriptedDice([]));
    expectRefusal(
      () => spendDuelDamage(s, { attackerSide: "b", quality: "partial" }),
      "errors.mw.duelDamageWinnerOnly",
    );
    const { state, damage } = spendDuelDamage(s, { attackerSide: "a", quality: "double" });
    expect(damage).toEqual({
      attackerSide: "a",
      targetId: 2,
      quality: "double",
      duration: "taken-out",
      condition: null,
      takenOut: "dead",
    });
    expectRefusal(
      () => spendDuelDamage(state, { attackerSide: "a", quality: "partial" }),
      "errors.mw.alreadyTakenOut",
    );
    expectRefusal(() => nextDuelRound(state, scriptedDice([1, 1])), "errors.mw.duelOver");
  });

  it("another round after a reveal; a non-lethal duel takes out without killing", () => {
    let s = acceptDuel(
      challengeDuel({ challenger: kenji, opponent: ayame, lethal: false }),
      scriptedDice([4, 2]),
    );
    s = strike(s, "a", scriptedDice([]));
    const hit = spendDuelDamage(s, { attackerSide: "a", quality: "normal" });
    expect(hit.damage.duration).toBe("chapter");
    s = nextDuelRound(hit.state, scriptedDice([1, 6]), { 2: [{ ...wound(2, "chapter") }] });
    expect(s).toMatchObject({ round: 2, phase: "rolling", result: null, b: { penalty: 1, dice: [6] } });
    s = strike(s, "b", scriptedDice([]));
    expectRefusal(
      () => spendDuelDamage(s, { attackerSide: "b", quality: "normal", kill: true }),
      "errors.mw.killNotDeclared",
    );
  });

  it("duellists never use trust; dead characters' players still may", () => {
    let s = acceptDuel(challengeDuel({ challenger: kenji, opponent: ayame }), scriptedDice([3, 3]));
    const links = [link(1, 2, 3), link(2, 3, 1), link(1, 4, 2), link(1, 3, 1)];
    expectRefusal(
      () => duelTrust(s, { spender: ayame, use: "betray", targetId: 1, points: 1 }, links),
      "errors.mw.duellistCannotUseTrust",
    );
    expectRefusal(
      () => duelTrust(s, { spender: pc(3), use: "help", targetId: 2 }, links),
      "errors.mw.duelTrustOnlyDead",
    );
    const ghost = pc(3, "Ghost", "dead");
    const helped = duelTrust(s, { spender: ghost, use: "help", targetId: 2 }, links);
    expect(helped.spent).toMatchObject({ use: "help", giverId: 2, holderId: 3, after: 0 });
    s = helped.state;
    s = duelTrust(s, { spender: pc(4, "Shade", "dead"), use: "betray", targetId: 1, points: 2 }, links).state;
    expectRefusal(
      () => duelTrust(s, { spender: ghost, use: "narration", targetId: 1 }, links),
      "errors.mw.duelNotRevealed",
    );
    s = strike(s, "a", scriptedDice([4]));
    expect(s.result!.b).toMatchObject({ help: [{ characterId: 3, die: 4 }], betrayal: 2, total: 9 });
    expect(s.result).toMatchObject({ winner: "b", degree: "double" });
    const bought = duelTrust(s, { spender: ghost, use: "narration", targetId: 1 }, links);
    expect(bought.state.result).toMatchObject({ narratorId: 3, narratorBought: true });
    expectRefusal(
      () => duelTrust(bought.state, { spender: ghost, use: "narration", targetId: 1 }, [link(1, 3, 1)]),
      "errors.mw.narrationAlreadyBought",
    );
    expectRefusal(
      () => duelTrust(s, { spender: ghost, use: "narration", targetId: 7 }, links),
      "errors.mw.notInDuel",
    );
  });

  it("refusals around the challenge", () => {
    expectRefusal(() => challengeDuel({ challenger: kenji, opponent: kenji }), "errors.mw.duelSelf");
    expectRefusal(
      () => challengeDuel({ challenger: kenji, opponent: npc(10, "strong") }),
      "errors.mw.duelOnlyPlayerCharacters",
    );
    expectRefusal(
      () => challengeDuel({ challenger: kenji, opponent: pc(3, "Ghost", "dead") }),
      "errors.mw.duelNeedsActive",
      { name: "Ghost" },
    );
    const s = challengeDuel({ challenger: kenji, opponent: ayame });
    expectRefusal(() => rollNext(s, "a", scriptedDice([])), "errors.mw.duelNotStarted");
    expectRefusal(
      () => spendDuelDamage(s, { attackerSide: "a", quality: "partial" }),
      "errors.mw.duelNotRevealed",
    );
    const declined = declineDuel(s);
    expect(declined.phase).toBe("declined");
    expectRefusal(() => acceptDuel(declined, scriptedDice([1, 1])), "errors.mw.duelNotChallenged");
  });

  it("property: every die is 1–6, at most three per duellist, and the degree is antisymmetric", () => {
    const choice = fc.record({ side: fc.constantFrom<"a" | "b">("a", "b"), strike: fc.boolean() });
    fc.assert(
      fc.property(fc.integer(), fc.array(choice, { maxLength: 10 }), (seed, choices) => {
        const dice = seededDice(seed);
        let s = acceptDuel(challengeDuel({ challenger: kenji, opponent: ayame }), dice);
        for (const c of choices) {
          if (s.phase !== "rolling") break;
          if (c.strike) s = strike(s, c.side, dice);
          else if (!s[c.side].wantsNext) s = rollNext(s, c.side, dice);
        }
        for (const d of [...s.a.dice, ...s.b.dice])
          expect(d >= 1 && d <= 6 && Number.isInteger(d)).toBe(true);
        expect(s.a.dice.length).toBe(s.b.dice.length);
        expect(s.a.dice.length).toBeLessThanOrEqual(3);
        if (s.result) {
          expect(s.result.margin).toBe(Math.abs(s.result.a.total - s.result.b.total));
          if (s.result.winner !== null)
            expect(s.result[s.result.winner].total).toBeGreaterThan(
              s.result[s.result.winner === "a" ? "b" : "a"].total,
            );
        }
      }),
    );
  });
});
