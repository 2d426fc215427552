import { describe, expect, it } from "vitest";
import { GAMES } from "../../commands/index.js";
import { HELP_TOPICS, type HelpTopic, helpMessages } from "../../src/app/common/help.js";
import type { MessageView } from "../../src/app/views.js";
import { globalCommandJson, guildCommandJson } from "../../src/discord/register.js";
import type { Lang } from "../../src/i18n/index.js";

type Node = {
  name: string;
  name_localizations?: Record<string, string> | null;
  type?: number;
  options?: Node[];
};

/** Every subcommand (or option-only command) as the reader's client shows its path: `/конфликт урон`. */
function leaves(node: Node, lang: Lang, prefix: string[] = []): string[] {
  const name = lang === "ru" ? (node.name_localizations?.ru ?? node.name) : node.name;
  const path = [...prefix, name];
  const subs = (node.options ?? []).filter((o) => o.type === 1 || o.type === 2);
  if (subs.length === 0) return [`/${path.join(" ")}`];
  return subs.flatMap((s) => leaves(s, lang, path));
}

function text(messages: MessageView[]): string {
  return messages
    .flatMap((m) => m.embeds ?? [])
    .flatMap((e) => [e.title, e.description, ...(e.fields ?? []).flatMap((f) => [f.name, f.value]), e.footer])
    .join("\n");
}

describe("/help, generated from the registered commands", () => {
  for (const lang of ["en", "ru"] as const) {
    for (const game of GAMES) {
      it(`lists every registered subcommand of ${game} in ${lang}, named as the client shows it`, () => {
        const shown = text(helpMessages(lang, game));
        const registered = guildCommandJson([game]).flatMap((c) => leaves(c as Node, lang));
        expect(registered.length).toBeGreaterThan(5);
        const missing = registered.filter(
          (path) => !shown.includes(`\`${path}\``) && !shown.includes(`\`${path} `),
        );
        expect(missing).toEqual([]);
      });
    }

    it(`lists every global command in the start topic in ${lang}`, () => {
      const shown = text(helpMessages(lang, "start"));
      const registered = globalCommandJson()
        .filter((c) => c.contexts?.includes(0))
        .flatMap((c) => leaves(c as Node, lang));
      const missing = registered.filter(
        (path) => !shown.includes(`\`${path}\``) && !shown.includes(`\`${path} `),
      );
      expect(missing).toEqual([]);
    });
  }

  it("names nothing of another game in a game's topic", () => {
    const fate = text(helpMessages("en", "fate"));
    expect(fate).not.toContain("/duel");
    expect(fate).not.toContain("/challenge");
    expect(fate).not.toContain("/character zodiac");
    expect(fate).not.toContain("/conflict betray");
  });

  it("stays within Discord's limits for every topic and language", () => {
    for (const lang of ["en", "ru"] as const) {
      for (const topic of HELP_TOPICS as readonly HelpTopic[]) {
        for (const message of helpMessages(lang, topic)) {
          expect(message.ephemeral).toBe(true);
          const embeds = message.embeds ?? [];
          expect(embeds.length).toBeLessThanOrEqual(10);
          let chars = 0;
          for (const e of embeds) {
            expect((e.description ?? "").length).toBeLessThanOrEqual(4096);
            expect((e.fields ?? []).length).toBeLessThanOrEqual(25);
            for (const f of e.fields ?? []) {
              expect(f.name.length).toBeLessThanOrEqual(256);
              expect(f.value.length).toBeLessThanOrEqual(1024);
            }
            chars += text([{ embeds: [e] }]).length - 3;
          }
          expect(chars, `${lang} ${topic}`).toBeLessThanOrEqual(6000);
        }
      }
    }
  });
});
