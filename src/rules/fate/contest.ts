import { refuse } from "../errors.js";

/** One participant's overcome roll in an exchange; null result: forfeited (a failed advantage before the roll). */
export interface ContestRoll {
  characterId: string;
  result: number | null;
}

export interface ExchangeOutcome {
  winnerId: string | null;
  /** 0, 1, or 2 for a lone success with style. */
  victories: number;
  /** A tie for the highest result: no victory, and the GM adds a situational aspect. */
  twist: boolean;
  /** How far the winner beat the opposition, or null when nobody opposed them. */
  margin: number | null;
}

/**
 * Resolves one exchange of a contest (docs/rules/fate.md §3.4). The highest result wins a victory; a tie
 * for highest gives nobody a victory and a twist. Two victories for a success with style
 * (3+ shifts) that nobody else got. Against each other (no `passive`), a participant's shifts
 * are their result minus the best other result, so style means beating everyone by 3+. Against
 * a difficulty (`passive`), shifts are result − difficulty for each. [decision] Someone who
 * alone rolled (everyone else forfeited) wins one victory; style needs an opposition.
 */
export function contestExchange(
  rolls: readonly ContestRoll[],
  { passive }: { passive?: number } = {},
): ExchangeOutcome {
  const rolled = rolls.filter((r): r is { characterId: string; result: number } => r.result !== null);
  if (rolled.length === 0) return { winnerId: null, victories: 0, twist: false, margin: null };
  const sorted = [...rolled].sort((a, b) => b.result - a.result);
  const [top, second] = sorted as [ContestRoll & { result: number }, (ContestRoll & { result: number })?];
  if (second && second.result === top.result) return { winnerId: null, victories: 0, twist: true, margin: 0 };
  if (passive !== undefined) {
    const margin = top.result - passive;
    const othersStyle = sorted.slice(1).some((r) => r.result - passive >= 3);
    return {
      winnerId: top.characterId,
      victories: margin >= 3 && !othersStyle ? 2 : 1,
      twist: false,
      margin,
    };
  }
  if (!second) return { winnerId: top.characterId, victories: 1, twist: false, margin: null };
  const margin = top.result - second.result;
  return { winnerId: top.characterId, victories: margin >= 3 ? 2 : 1, twist: false, margin };
}

export const VICTORIES_TO_WIN = 3;

export interface FateContest {
  title: string;
  participants: string[];
  victories: Record<string, number>;
  exchanges: ExchangeOutcome[];
  winnerId: string | null;
  status: "open" | "ended";
}

export function startContest(title: string, participants: readonly string[]): FateContest {
  const unique = [...new Set(participants)];
  if (unique.length < 2) refuse("errors.fate.contestNeedsTwo");
  return {
    title: title.trim().slice(0, 100),
    participants: unique,
    victories: Object.fromEntries(unique.map((id) => [id, 0])),
    exchanges: [],
    winnerId: null,
    status: "open",
  };
}

/** Plays one exchange; the first to 3 victories wins the contest. Every participant's roll (or forfeit) is needed. */
export function recordExchange(
  contest: FateContest,
  rolls: readonly ContestRoll[],
  options: { passive?: number } = {},
): { contest: FateContest; exchange: ExchangeOutcome } {
  if (contest.status !== "open") refuse("errors.fate.contestEnded");
  for (const roll of rolls) {
    if (!contest.participants.includes(roll.characterId)) refuse("errors.fate.notInContest");
  }
  const missing = contest.participants.filter((id) => !rolls.some((r) => r.characterId === id));
  if (missing.length > 0 || rolls.length !== contest.participants.length) {
    refuse("errors.fate.contestRollsMissing", { count: missing.length });
  }
  const exchange = contestExchange(rolls, options);
  const victories = { ...contest.victories };
  if (exchange.winnerId)
    victories[exchange.winnerId] = (victories[exchange.winnerId] ?? 0) + exchange.victories;
  const won = exchange.winnerId !== null && (victories[exchange.winnerId] ?? 0) >= VICTORIES_TO_WIN;
  return {
    contest: {
      ...contest,
      victories,
      exchanges: [...contest.exchanges, exchange],
      winnerId: won ? exchange.winnerId : null,
      status: won ? "ended" : "open",
    },
    exchange,
  };
}
