import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scriptedDice, seededDice } from "../../../src/rules/dice.js";
import {
  chooseFate,
  DARK_FATES,
  dealFates,
  fateVisibleTo,
  keepFate,
  openFateDeck,
  redrawFate,
  revealFate,
  undealtFates,
} from "../../../src/rules/mountain-witch/index.js";
import { expectRefusal } from "./helpers.js";

describe("dark fates (docs/rules/mountain-witch.md §1.5)", () => {
  it("deals without repeats, one redraw from the rest, then shows the undealt", () => {
    let s = openFateDeck();
    s = dealFates(s, [1, 2, 3], scriptedDice([2, 5, 1]));
    expect(s.hands.map((h) => h.fate)).toEqual(["oaths-of-the-past", "worst-fear", "tragic-love"]);
    expect(s.deck).toEqual(["revenge", "true-motives", "unholy-pact"]);
    // Character 1 puts "oaths" back and draws from the rest: "oaths" is not among them.
    s = redrawFate(s, 1, scriptedDice([3]));
    expect(s.hands[0]).toMatchObject({ fate: "unholy-pact", redrawn: true, final: true });
    expect(s.deck).toEqual(["revenge", "true-motives", "oaths-of-the-past"]);
    expectRefusal(() => redrawFate(s, 1, scriptedDice([1])), "errors.mw.fateAlreadyRedrawn");
    expectRefusal(() => undealtFates(s, [1, 2, 3]), "errors.mw.fatesNotFinal");
    s = keepFate(keepFate(s, 2), 3);
    expectRefusal(() => redrawFate(s, 2, scriptedDice([1])), "errors.mw.fateFinal");
    expect(undealtFates(s, [1, 2, 3])).toEqual(["oaths-of-the-past", "revenge", "true-motives"]);
    expect(JSON.parse(JSON.stringify(s))).toStrictEqual(s);
  });

  it("a fate is seen only by its owner (not the GM) until the owner reveals it", () => {
    let s = dealFates(openFateDeck(), [1, 2], scriptedDice([1, 1]));
    expect(fateVisibleTo(s, 1, 1)).toBe("tragic-love");
    expect(fateVisibleTo(s, 1, 2)).toBeNull();
    expect(fateVisibleTo(s, 1, null)).toBeNull();
    s = revealFate(s, 1);
    expect(fateVisibleTo(s, 1, null)).toBe("tragic-love");
    expectRefusal(() => revealFate(s, 1), "errors.mw.fateAlreadyRevealed");
    expectRefusal(() => revealFate(s, 5), "errors.mw.fateNotDealt");
    expectRefusal(() => dealFates(s, [2], scriptedDice([1])), "errors.mw.fateAlreadyDealt");
  });

  it("the deck runs out after six", () => {
    const s = dealFates(openFateDeck(), [1, 2, 3, 4, 5, 6], seededDice(7));
    expectRefusal(() => dealFates(s, [7], seededDice(7)), "errors.mw.fateDeckEmpty");
    expectRefusal(() => redrawFate(s, 1, seededDice(7)), "errors.mw.fateDeckEmpty");
  });

  it("choose mode: players pick, repeats allowed, no deck", () => {
    let s = openFateDeck("choose");
    s = chooseFate(s, 1, "revenge");
    s = chooseFate(s, 2, "revenge");
    expect(s.hands.map((h) => [h.fate, h.final])).toEqual([
      ["revenge", true],
      ["revenge", true],
    ]);
    expectRefusal(() => dealFates(s, [3], seededDice(1)), "errors.mw.fateChooseMode");
    expectRefusal(() => undealtFates(s, [1, 2]), "errors.mw.fateChooseMode");
    expectRefusal(() => chooseFate(openFateDeck(), 1, "revenge"), "errors.mw.fateDealMode");
    expectRefusal(() => chooseFate(s, 1, "boredom" as never), "errors.mw.fateUnknown");
  });

  it("property: dealt fates never repeat, a redraw never gives back the card put back, nothing is lost", () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        (seed, players, redraws) => {
          const dice = seededDice(seed);
          const ids = Array.from({ length: players }, (_, i) => i + 1);
          let s = dealFates(openFateDeck(), ids, dice);
          for (const id of ids) {
            const before = s.hands.find((h) => h.characterId === id)!.fate;
            if (redraws[id - 1]) {
              s = redrawFate(s, id, dice);
              expect(s.hands.find((h) => h.characterId === id)!.fate).not.toBe(before);
            } else {
              s = keepFate(s, id);
            }
          }
          const held = s.hands.map((h) => h.fate);
          expect(new Set(held).size).toBe(held.length);
          expect([...held, ...s.deck].sort()).toEqual([...DARK_FATES].sort());
          expect(undealtFates(s, ids)).toHaveLength(6 - players);
        },
      ),
    );
  });
});
