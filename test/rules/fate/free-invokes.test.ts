import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scriptedDice } from "../../../src/rules/dice.js";
import {
  type Aspect,
  type FreeInvoke,
  makeAspect,
  mayUseFreeInvoke,
  spendFreeInvoke,
  usableFreeInvokes,
} from "../../../src/rules/fate/aspects.js";
import { invokeAspect, makeCheck } from "../../../src/rules/fate/check.js";
import { expectRefusal } from "./refusal.js";

const ilsa = { id: "ilsa", side: "pc" };
const wren = { id: "wren", side: "pc" };
const captain = { id: "captain", side: "npc" };

function aspectWith(invokes: FreeInvoke[]): Aspect {
  return { ...makeAspect("Pinned down", "situational"), freeInvokes: invokes };
}

describe("free invokes belong to a side (docs/rules/fate.md §3.2)", () => {
  it("«вы или ваши союзники можете один раз призвать этот аспект бесплатно»: the creator and allies, nobody else", () => {
    const pinned = aspectWith([{ holderId: "ilsa", side: "pc" }]);
    expect(usableFreeInvokes(pinned, ilsa)).toBe(1);
    expect(usableFreeInvokes(pinned, wren)).toBe(1);
    expect(usableFreeInvokes(pinned, captain)).toBe(0);
    expectRefusal(() => spendFreeInvoke(pinned, captain), "errors.fate.freeInvokeNotYours", {
      aspect: "Pinned down",
    });
    expect(spendFreeInvoke(pinned, wren).freeInvokes).toEqual([]);
  });

  it("«вы даете возможность бесплатно призвать этот аспект кому-то другому»: the opponent's free invoke is theirs", () => {
    const plank = aspectWith([{ holderId: "captain", side: "npc" }]);
    expect(mayUseFreeInvoke(plank.freeInvokes[0]!, ilsa)).toBe(false);
    expect(mayUseFreeInvoke(plank.freeInvokes[0]!, captain)).toBe(true);
  });

  it("the holder's own invoke is spent before the side's and before an unowned one", () => {
    const mixed = aspectWith([
      { holderId: null },
      { holderId: "wren", side: "pc" },
      { holderId: "ilsa", side: "pc" },
    ]);
    expect(spendFreeInvoke(mixed, ilsa).freeInvokes).toEqual([
      { holderId: null },
      { holderId: "wren", side: "pc" },
    ]);
    // A free invoke with no holder and no side (handed out by the GM, or stored before sides) is anyone's.
    expect(usableFreeInvokes(aspectWith([{ holderId: null }]), captain)).toBe(1);
  });

  it("an invoke asking for a free invoke of another side is refused; unasked, it is paid with a fate point", () => {
    const check = makeCheck(
      { characterId: "captain", skill: "fight", skillValue: 2 },
      scriptedDice([3, 3, 3, 3]),
    );
    const pinned = aspectWith([{ holderId: "ilsa", side: "pc" }]);
    const invoker = { id: "captain", fatePoints: 2 };
    expectRefusal(
      () =>
        invokeAspect(
          { check, invoker, side: "npc", aspect: pinned, mode: "plus2", paidWith: "free-invoke" },
          scriptedDice([]),
        ),
      "errors.fate.freeInvokeNotYours",
    );
    const paid = invokeAspect(
      { check, invoker, side: "npc", aspect: pinned, mode: "plus2" },
      scriptedDice([]),
    );
    expect(paid.spent.paidWith).toBe("fate-point");
    expect(paid.invoker.fatePoints).toBe(1);
    expect(paid.aspect?.freeInvokes).toEqual(pinned.freeInvokes);
  });

  it("property: a free invoke is spent only by its side — the holder, an ally, or anyone when it has no owner", () => {
    const holder = fc.record({
      holderId: fc.option(fc.constantFrom("a", "b", "c", "d"), { nil: null }),
      side: fc.option(fc.constantFrom("pc", "npc"), { nil: null }),
    });
    const invoker = fc.record({
      id: fc.constantFrom("a", "b", "c", "d"),
      side: fc.constantFrom("pc", "npc"),
    });
    fc.assert(
      fc.property(fc.array(holder, { maxLength: 5 }), invoker, (invokes, who) => {
        const aspect = aspectWith(invokes);
        const allowed = (f: FreeInvoke) =>
          (f.holderId === null && (f.side ?? null) === null) ||
          f.holderId === who.id ||
          (f.side ?? null) === who.side;
        let spent: Aspect | null = null;
        try {
          spent = spendFreeInvoke(aspect, who);
        } catch {
          spent = null;
        }
        if (!invokes.some(allowed)) {
          expect(spent).toBeNull();
          return;
        }
        expect(spent).not.toBeNull();
        // Exactly one free invoke is gone, and it was one the invoker was allowed to spend.
        const remaining = [...spent!.freeInvokes];
        const gone = invokes.filter((f) => {
          const i = remaining.findIndex(
            (r) => r.holderId === f.holderId && (r.side ?? null) === (f.side ?? null),
          );
          if (i >= 0) {
            remaining.splice(i, 1);
            return false;
          }
          return true;
        });
        expect(gone).toHaveLength(1);
        expect(allowed(gone[0]!)).toBe(true);
      }),
    );
  });
});
