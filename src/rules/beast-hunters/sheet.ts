import type { MessageKey } from "../../i18n/types.js";
/** The hunter's sheet (docs/rules/beast-hunters.md §2.1): validation, creation checks, renewal between adventures. */
import { refuse } from "../errors.js";
import {
  MINIMAL_BOXES,
  NO_DAMAGE,
  type ResourceKind,
  SPHERES,
  type Sphere,
  STAGES,
  type StageCounts,
} from "./types.js";

export interface HunterTrait {
  name: string;
  sphere: Sphere;
  value: number;
}

export interface HunterResource {
  name: string;
  sphere: Sphere;
  kind: ResourceKind;
  value: number;
}

/**
 * The JSON stored as a hunter's `sheet`. Victory points are not here: they live in the
 * character's own `victoryPoints` counter so they can be changed atomically.
 */
export interface HunterSheet {
  traits: HunterTrait[];
  resources: HunterResource[];
  /** Always active; the bot shows them but does not apply them (their effects are free text). */
  tattoos: string[];
  initiative: Record<Sphere, number>;
  boxes: Record<Sphere, StageCounts>;
  /** Filled boxes: damage stays until renewal between adventures. */
  damage: Record<Sphere, StageCounts>;
  /** Traits pre-activated in negotiation during this adventure (each only once per adventure). */
  preActivated: string[];
}

function perSphere<T>(make: () => T): Record<Sphere, T> {
  return { physical: make(), social: make(), mental: make() };
}

/** A blank sheet as creation starts it: initiative 1 and one box per stage in every sphere. */
export function newHunterSheet(): HunterSheet {
  return {
    traits: [],
    resources: [],
    tattoos: [],
    initiative: perSphere(() => 1),
    boxes: perSphere(() => ({ ...MINIMAL_BOXES })),
    damage: perSphere(() => ({ ...NO_DAMAGE })),
    preActivated: [],
  };
}

/** At least one box per stage, and never more boxes at a stage than at the stage before it. */
export function validateBoxes(boxes: StageCounts): void {
  STAGES.forEach((stage, i) => {
    const count = boxes[stage];
    if (!Number.isInteger(count) || count < 1) refuse("errors.bh.boxesAtLeastOne", { stage, count });
    if (i > 0) {
      const previousStage = STAGES[i - 1]!;
      const previous = boxes[previousStage];
      if (count > previous) refuse("errors.bh.boxesIncrease", { stage, count, previousStage, previous });
    }
  });
}

function checkNames(names: string[]): void {
  const seen = new Set<string>();
  for (const name of names) {
    const key = name.trim().toLowerCase();
    if (!key) refuse("errors.bh.emptyName");
    if (seen.has(key)) refuse("errors.bh.duplicateName", { name });
    seen.add(key);
  }
}

/** Refuses a sheet the rules cannot work with (hunter values may be odd, unlike bought ones). */
export function validateSheet(sheet: HunterSheet): void {
  checkNames(sheet.traits.map((t) => t.name));
  checkNames(sheet.resources.map((r) => r.name));
  for (const item of [...sheet.traits, ...sheet.resources]) {
    if (!Number.isInteger(item.value) || item.value <= 0) {
      refuse("errors.bh.valueNotPositive", { name: item.name, value: item.value });
    }
  }
  for (const sphere of SPHERES) {
    const initiative = sheet.initiative[sphere];
    if (!Number.isInteger(initiative) || initiative < 0)
      refuse("errors.bh.badInitiative", { value: initiative });
    validateBoxes(sheet.boxes[sphere]);
    for (const stage of STAGES) {
      const filled = sheet.damage[sphere][stage];
      if (!Number.isInteger(filled) || filled < 0 || filled > sheet.boxes[sphere][stage]) {
        refuse("errors.bh.damageOverBoxes", { sphere, stage, filled, boxes: sheet.boxes[sphere][stage] });
      }
    }
  }
}

/** A creation-rule mismatch: shown to the table, never blocking (the GM may accept any sheet). */
export interface SheetWarning {
  /** Message key under `bh.warn.`. */
  code: Extract<MessageKey, `bh.warn.${string}`>;
  params: Record<string, string | number>;
}

/** Creation gives traits and resources valued +4 +3 +2 +2. */
export const CREATION_VALUES = [4, 3, 2, 2] as const;
/** Initiative 1 per sphere, +1 for each of the four creation steps. */
export const CREATION_INITIATIVE_TOTAL = 3 + 4;
/** Extra boxes from the four steps: parents L+M, tribe L, enemies L, training L+M. */
export const CREATION_EXTRA_BOXES: StageCounts = { light: 4, medium: 2, heavy: 0, knockout: 0, fatal: 0 };

function formatValues(values: number[]): string {
  return values.map((v) => `+${v}`).join(" ");
}

function checkValues(kind: "trait" | "resource", values: number[]): SheetWarning[] {
  const expected = [...CREATION_VALUES];
  if (values.length !== expected.length) {
    return [{ code: `bh.warn.${kind}Count`, params: { count: values.length, expected: expected.length } }];
  }
  const sorted = [...values].sort((a, b) => b - a);
  if (sorted.some((v, i) => v !== expected[i])) {
    return [
      {
        code: `bh.warn.${kind}Values`,
        params: { values: formatValues(sorted), expected: formatValues(expected) },
      },
    ];
  }
  return [];
}

/** Compares a new hunter with the creation steps; every difference is a warning. */
export function checkNewHunter(sheet: HunterSheet): SheetWarning[] {
  const warnings: SheetWarning[] = [
    ...checkValues(
      "trait",
      sheet.traits.map((t) => t.value),
    ),
    ...checkValues(
      "resource",
      sheet.resources.map((r) => r.value),
    ),
  ];

  const initiative = SPHERES.reduce((sum, sphere) => sum + sheet.initiative[sphere], 0);
  if (initiative !== CREATION_INITIATIVE_TOTAL) {
    warnings.push({
      code: "bh.warn.initiativeTotal",
      params: { total: initiative, expected: CREATION_INITIATIVE_TOTAL },
    });
  }
  for (const sphere of SPHERES) {
    if (sheet.initiative[sphere] < 1)
      warnings.push({ code: "bh.warn.initiativeBelowOne", params: { sphere } });
  }

  for (const stage of STAGES) {
    const total = SPHERES.reduce((sum, sphere) => sum + sheet.boxes[sphere][stage], 0);
    const expected = SPHERES.length * MINIMAL_BOXES[stage] + CREATION_EXTRA_BOXES[stage];
    if (total !== expected) warnings.push({ code: "bh.warn.boxTotal", params: { stage, total, expected } });
  }
  for (const sphere of SPHERES) {
    try {
      validateBoxes(sheet.boxes[sphere]);
    } catch {
      warnings.push({ code: "bh.warn.boxRule", params: { sphere } });
    }
  }

  if (sheet.tattoos.length > 0)
    warnings.push({ code: "bh.warn.tattoos", params: { count: sheet.tattoos.length } });
  const damaged = SPHERES.some((sphere) => STAGES.some((stage) => sheet.damage[sphere][stage] > 0));
  if (damaged) warnings.push({ code: "bh.warn.damage", params: {} });
  return warnings;
}

/** Between adventures: all damage boxes clear, pre-activations reset. */
export function renewal(sheet: HunterSheet): HunterSheet {
  return { ...sheet, damage: perSphere(() => ({ ...NO_DAMAGE })), preActivated: [] };
}

/** Records traits pre-activated in negotiation; each may be pre-activated once per adventure. */
export function markPreActivated(sheet: HunterSheet, traits: string[]): HunterSheet {
  const already = new Set(sheet.preActivated.map((n) => n.toLowerCase()));
  for (const trait of traits) {
    if (already.has(trait.toLowerCase())) refuse("errors.bh.alreadyPreActivated", { trait });
  }
  return { ...sheet, preActivated: [...sheet.preActivated, ...traits] };
}

/** The sheet with one sphere's filled boxes replaced (after a challenge). */
export function withDamage(sheet: HunterSheet, sphere: Sphere, damage: StageCounts): HunterSheet {
  return { ...sheet, damage: { ...sheet.damage, [sphere]: { ...damage } } };
}

export interface VictoryPointChange {
  before: number;
  after: number;
}

function checkVp(amount: number): void {
  if (!Number.isInteger(amount) || amount <= 0) refuse("errors.bh.badAmount", { amount });
}

export function addVictoryPoints(have: number, amount: number): VictoryPointChange {
  checkVp(amount);
  return { before: have, after: have + amount };
}

/** Spending VP is recorded with what it bought; the bot does not price improvements (docs/rules/beast-hunters.md §2.1). */
export function spendVictoryPoints(have: number, amount: number): VictoryPointChange {
  checkVp(amount);
  if (amount > have) refuse("errors.bh.notEnoughVp", { have, need: amount });
  return { before: have, after: have - amount };
}
