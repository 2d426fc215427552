import type { MessageKey } from "../../i18n/types.js";
/** The ladder of docs/rules/fate.md §3.1, top to bottom; names live in the catalogue under `fate.ladder.<key>`. */
export const LADDER = [
  { value: 8, key: "legendary" },
  { value: 7, key: "epic" },
  { value: 6, key: "fantastic" },
  { value: 5, key: "superb" },
  { value: 4, key: "great" },
  { value: 3, key: "good" },
  { value: 2, key: "fair" },
  { value: 1, key: "average" },
  { value: 0, key: "mediocre" },
  { value: -1, key: "poor" },
  { value: -2, key: "terrible" },
] as const;

export type LadderKey = (typeof LADDER)[number]["key"];

/** A value on (or beyond) the ladder: the catalogue key of its name, or null beyond ±, and the signed number. */
export interface LadderName {
  value: number;
  /** `fate.ladder.great` …; null above Legendary or below Terrible, where only the number is shown. */
  key: Extract<MessageKey, `fate.ladder.${string}`> | null;
  /** "+4", "0", "−3" (a true minus sign, as the rulebook prints it). */
  signed: string;
}

/** "+3", "0", "−2". */
export function signed(value: number): string {
  if (value > 0) return `+${value}`;
  if (value < 0) return `−${-value}`;
  return "0";
}

export function ladderName(value: number): LadderName {
  const rung = LADDER.find((r) => r.value === value);
  return { value, key: rung ? `fate.ladder.${rung.key}` : null, signed: signed(value) };
}
