import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  concede,
  concedeFatePoints,
  conflictWinner,
  currentTurn,
  endConflict,
  joinConflict,
  leaveConflict,
  nextTurn,
  outOfTheFight,
  registerHit,
  resolveHit,
  setTurnOrder,
  startConflict,
  stillFighting,
  turnOrder,
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

describe("«вы вправе прервать любое действие до броска… если кубики брошены — назад не отмотать»", () => {
  it("a rolled action against the character is settled first: conceding is refused while it is pending", () => {
    expectRefusal(() => concede(brawl(), "hero", { actionPending: true }), "errors.fate.concedeAfterRoll");
    expect(concede(brawl(), "hero", { actionPending: false }).fatePoints).toBe(1);
  });

  it("«очко судьбы за принятие поражения и еще один за каждое последствие, которое получили в этом конфликте», however recorded", () => {
    // Two consequences named by hand after joining (no hit counted them) pay 1 + 2.
    const conflict = startConflict("Ford", [
      { characterId: "hero", side: "pc", consequences: ["severe"] },
      { characterId: "orc", side: "npc" },
    ]);
    expect(concede(conflict, "hero", { takenNow: ["severe", "mild", "moderate"] }).fatePoints).toBe(3);
    // The severe one was taken before the conflict: it does not count.
    expect(concede(conflict, "hero", { takenNow: ["severe"] }).fatePoints).toBe(1);
  });

  it("a conceded or taken-out character is out of the fight and leaves the turn order", () => {
    let conflict = startConflict("Ambush", [
      { characterId: "a", side: "pc" },
      { characterId: "b", side: "pc" },
      { characterId: "c", side: "npc" },
    ]);
    expect(currentTurn(conflict)).toBe("a");
    conflict = concede(conflict, "a").conflict;
    expect(currentTurn(conflict)).toBe("b");
    expect(outOfTheFight(conflict, "a")).toBe(true);
    expect(stillFighting(conflict, "a")).toBe(false);
    expect(stillFighting(conflict, "b")).toBe(true);
    conflict = nextTurn(conflict);
    expect(currentTurn(conflict)).toBe("c");
    conflict = nextTurn(conflict);
    expect(conflict.exchange).toBe(2);
    expect(currentTurn(conflict)).toBe("b");
  });
});

describe("turns (docs/rules/fate.md §3.4)", () => {
  it("the GM sets the order; a late joiner acts last; a leaver leaves the order and may come back", () => {
    let conflict = startConflict("Bridge", [
      { characterId: "a", side: "pc" },
      { characterId: "b", side: "npc" },
    ]);
    conflict = setTurnOrder(conflict, ["b"]);
    expect(turnOrder(conflict)).toEqual(["b", "a"]);
    expect(currentTurn(conflict)).toBe("b");
    conflict = joinConflict(conflict, "late", "pc");
    expect(turnOrder(conflict)).toEqual(["b", "a", "late"]);
    conflict = nextTurn(nextTurn(conflict));
    expect(currentTurn(conflict)).toBe("late");
    conflict = leaveConflict(conflict, "late");
    expect(conflict.status).toBe("open");
    expect(conflict.exchange).toBe(2);
    expect(currentTurn(conflict)).toBe("b");
    expectRefusal(() => concede(conflict, "late"), "errors.fate.outOfConflict");
    conflict = joinConflict(conflict, "late", "pc");
    expect(stillFighting(conflict, "late")).toBe(true);
    expectRefusal(() => setTurnOrder(conflict, ["nobody"]), "errors.fate.notInConflict");
  });

  it("a conflict stored before turns (no order, no turn) plays in the participants' order", () => {
    const old = { title: "Old", exchange: 3, status: "open" as const, participants: brawl().participants };
    expect(currentTurn(old)).toBe("hero");
    expect(currentTurn(nextTurn(old))).toBe("orc");
    expect(nextTurn(nextTurn(old)).exchange).toBe(4);
  });

  it("property: the turn is always someone still fighting while the conflict is open", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("next", "concede", "leave", "join"), { maxLength: 30 }),
        fc.array(fc.nat(5), { minLength: 30, maxLength: 30 }),
        (steps, picks) => {
          let conflict = startConflict("X", [
            { characterId: "p0", side: "pc" },
            { characterId: "p1", side: "pc" },
            { characterId: "n0", side: "npc" },
            { characterId: "n1", side: "npc" },
          ]);
          const ids = ["p0", "p1", "n0", "n1", "p2", "n2"];
          steps.forEach((step, i) => {
            if (conflict.status !== "open") return;
            const id = ids[picks[i]! % ids.length]!;
            try {
              if (step === "next") conflict = nextTurn(conflict);
              else if (step === "concede") conflict = concede(conflict, id).conflict;
              else if (step === "leave") conflict = leaveConflict(conflict, id);
              else conflict = joinConflict(conflict, id, id.startsWith("p") ? "pc" : "npc");
            } catch {
              // A refused step changes nothing.
            }
            if (conflict.status === "open") {
              const turn = currentTurn(conflict);
              expect(turn).not.toBeNull();
              expect(stillFighting(conflict, turn!)).toBe(true);
            }
          });
        },
      ),
    );
  });
});
