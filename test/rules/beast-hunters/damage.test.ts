import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MINIMAL_BOXES,
  markDamage,
  NO_DAMAGE,
  STAGES,
  type Stage,
  stageCounts,
  strikeStage,
  strikeTotal,
} from "../../../src/rules/beast-hunters/index.js";

describe("strikes", () => {
  it("the seed's strike: 9 on 2d6 + axe 4 − armour 2 = 11 → heavy", () => {
    const total = strikeTotal([4, 5], 4, 2);
    expect(total).toBe(11);
    expect(strikeStage(total)).toBe("heavy");
  });

  it("the seed's counter-strike: 5 on 1d6 + swords 2 − shield 2 = 5 → light", () => {
    expect(strikeStage(strikeTotal([5], 2, 2))).toBe("light");
  });

  it("follows the stage table at every boundary", () => {
    const table: [number, Stage | null][] = [
      [-3, null],
      [0, null],
      [1, "light"],
      [5, "light"],
      [6, "medium"],
      [9, "medium"],
      [10, "heavy"],
      [13, "heavy"],
      [14, "knockout"],
      [17, "knockout"],
      [18, "fatal"],
      [40, "fatal"],
    ];
    for (const [total, stage] of table) expect(strikeStage(total), `total ${total}`).toBe(stage);
  });
});

describe("markDamage", () => {
  it("fills a box of the struck stage", () => {
    expect(markDamage(MINIMAL_BOXES, NO_DAMAGE, "heavy")).toEqual({
      stage: "heavy",
      damage: { ...NO_DAMAGE, heavy: 1 },
    });
  });

  it("moves light damage to medium when the light boxes are full", () => {
    const boxes = stageCounts(3, 2, 1, 1, 1);
    const damage = stageCounts(3, 0, 0, 0, 0);
    expect(markDamage(boxes, damage, "light")).toEqual({
      stage: "medium",
      damage: stageCounts(3, 1, 0, 0, 0),
    });
  });

  it("keeps moving up past several full stages, and reports null when everything from there up is full", () => {
    const boxes = MINIMAL_BOXES;
    expect(markDamage(boxes, stageCounts(1, 1, 1, 0, 0), "light").stage).toBe("knockout");
    expect(markDamage(boxes, stageCounts(1, 1, 1, 1, 1), "light")).toEqual({
      stage: null,
      damage: stageCounts(1, 1, 1, 1, 1),
    });
    // Damage below the struck stage is never touched.
    expect(markDamage(boxes, NO_DAMAGE, "knockout").damage).toEqual(stageCounts(0, 0, 0, 1, 0));
  });

  it("property: filled boxes never exceed the boxes of their stage, and each hit fills at most one", () => {
    const boxesArb = fc
      .array(fc.integer({ min: 1, max: 4 }), { minLength: 5, maxLength: 5 })
      .map((counts) => [...counts].sort((a, b) => b - a))
      .map(([l, m, h, k, f]) => stageCounts(l!, m!, h!, k!, f!));
    fc.assert(
      fc.property(boxesArb, fc.array(fc.constantFrom(...STAGES), { maxLength: 40 }), (boxes, hits) => {
        let damage = NO_DAMAGE;
        for (const hit of hits) {
          const before = STAGES.reduce((s, st) => s + damage[st], 0);
          const marked = markDamage(boxes, damage, hit);
          damage = marked.damage;
          const after = STAGES.reduce((s, st) => s + damage[st], 0);
          expect(after - before).toBe(marked.stage === null ? 0 : 1);
          for (const stage of STAGES) {
            expect(damage[stage]).toBeGreaterThanOrEqual(0);
            expect(damage[stage]).toBeLessThanOrEqual(boxes[stage]);
          }
        }
      }),
    );
  });
});
