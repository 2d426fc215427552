import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { MessageKey } from "../../../src/i18n/index.js";
import { catalogues, t } from "../../../src/i18n/index.js";
import { ASPECT_KINDS } from "../../../src/rules/fate/aspects.js";
import { FACTION_ABILITIES } from "../../../src/rules/fate/faction.js";
import { LADDER } from "../../../src/rules/fate/ladder.js";
import { ACTIONS, actionOutcome, OUTCOMES } from "../../../src/rules/fate/outcomes.js";
import { SKILLS } from "../../../src/rules/fate/skills.js";
import { SEVERITIES } from "../../../src/rules/fate/stress.js";

const sourceDir = join(import.meta.dirname, "../../../src/rules/fate");
const codesUsed = [
  ...new Set(
    readdirSync(sourceDir)
      .filter((f) => f.endsWith(".ts"))
      .flatMap((f) => readFileSync(join(sourceDir, f), "utf8").match(/errors\.fate\.[A-Za-z]+/g) ?? []),
  ),
];

const sampleParams = {
  input: "x",
  suggestions: "fight",
  name: "N",
  aspect: "A",
  have: 1,
  need: 2,
  change: 3,
  max: 5,
  hit: 2,
  shifts: 5,
  absorbed: 4,
  box: 3,
  count: 2,
  slot: "mildPhysical",
  skill: "fight",
  ability: "art",
  rank: 3,
  value: 6,
  total: 6,
};

describe("Fate messages", () => {
  it("every error the rules can raise exists in English and Russian", () => {
    expect(codesUsed.length).toBeGreaterThan(30);
    for (const code of codesUsed) {
      expect(catalogues.en[code], code).toBeTypeOf("string");
      expect(catalogues.ru[code], code).toBeTypeOf("string");
    }
  });

  it("English and Russian have the same fate keys, and every one formats", () => {
    const en = Object.keys(catalogues.en).filter(
      (k) => k.startsWith("fate.") || k.startsWith("errors.fate."),
    );
    const ru = Object.keys(catalogues.ru).filter(
      (k) => k.startsWith("fate.") || k.startsWith("errors.fate."),
    );
    expect(ru.sort()).toEqual(en.sort());
    for (const key of en) {
      for (const lang of ["en", "ru"] as const) {
        const params = new Proxy(sampleParams, {
          get: (target, name) => (target as Record<string | symbol, unknown>)[name] ?? "x",
          has: () => true,
        });
        const text = t(lang, key as MessageKey, params);
        expect(text, `${lang} ${key}`).not.toBe(key);
        expect(text).not.toMatch(/[{}]/);
      }
    }
  });

  it("names every ladder rung, outcome, action, effect, skill, aspect kind, severity and faction ability", () => {
    const keys = [
      ...LADDER.map((r) => `fate.ladder.${r.key}`),
      ...OUTCOMES.map((o) => `fate.outcome.${o}`),
      ...ACTIONS.map((a) => `fate.action.${a}`),
      ...ACTIONS.flatMap((a) =>
        [-1, 0, 1, 3].flatMap((s) => [
          actionOutcome(a, s).key,
          actionOutcome(a, s, { existingAspect: true }).key,
        ]),
      ),
      ...ASPECT_KINDS.map((k) => `fate.aspectKind.${k}`),
      ...SEVERITIES.map((s) => `fate.consequenceSlot.${s}`),
      ...FACTION_ABILITIES.map((a) => `fate.factionAbility.${a.key}`),
    ];
    for (const key of keys) {
      expect(catalogues.en[key], key).toBeTypeOf("string");
      expect(catalogues.ru[key], key).toBeTypeOf("string");
    }
  });

  it("skill names in the catalogue are the names resolveSkill accepts", () => {
    for (const skill of SKILLS) {
      expect(t("en", `fate.skill.${skill.key}`)).toBe(skill.en);
      expect(t("ru", `fate.skill.${skill.key}`)).toBe(skill.ru);
    }
    expect(t("ru", "errors.fate.skillUsedInChallenge", { skill: "will" })).toContain("Воля");
  });

  it("Russian plurals agree with the number", () => {
    expect(t("ru", "errors.fate.notEnoughFatePoints", { have: 1, need: 5 })).toBe(
      "У вас 1 очко судьбы, а нужно 5 очков судьбы.",
    );
    expect(t("ru", "fate.effect.attack.success", { hit: 2 })).toBe("Успех: удар силой 2 сдвига.");
  });
});
