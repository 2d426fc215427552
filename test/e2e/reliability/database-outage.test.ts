import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../../../src/store/embedded-postgres.js";
import { type E2E, startE2E } from "../harness.js";
import { clusterPids, getText, metricValue, waitUntil } from "./ops.js";

/**
 * PostgreSQL goes away under a running bot and comes back. This file runs its own PostgreSQL
 * cluster (the shared test cluster must stay up for everyone else).
 */
describe("e2e reliability: database outage", () => {
  let root: string;
  let postgres: EmbeddedDatabase;
  let e2e: E2E;
  let gm: string;
  let player: string;
  let base: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "storybot-outage-"));
    // The embedded server runs as the `postgres` user when we are root: it must reach its data dir.
    await chmod(root, 0o711);
    postgres = await startEmbeddedPostgres({ dataDir: path.join(root, "db") });
    e2e = await startE2E({ databaseUrl: postgres.url });
    base = `http://127.0.0.1:${e2e.bot.httpPort()}`;
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    player = e2e.double.addUser({ username: "pavel", locale: "ru" });
    await e2e.double.slash(gm, e2e.channelId, "table", ["setup"], { system: "fate" }).settled();
  });

  afterAll(async () => {
    await e2e?.stop();
    await postgres?.stop().catch(() => {});
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("is ready while the database is up", async () => {
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ gateway: true, database: true, ready: true });
  });

  it("answers 'temporarily unavailable, nothing was changed' within 3 s while PostgreSQL is down, and keeps running", async () => {
    await postgres.stop();

    // A mutating command (transaction) in English and a read in Russian.
    const create = await e2e.double
      .slash(gm, e2e.channelId, "character", ["create"], { name: "Ghost", kind: "npc" })
      .settled();
    const answer = create.followups[0] ?? create.original;
    expect(answer?.ephemeral).toBe(true);
    expect(answer?.text).toContain("temporarily unavailable");
    expect(answer?.text).toContain("Nothing was changed");
    const created = create.ack;
    expect(created?.ms).toBeLessThan(3000);
    const answeredAt = (answer?.createdAt ?? Number.POSITIVE_INFINITY) - create.dispatchedAt;
    expect(answeredAt).toBeLessThan(3000);

    const show = await e2e.double.slash(player, e2e.channelId, "table", ["show"]).settled();
    const shown = show.followups[0] ?? show.original;
    expect(shown?.ephemeral).toBe(true);
    expect(shown?.text).toContain("временно недоступна");
    expect((shown?.createdAt ?? Number.POSITIVE_INFINITY) - show.dispatchedAt).toBeLessThan(3000);

    // Buttons too (a component goes through the same path).
    expect(e2e.double.lateInteractions()).toEqual([]);
    expect(e2e.double.failedInteractions()).toEqual([]);
    expect(e2e.bot.alive()).toBe(true);
    await e2e.bot.waitForLog((l) => l.msg === "database unavailable");
  });

  it("reports the outage on /readyz (503, database:false) while /healthz stays up", async () => {
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ database: false, ready: false });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const metrics = await getText(`${base}/metrics`);
    expect(metricValue(metrics, "storybot_database_errors_total")).toBeGreaterThanOrEqual(2);
    expect(
      metricValue(metrics, "storybot_interactions_total", { command: "character", outcome: "unavailable" }),
    ).toBe(1);
  });

  it("recovers by itself when PostgreSQL is back: ready again and the next command works", async () => {
    postgres = await startEmbeddedPostgres({ dataDir: postgres.dataDir, port: postgres.port });
    await waitUntil(async () => (await fetch(`${base}/readyz`)).status === 200, 15_000, "/readyz to be 200");

    const create = await e2e.double
      .slash(gm, e2e.channelId, "character", ["create"], { name: "Ghost", kind: "npc" })
      .settled();
    expect(create.original?.text).toContain("Ghost");
    expect(create.original?.ephemeral).toBe(false);
    // The command refused during the outage left nothing behind: exactly one Ghost.
    expect(await e2e.database.query("SELECT name FROM character")).toEqual([{ name: "Ghost" }]);
    expect(e2e.bot.alive()).toBe(true);
    expect(e2e.double.lateInteractions()).toEqual([]);
  });

  it("answers 'unavailable' instead of hanging when PostgreSQL stops answering (a frozen server, a cut network), and recovers", async () => {
    const frozen = clusterPids(postgres.dataDir);
    for (const pid of frozen) process.kill(pid, "SIGSTOP");
    try {
      const create = e2e.double.slash(gm, e2e.channelId, "character", ["create"], {
        name: "Icicle",
        kind: "npc",
      });
      const first = await create.response();
      expect(first.deferred).toBe(true);
      expect(first.ms).toBeLessThan(3000);
      // The public "thinking…" is deleted and the refusal follows privately.
      const [answer] = await create.followups(1, { timeoutMs: 10_000 });
      expect(answer?.ephemeral).toBe(true);
      expect(answer?.text).toContain("temporarily unavailable");
      expect((answer?.createdAt ?? Number.POSITIVE_INFINITY) - create.view().dispatchedAt).toBeLessThan(7000);

      const started = Date.now();
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(e2e.bot.alive()).toBe(true);
    } finally {
      for (const pid of frozen) process.kill(pid, "SIGCONT");
    }
    await waitUntil(async () => (await fetch(`${base}/readyz`)).status === 200, 15_000, "/readyz to be 200");
    const again = await e2e.double
      .slash(gm, e2e.channelId, "character", ["create"], { name: "Icicle", kind: "npc" })
      .settled();
    expect(again.original?.text).toContain("Icicle");
    expect(await e2e.database.query("SELECT name FROM character WHERE name = 'Icicle'")).toEqual([
      { name: "Icicle" },
    ]);
    // No connection was left inside a half-done transaction.
    expect(
      await e2e.database.query("SELECT pid FROM pg_stat_activity WHERE state = 'idle in transaction'"),
    ).toEqual([]);
    expect(e2e.double.lateInteractions()).toEqual([]);
  });

  it("starts while PostgreSQL is not there yet: waits with backoff saying so, /healthz up, /readyz 503, /help answered at once, a command acknowledged and answered once it appears (or told 'unavailable' after 10 s)", async () => {
    await postgres.stop();
    const bot = await e2e.relaunchProcess(0);
    await bot.waitForLog((l) => l.msg === "waiting for the database", 15_000);
    const waiting = `http://127.0.0.1:${bot.httpPort()}`;
    expect((await fetch(`${waiting}/healthz`)).status).toBe(200);
    const ready = await fetch(`${waiting}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ database: false, ready: false });
    // It says what it waits for (host, port and database; never the password), and retries with backoff.
    await bot.waitForLog(
      () => bot.logs().filter((l) => l.msg === "waiting for the database").length >= 2,
      15_000,
    );
    const waits = bot.logs().filter((l) => l.msg === "waiting for the database");
    const url = new URL(postgres.url);
    expect(waits[0]?.database).toBe(
      `${url.searchParams.get("host") ?? url.hostname}:${url.port}${url.pathname}`,
    );
    expect(waits.slice(0, 2).map((l) => l.retryInMs)).toEqual([500, 1000]);
    expect((await bot.writtenOutput()).join("\n")).not.toContain(`${url.username}:${url.password}@`);
    expect(bot.alive()).toBe(true);

    // The gateway is up meanwhile. /help needs no database: answered at once, privately, in the user's language.
    await e2e.double.waitForBot({ timeoutMs: 15_000 });
    const help = await e2e.double.slash(player, e2e.channelId, "help", [], { topic: "dice" }).settled();
    expect(help.original?.ephemeral).toBe(true);
    expect(help.original?.text).toContain("4d6");
    expect(help.ack?.ms).toBeLessThan(3000);

    // A command is acknowledged in time and, with no database for 10 s, told so privately in the user's language.
    const early = await e2e.double
      .slash(player, e2e.channelId, "table", ["show"])
      .settled({ timeoutMs: 20_000 });
    expect(early.ack?.ms).toBeLessThan(3000);
    expect(early.original?.text).toContain("временно недоступна");

    // One sent just before PostgreSQL comes back is answered once it is there, not refused.
    const waitsSoFar = bot.logs().filter((l) => l.msg === "waiting for the database").length;
    await bot.waitForLog(
      () => bot.logs().filter((l) => l.msg === "waiting for the database").length > waitsSoFar,
      15_000,
    );
    const beforeReady = e2e.double.slash(gm, e2e.channelId, "table", ["show"]);
    postgres = await startEmbeddedPostgres({ dataDir: postgres.dataDir, port: postgres.port });
    const answeredOnceReady = await beforeReady.settled({ timeoutMs: 20_000 });
    expect(answeredOnceReady.ack?.ms).toBeLessThan(3000);
    expect(answeredOnceReady.original?.text).toContain("Fate");
    await bot.waitForLog((l) => l.msg === "ready", 30_000);
    expect((await fetch(`${waiting}/readyz`)).status).toBe(200);
    const show = await e2e.double.slash(gm, e2e.channelId, "table", ["show"]).settled();
    expect(show.original?.text).toContain("Fate");
    expect(e2e.double.lateInteractions()).toEqual([]);
  });
});
