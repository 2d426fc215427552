import { describe, expect, it } from "vitest";
import { groupIntoConflicts } from "../../../src/rules/mountain-witch/index.js";
import { expectRefusal } from "./helpers.js";

describe("group conflicts: sides by shared opponents (docs/rules/mountain-witch.md §1.1)", () => {
  it("characters against the same opponent are one side; other fights are separate conflicts", () => {
    expect(
      groupIntoConflicts([
        { id: 1, against: [10] },
        { id: 2, against: [10] },
        { id: 3, against: [11] },
        { id: 4, against: [] },
      ]),
    ).toEqual([
      { a: [1, 2], b: [10] },
      { a: [3], b: [11] },
    ]);
  });

  it("Hamada against the tengu and the crumbling wall: both opponents act together", () => {
    expect(groupIntoConflicts([{ id: 1, against: [10, -1] }])).toEqual([{ a: [1], b: [10, -1] }]);
  });

  it("refuses opponents that do not form two sides", () => {
    expectRefusal(
      () =>
        groupIntoConflicts([
          { id: 1, against: [2] },
          { id: 2, against: [3] },
          { id: 3, against: [1] },
        ]),
      "errors.mw.notTwoSided",
    );
    expectRefusal(() => groupIntoConflicts([{ id: 1, against: [1] }]), "errors.mw.opposesSelf");
  });
});
