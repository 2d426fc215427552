import { describe, expect, it } from "vitest";
import {
  assertSignFree,
  initialTrust,
  initialTrustFromZodiac,
  ZODIAC,
  ZODIAC_SIGNS,
} from "../../../src/rules/mountain-witch/index.js";
import { expectRefusal } from "./helpers.js";

describe("zodiac (docs/rules/mountain-witch.md §1.6)", () => {
  it("alliances and enmities are symmetric, two allies and one enemy each", () => {
    for (const sign of ZODIAC_SIGNS) {
      const { allies, enemy } = ZODIAC[sign];
      expect(new Set(allies).size).toBe(2);
      expect(allies).not.toContain(sign);
      for (const ally of allies) expect(ZODIAC[ally].allies).toContain(sign);
      expect(ZODIAC[enemy].enemy).toBe(sign);
      expect(allies).not.toContain(enemy);
    }
  });

  it("allied 3, enemy 0, otherwise 2", () => {
    expect(initialTrust("rat", "dragon")).toBe(3);
    expect(initialTrust("monkey", "rat")).toBe(3);
    expect(initialTrust("rat", "horse")).toBe(0);
    expect(initialTrust("horse", "rat")).toBe(0);
    expect(initialTrust("rat", "ox")).toBe(2);
    expect(initialTrust("rabbit", "rooster")).toBe(0);
    expect(initialTrust("boar", "snake")).toBe(0);
  });

  it("builds the starting matrix with full points; signs are unique per table", () => {
    const links = initialTrustFromZodiac([
      { characterId: 1, sign: "tiger" },
      { characterId: 2, sign: "dog" },
      { characterId: 3, sign: "monkey" },
    ]);
    expect(links).toHaveLength(6);
    expect(links).toContainEqual({ giverId: 1, holderId: 2, value: 3, points: 3 });
    expect(links).toContainEqual({ giverId: 3, holderId: 1, value: 0, points: 0 });
    expect(links).toContainEqual({ giverId: 2, holderId: 3, value: 2, points: 2 });
    expectRefusal(
      () =>
        initialTrustFromZodiac([
          { characterId: 1, sign: "ox" },
          { characterId: 2, sign: "ox" },
        ]),
      "errors.mw.zodiacTaken",
    );
    expectRefusal(() => assertSignFree("ox", ["rat", "ox"]), "errors.mw.zodiacTaken");
  });
});
