import { describe, expect, it } from "vitest";
import {
  DAMAGE_QUALITIES,
  damageDuration,
  damagePenalty,
  unusableAbilities,
} from "../../../src/rules/mountain-witch/index.js";
import { wound } from "./helpers.js";

describe("damage duration by strength (docs/rules/mountain-witch.md §1.2)", () => {
  it("strong (and every player character): wound, chapter, permanent, taken out", () => {
    expect(DAMAGE_QUALITIES.map((q) => damageDuration("strong", q))).toEqual([
      "next-roll",
      "chapter",
      "permanent",
      "taken-out",
    ]);
  });

  it("medium: ½ until the next roll, 1 until chapter end, 1½ takes out", () => {
    expect(DAMAGE_QUALITIES.map((q) => damageDuration("medium", q))).toEqual([
      "next-roll",
      "chapter",
      "taken-out",
      "taken-out",
    ]);
  });

  it("weak: ½ until chapter end, 1 takes out", () => {
    expect(DAMAGE_QUALITIES.map((q) => damageDuration("weak", q))).toEqual([
      "chapter",
      "taken-out",
      "taken-out",
      "taken-out",
    ]);
  });

  it("every active entry is −1, except ability damage, which makes the ability unusable instead", () => {
    const entries = [
      wound(1),
      wound(1, "permanent"),
      { ...wound(1, "chapter"), ability: "Speak with the dead" },
    ];
    expect(damagePenalty(entries)).toBe(2);
    expect(unusableAbilities(entries)).toEqual(["Speak with the dead"]);
  });
});
