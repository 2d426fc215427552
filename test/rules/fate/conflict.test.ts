import { describe, expect, it } from "vitest";
import {
  concede,
  concedeFatePoints,
  conflictWinner,
  endConflict,
  joinConflict,
  registerHit,
  resolveHit,
  startConflict,
} from "../../../src/rules/fate/conflict.js";
import { absorbHit, consequenceSlots, emptyTrack } from "../../../src/rules/fate/stress.js";
import { expectRefusal } from "./refusal.js";

const slots = consequenceSlots({ physique: 0, eloquence: 0 });

function brawl() {
  return startConflict("Tavern brawl", [
    { characterId: "hero", side: "heroes" },
    { characterId: "orc", side: "orcs" },
  ]);
}

describe("conceding (docs/rules/fate.md §3.4)", () => {
  it("worked example: conceding after two consequences gives 3 FP", () => {
    let conflict = brawl();
    conflict = registerHit(conflict, "hero", 2, "physical");
    conflict = resolveHit(conflict, "hero", absorbHit(emptyTrack("physical", 0), slots, 2));
    conflict = registerHit(conflict, "hero", 4, "physical");
    conflict = resolveHit(conflict, "hero", absorbHit(emptyTrack("physical", 0), slots, 4));
    const result = concede(conflict, "hero");
    expect(result.fatePoints).toBe(3);
    expect(concedeFatePoints(2)).toBe(3);
    expect(result.conflict.status).toBe("ended");
    expect(conflictWinner(result.conflict)).toBe("orcs");
  });

  it("conceding with no consequences gives 1 FP", () => {
    expect(concede(brawl(), "orc").fatePoints).toBe(1);
  });

  it("only before a roll: not with a hit already rolled against you", () => {
    const conflict = registerHit(brawl(), "hero", 3, "physical");
    expectRefusal(() => concede(conflict, "hero"), "errors.fate.concedeAfterRoll");
    expectRefusal(() => registerHit(conflict, "hero", 1, "mental"), "errors.fate.hitPending");
  });

  it("nobody concedes twice or acts after leaving", () => {
    const { conflict } = concede(
      startConflict("Ambush", [
        { characterId: "a", side: "x" },
        { characterId: "b", side: "x" },
        { characterId: "c", side: "y" },
      ]),
      "a",
    );
    expect(conflict.status).toBe("open");
    expectRefusal(() => concede(conflict, "a"), "errors.fate.outOfConflict");
    expectRefusal(() => concede(conflict, "zzz"), "errors.fate.notInConflict");
    expectRefusal(() => joinConflict(conflict, "b", "x"), "errors.fate.alreadyInConflict");
  });
});

describe("being taken out", () => {
  it("ends the conflict when the last of a side is out", () => {
    let conflict = registerHit(brawl(), "orc", 9, "physical");
    conflict = resolveHit(conflict, "orc", absorbHit(emptyTrack("physical", 2), slots.slice(0, 1), 9));
    expect(conflict.participants.find((p) => p.characterId === "orc")?.status).toBe("takenOut");
    expect(conflictWinner(conflict)).toBe("heroes");
    expectRefusal(() => concede(conflict, "hero"), "errors.fate.conflictEnded");
  });

  it("the GM can end a conflict; there is no winner then", () => {
    const ended = endConflict(brawl());
    expect(conflictWinner(ended)).toBeNull();
    expectRefusal(() => endConflict(ended), "errors.fate.conflictEnded");
  });
});
