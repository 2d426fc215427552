import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InteractionHandle } from "../../../src/double/index.js";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../../../src/store/embedded-postgres.js";
import { type E2E, startE2E } from "../harness.js";
import {
  type AskedChange,
  answerOf,
  checkFateBooks,
  checkReserveBooks,
  POSTGRES_STOPS,
  sleep,
  stopCluster,
  waitUntil,
} from "./ops.js";

/**
 * PostgreSQL restarted ten times in a row under a steady load of commands: the bot process never
 * exits, every interaction is answered in time (the unavailable notice while the server is away),
 * the next command after each restart works, and the books (fate points, a Beast Hunters reserve)
 * are exact.
 */
describe("e2e reliability: database restarts under load", () => {
  let root: string;
  let postgres: EmbeddedDatabase;
  let e2e: E2E;
  let gm: string;
  const players: string[] = [];
  let initialFatePoints = 0;
  let ashId = 0;
  let huntChannel: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "storybot-restarts-"));
    await chmod(root, 0o711);
    postgres = await startEmbeddedPostgres({ dataDir: path.join(root, "db") });
    e2e = await startE2E({ databaseUrl: postgres.url });
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    for (let i = 0; i < 4; i++) players.push(e2e.double.addUser({ username: `p${i}`, locale: "en-US" }));
    await e2e.double.slash(gm, e2e.channelId, "table", ["setup"], { system: "fate" }).settled();
    await e2e.double
      .slash(gm, e2e.channelId, "character", ["create"], { name: "Ash", kind: "npc" })
      .settled();
    const [ash] = await e2e.database.query<{ id: number; fate_points: number }>(
      "SELECT id, fate_points FROM character WHERE name = 'Ash'",
    );
    initialFatePoints = ash!.fate_points;
    ashId = ash!.id;
    huntChannel = e2e.double.addChannel({ guildId: e2e.guildId, name: "hunt" });
    await e2e.double.slash(gm, huntChannel, "table", ["setup"], { system: "beast-hunters" }).settled();
    await e2e.double.waitFor(
      () => (e2e.double.registeredCommands(e2e.guildId).some((c) => c.name === "reserve") ? true : null),
      { timeoutMs: 10_000, what: () => "the Beast Hunters commands in the guild" },
    );
    await e2e.double.slash(gm, huntChannel, "reserve", ["set"], { total: 10_000, ceiling: 10 }).settled();
  });

  afterAll(async () => {
    await e2e?.stop();
    await postgres?.stop().catch(() => {});
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("survives ten restarts (fast, immediate, kill -9) with every interaction answered and the books exact", async () => {
    const gifts: AskedChange[] = [];
    const spends: AskedChange[] = [];
    const all: InteractionHandle[] = [];
    let n = 0;
    // 25 interactions a second: fate point gifts and reserve spends by the GM, rolls by the players.
    const load = setInterval(() => {
      n++;
      const reason = `change ${n}`;
      let handle: InteractionHandle;
      if (n % 4 === 0) {
        handle = e2e.double.slash(gm, e2e.channelId, "fp", ["give"], { character: "Ash", amount: 1, reason });
        gifts.push({ handle, reason });
      } else if (n % 4 === 2) {
        handle = e2e.double.slash(gm, huntChannel, "reserve", ["spend"], { amount: 2, reason });
        spends.push({ handle, reason });
      } else {
        handle = e2e.double.slash(players[n % players.length]!, e2e.channelId, "roll", [], {
          expression: "1d6",
        });
      }
      all.push(handle);
    }, 40);
    try {
      for (let i = 0; i < 10; i++) {
        const stop = POSTGRES_STOPS[i % POSTGRES_STOPS.length]!;
        await sleep(500);
        // Down for 2–5 s, counted from the moment every server process is gone.
        await stopCluster(postgres.dataDir, stop.signal);
        await sleep(2000 + (i % 4) * 1000);
        postgres = await startEmbeddedPostgres({ dataDir: postgres.dataDir, port: postgres.port });
        expect(e2e.bot.alive(), `after ${stop.mode} #${i + 1}`).toBe(true);
        // The next command after the restart works (the pool may first hand out a failing connection once).
        await waitUntil(
          async () => {
            const show = await e2e.double
              .slash(gm, e2e.channelId, "fp", ["show"], { character: "Ash" })
              .settled();
            return !(show.followups[0]?.text ?? show.original?.text ?? "").includes(
              "temporarily unavailable",
            );
          },
          15_000,
          `a command to work after ${stop.mode} #${i + 1}`,
          200,
        );
      }
    } finally {
      clearInterval(load);
    }
    await waitUntil(() => all.every((h) => answerOf(h) !== null), 15_000, "every interaction to be answered");
    expect(e2e.bot.alive()).toBe(true);
    expect(e2e.double.failedInteractions()).toEqual([]);
    for (const handle of all) expect(answerOf(handle)).not.toContain("internal error");
    expect(all.length).toBeGreaterThan(10 * 25 * 2);

    // The books: fate points and the reserve move by exactly what their logs say, each change logged
    // once, and every change the GM was told was done is there.
    expect(await checkFateBooks(e2e.database, ashId, initialFatePoints, gifts)).toBeGreaterThan(10);
    expect(await checkReserveBooks(e2e.database, huntChannel, spends)).toBeGreaterThan(10);
  }, 240_000);
});
