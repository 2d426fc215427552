import { refuse } from "../rules/errors.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/**
 * A name a user typed (character, aspect, task…), made safe to store and show: invisible
 * and control characters removed, whitespace folded, length capped. Mentions are refused
 * outright rather than escaped, so no name can ever ping anyone.
 */
export function cleanName(input: string, maxLength = 64): string {
  const name = input.normalize("NFKC").replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
  if (name.length === 0) refuse("errors.name.empty");
  if (name.length > maxLength) refuse("errors.name.tooLong", { max: maxLength });
  if (/@(everyone|here)|<[@#][!&]?\d+>|<\/?[a-z-]+:\d+>/i.test(name)) refuse("errors.name.mention");
  return name;
}

/** The comparison key for names: case- and whitespace-insensitive. */
export function nameKey(name: string): string {
  return name.normalize("NFKC").replace(INVISIBLE, "").replace(/\s+/g, " ").trim().toLocaleLowerCase("ru");
}

/** Free text (reasons, notes): invisible characters removed, length capped, mentions defused by the renderer. */
export function cleanText(input: string, maxLength = 300): string {
  const text = input.normalize("NFKC").replace(INVISIBLE, " ").replace(/\s+/g, " ").trim();
  if (text.length > maxLength) refuse("errors.text.tooLong", { max: maxLength });
  return text;
}
