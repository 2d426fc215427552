import { refuse } from "../errors.js";

/** The eighteen skills of docs/rules/fate.md §3.3, in the rulebook's order, with their English and Russian names. */
export const SKILLS = [
  { key: "physique", en: "Physique", ru: "Выносливость" },
  { key: "eloquence", en: "Eloquence", ru: "Красноречие" },
  { key: "athletics", en: "Athletics", ru: "Атлетика" },
  { key: "notice", en: "Notice", ru: "Внимательность" },
  { key: "riding", en: "Riding", ru: "Наездничество" },
  { key: "will", en: "Will", ru: "Воля" },
  { key: "thievery", en: "Thievery", ru: "Воровство" },
  { key: "fight", en: "Fight", ru: "Драка" },
  { key: "lore", en: "Lore", ru: "Знания" },
  { key: "contacts", en: "Contacts", ru: "Контакты" },
  { key: "deceive", en: "Deceive", ru: "Обман" },
  { key: "provoke", en: "Provoke", ru: "Провокация" },
  { key: "investigate", en: "Investigate", ru: "Расследование" },
  { key: "crafts", en: "Crafts", ru: "Ремесло" },
  { key: "resources", en: "Resources", ru: "Ресурсы" },
  { key: "stealth", en: "Stealth", ru: "Скрытность" },
  { key: "shoot", en: "Shoot", ru: "Стрельба" },
  { key: "empathy", en: "Empathy", ru: "Эмпатия" },
] as const;

export type SkillKey = (typeof SKILLS)[number]["key"];
export const SKILL_KEYS: readonly SkillKey[] = SKILLS.map((s) => s.key);

/** A skill's display name as used by `resolveSkill`; the i18n catalogue has the same names under `fate.skill.<key>`. */
export function skillName(key: SkillKey, lang: "en" | "ru"): string {
  const skill = SKILLS.find((s) => s.key === key);
  if (!skill) throw new Error(`skillName: not a skill key: ${key}`);
  return skill[lang];
}

export function isSkillKey(value: string): value is SkillKey {
  return (SKILL_KEYS as readonly string[]).includes(value);
}

/** Lower case, trimmed, ё read as е: the way people type skill names. */
export function normaliseName(input: string): string {
  return input.trim().toLowerCase().replaceAll("ё", "е").replace(/\s+/g, " ");
}

const CYRILLIC = /[\u0400-\u04ff]/;

/** How many single-character edits turn `a` into `b` (Levenshtein), for "did you mean". */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The longest user input echoed back in an error, so a pasted essay cannot blow up a message. */
const MAX_ECHO = 40;

export function echo(input: string): string {
  const trimmed = input.trim();
  return trimmed.length > MAX_ECHO ? `${trimmed.slice(0, MAX_ECHO - 1)}…` : trimmed;
}

/**
 * The skill named by `input`: its English key or its English or Russian name, in any case.
 * Refuses with `errors.fate.unknownSkill` and the three closest names, in the language the
 * user typed in (Cyrillic input gets Russian suggestions).
 */
export function resolveSkill(input: string): SkillKey {
  const wanted = normaliseName(input);
  const found = SKILLS.find(
    (s) => s.key === wanted || normaliseName(s.en) === wanted || normaliseName(s.ru) === wanted,
  );
  if (found) return found.key;
  const lang = CYRILLIC.test(wanted) ? "ru" : "en";
  const suggestions = closestSkills(wanted, lang, 3).map((key) =>
    lang === "ru" ? skillName(key, "ru") : key,
  );
  return refuse("errors.fate.unknownSkill", { input: echo(input), suggestions: suggestions.join(", ") });
}

/** The `count` skills whose names (in `lang`) look most like `input`: prefix matches first, then by edit distance. */
export function closestSkills(input: string, lang: "en" | "ru", count: number): SkillKey[] {
  const wanted = normaliseName(input);
  const scored = SKILLS.map((s, order) => {
    const name = normaliseName(lang === "ru" ? s.ru : s.en);
    const prefix = wanted.length > 0 && name.startsWith(wanted) ? 0 : 1;
    const distance = editDistance(wanted, name.slice(0, Math.max(wanted.length, 1)));
    return { key: s.key, prefix, distance, order };
  });
  scored.sort((a, b) => a.prefix - b.prefix || a.distance - b.distance || a.order - b.order);
  return scored.slice(0, count).map((s) => s.key);
}

export interface SkillChoice {
  key: SkillKey;
  name: string;
}

/** Discord's limit on autocomplete choices. */
export const MAX_SUGGESTIONS = 25;

/**
 * Autocomplete for a skill option: skills whose name in `lang`, English key or other-language
 * name starts with `prefix` (then those that merely contain it), named in `lang`.
 * An empty prefix lists every skill in rulebook order.
 */
export function suggestSkills(prefix: string, lang: "en" | "ru"): SkillChoice[] {
  const wanted = normaliseName(prefix);
  const ranked = SKILLS.map((s, order) => {
    const names = [s[lang], s.key, lang === "ru" ? s.en : s.ru].map(normaliseName);
    const rank = names.some((n) => n.startsWith(wanted)) ? 0 : names.some((n) => n.includes(wanted)) ? 1 : 2;
    return { key: s.key, name: s[lang], rank, order };
  }).filter((s) => s.rank < 2);
  ranked.sort((a, b) => a.rank - b.rank || a.order - b.order);
  return ranked.slice(0, MAX_SUGGESTIONS).map(({ key, name }) => ({ key, name }));
}
