import { IntlMessageFormat } from "intl-messageformat";
import { commandReference } from "../../commands/names.js";
import en from "./locales/en/index.js";
import ru from "./locales/ru/index.js";
import type { Lang, MessageKey, Messages } from "./types.js";

export type { ErrorKey, Lang, MessageKey, Messages } from "./types.js";
export { LANGS } from "./types.js";

export const catalogues: Record<Lang, Messages> = { en, ru };

const compiled = new Map<string, IntlMessageFormat>();

export type MessageParams = Record<string, string | number | boolean | null | undefined>;

/** The message `key` in `lang`, formatted with `params`. A missing key shows itself, never throws. */
export function t(lang: Lang, key: MessageKey, params: MessageParams = {}): string {
  const source = catalogues[lang][key] ?? catalogues.en[key];
  if (source === undefined) return key;
  const cacheKey = `${lang}\u0000${key}`;
  let format = compiled.get(cacheKey);
  if (!format) {
    format = new IntlMessageFormat(withCommandNames(lang, source), lang, undefined, { ignoreTag: true });
    compiled.set(cacheKey, format);
  }
  return String(format.format(resolveKeyParams(lang, params) as Record<string, string | number>));
}

/**
 * A catalogue text names a command as `{/conflict damage target}` (or `{/challenge end concede:true}`,
 * `{/consequence add character:{name}}`): it is shown with the names the reader's client shows,
 * taken from the command specs (commands/names.ts). Unknown commands or options throw.
 */
function withCommandNames(lang: Lang, source: string): string {
  let out = "";
  let from = 0;
  for (let start = source.indexOf("{/"); start >= 0; start = source.indexOf("{/", from)) {
    let depth = 0;
    let end = start;
    for (; end < source.length; end++) {
      if (source[end] === "{") depth++;
      else if (source[end] === "}" && --depth === 0) break;
    }
    if (depth !== 0) throw new Error(`Unclosed command reference in: ${source}`);
    out += source.slice(from, start) + commandReference(lang, source.slice(start + 2, end));
    from = end + 1;
  }
  return out + source.slice(from);
}

/** A param like "@system.fate" (or a comma-separated list of them) names a message: show it translated. */
const KEY_REFERENCE = /^@[a-z][\w.-]*(, @[a-z][\w.-]*)*$/i;
/** A param like "@/challenge end concede:true" names a command: shown as the reader's client shows it. */
const COMMAND_REFERENCE = /^@\/[a-z]/;

function resolveKeyParams(lang: Lang, params: MessageParams): MessageParams {
  let resolved: MessageParams | null = null;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === "string" && COMMAND_REFERENCE.test(value)) {
      resolved ??= { ...params };
      resolved[name] = commandReference(lang, value.slice(2));
      continue;
    }
    if (typeof value !== "string" || !KEY_REFERENCE.test(value)) continue;
    resolved ??= { ...params };
    resolved[name] = value
      .split(", ")
      .map((ref) => {
        const key = ref.slice(1);
        return isMessageKey(key) ? t(lang, key) : ref;
      })
      .join(", ");
  }
  return resolved ?? params;
}

/**
 * The key of a message family named by a stored value (`character.status.` + a row's status): the
 * database gives a plain string; the catalogue tests check the family.
 */
export function familyKey(prefix: string, value: string): MessageKey {
  return `${prefix}${value}` as MessageKey;
}

/** Whether `key` is a message key (for keys read from stored data or built at run time). */
export function isMessageKey(key: string): key is MessageKey {
  return key in catalogues.en;
}

/** Discord locale ("ru", "en-US", …) → our language. */
export function langFromLocale(locale: string | null | undefined): Lang {
  return locale?.toLowerCase().startsWith("ru") ? "ru" : "en";
}
