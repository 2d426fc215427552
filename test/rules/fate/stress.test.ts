import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  absorbCapacity,
  absorbHit,
  absorptionOptions,
  absorptionValue,
  type ConsequenceSlot,
  clearConsequence,
  consequenceSlots,
  emptyTrack,
  extraMildSlot,
  nameConsequence,
  resizeTrack,
  type StressTrack,
  stressBoxes,
} from "../../../src/rules/fate/stress.js";
import { expectRefusal } from "./refusal.js";

/** Slots with only these ones free (the rest taken). */
function slotsWithFree(free: string[], skills = { physique: 0, eloquence: 0 }): ConsequenceSlot[] {
  return consequenceSlots(skills).map((s) => ({ ...s, taken: !free.includes(s.id) }));
}

describe("stress tracks (docs/rules/fate.md §3.3)", () => {
  it("2 boxes, +1 at +1/+2, +2 at +3/+4, +2 and an extra mild slot at +5", () => {
    expect([0, 1, 2, 3, 4, 5].map(stressBoxes)).toEqual([2, 3, 3, 4, 4, 4]);
    expect([0, 4, 5].map(extraMildSlot)).toEqual([false, false, true]);
  });

  it("the extra mild slot takes only its own kind of harm", () => {
    const slots = consequenceSlots({ physique: 5, eloquence: 1 });
    expect(slots.map((s) => s.id)).toEqual(["mild", "moderate", "severe", "mildPhysical"]);
    const mental = absorbHit(
      emptyTrack("mental", 0),
      slotsWithFree(["mildPhysical"], { physique: 5, eloquence: 0 }),
      2,
    );
    expect(mental.kind).toBe("takenOut");
    const physical = absorbHit(
      emptyTrack("physical", 0),
      slotsWithFree(["mildPhysical"], { physique: 5, eloquence: 0 }),
      2,
    );
    expect(physical).toMatchObject({ kind: "absorbed", consequences: ["mildPhysical"] });
  });

  it("resizing keeps checked boxes", () => {
    const track: StressTrack = { kind: "physical", boxes: [true, false, true] };
    expect(resizeTrack(track, 4).boxes).toEqual([true, false, true, false]);
    expect(resizeTrack(track, 2).boxes).toEqual([true, false]);
  });
});

describe("absorbing a hit (docs/rules/fate.md §3.3): one box of value ≥ the rest, plus free consequences", () => {
  it("«Цель должна отметить соответствующие силе удара последствие или маркер стресса»: a hit of 2 checks box 2", () => {
    const result = absorbHit(emptyTrack("physical", 2), slotsWithFree(["mild"]), 2);
    expect(result).toMatchObject({ kind: "absorbed", boxes: [1], consequences: [], absorbed: 2 });
    expect(result.track.boxes).toEqual([false, true]);
  });

  it("worked example: a hit of 4 on 2 boxes and an open mild consequence → box 2 + mild", () => {
    const result = absorbHit(emptyTrack("physical", 2), slotsWithFree(["mild"]), 4);
    expect(result).toMatchObject({ kind: "absorbed", boxes: [1], consequences: ["mild"], absorbed: 4 });
    expect(result.track.boxes).toEqual([false, true]);
    expect(result.slots.find((s) => s.id === "mild")).toMatchObject({ taken: true, aspect: null });
  });

  it("one box per hit: two small boxes do not add up (a hit of 3 on boxes 1 and 2 needs a consequence)", () => {
    const track = emptyTrack("physical", 2);
    expect(absorbHit(track, slotsWithFree([]), 3).kind).toBe("takenOut");
    expectRefusal(
      () => absorbHit(track, slotsWithFree([]), 3, { boxes: [0, 1], consequences: [] }),
      "errors.fate.oneBoxPerHit",
    );
    expect(absorbHit(track, slotsWithFree(["mild"]), 3)).toMatchObject({
      boxes: [0],
      consequences: ["mild"],
    });
  });

  it("«Если она не может этого сделать, то выбывает из конфликта»: 5 > box 2 + mild takes the character out", () => {
    const track = emptyTrack("physical", 2);
    const slots = slotsWithFree(["mild"]);
    const result = absorbHit(track, slots, 5);
    expect(result).toMatchObject({ kind: "takenOut", shifts: 5, capacity: 4 });
    expect(result.track).toEqual(track);
    expect(result.slots).toEqual(slots);
  });

  it("the options absorb the whole hit, cheapest first, no consequence wasted", () => {
    const track = emptyTrack("physical", 4);
    const all = slotsWithFree(["mild", "moderate", "severe"]);
    expect(absorptionOptions(track, all, 4)).toEqual([
      { boxes: [3], consequences: [] },
      { boxes: [1], consequences: ["mild"] },
      { boxes: [], consequences: ["moderate"] },
      { boxes: [], consequences: ["severe"] },
    ]);
    const full: StressTrack = { kind: "physical", boxes: [true, false] };
    expect(absorptionOptions(full, all, 5)[0]).toEqual({ boxes: [1], consequences: ["moderate"] });
    expect(absorbHit(full, all, 8)).toMatchObject({ boxes: [1], consequences: ["severe"] });
    expect(absorbHit(full, all, 14)).toMatchObject({
      boxes: [1],
      consequences: ["mild", "moderate", "severe"],
    });
    expect(absorbHit(full, all, 15).kind).toBe("takenOut");
    expect(absorptionOptions(full, all, 15)).toEqual([]);
  });

  it("uses the kind-only extra mild slot before the ordinary one", () => {
    const slots = consequenceSlots({ physique: 5, eloquence: 0 });
    const result = absorbHit({ kind: "physical", boxes: [true, true, true, true] }, slots, 2);
    expect(result).toMatchObject({ consequences: ["mildPhysical"] });
  });

  it("a hit of 0 costs nothing", () => {
    expect(absorbHit(emptyTrack("physical", 2), slotsWithFree([]), 0)).toMatchObject({
      kind: "absorbed",
      boxes: [],
      consequences: [],
    });
  });

  it("follows the player's choice, and checks it", () => {
    const track = emptyTrack("physical", 3);
    const slots = slotsWithFree(["mild", "moderate"]);
    expect(absorbHit(track, slots, 3, { boxes: [2], consequences: ["mild"] })).toMatchObject({
      boxes: [2],
      consequences: ["mild"],
    });
    expect(absorbHit(track, slots, 1, "takenOut").kind).toBe("takenOut");
    expectRefusal(
      () => absorbHit(track, slots, 3, { boxes: [0], consequences: [] }),
      "errors.fate.hitNotAbsorbed",
      { shifts: 3, absorbed: 1 },
    );
    expectRefusal(
      () => absorbHit({ kind: "physical", boxes: [true, false] }, slots, 1, { boxes: [0], consequences: [] }),
      "errors.fate.stressBoxChecked",
      { box: 1 },
    );
    expectRefusal(
      () => absorbHit(track, slots, 1, { boxes: [5], consequences: [] }),
      "errors.fate.noSuchStressBox",
    );
    expectRefusal(
      () => absorbHit(track, slots, 6, { boxes: [], consequences: ["severe"] }),
      "errors.fate.consequenceSlotTaken",
    );
    expectRefusal(
      () => absorbHit(track, slots, 2, { boxes: [], consequences: ["mildMental"] }),
      "errors.fate.noSuchConsequenceSlot",
    );
    expectRefusal(() => absorbHit(track, slots, -1), "errors.fate.hitInvalid");
  });

  it("property: absorption never leaves a hit partly absorbed — every option takes it whole, with one box at most", () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 2, maxLength: 4 }),
        fc.subarray(["mild", "moderate", "severe", "mildPhysical"]),
        fc.constantFrom<"physical" | "mental">("physical", "mental"),
        fc.nat(18),
        (boxes, free, kind, shifts) => {
          const track: StressTrack = { kind, boxes };
          const slots = slotsWithFree(free, { physique: 5, eloquence: 0 });
          const options = absorptionOptions(track, slots, shifts);
          const capacity = absorbCapacity(track, slots);
          expect(options.length > 0).toBe(shifts <= capacity);
          for (const option of options) {
            expect(option.boxes.length).toBeLessThanOrEqual(1);
            const result = absorbHit(track, slots, shifts, option);
            expect(result.kind).toBe("absorbed");
            if (result.kind !== "absorbed") continue;
            expect(result.absorbed).toBeGreaterThanOrEqual(shifts);
            expect(absorptionValue(option, slots)).toBe(result.absorbed);
            for (const box of result.boxes) expect(boxes[box]).toBe(false);
            const newlyTaken = result.slots.filter((s, i) => s.taken && !slots[i]!.taken).map((s) => s.id);
            expect(newlyTaken).toEqual(result.consequences);
          }
          const result = absorbHit(track, slots, shifts);
          expect(result.kind).toBe(shifts <= capacity ? "absorbed" : "takenOut");
          if (result.kind === "takenOut") {
            expect(result.track).toEqual(track);
            expect(result.slots).toEqual(slots);
          }
        },
      ),
    );
  });
});

describe("consequences as aspects", () => {
  it("are named after the hit, with a free invoke for whoever inflicted them, and cleared by the GM", () => {
    const { slots } = absorbHit(
      emptyTrack("physical", 0),
      consequenceSlots({ physique: 0, eloquence: 0 }),
      2,
    );
    const named = nameConsequence(slots, "mild", "Broken nose", "orc");
    expect(named[0]).toMatchObject({
      taken: true,
      aspect: { name: "Broken nose", kind: "consequence", freeInvokes: [{ holderId: "orc" }] },
    });
    // «whoever inflicts a consequence gets a free invoke on it»: the slot remembers the hit's inflicter.
    const hit = absorbHit(
      emptyTrack("physical", 0),
      consequenceSlots({ physique: 0, eloquence: 0 }),
      2,
      undefined,
      {
        id: "captain",
        side: "npc",
      },
    );
    expect(nameConsequence(hit.slots, "mild", "Cut")[0]?.aspect?.freeInvokes).toEqual([
      { holderId: "captain", side: "npc" },
    ]);
    expect(nameConsequence(slots, "mild", "Bruised")[0]?.aspect?.freeInvokes).toEqual([]);
    const cleared = clearConsequence(named, "mild");
    expect(cleared[0]).toMatchObject({ taken: false, aspect: null });
    expectRefusal(() => clearConsequence(cleared, "mild"), "errors.fate.consequenceSlotFree");
  });

  it("a taken extra slot is kept when the skill drops", () => {
    const slots = consequenceSlots({ physique: 5, eloquence: 0 }).map((s) =>
      s.id === "mildPhysical" ? { ...s, taken: true } : s,
    );
    expect(consequenceSlots({ physique: 3, eloquence: 0 }, slots).map((s) => s.id)).toContain("mildPhysical");
    expect(consequenceSlots({ physique: 3, eloquence: 0 }).map((s) => s.id)).not.toContain("mildPhysical");
  });
});
