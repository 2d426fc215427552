import { expect } from "vitest";
import { scriptedDice } from "../../src/rules/dice.js";
import {
  type DiceTermRoll,
  type ParseOptions,
  parseDiceExpression,
  rollDiceExpression,
  type TermRoll,
} from "../../src/rules/dice-expression.js";
import { DomainError } from "../../src/rules/errors.js";

/** The dice tests' own helpers: an expression rolled with scripted faces, and its refusal. */
export const plainTable: ParseOptions = { fateTable: false };

/** Rolls `input` with exactly these faces (every one of them used). */
export function roll(input: string, faces: number[], options: ParseOptions = plainTable) {
  const dice = scriptedDice(faces);
  const result = rollDiceExpression(parseDiceExpression(input, options), dice);
  expect(dice.remaining()).toBe(0);
  return result;
}

export function diceTerm(term: TermRoll | undefined): DiceTermRoll {
  if (term?.kind !== "dice") throw new Error("not a dice term");
  return term;
}

/** The first term of the first repeat, which must be dice. */
export const firstDice = (result: ReturnType<typeof roll>) => diceTerm(result.rolls[0]!.terms[0]);

/** The DomainError `input` is refused with (a parse that succeeds fails the test). */
export function refusal(input: string, options: ParseOptions = plainTable): DomainError {
  try {
    parseDiceExpression(input, options);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error(`"${input}" parsed, expected a refusal`);
}
