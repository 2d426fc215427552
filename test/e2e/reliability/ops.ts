import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { DiscordDouble, InteractionHandle } from "../../../src/double/index.js";
import type { TestDatabase } from "../../support/database.js";

/** Small helpers for the reliability suites: HTTP probes, Prometheus text, bounded polling. */

export async function getText(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.text();
}

/**
 * The value of one sample in Prometheus text format, summed over the samples whose labels
 * include `labels` (0 when there is none).
 */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{([^}]*)\})?\s+(\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries(
      [...(match[3] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) total += Number(match[4]);
  }
  return total;
}

/** Polls `probe` until it is true, failing after `timeoutMs` with `what` in the message. */
export async function waitUntil(
  probe: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await probe()) return;
    } catch {
      // not yet (e.g. connection refused)
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The cluster's processes (postmaster and its children), to freeze it as a hung server or a cut network would. */
export function clusterPids(dataDir: string): number[] {
  const postmaster = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  const children = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What the user was finally told (the followup after a deferral, or the reply); null while unanswered. */
export function answerOf(handle: InteractionHandle): string | null {
  const view = handle.view();
  if (view.ack === null || view.deferredPending) return null;
  return view.followups[0]?.text ?? view.original?.text ?? null;
}

/** The ways a PostgreSQL server goes away: its postmaster's signal for each. */
export const POSTGRES_STOPS = [
  { mode: "fast shutdown", signal: "SIGINT" },
  { mode: "immediate shutdown", signal: "SIGQUIT" },
  { mode: "kill -9 of the postmaster", signal: "SIGKILL" },
] as const;

/** Stops the cluster in `dataDir` with the postmaster signal `signal`; resolves once every server process is gone. */
export async function stopCluster(
  dataDir: string,
  signal: NodeJS.Signals,
  timeoutMs = 20_000,
): Promise<void> {
  const pids = clusterPids(dataDir);
  process.kill(pids[0]!, signal);
  await waitUntil(
    () => pids.every((pid) => !existsSync(`/proc/${pid}`)),
    timeoutMs,
    `PostgreSQL (${signal}) to stop`,
  );
}

/** Sends an INTERACTION_CREATE again, exactly as before: what a gateway replay or a second process sees. */
export function redeliver(double: DiscordDouble, guildId: string, payload: Record<string, unknown>): void {
  const gateway = (
    double as unknown as { gateway: { dispatchOne(g: string, t: string, d: unknown): unknown } }
  ).gateway;
  if (!gateway.dispatchOne(guildId, "INTERACTION_CREATE", payload))
    throw new Error("no session to redeliver to");
}

/** A change to the books a user asked for: its interaction, and the reason it is logged under. */
export interface AskedChange {
  handle: InteractionHandle;
  reason: string;
}

/** What the user was told was done: answered, and not with the unavailable notice. */
function toldDone(change: AskedChange): boolean {
  const answer = answerOf(change.handle);
  return answer !== null && !answer.includes("temporarily unavailable");
}

/**
 * The fate point books of one character: its fate points moved by exactly the gifts in its log,
 * each logged once, and every gift its giver was told was done is there. Returns how many are logged.
 */
export async function checkFateBooks(
  database: Pick<TestDatabase, "query">,
  characterId: number,
  initialFatePoints: number,
  asked: AskedChange[],
): Promise<number> {
  const [character] = await database.query<{ fate_points: number }>(
    "SELECT fate_points FROM character WHERE id = $1",
    [characterId],
  );
  const gifts = await database.query<{ reason: string; amount: number }>(
    "SELECT reason, (summary->'params'->>'amount')::int AS amount FROM log_entry WHERE action = 'fate.fp.give' AND character_id = $1",
    [characterId],
  );
  const reasons = new Set(gifts.map((g) => g.reason));
  expect(reasons.size, "each gift logged once").toBe(gifts.length);
  expect(character!.fate_points - initialFatePoints, "fate points = their log").toBe(
    gifts.reduce((sum, g) => sum + g.amount, 0),
  );
  for (const change of asked.filter(toldDone)) expect(reasons.has(change.reason), change.reason).toBe(true);
  return gifts.length;
}

/**
 * The reserve books of the table in `channelId`: what is spent is exactly the spends in its log,
 * each logged once and each starting where the last one ended, and every spend the GM was told
 * was done is there. Returns how many are logged.
 */
export async function checkReserveBooks(
  database: Pick<TestDatabase, "query">,
  channelId: string,
  asked: AskedChange[],
): Promise<number> {
  const [pool] = await database.query<{ spent: number }>(
    "SELECT r.spent FROM reserve_pool r JOIN game_table g ON g.id = r.table_id WHERE g.channel_id = $1",
    [channelId],
  );
  const spends = await database.query<{ reason: string; amount: number; before: number; after: number }>(
    "SELECT l.reason, (l.summary->'params'->>'amount')::int AS amount, (l.before->>'spent')::int AS before, (l.after->>'spent')::int AS after FROM log_entry l JOIN game_table g ON g.id = l.table_id WHERE l.action = 'reserve.spend' AND g.channel_id = $1 ORDER BY l.id",
    [channelId],
  );
  const reasons = new Set(spends.map((s) => s.reason));
  expect(reasons.size, "each spend logged once").toBe(spends.length);
  expect(pool!.spent, "reserve spent = its log").toBe(spends.reduce((sum, s) => sum + s.amount, 0));
  for (const [i, spend] of spends.entries()) {
    expect(spend.before).toBe(i === 0 ? 0 : spends[i - 1]!.after);
    expect(spend.after - spend.before).toBe(spend.amount);
  }
  for (const change of asked.filter(toldDone)) expect(reasons.has(change.reason), change.reason).toBe(true);
  return spends.length;
}
