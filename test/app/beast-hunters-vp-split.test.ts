import { describe, expect, it } from "vitest";
import { t } from "../../src/i18n/index.js";

/** The challenge's end names who got the split's remainder, in the reader's language, and only when there is one. */
describe("Beast Hunters: the end of a won challenge says how the VP were split", () => {
  const won = {
    winner: "hunters",
    reason: "giveUp",
    refund: 0,
    rating: 3,
    vp: "Yakhara 2, Borak 1",
    shared: "yes",
  };

  it("names the hunter who got the remainder and the points (English and Russian)", () => {
    const params = { ...won, remainder: 1, remainderTo: "Yakhara" };
    expect(t("en", "bh.event.ended", params)).toContain(
      "(rating 3 shared by the hunters standing; the remaining 1 point to Yakhara)",
    );
    expect(t("ru", "bh.event.ended", params)).toContain(
      "(рейтинг 3 делят устоявшие охотники, остаток 1 очко — Yakhara)",
    );
    expect(t("ru", "bh.event.ended", { ...params, rating: 8, remainder: 2 })).toContain(
      "остаток 2 очка — Yakhara",
    );
  });

  it("names no one when the rating divides evenly", () => {
    const params = { ...won, rating: 4, vp: "Yakhara 2, Borak 2", remainder: 0, remainderTo: "" };
    expect(t("en", "bh.event.ended", params)).toContain("(rating 4 shared by the hunters standing).");
    expect(t("ru", "bh.event.ended", params)).toContain("(рейтинг 4 делят устоявшие охотники).");
    expect(t("ru", "bh.event.ended", params)).not.toContain("—");
  });
});
