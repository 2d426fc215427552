/**
 * Chapter transitions (docs/rules/mountain-witch.md §1.2, §1.3, §1.5): at a chapter start the trust values
 * take their adjusted values and points refill to them, "until chapter end" damage
 * ends, and incapacitated characters may try to recover (once per chapter, from the
 * chapter after they were taken out).
 */
import { refuse } from "../errors.js";
import type { CharacterStatus, DamageEntry } from "./damage.js";
import { expiresAtChapterEnd } from "./damage.js";
import type { TrustLink } from "./trust.js";
import { validateTrustAdjustment } from "./trust.js";
import type { TrustChange } from "./trust-round.js";

export interface RecoveryRecord {
  characterId: number;
  status: CharacterStatus;
  /** The chapter in which the character was taken out (incapacitated). */
  incapacitatedInChapter: number | null;
  /** The last chapter in which a recovery was attempted. */
  recoveryTriedInChapter: number | null;
}

/** Whether the character may attempt to recover in `chapter`; refuses with the reason otherwise. */
export function assertMayAttemptRecovery(record: RecoveryRecord, chapter: number): void {
  if (record.status !== "incapacitated") refuse("errors.mw.notIncapacitated");
  if (record.incapacitatedInChapter !== null && chapter <= record.incapacitatedInChapter)
    refuse("errors.mw.recoveryNotYet");
  if (record.recoveryTriedInChapter === chapter) refuse("errors.mw.recoveryAlreadyTried");
}

export function mayAttemptRecovery(record: RecoveryRecord, chapter: number): boolean {
  try {
    assertMayAttemptRecovery(record, chapter);
    return true;
  } catch {
    return false;
  }
}

export interface ChapterStart {
  chapter: number;
  /** New values (adjustments applied), with points refilled to them. */
  links: TrustLink[];
  /** Damage entries that ended with the last chapter. */
  expiredDamageIds: number[];
  /** Incapacitated characters who may attempt to recover this chapter. */
  mayRecover: number[];
}

/**
 * Starts `chapter`: applies the trust changes of the round (each validated again),
 * refills every link's points to its value, ends "until chapter end" damage, and
 * lists who may attempt recovery.
 */
export function applyChapterStart(input: {
  chapter: number;
  links: readonly TrustLink[];
  changes: readonly TrustChange[];
  damage: readonly DamageEntry[];
  characters: readonly RecoveryRecord[];
}): ChapterStart {
  const links = input.links.map((l) => {
    const change = input.changes.find((c) => c.giverId === l.giverId && c.holderId === l.holderId);
    const value = change ? validateTrustAdjustment(l.value, change.after) : l.value;
    return { ...l, value, points: value };
  });
  return {
    chapter: input.chapter,
    links,
    expiredDamageIds: input.damage.filter(expiresAtChapterEnd).map((e) => e.id),
    mayRecover: input.characters
      .filter((c) => mayAttemptRecovery(c, input.chapter))
      .map((c) => c.characterId),
  };
}

/**
 * The round's changes once revealed (docs/rules/mountain-witch.md §1.3). The points were refilled
 * when the chapter began («В начале каждой главы очки доверия пересчитываются»), so play may already
 * have spent some: a changed value moves the points by the same amount (never below 0), and what
 * was spent since the chapter began stays spent.
 */
export function applyTrustChanges(links: readonly TrustLink[], changes: readonly TrustChange[]): TrustLink[] {
  return links.map((l) => {
    const change = changes.find((c) => c.giverId === l.giverId && c.holderId === l.holderId);
    if (!change) return { ...l };
    const value = validateTrustAdjustment(l.value, change.after);
    return { ...l, value, points: Math.max(0, Math.min(value, l.points + value - l.value)) };
  });
}
