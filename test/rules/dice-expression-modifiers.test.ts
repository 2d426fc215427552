import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { catalogues, t } from "../../src/i18n/index.js";
import { type DiceSource, seededDice } from "../../src/rules/dice.js";
import {
  canonical,
  DICE_LIMITS,
  parseDiceExpression,
  rollDiceExpression,
  rolledDice,
} from "../../src/rules/dice-expression.js";
import { DomainError } from "../../src/rules/errors.js";
import { firstDice, plainTable, refusal, roll } from "./dice-helpers.js";

describe("exploding dice: 4d6! — a maximum adds another die", () => {
  it("a 6 rolls one more die, and a 6 on that one rolls another", () => {
    const result = roll("4d6!", [6, 6, 1, 2, 3, 4]);
    const term = firstDice(result);
    expect(term.dice.map((d) => [d.face, d.exploded ?? false])).toEqual([
      [6, false],
      [6, true],
      [1, true],
      [2, false],
      [3, false],
      [4, false],
    ]);
    expect(result.rolls[0]!.total).toBe(22);
    expect(result.expression).toBe("4d6!");
  });

  it("never rolls more than 100 extra dice in a term, even when every die is a maximum", () => {
    const always = (face: (sides: number) => number): DiceSource & { count: () => number } => {
      let n = 0;
      return {
        roll: (sides) => {
          n += 1;
          return face(sides);
        },
        count: () => n,
      };
    };
    const dice = always((sides) => sides);
    const result = rollDiceExpression(parseDiceExpression("3d2!", plainTable), dice);
    expect(dice.count()).toBe(3 + DICE_LIMITS.maxExplodedPerTerm);
    expect(result.rolls[0]!.total).toBe(2 * 103);
    expect(result.maxTotal).toBe(2 * 103);
  });
});

describe("rerolls: 4d6r1 — results ≤ 1 are rolled again, once", () => {
  it("a 1 is rolled again and struck through; a second 1 stays", () => {
    const result = roll("4d6r1", [1, 1, 5, 1, 4, 3]);
    const term = firstDice(result);
    expect(term.dice.map((d) => [d.face, d.kept])).toEqual([
      [1, false],
      [1, true],
      [5, true],
      [1, false],
      [4, true],
      [3, true],
    ]);
    expect(result.rolls[0]!.total).toBe(13);
  });

  it("Russian notation: 4к6п1 and r<3", () => {
    expect(canonical(parseDiceExpression("4к6п1", plainTable))).toBe("4d6r1");
    expect(canonical(parseDiceExpression("4d6r<3", plainTable))).toBe("4d6r<3");
    expect(canonical(parseDiceExpression("4d6 r<=2", plainTable))).toBe("4d6r2");
  });

  it("keep rules choose among the dice that stand: 4d6r1kh3", () => {
    const result = roll("4d6r1kh3", [1, 6, 2, 5, 3]);
    expect(firstDice(result).dice.map((d) => d.kept)).toEqual([false, true, false, true, true]);
    expect(result.rolls[0]!.total).toBe(14);
  });
});

describe("success counting: 10d10>=7 counts the dice meeting the target", () => {
  it("10d10>=7: the total is the number of dice showing 7 or more", () => {
    const result = roll("10d10>=7", [7, 1, 10, 3, 6, 8, 2, 9, 1, 5]);
    expect(result.rolls[0]!.total).toBe(4);
    expect(
      firstDice(result)
        .dice.filter((d) => d.counts === 1)
        .map((d) => d.face),
    ).toEqual([7, 10, 8, 9]);
    expect([result.minTotal, result.maxTotal]).toEqual([0, 10]);
  });

  it("10d10>=7f1: each 1 takes a success away", () => {
    const result = roll("10d10>=7f1", [7, 1, 10, 3, 6, 8, 2, 9, 1, 5]);
    expect(result.rolls[0]!.total).toBe(2);
    expect([result.minTotal, result.maxTotal]).toEqual([-10, 10]);
    expect(canonical(parseDiceExpression("10к10>=7ф1", plainTable))).toBe("10d10>=7f1");
    expect(canonical(parseDiceExpression("10d10 ≥ 7 f 1", plainTable))).toBe("10d10>=7f1");
  });

  it("exploding successes: 5d10!t8 counts the extra dice too", () => {
    const result = roll("5d10!t8", [10, 8, 1, 2, 3, 4]);
    expect(result.rolls[0]!.total).toBe(2);
    expect(roll("5d10>=8!", [10, 8, 1, 2, 3, 4]).rolls[0]!.total).toBe(2);
  });
});

describe("parentheses, * and / (division rounds down)", () => {
  it("(1d6+2)*2", () => {
    const result = roll("(1d6+2)*2", [3]);
    expect(result.rolls[0]!.total).toBe(10);
    expect(result.expression).toBe("(1d6+2)*2");
    expect([result.minTotal, result.maxTotal]).toEqual([6, 16]);
  });

  it("2d20kh1/2 rounds down", () => {
    expect(roll("2d20kh1/2", [7, 3]).rolls[0]!.total).toBe(3);
    expect(roll("-1d6/2", [3]).rolls[0]!.total).toBe(-1);
    expect(roll("(1d4-3)/2", [2]).rolls[0]!.total).toBe(-1);
  });

  it("multiplication binds tighter than addition, left to right", () => {
    expect(roll("1d6+2*3", [1]).rolls[0]!.total).toBe(7);
    expect(roll("12/1d4*2", [3]).rolls[0]!.total).toBe(8);
    expect(roll("-(1d6+1)", [5]).rolls[0]!.total).toBe(-6);
  });

  it("repeats wrap the whole sum: 3x (1d6+1)*2", () => {
    expect(roll("3x (1d6+1)*2", [1, 2, 3]).rolls.map((r) => r.total)).toEqual([4, 6, 8]);
  });
});

describe("a label after #", () => {
  it("1d20+5 # атака shows «атака» with the roll", () => {
    const expression = parseDiceExpression("1d20+5 # атака", plainTable);
    expect(expression.label).toBe("атака");
    expect(canonical(expression)).toBe("1d20+5 # атака");
    const result = roll("1d20+5 # атака", [12]);
    expect(result.label).toBe("атака");
    expect(result.expression).toBe("1d20+5");
    expect(result.rolls[0]!.total).toBe(17);
  });

  it("an empty label is no label, and a long one is cut", () => {
    expect(parseDiceExpression("d6 #   ", plainTable).label).toBeUndefined();
    expect(parseDiceExpression(`d6 #${"a".repeat(150)}`, plainTable).label).toHaveLength(
      DICE_LIMITS.maxLabel,
    );
  });
});

describe("refusals of the new notation name what is wrong", () => {
  const cases: [string, string, Record<string, string | number>][] = [
    ["(1d6+2", "errors.dice.unclosedParenthesis", { position: 1 }],
    ["1d6+2)", "errors.dice.unopenedParenthesis", { position: 6 }],
    ["1d6/0", "errors.dice.divisionByZero", { near: "/0" }],
    ["1d6/(1d2-1)", "errors.dice.divisionByZero", { near: "/(1d2-1)" }],
    ["1d6/4dF", "errors.dice.divisionByZero", { near: "/4dF" }],
    ["d6*1000000*1000000", "errors.dice.totalTooBig", { max: DICE_LIMITS.maxTotal }],
    ["4d6r", "errors.dice.modifierNeedsNumber", { term: "4d6r" }],
    ["10d10>=", "errors.dice.modifierNeedsNumber", { term: "10d10>=" }],
    ["4d6!!!", "errors.dice.twoModifiers", { term: "4d6!!!" }],
    ["4d6r1r2", "errors.dice.twoModifiers", { term: "4d6r1r2" }],
    ["4dF!", "errors.dice.fateDiceModifier", { term: "4dF!" }],
    ["10d10f1", "errors.dice.failureWithoutTarget", { term: "10d10f1" }],
    ["10d10>=11", "errors.dice.testBeyondSides", { term: "10d10>=11", sides: 10 }],
    ["4d6r6", "errors.dice.rerollEveryFace", { term: "4d6r6" }],
    ["# атака", "errors.dice.empty", {}],
    ["()", "errors.dice.unexpected", { near: ")", position: 2 }],
  ];

  it.each(cases)("%j → %s", (input, code, params) => {
    const error = refusal(input);
    expect(error.code).toBe(code);
    expect(error.params).toEqual(params);
  });

  it("every refusal reads in English and Russian with its parameters filled in", () => {
    for (const [input] of cases) {
      const error = refusal(input);
      for (const lang of ["en", "ru"] as const) {
        const text = t(lang, error.code, error.params);
        expect(text).not.toMatch(/[{}]/);
        for (const value of Object.values(error.params)) {
          if (typeof value === "string") expect(text).toContain(value);
        }
      }
    }
  });
});

// ---------------------------------------------------------------------------------------
// Properties over generated expressions with groups, products and modifiers

const diceText = fc
  .record({
    count: fc.integer({ min: 1, max: 8 }),
    sides: fc.constantFrom(2, 4, 6, 8, 10, 20),
    explode: fc.boolean(),
    reroll: fc.boolean(),
    keep: fc.constantFrom("", "kh1", "kl1", "dl1"),
    success: fc.constantFrom("", ">=3", "<2", "=2"),
    failure: fc.boolean(),
  })
  .map(({ count, sides, explode, reroll, keep, success, failure }) => {
    const k = keep === "dl1" && count < 2 ? "" : keep;
    const fail = success && failure ? "f1" : "";
    return `${count}d${sides}${explode ? "!" : ""}${reroll ? "r1" : ""}${k}${success}${fail}`;
  });

const exprText: fc.Arbitrary<string> = fc.letrec<{ sum: string; factor: string }>((tie) => ({
  factor: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    diceText,
    fc.integer({ min: 1, max: 9 }).map(String),
    tie("sum").map((s) => `(${s})`),
  ),
  sum: fc
    .array(
      fc.tuple(
        fc.constantFrom("+", "-"),
        fc.array(fc.tuple(fc.constantFrom("*", "/"), tie("factor")), { maxLength: 2 }),
        tie("factor"),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((terms) =>
      terms
        .map(
          ([sign, rest, first], i) =>
            `${i === 0 && sign === "+" ? "" : sign}${first}${rest.map(([op, f]) => op + f).join("")}`,
        )
        .join(""),
    ),
})).sum;

/** Generated text either parses (then it stays within bounds) or is refused with a catalogued error. */
function parsedOrNull(text: string) {
  try {
    return parseDiceExpression(text, plainTable);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    expect(catalogues.en[error.code], error.code).toBeDefined();
    return null;
  }
}

describe("properties", () => {
  it("every expression's rolls stay within its computed bounds, and the canonical text parses back", () => {
    let parsed = 0;
    fc.assert(
      fc.property(exprText, fc.integer(), (text, seed) => {
        const expression = parsedOrNull(text);
        if (!expression) return;
        parsed += 1;
        expect(parseDiceExpression(canonical(expression), plainTable)).toEqual(expression);
        const result = rollDiceExpression(expression, seededDice(seed));
        for (const r of result.rolls) {
          expect(Number.isInteger(r.total)).toBe(true);
          expect(r.total).toBeGreaterThanOrEqual(result.minTotal);
          expect(r.total).toBeLessThanOrEqual(result.maxTotal);
        }
      }),
      { numRuns: 1500 },
    );
    // Many generated texts are refused (a divisor that can be 0, too long): enough must still roll.
    expect(parsed).toBeGreaterThan(200);
  });

  it("all-maximum dice stay within bounds and ! never rolls past its cap", () => {
    fc.assert(
      fc.property(exprText, fc.boolean(), (text, highest) => {
        const expression = parsedOrNull(text);
        if (!expression) return;
        const extreme: DiceSource = { roll: (sides) => (highest ? sides : 1) };
        const result = rollDiceExpression(expression, extreme);
        const terms = (text.match(/!/g) ?? []).length;
        const dice = rolledDice(result);
        expect(dice.filter((d) => d.exploded).length).toBeLessThanOrEqual(
          terms * DICE_LIMITS.maxExplodedPerTerm,
        );
        for (const r of result.rolls) {
          expect(r.total).toBeGreaterThanOrEqual(result.minTotal);
          expect(r.total).toBeLessThanOrEqual(result.maxTotal);
        }
      }),
      { numRuns: 500 },
    );
  });
});
