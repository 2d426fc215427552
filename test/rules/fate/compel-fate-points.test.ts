import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeStunt } from "../../../src/rules/fate/character.js";
import { spendFatePointOn } from "../../../src/rules/fate/fp-spend.js";
import { expectRefusal } from "./refusal.js";

describe("spending fate points (docs/rules/fate.md §3.2)", () => {
  const stunt = makeStunt("Shadow step", "For a fate point, vanish");

  it("«ты можешь оплатить Трюк (если мастер считает, что его активация этого требует)»: one point, with a reason", () => {
    expect(
      spendFatePointOn({ fatePoints: 2 }, { on: "stunt", stunt, reason: "past the guards" }).fatePoints,
    ).toBe(1);
    expectRefusal(
      () => spendFatePointOn({ fatePoints: 2 }, { on: "stunt", reason: "x" }),
      "errors.fate.spendNeedsStunt",
    );
    expectRefusal(
      () =>
        spendFatePointOn(
          { fatePoints: 2 },
          { on: "stunt", stunt: { ...stunt, disabledUntilNextWeek: true }, reason: "x" },
        ),
      "errors.fate.magicSpent",
    );
  });

  it("«…или установить факт повествования»: a story detail costs one; never below zero, never without a reason", () => {
    expect(
      spendFatePointOn({ fatePoints: 1 }, { on: "detail", reason: "the ferryman owes me" }).fatePoints,
    ).toBe(0);
    expectRefusal(
      () => spendFatePointOn({ fatePoints: 0 }, { on: "detail", reason: "x" }),
      "errors.fate.notEnoughFatePoints",
    );
    expectRefusal(
      () => spendFatePointOn({ fatePoints: 3 }, { on: "detail", reason: "  " }),
      "errors.fate.spendNeedsReason",
    );
  });

  it("property: a spend takes exactly one point or is refused and changes nothing", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 }),
        fc.constantFrom("stunt" as const, "detail" as const),
        (fp, on) => {
          const holder = { fatePoints: fp };
          try {
            const after = spendFatePointOn(holder, { on, stunt, reason: "r" });
            expect(after.fatePoints).toBe(fp - 1);
          } catch {
            expect(fp).toBe(0);
          }
          expect(holder.fatePoints).toBe(fp);
        },
      ),
    );
  });
});
