/**
 * Properties of the modifiers taken from other dice bots (docs/rules/common.md §4.3), over generated
 * terms: every roll stays within the computed bounds, the canonical text parses back, and every die
 * is what its modifiers' definitions say it is.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { catalogues } from "../../src/i18n/index.js";
import { type DiceSource, seededDice } from "../../src/rules/dice.js";
import {
  canonical,
  DICE_LIMITS,
  type DiceExpression,
  type DiceTerm,
  type DiceTermRoll,
  type FaceTest,
  meets,
  parseDiceExpression,
  rollDiceExpression,
} from "../../src/rules/dice-expression.js";
import { DomainError } from "../../src/rules/errors.js";

const plainTable = { fateTable: false };

const termText = fc
  .record({
    count: fc.integer({ min: 1, max: 8 }),
    sides: fc.constantFrom(2, 4, 6, 8, 10, 20),
    n: fc.integer({ min: 2, max: 20 }),
    explode: fc.constantFrom("", "!", "!!", "!p", "!!p", "!>=N", "!=N", "!<2", "e", "eN", "ieN"),
    reroll: fc.constantFrom("", "r1", "ro<3", "rr1", "rr<3", "rgN", "irgN"),
    unique: fc.constantFrom("", "", "u"),
    clamp: fc.constantFrom("", "min2", "max3", "min2max5"),
    keep: fc.constantFrom("", "kh1", "kl2", "dl1", "dh1dl1", "d1", "k3"),
    success: fc.constantFrom("", "t3", ">=N", "=2", "<3"),
    failure: fc.constantFrom("", "f1"),
  })
  .map(({ count, sides, n, explode, reroll, unique, clamp, keep, success, failure }) => {
    const value = String(Math.min(n, sides));
    const fill = (text: string) => text.replace("N", value);
    const fail = success ? failure : "";
    return `${count}d${sides}${fill(explode)}${fill(reroll)}${unique}${clamp}${keep}${fill(success)}${fail}`;
  });

const exprText = fc
  .tuple(termText, fc.constantFrom("", "+2", "-1d4", "*2", "%5"), fc.constantFrom("", " [note]"))
  .map(([term, tail, note]) => `${term}${note}${tail}`);

function parsedOrNull(text: string): DiceExpression | null {
  try {
    return parseDiceExpression(text, plainTable);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    expect(catalogues.en[error.code], error.code).toBeDefined();
    expect(catalogues.ru[error.code], error.code).toBeDefined();
    return null;
  }
}

const clampOf = (term: DiceTerm, face: number) => {
  const atLeast = term.min === undefined ? face : Math.max(term.min, face);
  return term.max === undefined ? atLeast : Math.min(term.max, atLeast);
};

function countOf(value: number, success: FaceTest | undefined, failure: FaceTest | undefined) {
  return success && meets(value, success) ? 1 : failure && meets(value, failure) ? -1 : 0;
}

function keptCount(term: DiceTerm, standing: number): number {
  if (term.keep === null) return standing;
  const first =
    term.keep.mode === "kh" || term.keep.mode === "kl"
      ? Math.min(term.keep.count, standing)
      : standing - term.keep.count;
  return term.otherEnd ? first - term.otherEnd.count : first;
}

/** Checks one rolled term against the definitions of its modifiers. */
function checkDefinitions(term: DiceTerm, rolled: DiceTermRoll): void {
  const standing = rolled.dice.filter((d) => !d.rerolled);
  const rerolls = rolled.dice.length - standing.length;
  const capHit = rerolls >= DICE_LIMITS.maxRerollsPerTerm;
  for (const die of rolled.dice) {
    expect(die.face).toBeGreaterThanOrEqual(1);
    expect(die.face).toBeLessThanOrEqual(term.sides);
  }
  const penetrate = term.explode?.penetrate === true;
  for (const die of standing) {
    // The value: clamped, 1 less for a penetrating added die, a compounded chain summed.
    const expected = die.compounded
      ? die.compounded.reduce((sum, face, i) => sum + clampOf(term, face) - (penetrate && i > 0 ? 1 : 0), 0)
      : clampOf(term, die.face) - (penetrate && die.exploded ? 1 : 0);
    expect(die.value).toBe(expected);
    if (term.success) expect(die.counts).toBe(countOf(die.value, term.success, term.failure));
    // Reroll until: no standing die still meets the test, unless the cap stopped the rerolls.
    if (term.reroll?.until && !capHit && !die.exploded) {
      expect(meets(clampOf(term, die.face), term.reroll.test)).toBe(false);
    }
  }
  if (term.reroll && !term.reroll.until && !term.unique && !term.explode?.compound) {
    // Reroll once: each rerolled die is followed by the one standing in its place.
    rolled.dice.forEach((die, i) => {
      if (die.rerolled) expect(rolled.dice[i + 1]?.rerolled ?? false).toBe(false);
    });
  }
  if (term.unique && !term.explode && !capHit) {
    const values = standing.map((d) => clampOf(term, d.face));
    expect(new Set(values).size).toBe(values.length);
  }
  const explode = term.explode;
  if (explode && !explode.compound) {
    // A standing die is followed by an added one exactly when it meets the test, under the cap,
    // and (for `e`) was not itself added.
    let added = 0;
    standing.forEach((die, i) => {
      const next = standing[i + 1]?.exploded ?? false;
      const should =
        meets(clampOf(term, die.face), explode.on) &&
        !(explode.once && die.exploded) &&
        added < DICE_LIMITS.maxExplodedPerTerm;
      expect(next, `die ${i} of ${rolled.notation}`).toBe(should);
      if (next) added += 1;
    });
  }
  const kept = standing.filter((d) => d.kept);
  expect(kept).toHaveLength(keptCount(term, standing.length));
  expect(rolled.subtotal).toBe(kept.reduce((sum, d) => sum + (d.counts ?? d.value), 0));
}

describe("properties of the peers' modifiers", () => {
  it("every generated term rolls within its bounds, parses back, and meets its definitions", () => {
    let parsed = 0;
    fc.assert(
      fc.property(exprText, fc.integer(), (text, seed) => {
        const expression = parsedOrNull(text);
        if (!expression) return;
        parsed += 1;
        expect(parseDiceExpression(canonical(expression), plainTable)).toEqual(expression);
        const result = rollDiceExpression(expression, seededDice(seed));
        for (const repeat of result.rolls) {
          expect(Number.isInteger(repeat.total)).toBe(true);
          expect(repeat.total).toBeGreaterThanOrEqual(result.minTotal);
          expect(repeat.total).toBeLessThanOrEqual(result.maxTotal);
          const term = expression.terms[0]!;
          const rolled = repeat.terms[0]!;
          const [dice, roll] =
            term.kind === "product" && rolled.kind === "product"
              ? [term.factors[0]!, rolled.factors[0]!]
              : [term, rolled];
          if (dice.kind === "dice" && roll.kind === "dice") checkDefinitions(dice, roll);
        }
      }),
      { numRuns: 1500 },
    );
    expect(parsed).toBeGreaterThan(400);
  });

  it("dice that always show their lowest or highest face stay within the bounds", () => {
    fc.assert(
      fc.property(exprText, fc.boolean(), (text, highest) => {
        const expression = parsedOrNull(text);
        if (!expression) return;
        const extreme: DiceSource = { roll: (sides) => (highest ? sides : 1) };
        const result = rollDiceExpression(expression, extreme);
        for (const repeat of result.rolls) {
          expect(repeat.total).toBeGreaterThanOrEqual(result.minTotal);
          expect(repeat.total).toBeLessThanOrEqual(result.maxTotal);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("without keep rules, plain sums and counted explosions reach their bounds", () => {
    // All-lowest dice: no explosion is triggered by a 1 unless the test is on low faces.
    for (const [text, low, high] of [
      ["4d10!t8f1", -4, 104],
      ["3d6!", 3, 18 + 100 * 6],
      ["2d6e6", 2, 24],
      ["3d6!p", 3, 18 + 100 * 5],
      ["4d6min3max5", 12, 20],
    ] as const) {
      const expression = parseDiceExpression(text, plainTable);
      const lowest = rollDiceExpression(expression, { roll: () => 1 });
      const highestRoll = rollDiceExpression(expression, { roll: (sides) => sides });
      expect([lowest.minTotal, lowest.maxTotal], text).toEqual([low, high]);
      expect(lowest.rolls[0]!.total, text).toBe(low);
      expect(highestRoll.rolls[0]!.total, text).toBe(high);
    }
  });
});

describe("any text", () => {
  it("in the peers' alphabet either parses (and its canonical text parses back) or is refused", () => {
    const alphabet = [..."0123456789dDкдпфfFkKhHlLxх%+-−*/(){},.!<>=[]#tTeEirgRmMnaAuUpPs# "];
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 30 }), (input) => {
        try {
          const expression = parseDiceExpression(input, plainTable);
          expect(parseDiceExpression(canonical(expression), plainTable), input).toEqual(expression);
          const result = rollDiceExpression(expression, seededDice(input.length));
          for (const repeat of result.rolls) {
            expect(repeat.total).toBeGreaterThanOrEqual(result.minTotal);
            expect(repeat.total).toBeLessThanOrEqual(result.maxTotal);
          }
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          expect(catalogues.en[error.code], error.code).toBeDefined();
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("pieces of the peers' notations, put together at random, parse back and roll within bounds", () => {
    const pieces = [
      ..."d6 2d20 4d6 3d10 d% dF dF.1 +d20 -d% {4d6, 2d8} ( ) , * / % + - 2 5".split(" "),
      ..."! !! !p !=5 !>4 >=3 <2 t4 f1 kh1 kl2 dl1 dh1 d1 k2 r1 rr1 ro<3 rg5 e ie5 min2 max5 u".split(" "),
      " [x]",
      " /* y */",
      " ",
      "6 ",
      "3x ",
      " # l",
      " ! c",
    ];
    let parsed = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 8 }),
        fc.integer(),
        (parts, seed) => {
          const input = parts.join("");
          const expression = parsedOrNull(input);
          if (!expression) return;
          parsed += 1;
          expect(parseDiceExpression(canonical(expression), plainTable), input).toEqual(expression);
          const result = rollDiceExpression(expression, seededDice(seed));
          for (const repeat of result.rolls) {
            expect(repeat.total, input).toBeGreaterThanOrEqual(result.minTotal);
            expect(repeat.total, input).toBeLessThanOrEqual(result.maxTotal);
          }
        },
      ),
      { numRuns: 3000 },
    );
    expect(parsed).toBeGreaterThan(100);
  });
});
