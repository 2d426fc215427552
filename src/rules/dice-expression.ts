import type { ErrorKey } from "../i18n/types.js";
/**
 * The generic dice roller behind `/roll` (docs/rules/common.md §4.3): parse a dice expression into a small
 * JSON-serialisable AST, roll it through a DiceSource, and return every die rolled.
 *
 * Grammar (case-insensitive, whitespace allowed between tokens):
 *
 *   input      := expression ["#" label]
 *   expression := [count REPEAT] sum [REPEAT count]       (repeat given at most once)
 *   sum        := [SIGN] product (SIGN product)*
 *   product    := factor (("*" | "/") factor)*            (division rounds down)
 *   factor     := "(" sum ")" | dice | count
 *   dice       := [count] DIE sides modifier*
 *   sides      := count | FATE | "%"
 *   modifier   := "!"                                     explode: a maximum adds a die
 *               | REROLL [CMP] count                      reroll once (default ≤)
 *               | ("kh" | "kl" | "k" | "dh" | "dl") [count]   keep/drop ("k" = "kh", no count = 1)
 *               | CMP count                               count successes instead of adding
 *               | FAIL [CMP] count                        count failures too (default ≤)
 *
 *   DIE    = d к д      FATE = f ф      REPEAT = x х ×      SIGN = + - − –
 *   REROLL = r п (переброс)      FAIL = f ф      CMP = >= > <= < = ≥ ≤
 *
 * Russian notation: `2к6+3`, `4дф`, `4кФ`, `6х 4к6kh3`, `4к6п1`, `10к10>=7ф1`. Keep/drop markers
 * stay Latin because the Cyrillic letters к and д already mean "die"; a bare Latin `k` where a
 * term starts (`2k6`) is read as a die, since it looks exactly like к.
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
  /** Largest total an expression may reach (`*` could otherwise leave exact integers behind). */
  maxTotal: 1_000_000_000_000,
  /** Characters of the label after `#`. */
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

/** A test on a die's face: `>=7`, `<=1`. */
export interface FaceTest {
  op: Comparison;
  value: number;
}

export type MulOp = "*" | "/";

/**
 * How a die's face is read:
 * - `plain`: the face is the value (`2d6`);
 * - `fateDF`: `dF`, rolled as a d3 and read like docs/rules/fate.md §3.1 (1 → +1, 2 → −1, 3 → 0);
 * - `fateD3`: `d3` on a Fate table, read the same way (docs/rules/fate.md §3.1).
 */
export type DieReading = "plain" | "fateDF" | "fateD3";

export interface DiceTerm {
  kind: "dice";
  sign: Sign;
  count: number;
  /** Sides rolled on the DiceSource: 3 for both kinds of Fate dice. */
  sides: number;
  reading: DieReading;
  keep: KeepRule | null;
  /** `!`: every maximum rolls one more die (at most DICE_LIMITS.maxExplodedPerTerm per term). */
  explode?: true;
  /** `r1`: a die meeting this test is rolled again, once. */
  reroll?: FaceTest;
  /** `>=7`: the term counts dice meeting this test instead of adding faces. */
  success?: FaceTest;
  /** `f1` (with a success test): dice meeting this test count −1. */
  failure?: FaceTest;
}

export interface ConstantTerm {
  kind: "constant";
  sign: Sign;
  value: number;
}

/** `(1d6+2)`: a sum in parentheses. */
export interface GroupTerm {
  kind: "group";
  sign: Sign;
  terms: ExpressionTerm[];
}

/** `(1d6+2)*2`, `2d20kh1/2`: factors (unsigned) joined by `*` and `/`, left to right. */
export interface ProductTerm {
  kind: "product";
  sign: Sign;
  factors: ExpressionTerm[];
  /** `ops[i]` joins `factors[i]` and `factors[i + 1]`. */
  ops: MulOp[];
}

export type ExpressionTerm = DiceTerm | ConstantTerm | GroupTerm | ProductTerm;

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
  /** The raw number rolled, 1..sides (for Fate dice: the d3 face). */
  face: number;
  /** What the die counts as: the face, or −1/0/+1 for a Fate die. */
  value: number;
  /** For Fate dice the symbol shown (+ − 0); null for plain dice. */
  fateSymbol: FateSymbol | null;
  /** False when a keep/drop rule dropped this die, or it was rerolled; such dice are still shown and logged. */
  kept: boolean;
  /** This die was rolled again (`r`); the next die is its reroll. */
  rerolled?: true;
  /** This die was added by an explosion (`!`). */
  exploded?: true;
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
}

export interface ConstantTermRoll {
  kind: "constant";
  sign: Sign;
  notation: string;
  /** The constant, before the sign is applied. */
  subtotal: number;
}

export interface GroupTermRoll {
  kind: "group";
  sign: Sign;
  notation: string;
  terms: TermRoll[];
  subtotal: number;
}

export interface ProductTermRoll {
  kind: "product";
  sign: Sign;
  notation: string;
  factors: TermRoll[];
  ops: MulOp[];
  subtotal: number;
}

export type TermRoll = DiceTermRoll | ConstantTermRoll | GroupTermRoll | ProductTermRoll;

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
  | {
      type:
        | "die"
        | "fate"
        | "percent"
        | "plus"
        | "minus"
        | "repeat"
        | "times"
        | "divide"
        | "open"
        | "close"
        | "explode"
        | "reroll";
      start: number;
      end: number;
    }
  | { type: "keep"; mode: KeepMode; start: number; end: number }
  | { type: "compare"; op: Comparison; start: number; end: number }
  /** The first character we cannot read; parsing stops there so errors come left to right. */
  | { type: "invalid"; start: number; end: number };

const DIE_LETTERS = new Set(["d", "к", "д"]);
const FATE_LETTERS = new Set(["f", "ф"]);
const REPEAT_MARKS = new Set(["x", "х", "×"]);
const REROLL_LETTERS = new Set(["r", "п"]);
const MINUS_SIGNS = new Set(["-", "−", "–", "—"]);
const SINGLE: Record<string, Exclude<Token["type"], "number" | "keep" | "compare" | "invalid">> = {
  "%": "percent",
  "+": "plus",
  "*": "times",
  "/": "divide",
  "(": "open",
  ")": "close",
  "!": "explode",
};

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const char = input[i]!;
    const lower = char.toLowerCase();
    const next = input[i + 1] ?? "";
    const nextLower = next.toLowerCase();
    if (/\s/.test(char)) {
      i += 1;
    } else if (char >= "0" && char <= "9") {
      let end = i;
      while (end < input.length && input[end]! >= "0" && input[end]! <= "9") end += 1;
      tokens.push({ type: "number", value: Number(input.slice(i, end)), start: i, end });
      i = end;
    } else if (lower === "k") {
      // `k` alone means keep highest.
      const mode: KeepMode = nextLower === "l" ? "kl" : "kh";
      const length = nextLower === "h" || nextLower === "l" ? 2 : 1;
      tokens.push({ type: "keep", mode, start: i, end: i + length });
      i += length;
    } else if (lower === "d" && (nextLower === "h" || nextLower === "l")) {
      // `dh`/`dl` can never start a die (a die needs sides next), so reading them as drop is safe.
      tokens.push({ type: "keep", mode: nextLower === "h" ? "dh" : "dl", start: i, end: i + 2 });
      i += 2;
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
    } else {
      const type = DIE_LETTERS.has(lower)
        ? "die"
        : FATE_LETTERS.has(lower)
          ? "fate"
          : REPEAT_MARKS.has(lower)
            ? "repeat"
            : REROLL_LETTERS.has(lower)
              ? "reroll"
              : MINUS_SIGNS.has(char)
                ? "minus"
                : (SINGLE[char] ?? null);
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

/**
 * A die letter where a term starts. A bare Latin `k` there (`2k6`) can only mean a die: it looks
 * exactly like the Cyrillic к, and "keep" only makes sense after a die's sides.
 */
function isDieMark(token: Token): boolean {
  return (
    token.type === "die" || (token.type === "keep" && token.mode === "kh" && token.end - token.start === 1)
  );
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

/** Faces 1..sides that pass a test. */
function facesMeeting(sides: number, test: FaceTest): number {
  let n = 0;
  for (let face = 1; face <= sides; face += 1) if (meets(face, test)) n += 1;
  return n;
}

class Parser {
  private index = 0;

  constructor(
    private readonly input: string,
    private readonly tokens: Token[],
    private readonly options: ParseOptions,
  ) {}

  parse(): DiceExpression {
    let repeat: number | null = null;
    const first = this.tokens[0];
    if (first?.type === "number" && this.tokens[1]?.type === "repeat") {
      repeat = this.repeatCount(first);
      this.index = 2;
    }
    const terms = this.sum();
    const next = this.peek();
    if (next?.type === "repeat") {
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
      if (rest.type === "close")
        throw new DomainError("errors.dice.unopenedParenthesis", { position: rest.start + 1 });
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
    return expression;
  }

  private sum(): ExpressionTerm[] {
    const terms: ExpressionTerm[] = [];
    let sign: Sign = 1;
    const leading = this.peek();
    if (leading?.type === "plus" || leading?.type === "minus") {
      sign = leading.type === "minus" ? -1 : 1;
      this.index += 1;
    }
    for (;;) {
      terms.push(this.product(sign));
      const next = this.peek();
      if (next?.type !== "plus" && next?.type !== "minus") return terms;
      sign = next.type === "minus" ? -1 : 1;
      this.index += 1;
    }
  }

  private product(sign: Sign): ExpressionTerm {
    const factors = [this.factor(sign)];
    const ops: MulOp[] = [];
    for (;;) {
      const next = this.peek();
      if (next?.type !== "times" && next?.type !== "divide") break;
      this.index += 1;
      const op: MulOp = next.type === "times" ? "*" : "/";
      const divisor = this.factor(1);
      if (op === "/") {
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
    if (token.type === "number") {
      this.index += 1;
      const next = this.peek();
      if (next !== undefined && isDieMark(next)) return this.dice(sign, token.value, token.start);
      if (token.value > DICE_LIMITS.maxConstant) {
        throw new DomainError("errors.dice.numberTooBig", {
          near: fragment(this.text(token.start, token.end)),
          max: DICE_LIMITS.maxConstant,
        });
      }
      return { kind: "constant", sign, value: token.value };
    }
    if (isDieMark(token)) return this.dice(sign, 1, token.start);
    return this.unexpected(token);
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

  /** Reads `d<sides>[modifiers]` after an optional count; `start` is where the term's text begins. */
  private dice(sign: Sign, count: number, start: number): DiceTerm {
    const dieToken = this.take();
    const sidesToken = this.peek();
    let sides: number;
    let reading: DieReading = "plain";
    if (sidesToken?.type === "number") {
      sides = sidesToken.value;
      if (sides === 3 && this.options.fateTable) reading = "fateD3";
    } else if (sidesToken?.type === "fate") {
      sides = 3;
      reading = "fateDF";
    } else if (sidesToken?.type === "percent") {
      sides = 100;
    } else {
      throw new DomainError("errors.dice.missingSides", { term: fragment(this.text(start, dieToken.end)) });
    }
    this.index += 1;

    let keep: KeepRule | null = null;
    let explode = false;
    let reroll: FaceTest | undefined;
    let success: FaceTest | undefined;
    let failure: FaceTest | undefined;
    const twice = (key: ErrorKey) => {
      throw new DomainError(key, { term: fragment(this.text(start, this.tokens[this.index - 1]!.end)) });
    };
    for (;;) {
      const token = this.peek();
      if (token?.type === "keep") {
        this.index += 1;
        const keepCount = this.peek();
        const explicit = keepCount?.type === "number" ? keepCount.value : null;
        if (explicit !== null) this.index += 1;
        if (keep !== null) twice("errors.dice.twoKeepRules");
        keep = { mode: token.mode, count: explicit ?? 1 };
      } else if (token?.type === "explode") {
        this.index += 1;
        if (explode) twice("errors.dice.twoModifiers");
        explode = true;
      } else if (token?.type === "reroll") {
        this.index += 1;
        const op = this.peek()?.type === "compare" ? (this.take() as { op: Comparison }).op : "<=";
        const value = this.modifierNumber(start);
        if (reroll) twice("errors.dice.twoModifiers");
        reroll = { op, value };
      } else if (token?.type === "compare") {
        this.index += 1;
        const value = this.modifierNumber(start);
        if (success) twice("errors.dice.twoModifiers");
        success = { op: token.op, value };
      } else if (token?.type === "fate") {
        this.index += 1;
        const op = this.peek()?.type === "compare" ? (this.take() as { op: Comparison }).op : "<=";
        const value = this.modifierNumber(start);
        if (failure) twice("errors.dice.twoModifiers");
        failure = { op, value };
      } else {
        break;
      }
    }

    const term = fragment(this.text(start, this.tokens[this.index - 1]!.end));
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
    if (keep !== null) {
      if (keep.count === 0) throw new DomainError("errors.dice.keepZero", { term });
      const keeps = keep.mode === "kh" || keep.mode === "kl";
      if (keeps && keep.count > count) {
        throw new DomainError("errors.dice.keepMoreThanRolled", { term, keep: keep.count, count });
      }
      if (!keeps && keep.count >= count) {
        throw new DomainError("errors.dice.dropAllDice", { term, drop: keep.count, count });
      }
    }
    if (reading !== "plain" && (explode || reroll || success || failure)) {
      throw new DomainError("errors.dice.fateDiceModifier", { term });
    }
    if (failure && !success) throw new DomainError("errors.dice.failureWithoutTarget", { term });
    for (const test of [reroll, success, failure]) {
      if (test && test.value > sides) throw new DomainError("errors.dice.testBeyondSides", { term, sides });
    }
    if (reroll && facesMeeting(sides, reroll) === sides) {
      throw new DomainError("errors.dice.rerollEveryFace", { term });
    }
    const dice: DiceTerm = { kind: "dice", sign, count, sides, reading, keep };
    if (explode) dice.explode = true;
    if (reroll) dice.reroll = reroll;
    if (success) dice.success = success;
    if (failure) dice.failure = failure;
    return dice;
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

/**
 * Splits `1d20+5 # атака` into the expression and its label (trimmed, on one line, at most
 * DICE_LIMITS.maxLabel characters; empty → none).
 */
function splitLabel(input: string): { text: string; label?: string } {
  const hash = input.indexOf("#");
  if (hash < 0) return { text: input };
  const label = Array.from(
    input
      .slice(hash + 1)
      .replace(/[\p{Cc}\p{Cf}]/gu, " ")
      .replace(/\s+/g, " ")
      .trim(),
  )
    .slice(0, DICE_LIMITS.maxLabel)
    .join("");
  return label === "" ? { text: input.slice(0, hash) } : { text: input.slice(0, hash), label };
}

/**
 * Parses a `/roll` expression. Throws a DomainError (`errors.dice.*`) naming what is wrong,
 * with a fragment of the user's own input where that helps.
 */
export function parseDiceExpression(input: string, options: ParseOptions): DiceExpression {
  const trimmed = input.trim();
  if (trimmed.length > DICE_LIMITS.maxLength) {
    throw new DomainError("errors.dice.tooLong", { length: trimmed.length, max: DICE_LIMITS.maxLength });
  }
  const { text, label } = splitLabel(input);
  if (text.trim() === "") throw new DomainError("errors.dice.empty");
  const expression = new Parser(text, tokenize(text), options).parse();
  return label === undefined ? expression : { ...expression, label };
}

function hasDice(term: ExpressionTerm): boolean {
  switch (term.kind) {
    case "dice":
      return true;
    case "constant":
      return false;
    case "group":
      return term.terms.some(hasDice);
    case "product":
      return term.factors.some(hasDice);
  }
}

function termDiceCount(term: ExpressionTerm): number {
  switch (term.kind) {
    case "dice":
      return term.count;
    case "constant":
      return 0;
    case "group":
      return term.terms.reduce((sum, t) => sum + termDiceCount(t), 0);
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

/** A term without its sign: `4d6kh3`, `4dF`, `4d6!r1`, `10d10>=7f1`, `(1d6+2)*2`, `3`. */
export function canonicalTerm(term: ExpressionTerm): string {
  switch (term.kind) {
    case "constant":
      return String(term.value);
    case "group":
      return `(${sumText(term.terms)})`;
    case "product":
      return term.factors.map((f, i) => (i === 0 ? "" : term.ops[i - 1]) + canonicalTerm(f)).join("");
    case "dice": {
      const die = term.reading === "fateDF" ? "F" : String(term.sides);
      const explode = term.explode ? "!" : "";
      const reroll = term.reroll ? `r${testText(term.reroll, "<=")}` : "";
      const keep = term.keep === null ? "" : `${term.keep.mode}${term.keep.count}`;
      const success = term.success ? testText(term.success, null) : "";
      const failure = term.failure ? `f${testText(term.failure, "<=")}` : "";
      return `${term.count}d${die}${explode}${reroll}${keep}${success}${failure}`;
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

/**
 * Rolls a plain-dice term with rerolls and explosions: each die (an exploded one too) is rerolled
 * once if it meets the reroll test; a final face at the maximum adds a die, at most
 * DICE_LIMITS.maxExplodedPerTerm extra dice per term, so `!` always ends.
 */
function rollPlainFaces(
  term: DiceTerm,
  dice: DiceSource,
): { face: number; rerolled: boolean; exploded: boolean }[] {
  const out: { face: number; rerolled: boolean; exploded: boolean }[] = [];
  let pending = term.count;
  let extra = 0;
  let exploded = false;
  while (pending > 0) {
    pending -= 1;
    let face = dice.roll(term.sides);
    if (term.reroll && meets(face, term.reroll)) {
      out.push({ face, rerolled: true, exploded });
      face = dice.roll(term.sides);
    }
    out.push({ face, rerolled: false, exploded });
    if (term.explode && face === term.sides && extra < DICE_LIMITS.maxExplodedPerTerm) {
      extra += 1;
      pending += 1;
      exploded = true;
    } else {
      exploded = false;
    }
  }
  return out;
}

function rollDiceTerm(term: DiceTerm, dice: DiceSource): DiceTermRoll {
  const fate = term.reading !== "plain";
  const rolled = fate
    ? rollMany(dice, term.count, term.sides).map((face) => ({ face, rerolled: false, exploded: false }))
    : rollPlainFaces(term, dice);
  const values = rolled.map((r) => (fate ? readFateDie(r.face) : r.face));
  const liveIndexes = rolled.flatMap((r, i) => (r.rerolled ? [] : [i]));
  const liveKept = keptMask(
    liveIndexes.map((i) => values[i]!),
    term.keep,
  );
  const kept = rolled.map(() => false);
  liveIndexes.forEach((index, n) => {
    kept[index] = liveKept[n]!;
  });
  const out: RolledDie[] = rolled.map((r, i) => {
    const die: RolledDie = {
      sides: term.sides,
      face: r.face,
      value: values[i]!,
      fateSymbol: fate ? fateSymbol(values[i]!) : null,
      kept: kept[i]!,
    };
    if (r.rerolled) die.rerolled = true;
    if (r.exploded) die.exploded = true;
    if (term.success) {
      die.counts = meets(r.face, term.success) ? 1 : term.failure && meets(r.face, term.failure) ? -1 : 0;
    }
    return die;
  });
  const subtotal = out.reduce((sum, die) => sum + (die.kept ? (die.counts ?? die.value) : 0), 0);
  return {
    kind: "dice",
    sign: term.sign,
    notation: canonicalTerm(term),
    reading: term.reading,
    sides: term.sides,
    keep: term.keep,
    dice: out,
    subtotal,
  };
}

function rollTerm(term: ExpressionTerm, dice: DiceSource): TermRoll {
  switch (term.kind) {
    case "constant":
      return { kind: "constant", sign: term.sign, notation: canonicalTerm(term), subtotal: term.value };
    case "dice":
      return rollDiceTerm(term, dice);
    case "group": {
      const terms = term.terms.map((t) => rollTerm(t, dice));
      const subtotal = terms.reduce((sum, t) => sum + t.sign * t.subtotal, 0);
      return { kind: "group", sign: term.sign, notation: canonicalTerm(term), terms, subtotal };
    }
    case "product": {
      const factors = term.factors.map((t) => rollTerm(t, dice));
      let subtotal = factors[0]!.sign * factors[0]!.subtotal;
      term.ops.forEach((op, i) => {
        const value = factors[i + 1]!.sign * factors[i + 1]!.subtotal;
        subtotal = op === "*" ? subtotal * value : Math.floor(subtotal / value);
      });
      // −0 (e.g. −1 × 0) shows as 0.
      return {
        kind: "product",
        sign: term.sign,
        notation: canonicalTerm(term),
        factors,
        ops: term.ops,
        subtotal: subtotal + 0,
      };
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
  const walk = (term: TermRoll): RolledDie[] =>
    term.kind === "dice"
      ? term.dice
      : term.kind === "group"
        ? term.terms.flatMap(walk)
        : term.kind === "product"
          ? term.factors.flatMap(walk)
          : [];
  return result.rolls.flatMap((roll) => roll.terms.flatMap(walk));
}

// ---------------------------------------------------------------------------------------
// Bounds

function keptOf(term: DiceTerm, rolled: number): number {
  if (term.keep === null) return rolled;
  return term.keep.mode === "kh" || term.keep.mode === "kl" ? term.keep.count : rolled - term.keep.count;
}

/** The unsigned range of one dice term's subtotal. */
function diceRange(term: DiceTerm): [number, number] {
  const fewest = keptOf(term, term.count);
  const most = keptOf(term, term.count + (term.explode ? DICE_LIMITS.maxExplodedPerTerm : 0));
  if (term.reading !== "plain") return [-most, most];
  if (!term.success) return [fewest, most * term.sides];
  // Each kept die counts +1, 0 or −1, as its faces allow.
  const success = term.success;
  const failure = term.failure;
  let low = 1;
  let high = -1;
  for (let face = 1; face <= term.sides; face += 1) {
    const counts = meets(face, success) ? 1 : failure && meets(face, failure) ? -1 : 0;
    low = Math.min(low, counts);
    high = Math.max(high, counts);
  }
  return [low < 0 ? low * most : low * fewest, high > 0 ? high * most : high * fewest];
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

/** The unsigned range of one term's subtotal (interval arithmetic for `*` and `/`). */
function termRange(term: ExpressionTerm): [number, number] {
  switch (term.kind) {
    case "constant":
      return [term.value, term.value];
    case "dice":
      return diceRange(term);
    case "group":
      return sumRange(term.terms);
    case "product": {
      let [low, high] = termRange(term.factors[0]!);
      term.ops.forEach((op, i) => {
        const [a, b] = termRange(term.factors[i + 1]!);
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
