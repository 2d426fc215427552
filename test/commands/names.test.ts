import { describe, expect, it } from "vitest";
import { commandParam, commandReference, commandText } from "../../commands/names.js";
import { catalogues, t } from "../../src/i18n/index.js";

describe("command names as the reader's client shows them", () => {
  it("use the English names for English readers and the ru localizations for Russian ones", () => {
    expect(commandText("en", "conflict damage", { target: null })).toBe("/conflict damage target:…");
    expect(commandText("ru", "conflict damage", { target: null })).toBe(
      `/конфликт ${catalogues.ru["cmd.conflict.damage.name"]} ${catalogues.ru["cmd.conflict.damage.target.name"]}:…`,
    );
    expect(commandText("ru", "conflict damage", { target: null })).toMatch(/^\/конфликт \S+ \S+:…$/u);
  });

  it("show a choice value as its localized label, any other value as given", () => {
    expect(commandReference("ru", "table setup system:fate")).toBe(
      `/стол создать система:${catalogues.ru["cmd.table.setup.system.choice.fate"]}`,
    );
    expect(commandReference("en", "roll expression:2d6+3 secret:true")).toBe(
      "/roll expression:2d6+3 secret:true",
    );
  });

  it("throw on a command, subcommand, option or choice that does not exist", () => {
    expect(() => commandText("en", "nosuch")).toThrow();
    expect(() => commandText("en", "conflict nosuch")).toThrow();
    expect(() => commandText("en", "conflict")).toThrow(/subcommands/);
    expect(() => commandText("en", "conflict damage", { nosuch: null })).toThrow();
    expect(() => commandReference("en", "table setup system:chess")).toThrow();
    expect(() => commandParam("duel nosuch")).toThrow();
  });

  it("are resolved in catalogue texts and in @/ params in the language of the message", () => {
    expect(t("en", "errors.noTable")).toContain("`/table setup system:…`");
    expect(t("ru", "errors.noTable")).toContain("`/стол создать система:…`");
    const param = commandParam("challenge end concede:true");
    expect(t("ru", "errors.wrongSystem", { systems: param })).toContain(
      `/${catalogues.ru["cmd.challenge.name"]} ${catalogues.ru["cmd.challenge.end.name"]}`,
    );
  });

  it("leave no hand-typed command name in any catalogue text", () => {
    const names = Object.keys(catalogues.en)
      .filter((k) => /^cmd\.[^.]+\.desc$/.test(k))
      .map((k) => k.split(".")[1]);
    const typed = new RegExp(`(^|[^{\\w])/(${names.join("|")})\\b`);
    for (const lang of ["en", "ru"] as const) {
      for (const [key, text] of Object.entries(catalogues[lang])) {
        expect(typed.test(text), `${lang} ${key}: ${text}`).toBe(false);
      }
    }
  });
});
