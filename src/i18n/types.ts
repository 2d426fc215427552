/** A message catalogue section: flat keys → ICU MessageFormat strings (plurals: `{n, plural, one {…} few {…} many {…} other {…}}`). */
export type Messages = Record<string, string>;
export type Lang = "en" | "ru";
export const LANGS: readonly Lang[] = ["en", "ru"];
