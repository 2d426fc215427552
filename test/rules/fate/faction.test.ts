import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scriptedDice } from "../../../src/rules/dice.js";
import {
  addFactionAspect,
  FACTION_ABILITY_KEYS,
  FACTION_TRACKS,
  factionAbsorptions,
  factionCheckResult,
  factionCheckShifts,
  factionInvoke,
  factionSceneFatePoint,
  hitFaction,
  loadFaction,
  newFaction,
  passFatePointToFaction,
  resolveFactionAbility,
  rollFactionCheck,
  validateFactionAbilities,
} from "../../../src/rules/fate/faction.js";
import { CONSEQUENCE_SHIFTS } from "../../../src/rules/fate/stress.js";
import { expectRefusal } from "./refusal.js";

const legion = () =>
  newFaction({
    id: "l",
    name: "Iron Legion",
    aspects: ["Discipline above all", "Old grudges", "Too many borders"],
    abilities: { military: 4, resources: 3, popularity: 2, espionage: 1, art: 1 },
  });

describe("factions (docs/rules/fate.md §3.5)", () => {
  it("«1 отличный (+4), хороший (+3), средний (+2), два неплохих (+1)» — [decision] of seven abilities, the rest 0", () => {
    expect(FACTION_ABILITY_KEYS).toHaveLength(7);
    const abilities = { military: 4, magic: 3, commerce: 2, espionage: 1, art: 1 };
    expect(() => validateFactionAbilities(abilities, { complete: true })).not.toThrow();
    expectRefusal(
      () => validateFactionAbilities({ ...abilities, popularity: 1 }),
      "errors.fate.factionRatingFull",
      { rank: 1, max: 2, count: 3 },
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

  it("«Здесь достаточно трёх аспектов»; «одно очко судьбы на сцену, если в ней не присутствует персонаж, способный передать ей своё»", () => {
    const guild = newFaction({ id: "g", name: "Thieves' Guild", aspects: ["Shadows", "Greedy", "Old"] });
    expect(guild.fatePoints).toBe(0);
    expectRefusal(() => addFactionAspect(guild, "One more"), "errors.fate.tooManyFactionAspects");
    expect(factionSceneFatePoint(guild, false).fatePoints).toBe(1);
    expect(factionSceneFatePoint(guild, true).fatePoints).toBe(0);
    // «…персонаж, способный передать ей своё»: the character's point moves to the faction.
    const passed = passFatePointToFaction({ fatePoints: 1 }, guild);
    expect([passed.character.fatePoints, passed.faction.fatePoints]).toEqual([0, 1]);
    expectRefusal(() => passFatePointToFaction({ fatePoints: 0 }, guild), "errors.fate.notEnoughFatePoints");
  });

  it("«три стресс-трекера: Политика, Армия и Экономика… изначально имеет три деления»", () => {
    const faction = legion();
    expect(Object.keys(faction.stress)).toEqual(["politics", "army", "economy"]);
    for (const track of FACTION_TRACKS) expect(faction.stress[track]).toEqual([false, false, false]);
    expect(faction.consequences.map((s) => CONSEQUENCE_SHIFTS[s.severity])).toEqual([2, 4, 6]);
  });

  it("«по исчерпании этого стресса… последствия (как обычно за 2, 4 и 6 сдвигов)»: one box per hit, cheapest first", () => {
    let faction = legion();
    const three = hitFaction(faction, "army", 3);
    expect(three.kind === "absorbed" && three.absorption).toEqual({ box: 2, consequences: [], absorbed: 3 });
    faction = three.faction;
    // Box 3 is checked: 3 more shifts take box 2 + mild, or box 1 + mild, or the moderate alone…
    const options = factionAbsorptions(faction, "army", 3);
    expect(options[0]).toEqual({ box: 0, consequences: ["mild"], absorbed: 3 });
    expect(options.every((o) => o.absorbed >= 3)).toBe(true);
    // Other tracks are untouched by a hit on Army.
    expect(factionAbsorptions(faction, "economy", 3)[0]).toEqual({ box: 2, consequences: [], absorbed: 3 });
    const out = hitFaction(faction, "army", 16);
    expect(out.kind).toBe("takenOut");
  });

  it("property: a hit is absorbed whole or takes the faction out — never partly", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ track: fc.constantFrom(...FACTION_TRACKS), shifts: fc.integer({ min: 0, max: 16 }) }),
          {
            maxLength: 8,
          },
        ),
        (hits) => {
          let faction = legion();
          for (const { track, shifts } of hits) {
            const boxesBefore = faction.stress[track].filter(Boolean).length;
            const result = hitFaction(faction, track, shifts);
            if (result.kind === "takenOut") {
              expect(factionAbsorptions(faction, track, shifts)).toEqual([]);
              continue;
            }
            expect(result.absorption.absorbed).toBeGreaterThanOrEqual(shifts);
            // One box at most per hit.
            expect(result.faction.stress[track].filter(Boolean).length - boxesBefore).toBeLessThanOrEqual(1);
            faction = result.faction;
          }
        },
      ),
    );
  });

  it("[decision] a faction stored with the first version's two tracks loads: physical → Army, mental → Politics", () => {
    const loaded = loadFaction({
      id: "o",
      name: "Old",
      aspects: [],
      abilities: {},
      stunts: [],
      fatePoints: 1,
      stress: {
        physical: { kind: "physical", boxes: [true, true] },
        mental: { kind: "mental", boxes: [false, true] },
      },
      consequences: [],
    });
    expect(loaded.stress).toEqual({
      politics: [false, true, false],
      army: [true, true, false],
      economy: [false, false, false],
    });
    expect(loaded.consequences).toHaveLength(3);
  });

  it("a faction check is 4d3 + the ability; it invokes with a free invoke or its own fate point", () => {
    let faction = { ...legion(), fatePoints: 1 };
    // + − 0 + → +1; Military +4 → Superb (+5) against 6.
    const check = rollFactionCheck(faction, { ability: "military", vs: 6 }, scriptedDice([1, 2, 3, 1]));
    expect(factionCheckResult(check)).toBe(5);
    expect(factionCheckShifts(check)).toBe(-1);
    const invoked = factionInvoke(
      { check, faction, aspect: faction.aspects[0]!, mode: "plus2" },
      scriptedDice([]),
    );
    expect(factionCheckResult(invoked.check)).toBe(7);
    expect(invoked.faction.fatePoints).toBe(0);
    faction = invoked.faction;
    expectRefusal(
      () =>
        factionInvoke(
          { check: invoked.check, faction, aspect: faction.aspects[1]!, mode: "plus2" },
          scriptedDice([]),
        ),
      "errors.fate.factionCannotInvoke",
    );
  });
});
