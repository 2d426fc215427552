import { describe, expect, it } from "vitest";
import { HELP_TOPICS, helpMessages } from "../../src/app/common/help.js";
import { type RecapEntry, SESSION_GAP_MS, sessionRecap, sessionsOf } from "../../src/app/common/session.js";

const at = (minutes: number) => new Date(Date.UTC(2026, 11, 1, 18, 0) + minutes * 60_000);
const entry = (id: number, minutes: number, action = "roll") => ({ id: String(id), at: at(minutes), action });

describe("sessions of the log", () => {
  it("a silence of six hours or more starts a new session; less does not", () => {
    const gap = SESSION_GAP_MS / 60_000;
    const sessions = sessionsOf([
      entry(1, 0),
      entry(2, gap - 1),
      entry(3, 2 * gap - 1),
      entry(4, 3 * gap - 1),
    ]);
    expect(sessions.map((s) => s.entries.map((e) => e.id))).toEqual([["1", "2"], ["3"], ["4"]]);
    expect(sessions.map((s) => s.ended)).toEqual([true, true, false]);
  });

  it("/table session end closes a session at once", () => {
    const sessions = sessionsOf([entry(1, 0), entry(2, 5, "session.end"), entry(3, 6)]);
    expect(sessions.map((s) => s.entries.map((e) => e.id))).toEqual([["1", "2"], ["3"]]);
    expect(sessions[0]!.ended).toBe(true);
  });

  it("a recap names who acted, the key moments, the biggest spends and the changed sheets, in both languages", () => {
    const entries: RecapEntry[] = [
      {
        ...entry(1, 0),
        actorUserId: "1",
        summary: { key: "log.roll", params: { expression: "2d6", total: 7 } },
        before: null,
        after: null,
        characterId: null,
      },
      {
        ...entry(2, 10, "reserve.spend"),
        actorUserId: "9",
        summary: { key: "bh.log.reserveSpend", params: { amount: 5, before: 20, after: 15 } },
        before: { left: 20 },
        after: { left: 15 },
        characterId: null,
      },
      {
        ...entry(3, 20, "character.vp"),
        actorUserId: "9",
        summary: { key: "bh.log.vpAwarded", params: { name: "Hana", amount: 2 } },
        before: null,
        after: null,
        characterId: 4,
      },
    ];
    const person = (id: string) => (id === "9" ? "GM" : "Hana");
    const en = sessionRecap("en", entries, person, (id) => (id === 4 ? "Hana" : undefined)).join("\n");
    expect(en).toContain("3 entries in the log, 1 roll, over 20 minutes");
    expect(en).toContain("GM ×2, Hana ×1");
    expect(en).toContain("Biggest reserve spends");
    expect(en).toContain("Sheets changed: Hana");
    const ru = sessionRecap("ru", entries, person, () => "Хана").join("\n");
    expect(ru).toContain("3 записи в журнале, 1 бросок, за 20 минут");
  });
});

describe("/help", () => {
  const shown = (lang: "en" | "ru") =>
    HELP_TOPICS.flatMap((topic) => helpMessages(lang, topic))
      .flatMap((m) => m.embeds ?? [])
      .flatMap((e) => [e.description ?? "", ...(e.fields ?? []).map((f) => f.value)])
      .join("\n");

  it("lists /table page and /table session end in both languages", () => {
    expect(shown("en")).toContain("/table page");
    expect(shown("en")).toContain("/table session end");
    expect(shown("ru")).toContain("/стол страница");
    expect(shown("ru")).toContain("/стол сессия конец");
  });
});
