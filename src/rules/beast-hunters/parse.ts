import type { ErrorKey } from "../../i18n/types.js";
/**
 * The compact text forms documented in docs/rules/beast-hunters.md, so the GM can buy an obstacle in one command:
 *
 * - traits: `Name:value` items separated by spaces — `Hungry:4 Surround:2`. A name may
 *   have several words: write them as they are (`Hungry and desperate:4`), join them with
 *   underscores (`Hungry_and_desperate:4`) or quote them (`"Hungry and desperate":4`,
 *   `«Голодные и отчаянные»:4`). A `+` before the value is allowed (`Окружаем:+2`).
 * - resources: `A<value>` (attack) or `D<value>` (defence), Cyrillic `А`/`З` too, optionally
 *   named the same way as traits — `D6 A4`, `Rusty swords:A2`, `Ржавые_мечи:А2`. Unnamed
 *   resources are named after what was written (`D6`; repeats become `A2 (2)`).
 * - boxes: light/medium/heavy/knockout/fatal counts — `2/1/1/1/1`.
 * Commas and semicolons also separate items. Errors carry the fragment that did not parse.
 *
 * Values are only read here; whether they are allowed (positive, even) is checked when the
 * obstacle is priced, so specs built any other way get the same checks.
 */
import { refuse } from "../errors.js";
import { type ResourceKind, type Sphere, STAGES, type StageCounts } from "./types.js";

export interface NamedValue {
  name: string;
  value: number;
}

export interface ResourceValue extends NamedValue {
  kind: ResourceKind;
}

interface Segment {
  text: string;
  quoted: boolean;
}

/** A run of characters up to the next unquoted separator: quoted parts keep their spaces. */
type Word = Segment[];

// Apostrophes are not quotes: "Mother's axe" is a name.
const QUOTES: Record<string, string> = { '"': '"', "«": "»", "“": "”", "„": "“" };
const SEPARATOR = /[\s,;]/;

function splitWords(text: string, errorCode: ErrorKey): Word[] {
  const words: Word[] = [];
  let current: Word = [];
  let plain = "";
  const flushPlain = () => {
    if (plain) current.push({ text: plain, quoted: false });
    plain = "";
  };
  const flushWord = () => {
    flushPlain();
    if (current.length > 0) words.push(current);
    current = [];
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const closer = QUOTES[ch];
    if (closer !== undefined) {
      const end = text.indexOf(closer, i + 1);
      if (end < 0) refuse(errorCode, { fragment: text.slice(i) });
      flushPlain();
      current.push({ text: text.slice(i + 1, end), quoted: true });
      i = end + 1;
    } else if (SEPARATOR.test(ch)) {
      flushWord();
      i += 1;
    } else {
      plain += ch;
      i += 1;
    }
  }
  flushWord();
  return joinColons(words);
}

/** `Name : 4` and `Name: 4` mean `Name:4`: glue words around a lone or dangling colon. */
function joinColons(words: Word[]): Word[] {
  const out: Word[] = [];
  for (const word of words) {
    const previous = out[out.length - 1];
    const startsWithColon = !word[0]!.quoted && word[0]!.text.startsWith(":");
    if (previous && (startsWithColon || endsWithColon(previous))) {
      out[out.length - 1] = [...previous, ...word];
    } else {
      out.push(word);
    }
  }
  return out;
}

function endsWithColon(word: Word): boolean {
  const last = word[word.length - 1]!;
  return !last.quoted && last.text.endsWith(":");
}

function wordText(word: Word): string {
  return word.map((s) => (s.quoted ? s.text : s.text.replaceAll("_", " "))).join("");
}

function rawText(word: Word): string {
  return word.map((s) => (s.quoted ? `"${s.text}"` : s.text)).join("");
}

/** Splits a word at its last unquoted colon: `[name part, value part]`, or null if it has none. */
function splitAtColon(word: Word): [Word, string] | null {
  for (let s = word.length - 1; s >= 0; s--) {
    const segment = word[s]!;
    if (segment.quoted) continue;
    const at = segment.text.lastIndexOf(":");
    if (at < 0) continue;
    const name: Word = [...word.slice(0, s)];
    if (at > 0) name.push({ text: segment.text.slice(0, at), quoted: false });
    const value =
      segment.text.slice(at + 1) +
      word
        .slice(s + 1)
        .map((x) => x.text)
        .join("");
    return [name, value];
  }
  return null;
}

function cleanName(parts: string[]): string {
  return parts.join(" ").replace(/\s+/g, " ").trim();
}

interface Item {
  name: string | null;
  value: string;
  raw: string;
}

/**
 * Groups words into items: `words… name:value` or a bare value word. Words that are not a
 * value accumulate into the next item's name, so unquoted multi-word names work.
 */
function items(text: string, isBareValue: (word: string) => boolean, errorCode: ErrorKey): Item[] {
  const result: Item[] = [];
  let pendingName: string[] = [];
  let pendingRaw: string[] = [];
  for (const word of splitWords(text, errorCode)) {
    const split = splitAtColon(word);
    if (split) {
      const [namePart, value] = split;
      const name = cleanName([...pendingName, wordText(namePart)]);
      const raw = [...pendingRaw, rawText(word)].join(" ");
      if (!name) refuse(errorCode, { fragment: raw });
      result.push({ name, value, raw });
      pendingName = [];
      pendingRaw = [];
    } else if (!word.some((s) => s.quoted) && isBareValue(wordText(word))) {
      if (pendingRaw.length > 0) refuse(errorCode, { fragment: pendingRaw.join(" ") });
      result.push({ name: null, value: wordText(word), raw: rawText(word) });
    } else {
      pendingName.push(wordText(word));
      pendingRaw.push(rawText(word));
    }
  }
  if (pendingRaw.length > 0) refuse(errorCode, { fragment: pendingRaw.join(" ") });
  return result;
}

const NUMBER = /^\+?(\d{1,4})$/;
const RESOURCE = /^([ADАЗ])\+?(\d{1,4})$/iu;

/** Parses `Hungry:4 Surround:2` into named values (names may be Cyrillic or multi-word). */
export function parseTraits(text: string): NamedValue[] {
  return items(text, () => false, "errors.bh.badTraits").map((item) => {
    const match = NUMBER.exec(item.value.trim());
    if (!match) refuse("errors.bh.badTraits", { fragment: item.raw });
    return { name: item.name!, value: Number(match[1]) };
  });
}

function resourceKind(letter: string): ResourceKind {
  return /[AА]/iu.test(letter) ? "attack" : "defence";
}

/** Parses `D6 A4`, `Rusty swords:A2`, `Ржавые_мечи:А2 З4` into named resources. */
export function parseResources(text: string): ResourceValue[] {
  const parsed = items(text, (word) => RESOURCE.test(word), "errors.bh.badResources").map((item) => {
    const match = RESOURCE.exec(item.value.trim());
    if (!match) refuse("errors.bh.badResources", { fragment: item.raw });
    return {
      name: item.name,
      written: item.value.trim(),
      kind: resourceKind(match[1]!),
      value: Number(match[2]),
    };
  });
  const used = new Set(parsed.flatMap((r) => (r.name ? [r.name.toLowerCase()] : [])));
  return parsed.map((r) => {
    if (r.name) return { name: r.name, kind: r.kind, value: r.value };
    let name = r.written.toUpperCase();
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${r.written.toUpperCase()} (${n})`;
    used.add(name.toLowerCase());
    return { name, kind: r.kind, value: r.value };
  });
}

export interface SphereValue extends NamedValue {
  sphere: Sphere;
}

export interface SphereResource extends ResourceValue {
  sphere: Sphere;
}

/** Sphere letters: Latin P/S/M or Cyrillic Ф/С/М (a Latin C is read as the Cyrillic С it looks like). */
function sphereOf(letter: string): Sphere {
  const l = letter.toUpperCase();
  if (l === "P" || l === "Ф") return "physical";
  if (l === "M" || l === "М") return "mental";
  return "social";
}

const HUNTER_TRAIT = /^([PSMCФСМ])\+?(\d{1,3})$/iu;
const HUNTER_RESOURCE = /^([PSMCФСМ])([ADАЗ])\+?(\d{1,3})$/iu;

/** A hunter's traits with their spheres: `Mother's pride:P4 Insight:S3`, `Мама будет мной гордиться:Ф4`. */
export function parseHunterTraits(text: string): SphereValue[] {
  return items(text, () => false, "errors.bh.badHunterTraits").map((item) => {
    const match = HUNTER_TRAIT.exec(item.value.trim());
    if (!match) refuse("errors.bh.badHunterTraits", { fragment: item.raw });
    return { name: item.name!, sphere: sphereOf(match[1]!), value: Number(match[2]) };
  });
}

/** A hunter's resources with their categories: `Axe:PA4 Shield:PD2`, `Мамин старый топор:ФА4 Личные связи:СЗ3`. */
export function parseHunterResources(text: string): SphereResource[] {
  return items(text, () => false, "errors.bh.badHunterResources").map((item) => {
    const match = HUNTER_RESOURCE.exec(item.value.trim());
    if (!match) refuse("errors.bh.badHunterResources", { fragment: item.raw });
    return {
      name: item.name!,
      sphere: sphereOf(match[1]!),
      kind: resourceKind(match[2]!),
      value: Number(match[3]),
    };
  });
}

const BOXES = /^\s*(\d{1,2})\s*\/\s*(\d{1,2})\s*\/\s*(\d{1,2})\s*\/\s*(\d{1,2})\s*\/\s*(\d{1,2})\s*$/;

/** Parses `L/M/H/K/F` box counts, e.g. `2/1/1/1/1`. The stage rule is checked by `validateBoxes`. */
export function parseBoxes(text: string): StageCounts {
  const match = BOXES.exec(text);
  if (!match) refuse("errors.bh.badBoxes", { fragment: text.trim() });
  const counts = {} as StageCounts;
  STAGES.forEach((stage, i) => {
    counts[stage] = Number(match[i + 1]);
  });
  return counts;
}

/** `2/1/1/1/1` — the inverse of `parseBoxes`. */
export function formatBoxes(counts: StageCounts): string {
  return STAGES.map((stage) => counts[stage]).join("/");
}
