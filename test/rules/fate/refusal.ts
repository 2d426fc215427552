import { expect } from "vitest";
import { DomainError } from "../../../src/rules/errors.js";

/** Runs `action` and checks it was refused with `code` (and, if given, these params). */
export function expectRefusal(
  action: () => unknown,
  code: string,
  params?: Record<string, string | number>,
): void {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `expected a refusal ${code}`).toBeInstanceOf(DomainError);
  const refusal = thrown as DomainError;
  expect(refusal.code).toBe(code);
  if (params) expect(refusal.params).toMatchObject(params);
}
