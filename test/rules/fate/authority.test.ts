import { describe, expect, it } from "vitest";
import { assertGm, assertMayActFor, mayActFor } from "../../../src/rules/fate/authority.js";
import { expectRefusal } from "./refusal.js";

describe("who may act for a character", () => {
  const grukh = { name: "Grukh", ownerId: "u1" };
  const npc = { name: "Bandit", ownerId: null };

  it("its player and the GM", () => {
    expect(mayActFor({ userId: "u1", isGm: false }, grukh)).toBe(true);
    expect(mayActFor({ userId: "gm", isGm: true }, grukh)).toBe(true);
    expect(mayActFor({ userId: "gm", isGm: true }, npc)).toBe(true);
  });

  it("refuses acting for someone else's character, or for an NPC as a player", () => {
    expectRefusal(
      () => assertMayActFor({ userId: "u2", isGm: false }, grukh),
      "errors.fate.notYourCharacter",
      {
        name: "Grukh",
      },
    );
    expectRefusal(() => assertMayActFor({ userId: "u2", isGm: false }, npc), "errors.fate.notYourCharacter");
    expectRefusal(() => assertGm({ userId: "u2", isGm: false }), "errors.fate.gmOnly");
  });
});
