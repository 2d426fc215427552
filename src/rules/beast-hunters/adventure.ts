/**
 * The adventure (docs/rules/beast-hunters.md §2.2, §2.5): who is still playing it, how it
 * ends, and what it paid. Plain JSON kept next to the table's reserve.
 *
 * Decisions where the seed is silent (several hunters, an adventure that ends):
 * - A hunter who takes fatal damage and survives has lost the adventure: out of its challenges,
 *   turn order, help and VP until the next adventure (renewal).
 * - A hunter who takes fatal damage to win wins the adventure for the whole party: it ends; the
 *   others still playing have won it too. Fatal physical damage: dead; social or mental: retired.
 * - An empty reserve ends the adventure (after the challenge it paid for); the hunters still
 *   playing have won it. The climax (the adventure's last challenge) ends it when it closes:
 *   won if the hunters won the climax, else lost.
 * - When no hunter is still playing (each has lost it or left the table), the adventure ends by
 *   itself, lost: nobody is left to play its challenges.
 */
import type { Sphere } from "./types.js";

export const STANDINGS = ["playing", "lost", "won", "retired", "dead"] as const;
export type Standing = (typeof STANDINGS)[number];

/** `nobodyPlaying`: every hunter who was playing has lost the adventure (or left the table). */
export type AdventureEnd = "sacrifice" | "reserve" | "climax" | "nobodyPlaying";

export interface Adventure {
  /** Character id → standing; a hunter not listed is playing. */
  hunters: Record<string, Standing>;
  /** Challenges played with dice, and negotiations the GM conceded. */
  challenges: number;
  concessions: number;
  /** Victory points each hunter earned in this adventure (challenges, tasks, concessions). */
  vp: Record<string, number>;
  /** `won`: whether the hunters still playing at the end won the adventure. */
  ended: { reason: AdventureEnd; won: boolean; at: string } | null;
}

export function newAdventure(): Adventure {
  return { hunters: {}, challenges: 0, concessions: 0, vp: {}, ended: null };
}

/** Reads the stored JSON; an empty or older object is an adventure just begun. */
export function asAdventure(json: unknown): Adventure {
  const raw = (json ?? {}) as Partial<Adventure>;
  return {
    hunters: { ...(raw.hunters ?? {}) },
    challenges: raw.challenges ?? 0,
    concessions: raw.concessions ?? 0,
    vp: { ...(raw.vp ?? {}) },
    ended: raw.ended ?? null,
  };
}

export function standingOf(adventure: Adventure, hunter: string): Standing {
  return adventure.hunters[hunter] ?? "playing";
}

/** Still in the adventure: may take part in its challenges, help and earn VP. */
export function stillPlaying(adventure: Adventure, hunter: string): boolean {
  return adventure.ended === null && standingOf(adventure, hunter) === "playing";
}

/**
 * Fatal damage (docs/rules/beast-hunters.md §2.5): "персонаж проигрывает приключение, но спасается живым" (survive)
 * or "выигрывает и испытание, и приключение, но навсегда изымается из игры" (retire).
 */
export function afterFatalChoice(
  adventure: Adventure,
  hunter: string,
  choice: "survive" | "retire",
  sphere: Sphere,
): Adventure {
  const next = asAdventure(adventure);
  if (choice === "survive") {
    next.hunters[hunter] = "lost";
    return next;
  }
  next.hunters[hunter] = sphere === "physical" ? "dead" : "retired";
  return endAdventure(next, "sacrifice", true);
}

/** Ends the adventure; hunters still playing have won it (or lost it: a lost climax). */
export function endAdventure(
  adventure: Adventure,
  reason: AdventureEnd,
  huntersWon: boolean,
  at = new Date(),
): Adventure {
  const next = asAdventure(adventure);
  if (next.ended) return next;
  next.ended = { reason, won: huntersWon, at: at.toISOString() };
  return next;
}

/**
 * Whether the adventure has run out of hunters: it has begun (something was spent, played or
 * lost) and none of `hunters` (the table's active hunters) is still playing it.
 */
export function nobodyPlaying(
  adventure: Adventure,
  hunters: readonly string[],
  reserveSpent: number,
): boolean {
  if (adventure.ended) return false;
  const begun =
    reserveSpent > 0 ||
    adventure.challenges + adventure.concessions > 0 ||
    Object.keys(adventure.hunters).length > 0;
  return begun && !hunters.some((id) => stillPlaying(adventure, id));
}

/** A hunter's standing, with those still playing at the end counted as won or lost. */
export function finalStanding(adventure: Adventure, hunter: string): Standing {
  const standing = standingOf(adventure, hunter);
  if (standing !== "playing" || !adventure.ended) return standing;
  return adventure.ended.won ? "won" : "lost";
}

export function addAdventureVp(adventure: Adventure, vp: Record<string, number>): Adventure {
  const next = asAdventure(adventure);
  for (const [id, points] of Object.entries(vp)) next.vp[id] = (next.vp[id] ?? 0) + points;
  return next;
}

/**
 * Victory points of a won challenge with several hunters ([decision], docs/rules/beast-hunters.md §2.4): the rating is
 * shared evenly by the hunters still standing; the remainder goes to the hunter who dealt the
 * defeating strike (or, without one, to the first standing hunter in turn order). Never more
 * than the rating in all.
 */
export function splitChallengeVp(
  rating: number,
  standing: readonly string[],
  striker: string | null,
): Record<string, number> {
  const vp: Record<string, number> = {};
  if (standing.length === 0 || rating <= 0) return vp;
  const share = Math.floor(rating / standing.length);
  const remainder = challengeVpRemainder(rating, standing, striker);
  for (const id of standing) vp[id] = share + (id === remainder?.to ? remainder.points : 0);
  return vp;
}

/**
 * Who gets the remainder of `splitChallengeVp`'s even split, and how many points it is: the
 * defeating striker if still standing, else the first standing hunter. Null when the rating
 * divides evenly (or nobody stands).
 */
export function challengeVpRemainder(
  rating: number,
  standing: readonly string[],
  striker: string | null,
): { to: string; points: number } | null {
  if (standing.length === 0 || rating <= 0) return null;
  const points = rating % standing.length;
  if (points === 0) return null;
  return { to: striker !== null && standing.includes(striker) ? striker : standing[0]!, points };
}
