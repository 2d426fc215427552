import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { MessageKey } from "../../../src/i18n/index.js";
import { t } from "../../../src/i18n/index.js";
import en from "../../../src/i18n/locales/en/beast-hunters.js";
import ru from "../../../src/i18n/locales/ru/beast-hunters.js";

const SOURCE = join(import.meta.dirname, "../../../src/rules/beast-hunters");

function codesUsedInSource(): string[] {
  const codes = new Set<string>();
  for (const file of readdirSync(SOURCE)) {
    const text = readFileSync(join(SOURCE, file), "utf8");
    for (const match of text.matchAll(/"(errors\.bh\.[A-Za-z]+)"/g)) codes.add(match[1]!);
    for (const match of text.matchAll(/"(bh\.warn\.[A-Za-z]+)"/g)) codes.add(match[1]!);
  }
  for (const kind of ["trait", "resource"])
    for (const what of ["Count", "Values"]) codes.add(`bh.warn.${kind}${what}`);
  return [...codes].sort();
}

/** Plausible values for the parameters that pick a wording; every other parameter gets a number. */
const CHOICES: Record<string, string | number> = {
  fragment: "Hungry 4",
  name: "Якхара",
  stage: "medium",
  previousStage: "light",
  struck: "light",
  sphere: "social",
  role: "attack",
  kind: "attack",
  purpose: "maneuver",
  winner: "hunters",
  reason: "beaten",
  choice: "survive",
  side: "gm",
  result: "open",
  pre: "no",
  free: "yes",
  moved: "yes",
  accepted: "no",
  values: "+5 +3 +2 +2",
  multiplier: "1.5",
};

function paramsFor(message: string): Record<string, string | number> {
  const names = [...message.matchAll(/\{(\w+)/g)].map((m) => m[1]!);
  return Object.fromEntries(names.map((n) => [n, CHOICES[n] ?? 3]));
}

describe("Beast Hunters messages", () => {
  it("have the same keys in English and Russian (Russian command names aside)", () => {
    const russian = Object.keys(ru).filter((k) => !(k.startsWith("cmd.") && k.endsWith(".name")));
    expect(russian.sort()).toEqual(Object.keys(en).sort());
  });

  it("exist for every error and warning the rules core can produce", () => {
    for (const code of codesUsedInSource()) {
      expect(en, code).toHaveProperty([code]);
      expect(ru, code).toHaveProperty([code]);
    }
  });

  it("all format, in both languages, without leaving a placeholder behind", () => {
    for (const key of Object.keys(en)) {
      for (const lang of ["en", "ru"] as const) {
        const text = t(
          lang,
          key as MessageKey,
          paramsFor(en[key as keyof typeof en] + (ru as Record<string, string>)[key]),
        );
        expect(text, `${lang} ${key}`).not.toBe(key);
        expect(text, `${lang} ${key}`).not.toMatch(/[{}]/);
      }
    }
  });

  it("read naturally with numbers in Russian", () => {
    expect(t("ru", "errors.bh.notEnoughReserve", { cost: 14, left: 5 })).toBe(
      "Переход к кубикам стоит 14 очков, а в резерве осталось 5.",
    );
    expect(t("ru", "errors.bh.notEnoughReserve", { cost: 3, left: 1 })).toBe(
      "Переход к кубикам стоит 3 очка, а в резерве осталось 1.",
    );
    expect(
      t("ru", "errors.bh.boxesIncrease", { stage: "medium", count: 4, previousStage: "light", previous: 3 }),
    ).toBe("Ячеек среднего урона (4) не может быть больше, чем ячеек лёгкого (3).");
    expect(t("en", "errors.bh.overCeiling", { rating: 9, ceiling: 8 })).toBe(
      "The challenge's rating 9 is over the ceiling 8. Buy less.",
    );
  });
});
