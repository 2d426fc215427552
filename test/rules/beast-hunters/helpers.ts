import { expect } from "vitest";
import {
  applyChallengeAction,
  type ChallengeAction,
  type ChallengeState,
  type HunterSheet,
  newHunterSheet,
  stageCounts,
} from "../../../src/rules/beast-hunters/index.js";
import { type DiceSource, scriptedDice } from "../../../src/rules/dice.js";
import { DomainError } from "../../../src/rules/errors.js";

/** Runs `fn` and checks it refuses with this code (and these params, if given). */
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

/** Yakhara, the seed's example hunter, as step 5 of creation leaves her. */
export function yakhara(): HunterSheet {
  const sheet = newHunterSheet();
  return {
    ...sheet,
    traits: [
      { name: "Мама будет мной гордиться", sphere: "physical", value: 4 },
      { name: "Проницательность", sphere: "social", value: 3 },
      { name: "Майхара — мой враг", sphere: "physical", value: 2 },
      { name: "Знания охотников на чудовищ", sphere: "mental", value: 2 },
    ],
    resources: [
      { name: "Мамин старый топор", sphere: "physical", kind: "attack", value: 4 },
      { name: "Личные связи", sphere: "social", kind: "defence", value: 3 },
      { name: "Щит Майхары", sphere: "physical", kind: "defence", value: 2 },
      { name: "Предназначение", sphere: "mental", kind: "attack", value: 2 },
    ],
    initiative: { physical: 3, social: 2, mental: 2 },
    boxes: {
      physical: stageCounts(3, 3, 1, 1, 1),
      social: stageCounts(2, 1, 1, 1, 1),
      mental: stageCounts(2, 1, 1, 1, 1),
    },
  };
}

/** Applies the action with exactly these dice faces, checking every face was used. */
export function act(state: ChallengeState, action: ChallengeAction, faces: number[] = []) {
  const dice = scriptedDice(faces);
  const result = applyChallengeAction(state, action, dice);
  expect(dice.remaining(), "every scripted face is used").toBe(0);
  return result;
}

export const noDice: DiceSource = {
  roll() {
    throw new Error("no dice expected");
  },
};
