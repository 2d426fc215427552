import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  absorbCapacity,
  absorbHit,
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

describe("absorbing a hit (docs/rules/fate.md §3.3, [decision] one shift per box)", () => {
  it("worked example: a hit of 4 on 2 boxes and an open mild consequence → both boxes + mild", () => {
    const result = absorbHit(emptyTrack("physical", 2), slotsWithFree(["mild"]), 4);
    expect(result).toMatchObject({ kind: "absorbed", boxes: [0, 1], consequences: ["mild"], absorbed: 4 });
    expect(result.track.boxes).toEqual([true, true]);
    expect(result.slots.find((s) => s.id === "mild")).toMatchObject({ taken: true, aspect: null });
  });

  it("worked example: a hit of 5 with 3 boxes (Physique +1) and an open mild → boxes + mild", () => {
    const result = absorbHit(emptyTrack("physical", stressBoxes(1)), slotsWithFree(["mild"]), 5);
    expect(result).toMatchObject({ kind: "absorbed", boxes: [0, 1, 2], consequences: ["mild"] });
  });

  it("worked example: a hit that cannot be absorbed takes the character out (5 > 2 boxes + mild)", () => {
    const track = emptyTrack("physical", 2);
    const slots = slotsWithFree(["mild"]);
    const result = absorbHit(track, slots, 5);
    expect(result).toMatchObject({ kind: "takenOut", shifts: 5, capacity: 4 });
    expect(result.track).toEqual(track);
    expect(result.slots).toEqual(slots);
  });

  it("prefers stress to consequences: a hit of 2 on free boxes uses the boxes", () => {
    const result = absorbHit(emptyTrack("mental", 3), slotsWithFree(["mild", "moderate", "severe"]), 2);
    expect(result).toMatchObject({ kind: "absorbed", boxes: [0, 1], consequences: [] });
  });

  it("takes the smallest consequence that does the job", () => {
    const full: StressTrack = { kind: "physical", boxes: [true, false] };
    const all = slotsWithFree(["mild", "moderate", "severe"]);
    expect(absorbHit(full, all, 3)).toMatchObject({ boxes: [1], consequences: ["mild"] });
    expect(absorbHit(full, all, 4)).toMatchObject({ boxes: [], consequences: ["moderate"] });
    expect(absorbHit(full, all, 5)).toMatchObject({ boxes: [1], consequences: ["moderate"] });
    expect(absorbHit(full, all, 8)).toMatchObject({ boxes: [], consequences: ["mild", "severe"] });
    expect(absorbHit(full, all, 13)).toMatchObject({
      boxes: [1],
      consequences: ["mild", "moderate", "severe"],
    });
    expect(absorbHit(full, all, 14).kind).toBe("takenOut");
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
      {
        shifts: 3,
        absorbed: 1,
      },
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

  it("property: the default absorbs the whole hit exactly when capacity allows, changing only free boxes and slots", () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 2, maxLength: 4 }),
        fc.subarray(["mild", "moderate", "severe", "mildPhysical"]),
        fc.constantFrom<"physical" | "mental">("physical", "mental"),
        fc.nat(16),
        (boxes, free, kind, shifts) => {
          const track: StressTrack = { kind, boxes };
          const slots = slotsWithFree(free, { physique: 5, eloquence: 0 });
          const result = absorbHit(track, slots, shifts);
          const capacity = absorbCapacity(track, slots);
          expect(result.kind).toBe(shifts <= capacity ? "absorbed" : "takenOut");
          if (result.kind === "absorbed") {
            expect(result.absorbed).toBeGreaterThanOrEqual(shifts);
            for (const box of result.boxes) expect(boxes[box]).toBe(false);
            expect(result.track.boxes.filter(Boolean).length).toBe(
              boxes.filter(Boolean).length + result.boxes.length,
            );
            const newlyTaken = result.slots.filter((s, i) => s.taken && !slots[i]!.taken).map((s) => s.id);
            expect(newlyTaken).toEqual(result.consequences);
          }
        },
      ),
    );
  });
});

describe("consequences as aspects", () => {
  it("are named after the hit, with [decision] a free invoke for whoever inflicted them, and cleared by the GM", () => {
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
