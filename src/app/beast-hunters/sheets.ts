import type { Character } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import {
  checkNewHunter,
  type HunterSheet,
  newHunterSheet,
  SPHERES,
  type Sphere,
  STAGES,
  type StageCounts,
} from "../../rules/beast-hunters/index.js";
import { saveCharacterSheet } from "../../store/characters.js";
import type { Tx } from "../../store/db.js";

/** A hunter's sheet from the character row; an empty or partial JSON gets the creation defaults. */
export function hunterSheet(character: Pick<Character, "sheet">): HunterSheet {
  const stored = (character.sheet ?? {}) as Partial<HunterSheet>;
  const blank = newHunterSheet();
  const perSphere = <T>(value: Partial<Record<Sphere, T>> | undefined, fallback: Record<Sphere, T>) =>
    Object.fromEntries(SPHERES.map((s) => [s, value?.[s] ?? fallback[s]])) as Record<Sphere, T>;
  return {
    traits: stored.traits ?? blank.traits,
    resources: stored.resources ?? blank.resources,
    tattoos: stored.tattoos ?? blank.tattoos,
    initiative: perSphere(stored.initiative, blank.initiative),
    boxes: perSphere(stored.boxes, blank.boxes),
    damage: perSphere(stored.damage, blank.damage),
    preActivated: stored.preActivated ?? blank.preActivated,
  };
}

export async function saveHunterSheet(tx: Tx, characterId: number, sheet: HunterSheet): Promise<void> {
  const saved = await saveCharacterSheet(tx, characterId, sheet);
  // As Prisma's update did: a missing row is a bug, not a silent no-op.
  if (!saved) throw new Error(`character ${characterId} not found`);
}

export const sphereShort = (lang: Lang, sphere: Sphere) => t(lang, `bh.sphere.short.${sphere}`);
export const categoryShort = (lang: Lang, sphere: Sphere, kind: "attack" | "defence") =>
  t(lang, `bh.category.short.${sphere}.${kind}`);

/** `Л▣▣□ С□□ Т□ В□ Ф□`: filled boxes first. */
export function boxesLine(lang: Lang, boxes: StageCounts, damage: StageCounts): string {
  return STAGES.map(
    (stage) =>
      `${t(lang, `bh.stage.short.${stage}`)}${"▣".repeat(damage[stage])}${"□".repeat(Math.max(0, boxes[stage] - damage[stage]))}`,
  ).join(" ");
}

/** Public sheet fields for `/character show` (nothing in a hunter's sheet is secret). */
export function hunterSheetFields(
  lang: Lang,
  character: Character,
): { name: string; value: string; inline?: boolean }[] {
  const sheet = hunterSheet(character);
  const traits = sheet.traits
    .map((tr) => {
      const pre = sheet.preActivated.some((n) => n.toLowerCase() === tr.name.toLowerCase())
        ? ` ${t(lang, "bh.sheet.preActivatedMark")}`
        : "";
      return `${sphereShort(lang, tr.sphere)}+${tr.value} ${tr.name}${pre}`;
    })
    .join("\n");
  const resources = sheet.resources
    .map((r) => `${categoryShort(lang, r.sphere, r.kind)}+${r.value} ${r.name}`)
    .join("\n");
  const tattoos = sheet.tattoos.map((text, i) => `${i + 1}. ${text}`).join("\n");
  const initiative = SPHERES.map((s) => `${sphereShort(lang, s)}${sheet.initiative[s]}`).join(" ");
  const boxes = SPHERES.map(
    (s) => `${t(lang, `bh.sphere.${s}`)}: ${boxesLine(lang, sheet.boxes[s], sheet.damage[s])}`,
  ).join("\n");
  return [
    { name: t(lang, "bh.sheet.initiative"), value: initiative, inline: true },
    { name: t(lang, "bh.sheet.vp"), value: String(character.victoryPoints), inline: true },
    { name: t(lang, "bh.sheet.traits"), value: traits || "—" },
    { name: t(lang, "bh.sheet.resources"), value: resources || "—" },
    { name: t(lang, "bh.sheet.tattoos"), value: tattoos || "—" },
    { name: t(lang, "bh.sheet.boxes"), value: boxes },
  ];
}

/** The creation check as one text block (warnings only: the GM may accept any sheet). */
export function creationCheckText(lang: Lang, sheet: HunterSheet): string {
  const warnings = checkNewHunter(sheet);
  if (warnings.length === 0) return t(lang, "bh.sheet.checkOk");
  return warnings.map((w) => `⚠️ ${t(lang, w.code, w.params)}`).join("\n");
}
