import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scriptedDice, seededDice } from "../../../src/rules/dice.js";
import { DomainError } from "../../../src/rules/errors.js";
import { type Aspect, makeAspect, usableFreeInvokes } from "../../../src/rules/fate/aspects.js";
import {
  applyInvoke,
  checkEffects,
  checkOpposition,
  checkOutcome,
  checkResult,
  checkShifts,
  choosePayment,
  type FateCheck,
  type InvokeMode,
  type InvokePayment,
  invokeAspect,
  makeCheck,
  withOpposition,
} from "../../../src/rules/fate/check.js";
import { expectRefusal } from "./refusal.js";

const hero = { id: "hero", fatePoints: 3 };

function goodCheck(faces: number[], difficulty = 3): FateCheck {
  return makeCheck(
    {
      characterId: "hero",
      skill: "athletics",
      skillValue: 3,
      opposition: { kind: "passive", value: difficulty },
    },
    scriptedDice(faces),
  );
}

describe("a check (docs/rules/fate.md §3.1)", () => {
  it("worked example: Good (+3) skill with +1 on the dice vs passive 3 → +1 shift, a success", () => {
    const check = goodCheck([1, 3, 3, 3]);
    expect(check.dice.total).toBe(1);
    expect(checkResult(check)).toBe(4);
    expect(checkShifts(check)).toBe(1);
    expect(checkOutcome(check)).toBe("success");
  });

  it("worked example: success with style at 3 shifts", () => {
    const check = goodCheck([1, 1, 1, 3]);
    expect(checkShifts(check)).toBe(3);
    expect(checkOutcome(check)).toBe("style");
    expect(checkEffects(check)).toMatchObject({ action: "overcome", boosts: 1 });
  });

  it("adds the bonus; no opposition means no shifts yet", () => {
    const check = makeCheck(
      { characterId: "hero", skill: "fight", skillValue: 2, bonus: -1 },
      scriptedDice([3, 3, 3, 3]),
    );
    expect(checkResult(check)).toBe(1);
    expect(checkOpposition(check)).toBeNull();
    expect(checkShifts(check)).toBeNull();
    expect(checkEffects(check)).toBeNull();
    const opposed = withOpposition(check, { kind: "active", value: 1, characterId: "orc" });
    expect(checkOutcome(opposed)).toBe("tie");
  });

  it("refuses absurd bonuses and difficulties", () => {
    const input = { characterId: "hero", skill: "fight" as const, skillValue: 2 };
    expectRefusal(
      () => makeCheck({ ...input, bonus: 99 }, scriptedDice([1, 1, 1, 1])),
      "errors.fate.bonusOutOfRange",
    );
    expectRefusal(
      () => makeCheck({ ...input, opposition: { kind: "passive", value: 1.5 } }, scriptedDice([1, 1, 1, 1])),
      "errors.fate.oppositionOutOfRange",
    );
  });
});

describe("invokes (docs/rules/fate.md §3.2)", () => {
  const fire = () => makeAspect("Everything is on fire", "situational", { freeInvokes: 1 });

  it("+2 to the result, paid with a free invoke first", () => {
    const check = goodCheck([2, 3, 3, 3]);
    expect(checkOutcome(check)).toBe("fail");
    const result = invokeAspect({ check, invoker: hero, aspect: fire(), mode: "plus2" }, scriptedDice([]));
    expect(result.spent.paidWith).toBe("free-invoke");
    expect(result.invoker.fatePoints).toBe(3);
    expect(result.aspect?.freeInvokes).toEqual([]);
    expect(checkResult(result.check)).toBe(4);
    expect(checkOutcome(result.check)).toBe("success");
  });

  it("then with a fate point once the free invokes are gone", () => {
    const aspect = makeAspect("Old grudge", "belief");
    const result = invokeAspect(
      { check: goodCheck([2, 3, 3, 3]), invoker: hero, aspect, mode: "plus2" },
      scriptedDice([]),
    );
    expect(result.spent.paidWith).toBe("fate-point");
    expect(result.invoker.fatePoints).toBe(2);
  });

  it("a reroll replaces all four dice and keeps the old ones in the record", () => {
    const check = goodCheck([2, 2, 3, 3]);
    const { check: after } = invokeAspect(
      { check, invoker: hero, aspect: fire(), mode: "reroll" },
      scriptedDice([1, 1, 3, 3]),
    );
    expect(after.dice.faces).toEqual([1, 1, 0, 0]);
    expect(after.rerolledDice).toEqual([check.dice]);
    expect(checkShifts(after)).toBe(2);
  });

  it("+2 to a passive opposition, usually by the other side", () => {
    const check = goodCheck([1, 3, 3, 3]);
    const gm = { id: "gm-npc", fatePoints: 1 };
    const result = invokeAspect({ check, invoker: gm, aspect: fire(), mode: "passive" }, scriptedDice([]));
    expect(checkOpposition(result.check)).toBe(5);
    expect(checkOutcome(result.check)).toBe("fail");
    expectRefusal(
      () =>
        applyInvoke(
          withOpposition(check, { kind: "active", value: 2, characterId: "x" }),
          { aspect: "x", invokerId: "hero", mode: "passive", paidWith: "fate-point" },
          scriptedDice([]),
        ),
      "errors.fate.noPassiveOpposition",
    );
  });

  it("a boost is spent by its free invoke and vanishes", () => {
    const boost = makeAspect("Off balance", "boost");
    expect(boost.freeInvokes).toHaveLength(1);
    const result = invokeAspect(
      { check: goodCheck([3, 3, 3, 3]), invoker: hero, aspect: boost, mode: "plus2", paidWith: "fate-point" },
      scriptedDice([]),
    );
    expect(result.aspect).toBeNull();
    expect(result.spent.paidWith).toBe("free-invoke");
    expect(result.invoker.fatePoints).toBe(3);
  });

  it("a free invoke held by the opponent is theirs only", () => {
    const aspect = makeAspect("Slippery floor", "situational", { freeInvokes: 1, holderId: "orc" });
    expect(usableFreeInvokes(aspect, "hero")).toBe(0);
    expect(usableFreeInvokes(aspect, "orc")).toBe(1);
    const broke = { id: "hero", fatePoints: 0 };
    expectRefusal(
      () =>
        invokeAspect(
          { check: goodCheck([3, 3, 3, 3]), invoker: broke, aspect, mode: "plus2" },
          scriptedDice([]),
        ),
      "errors.fate.cannotInvoke",
      { aspect: "Slippery floor" },
    );
  });

  it("refuses invoking without fate points or free invokes", () => {
    const broke = { id: "hero", fatePoints: 0 };
    const aspect = makeAspect("Old grudge", "belief");
    expectRefusal(
      () =>
        invokeAspect(
          { check: goodCheck([3, 3, 3, 3]), invoker: broke, aspect, mode: "plus2" },
          scriptedDice([]),
        ),
      "errors.fate.cannotInvoke",
    );
    expectRefusal(
      () =>
        invokeAspect(
          {
            check: goodCheck([3, 3, 3, 3]),
            invoker: broke,
            aspect: fire(),
            mode: "plus2",
            paidWith: "fate-point",
          },
          scriptedDice([]),
        ),
      "errors.fate.notEnoughFatePoints",
      { have: 0, need: 1 },
    );
    expectRefusal(
      () =>
        invokeAspect(
          { check: goodCheck([3, 3, 3, 3]), invoker: hero, aspect, mode: "plus2", paidWith: "free-invoke" },
          scriptedDice([]),
        ),
      "errors.fate.noFreeInvokes",
    );
  });

  it("[decision] one aspect is paid for with a fate point at most once per check; free invokes stack", () => {
    const aspect = makeAspect("Everything is on fire", "situational", { freeInvokes: 2 });
    let state = { check: goodCheck([2, 2, 2, 2]), invoker: hero, aspect: aspect as Aspect };
    for (const paidWith of ["free-invoke", "free-invoke", "fate-point"] as const) {
      const r = invokeAspect({ ...state, mode: "plus2", paidWith }, scriptedDice([]));
      state = { check: r.check, invoker: r.invoker, aspect: r.aspect as Aspect };
    }
    expect(checkResult(state.check)).toBe(-4 + 3 + 6);
    expectRefusal(
      () => invokeAspect({ ...state, mode: "plus2", paidWith: "fate-point" }, scriptedDice([])),
      "errors.fate.aspectAlreadyInvoked",
    );
  });

  it("choosePayment: free invoke while there is one, then a fate point, else a refusal", () => {
    expect(choosePayment(1, 0)).toBe("free-invoke");
    expect(choosePayment(2, 5)).toBe("free-invoke");
    expect(choosePayment(0, 1)).toBe("fate-point");
    expectRefusal(() => choosePayment(0, 0), "errors.fate.cannotInvoke");
  });
});

describe("invariants", () => {
  const operation = fc.record({
    invoker: fc.constantFrom("hero", "orc"),
    mode: fc.constantFrom<InvokeMode>("plus2", "reroll", "passive"),
    paidWith: fc.constantFrom<InvokePayment | undefined>("free-invoke", "fate-point", undefined),
  });

  it("property: fate points never go negative and a free invoke is spent at most once", () => {
    fc.assert(
      fc.property(
        fc.nat(3),
        fc.nat(3),
        fc.nat(3),
        fc.constantFrom<string | null>(null, "hero", "orc"),
        fc.array(operation, { maxLength: 25 }),
        fc.integer(),
        (heroFp, orcFp, freeInvokes, holderId, operations, seed) => {
          const dice = seededDice(seed);
          const people: Record<string, { id: string; fatePoints: number }> = {
            hero: { id: "hero", fatePoints: heroFp },
            orc: { id: "orc", fatePoints: orcFp },
          };
          let aspect = makeAspect("Everything is on fire", "situational", { freeInvokes, holderId });
          const first = people.hero!;
          let check = makeCheck(
            { characterId: "hero", skill: "fight", skillValue: 2, opposition: { kind: "passive", value: 2 } },
            dice,
          );
          let freeSpent = 0;
          let fpSpent = 0;
          for (const op of operations) {
            const invoker = people[op.invoker]!;
            const before = { fp: invoker.fatePoints, free: aspect.freeInvokes.length, check };
            try {
              const r = invokeAspect({ check, invoker, aspect, mode: op.mode, paidWith: op.paidWith }, dice);
              check = r.check;
              people[op.invoker] = r.invoker;
              aspect = r.aspect ?? aspect;
              if (r.spent.paidWith === "free-invoke") {
                freeSpent += 1;
                expect(aspect.freeInvokes.length).toBe(before.free - 1);
                expect(r.invoker.fatePoints).toBe(before.fp);
              } else {
                fpSpent += 1;
                expect(r.invoker.fatePoints).toBe(before.fp - 1);
                expect(aspect.freeInvokes.length).toBe(before.free);
              }
            } catch (error) {
              if (!(error instanceof DomainError)) throw error;
              // A refusal changes nothing.
              expect(people[op.invoker]!.fatePoints).toBe(before.fp);
              expect(check).toBe(before.check);
            }
            expect(people.hero!.fatePoints).toBeGreaterThanOrEqual(0);
            expect(people.orc!.fatePoints).toBeGreaterThanOrEqual(0);
          }
          expect(freeSpent).toBeLessThanOrEqual(freeInvokes);
          expect(aspect.freeInvokes.length).toBe(freeInvokes - freeSpent);
          expect(people.hero!.fatePoints + people.orc!.fatePoints).toBe(heroFp + orcFp - fpSpent);
          expect(check.invokes).toHaveLength(freeSpent + fpSpent);
          expect(first.id).toBe("hero");
        },
      ),
    );
  });
});
