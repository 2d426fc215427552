import { describe, expect, it } from "vitest";
import { allCommandJson } from "../../commands/index.js";
import type { MessageKey } from "../../src/i18n/index.js";
import { catalogues, type Lang, t } from "../../src/i18n/index.js";

/** A command, subcommand group, subcommand or option as registered with Discord. */
interface Node {
  name: string;
  name_localizations?: Record<string, string>;
  type?: number;
  options?: Node[];
}

const SUBCOMMAND = 1;
const GROUP = 2;

const nameIn = (lang: Lang, node: Node) => (lang === "ru" ? node.name_localizations?.ru : node.name);

/**
 * Checks a command as a refusal shows it (`/конфликт урон цель:…`) against what Discord shows
 * the reader: each word a registered (localized) command, group or subcommand, ending at a
 * subcommand or a command without any, then options of that one. Returns the problem, if any.
 */
function problemWith(lang: Lang, shown: string): string | null {
  const words = shown.slice(1).split(/\s+/);
  const roots = allCommandJson() as Node[];
  const root = roots.find((c) => nameIn(lang, c) === words[0]);
  if (!root) return `no command /${words[0]}`;
  let node: Node = root;
  let i = 1;
  for (; i < words.length; i++) {
    const children: Node[] = (node.options ?? []).filter((o) => o.type === SUBCOMMAND || o.type === GROUP);
    if (children.length === 0) break;
    const child: Node | undefined = children.find((c) => nameIn(lang, c) === words[i]);
    if (!child) return `no subcommand ${words[i]} after ${words.slice(0, i).join(" ")}`;
    node = child;
  }
  if ((node.options ?? []).some((o) => o.type === SUBCOMMAND || o.type === GROUP))
    return `${shown} stops before a subcommand`;
  for (const word of words.slice(i)) {
    const option = word.split(":")[0]!;
    if (!(node.options ?? []).some((o) => nameIn(lang, o) === option)) return `no option ${option}`;
  }
  return null;
}

/** Every command a text names: `/word` and the words after it that are not plain prose. */
function commandsIn(text: string): string[] {
  return [...text.matchAll(/`(\/[^`]+)`/g)].map((m) => m[1]!.trim());
}

describe("refusals that name a command", () => {
  const refusalKeys = Object.keys(catalogues.en).filter((k) => k.startsWith("errors."));
  const params = new Proxy({}, { get: () => 2, has: () => true }) as Record<string, number>;

  it("name only commands, subcommands and options the reader's client shows, in both languages", () => {
    let named = 0;
    for (const lang of ["en", "ru"] as const) {
      for (const key of refusalKeys) {
        for (const shown of commandsIn(t(lang, key as MessageKey, params))) {
          named += 1;
          expect(problemWith(lang, shown), `${lang} ${key}: ${shown}`).toBeNull();
        }
      }
    }
    // The walk saw the refusals that send the user somewhere (not a vacuous pass).
    expect(named).toBeGreaterThan(40);
  });

  it("catch a command that does not exist as the reader sees it", () => {
    expect(problemWith("en", "/challenge end concede:true")).toBeNull();
    expect(problemWith("ru", "/challenge end concede:true")).not.toBeNull();
    expect(problemWith("en", "/challenge finish")).not.toBeNull();
    expect(problemWith("en", "/challenge")).not.toBeNull();
    expect(problemWith("en", "/reserve spend pounds:…")).not.toBeNull();
  });

  it("on buttons have a variant that names no option", () => {
    for (const lang of ["en", "ru"] as const) {
      for (const key of Object.keys(catalogues[lang]).filter(
        (k) => k.startsWith("errors.") && k.endsWith(".button"),
      )) {
        expect(catalogues.en[key.slice(0, -".button".length)], key).toBeDefined();
        for (const shown of commandsIn(t(lang, key as MessageKey, params)))
          expect(shown, `${lang} ${key}`).not.toContain(":");
      }
    }
  });
});
