import { type Lang, t } from "../../i18n/index.js";
import { type Invoker, usableFreeInvokes } from "../../rules/fate/aspects.js";
import type { FateDiceRoll } from "../../rules/fate/dice.js";
import { ladderName, signed } from "../../rules/fate/ladder.js";
import { SKILLS, type SkillKey } from "../../rules/fate/skills.js";
import type { TableAspect } from "./state.js";

/**
 * The options of an invoke's aspect select (at most 25): the aspect, where it is, its kind and how
 * many of its free invokes `free` says the invoker may spend.
 */
export function aspectInvokeOptions(
  lang: Lang,
  aspects: readonly TableAspect[],
  free: (aspect: TableAspect) => number = (a) => a.aspect.freeInvokes.length,
) {
  return aspects.slice(0, 25).map((a) => ({
    label: a.aspect.name.slice(0, 90),
    value: a.ref,
    description: t(lang, "fate.invoke.option", {
      where: a.characterName ?? t(lang, "fate.aspect.scene"),
      kind: `@fate.aspectKind.${a.aspect.kind}`,
      free: free(a),
    }).slice(0, 100),
  }));
}

/**
 * The invoke select for `who` (null: the GM, who may spend anyone's): the free invokes they may
 * spend counted and those aspects first, then the `relevant` ones (this check's characters, the
 * scene's), then the rest (docs/rules/fate.md §3.2). A select holds 25: `/invoke aspect:` searches
 * all of them.
 */
export function invokeSelectOptions(
  lang: Lang,
  aspects: readonly TableAspect[],
  who: Invoker | null,
  relevant: (aspect: TableAspect) => boolean = () => false,
) {
  const free = (a: TableAspect) => (who ? usableFreeInvokes(a.aspect, who) : a.aspect.freeInvokes.length);
  const rank = (a: TableAspect) => (free(a) > 0 ? 0 : relevant(a) ? 1 : 2);
  return aspectInvokeOptions(
    lang,
    [...aspects].sort((a, b) => rank(a) - rank(b) || free(b) - free(a)),
    free,
  );
}

/** "Great (+4)"; beyond the ladder just "+9". */
export function ladderText(lang: Lang, value: number): string {
  const rung = ladderName(value);
  return rung.key ? `${t(lang, rung.key)} (${rung.signed})` : rung.signed;
}

export function skillText(lang: Lang, key: SkillKey): string {
  return t(lang, `fate.skill.${key}`);
}

/** "`+ − 0 0` (1 2 3 3) = 0": the faces as Fate dice and the d3 numbers rolled. */
export function diceText(roll: FateDiceRoll): string {
  return `\`${roll.symbols.join(" ")}\` (${roll.rolled.join(" ")}) = ${signed(roll.total)}`;
}

/** Skill select options (18 ≤ Discord's 25), named in `lang`. */
export function skillOptions(lang: Lang): { label: string; value: string }[] {
  return SKILLS.map((s) => ({ label: s[lang], value: s.key }));
}

/** "☒☒☐" for a stress track. */
export function boxesText(boxes: readonly boolean[]): string {
  return boxes.length === 0 ? "—" : boxes.map((b) => (b ? "☒" : "☐")).join("");
}
