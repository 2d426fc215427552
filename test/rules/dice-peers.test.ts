/**
 * `/roll` reads the notations of Dice Maiden, rpg-dice-roller (Dicelette) and d20 (Avrae) with their
 * meaning, or refuses them naming this bot's spelling — never another meaning in silence
 * (docs/rules/common.md §4.3). Each form is checked against its definition with scripted dice.
 */
import { describe, expect, it } from "vitest";
import { formatReading, formatRoll } from "../../src/app/common/roll.js";
import { catalogues, t } from "../../src/i18n/index.js";
import { type DiceSource, scriptedDice } from "../../src/rules/dice.js";
import {
  canonical,
  DICE_LIMITS,
  parseDiceExpression,
  rollDiceExpression,
} from "../../src/rules/dice-expression.js";
import { diceTerm, firstDice, plainTable, refusal, roll } from "./dice-helpers.js";

const total = (input: string, faces: number[]) => roll(input, faces).rolls[0]!.total;
const _dice = diceTerm;
const same = (a: string, b: string) =>
  expect(parseDiceExpression(a, plainTable)).toEqual(parseDiceExpression(b, plainTable));
const reading = (input: string, lang: "en" | "ru" = "en") =>
  formatReading(lang, parseDiceExpression(input, plainTable)) ?? "";

describe("no silent other meaning", () => {
  it("2d6!=5 explodes on a 5 (rpg-dice-roller), and counts no successes", () => {
    const result = roll("2d6!=5", [5, 6, 3]);
    expect(firstDice(result).dice.map((d) => [d.face, d.exploded ?? false, d.counts])).toEqual([
      [5, false, undefined],
      [6, true, undefined],
      [3, false, undefined],
    ]);
    expect(result.rolls[0]!.total).toBe(14);
    expect(reading("2d6!=5")).toContain("explodes on 5");
  });

  it("4d6!>4 explodes above 4: a 5 and a 6 each add a die", () => {
    const result = roll("4d6!>4", [5, 2, 1, 3, 6, 4]);
    expect(result.rolls[0]!.total).toBe(21);
    expect(
      firstDice(result)
        .dice.filter((d) => d.exploded)
        .map((d) => d.face),
    ).toEqual([2, 4]);
    expect(reading("4d6!>4")).toContain("explodes on 5+");
    expect(reading("4d6!>=5")).toContain("explodes on 5+");
  });

  it("4d10r<=3 rerolls once (Dice Maiden's and this bot's r), and the answer says so", () => {
    const result = roll("4d10r<=3", [2, 1, 5, 6, 7]);
    expect(firstDice(result).dice.map((d) => [d.face, d.kept])).toEqual([
      [2, false],
      [1, true],
      [5, true],
      [6, true],
      [7, true],
    ]);
    expect(result.rolls[0]!.total).toBe(19);
    expect(reading("4d10r<=3")).toContain("rerolled once on 3 or less");
    expect(reading("4d10r<=3", "ru")).toContain("перебрасывается один раз на 3 и меньше");
  });

  it("3d6 ! is Dice Maiden's comment: no explosion, the rest is the label", () => {
    const plain = roll("3d6 !", [6, 6, 6]);
    expect(plain.expression).toBe("3d6");
    expect(plain.rolls[0]!.total).toBe(18);
    const labelled = roll("2d6 ! Fire damage", [6, 2]);
    expect(labelled.label).toBe("Fire damage");
    expect(labelled.rolls[0]!.total).toBe(8);
    // Touching its dice, `!` still explodes.
    expect(total("1d6!", [6, 2])).toBe(8);
  });

  it("+d20 is advantage and -d20 disadvantage (Dice Maiden): 2d20, keep the highest / the lowest", () => {
    expect(parseDiceExpression("+d20", plainTable).terms[0]).toMatchObject({
      count: 2,
      sides: 20,
      keep: { mode: "kh", count: 1 },
    });
    const advantage = roll("+d20", [3, 17]);
    expect(advantage.rolls[0]!.total).toBe(17);
    expect(advantage.expression).toBe("+d20");
    expect(total("-d20+5", [3, 17])).toBe(8);
    expect(reading("+d20")).toContain("advantage: 2d20, keep highest");
    expect(reading("-d20")).toContain("disadvantage");
    // Anywhere else a signed d20 is a d20, and other signed dice are unchanged.
    expect(total("1d20-d20", [3, 17])).toBe(-14);
    expect(canonical(parseDiceExpression("+d6", plainTable))).toBe("1d6");
    expect(canonical(parseDiceExpression("-2d20", plainTable))).toBe("-2d20");
  });

  it("+d% / -d% roll a units die and two tens dice, keeping the better / worse result", () => {
    // Tens 3 and 7, units 4: 34 or 74.
    expect(total("+d%", [3, 7, 4])).toBe(34);
    expect(total("-d%", [3, 7, 4])).toBe(74);
    // A 10 reads 0, and 00 with 0 is 100.
    expect(total("+d%", [10, 10, 10])).toBe(100);
    expect(total("+d%", [10, 5, 3])).toBe(3);
    const shown = roll("+d%", [3, 7, 4]);
    expect(shown.rolls[0]!.terms[0]!.kind).toBe("percentile");
    expect(formatRoll(shown)[0]).toBe("+d% [30, ~~70~~, 4] = **34**");
    expect(reading("-d%")).toContain("penalty die");
  });
});

describe("the peers' spellings, each against its definition", () => {
  it("4d6d1 drops the lowest, like 4d6dl1", () => {
    same("4d6d1", "4d6dl1");
    expect(total("4d6d1", [3, 6, 1, 5])).toBe(14);
  });

  it("d20's ph/pl drop the highest/lowest, like dh/dl", () => {
    same("4d6pl1", "4d6dl1");
    same("4d6ph1", "4d6dh1");
  });

  it("4d10dh1dl2 drops the highest and the two lowest", () => {
    const result = roll("4d10dh1dl2", [7, 6, 1, 5]);
    expect(firstDice(result).dice.map((d) => d.kept)).toEqual([false, true, false, false]);
    expect(result.rolls[0]!.total).toBe(6);
    same("4d10dl2dh1", "4d10dl2dh1");
    expect(refusal("4d6dh2dl2").code).toBe("errors.dice.dropAllDice");
    expect(reading("4d10dh1dl2")).toBe("_Read as: `4d10dh1dl2`: drop highest 1, drop lowest 2_");
  });

  it("k3 keeps the highest 3 (the majority's reading; d20's k3 keeps threes) and says so", () => {
    same("4d6k3", "4d6kh3");
    expect(reading("4d6k3")).toContain("keep highest 3");
    expect(reading("4d6k3", "ru")).toContain("оставить 3 старших");
  });

  it("!! compounds: the added dice are summed into the one that exploded", () => {
    const result = roll("3d6!!", [6, 6, 2, 3, 4]);
    const term = firstDice(result);
    expect(term.dice).toHaveLength(3);
    expect(term.dice[0]).toMatchObject({ value: 14, compounded: [6, 6, 2] });
    expect(result.rolls[0]!.total).toBe(21);
    expect(formatRoll(result)[0]).toBe("3d6!! [6+6+2, 3, 4] = **21**");
    // Compounded dice are kept or dropped whole.
    expect(total("2d6!!kh1", [6, 1, 5])).toBe(7);
  });

  it("!p penetrates: every added die counts 1 less, and explodes on its face", () => {
    const result = roll("2d6!p", [6, 6, 3, 2]);
    expect(firstDice(result).dice.map((d) => [d.face, d.value])).toEqual([
      [6, 6],
      [6, 5],
      [3, 2],
      [2, 2],
    ]);
    expect(result.rolls[0]!.total).toBe(15);
    expect(total("2d6!!p", [6, 6, 3, 2])).toBe(15);
  });

  it("e6 explodes once on 6+ (Dice Maiden), ie6 again and again", () => {
    expect(total("2d6e6", [6, 6, 1])).toBe(13);
    expect(total("2d6ie6", [6, 6, 1, 1])).toBe(14);
    expect(total("2d10e8", [9, 8, 1])).toBe(18);
    expect(total("2d6e", [6, 6, 1])).toBe(13);
    same("3d10ie8", "3d10!>=8");
    expect(reading("2d6e6")).toContain("explodes once on 6+");
  });

  it("ro and rg reroll once (ro<3: below 3; rg5: 5 or more), like r", () => {
    same("4d6ro<3", "4d6r<3");
    same("4d6ro1", "4d6r1");
    expect(total("2d10rg5", [7, 9, 2])).toBe(11);
    same("2d10rg5", "2d10r>=5");
  });

  it("rr and ir reroll until the die passes, at most 100 rerolls a term", () => {
    expect(total("2d10rr<3", [1, 2, 5, 4])).toBe(9);
    same("4d10ir2", "4d10rr2");
    same("4d10irg9", "4d10rr>=9");
    same("4к6пп1", "4d6rr1");
    expect(reading("4d10rr<3")).toContain("rerolled until 3+");
    // A die that always shows 1: the cap stops the rerolls and the die keeps its last face.
    let rolls = 0;
    const ones: DiceSource = {
      roll: () => {
        rolls += 1;
        return 1;
      },
    };
    const capped = rollDiceExpression(parseDiceExpression("3d6rr1", plainTable), ones);
    expect(rolls).toBe(3 + DICE_LIMITS.maxRerollsPerTerm);
    expect(capped.rolls[0]!.total).toBe(3);
  });

  it("t7 and f1 (Dice Maiden) count successes and failures, like >=7 and f1", () => {
    same("6d10 t7", "6d10>=7");
    same("6d10t7f1", "6d10>=7f1");
    same("6d10t>8", "6d10>8");
    expect(total("4d10t8f1", [8, 10, 1, 5])).toBe(1);
  });

  it("min and max clamp each die (and mi/ma, мин/макс)", () => {
    const result = roll("4d6min3", [1, 2, 5, 6]);
    expect(firstDice(result).dice.map((d) => [d.face, d.value, d.clamped ?? false])).toEqual([
      [1, 3, true],
      [2, 3, true],
      [5, 5, false],
      [6, 6, false],
    ]);
    expect(result.rolls[0]!.total).toBe(17);
    expect(formatRoll(result)[0]).toBe("4d6min3 [1→3, 2→3, 5, 6] = **17**");
    expect(total("4d6max4", [1, 2, 5, 6])).toBe(11);
    same("4d6mi3ma5", "4d6min3max5");
    same("4к6мин2макс5", "4d6min2max5");
    expect(refusal("4d6min5max2").code).toBe("errors.dice.clampsCross");
  });

  it("u rolls again a die showing a value already standing", () => {
    const result = roll("3d6u", [2, 2, 2, 5, 1]);
    expect(
      firstDice(result)
        .dice.filter((d) => d.kept)
        .map((d) => d.face),
    ).toEqual([2, 5, 1]);
    expect(result.rolls[0]!.total).toBe(8);
    expect(refusal("7d6u")).toMatchObject({ code: "errors.dice.uniqueTooFewFaces", params: { faces: 6 } });
  });

  it("{4d6, 2d10}k1 keeps the higher of the two sums; {…}>=12 counts the sums reaching 12", () => {
    const kept = roll("{4d6, 2d10}k1", [2, 5, 6, 4, 8, 10]);
    expect(kept.rolls[0]!.total).toBe(18);
    expect(formatRoll(kept)[0]).toBe("{~~4d6 [2, 5, 6, 4] → 17~~; 2d10 [8, 10] → 18}kh1 = **18**");
    expect(total("{3d6, 3d6, 3d6}>=10", [6, 6, 6, 1, 1, 1, 4, 3, 3])).toBe(2);
    expect(total("{1d6+1, 1d6+2, 1d6}dl1", [1, 1, 1])).toBe(5);
    expect(refusal("{4d6+2d8}k3").code).toBe("errors.dice.setOfOne");
    same("{1d6+2}", "(1d6+2)");
  });

  it("% is the remainder of division rounded down", () => {
    expect(total("1d20%7", [12])).toBe(5);
    expect(total("(1d6-4)%3", [2])).toBe(1);
    expect(total("-1d20%7", [12])).toBe(-5);
    expect(refusal("1d6%(1d2-1)").code).toBe("errors.dice.divisionByZero");
    expect(reading("1d20%7")).toContain("remainder");
  });

  it("comments: // and # end the expression, [ ] and /* */ label the term before them", () => {
    expect(parseDiceExpression("1d20+5 // attack", plainTable).label).toBe("attack");
    const noted = roll("3d6 [fire] + 1d4 [cold]", [1, 2, 3, 4]);
    expect(noted.rolls[0]!.terms.map((t) => t.note)).toEqual(["fire", "cold"]);
    expect(formatRoll(noted)[0]).toBe("3d6 [1, 2, 3] _fire_ + 1d4 [4] _cold_ = **10**");
    expect(canonical(parseDiceExpression("1d20 /* to hit */ + 2", plainTable))).toBe("1d20[to hit]+2");
    // A # inside a note is the note's.
    expect(parseDiceExpression("1d6 [a # b]", plainTable).terms[0]!.note).toBe("a # b");
    expect(parseDiceExpression("[attack] 1d20", plainTable).label).toBe("attack");
  });

  it("dF.2 is the usual Fate die, dF.1 a d6 with one +, one − and four blanks; d% a d100", () => {
    same("4dF.2", "4dF");
    const variant = roll("4dF.1", [1, 6, 3, 4]);
    expect(firstDice(variant).dice.map((d) => d.value)).toEqual([-1, 1, 0, 0]);
    expect([variant.minTotal, variant.maxTotal]).toEqual([-4, 4]);
    same("d%", "1d100");
  });

  it("6 4d6 repeats like 6x 4d6 (Dice Maiden), and dndstats is 6x 4d6kh3", () => {
    same("6 4d6", "6x 4d6");
    same("dndstats", "6x 4d6kh3");
    expect(refusal("6 4d6 x2").code).toBe("errors.dice.twoRepeats");
  });

  it("only dndstats is a named roll: constructor, __proto__ or toString are refused like any other word", () => {
    for (const word of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      expect(refusal(word).code, word).toMatch(/^errors\.dice\./);
    }
  });
});

describe("a peer's spelling without a meaning here is refused by name, with ours", () => {
  const cases: [string, string, Record<string, string | number>][] = [
    ["4cod", "errors.dice.peerAlias", { term: "4cod", ours: "4d10!t8" }],
    ["5wod8", "errors.dice.peerAlias", { term: "5wod8", ours: "5d10t8f1" }],
    ["sr6", "errors.dice.peerAlias", { term: "sr6", ours: "6d6t5" }],
    ["1d20ra", "errors.dice.peerModifier", { term: "1d20ra", word: "ra" }],
    ["4d6s", "errors.dice.peerModifier", { term: "4d6s", word: "s" }],
    ["4d6cs=6", "errors.dice.peerModifier", { term: "4d6cs", word: "cs" }],
    ["4d10t8b1", "errors.dice.peerModifier", { term: "4d10t8b", word: "b" }],
    ["4d6k>3", "errors.dice.keepByValue", { term: "4d6k" }],
    ["1d20+5>=15", "errors.dice.compareTotal", { near: ">=15" }],
    ["4d10!>=8f1", "errors.dice.explodeCompareNotTarget", { term: "4d10!>=8f1", ours: "4d10!t8f1" }],
    ["4d6!>=1", "errors.dice.explodeEveryFace", { term: "4d6!>=1" }],
    ["4d6kh3dl1", "errors.dice.twoKeepRules", { term: "4d6kh3dl1" }],
    ["{4d6, 2d10", "errors.dice.unclosedBrace", { position: 1 }],
    ["floor(1d20/3)", "errors.dice.mathFunction", { term: "floor" }],
    ["1d20+5 adv", "errors.dice.peerModifier", { term: "1d20+5 adv", word: "adv" }],
    ["1d20 dis", "errors.dice.peerModifier", { term: "1d20 dis", word: "dis" }],
    ["6#4d6", "errors.dice.hashRepeat", { near: "6#4d6", ours: "6x 4d6" }],
    ["2d6^2", "errors.dice.power", { near: "^2" }],
    ["2d6**2", "errors.dice.power", { near: "**2" }],
  ];

  it.each(cases)("%j → %s", (input, code, params) => {
    const error = refusal(input);
    expect(error.code).toBe(code);
    expect(error.params).toEqual(params);
  });

  it("every such refusal reads in English and Russian, naming our spelling", () => {
    for (const [input] of cases) {
      const error = refusal(input);
      for (const lang of ["en", "ru"] as const) {
        expect(catalogues[lang][error.code], `${lang} ${error.code}`).toBeDefined();
        const text = t(lang, error.code, error.params);
        expect(text).not.toMatch(/\{[a-z]+\}/);
        for (const value of Object.values(error.params)) {
          if (typeof value === "string") expect(text).toContain(value);
        }
      }
    }
    expect(t("en", "errors.dice.peerModifier", { term: "1d20ra", word: "ra" })).toContain("`rr1`");
    // rpg-dice-roller's bare `r` (until): the refusal names both of our spellings.
    const bare = refusal("4d6r");
    expect(t("en", bare.code, bare.params)).toContain("`4d6rr1`");
    expect(t("ru", bare.code, bare.params)).toContain("`4к6пп1`");
  });

  it("2d6 ! Fire damage and dndstats, refused before, now roll", () => {
    expect(() => parseDiceExpression("2d6 ! Fire damage", plainTable)).not.toThrow();
    expect(() => parseDiceExpression("dndstats", plainTable)).not.toThrow();
  });
});

describe("bounds", () => {
  it("4d10!t8f1 can fall no lower than −4 and rise no higher than 4 + 100 explosions", () => {
    const result = roll("4d10!t8f1", [1, 1, 1, 1]);
    expect(result.rolls[0]!.total).toBe(-4);
    expect([result.minTotal, result.maxTotal]).toEqual([-4, 4 + DICE_LIMITS.maxExplodedPerTerm]);
    const tens: DiceSource = { roll: (sides) => sides };
    expect(rollDiceExpression(parseDiceExpression("4d10!t8f1", plainTable), tens).rolls[0]!.total).toBe(104);
  });

  it("min and max narrow the bounds: 4d6min3 is 12..24", () => {
    const expression = parseDiceExpression("4d6min3max5", plainTable);
    const result = rollDiceExpression(expression, scriptedDice([1, 1, 6, 6]));
    expect([result.minTotal, result.maxTotal]).toEqual([12, 20]);
  });
});

describe("the documented examples roll", () => {
  /** Fragments of notation named in the texts, not whole expressions. */
  const FRAGMENTS = new Set(["k3", "d1", "f1", "ф1", "r", "rr", "!", "// attack", "// атака", "dF", "dF.1"]);
  const spans = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  const rollsOrFragment = (example: string) => {
    if (FRAGMENTS.has(example) || example.startsWith("/")) return;
    // A saved roll's sheet number (`4dF+{fight}`) is filled in before it is rolled.
    const text = example.replace(/\{\p{L}+\}/gu, "1");
    expect(() => parseDiceExpression(text, plainTable), example).not.toThrow();
  };

  it("every example in /help topic:dice, English and Russian", () => {
    for (const lang of ["en", "ru"] as const) {
      const examples = spans(t(lang, "help.dice.body"));
      expect(examples.length).toBeGreaterThan(40);
      for (const example of examples) rollsOrFragment(example);
    }
  });

  it("every example in the table of docs/rules/common.md §4.3", async () => {
    const { readFile } = await import("node:fs/promises");
    const doc = await readFile(new URL("../../docs/rules/common.md", import.meta.url), "utf8");
    const rows = doc.split("\n").filter((line) => /^\| [^-|]/.test(line) && !line.startsWith("| Form"));
    expect(rows.length).toBeGreaterThan(15);
    for (const row of rows) for (const example of spans(row.split("|")[2]!)) rollsOrFragment(example);
  });
});

describe("the answer fits Discord", () => {
  it("a roll too long to show die by die shows each term's subtotal, or else the totals alone", () => {
    const result = rollDiceExpression(parseDiceExpression("10x 100d6!", plainTable), {
      roll: (sides) => sides,
    });
    const total = 6 * (100 + DICE_LIMITS.maxExplodedPerTerm);
    expect(formatRoll(result, "subtotals")[9]).toBe(`#10: 100d6! […${total}] = **${total}**`);
    expect(formatRoll(result, "totals")[0]).toBe(`#1: **${total}**`);
    expect(formatRoll(result).join("\n").length).toBeGreaterThan(4096);
  });
});
