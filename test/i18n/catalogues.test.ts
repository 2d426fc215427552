import { describe, expect, it } from "vitest";
import type { MessageKey } from "../../src/i18n/index.js";
import { catalogues, familyKey, t } from "../../src/i18n/index.js";
import { DomainError, refuse } from "../../src/rules/errors.js";

describe("message catalogues", () => {
  it("have the same keys in English and Russian (Russian command names aside)", () => {
    const en = Object.keys(catalogues.en).sort();
    // `cmd.*.name` keys are Russian command/option names: the English name is the fixed contract.
    const ru = Object.keys(catalogues.ru)
      .filter((k) => !(k.startsWith("cmd.") && k.endsWith(".name")))
      .sort();
    expect(ru).toEqual(en);
  });

  it("compile and format every message in both languages without leftover placeholders", () => {
    for (const lang of ["en", "ru"] as const) {
      for (const key of Object.keys(catalogues[lang])) {
        const text = t(
          lang,
          key as MessageKey,
          new Proxy({}, { get: () => 2, has: () => true }) as Record<string, number>,
        );
        // Code spans show what users type, and saved rolls are typed with braces (`4dF+{fight}`).
        const prose = text.replace(/`[^`]*`/g, "");
        expect(prose, `${lang} ${key}`).not.toMatch(/\{[a-z]\w*\}/i);
      }
    }
  });

  it("are the only keys the compiler lets through: a misspelled one does not compile", () => {
    // tsc fails on each line below if the key type ever widens back to `string` (an unused expectation).
    // @ts-expect-error "noTabel" is not a key
    expect(t("en", "errors.noTabel")).toBe("errors.noTabel");
    // @ts-expect-error a refusal takes an `errors.` key only
    expect(() => refuse("table.show.trustMode")).toThrow(DomainError);
    expect(t("en", familyKey("system.", "fate"))).toBe("Fate of Panavea (4d3)");
  });

  it("use Russian plural forms", () => {
    expect(t("ru", "character.list.title", { count: 1 })).toBe("1 персонаж");
    expect(t("ru", "character.list.title", { count: 3 })).toBe("3 персонажа");
    expect(t("ru", "character.list.title", { count: 5 })).toBe("5 персонажей");
    expect(t("en", "character.list.title", { count: 1 })).toBe("1 character");
  });

  it("translate message-key references in params", () => {
    expect(t("ru", "errors.wrongSystem", { systems: "@system.mountain-witch, @system.fate" })).toContain(
      "Горная ведьма, Fate Панавеи",
    );
  });
});
