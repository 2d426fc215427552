import { describe, expect, it } from "vitest";
import { resolveSkill, SKILL_KEYS, SKILLS, suggestSkills } from "../../../src/rules/fate/skills.js";
import { expectRefusal } from "./refusal.js";

describe("skills (docs/rules/fate.md §3.3)", () => {
  it("has the eighteen skills", () => {
    expect(SKILL_KEYS).toHaveLength(18);
    expect(new Set(SKILLS.map((s) => s.ru)).size).toBe(18);
  });

  it("resolves the English key, the English name or the Russian name, in any case", () => {
    expect(resolveSkill("fight")).toBe("fight");
    expect(resolveSkill("  Athletics ")).toBe("athletics");
    expect(resolveSkill("Драка")).toBe("fight");
    expect(resolveSkill("вниМАТЕЛЬНОСТЬ")).toBe("notice");
    expect(resolveSkill("наездничество")).toBe("riding");
  });

  it("refuses an unknown skill with suggestions in the language typed", () => {
    expectRefusal(() => resolveSkill("fihgt"), "errors.fate.unknownSkill", { input: "fihgt" });
    try {
      resolveSkill("fihgt");
    } catch (error) {
      expect((error as { params: { suggestions: string } }).params.suggestions).toContain("fight");
    }
    try {
      resolveSkill("Дарка");
    } catch (error) {
      expect((error as { params: { suggestions: string } }).params.suggestions).toContain("Драка");
    }
  });

  it("cuts a long unknown input short in the error", () => {
    try {
      resolveSkill("x".repeat(500));
    } catch (error) {
      expect((error as { params: { input: string } }).params.input.length).toBeLessThanOrEqual(40);
    }
  });

  it("suggests skills for autocomplete by prefix, named in the user's language", () => {
    const st = suggestSkills("ст", "ru");
    expect(st[0]).toEqual({ key: "shoot", name: "Стрельба" });
    // Then the names that merely contain "ст", in rulebook order.
    expect(st.map((s) => s.key)).toEqual(["shoot", "physique", "notice", "riding", "thievery", "stealth"]);
    expect(suggestSkills("re", "en").map((s) => s.key)).toEqual(["resources", "lore"]);
    expect(suggestSkills("", "en")).toHaveLength(18);
    // The English key works in Russian too, and names come back in Russian.
    expect(suggestSkills("fig", "ru")).toEqual([{ key: "fight", name: "Драка" }]);
    // Contains-matches come after prefix matches.
    expect(suggestSkills("th", "en").map((s) => s.key)).toEqual([
      "thievery",
      "athletics",
      "stealth",
      "empathy",
    ]);
    expect(suggestSkills("zzz", "en")).toEqual([]);
  });
});
