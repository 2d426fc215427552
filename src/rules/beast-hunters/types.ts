/** Shared vocabulary of Beast Hunters (docs/rules/beast-hunters.md §2): spheres, damage stages, resource kinds. */

/** The three spheres of challenges (Ф / С / М). */
export const SPHERES = ["physical", "social", "mental"] as const;
export type Sphere = (typeof SPHERES)[number];

/** Damage stages in order, light to fatal (Л / С / Т / В / Ф). */
export const STAGES = ["light", "medium", "heavy", "knockout", "fatal"] as const;
export type Stage = (typeof STAGES)[number];

/** How many damage boxes (or filled boxes) a character has at each stage of one sphere. */
export type StageCounts = Record<Stage, number>;

/** A resource either adds to the damage you deal or takes away from the damage you suffer. */
export const RESOURCE_KINDS = ["attack", "defence"] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** A trait is activated for attack rolls or for defence rolls. */
export type TraitRole = ResourceKind;

/** The three negotiation phases (Plan, Discussion, Problems). */
export type Phase = 1 | 2 | 3;

/** The minimal, mandatory set of boxes: one per stage. */
export const MINIMAL_BOXES: StageCounts = { light: 1, medium: 1, heavy: 1, knockout: 1, fatal: 1 };

export const NO_DAMAGE: StageCounts = { light: 0, medium: 0, heavy: 0, knockout: 0, fatal: 0 };

export function stageCounts(
  light: number,
  medium: number,
  heavy: number,
  knockout: number,
  fatal: number,
): StageCounts {
  return { light, medium, heavy, knockout, fatal };
}

/** A trait of another sphere than the challenge's counts half, rounded up (docs/rules/beast-hunters.md §2.5). */
export function effectiveTraitValue(value: number, traitSphere: Sphere, challengeSphere: Sphere): number {
  return traitSphere === challengeSphere ? value : Math.ceil(value / 2);
}
