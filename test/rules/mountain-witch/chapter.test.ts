import { describe, expect, it } from "vitest";
import {
  applyChapterStart,
  assertMayAttemptRecovery,
  type RecoveryRecord,
} from "../../../src/rules/mountain-witch/index.js";
import { expectRefusal, link, wound } from "./helpers.js";

describe("chapter start (docs/rules/mountain-witch.md §1.5)", () => {
  it("refills points, ends 'until chapter end' damage, and opens recovery attempts", () => {
    const untilChapterEnd = wound(1, "chapter");
    const permanent = wound(1, "permanent");
    const poison = { ...wound(2, "condition"), condition: "antidote" };
    const woundNextRoll = wound(2, "next-roll");
    const characters: RecoveryRecord[] = [
      { characterId: 1, status: "active", incapacitatedInChapter: null, recoveryTriedInChapter: null },
      { characterId: 2, status: "incapacitated", incapacitatedInChapter: 1, recoveryTriedInChapter: null },
      { characterId: 3, status: "incapacitated", incapacitatedInChapter: 2, recoveryTriedInChapter: null },
      { characterId: 4, status: "dead", incapacitatedInChapter: null, recoveryTriedInChapter: null },
    ];
    const start = applyChapterStart({
      chapter: 2,
      links: [link(1, 2, 0, 3), link(2, 1, 1, 2)],
      changes: [],
      damage: [untilChapterEnd, permanent, poison, woundNextRoll],
      characters,
    });
    expect(start.links).toEqual([link(1, 2, 3), link(2, 1, 2)]);
    expect(start.expiredDamageIds).toEqual([untilChapterEnd.id]);
    // Taken out in chapter 1: may try from chapter 2; taken out in chapter 2: not yet.
    expect(start.mayRecover).toEqual([2]);
  });

  it("a recovery is attempted once per chapter, from the chapter after being taken out", () => {
    const record: RecoveryRecord = {
      characterId: 2,
      status: "incapacitated",
      incapacitatedInChapter: 3,
      recoveryTriedInChapter: null,
    };
    expectRefusal(() => assertMayAttemptRecovery(record, 3), "errors.mw.recoveryNotYet");
    expect(() => assertMayAttemptRecovery(record, 4)).not.toThrow();
    expectRefusal(
      () => assertMayAttemptRecovery({ ...record, recoveryTriedInChapter: 4 }, 4),
      "errors.mw.recoveryAlreadyTried",
    );
    expectRefusal(
      () => assertMayAttemptRecovery({ ...record, status: "active" }, 4),
      "errors.mw.notIncapacitated",
    );
  });

  it("refuses a change that breaks the adjustment rule", () => {
    expectRefusal(
      () =>
        applyChapterStart({
          chapter: 2,
          links: [link(1, 2, 2)],
          changes: [{ giverId: 1, holderId: 2, before: 2, after: 4 }],
          damage: [],
          characters: [],
        }),
      "errors.mw.trustRaiseTooHigh",
    );
  });
});
