import { describe, expect, it } from "vitest";
import { makeAspect } from "../../../src/rules/fate/aspects.js";
import {
  acceptCompel,
  buyOffCompel,
  canBuyOff,
  compelNeedsGmAgreement,
  offerCompel,
  sceneCompel,
  withdrawCompel,
} from "../../../src/rules/fate/compel.js";
import { expectRefusal } from "./refusal.js";

const aspects = [makeAspect("Bloodthirsty orc", "talent"), makeAspect("High society", "situational")];
const orc = { id: "orc", fatePoints: 1 };

describe("compels (docs/rules/fate.md §3.2)", () => {
  it("the seed's example: accept and take two fate points", () => {
    const { offer } = offerCompel({
      target: orc,
      aspect: "bloodthirsty ORC",
      aspects,
      points: 2,
      by: { kind: "gm" },
    });
    expect(offer).toMatchObject({ targetId: "orc", aspect: "Bloodthirsty orc", points: 2, escrow: 0 });
    expect(acceptCompel(offer, orc).fatePoints).toBe(3);
  });

  it("buying off costs as many fate points as were offered", () => {
    const rich = { id: "orc", fatePoints: 3 };
    const { offer } = offerCompel({
      target: rich,
      aspect: "High society",
      aspects,
      points: 2,
      by: { kind: "gm" },
    });
    expect(canBuyOff(offer, rich)).toBe(true);
    expect(buyOffCompel(offer, rich).target.fatePoints).toBe(1);
  });

  it("cannot be bought off with fewer fate points than offered: only accepted", () => {
    const { offer } = offerCompel({
      target: orc,
      aspect: "High society",
      aspects,
      points: 2,
      by: { kind: "gm" },
    });
    expect(canBuyOff(offer, orc)).toBe(false);
    expectRefusal(() => buyOffCompel(offer, orc), "errors.fate.cannotBuyOffCompel", { have: 1, need: 2 });
  });

  it("[decision] a character compelling someone else puts the points up; refunded on a buy-off", () => {
    const elf = { id: "elf", fatePoints: 2 };
    const rich = { id: "orc", fatePoints: 5 };
    const by = { kind: "character" as const, characterId: "elf" };
    const { offer, compeller } = offerCompel({
      target: rich,
      aspect: "High society",
      aspects,
      points: 2,
      by,
      compeller: elf,
    });
    expect(compeller?.fatePoints).toBe(0);
    expect(acceptCompel(offer, rich).fatePoints).toBe(7);
    const refused = buyOffCompel(offer, rich, compeller);
    expect(refused.target.fatePoints).toBe(3);
    expect(refused.compeller?.fatePoints).toBe(2);
    expect(withdrawCompel(offer, compeller)?.fatePoints).toBe(2);
    expectRefusal(
      () => offerCompel({ target: rich, aspect: "High society", aspects, points: 3, by, compeller: elf }),
      "errors.fate.notEnoughFatePoints",
      { have: 2, need: 3 },
    );
  });

  it("a self-compel costs nothing and pays out", () => {
    const by = { kind: "character" as const, characterId: "orc" };
    const { offer, compeller } = offerCompel({
      target: orc,
      aspect: "Bloodthirsty orc",
      aspects,
      points: 1,
      by,
    });
    expect(compeller).toBeNull();
    expect(offer.escrow).toBe(0);
    expect(acceptCompel(offer, orc).fatePoints).toBe(2);
  });

  it("refuses an unknown aspect and an absurd number of points", () => {
    expectRefusal(
      () => offerCompel({ target: orc, aspect: "Greedy", aspects, points: 1, by: { kind: "gm" } }),
      "errors.fate.unknownAspect",
      { name: "Greedy" },
    );
    expectRefusal(
      () => offerCompel({ target: orc, aspect: "High society", aspects, points: 0, by: { kind: "gm" } }),
      "errors.fate.compelPointsInvalid",
    );
    expectRefusal(
      () => offerCompel({ target: orc, aspect: "High society", aspects, points: 6, by: { kind: "gm" } }),
      "errors.fate.compelPointsInvalid",
    );
  });

  it("a scene aspect compel that affects everyone gives each character in the scene 1 FP", () => {
    const scene = sceneCompel([orc, { id: "elf", fatePoints: 0 }]);
    expect(scene.map((c) => c.fatePoints)).toEqual([2, 1]);
  });

  it("«можно делать Навязывания самому себе» — but the GM agrees before any fate point changes hands", () => {
    const self = { targetId: "ilsa", by: { kind: "character" as const, characterId: "ilsa" } };
    expect(compelNeedsGmAgreement(self, false)).toBe(true);
    // The GM compelling, or a player compelling someone else (paid up front), does not wait.
    expect(compelNeedsGmAgreement({ targetId: "ilsa", by: { kind: "gm" } }, true)).toBe(false);
    expect(
      compelNeedsGmAgreement({ targetId: "ilsa", by: { kind: "character", characterId: "wren" } }, false),
    ).toBe(false);
    expect(compelNeedsGmAgreement(self, true)).toBe(false);
  });
});
