import type { ErrorKey } from "../i18n/types.js";
/**
 * The generic dice roller behind `/roll` (docs/rules/common.md §4.3): parse a dice expression into a small
 * JSON-serialisable AST, roll it through a DiceSource, and return every die rolled.
 *
 * Grammar (case-insensitive, whitespace allowed between tokens, not inside a multi-letter word):
 *
 *   input      := expression [comment]
 *   comment    := ("#" | "//" | " !") text              (` !`: a `!` after a space, Dice Maiden's comment)
 *   expression := [count (REPEAT | " ")] sum [REPEAT count]   (repeat given at most once; `6 4d6`)
 *   sum        := [SIGN] product (SIGN product)*       (a leading `+d20`/`-d20`/`+d%`/`-d%`: advantage)
 *   product    := factor (("*" | "/" | "%") factor)*   (division rounds down, `%` is the floored remainder)
 *   factor     := ("(" sum ")" | "{" sum ("," sum)* "}" setmod* | dice | count) note*
 *   note       := "[" text "]" | "/*" text "*∕"      (a label for the term before it)
 *   dice       := [count] DIE sides modifier*
 *   sides      := count | FATE ["." ("1" | "2")] | "%"
 *   modifier   := "!" ["!"] ["p"] [CMP count]          explode (compound, penetrate); default on the maximum
 *               | ("e" | "ie") [CMP] [count]          explode once / again and again (default ≥, maximum)
 *               | ("r" | "ro" | "rr" | "ir") [CMP] count   reroll once / until it passes (default ≤)
 *               | ("rg" | "irg") count                 reroll once / until, on count or more
 *               | ("kh" | "kl" | "k" | "dh" | "dl" | "ph" | "pl") [count]   keep/drop (no count = 1)
 *               | "d" count                           drop the lowest
 *               | ("min" | "mi") count | ("max" | "ma") count   clamp each die
 *               | "u"                                  no face twice
 *               | CMP count | "t" [CMP] count          count successes instead of adding (default ≥)
 *               | FAIL [CMP] count                    count failures too (default ≤)
 *   setmod     := keep/drop rules and success tests, read on the sums' totals
 *
 *   DIE    = d к д      FATE = f ф      REPEAT = x х ×      SIGN = + - − –
 *   REROLL = r п (переброс), rr пп      FAIL = f ф      CMP = >= > <= < = ≥ ≤      мин, макс
 *
 * Russian notation: `2к6+3`, `4дф`, `4кФ`, `6х 4к6kh3`, `4к6п1`, `4к6пп1`, `10к10>=7ф1`, `4к6мин2`.
 * Keep/drop markers stay Latin because the Cyrillic letters к and д already mean "die"; a bare Latin `k`
 * where a term starts (`2k6`) is read as a die, since it looks exactly like к.
 */
import { type DiceSource, rollMany } from "./dice.js";
import { DomainError } from "./errors.js";

/** Caps that keep one `/roll` cheap to roll, log and show. */
export const DICE_LIMITS = {
  /** Characters in the (trimmed) expression, label included. */
  maxLength: 200,
  /** Dice in one term (`100d6`). */
  maxDicePerTerm: 100,
  /** Sides of one die (`d1000`). Dice need at least 2 sides: a d1 is a constant, a d0 is nothing. */
  maxSides: 1000,
  minSides: 2,
  /** Dice in the whole expression, counting every repeat (extra dice from `!` and rerolls aside). */
  maxDiceTotal: 1000,
  /** `6x 4d6kh3`: at most 20 repeats. */
  maxRepeats: 20,
  /** Largest constant term. */
  maxConstant: 1_000_000,
  /** `4d6!`: at most this many extra dice per term, however the dice fall. */
  maxExplodedPerTerm: 100,
  /** `4d10rr3`, `4d6u`: at most this many rerolls per term; past it a die keeps its last face. */
  maxRerollsPerTerm: 100,
  /** `{4d6, 4d6, 4d6}k2`: at most this many sums in braces. */
  maxSetMembers: 20,
  /** Largest total an expression may reach (`*` could otherwise leave exact integers behind). */
  maxTotal: 1_000_000_000_000,
  /** Characters of the label after `#`, and of a term's note in `[ ]`. */
  maxLabel: 80,
} as const;

export type Sign = 1 | -1;

/** kh/kl keep the N highest/lowest dice; dh/dl drop the N highest/lowest. */
export type KeepMode = "kh" | "kl" | "dh" | "dl";

export interface KeepRule {
  mode: KeepMode;
  count: number;
}

export type Comparison = ">=" | ">" | "<=" | "<" | "=";

/** A test on a die's value: `>=7`, `<=1`. */
export interface FaceTest {
  op: Comparison;
  value: number;
}

export type MulOp = "*" | "/" | "%";

/**
 * How a die's face is read:
 * - `plain`: the face is the value (`2d6`);
 * - `fateDF`: `dF`, rolled as a d3 and read like docs/rules/fate.md §3.1 (1 → +1, 2 → −1, 3 → 0);
 * - `fateDF1`: `dF.1`, rolled as a d6: 1 → −1, 6 → +1, the rest 0 (one +, one −, four blanks);
 * - `fateD3`: `d3` on a Fate table, read the same way as `dF` (docs/rules/fate.md §3.1).
 */
export type DieReading = "plain" | "fateDF" | "fateDF1" | "fateD3";

/**
 * `!`: a die meeting `on` adds a die. `compound` (`!!`) adds the new dice into the one that exploded;
 * `penetrate` (`!p`) takes 1 off every added die; `once` (`e6`) lets an added die explode no further.
 */
export interface ExplodeRule {
  on: FaceTest;
  compound: boolean;
  penetrate: boolean;
  once: boolean;
}

/** `r1`: a die meeting `test` is rolled again, once; with `until` (`rr1`) until it no longer meets it. */
export interface RerollRule {
  test: FaceTest;
  until: boolean;
}

export interface DiceTerm {
  kind: "dice";
  sign: Sign;
  count: number;
  /** Sides rolled on the DiceSource: 3 for `dF` and `d3` Fate dice, 6 for `dF.1`. */
  sides: number;
  reading: DieReading;
  keep: KeepRule | null;
  /** `4d10dh1dl2`: the drop rule at the other end, after `keep` (a `dh`/`dl` pair). */
  otherEnd?: KeepRule;
  explode?: ExplodeRule;
  reroll?: RerollRule;
  /** `4d6u`: a die showing a value already standing is rolled again. */
  unique?: true;
  /** `4d6min3`: a die showing less counts as this. */
  min?: number;
  /** `4d6max4`: a die showing more counts as this. */
  max?: number;
  /** `>=7`: the term counts dice meeting this test instead of adding values. */
  success?: FaceTest;
  /** `f1` (with a success test): dice meeting this test count −1. */
  failure?: FaceTest;
  /** `+d20` / `-d20` (Dice Maiden): rolled as 2d20 keeping the highest / the lowest. */
  advantage?: Sign;
  /** `3d6 [fire]`: what the term is for. */
  note?: string;
}

export interface ConstantTerm {
  kind: "constant";
  sign: Sign;
  value: number;
  note?: string;
}

/** `(1d6+2)`: a sum in parentheses. */
export interface GroupTerm {
  kind: "group";
  sign: Sign;
  terms: ExpressionTerm[];
  note?: string;
}

/** `{4d6, 2d10}k1`: several sums, their totals kept, dropped or counted like dice. */
export interface SetTerm {
  kind: "set";
  sign: Sign;
  members: ExpressionTerm[][];
  keep: KeepRule | null;
  otherEnd?: KeepRule;
  success?: FaceTest;
  failure?: FaceTest;
  note?: string;
}

/** `+d%` / `-d%` (Dice Maiden): a d100 from a units d10 and two tens d10, the better (worse) result kept. */
export interface PercentileTerm {
  kind: "percentile";
  /** Always 1: the `+`/`-` is the bonus (1) or the penalty (−1), not a sign. */
  sign: 1;
  bonus: Sign;
  note?: string;
}

/** `(1d6+2)*2`, `2d20kh1/2`: factors (unsigned) joined by `*`, `/` and `%`, left to right. */
export interface ProductTerm {
  kind: "product";
  sign: Sign;
  factors: ExpressionTerm[];
  /** `ops[i]` joins `factors[i]` and `factors[i + 1]`. */
  ops: MulOp[];
  note?: string;
}

export type ExpressionTerm = DiceTerm | ConstantTerm | GroupTerm | SetTerm | PercentileTerm | ProductTerm;

/** A parsed expression: plain data, safe to store as JSON. */
export interface DiceExpression {
  /** How many times the whole sum is rolled (1 when not repeated). */
  repeat: number;
  terms: ExpressionTerm[];
  /** `1d20+5 # атака`: what the roll is for, shown with it. */
  label?: string;
}

export interface ParseOptions {
  /** On a Fate table (docs/rules/fate.md §3.1) `d3` dice are read as Fate dice. */
  fateTable: boolean;
}

export type FateSymbol = "+" | "−" | "0";

export interface RolledDie {
  sides: number;
  /** The raw number rolled, 1..sides (for Fate dice: the d3 or d6 face). */
  face: number;
  /** What the die counts as: the face (clamped, less 1 when penetrating, summed when compounding), or −1/0/+1 for a Fate die. */
  value: number;
  /** For Fate dice the symbol shown (+ − 0); null for plain dice. */
  fateSymbol: FateSymbol | null;
  /** False when a keep/drop rule dropped this die, or it was rerolled; such dice are still shown and logged. */
  kept: boolean;
  /** This die was rolled again (`r`, `rr`, `u`); a later die is its reroll. */
  rerolled?: true;
  /** This die was added by an explosion (`!`). */
  exploded?: true;
  /** `!!`: the faces added into this one die, its own first. */
  compounded?: number[];
  /** `min`/`max` changed what this die counts as. */
  clamped?: true;
  /** With success counting: +1 success, −1 failure, 0 neither. */
  counts?: -1 | 0 | 1;
}

export interface DiceTermRoll {
  kind: "dice";
  sign: Sign;
  /** The term in canonical notation without its sign, e.g. `4d6kh3`. */
  notation: string;
  reading: DieReading;
  sides: number;
  keep: KeepRule | null;
  /** Every die rolled, in the order rolled, dropped and rerolled ones marked `kept: false`. */
  dice: RolledDie[];
  /** Sum of the kept dice' values (or successes − failures), before the sign is applied. */
  subtotal: number;
  note?: string;
}

export interface ConstantTermRoll {
  kind: "constant";
  sign: Sign;
  notation: string;
  /** The constant, before the sign is applied. */
  subtotal: number;
  note?: string;
}

export interface GroupTermRoll {
  kind: "group";
  sign: Sign;
  notation: string;
  terms: TermRoll[];
  subtotal: number;
  note?: string;
}

export interface SetMemberRoll {
  terms: TermRoll[];
  total: number;
  kept: boolean;
  counts?: -1 | 0 | 1;
}

export interface SetTermRoll {
  kind: "set";
  sign: Sign;
  notation: string;
  members: SetMemberRoll[];
  subtotal: number;
  note?: string;
}

export interface PercentileTermRoll {
  kind: "percentile";
  sign: Sign;
  notation: string;
  /** The two tens dice (the unused one not kept), then the units die; faces 1..10, a 10 reads 0. */
  dice: RolledDie[];
  subtotal: number;
  note?: string;
}

export interface ProductTermRoll {
  kind: "product";
  sign: Sign;
  notation: string;
  factors: TermRoll[];
  ops: MulOp[];
  subtotal: number;
  note?: string;
}

export type TermRoll =
  | DiceTermRoll
  | ConstantTermRoll
  | GroupTermRoll
  | SetTermRoll
  | PercentileTermRoll
  | ProductTermRoll;

/** One roll of the whole sum: total = Σ sign × subtotal. */
export interface DiceRepeatRoll {
  terms: TermRoll[];
  total: number;
}

export interface DiceRollResult {
  /** Canonical text of the expression rolled, e.g. `6x 4d6kh3`. */
  expression: string;
  /** One entry per repeat (a single entry when not repeated). */
  rolls: DiceRepeatRoll[];
  /** Bounds of one repeat's total. */
  minTotal: number;
  maxTotal: number;
  label?: string;
}

// ---------------------------------------------------------------------------------------
// Tokenizer

type Token =
  | { type: "number"; value: number; start: number; end: number }
  /** One letter, lower-cased (`×` reads as `x`); words are read by the parser from adjacent letters. */
  | { type: "letter"; char: string; start: number; end: number }
  | {
      type:
        | "percent"
        | "plus"
        | "minus"
        | "times"
        | "divide"
        | "open"
        | "close"
        | "brace"
        | "unbrace"
        | "comma"
        | "dot"
        | "explode";
      start: number;
      end: number;
    }
  | { type: "compare"; op: Comparison; start: number; end: number }
  /** `[fire]`, `/* fire *∕`: a note on the term before it. */
  | { type: "note"; text: string; start: number; end: number }
  /** The first character we cannot read; parsing stops there so errors come left to right. */
  | { type: "invalid"; start: number; end: number };

const DIE_LETTERS = new Set(["d", "к", "д"]);
const FATE_LETTERS = new Set(["f", "ф"]);
const REPEAT_LETTERS = new Set(["x", "х"]);
const MINUS_SIGNS = new Set(["-", "−", "–", "—"]);
type PunctuationType = Exclude<Token["type"], "number" | "letter" | "compare" | "note" | "invalid">;
const SINGLE: Record<string, PunctuationType> = {
  "%": "percent",
  "+": "plus",
  "*": "times",
  "/": "divide",
  "(": "open",
  ")": "close",
  "{": "brace",
  "}": "unbrace",
  ",": "comma",
  ".": "dot",
  "!": "explode",
};

/** One line of user text for a label or note: controls blanked, spaces folded, trimmed, capped. */
function cleanLabel(text: string): string {
  return Array.from(
    text
      .replace(/[\p{Cc}\p{Cf}]/gu, " ")
      .replace(/\s+/g, " ")
      .trim(),
  )
    .slice(0, DICE_LIMITS.maxLabel)
    .join("");
}

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const char = input[i]!;
    const lower = char.toLowerCase();
    const next = input[i + 1] ?? "";
    if (/\s/.test(char)) {
      i += 1;
    } else if (char >= "0" && char <= "9") {
      let end = i;
      while (end < input.length && input[end]! >= "0" && input[end]! <= "9") end += 1;
      tokens.push({ type: "number", value: Number(input.slice(i, end)), start: i, end });
      i = end;
    } else if (char === "[" || (char === "/" && next === "*")) {
      const close = char === "[" ? "]" : "*/";
      const from = i + (char === "[" ? 1 : 2);
      const at = input.indexOf(close, from);
      const end = at < 0 ? input.length : at + close.length;
      tokens.push({
        type: "note",
        text: cleanLabel(input.slice(from, at < 0 ? end : at).replace(/[[\]]/g, " ")),
        start: i,
        end,
      });
      i = end;
    } else if (char === ">" || char === "<" || char === "=" || char === "≥" || char === "≤") {
      const withEquals = (char === ">" || char === "<") && next === "=";
      const op: Comparison =
        char === "≥"
          ? ">="
          : char === "≤"
            ? "<="
            : withEquals
              ? (`${char}=` as Comparison)
              : (char as Comparison);
      const length = withEquals ? 2 : 1;
      tokens.push({ type: "compare", op, start: i, end: i + length });
      i += length;
    } else if (/[a-zа-яё]/.test(lower) || char === "×") {
      tokens.push({ type: "letter", char: char === "×" ? "x" : lower, start: i, end: i + 1 });
      i += 1;
    } else {
      const type = MINUS_SIGNS.has(char) ? "minus" : (SINGLE[char] ?? null);
      if (type === null) {
        tokens.push({ type: "invalid", start: i, end: i + 1 });
        return tokens;
      }
      tokens.push({ type, start: i, end: i + 1 });
      i += 1;
    }
  }
  return tokens;
}

// ---------------------------------------------------------------------------------------
// Parser

const NEAR_LENGTH = 20;

/**
 * A fragment of the user's own input for an error message: at most ~20 characters, on one
 * line, with backticks swapped for quotes so it cannot break out of the code span it is shown in.
 */
function fragment(text: string): string {
  const oneLine = text.replace(/[\p{Cc}\p{Cf}]/gu, " ").replace(/`/g, "'");
  const chars = Array.from(oneLine.trim());
  return chars.length > NEAR_LENGTH ? `${chars.slice(0, NEAR_LENGTH).join("")}…` : chars.join("");
}

/** Whether a face passes a test. */
export function meets(face: number, test: FaceTest): boolean {
  switch (test.op) {
    case ">=":
      return face >= test.value;
    case ">":
      return face > test.value;
    case "<=":
      return face <= test.value;
    case "<":
      return face < test.value;
    case "=":
      return face === test.value;
  }
}

/** Modifier words after a die's sides, longest first so `rr` is not read as two `r`s. */
const MODIFIER_WORDS = [
  "макс",
  "irg",
  "min",
  "max",
  "мин",
  "kh",
  "kl",
  "dh",
  "dl",
  "ph",
  "pl",
  "ro",
  "rr",
  "ir",
  "rg",
  "ie",
  "mi",
  "ma",
  "пп",
  "k",
  "d",
  "r",
  "п",
  "e",
  "t",
  "f",
  "ф",
  "u",
] as const;
type ModifierWord = (typeof MODIFIER_WORDS)[number];

/** Peers' modifiers refused by name (errors.dice.peerModifier), longest first. */
const PEER_MODIFIERS = ["adv", "dis", "ra", "sa", "sd", "cs", "cf", "s", "b"] as const;

/** Dice Maiden's named rolls that this bot writes out, with our spelling (`{n}` is the alias' number). */
const PEER_ALIASES: { pattern: RegExp; ours: (n: string) => string }[] = [
  { pattern: /^(\d*)cod$/, ours: (n) => `${n || "1"}d10!t8` },
  { pattern: /^(\d*)wod(\d*)$/, ours: (n) => `${n || "1"}d10t8f1` },
  { pattern: /^sr(\d+)$/, ours: (n) => `${n}d6t5` },
  { pattern: /^age$/, ours: () => "2d6+1d6" },
];

class Parser {
  private index = 0;
  /** Whether the first dice term read was written with no count and no modifiers (`d20`, `d%`), and with `%`. */
  private firstDieBare = false;
  private firstDiePercent = false;
  private diceRead = 0;

  constructor(
    private readonly input: string,
    private readonly tokens: Token[],
    private readonly options: ParseOptions,
  ) {}

  parse(): { repeat: number; terms: ExpressionTerm[]; leadingNote?: string } {
    let repeat: number | null = null;
    let leadingNote: string | undefined;
    while (this.peek()?.type === "note") {
      leadingNote = (this.take() as { text: string }).text || leadingNote;
    }
    const first = this.peek();
    const second = this.tokens[this.index + 1];
    if (first?.type === "number" && second?.type === "letter" && REPEAT_LETTERS.has(second.char)) {
      repeat = this.repeatCount(first);
      this.index += 2;
    } else if (first?.type === "number" && second?.type === "number") {
      // Dice Maiden's `6 4d6`: a count, a space, then the roll.
      repeat = this.repeatCount(first);
      this.index += 1;
    }
    const terms = this.sum(true);
    const next = this.peek();
    if (next?.type === "letter" && REPEAT_LETTERS.has(next.char)) {
      if (repeat !== null) throw new DomainError("errors.dice.twoRepeats");
      this.index += 1;
      const count = this.peek();
      if (count === undefined) this.unfinished();
      if (count.type !== "number") this.unexpected(count);
      this.index += 1;
      repeat = this.repeatCount(count);
    }
    const rest = this.peek();
    if (rest !== undefined) {
      if (rest.type === "compare") {
        // d20's `1d20+5 >= 15` tests the total; here a comparison belongs to dice and counts them.
        throw new DomainError("errors.dice.compareTotal", { near: fragment(this.input.slice(rest.start)) });
      }
      if (rest.type === "close")
        throw new DomainError("errors.dice.unopenedParenthesis", { position: rest.start + 1 });
      // d20's `1d20+5 adv`: a word after the whole roll.
      if (rest.type === "letter") this.peerModifier(0);
      this.unexpected(rest);
    }
    if (!terms.some(hasDice)) {
      throw new DomainError("errors.dice.noDice", { near: fragment(this.input) });
    }
    const expression: DiceExpression = { repeat: repeat ?? 1, terms };
    const total = totalDiceCount(expression);
    if (total > DICE_LIMITS.maxDiceTotal) {
      throw new DomainError("errors.dice.tooManyDiceTotal", { total, max: DICE_LIMITS.maxDiceTotal });
    }
    const [low, high] = sumRange(terms);
    if (Math.max(Math.abs(low), Math.abs(high)) > DICE_LIMITS.maxTotal) {
      throw new DomainError("errors.dice.totalTooBig", { max: DICE_LIMITS.maxTotal });
    }
    return leadingNote ? { ...expression, leadingNote } : expression;
  }

  private sum(top = false): ExpressionTerm[] {
    const terms: ExpressionTerm[] = [];
    let sign: Sign = 1;
    const leading = this.peek();
    let signed = false;
    if (leading?.type === "plus" || leading?.type === "minus") {
      sign = leading.type === "minus" ? -1 : 1;
      signed = true;
      this.index += 1;
    }
    for (;;) {
      const term = this.product(sign);
      terms.push(top && signed && terms.length === 0 ? this.advantage(term) : term);
      const next = this.peek();
      if (next?.type !== "plus" && next?.type !== "minus") return terms;
      sign = next.type === "minus" ? -1 : 1;
      this.index += 1;
    }
  }

  /**
   * Dice Maiden's `+d20` / `-d20` (advantage, disadvantage) and `+d%` / `-d%` (a percentile bonus or
   * penalty die): a signed `d20` or `d%` with no count and no modifiers, first in the expression.
   */
  private advantage(term: ExpressionTerm): ExpressionTerm {
    if (term.kind !== "dice" || term.count !== 1 || term.reading !== "plain" || !this.firstDieBare)
      return term;
    const { sign, note } = term;
    if (this.firstDiePercent) {
      const percentile: PercentileTerm = { kind: "percentile", sign: 1, bonus: sign };
      return note ? { ...percentile, note } : percentile;
    }
    if (term.sides !== 20) return term;
    const dice: DiceTerm = {
      kind: "dice",
      sign: 1,
      count: 2,
      sides: 20,
      reading: "plain",
      keep: { mode: sign === 1 ? "kh" : "kl", count: 1 },
      advantage: sign,
    };
    return note ? { ...dice, note } : dice;
  }

  private product(sign: Sign): ExpressionTerm {
    const factors = [this.factor(sign)];
    const ops: MulOp[] = [];
    for (;;) {
      const next = this.peek();
      const after = this.tokens[this.index + 1];
      if (
        (next?.type === "times" && after?.type === "times" && this.adjacent(next, after)) ||
        (next?.type === "invalid" && this.input[next.start] === "^")
      ) {
        // rpg-dice-roller's powers, `2^3` and `2**3`.
        throw new DomainError("errors.dice.power", { near: fragment(this.input.slice(next.start)) });
      }
      if (next?.type !== "times" && next?.type !== "divide" && next?.type !== "percent") break;
      this.index += 1;
      const op: MulOp = next.type === "times" ? "*" : next.type === "divide" ? "/" : "%";
      const divisor = this.factor(1);
      if (op !== "*") {
        const [low, high] = termRange(divisor);
        if (low <= 0 && high >= 0) {
          const end = this.tokens[this.index - 1]!.end;
          throw new DomainError("errors.dice.divisionByZero", { near: fragment(this.text(next.start, end)) });
        }
      }
      factors.push(divisor);
      ops.push(op);
    }
    if (factors.length === 1) return factors[0]!;
    // The sign belongs to the whole product, not to its first factor.
    factors[0] = { ...factors[0]!, sign: 1 };
    return { kind: "product", sign, factors, ops };
  }

  private factor(sign: Sign): ExpressionTerm {
    const term = this.bareFactor(sign);
    let note: string | undefined;
    while (this.peek()?.type === "note") {
      const text = (this.take() as { text: string }).text;
      if (text) note = note ? cleanLabel(`${note} ${text}`) : text;
    }
    return note ? { ...term, note } : term;
  }

  private bareFactor(sign: Sign): ExpressionTerm {
    const token = this.peek();
    if (token === undefined) this.unfinished();
    if (token.type === "open") {
      this.index += 1;
      const terms = this.sum();
      const close = this.peek();
      if (close === undefined) {
        throw new DomainError("errors.dice.unclosedParenthesis", { position: token.start + 1 });
      }
      if (close.type !== "close") this.unexpected(close);
      this.index += 1;
      return { kind: "group", sign, terms };
    }
    if (token.type === "brace") return this.set(sign);
    if (token.type === "number") {
      this.index += 1;
      const next = this.peek();
      if (next !== undefined && this.isDieMark(next)) return this.dice(sign, token.value, token.start, false);
      if (next?.type === "letter" && this.adjacent(token, next)) this.peerAlias(token.start);
      if (token.value > DICE_LIMITS.maxConstant) {
        throw new DomainError("errors.dice.numberTooBig", {
          near: fragment(this.text(token.start, token.end)),
          max: DICE_LIMITS.maxConstant,
        });
      }
      return { kind: "constant", sign, value: token.value };
    }
    if (this.isDieMark(token)) return this.dice(sign, 1, token.start, true);
    if (token.type === "letter") this.peerAlias(token.start);
    return this.unexpected(token);
  }

  /**
   * Refuses a peer's modifier this bot has no spelling for (d20's `ra`, rpg-dice-roller's sorting and
   * critical marks, Dice Maiden's botches) by name, with what to write here instead.
   */
  private peerModifier(start: number): void {
    let word = "";
    let last: Token | undefined;
    for (let i = this.index; i < this.tokens.length; i += 1) {
      const token = this.tokens[i]!;
      if (token.type !== "letter" || (last && !this.adjacent(last, token))) break;
      word += token.char;
      last = token;
    }
    const known = PEER_MODIFIERS.find((w) => word.startsWith(w));
    if (known === undefined) return;
    this.index += known.length;
    throw new DomainError("errors.dice.peerModifier", { term: this.termText(start), word: known });
  }

  /** Refuses a Dice Maiden named roll (`4cod`, `sr6`) with this bot's spelling of it. */
  private peerAlias(start: number): void {
    let end = start;
    while (end < this.input.length && /[\p{L}\d]/u.test(this.input[end]!)) end += 1;
    const word = this.input.slice(start, end).toLowerCase();
    if (/^[a-z]+$/.test(word) && this.input.slice(end).trimStart().startsWith("(")) {
      // rpg-dice-roller's math functions: `floor(1d20/3)`, `abs(…)`.
      throw new DomainError("errors.dice.mathFunction", { term: fragment(word) });
    }
    for (const alias of PEER_ALIASES) {
      const match = alias.pattern.exec(word);
      if (match) {
        throw new DomainError("errors.dice.peerAlias", {
          term: fragment(word),
          ours: alias.ours(match[1] ?? ""),
        });
      }
    }
  }

  /**
   * A die letter where a term starts. A bare Latin `k` there (`2k6`) can only mean a die: it looks
   * exactly like the Cyrillic к, and "keep" only makes sense after a die's sides.
   */
  private isDieMark(token: Token): boolean {
    if (token.type !== "letter") return false;
    if (DIE_LETTERS.has(token.char)) return true;
    if (token.char !== "k") return false;
    const next = this.tokens[this.tokens.indexOf(token) + 1];
    return !(
      next?.type === "letter" &&
      this.adjacent(token, next) &&
      (next.char === "h" || next.char === "l")
    );
  }

  private adjacent(a: Token, b: Token): boolean {
    return a.end === b.start;
  }

  /** The longest modifier word spelled by the adjacent letters at the cursor, consumed; or null. */
  private modifierWord(): ModifierWord | null {
    let word = "";
    let last: Token | undefined;
    for (let i = this.index; i < this.tokens.length && word.length < 4; i += 1) {
      const token = this.tokens[i]!;
      if (token.type !== "letter" || (last && !this.adjacent(last, token))) break;
      word += token.char;
      last = token;
    }
    const found = MODIFIER_WORDS.find((w) => word.startsWith(w));
    if (found === undefined) return null;
    this.index += found.length;
    return found;
  }

  private optionalCompare(fallback: Comparison): Comparison {
    const token = this.peek();
    if (token?.type !== "compare") return fallback;
    this.index += 1;
    return token.op;
  }

  /** A number after a modifier (`r1`, `>=7`, `f1`), or a specific refusal naming the term. */
  private modifierNumber(start: number): number {
    const token = this.peek();
    if (token?.type !== "number") {
      const end = token?.end ?? this.tokens[this.index - 1]!.end;
      throw new DomainError("errors.dice.modifierNeedsNumber", { term: fragment(this.text(start, end)) });
    }
    this.index += 1;
    return token.value;
  }

  private optionalNumber(): number | null {
    const token = this.peek();
    if (token?.type !== "number") return null;
    this.index += 1;
    return token.value;
  }

  private termText(start: number): string {
    return fragment(this.text(start, this.tokens[this.index - 1]!.end));
  }

  /** Adds a keep/drop rule: one keep rule, or a drop at each end (`4d10dh1dl2`). */
  private addKeep(
    rules: { keep: KeepRule | null; otherEnd?: KeepRule },
    rule: KeepRule,
    start: number,
  ): { keep: KeepRule | null; otherEnd?: KeepRule } {
    if (rules.keep === null) return { keep: rule };
    const pair = [rules.keep.mode, rule.mode].sort().join();
    if (rules.otherEnd || pair !== "dh,dl") {
      throw new DomainError("errors.dice.twoKeepRules", { term: this.termText(start) });
    }
    return { keep: rules.keep, otherEnd: rule };
  }

  /** Reads `d<sides>[modifiers]` after an optional count; `start` is where the term's text begins. */
  private dice(sign: Sign, count: number, start: number, implicitCount: boolean): DiceTerm {
    const dieToken = this.take();
    const sidesToken = this.peek();
    let sides: number;
    let reading: DieReading = "plain";
    let percent = false;
    if (sidesToken?.type === "number") {
      sides = sidesToken.value;
      if (sides === 3 && this.options.fateTable) reading = "fateD3";
      this.index += 1;
    } else if (sidesToken?.type === "letter" && FATE_LETTERS.has(sidesToken.char)) {
      sides = 3;
      reading = "fateDF";
      this.index += 1;
      // rpg-dice-roller's `dF.2` (the usual Fate die) and `dF.1` (one +, one −, four blanks).
      const dot = this.peek();
      const variant = this.tokens[this.index + 1];
      if (dot?.type === "dot" && variant?.type === "number" && (variant.value === 1 || variant.value === 2)) {
        this.index += 2;
        if (variant.value === 1) {
          sides = 6;
          reading = "fateDF1";
        }
      }
    } else if (sidesToken?.type === "percent") {
      sides = 100;
      percent = true;
      this.index += 1;
    } else {
      throw new DomainError("errors.dice.missingSides", { term: fragment(this.text(start, dieToken.end)) });
    }
    const modifiersFrom = this.index;

    let rules: { keep: KeepRule | null; otherEnd?: KeepRule } = { keep: null };
    let explode: ExplodeRule | undefined;
    let reroll: RerollRule | undefined;
    let unique = false;
    let min: number | undefined;
    let max: number | undefined;
    let success: FaceTest | undefined;
    let failure: FaceTest | undefined;
    const twice = (key: ErrorKey) => {
      throw new DomainError(key, { term: this.termText(start) });
    };
    const maxFace = { op: "=" as const, value: sides };
    for (;;) {
      const token = this.peek();
      if (token?.type === "explode") {
        this.index += 1;
        let compound = false;
        let penetrate = false;
        const second = this.peek();
        if (second?.type === "explode" && this.adjacent(token, second)) {
          this.index += 1;
          compound = true;
        }
        const p = this.peek();
        if (p?.type === "letter" && p.char === "p" && this.adjacent(this.tokens[this.index - 1]!, p)) {
          this.index += 1;
          penetrate = true;
        }
        const compare = this.peek();
        const on =
          compare?.type === "compare"
            ? { op: this.optionalCompare("="), value: this.modifierNumber(start) }
            : maxFace;
        if (explode) twice("errors.dice.twoModifiers");
        explode = { on, compound, penetrate, once: false };
        continue;
      }
      if (token?.type === "compare") {
        this.index += 1;
        const value = this.modifierNumber(start);
        if (success) twice("errors.dice.twoModifiers");
        success = { op: token.op, value };
        continue;
      }
      if (token?.type !== "letter") break;
      const wordAt = this.index;
      this.peerModifier(start);
      const word = this.modifierWord();
      if (word === null) break;
      switch (word) {
        case "k":
        case "kh":
        case "kl":
        case "dh":
        case "dl":
        case "ph":
        case "pl":
        case "d": {
          if (this.peek()?.type === "compare") {
            throw new DomainError("errors.dice.keepByValue", { term: this.termText(start) });
          }
          const explicit = word === "d" ? this.modifierNumber(start) : this.optionalNumber();
          const mode: KeepMode =
            word === "k" || word === "kh"
              ? "kh"
              : word === "kl"
                ? "kl"
                : word === "dh" || word === "ph"
                  ? "dh"
                  : "dl";
          rules = this.addKeep(rules, { mode, count: explicit ?? 1 }, start);
          break;
        }
        case "e":
        case "ie": {
          const op = this.optionalCompare(">=");
          const value = this.optionalNumber();
          if (value === null && this.tokens[this.index - 1]?.type === "compare") this.modifierNumber(start);
          if (explode) twice("errors.dice.twoModifiers");
          explode = {
            on: value === null ? maxFace : { op, value },
            compound: false,
            penetrate: false,
            once: word === "e",
          };
          break;
        }
        case "r":
        case "п":
        case "ro":
        case "rr":
        case "пп":
        case "ir":
        case "rg":
        case "irg": {
          const greater = word === "rg" || word === "irg";
          const op = greater ? ">=" : this.optionalCompare("<=");
          const value = this.modifierNumber(start);
          if (reroll) twice("errors.dice.twoModifiers");
          reroll = {
            test: { op, value },
            until: word === "rr" || word === "пп" || word === "ir" || word === "irg",
          };
          break;
        }
        case "t": {
          const op = this.optionalCompare(">=");
          const value = this.modifierNumber(start);
          if (success) twice("errors.dice.twoModifiers");
          success = { op, value };
          break;
        }
        case "f":
        case "ф": {
          const op = this.optionalCompare("<=");
          const value = this.modifierNumber(start);
          if (failure) twice("errors.dice.twoModifiers");
          failure = { op, value };
          break;
        }
        case "min":
        case "mi":
        case "мин": {
          const value = this.modifierNumber(start);
          if (min !== undefined) twice("errors.dice.twoModifiers");
          min = value;
          break;
        }
        case "max":
        case "ma":
        case "макс": {
          const value = this.modifierNumber(start);
          if (max !== undefined) twice("errors.dice.twoModifiers");
          max = value;
          break;
        }
        case "u": {
          if (unique) twice("errors.dice.twoModifiers");
          unique = true;
          break;
        }
      }
      if (this.index === wordAt) break;
    }
    this.diceRead += 1;
    if (this.diceRead === 1) {
      this.firstDieBare = implicitCount && this.index === modifiersFrom;
      this.firstDiePercent = percent;
    }

    const term = this.termText(start);
    const { keep, otherEnd } = rules;
    if (count === 0) throw new DomainError("errors.dice.zeroDice", { term });
    if (count > DICE_LIMITS.maxDicePerTerm) {
      throw new DomainError("errors.dice.tooManyDice", { term, max: DICE_LIMITS.maxDicePerTerm });
    }
    if (sides === 0) throw new DomainError("errors.dice.zeroSides", { term, min: DICE_LIMITS.minSides });
    if (sides < DICE_LIMITS.minSides) {
      throw new DomainError("errors.dice.oneSidedDie", { term, min: DICE_LIMITS.minSides });
    }
    if (sides > DICE_LIMITS.maxSides) {
      throw new DomainError("errors.dice.tooManySides", { term, max: DICE_LIMITS.maxSides });
    }
    validateKeep(keep, otherEnd, count, term);
    const fate = reading !== "plain";
    if (
      fate &&
      (explode || reroll || success || failure || unique || min !== undefined || max !== undefined)
    ) {
      throw new DomainError("errors.dice.fateDiceModifier", { term });
    }
    if (failure && !success) {
      if (explode && explode.on !== maxFace && (explode.on.op === ">=" || explode.on.op === ">")) {
        // `4d10!>=8f1`: after `!`, `>=8` is where the dice explode (rpg-dice-roller), not a target.
        const target = explode.on.op === ">" ? explode.on.value + 1 : explode.on.value;
        const ours = `${count}d${sides}!t${target}f${testText(failure, "<=")}`;
        throw new DomainError("errors.dice.explodeCompareNotTarget", { term, ours });
      }
      throw new DomainError("errors.dice.failureWithoutTarget", { term });
    }
    if (min !== undefined && max !== undefined && min > max) {
      throw new DomainError("errors.dice.clampsCross", { term });
    }
    for (const value of [min, max]) {
      if (value !== undefined && (value < 1 || value > sides)) {
        throw new DomainError("errors.dice.testBeyondSides", { term, sides });
      }
    }
    for (const test of [reroll?.test, success, failure, explode?.on]) {
      if (test && test.value > sides) throw new DomainError("errors.dice.testBeyondSides", { term, sides });
    }
    const countsAs = (face: number) => clampValue(face, min, max);
    const faces = Array.from({ length: sides }, (_, i) => countsAs(i + 1));
    if (reroll && faces.every((v) => meets(v, reroll.test))) {
      throw new DomainError("errors.dice.rerollEveryFace", { term });
    }
    if (explode && faces.every((v) => meets(v, explode.on))) {
      throw new DomainError("errors.dice.explodeEveryFace", { term });
    }
    if (unique && count > new Set(faces).size) {
      throw new DomainError("errors.dice.uniqueTooFewFaces", { term, faces: new Set(faces).size });
    }
    const dice: DiceTerm = { kind: "dice", sign, count, sides, reading, keep };
    if (otherEnd) dice.otherEnd = otherEnd;
    if (explode) dice.explode = explode;
    if (reroll) dice.reroll = reroll;
    if (unique) dice.unique = true;
    if (min !== undefined) dice.min = min;
    if (max !== undefined) dice.max = max;
    if (success) dice.success = success;
    if (failure) dice.failure = failure;
    return dice;
  }

  /** `{4d6, 2d10}k1`: sums in braces, then keep/drop rules and success tests on their totals. */
  private set(sign: Sign): ExpressionTerm {
    const open = this.take();
    const members: ExpressionTerm[][] = [this.sum()];
    for (;;) {
      const token = this.peek();
      if (token === undefined)
        throw new DomainError("errors.dice.unclosedBrace", { position: open.start + 1 });
      if (token.type === "unbrace") break;
      if (token.type !== "comma") this.unexpected(token);
      this.index += 1;
      members.push(this.sum());
    }
    this.index += 1;
    const term = () => this.termText(open.start);
    if (members.length > DICE_LIMITS.maxSetMembers) {
      throw new DomainError("errors.dice.tooManySetMembers", {
        term: term(),
        max: DICE_LIMITS.maxSetMembers,
      });
    }
    let rules: { keep: KeepRule | null; otherEnd?: KeepRule } = { keep: null };
    let success: FaceTest | undefined;
    let failure: FaceTest | undefined;
    const modifiersFrom = this.index;
    for (;;) {
      const token = this.peek();
      if (token?.type === "compare") {
        this.index += 1;
        const value = this.modifierNumber(open.start);
        if (success) throw new DomainError("errors.dice.twoModifiers", { term: term() });
        success = { op: token.op, value };
        continue;
      }
      if (token?.type !== "letter") break;
      const at = this.index;
      const word = this.modifierWord();
      if (word === "k" || word === "kh" || word === "kl" || word === "dh" || word === "dl" || word === "d") {
        const explicit = word === "d" ? this.modifierNumber(open.start) : this.optionalNumber();
        const mode: KeepMode =
          word === "k" || word === "kh" ? "kh" : word === "kl" ? "kl" : word === "dh" ? "dh" : "dl";
        rules = this.addKeep(rules, { mode, count: explicit ?? 1 }, open.start);
      } else if (word === "t") {
        const op = this.optionalCompare(">=");
        success = { op, value: this.modifierNumber(open.start) };
      } else if (word === "f" || word === "ф") {
        const op = this.optionalCompare("<=");
        if (failure) throw new DomainError("errors.dice.twoModifiers", { term: term() });
        failure = { op, value: this.modifierNumber(open.start) };
      } else {
        this.index = at;
        break;
      }
    }
    if (members.length === 1) {
      if (this.index > modifiersFrom) throw new DomainError("errors.dice.setOfOne", { term: term() });
      return { kind: "group", sign, terms: members[0]! };
    }
    validateKeep(rules.keep, rules.otherEnd, members.length, term());
    if (failure && !success) throw new DomainError("errors.dice.failureWithoutTarget", { term: term() });
    const set: SetTerm = { kind: "set", sign, members, keep: rules.keep };
    if (rules.otherEnd) set.otherEnd = rules.otherEnd;
    if (success) set.success = success;
    if (failure) set.failure = failure;
    return set;
  }

  private repeatCount(token: Extract<Token, { type: "number" }>): number {
    if (token.value === 0) throw new DomainError("errors.dice.zeroRepeats");
    if (token.value > DICE_LIMITS.maxRepeats) {
      throw new DomainError("errors.dice.tooManyRepeats", {
        repeats: token.value,
        max: DICE_LIMITS.maxRepeats,
      });
    }
    return token.value;
  }

  private peek(): Token | undefined {
    return this.tokens[this.index];
  }

  private take(): Token {
    const token = this.tokens[this.index]!;
    this.index += 1;
    return token;
  }

  private text(start: number, end: number): string {
    return this.input.slice(start, end);
  }

  private unexpected(token: Token): never {
    throw new DomainError("errors.dice.unexpected", {
      near: fragment(this.input.slice(token.start)),
      position: token.start + 1,
    });
  }

  /** The expression stopped where a number or die was still needed (`2d6+`, `6x`, `(1d6`). */
  private unfinished(): never {
    const tail = Array.from(this.input.trimEnd());
    throw new DomainError("errors.dice.unfinished", {
      near: fragment(tail.slice(-NEAR_LENGTH).join("")),
    });
  }
}

/** Keep/drop rules must leave at least one of `count` dice (or sums) and keep no more than there are. */
function validateKeep(
  keep: KeepRule | null,
  otherEnd: KeepRule | undefined,
  count: number,
  term: string,
): void {
  if (keep === null) return;
  for (const rule of otherEnd ? [keep, otherEnd] : [keep]) {
    if (rule.count === 0) throw new DomainError("errors.dice.keepZero", { term });
    const keeps = rule.mode === "kh" || rule.mode === "kl";
    if (keeps && rule.count > count) {
      throw new DomainError("errors.dice.keepMoreThanRolled", { term, keep: rule.count, count });
    }
  }
  const dropped = count - keptCount(keep, otherEnd, count);
  if (keptCount(keep, otherEnd, count) <= 0) {
    throw new DomainError("errors.dice.dropAllDice", { term, drop: dropped, count });
  }
}

/** Dice (or sums) kept of `rolled` by the rules. */
function keptCount(keep: KeepRule | null, otherEnd: KeepRule | undefined, rolled: number): number {
  if (keep === null) return rolled;
  const first = keep.mode === "kh" || keep.mode === "kl" ? Math.min(keep.count, rolled) : rolled - keep.count;
  return otherEnd ? first - otherEnd.count : first;
}

function clampValue(face: number, min: number | undefined, max: number | undefined): number {
  const atLeast = min === undefined ? face : Math.max(min, face);
  return max === undefined ? atLeast : Math.min(max, atLeast);
}

/**
 * Splits off a comment: `1d20+5 # атака`, `1d20 // атака` or Dice Maiden's `3d6 ! атака` (a `!` after
 * a space) — trimmed, on one line, at most DICE_LIMITS.maxLabel characters; empty → none. A `#`, `//`
 * or `!` inside `[ ]` or `/* *∕` is part of that note.
 */
function splitLabel(input: string): { text: string; label?: string } {
  let at = -1;
  let skip = 0;
  for (let i = 0; i < input.length; i += 1) {
    if (skip > i) continue;
    const char = input[i]!;
    if (char === "[" || (char === "/" && input[i + 1] === "*")) {
      const close = char === "[" ? "]" : "*/";
      const end = input.indexOf(close, i + 1);
      if (end < 0) break;
      skip = end + close.length;
      continue;
    }
    const afterSpace = i === 0 || /\s/.test(input[i - 1]!);
    if (char === "#" || (char === "/" && input[i + 1] === "/") || (char === "!" && afterSpace)) {
      at = i;
      break;
    }
  }
  if (at < 0) return { text: input };
  const skipMark = input[at] === "/" ? 2 : 1;
  const label = cleanLabel(input.slice(at + skipMark));
  return label === "" ? { text: input.slice(0, at) } : { text: input.slice(0, at), label };
}

/** Dice Maiden's `dndstats`: six ability scores, each 4d6 keeping the highest 3. */
const NAMED_ROLLS: ReadonlyMap<string, string> = new Map([["dndstats", "6x 4d6kh3"]]);

/**
 * Parses a `/roll` expression. Throws a DomainError (`errors.dice.*`) naming what is wrong,
 * with a fragment of the user's own input where that helps.
 */
export function parseDiceExpression(input: string, options: ParseOptions): DiceExpression {
  const trimmed = input.trim();
  if (trimmed.length > DICE_LIMITS.maxLength) {
    throw new DomainError("errors.dice.tooLong", { length: trimmed.length, max: DICE_LIMITS.maxLength });
  }
  const split = splitLabel(input);
  const repeatBeforeHash = /^\s*(\d+)\s*$/.exec(split.text);
  if (repeatBeforeHash && split.label) {
    // `6#4d6` (repeats in some dice bots) would otherwise be a 6 labelled "4d6".
    throw new DomainError("errors.dice.hashRepeat", {
      near: fragment(trimmed),
      ours: fragment(`${repeatBeforeHash[1]}x ${split.label}`),
    });
  }
  // A Map, not an object: "constructor" or "__proto__" typed as a roll is no named roll.
  const text = NAMED_ROLLS.get(split.text.trim().toLowerCase()) ?? split.text;
  if (text.trim() === "") throw new DomainError("errors.dice.empty");
  const { leadingNote, ...expression } = new Parser(text, tokenize(text), options).parse();
  const label = split.label ?? leadingNote;
  return label === undefined ? expression : { ...expression, label };
}

function hasDice(term: ExpressionTerm): boolean {
  switch (term.kind) {
    case "dice":
    case "percentile":
      return true;
    case "constant":
      return false;
    case "group":
      return term.terms.some(hasDice);
    case "set":
      return term.members.some((member) => member.some(hasDice));
    case "product":
      return term.factors.some(hasDice);
  }
}

function termDiceCount(term: ExpressionTerm): number {
  switch (term.kind) {
    case "dice":
      return term.count;
    case "percentile":
      return 3;
    case "constant":
      return 0;
    case "group":
      return term.terms.reduce((sum, t) => sum + termDiceCount(t), 0);
    case "set":
      return term.members.flat().reduce((sum, t) => sum + termDiceCount(t), 0);
    case "product":
      return term.factors.reduce((sum, t) => sum + termDiceCount(t), 0);
  }
}

/** Dice rolled by the whole expression, every repeat included (before explosions and rerolls). */
export function totalDiceCount(expression: DiceExpression): number {
  return expression.terms.reduce((sum, term) => sum + termDiceCount(term), 0) * expression.repeat;
}

// ---------------------------------------------------------------------------------------
// Canonical text

const testText = (test: FaceTest, defaultOp: Comparison | null) =>
  `${test.op === defaultOp ? "" : test.op}${test.value}`;

function sumText(terms: readonly ExpressionTerm[]): string {
  return terms
    .map((term, i) => {
      const sign = term.sign === -1 ? "-" : i === 0 ? "" : "+";
      return sign + canonicalTerm(term);
    })
    .join("");
}

const keepText = (keep: KeepRule | null, otherEnd?: KeepRule) =>
  (keep === null ? "" : `${keep.mode}${keep.count}`) + (otherEnd ? `${otherEnd.mode}${otherEnd.count}` : "");

function explodeText(term: DiceTerm): string {
  const explode = term.explode;
  if (!explode) return "";
  const atMaximum = explode.on.op === "=" && explode.on.value === term.sides;
  if (explode.once) return atMaximum ? "e" : `e${testText(explode.on, ">=")}`;
  const marks = `!${explode.compound ? "!" : ""}${explode.penetrate ? "p" : ""}`;
  return atMaximum ? marks : `${marks}${explode.on.op}${explode.on.value}`;
}

/** A term without its sign or note: `4d6kh3`, `4dF`, `4d6!r1`, `10d10>=7f1`, `(1d6+2)*2`, `3`. */
export function canonicalTerm(term: ExpressionTerm): string {
  return bareCanonicalTerm(term) + (term.note ? `[${term.note}]` : "");
}

function bareCanonicalTerm(term: ExpressionTerm): string {
  switch (term.kind) {
    case "constant":
      return String(term.value);
    case "group":
      return `(${sumText(term.terms)})`;
    case "set": {
      const success = term.success ? testText(term.success, null) : "";
      const failure = term.failure ? `f${testText(term.failure, "<=")}` : "";
      return `{${term.members.map(sumText).join(", ")}}${keepText(term.keep, term.otherEnd)}${success}${failure}`;
    }
    case "percentile":
      return term.bonus === 1 ? "+d%" : "-d%";
    case "product":
      return term.factors.map((f, i) => (i === 0 ? "" : term.ops[i - 1]) + canonicalTerm(f)).join("");
    case "dice": {
      if (term.advantage) return term.advantage === 1 ? "+d20" : "-d20";
      const die = term.reading === "fateDF" ? "F" : term.reading === "fateDF1" ? "F.1" : String(term.sides);
      const reroll = term.reroll
        ? `${term.reroll.until ? "rr" : "r"}${testText(term.reroll.test, "<=")}`
        : "";
      const unique = term.unique ? "u" : "";
      const min = term.min === undefined ? "" : `min${term.min}`;
      const max = term.max === undefined ? "" : `max${term.max}`;
      const success = term.success ? testText(term.success, null) : "";
      const failure = term.failure ? `f${testText(term.failure, "<=")}` : "";
      const keep = keepText(term.keep, term.otherEnd);
      // After `!` a comparison is where the dice explode (`4d10!>=8`), so a success test there is `t`.
      const successText = term.explode && term.success ? `t${testText(term.success, ">=")}` : success;
      return `${term.count}d${die}${explodeText(term)}${reroll}${unique}${min}${max}${keep}${successText}${failure}`;
    }
  }
}

/**
 * The expression in one normal form: Latin letters, explicit counts, no spaces, repeats as a
 * prefix, the label after ` # `. `2д6+3` → `2d6+3`, `d20` → `1d20`, `4d6k3 x6` → `6x 4d6kh3`,
 * `d%` → `1d100`. Parsing it again (with the same options) gives back the same expression.
 */
export function canonical(expression: DiceExpression): string {
  const sum = sumText(expression.terms);
  const repeated = expression.repeat > 1 ? `${expression.repeat}x ${sum}` : sum;
  return expression.label ? `${repeated} # ${expression.label}` : repeated;
}

/** The canonical text without the label (what the roll shows next to its dice). */
export function canonicalDice(expression: DiceExpression): string {
  const { label: _label, ...rest } = expression;
  return canonical(rest);
}

// ---------------------------------------------------------------------------------------
// Rolling

/** docs/rules/fate.md §3.1: a d3 read as a Fate die, 1 → +1, 2 → −1, 3 → 0. */
export function readFateDie(face: number): -1 | 0 | 1 {
  if (face === 1) return 1;
  if (face === 2) return -1;
  if (face === 3) return 0;
  throw new RangeError(`readFateDie: ${face} is not a d3 face`);
}

/** `dF.1`: a d6 read as 1 → −1, 6 → +1, anything else 0. */
export function readFateDF1(face: number): -1 | 0 | 1 {
  return face === 1 ? -1 : face === 6 ? 1 : 0;
}

export function fateSymbol(value: number): FateSymbol {
  return value > 0 ? "+" : value < 0 ? "−" : "0";
}

/**
 * Which dice a keep/drop rule keeps. Ties go to the die rolled first, so the choice is
 * deterministic and can be re-derived from the log.
 */
export function keptMask(values: readonly number[], keep: KeepRule | null): boolean[] {
  if (keep === null) return values.map(() => true);
  const highestFirst = keep.mode === "kh" || keep.mode === "dh";
  const order = values
    .map((value, index) => ({ value, index }))
    .sort((a, b) => (highestFirst ? b.value - a.value : a.value - b.value) || a.index - b.index);
  const chosen = new Set(order.slice(0, keep.count).map((entry) => entry.index));
  const keeps = keep.mode === "kh" || keep.mode === "kl";
  return values.map((_, index) => chosen.has(index) === keeps);
}

/** Both rules: the second chooses among the values the first kept (a `dh`/`dl` pair never overlaps). */
function keptMaskBoth(values: readonly number[], keep: KeepRule | null, otherEnd?: KeepRule): boolean[] {
  const first = keptMask(values, keep);
  if (!otherEnd) return first;
  const standing = first.flatMap((kept, i) => (kept ? [i] : []));
  const second = keptMask(
    standing.map((i) => values[i]!),
    otherEnd,
  );
  const out = values.map(() => false);
  standing.forEach((index, n) => {
    out[index] = second[n]!;
  });
  return out;
}

interface PlainRoll {
  face: number;
  value: number;
  rerolled: boolean;
  exploded: boolean;
  clamped: boolean;
  compounded?: number[];
}

/**
 * Rolls a plain-dice term. Each die is rerolled once (`r`) or until it passes (`rr`, at most
 * DICE_LIMITS.maxRerollsPerTerm rerolls per term), rolled again while it repeats a value already
 * standing (`u`, under the same cap), and then, if its value meets the explosion test, adds a die
 * (at most DICE_LIMITS.maxExplodedPerTerm per term, so `!` always ends). `min`/`max` set what each
 * die counts as, and every test reads that value; a penetrating added die counts 1 less.
 */
function rollPlainFaces(term: DiceTerm, dice: DiceSource): PlainRoll[] {
  const out: PlainRoll[] = [];
  const standing: number[] = [];
  let rerolls = 0;
  let extra = 0;
  const countsAs = (face: number) => clampValue(face, term.min, term.max);
  for (let n = 0; n < term.count; n += 1) {
    const chain: PlainRoll[] = [];
    let added = false;
    for (;;) {
      let face = dice.roll(term.sides);
      const reroll = term.reroll;
      if (reroll && !reroll.until && meets(countsAs(face), reroll.test)) {
        out.push({ face, value: countsAs(face), rerolled: true, exploded: added, clamped: false });
        face = dice.roll(term.sides);
      }
      // Rerolled until the die passes and repeats no standing value, as far as the cap allows.
      const rollAgain = (f: number) =>
        (reroll?.until === true && meets(countsAs(f), reroll.test)) ||
        (term.unique === true && standing.includes(countsAs(f)));
      while (rollAgain(face) && rerolls < DICE_LIMITS.maxRerollsPerTerm) {
        out.push({ face, value: countsAs(face), rerolled: true, exploded: added, clamped: false });
        face = dice.roll(term.sides);
        rerolls += 1;
      }
      const clamped = countsAs(face);
      const value = clamped - (added && term.explode?.penetrate ? 1 : 0);
      const die: PlainRoll = { face, value, rerolled: false, exploded: added, clamped: clamped !== face };
      chain.push(die);
      standing.push(clamped);
      const explode = term.explode;
      const again =
        explode &&
        meets(clamped, explode.on) &&
        !(explode.once && added) &&
        extra < DICE_LIMITS.maxExplodedPerTerm;
      if (!again) break;
      extra += 1;
      added = true;
      if (!explode.compound) out.push(die);
    }
    if (term.explode?.compound && chain.length > 1) {
      const first = chain[0]!;
      out.push({
        face: first.face,
        value: chain.reduce((sum, d) => sum + d.value, 0),
        rerolled: false,
        exploded: false,
        clamped: chain.some((d) => d.clamped),
        compounded: chain.map((d) => d.face),
      });
    } else {
      out.push(chain.at(-1)!);
    }
  }
  return out;
}

function testCount(value: number, success: FaceTest | undefined, failure: FaceTest | undefined): -1 | 0 | 1 {
  return success && meets(value, success) ? 1 : failure && meets(value, failure) ? -1 : 0;
}

function rollDiceTerm(term: DiceTerm, dice: DiceSource): DiceTermRoll {
  const fate = term.reading !== "plain";
  const read = term.reading === "fateDF1" ? readFateDF1 : readFateDie;
  const rolled: PlainRoll[] = fate
    ? rollMany(dice, term.count, term.sides).map((face) => ({
        face,
        value: read(face),
        rerolled: false,
        exploded: false,
        clamped: false,
      }))
    : rollPlainFaces(term, dice);
  const liveIndexes = rolled.flatMap((r, i) => (r.rerolled ? [] : [i]));
  const liveKept = keptMaskBoth(
    liveIndexes.map((i) => rolled[i]!.value),
    term.keep,
    term.otherEnd,
  );
  const kept = rolled.map(() => false);
  liveIndexes.forEach((index, n) => {
    kept[index] = liveKept[n]!;
  });
  const out: RolledDie[] = rolled.map((r, i) => {
    const die: RolledDie = {
      sides: term.sides,
      face: r.face,
      value: r.value,
      fateSymbol: fate ? fateSymbol(r.value) : null,
      kept: kept[i]!,
    };
    if (r.rerolled) die.rerolled = true;
    if (r.exploded) die.exploded = true;
    if (r.compounded) die.compounded = r.compounded;
    if (r.clamped) die.clamped = true;
    if (term.success) die.counts = testCount(r.value, term.success, term.failure);
    return die;
  });
  const subtotal = out.reduce((sum, die) => sum + (die.kept ? (die.counts ?? die.value) : 0), 0);
  const roll: DiceTermRoll = {
    kind: "dice",
    sign: term.sign,
    notation: bareCanonicalTerm(term),
    reading: term.reading,
    sides: term.sides,
    keep: term.keep,
    dice: out,
    subtotal,
  };
  return term.note ? { ...roll, note: term.note } : roll;
}

/** A d10 read as a percentile digit: 10 reads 0. */
const digit = (face: number) => face % 10;

function rollPercentile(term: PercentileTerm, dice: DiceSource): PercentileTermRoll {
  const tens = [dice.roll(10), dice.roll(10)];
  const units = dice.roll(10);
  const results = tens.map((face) => digit(face) * 10 + digit(units) || 100);
  // The bonus keeps the lower (better) result, the penalty the higher; a tie keeps the first.
  const chosen = term.bonus === 1 ? (results[1]! < results[0]! ? 1 : 0) : results[1]! > results[0]! ? 1 : 0;
  const d10 = (face: number, kept: boolean, value: number): RolledDie => ({
    sides: 10,
    face,
    value,
    fateSymbol: null,
    kept,
  });
  const roll: PercentileTermRoll = {
    kind: "percentile",
    sign: 1,
    notation: bareCanonicalTerm(term),
    dice: [
      d10(tens[0]!, chosen === 0, digit(tens[0]!) * 10),
      d10(tens[1]!, chosen === 1, digit(tens[1]!) * 10),
      d10(units, true, digit(units)),
    ],
    subtotal: results[chosen]!,
  };
  return term.note ? { ...roll, note: term.note } : roll;
}

const withNote = <T extends TermRoll>(roll: T, note: string | undefined): T =>
  note ? { ...roll, note } : roll;

/** Floored remainder, like floored division: the result takes the divisor's sign. */
const floorMod = (a: number, b: number) => a - b * Math.floor(a / b);

function rollTerm(term: ExpressionTerm, dice: DiceSource): TermRoll {
  switch (term.kind) {
    case "constant":
      return withNote(
        { kind: "constant", sign: term.sign, notation: bareCanonicalTerm(term), subtotal: term.value },
        term.note,
      );
    case "dice":
      return rollDiceTerm(term, dice);
    case "percentile":
      return rollPercentile(term, dice);
    case "group": {
      const terms = term.terms.map((t) => rollTerm(t, dice));
      const subtotal = terms.reduce((sum, t) => sum + t.sign * t.subtotal, 0);
      return withNote(
        { kind: "group", sign: term.sign, notation: bareCanonicalTerm(term), terms, subtotal },
        term.note,
      );
    }
    case "set": {
      const members = term.members.map((sum) => {
        const terms = sum.map((t) => rollTerm(t, dice));
        return { terms, total: terms.reduce((acc, t) => acc + t.sign * t.subtotal, 0) };
      });
      const kept = keptMaskBoth(
        members.map((m) => m.total),
        term.keep,
        term.otherEnd,
      );
      const rolled: SetMemberRoll[] = members.map((m, i) => {
        const member: SetMemberRoll = { ...m, kept: kept[i]! };
        if (term.success) member.counts = testCount(m.total, term.success, term.failure);
        return member;
      });
      const subtotal = rolled.reduce((sum, m) => sum + (m.kept ? (m.counts ?? m.total) : 0), 0);
      return withNote(
        { kind: "set", sign: term.sign, notation: bareCanonicalTerm(term), members: rolled, subtotal },
        term.note,
      );
    }
    case "product": {
      const factors = term.factors.map((t) => rollTerm(t, dice));
      let subtotal = factors[0]!.sign * factors[0]!.subtotal;
      term.ops.forEach((op, i) => {
        const value = factors[i + 1]!.sign * factors[i + 1]!.subtotal;
        subtotal =
          op === "*"
            ? subtotal * value
            : op === "/"
              ? Math.floor(subtotal / value)
              : floorMod(subtotal, value);
      });
      // −0 (e.g. −1 × 0) shows as 0.
      return withNote(
        {
          kind: "product",
          sign: term.sign,
          notation: bareCanonicalTerm(term),
          factors,
          ops: term.ops,
          subtotal: subtotal + 0,
        },
        term.note,
      );
    }
  }
}

/** Rolls the expression: every repeat, every term, every die (dropped and rerolled ones included). */
export function rollDiceExpression(expression: DiceExpression, dice: DiceSource): DiceRollResult {
  const rolls = Array.from({ length: expression.repeat }, (): DiceRepeatRoll => {
    const terms = expression.terms.map((term) => rollTerm(term, dice));
    const total = terms.reduce((sum, term) => sum + term.sign * term.subtotal, 0);
    return { terms, total };
  });
  const result: DiceRollResult = {
    expression: canonicalDice(expression),
    rolls,
    minTotal: minTotal(expression),
    maxTotal: maxTotal(expression),
  };
  if (expression.label) result.label = expression.label;
  return result;
}

/** Every die a roll result rolled, in order (dropped, rerolled and exploded ones included). */
export function rolledDice(result: DiceRollResult): RolledDie[] {
  const walk = (term: TermRoll): RolledDie[] => {
    switch (term.kind) {
      case "dice":
      case "percentile":
        return term.dice;
      case "group":
        return term.terms.flatMap(walk);
      case "set":
        return term.members.flatMap((m) => m.terms.flatMap(walk));
      case "product":
        return term.factors.flatMap(walk);
      case "constant":
        return [];
    }
  };
  return result.rolls.flatMap((roll) => roll.terms.flatMap(walk));
}

// ---------------------------------------------------------------------------------------
// Reading: what each modifier does, for the answer to say in words

/** One thing the roll did that a player coming from another dice bot might read otherwise. */
export type ReadingNote =
  | { kind: "keep"; term: string; mode: KeepMode; count: number }
  | { kind: "explode"; term: string; on: FaceTest; compound: boolean; penetrate: boolean; once: boolean }
  | { kind: "reroll"; term: string; test: FaceTest; until: boolean }
  | { kind: "success"; term: string; test: FaceTest }
  | { kind: "failure"; term: string; test: FaceTest }
  | { kind: "min" | "max"; term: string; value: number }
  | { kind: "unique"; term: string }
  | { kind: "advantage"; term: string; advantage: Sign }
  | { kind: "percentile"; term: string; bonus: Sign }
  | { kind: "fateDF1"; term: string }
  /** `/` rounds down (rpg-dice-roller divides exactly). */
  | { kind: "division" }
  /** `%` is the floored remainder. */
  | { kind: "remainder" }
  /** `×`/`÷` before `+`/`−` (Dice Maiden reads left to right). */
  | { kind: "precedence" };

/** The readings to show with a roll, each once, in the order the expression gives them. */
export function readingOf(expression: DiceExpression): ReadingNote[] {
  const notes: ReadingNote[] = [];
  const seen = new Set<string>();
  const add = (note: ReadingNote) => {
    const key = JSON.stringify(note);
    if (!seen.has(key)) {
      seen.add(key);
      notes.push(note);
    }
  };
  const keepNotes = (term: string, keep: KeepRule | null, otherEnd?: KeepRule) => {
    for (const rule of [keep, otherEnd])
      if (rule) add({ kind: "keep", term, mode: rule.mode, count: rule.count });
  };
  const walkSum = (terms: readonly ExpressionTerm[]) => {
    if (terms.length > 1 && terms.some((t) => t.kind === "product")) add({ kind: "precedence" });
    for (const t of terms) walk(t);
  };
  const walk = (term: ExpressionTerm): void => {
    const text = bareCanonicalTerm(term);
    switch (term.kind) {
      case "constant":
        return;
      case "percentile":
        add({ kind: "percentile", term: text, bonus: term.bonus });
        return;
      case "group":
        walkSum(term.terms);
        return;
      case "set":
        for (const member of term.members) walkSum(member);
        keepNotes(text, term.keep, term.otherEnd);
        if (term.success) add({ kind: "success", term: text, test: term.success });
        if (term.failure) add({ kind: "failure", term: text, test: term.failure });
        return;
      case "product":
        for (const op of term.ops) {
          if (op === "/") add({ kind: "division" });
          if (op === "%") add({ kind: "remainder" });
        }
        for (const f of term.factors) walk(f);
        return;
      case "dice": {
        if (term.advantage) {
          add({ kind: "advantage", term: text, advantage: term.advantage });
          return;
        }
        if (term.reading === "fateDF1") add({ kind: "fateDF1", term: text });
        keepNotes(text, term.keep, term.otherEnd);
        if (term.explode) add({ kind: "explode", term: text, ...term.explode });
        if (term.reroll)
          add({ kind: "reroll", term: text, test: term.reroll.test, until: term.reroll.until });
        if (term.unique) add({ kind: "unique", term: text });
        if (term.min !== undefined) add({ kind: "min", term: text, value: term.min });
        if (term.max !== undefined) add({ kind: "max", term: text, value: term.max });
        if (term.success) add({ kind: "success", term: text, test: term.success });
        if (term.failure) add({ kind: "failure", term: text, test: term.failure });
        return;
      }
    }
  };
  walkSum(expression.terms);
  return notes;
}

// ---------------------------------------------------------------------------------------
// Bounds

/** What one die can count as: its value, or −1/0/+1 with success counting. */
function counted(term: DiceTerm, value: number): number {
  return term.success ? testCount(value, term.success, term.failure) : value;
}

/**
 * The unsigned range of a plain dice term's subtotal. Without keep rules it follows each die's
 * chain of explosions: every added die was earned by a die that met the explosion test, so
 * `4d10!t8f1` can fall no lower than −4 (four 1s), not −104.
 */
function plainRange(term: DiceTerm): [number, number] {
  const faces = Array.from({ length: term.sides }, (_, i) => clampValue(i + 1, term.min, term.max));
  const explode = term.explode;
  const triggers = explode ? faces.filter((v) => meets(v, explode.on)) : [];
  const added = (v: number) => v - (explode?.penetrate ? 1 : 0);
  const range = (values: readonly number[]): [number, number] => {
    // A loop, not Math.min(...): a compounded die's values can run to 100 000.
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    for (const v of values) {
      const c = counted(term, v);
      low = Math.min(low, c);
      high = Math.max(high, c);
    }
    return [low, high];
  };
  const cap = triggers.length > 0 ? DICE_LIMITS.maxExplodedPerTerm : 0;
  // A compounded die adds its chain into one value: the same sum, unless each die is counted.
  if (term.keep === null && !(explode?.compound && term.success)) {
    const [anyLow, anyHigh] = range(faces);
    if (cap === 0) return [term.count * anyLow, term.count * anyHigh];
    const [trigLow, trigHigh] = range(triggers);
    const [addedLow, addedHigh] = range(faces.map(added));
    const [addedTrigLow, addedTrigHigh] = range(triggers.map(added));
    // A chain is a first die, then added dice; all but the last met the test. Extending `chains`
    // chains by one die, then one of them by the rest of the cap, covers every shape.
    const best = (
      first: number,
      firstTrig: number,
      last: number,
      lastTrig: number,
      pick: typeof Math.min,
    ) => {
      const extend = firstTrig + last - first;
      let out = term.count * first;
      for (let chains = 1; chains <= Math.min(term.count, cap); chains += 1) {
        const rest = explode!.once ? 0 : cap - chains;
        out = pick(out, term.count * first + chains * extend + pick(0, rest * lastTrig));
      }
      return out;
    };
    return [
      best(anyLow, trigLow, addedLow, addedTrigLow, Math.min),
      best(anyHigh, trigHigh, addedHigh, addedTrigHigh, Math.max),
    ];
  }
  // With keep rules (or counted compounding): the kept dice are some of the dice, each within the
  // range of any die — a compounded one summing a whole chain.
  const fewest = keptCount(term.keep, term.otherEnd, term.count);
  const most = keptCount(term.keep, term.otherEnd, term.count + (explode?.compound ? 0 : cap));
  let dieLow: number;
  let dieHigh: number;
  if (explode?.compound && cap > 0) {
    const low = Math.min(...faces);
    const high = Math.max(...faces);
    const valueLow = Math.min(low, Math.min(...triggers) + cap * Math.min(0, added(low)));
    const valueHigh = Math.max(high, Math.max(...triggers) + cap * Math.max(0, added(high)));
    const values = Array.from({ length: valueHigh - valueLow + 1 }, (_, i) => valueLow + i);
    [dieLow, dieHigh] = range(values);
  } else {
    [dieLow, dieHigh] = range(explode ? [...faces, ...faces.map(added)] : faces);
  }
  return [dieLow < 0 ? dieLow * most : dieLow * fewest, dieHigh > 0 ? dieHigh * most : dieHigh * fewest];
}

/** The unsigned range of one dice term's subtotal. */
function diceRange(term: DiceTerm): [number, number] {
  if (term.reading !== "plain") {
    const most = keptCount(term.keep, term.otherEnd, term.count);
    return [-most, most];
  }
  return plainRange(term);
}

/** Sums in braces: any `kept` of them, so the lowest `kept` lows to the highest `kept` highs. */
function setRange(term: SetTerm): [number, number] {
  const kept = keptCount(term.keep, term.otherEnd, term.members.length);
  if (term.success) return [term.failure ? -kept : 0, kept];
  const ranges = term.members.map(sumRange);
  const lows = ranges.map((r) => r[0]).sort((a, b) => a - b);
  const highs = ranges.map((r) => r[1]).sort((a, b) => b - a);
  const total = (values: number[]) => values.slice(0, kept).reduce((a, b) => a + b, 0);
  return [total(lows), total(highs)];
}

function sumRange(terms: readonly ExpressionTerm[]): [number, number] {
  return terms.reduce<[number, number]>(
    ([low, high], term) => {
      const [a, b] = termRange(term);
      return term.sign === 1 ? [low + a, high + b] : [low - b, high - a];
    },
    [0, 0],
  );
}

/** The unsigned range of one term's subtotal (interval arithmetic for `*`, `/` and `%`). */
function termRange(term: ExpressionTerm): [number, number] {
  switch (term.kind) {
    case "constant":
      return [term.value, term.value];
    case "dice":
      return diceRange(term);
    case "percentile":
      return [1, 100];
    case "group":
      return sumRange(term.terms);
    case "set":
      return setRange(term);
    case "product": {
      let [low, high] = termRange(term.factors[0]!);
      term.ops.forEach((op, i) => {
        const [a, b] = termRange(term.factors[i + 1]!);
        if (op === "%") {
          // The divisor's range never holds 0; the remainder takes the divisor's sign.
          [low, high] = a > 0 ? [0, b - 1] : [a + 1, 0];
          return;
        }
        // Division: the divisor's range never holds 0 (the parser refuses it), so a/b is monotone
        // in each argument and, like floor, reaches its extremes at the corners.
        const corners = [low * a, low * b, high * a, high * b].map((x, j) =>
          op === "*" ? x : Math.floor([low / a, low / b, high / a, high / b][j]!),
        );
        low = Math.min(...corners);
        high = Math.max(...corners);
      });
      return [low + 0, high + 0];
    }
  }
}

/** The lowest total one repeat can reach. */
export function minTotal(expression: DiceExpression): number {
  return sumRange(expression.terms)[0];
}

/** The highest total one repeat can reach. */
export function maxTotal(expression: DiceExpression): number {
  return sumRange(expression.terms)[1];
}
