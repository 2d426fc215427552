import { describe, expect, it } from "vitest";
import {
  addStunt,
  assertMagicAvailable,
  characterAspects,
  clearStress,
  makeRace,
  makeStunt,
  newCharacter,
  replaceCharacterAspect,
  type SkillRanks,
  setCharacterAspect,
  setRace,
  setSkill,
  startNewWeek,
  takeHit,
  totalSkill,
  useUltimate,
  validatePyramid,
  validateRaceBonuses,
} from "../../../src/rules/fate/character.js";
import { nameConsequence } from "../../../src/rules/fate/stress.js";
import { expectRefusal } from "./refusal.js";

const pyramid: SkillRanks = {
  athletics: 4,
  fight: 3,
  physique: 3,
  notice: 2,
  will: 2,
  provoke: 2,
  stealth: 1,
  lore: 1,
  riding: 1,
  eloquence: 1,
};

const orcs = () =>
  makeRace("Orcs", { fight: 2, provoke: 2, physique: 1 }, [
    makeStunt("Magic resistance", "AR +1 against magic attacks."),
    makeStunt("War cry", "Once a session: berserk."),
  ]);

describe("the skill pyramid (docs/rules/fate.md §3.3)", () => {
  it("accepts one +4, two +3, three +2, four +1", () => {
    expect(() => validatePyramid(pyramid, { complete: true })).not.toThrow();
  });

  it("accepts a pyramid being filled in, refuses an over-full rank", () => {
    expect(() => validatePyramid({ fight: 4 })).not.toThrow();
    expectRefusal(() => validatePyramid({ ...pyramid, shoot: 3 }), "errors.fate.pyramidRankFull", {
      rank: 3,
      max: 2,
      count: 3,
    });
    expectRefusal(() => validatePyramid({ fight: 4 }, { complete: true }), "errors.fate.pyramidIncomplete", {
      rank: 3,
      need: 2,
      count: 0,
    });
  });

  it("refuses ranks outside 0..+4 and unknown skills", () => {
    expectRefusal(() => validatePyramid({ fight: 5 }), "errors.fate.skillRankInvalid", {
      skill: "fight",
      value: 5,
    });
    expectRefusal(() => validatePyramid({ fight: -1 }), "errors.fate.skillRankInvalid");
    expectRefusal(() => validatePyramid({ fihgt: 1 } as SkillRanks), "errors.fate.unknownSkill");
  });
});

describe("race bonuses (docs/rules/fate.md §3.3)", () => {
  it("the seed's orcs: Fight +2, Provoke +2, Physique +1 = 5", () => {
    expect(() => validateRaceBonuses(orcs().bonuses, { complete: true, skills: pyramid })).not.toThrow();
  });

  it("at most +2 to one skill, 5 in all, no skill above +5", () => {
    expectRefusal(() => validateRaceBonuses({ fight: 3 }), "errors.fate.raceBonusInvalid", {
      skill: "fight",
      max: 2,
    });
    expectRefusal(() => validateRaceBonuses({ fight: 2, will: 2, lore: 2 }), "errors.fate.raceBonusTotal", {
      total: 6,
      max: 5,
    });
    expectRefusal(
      () => validateRaceBonuses({ fight: 2 }, { complete: true }),
      "errors.fate.raceBonusIncomplete",
    );
    expectRefusal(
      () => validateRaceBonuses({ fight: 2 }, { skills: { fight: 4 } }),
      "errors.fate.skillAboveCap",
      { skill: "fight", value: 6, max: 5 },
    );
  });
});

describe("a character", () => {
  it("starts with fate points equal to its refresh and tracks sized by Physique and Eloquence", () => {
    const hero = newCharacter({ id: "h", name: "Grukh", ownerId: "u1", skills: pyramid, race: orcs() });
    expect(hero.fatePoints).toBe(3);
    expect(totalSkill(hero, "fight")).toBe(5);
    expect(totalSkill(hero, "physique")).toBe(4);
    expect(hero.stress.physical.boxes).toHaveLength(4);
    expect(hero.stress.mental.boxes).toHaveLength(3);
    expect(hero.consequences.map((s) => s.id)).toEqual(["mild", "moderate", "severe"]);
  });

  it("gains the extra mild slot when Physique reaches +5", () => {
    const hero = newCharacter({ id: "h", name: "Grukh", ownerId: "u1", skills: { physique: 4 } });
    const stronger = setRace(hero, makeRace("Trolls", { physique: 1 }));
    expect(stronger.consequences.map((s) => s.id)).toContain("mildPhysical");
    expect(stronger.stress.physical.boxes).toHaveLength(4);
    expectRefusal(() => setSkill(stronger, "athletics", 4), "errors.fate.pyramidRankFull");
  });

  it("takes a hit and clears stress after the conflict, keeping consequences", () => {
    const hero = newCharacter({ id: "h", name: "Grukh", ownerId: "u1" });
    const { character, absorption } = takeHit(hero, 4, "physical");
    expect(absorption).toMatchObject({ kind: "absorbed", boxes: [1], consequences: ["mild"] });
    const after = clearStress(character);
    expect(after.stress.physical.boxes).toEqual([false, false]);
    expect(after.consequences.find((s) => s.id === "mild")?.taken).toBe(true);
  });

  it("has one aspect of each character kind, and its named consequences are aspects too", () => {
    let hero = newCharacter({ id: "h", name: "Grukh", ownerId: "u1" });
    hero = setCharacterAspect(hero, "ambition", "My people deserve to be a legend");
    hero = setCharacterAspect(hero, "ambition", "My people will be a legend");
    hero = setCharacterAspect(hero, "flaw", "I never asked for this");
    expect(hero.aspects.map((a) => a.kind).sort()).toEqual(["ambition", "flaw"]);
    expectRefusal(
      () => setCharacterAspect(hero, "talent", "i never asked for THIS"),
      "errors.fate.aspectExists",
    );
    hero = takeHit(hero, 2, "mental", { boxes: [], consequences: ["mild"] }).character;
    hero = { ...hero, consequences: nameConsequence(hero.consequences, "mild", "Shaken", "orc") };
    expect(characterAspects(hero).map((a) => a.name)).toContain("Shaken");
    const spent = { ...characterAspects(hero).find((a) => a.name === "Shaken")!, freeInvokes: [] };
    expect(replaceCharacterAspect(hero, spent).consequences[0]?.aspect?.freeInvokes).toEqual([]);
  });

  it("has at most two stunts of its own", () => {
    let hero = newCharacter({ id: "h", name: "Grukh", ownerId: "u1" });
    hero = addStunt(hero, makeStunt("A", "+2"));
    hero = addStunt(hero, makeStunt("B", "+2"));
    expectRefusal(() => addStunt(hero, makeStunt("C", "+2")), "errors.fate.tooManyStunts", { max: 2 });
  });
});

describe("magic ULTIMATE (docs/rules/fate.md §3.3)", () => {
  const mage = () =>
    newCharacter({
      id: "m",
      name: "Ilya",
      ownerId: "u2",
      stunts: [
        makeStunt("Fire", "Fireballs.", { magic: true, ultimate: "Firestorm — everything burns" }),
        makeStunt("Sly", "+2 Deceive when lying to nobles."),
      ],
    });

  it("is written in capitals, disables that magic, and returns at the next game week", () => {
    const before = mage();
    expect(before.stunts[0]?.ultimate).toBe("FIRESTORM — EVERYTHING BURNS");
    const spent = useUltimate({ ...before, fatePoints: 5 }, "fire");
    expect(spent.stunts[0]?.disabledUntilNextWeek).toBe(true);
    expectRefusal(() => assertMagicAvailable(spent, "Fire"), "errors.fate.magicSpent", { name: "Fire" });
    expectRefusal(() => useUltimate(spent, "Fire"), "errors.fate.magicSpent");
    const nextWeek = startNewWeek(spent);
    expect(nextWeek.stunts[0]?.disabledUntilNextWeek).toBe(false);
    expect(() => assertMagicAvailable(nextWeek, "Fire")).not.toThrow();
    // [decision] More fate points than the refresh are kept.
    expect(nextWeek.fatePoints).toBe(5);
  });

  it("refuses an ULTIMATE on a stunt that is not magic or has none", () => {
    expectRefusal(() => useUltimate(mage(), "Sly"), "errors.fate.notMagic");
    expectRefusal(() => useUltimate(mage(), "Ice"), "errors.fate.unknownStunt");
    expectRefusal(() => makeStunt("Sly", "x", { ultimate: "BOOM" }), "errors.fate.ultimateNeedsMagic");
    const plain = newCharacter({
      id: "p",
      name: "P",
      ownerId: null,
      stunts: [makeStunt("Light", "", { magic: true })],
    });
    expectRefusal(() => useUltimate(plain, "Light"), "errors.fate.noUltimate");
  });
});

describe("a new game week", () => {
  it("brings fate points back up to the refresh", () => {
    const hero = { ...newCharacter({ id: "h", name: "Grukh", ownerId: "u1" }), fatePoints: 1 };
    expect(startNewWeek(hero).fatePoints).toBe(3);
  });
});
