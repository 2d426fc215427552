/**
 * The generic dice roller behind `/roll` (RULES §4): parse a dice expression into a small
 * JSON-serialisable AST, roll it through a DiceSource, and return every die rolled.
 *
 * Grammar (case-insensitive, whitespace allowed between tokens):
 *
 *   expression := [count REPEAT] sum [REPEAT count]       (repeat given at most once)
 *   sum        := [SIGN] term (SIGN term)*
 *   term       := [count] DIE sides [keep] | count
 *   sides      := count | FATE | "%"
 *   keep       := ("kh" | "kl" | "k" | "dh" | "dl") [count]   ("k" = "kh", no count = 1)
 *
 *   DIE    = d к д      FATE = f ф      REPEAT = x х ×      SIGN = + - − –
 *
 * Russian notation: `2к6+3`, `4дф`, `4кФ`, `6х 4к6kh3`. Keep/drop markers stay Latin
 * because the Cyrillic letters к and д already mean "die"; a bare Latin `k` where a term starts
 * (`2k6`) is read as a die, since it looks exactly like к.
 */
import { type DiceSource, rollMany } from "./dice.js";
import { DomainError } from "./errors.js";

/** Caps that keep one `/roll` cheap to roll, log and show. */
export const DICE_LIMITS = {
  /** Characters in the (trimmed) expression. */
  maxLength: 200,
  /** Dice in one term (`100d6`). */
  maxDicePerTerm: 100,
  /** Sides of one die (`d1000`). Dice need at least 2 sides: a d1 is a constant, a d0 is nothing. */
  maxSides: 1000,
  minSides: 2,
  /** Dice in the whole expression, counting every repeat. */
  maxDiceTotal: 1000,
  /** `6x 4d6kh3`: at most 20 repeats. */
  maxRepeats: 20,
  /** Largest constant term, so totals stay exact integers. */
  maxConstant: 1_000_000,
} as const;

export type Sign = 1 | -1;

/** kh/kl keep the N highest/lowest dice; dh/dl drop the N highest/lowest. */
export type KeepMode = "kh" | "kl" | "dh" | "dl";

export interface KeepRule {
  mode: KeepMode;
  count: number;
}

/**
 * How a die's face is read:
 * - `plain`: the face is the value (`2d6`);
 * - `fateDF`: `dF`, rolled as a d3 and read like RULES §3.1 (1 → +1, 2 → −1, 3 → 0);
 * - `fateD3`: `d3` on a Fate table, read the same way (RULES §3.1).
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
}

export interface ConstantTerm {
  kind: "constant";
  sign: Sign;
  value: number;
}

export type ExpressionTerm = DiceTerm | ConstantTerm;

/** A parsed expression: plain data, safe to store as JSON. */
export interface DiceExpression {
  /** How many times the whole sum is rolled (1 when not repeated). */
  repeat: number;
  terms: ExpressionTerm[];
}

export interface ParseOptions {
  /** On a Fate table (RULES §3.1) `d3` dice are read as Fate dice. */
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
  /** False when a keep/drop rule dropped this die; dropped dice are still shown and logged. */
  kept: boolean;
}

export interface DiceTermRoll {
  kind: "dice";
  sign: Sign;
  /** The term in canonical notation without its sign, e.g. `4d6kh3`. */
  notation: string;
  reading: DieReading;
  sides: number;
  keep: KeepRule | null;
  /** Every die rolled, in the order rolled, dropped ones marked `kept: false`. */
  dice: RolledDie[];
  /** Sum of the kept dice' values, before the sign is applied. */
  subtotal: number;
}

export interface ConstantTermRoll {
  kind: "constant";
  sign: Sign;
  notation: string;
  /** The constant, before the sign is applied. */
  subtotal: number;
}

export type TermRoll = DiceTermRoll | ConstantTermRoll;

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
}

// ---------------------------------------------------------------------------------------
// Tokenizer

type Token =
  | { type: "number"; value: number; start: number; end: number }
  | { type: "die" | "fate" | "percent" | "plus" | "minus" | "repeat"; start: number; end: number }
  | { type: "keep"; mode: KeepMode; start: number; end: number }
  /** The first character we cannot read; parsing stops there so errors come left to right. */
  | { type: "invalid"; start: number; end: number };

const DIE_LETTERS = new Set(["d", "к", "д"]);
const FATE_LETTERS = new Set(["f", "ф"]);
const REPEAT_MARKS = new Set(["x", "х", "×"]);
const MINUS_SIGNS = new Set(["-", "−", "–", "—"]);

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const char = input[i]!;
    const lower = char.toLowerCase();
    const nextLower = (input[i + 1] ?? "").toLowerCase();
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
    } else {
      const type = DIE_LETTERS.has(lower)
        ? "die"
        : FATE_LETTERS.has(lower)
          ? "fate"
          : REPEAT_MARKS.has(lower)
            ? "repeat"
            : char === "%"
              ? "percent"
              : char === "+"
                ? "plus"
                : MINUS_SIGNS.has(char)
                  ? "minus"
                  : null;
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
    if (rest !== undefined) this.unexpected(rest);
    if (!terms.some((term) => term.kind === "dice")) {
      throw new DomainError("errors.dice.noDice", { near: fragment(this.input) });
    }
    const expression: DiceExpression = { repeat: repeat ?? 1, terms };
    const total = totalDiceCount(expression);
    if (total > DICE_LIMITS.maxDiceTotal) {
      throw new DomainError("errors.dice.tooManyDiceTotal", { total, max: DICE_LIMITS.maxDiceTotal });
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
      terms.push(this.term(sign));
      const next = this.peek();
      if (next?.type !== "plus" && next?.type !== "minus") return terms;
      sign = next.type === "minus" ? -1 : 1;
      this.index += 1;
    }
  }

  private term(sign: Sign): ExpressionTerm {
    const token = this.peek();
    if (token === undefined) this.unfinished();
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

  /** Reads `d<sides>[keep]` after an optional count; `start` is where the term's text begins. */
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
    const keepToken = this.peek();
    if (keepToken?.type === "keep") {
      this.index += 1;
      const keepCount = this.peek();
      const explicit = keepCount?.type === "number" ? keepCount.value : null;
      if (explicit !== null) this.index += 1;
      keep = { mode: keepToken.mode, count: explicit ?? 1 };
      const second = this.peek();
      if (second?.type === "keep") {
        const secondCount = this.tokens[this.index + 1];
        const end = secondCount?.type === "number" ? secondCount.end : second.end;
        throw new DomainError("errors.dice.twoKeepRules", { term: fragment(this.text(start, end)) });
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
    return { kind: "dice", sign, count, sides, reading, keep };
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

  /** The expression stopped where a number or die was still needed (`2d6+`, `6x`). */
  private unfinished(): never {
    const tail = Array.from(this.input.trimEnd());
    throw new DomainError("errors.dice.unfinished", {
      near: fragment(tail.slice(-NEAR_LENGTH).join("")),
    });
  }
}

/**
 * Parses a `/roll` expression. Throws a DomainError (`errors.dice.*`) naming what is wrong,
 * with a fragment of the user's own input where that helps.
 */
export function parseDiceExpression(input: string, options: ParseOptions): DiceExpression {
  const trimmed = input.trim();
  if (trimmed === "") throw new DomainError("errors.dice.empty");
  if (trimmed.length > DICE_LIMITS.maxLength) {
    throw new DomainError("errors.dice.tooLong", { length: trimmed.length, max: DICE_LIMITS.maxLength });
  }
  return new Parser(input, tokenize(input), options).parse();
}

/** Dice rolled by the whole expression, every repeat included. */
export function totalDiceCount(expression: DiceExpression): number {
  const perRepeat = expression.terms.reduce((sum, term) => sum + (term.kind === "dice" ? term.count : 0), 0);
  return perRepeat * expression.repeat;
}

// ---------------------------------------------------------------------------------------
// Canonical text

/** A term without its sign: `4d6kh3`, `4dF`, `4d3`, `3`. */
export function canonicalTerm(term: ExpressionTerm): string {
  if (term.kind === "constant") return String(term.value);
  const die = term.reading === "fateDF" ? "F" : String(term.sides);
  const keep = term.keep === null ? "" : `${term.keep.mode}${term.keep.count}`;
  return `${term.count}d${die}${keep}`;
}

/**
 * The expression in one normal form: Latin letters, explicit counts, no spaces, repeats as a
 * prefix. `2д6+3` → `2d6+3`, `d20` → `1d20`, `4d6k3 x6` → `6x 4d6kh3`, `d%` → `1d100`.
 * Parsing it again (with the same options) gives back the same expression.
 */
export function canonical(expression: DiceExpression): string {
  const sum = expression.terms
    .map((term, i) => {
      const sign = term.sign === -1 ? "-" : i === 0 ? "" : "+";
      return sign + canonicalTerm(term);
    })
    .join("");
  return expression.repeat > 1 ? `${expression.repeat}x ${sum}` : sum;
}

// ---------------------------------------------------------------------------------------
// Rolling

/** RULES §3.1: a d3 read as a Fate die, 1 → +1, 2 → −1, 3 → 0. */
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

function rollTerm(term: ExpressionTerm, dice: DiceSource): TermRoll {
  const notation = canonicalTerm(term);
  if (term.kind === "constant") {
    return { kind: "constant", sign: term.sign, notation, subtotal: term.value };
  }
  const fate = term.reading !== "plain";
  const faces = rollMany(dice, term.count, term.sides);
  const values = faces.map((face) => (fate ? readFateDie(face) : face));
  const kept = keptMask(values, term.keep);
  const rolled: RolledDie[] = faces.map((face, i) => ({
    sides: term.sides,
    face,
    value: values[i]!,
    fateSymbol: fate ? fateSymbol(values[i]!) : null,
    kept: kept[i]!,
  }));
  const subtotal = rolled.reduce((sum, die) => sum + (die.kept ? die.value : 0), 0);
  return {
    kind: "dice",
    sign: term.sign,
    notation,
    reading: term.reading,
    sides: term.sides,
    keep: term.keep,
    dice: rolled,
    subtotal,
  };
}

/** Rolls the expression: every repeat, every term, every die (dropped ones included). */
export function rollDiceExpression(expression: DiceExpression, dice: DiceSource): DiceRollResult {
  const rolls = Array.from({ length: expression.repeat }, (): DiceRepeatRoll => {
    const terms = expression.terms.map((term) => rollTerm(term, dice));
    const total = terms.reduce((sum, term) => sum + term.sign * term.subtotal, 0);
    return { terms, total };
  });
  return {
    expression: canonical(expression),
    rolls,
    minTotal: minTotal(expression),
    maxTotal: maxTotal(expression),
  };
}

// ---------------------------------------------------------------------------------------
// Bounds

function keptCount(term: DiceTerm): number {
  if (term.keep === null) return term.count;
  return term.keep.mode === "kh" || term.keep.mode === "kl" ? term.keep.count : term.count - term.keep.count;
}

/** The unsigned range of one term's subtotal. */
function termRange(term: ExpressionTerm): [number, number] {
  if (term.kind === "constant") return [term.value, term.value];
  const n = keptCount(term);
  return term.reading === "plain" ? [n, n * term.sides] : [-n, n];
}

/** The lowest total one repeat can reach. */
export function minTotal(expression: DiceExpression): number {
  return expression.terms.reduce((sum, term) => {
    const [low, high] = termRange(term);
    return sum + (term.sign === 1 ? low : -high);
  }, 0);
}

/** The highest total one repeat can reach. */
export function maxTotal(expression: DiceExpression): number {
  return expression.terms.reduce((sum, term) => {
    const [low, high] = termRange(term);
    return sum + (term.sign === 1 ? high : -low);
  }, 0);
}
