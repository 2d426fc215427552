import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buttonIds, type E2E, startE2E } from "../harness.js";
import { getText, metricValue, redeliver, waitUntil } from "./ops.js";

/**
 * The real bot process under Discord faults and races: redelivered interactions, simultaneous
 * commands, dropped gateway connections, 429/5xx answers, slow work, missing permissions; and
 * what operations see of it (health, metrics, logs).
 */

describe("e2e reliability: the bot under Discord faults and races", () => {
  let e2e: E2E;
  let gm: string;
  const players: string[] = [];
  let base: string;
  let tableId: number;

  const finished = (id: string) => () =>
    e2e.bot.logs().filter((l) => l.msg === "interaction" && l.interactionId === id);

  beforeAll(async () => {
    e2e = await startE2E();
    base = `http://127.0.0.1:${e2e.bot.httpPort()}`;
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    for (let i = 0; i < 6; i++) players.push(e2e.double.addUser({ username: `p${i}`, locale: "en-US" }));
    await e2e.double.slash(gm, e2e.channelId, "table", ["setup"], { system: "fate" }).settled();
    const [row] = await e2e.database.query<{ id: number }>("SELECT id FROM game_table");
    tableId = row!.id;
  });
  afterAll(async () => e2e?.stop());

  it("applies a redelivered interaction once, whether it comes again later or at the same moment", async () => {
    const create = e2e.double.slash(players[0]!, e2e.channelId, "character", ["create"], { name: "Echo" });
    await create.settled();
    redeliver(e2e.double, e2e.guildId, create.payload);
    await waitUntil(() => finished(create.id)().length === 2, 5000, "the redelivery to be handled");
    expect(finished(create.id)().map((l) => l.outcome)).toEqual(["ok", "duplicate"]);

    const twin = e2e.double.slash(players[1]!, e2e.channelId, "character", ["create"], { name: "Twin" });
    redeliver(e2e.double, e2e.guildId, twin.payload);
    await twin.settled();
    await waitUntil(() => finished(twin.id)().length === 2, 5000, "both deliveries to be handled");
    expect(
      finished(twin.id)()
        .map((l) => l.outcome)
        .sort(),
    ).toEqual(["duplicate", "ok"]);

    const rows = await e2e.database.query<{ name: string; n: number }>(
      "SELECT name, count(*)::int AS n FROM character WHERE name IN ('Echo', 'Twin') GROUP BY name ORDER BY name",
    );
    expect(rows).toEqual([
      { name: "Echo", n: 1 },
      { name: "Twin", n: 1 },
    ]);
    const logRows = await e2e.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM log_entry WHERE action = 'character.create'",
    );
    expect(logRows).toEqual([{ n: 2 }]);
    expect(e2e.double.interaction(create.id).followups).toEqual([]);
  });

  it("sets up one table when several GMs press /table setup at once in a new channel; the rest hear why", async () => {
    const channel = e2e.double.addChannel({ guildId: e2e.guildId, name: "race" });
    const handles = players.map((p, i) =>
      e2e.double.slash(p, channel, "table", ["setup"], {
        system: ["fate", "mountain-witch", "beast-hunters"][i % 3]!,
      }),
    );
    const answers = await Promise.all(handles.map((h) => h.settled()));
    const texts = answers.map((a) => (a.followups[0] ?? a.original)?.text ?? "");
    const won = answers.filter((a) => a.original && !a.original.ephemeral && !a.original.deleted);
    expect(won).toHaveLength(1);
    const refused = texts.filter((t) => t.includes("already has a"));
    expect(refused.length + won.length, texts.join("\n---\n")).toBe(players.length);
    expect(texts.some((t) => /went wrong/i.test(t))).toBe(false);
    const tables = await e2e.database.query("SELECT id FROM game_table WHERE channel_id = $1", [channel]);
    expect(tables).toHaveLength(1);
  });

  it("creates one character when many players click create with the same name at once", async () => {
    const handles = players.map((p) =>
      e2e.double.slash(p, e2e.channelId, "character", ["create"], { name: "Highlander" }),
    );
    const answers = await Promise.all(handles.map((h) => h.settled()));
    const texts = answers.map((a) => (a.followups[0] ?? a.original)?.text ?? "");
    expect(texts.filter((t) => t.includes("Created **Highlander**"))).toHaveLength(1);
    expect(texts.filter((t) => t.includes("already a character called **Highlander**"))).toHaveLength(
      players.length - 1,
    );
    const rows = await e2e.database.query("SELECT id FROM character WHERE name = 'Highlander'");
    expect(rows).toHaveLength(1);
  });

  it("resumes after the gateway connection drops, and answers an interaction sent right after the drop", async () => {
    for (const mode of ["destroy", "close", "reconnect"] as const) {
      expect(e2e.double.dropGateway({ mode })).toBe(1);
      const help = await e2e.double.slash(players[2]!, e2e.channelId, "help").response();
      expect(help.message?.text, mode).toContain("/help");
      expect(help.ms, mode).toBeLessThan(3000);
    }
    await waitUntil(
      async () => metricValue(await getText(`${base}/metrics`), "storybot_gateway_reconnects_total") >= 3,
      5000,
      "three gateway resumes counted",
    );
    expect(e2e.double.sessions().reduce((n, s) => n + s.resumes, 0)).toBeGreaterThanOrEqual(3);

    // Session invalidated: discord.js identifies anew (its identify throttle may take a few seconds).
    e2e.double.dropGateway({ mode: "invalidate" });
    await e2e.double.waitForBot({ timeoutMs: 15_000 });
    const after = await e2e.double.slash(players[2]!, e2e.channelId, "table", ["show"]).response();
    expect(after.message?.text).toContain("Fate");
  });

  it("answers through 429 and 5xx on the interaction callback (retried within the 3 s)", async () => {
    const callback = "POST /interactions/:interactionId/:token/callback";
    e2e.double.failNext(callback, { status: 429, retryAfterMs: 400 });
    const limited = await e2e.double.slash(players[3]!, e2e.channelId, "help").response();
    expect(limited.ms).toBeGreaterThanOrEqual(400);
    expect(limited.ms).toBeLessThan(3000);
    e2e.double.failNext(callback, { status: 500, times: 2 });
    const flaky = await e2e.double.slash(players[3]!, e2e.channelId, "help").response();
    expect(flaky.message?.text).toContain("/help");
    expect(e2e.double.requests().filter((r) => r.fault === "500")).toHaveLength(2);
    expect(e2e.bot.alive()).toBe(true);
  });

  it("defers a command stuck behind a busy table and completes it; a refusal after deferring stays private", async () => {
    const locker = new pg.Client({ connectionString: e2e.database.url });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT id FROM game_table WHERE id = $1 FOR UPDATE", [tableId]);
      const slow = e2e.double.slash(players[4]!, e2e.channelId, "character", ["create"], {
        name: "Patience",
      });
      const clash = e2e.double.slash(players[5]!, e2e.channelId, "character", ["create"], { name: "Echo" });
      const [first, second] = await Promise.all([slow.response(), clash.response()]);
      expect(first.deferred && second.deferred).toBe(true);
      expect(Math.max(first.ms, second.ms)).toBeLessThan(3000);
      await new Promise((r) => setTimeout(r, 600));
      await locker.query("COMMIT");
      const done = await slow.settled();
      expect(done.original?.text).toContain("Patience");
      expect(done.original?.ephemeral).toBe(false);
      const refused = await clash.followups(1);
      expect(refused[0]?.ephemeral).toBe(true);
      expect(refused[0]?.text).toContain("already a character called **Echo**");
      // The public "thinking…" message of the refused command is gone.
      expect(e2e.double.interaction(clash.id).original?.deleted).toBe(true);
    } finally {
      await locker.end();
    }
    expect(e2e.double.lateInteractions()).toEqual([]);
  });

  it("tells the GM when the bot may not post in the table's channel, and still does what was asked", async () => {
    const channel = e2e.double.addChannel({ guildId: e2e.guildId, name: "muted" });
    await e2e.double.slash(gm, channel, "table", ["setup"], { system: "beast-hunters" }).settled();
    const ask = await e2e.double.slash(gm, channel, "table", ["archive"]).response();
    const confirm = buttonIds(ask.message).find((id) => id.includes("table.archive-confirm"))!;
    e2e.double.setSendAllowed(channel, false);
    const click = e2e.double.click(gm, ask.message!, confirm);
    const [notice] = await click.followups(1);
    expect(notice?.ephemeral).toBe(true);
    expect(notice?.text).toContain("Send Messages");
    const rows = await e2e.database.query<{ status: string }>(
      "SELECT status FROM game_table WHERE channel_id = $1",
      [channel],
    );
    expect(rows).toEqual([{ status: "archived" }]);
    e2e.double.setSendAllowed(channel, true);
  });

  it("reports health, readiness and metrics that moved with what happened", async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ gateway: true, database: true, ready: true });
    const metrics = await getText(`${base}/metrics`);
    const count = (labels: Record<string, string>) =>
      metricValue(metrics, "storybot_interactions_total", labels);
    expect(count({ command: "character", outcome: "ok" })).toBeGreaterThanOrEqual(3);
    expect(count({ command: "character", outcome: "refused" })).toBeGreaterThanOrEqual(players.length);
    expect(count({ command: "character", outcome: "duplicate" })).toBe(2);
    expect(count({ command: "help", outcome: "ok" })).toBeGreaterThanOrEqual(5);
    expect(metricValue(metrics, "storybot_interaction_seconds_count", { command: "help" })).toBe(
      count({ command: "help" }),
    );
    // The slow ones landed in the upper buckets.
    expect(
      metricValue(metrics, "storybot_interaction_seconds_bucket", { command: "character", le: "0.5" }),
    ).toBeLessThan(metricValue(metrics, "storybot_interaction_seconds_count", { command: "character" }));
    expect(metricValue(metrics, "storybot_database_errors_total")).toBe(0);
  });

  it("writes its log lines in batches, not one write per interaction", async () => {
    const chunksBefore = e2e.bot.stdoutChunks;
    const linesBefore = (await e2e.bot.writtenOutput()).length;
    for (let i = 0; i < 30; i++)
      await e2e.double.slash(players[1]!, e2e.channelId, "roll", [], { expression: "1d6" }).settled();
    const lines = (await e2e.bot.writtenOutput()).length - linesBefore;
    expect(lines).toBeGreaterThanOrEqual(30);
    // 30 answers take well under a second: a handful of batches (LOG_FLUSH_MS apart), not 30 writes.
    expect(e2e.bot.stdoutChunks - chunksBefore).toBeLessThanOrEqual(lines / 3);
  });

  it("logs every interaction as structured JSON with id, command, guild, outcome and duration, and never the token", async () => {
    const logs = await e2e.bot.writtenLogs();
    const lines = logs.filter((l) => l.msg === "interaction");
    expect(lines.length).toBeGreaterThan(20);
    for (const line of lines) {
      expect(line).toMatchObject({
        interactionId: expect.stringMatching(/^\d+$/),
        command: expect.any(String),
        guildId: e2e.guildId,
        outcome: expect.stringMatching(/^(ok|refused|duplicate|unavailable|error|late|expired)$/),
        ms: expect.any(Number),
        level: expect.any(Number),
        time: expect.any(Number),
      });
    }
    const everything = e2e.bot.output.join("\n");
    expect(everything).not.toContain(e2e.double.token);
    // Nor any interaction token (they are credentials for 15 minutes).
    for (const interaction of e2e.double.interactions()) expect(everything).not.toContain(interaction.token);
    expect(logs.filter((l) => l.msg === "interaction failed")).toEqual([]);
  });
});
