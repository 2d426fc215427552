import { catalogues, type Lang } from "../src/i18n/index.js";
import { commands } from "./index.js";
import type { CommandSpec, GroupSpec, OptionSpec, SubcommandSpec } from "./spec.js";

/**
 * A command as the reader's Discord client shows it: English names for English readers, the
 * `ru` localizations (`cmd.<path>.name`) for Russian ones, option values that are choices as
 * their localized labels. Texts name commands through this, never by hand-typed names:
 *
 *   commandText("en", "conflict damage", { target: null })  →  "/conflict damage target:…"
 *   commandText("ru", "conflict damage", { target: null })  →  "/конфликт урон цель:…"
 *
 * Throws when the command, subcommand or option does not exist, so a text naming a command
 * that was renamed or removed fails its test instead of sending a player to a dead end.
 */
export function commandText(
  lang: Lang,
  path: string,
  options: Readonly<Record<string, string | number | boolean | null>> = {},
  /** Allow a command or group that has subcommands (a heading, not something to type as is). */
  { partial = false }: { partial?: boolean } = {},
): string {
  const resolved = resolvePath(path, partial);
  const words = resolved.keys.map((key) => localName(lang, key));
  for (const [name, value] of Object.entries(options)) {
    const option = resolved.options.find((o) => o.name === name);
    if (!option) throw new Error(`/${path} has no option ${name}`);
    const key = `${resolved.keys.at(-1)}.${name}`;
    words.push(`${localName(lang, key)}:${optionValue(lang, key, option, value)}`);
  }
  return `/${words.join(" ")}`;
}

/**
 * The short form used inside catalogue texts and `@/…` message params: the command path,
 * then options as `name` (value left for the reader: `name:…`) or `name:value`, e.g.
 * `challenge end concede:true` or `consequence add character:{name}`.
 */
export function commandReference(lang: Lang, reference: string): string {
  const tokens = reference.trim().split(/\s+/);
  const path: string[] = [];
  while (tokens.length > 0 && !tokens[0]?.includes(":") && isPath([...path, tokens[0] as string])) {
    path.push(tokens.shift() as string);
  }
  if (path.length === 0) throw new Error(`No command /${reference}`);
  const options: Record<string, string | null> = {};
  for (const token of tokens) {
    const colon = token.indexOf(":");
    if (colon < 0) options[token] = null;
    else options[token.slice(0, colon)] = token.slice(colon + 1);
  }
  return commandText(lang, path.join(" "), options);
}

interface ResolvedPath {
  /** Catalogue key stems, one per word: `conflict`, `conflict.damage`. */
  keys: string[];
  options: readonly OptionSpec[];
}

function resolvePath(path: string, partial: boolean): ResolvedPath {
  const [name, ...rest] = path.trim().split(/\s+/);
  const spec = commands.find((c) => c.spec.name === name)?.spec;
  if (!spec) throw new Error(`No command /${path}`);
  const keys = [spec.name];
  let node: CommandSpec | SubcommandSpec | GroupSpec = spec;
  for (const word of rest) {
    const children: readonly (SubcommandSpec | GroupSpec)[] =
      "subcommands" in node && node.subcommands ? node.subcommands : [];
    const child = children.find((c) => c.name === word);
    if (!child) throw new Error(`No subcommand ${word} in /${path}`);
    keys.push(`${keys.at(-1)}.${word}`);
    node = child;
  }
  if (!partial && "subcommands" in node && node.subcommands?.length) {
    throw new Error(`/${path} is not a whole command: name one of its subcommands`);
  }
  return { keys, options: ("options" in node ? node.options : undefined) ?? [] };
}

function isPath(words: readonly string[]): boolean {
  let node: CommandSpec | SubcommandSpec | GroupSpec | undefined = commands.find(
    (c) => c.spec.name === words[0],
  )?.spec;
  for (const word of words.slice(1)) {
    node = node && "subcommands" in node ? node.subcommands?.find((c) => c.name === word) : undefined;
  }
  return node !== undefined;
}

function localName(lang: Lang, key: string): string {
  const english = key.slice(key.lastIndexOf(".") + 1);
  if (lang === "en") return english;
  const name = catalogues.ru[`cmd.${key}.name`];
  if (name === undefined) throw new Error(`Missing ru catalogue key cmd.${key}.name`);
  return name;
}

function optionValue(
  lang: Lang,
  key: string,
  option: OptionSpec,
  value: string | number | boolean | null,
): string {
  if (value === null) return "…";
  if ("choices" in option && option.choices) {
    if (!(option.choices as readonly (string | number)[]).some((c) => String(c) === String(value))) {
      throw new Error(`${String(value)} is not a choice of cmd.${key}`);
    }
    return catalogues[lang][`cmd.${key}.choice.${value}`] ?? String(value);
  }
  return String(value);
}

/**
 * A message param naming a command, shown in the language the message is rendered in
 * (a refusal is thrown before its reader's language is known): `refuse("errors.x", { next:
 * commandParam("challenge end concede:true") })`. Checked when called: an unknown command throws.
 */
export function commandParam(reference: string): string {
  commandReference("en", reference);
  return `@/${reference}`;
}
