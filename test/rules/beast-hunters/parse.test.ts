import { describe, expect, it } from "vitest";
import {
  formatBoxes,
  parseBoxes,
  parseHunterResources,
  parseHunterTraits,
  parseResources,
  parseTraits,
} from "../../../src/rules/beast-hunters/index.js";
import { expectRefusal } from "./helpers.js";

describe("parseTraits", () => {
  it("reads the documented example", () => {
    expect(parseTraits("Hungry:4 Surround:2")).toEqual([
      { name: "Hungry", value: 4 },
      { name: "Surround", value: 2 },
    ]);
  });

  it("reads Cyrillic, multi-word names (plain, underscores, quotes), + signs and spaces around the colon", () => {
    expect(parseTraits("Голодные и отчаянные:4 Окружаем:+2")).toEqual([
      { name: "Голодные и отчаянные", value: 4 },
      { name: "Окружаем", value: 2 },
    ]);
    expect(parseTraits("Голодные_и_отчаянные:4, Окружаем : 2")).toEqual([
      { name: "Голодные и отчаянные", value: 4 },
      { name: "Окружаем", value: 2 },
    ]);
    expect(parseTraits('"Hungry and desperate":4 «Майхара — мой враг»: 2 Mother\'s_pride:6')).toEqual([
      { name: "Hungry and desperate", value: 4 },
      { name: "Майхара — мой враг", value: 2 },
      { name: "Mother's pride", value: 6 },
    ]);
  });

  it("reads nothing as no traits", () => {
    expect(parseTraits("   ")).toEqual([]);
  });

  it("refuses what does not parse, naming the fragment", () => {
    expectRefusal(() => parseTraits("Hungry 4"), "errors.bh.badTraits", { fragment: "Hungry 4" });
    expectRefusal(() => parseTraits("Hungry:4 Surround:two"), "errors.bh.badTraits", {
      fragment: "Surround:two",
    });
    expectRefusal(() => parseTraits(":4"), "errors.bh.badTraits", { fragment: ":4" });
    expectRefusal(() => parseTraits("Hungry:4 Surround"), "errors.bh.badTraits", { fragment: "Surround" });
    expectRefusal(() => parseTraits('"Hungry:4'), "errors.bh.badTraits", { fragment: '"Hungry:4' });
    expectRefusal(() => parseTraits("Hungry:-4"), "errors.bh.badTraits", { fragment: "Hungry:-4" });
  });
});

describe("parseResources", () => {
  it("reads the documented examples", () => {
    expect(parseResources("D6 A4")).toEqual([
      { name: "D6", kind: "defence", value: 6 },
      { name: "A4", kind: "attack", value: 4 },
    ]);
    expect(parseResources("Rusty swords:A2")).toEqual([{ name: "Rusty swords", kind: "attack", value: 2 }]);
  });

  it("accepts Cyrillic А/З, lower case, + signs and mixed named and unnamed items", () => {
    expect(parseResources("Кожаная_броня:З2 Ржавые мечи:А+2 а2 з4")).toEqual([
      { name: "Кожаная броня", kind: "defence", value: 2 },
      { name: "Ржавые мечи", kind: "attack", value: 2 },
      { name: "А2", kind: "attack", value: 2 },
      { name: "З4", kind: "defence", value: 4 },
    ]);
  });

  it("gives repeated unnamed resources distinct names", () => {
    expect(parseResources("A2 A2 a2").map((r) => r.name)).toEqual(["A2", "A2 (2)", "A2 (3)"]);
  });

  it("refuses what does not parse, naming the fragment", () => {
    expectRefusal(() => parseResources("Rusty A2"), "errors.bh.badResources", { fragment: "Rusty" });
    expectRefusal(() => parseResources("Swords:X2"), "errors.bh.badResources", { fragment: "Swords:X2" });
    expectRefusal(() => parseResources("D6 B4"), "errors.bh.badResources", { fragment: "B4" });
    expectRefusal(() => parseResources("A"), "errors.bh.badResources", { fragment: "A" });
  });
});

describe("parseBoxes", () => {
  it("reads L/M/H/K/F counts and writes them back", () => {
    const boxes = parseBoxes("2/1/1/1/1");
    expect(boxes).toEqual({ light: 2, medium: 1, heavy: 1, knockout: 1, fatal: 1 });
    expect(formatBoxes(boxes)).toBe("2/1/1/1/1");
    expect(parseBoxes(" 3 / 2 /1/1/1 ")).toEqual({ light: 3, medium: 2, heavy: 1, knockout: 1, fatal: 1 });
  });

  it("refuses anything but five counts", () => {
    expectRefusal(() => parseBoxes("2/1/1/1"), "errors.bh.badBoxes", { fragment: "2/1/1/1" });
    expectRefusal(() => parseBoxes("2/1/x/1/1"), "errors.bh.badBoxes", { fragment: "2/1/x/1/1" });
    expectRefusal(() => parseBoxes("2-1-1-1-1"), "errors.bh.badBoxes", { fragment: "2-1-1-1-1" });
  });
});

describe("hunter sheet forms", () => {
  it("reads Yakhara's traits and resources with their spheres and categories", () => {
    expect(
      parseHunterTraits("Мама будет мной гордиться:Ф4 Проницательность:С+3 Майхара_—_мой_враг:Ф2 Знания:М2"),
    ).toEqual([
      { name: "Мама будет мной гордиться", sphere: "physical", value: 4 },
      { name: "Проницательность", sphere: "social", value: 3 },
      { name: "Майхара — мой враг", sphere: "physical", value: 2 },
      { name: "Знания", sphere: "mental", value: 2 },
    ]);
    expect(parseHunterResources("Мамин старый топор:ФА4 Личные связи:СЗ3 Shield:PD2 Destiny:ma2")).toEqual([
      { name: "Мамин старый топор", sphere: "physical", kind: "attack", value: 4 },
      { name: "Личные связи", sphere: "social", kind: "defence", value: 3 },
      { name: "Shield", sphere: "physical", kind: "defence", value: 2 },
      { name: "Destiny", sphere: "mental", kind: "attack", value: 2 },
    ]);
  });

  it("refuses a missing sphere or category", () => {
    expectRefusal(() => parseHunterTraits("Insight:3"), "errors.bh.badHunterTraits", {
      fragment: "Insight:3",
    });
    expectRefusal(() => parseHunterResources("Axe:A4"), "errors.bh.badHunterResources", {
      fragment: "Axe:A4",
    });
    expectRefusal(() => parseHunterResources("Axe"), "errors.bh.badHunterResources", { fragment: "Axe" });
  });
});
