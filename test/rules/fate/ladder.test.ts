import { describe, expect, it } from "vitest";
import { LADDER, ladderName, signed } from "../../../src/rules/fate/ladder.js";

describe("the ladder (docs/rules/fate.md §3.1)", () => {
  it("names +4 Great and +3 Good", () => {
    expect(ladderName(4)).toEqual({ value: 4, key: "fate.ladder.great", signed: "+4" });
    expect(ladderName(3).key).toBe("fate.ladder.good");
  });

  it("runs from +8 Legendary to −2 Terrible", () => {
    expect(LADDER.map((r) => r.value)).toEqual([8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -2]);
    expect(ladderName(8).key).toBe("fate.ladder.legendary");
    expect(ladderName(0)).toEqual({ value: 0, key: "fate.ladder.mediocre", signed: "0" });
    expect(ladderName(-2)).toEqual({ value: -2, key: "fate.ladder.terrible", signed: "−2" });
  });

  it("beyond the ladder shows only the number, with a true minus sign", () => {
    expect(ladderName(9)).toEqual({ value: 9, key: null, signed: "+9" });
    expect(ladderName(-3)).toEqual({ value: -3, key: null, signed: "−3" });
    expect(signed(-10)).toBe("−10");
  });
});
