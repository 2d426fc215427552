import { expect } from "vitest";
import { DomainError } from "../../../src/rules/errors.js";
import type {
  CharacterRef,
  DamageEntry,
  Strength,
  TrustLink,
} from "../../../src/rules/mountain-witch/index.js";

export function pc(id: number, name = `PC${id}`, status: CharacterRef["status"] = "active"): CharacterRef {
  return { id, name, kind: "pc", playerId: `user-${id}`, strength: "strong", status };
}

export function npc(id: number, strength: Strength, name = `NPC${id}`): CharacterRef {
  return { id, name, kind: "npc", playerId: null, strength, status: "active" };
}

export function link(giverId: number, holderId: number, points: number, value = points): TrustLink {
  return { giverId, holderId, value, points };
}

let nextDamageId = 1000;
export function wound(characterId: number, duration: DamageEntry["duration"] = "next-roll"): DamageEntry {
  nextDamageId += 1;
  return { id: nextDamageId, characterId, duration, ability: null, condition: null };
}

/** Asserts that `fn` refuses with exactly this code (and, if given, these params). */
export function expectRefusal(
  fn: () => unknown,
  code: string,
  params?: Record<string, string | number>,
): void {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `expected a refusal ${code}`).toBeInstanceOf(DomainError);
  const error = thrown as DomainError;
  expect(error.code).toBe(code);
  if (params) expect(error.params).toEqual(params);
}
