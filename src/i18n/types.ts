/** A message catalogue section: flat keys → ICU MessageFormat strings (plurals: `{n, plural, one {…} few {…} many {…} other {…}}`). */
export type Messages = Record<string, string>;
export type Lang = "en" | "ru";
export const LANGS: readonly Lang[] = ["en", "ru"];

/** Every message key of the catalogues (the English one is complete; a parity test keeps Russian so). */
export type MessageKey = keyof typeof import("./locales/en/index.js").default;
/** The keys of refusals: what `refuse` takes. */
export type ErrorKey = Extract<MessageKey, `errors.${string}`>;

/** `{ fight: "Fight" }` under `fate.skill.` → `{ "fate.skill.fight": "Fight" }`, keeping each key in the key type. */
export function prefixed<P extends string, K extends string>(
  prefix: P,
  names: Record<K, string>,
): Record<`${P}${K}`, string> {
  return Object.fromEntries(Object.entries(names).map(([key, name]) => [`${prefix}${key}`, name])) as Record<
    `${P}${K}`,
    string
  >;
}
