import { describe, expect, it } from "vitest";
import {
  addVictoryPoints,
  checkNewHunter,
  markPreActivated,
  newHunterSheet,
  renewal,
  spendVictoryPoints,
  stageCounts,
  validateBoxes,
  validateSheet,
  withDamage,
} from "../../../src/rules/beast-hunters/index.js";
import { expectRefusal, yakhara } from "./helpers.js";

describe("validateBoxes", () => {
  it("accepts Yakhara's physical 3/3/1/1/1 and the minimal 1/1/1/1/1", () => {
    expect(() => validateBoxes(stageCounts(3, 3, 1, 1, 1))).not.toThrow();
    expect(() => validateBoxes(stageCounts(1, 1, 1, 1, 1))).not.toThrow();
  });

  it("refuses a stage with more boxes than the stage before it, and a stage with none", () => {
    expectRefusal(() => validateBoxes(stageCounts(3, 4, 1, 1, 1)), "errors.bh.boxesIncrease", {
      stage: "medium",
      count: 4,
      previousStage: "light",
      previous: 3,
    });
    expectRefusal(() => validateBoxes(stageCounts(2, 1, 1, 2, 1)), "errors.bh.boxesIncrease", {
      stage: "knockout",
      count: 2,
      previousStage: "heavy",
      previous: 1,
    });
    expectRefusal(() => validateBoxes(stageCounts(2, 1, 0, 0, 0)), "errors.bh.boxesAtLeastOne", {
      stage: "heavy",
      count: 0,
    });
  });
});

describe("checkNewHunter", () => {
  it("finds nothing to warn about in the seed's Yakhara", () => {
    expect(checkNewHunter(yakhara())).toEqual([]);
  });

  it("warns, without refusing, about every difference from the creation steps", () => {
    const sheet = yakhara();
    sheet.traits[0]!.value = 5;
    sheet.resources.pop();
    sheet.initiative.mental = 4;
    sheet.boxes.social = stageCounts(3, 1, 1, 1, 1);
    sheet.tattoos = ["Hazuma"];
    expect(checkNewHunter(sheet)).toEqual([
      { code: "bh.warn.traitValues", params: { values: "+5 +3 +2 +2", expected: "+4 +3 +2 +2" } },
      { code: "bh.warn.resourceCount", params: { count: 3, expected: 4 } },
      { code: "bh.warn.initiativeTotal", params: { total: 9, expected: 7 } },
      { code: "bh.warn.boxTotal", params: { stage: "light", total: 8, expected: 7 } },
      { code: "bh.warn.tattoos", params: { count: 1 } },
    ]);
  });

  it("a blank sheet gets warnings for the missing creation steps", () => {
    const codes = checkNewHunter(newHunterSheet()).map((w) => w.code);
    expect(codes).toEqual([
      "bh.warn.traitCount",
      "bh.warn.resourceCount",
      "bh.warn.initiativeTotal",
      "bh.warn.boxTotal",
      "bh.warn.boxTotal",
    ]);
  });

  it("warns about boxes that break the stage rule instead of refusing", () => {
    const sheet = yakhara();
    sheet.boxes.mental = stageCounts(1, 2, 1, 1, 1);
    expect(checkNewHunter(sheet)).toContainEqual({ code: "bh.warn.boxRule", params: { sphere: "mental" } });
  });
});

describe("validateSheet", () => {
  it("refuses damage beyond the boxes, duplicate names and non-positive values", () => {
    expectRefusal(
      () => validateSheet(withDamage(yakhara(), "social", stageCounts(3, 0, 0, 0, 0))),
      "errors.bh.damageOverBoxes",
      { sphere: "social", stage: "light", filled: 3, boxes: 2 },
    );
    const twice = yakhara();
    twice.traits.push({ name: "проницательность", sphere: "mental", value: 1 });
    expectRefusal(() => validateSheet(twice), "errors.bh.duplicateName", { name: "проницательность" });
    const zero = yakhara();
    zero.resources[0]!.value = 0;
    expectRefusal(() => validateSheet(zero), "errors.bh.valueNotPositive", {
      name: "Мамин старый топор",
      value: 0,
    });
    expect(() => validateSheet(yakhara())).not.toThrow();
  });
});

describe("renewal and pre-activation", () => {
  it("renewal clears all damage and pre-activations and keeps everything else", () => {
    const hurt = markPreActivated(withDamage(yakhara(), "physical", stageCounts(3, 1, 0, 0, 0)), [
      "Проницательность",
    ]);
    const renewed = renewal(hurt);
    expect(renewed.damage.physical).toEqual(stageCounts(0, 0, 0, 0, 0));
    expect(renewed.preActivated).toEqual([]);
    expect(renewed.traits).toEqual(hurt.traits);
    expect(renewed.boxes).toEqual(hurt.boxes);
  });

  it("a trait is pre-activated only once per adventure", () => {
    const once = markPreActivated(yakhara(), ["Проницательность"]);
    expectRefusal(() => markPreActivated(once, ["ПРОНИЦАТЕЛЬНОСТЬ"]), "errors.bh.alreadyPreActivated", {
      trait: "ПРОНИЦАТЕЛЬНОСТЬ",
    });
  });
});

describe("victory points", () => {
  it("are added and spent, never below 0", () => {
    expect(addVictoryPoints(3, 8)).toEqual({ before: 3, after: 11 });
    expect(spendVictoryPoints(11, 4)).toEqual({ before: 11, after: 7 });
    expectRefusal(() => spendVictoryPoints(3, 4), "errors.bh.notEnoughVp", { have: 3, need: 4 });
    expectRefusal(() => addVictoryPoints(3, -1), "errors.bh.badAmount", { amount: -1 });
  });
});
