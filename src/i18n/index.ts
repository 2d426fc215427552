import { IntlMessageFormat } from "intl-messageformat";
import en from "./locales/en/index.js";
import ru from "./locales/ru/index.js";
import type { Lang, Messages } from "./types.js";

export type { Lang, Messages } from "./types.js";
export { LANGS } from "./types.js";

export const catalogues: Record<Lang, Messages> = { en, ru };

const compiled = new Map<string, IntlMessageFormat>();

export type MessageParams = Record<string, string | number | boolean | null | undefined>;

/** The message `key` in `lang`, formatted with `params`. A missing key shows itself, never throws. */
export function t(lang: Lang, key: string, params: MessageParams = {}): string {
  const source = catalogues[lang][key] ?? catalogues.en[key];
  if (source === undefined) return key;
  const cacheKey = `${lang}\u0000${key}`;
  let format = compiled.get(cacheKey);
  if (!format) {
    format = new IntlMessageFormat(source, lang, undefined, { ignoreTag: true });
    compiled.set(cacheKey, format);
  }
  return String(format.format(resolveKeyParams(lang, params) as Record<string, string | number>));
}

/** A param like "@system.fate" (or a comma-separated list of them) names a message: show it translated. */
const KEY_REFERENCE = /^@[a-z][\w.-]*(, @[a-z][\w.-]*)*$/i;

function resolveKeyParams(lang: Lang, params: MessageParams): MessageParams {
  let resolved: MessageParams | null = null;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value !== "string" || !KEY_REFERENCE.test(value)) continue;
    resolved ??= { ...params };
    resolved[name] = value
      .split(", ")
      .map((ref) => (hasMessage(ref.slice(1)) ? t(lang, ref.slice(1)) : ref))
      .join(", ");
  }
  return resolved ?? params;
}

export function hasMessage(key: string): boolean {
  return key in catalogues.en;
}

/** Discord locale ("ru", "en-US", …) → our language. */
export function langFromLocale(locale: string | null | undefined): Lang {
  return locale?.toLowerCase().startsWith("ru") ? "ru" : "en";
}
