import { describe, it } from "vitest";
import { scriptedDice } from "../../../src/rules/dice.js";
import { findAspect, makeAspect } from "../../../src/rules/fate/aspects.js";
import { invokeAspect, makeCheck } from "../../../src/rules/fate/check.js";
import { buyOffCompel, offerCompel } from "../../../src/rules/fate/compel.js";
import { resolveSkill } from "../../../src/rules/fate/skills.js";
import { expectRefusal } from "./refusal.js";

/** The refusals the issue lists, each with its own message key. */
describe("bad input gets a specific refusal", () => {
  it("an unknown skill", () => {
    expectRefusal(() => resolveSkill("swimming"), "errors.fate.unknownSkill", { input: "swimming" });
  });

  it("an unknown aspect", () => {
    expectRefusal(
      () => findAspect([makeAspect("On fire", "situational")], "In water"),
      "errors.fate.unknownAspect",
      {
        name: "In water",
      },
    );
  });

  it("invoking without fate points or free invokes", () => {
    const check = makeCheck({ characterId: "h", skill: "fight", skillValue: 1 }, scriptedDice([3, 3, 3, 3]));
    expectRefusal(
      () =>
        invokeAspect(
          {
            check,
            invoker: { id: "h", fatePoints: 0 },
            aspect: makeAspect("Stubborn", "flaw"),
            mode: "plus2",
          },
          scriptedDice([]),
        ),
      "errors.fate.cannotInvoke",
      { aspect: "Stubborn" },
    );
  });

  it("refusing a compel with fewer fate points than it offers", () => {
    const target = { id: "h", fatePoints: 1 };
    const { offer } = offerCompel({
      target,
      aspect: "Stubborn",
      aspects: [makeAspect("Stubborn", "flaw")],
      points: 3,
      by: { kind: "gm" },
    });
    expectRefusal(() => buyOffCompel(offer, target), "errors.fate.cannotBuyOffCompel", { have: 1, need: 3 });
  });
});
