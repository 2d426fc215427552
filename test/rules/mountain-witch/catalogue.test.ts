import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { MessageKey } from "../../../src/i18n/index.js";
import { t } from "../../../src/i18n/index.js";
import en from "../../../src/i18n/locales/en/mountain-witch.js";
import ru from "../../../src/i18n/locales/ru/mountain-witch.js";
import {
  DAMAGE_DURATIONS,
  DAMAGE_QUALITIES,
  DARK_FATES,
  DEGREE_KEYS,
  STRENGTHS,
  ZODIAC_SIGNS,
} from "../../../src/rules/mountain-witch/index.js";

const sourceDirs = [
  join(import.meta.dirname, "../../../src/rules/mountain-witch"),
  join(import.meta.dirname, "../../../src/app/mountain-witch"),
];

describe("Mountain Witch message catalogue", () => {
  it("has the same keys in English and Russian (Russian command names aside)", () => {
    const ruKeys = Object.keys(ru).filter((k) => !(k.startsWith("cmd.") && k.endsWith(".name")));
    expect(ruKeys.sort()).toEqual(Object.keys(en).sort());
  });

  it("has every refusal the rules and use cases can throw", () => {
    const codes = new Set<string>();
    for (const dir of sourceDirs) {
      for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
        for (const m of readFileSync(join(dir, file), "utf8").matchAll(/"(errors\.mw\.[A-Za-z]+)"/g))
          codes.add(m[1]!);
      }
    }
    expect(codes.size).toBeGreaterThan(50);
    for (const code of codes) {
      expect(en, code).toHaveProperty([code]);
      expect(ru, code).toHaveProperty([code]);
    }
  });

  it("names every degree, quality, duration, strength, dark fate and sign", () => {
    const keys = [
      ...DEGREE_KEYS.map((k) => `mw.degree.${k}`),
      ...DAMAGE_QUALITIES.map((k) => `mw.quality.${k}`),
      ...DAMAGE_DURATIONS.map((k) => `mw.duration.${k}`),
      ...STRENGTHS.map((k) => `mw.strength.${k}`),
      ...DARK_FATES.map((k) => `mw.fate.${k}`),
      ...ZODIAC_SIGNS.map((k) => `mw.sign.${k}`),
    ];
    for (const key of keys) expect(en, key).toHaveProperty([key]);
  });

  it("formats every message in both languages", () => {
    const params = new Proxy({}, { get: () => 2, has: () => true }) as Record<string, number>;
    for (const key of Object.keys(en)) {
      for (const lang of ["en", "ru"] as const) {
        const text = t(lang, key as MessageKey, params);
        expect(text, `${lang} ${key}`).not.toMatch(/\{[a-z]\w*\}/i);
        expect(text).not.toBe(key);
      }
    }
    expect(t("ru", "errors.mw.notEnoughTrust", { have: 5, need: 1 })).toContain("5 очков");
    expect(t("ru", "errors.mw.notEnoughTrust", { have: 2, need: 3 })).toContain("2 очка");
    expect(t("en", "errors.mw.notEnoughTrust", { have: 1, need: 2 })).toContain("1 point ");
  });
});
