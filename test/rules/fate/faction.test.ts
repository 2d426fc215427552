import { describe, expect, it } from "vitest";
import {
  addFactionAspect,
  FACTION_ABILITY_KEYS,
  factionSceneFatePoint,
  newFaction,
  resolveFactionAbility,
  validateFactionAbilities,
} from "../../../src/rules/fate/faction.js";
import { expectRefusal } from "./refusal.js";

describe("factions (docs/rules/fate.md §3.5)", () => {
  it("[decision] have seven abilities rated +4, +3, +2, +1, +1, the rest 0", () => {
    expect(FACTION_ABILITY_KEYS).toHaveLength(7);
    const abilities = { military: 4, magic: 3, commerce: 2, espionage: 1, art: 1 };
    expect(() => validateFactionAbilities(abilities, { complete: true })).not.toThrow();
    expectRefusal(
      () => validateFactionAbilities({ ...abilities, popularity: 1 }),
      "errors.fate.factionRatingFull",
      {
        rank: 1,
        max: 2,
        count: 3,
      },
    );
    expectRefusal(() => validateFactionAbilities({ military: 5 }), "errors.fate.factionRatingInvalid");
    expectRefusal(
      () => validateFactionAbilities({ military: 4 }, { complete: true }),
      "errors.fate.factionRatingIncomplete",
    );
  });

  it("resolves abilities by English key or Russian name", () => {
    expect(resolveFactionAbility("Шпионаж")).toBe("espionage");
    expect(resolveFactionAbility("military")).toBe("military");
    expectRefusal(() => resolveFactionAbility("navy"), "errors.fate.unknownFactionAbility");
  });

  it("have three aspects, [decision] two-box tracks, and 1 FP per scene when no character can pass one", () => {
    const guild = newFaction({ id: "g", name: "Thieves' Guild", aspects: ["Shadows", "Greedy", "Old"] });
    expect(guild.stress.physical.boxes).toHaveLength(2);
    expect(guild.stress.mental.boxes).toHaveLength(2);
    expect(guild.fatePoints).toBe(0);
    expectRefusal(() => addFactionAspect(guild, "One more"), "errors.fate.tooManyFactionAspects");
    expect(factionSceneFatePoint(guild, false).fatePoints).toBe(1);
    expect(factionSceneFatePoint(guild, true).fatePoints).toBe(0);
  });
});
