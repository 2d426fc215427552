import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LISTENER_APPLICATION_NAME } from "../../../src/app/table-cache.js";
import type { InteractionHandle } from "../double/index.js";
import { type E2E, startE2E } from "../harness.js";
import { answerOf, getText, metricValue, sleep, waitUntil } from "./ops.js";

const RUSSIAN = /[а-яё]/i;

/**
 * One PostgreSQL connection of the running bot killed on its own (`pg_terminate_backend`, what an
 * administrator or a failover does), while the rest of the database stays up: the table cache's
 * LISTEN connection, then a pool connection in the middle of a transaction. The bot keeps
 * answering, and answering correctly, throughout.
 */
describe("e2e reliability: one database connection killed under the running bot", () => {
  let e2e: E2E;
  let sql: pg.Client;
  let gm: string;
  let player: string;
  let base: string;

  const show = async () => {
    const view = await e2e.double.slash(player, e2e.channelId, "table", ["show"]).settled();
    return view.original?.text ?? "";
  };
  /** A change the table cache is never told about (its trigger off): only a lookup in the database sees it. */
  const silently = async (language: "en" | "ru") => {
    await sql.query("BEGIN");
    await sql.query("ALTER TABLE game_table DISABLE TRIGGER game_table_change");
    await sql.query("UPDATE game_table SET language = $1 WHERE channel_id = $2", [language, e2e.channelId]);
    await sql.query("ALTER TABLE game_table ENABLE TRIGGER game_table_change");
    await sql.query("COMMIT");
  };
  const listenerPids = async () =>
    (
      await sql.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
        [LISTENER_APPLICATION_NAME],
      )
    ).rows.map((r) => r.pid);
  const listening = () => e2e.bot.logs().filter((l) => l.msg === "table cache listening for changes").length;
  const fatePoints = async () =>
    (await sql.query<{ fate_points: number }>("SELECT fate_points FROM character WHERE name = 'Ash'"))
      .rows[0]!.fate_points;

  beforeAll(async () => {
    e2e = await startE2E();
    base = `http://127.0.0.1:${e2e.bot.httpPort()}`;
    sql = new pg.Client({ connectionString: e2e.database.url });
    await sql.connect();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    player = e2e.double.addUser({ username: "pavel", locale: "en-US" });
    await e2e.double.slash(gm, e2e.channelId, "table", ["setup"], { system: "fate" }).settled();
    await e2e.double
      .slash(gm, e2e.channelId, "character", ["create"], { name: "Ash", kind: "npc" })
      .settled();
  });
  afterAll(async () => {
    await sql?.end().catch(() => {});
    await e2e?.stop();
  });

  it("the table cache's LISTEN connection killed alone: no answer from memory while it is down, a re-read after it reconnects, then memory again", async () => {
    // A steady load in the meantime (10 a second): every one must be answered, none wrongly.
    const load: InteractionHandle[] = [];
    const ticker = setInterval(() => {
      load.push(e2e.double.slash(gm, e2e.channelId, "roll", [], { expression: "1d6" }));
    }, 100);
    try {
      // Before: the cache answers from memory (a change it was not told about is not seen).
      await waitUntil(
        async () => {
          await show();
          await silently("ru");
          const fromMemory = !RUSSIAN.test(await show());
          await silently("en");
          return fromMemory;
        },
        10_000,
        "the cache to answer the channel from memory",
        50,
      );
      expect(await listenerPids()).toHaveLength(1);
      const connectedBefore = listening();

      const [pid] = await listenerPids();
      await sql.query("SELECT pg_terminate_backend($1)", [pid]);
      await e2e.bot.waitForLog(
        (l) => l.msg === "table cache listener lost; looking tables up in the database",
      );
      // While it is down (or just back, which starts empty): a change it missed is seen at once.
      await silently("ru");
      expect(await show()).toMatch(RUSSIAN);

      // It comes back by itself, with a new connection, and what it answers is still the database's.
      await waitUntil(() => listening() > connectedBefore, 10_000, "the listener to reconnect");
      const [again] = await listenerPids();
      expect(again).toBeDefined();
      expect(again).not.toBe(pid);
      expect(await show()).toMatch(RUSSIAN);
      // A change made through the trigger reaches it again…
      await sql.query("UPDATE game_table SET language = 'en' WHERE channel_id = $1", [e2e.channelId]);
      await waitUntil(
        async () => !RUSSIAN.test(await show()),
        5000,
        "the table to show in English again",
        50,
      );
      // …and it answers from memory again.
      await waitUntil(
        async () => {
          await show();
          await silently("ru");
          const fromMemory = !RUSSIAN.test(await show());
          await silently("en");
          return fromMemory;
        },
        10_000,
        "the cache to answer from memory again",
        50,
      );
    } finally {
      clearInterval(ticker);
    }
    await waitUntil(() => load.every((h) => answerOf(h) !== null), 10_000, "every roll to be answered");
    for (const handle of load) expect(answerOf(handle)).toMatch(/1d6/);
    expect(load.length).toBeGreaterThan(5);
    expect(e2e.bot.alive()).toBe(true);
    expect(e2e.double.failedInteractions()).toEqual([]);
  });

  it("a pool connection killed in the middle of a transaction: that command is told 'temporarily unavailable' within 3 s, nothing of it is kept, and the next one works", async () => {
    const before = await fatePoints();
    const brokenBefore = metricValue(
      await getText(`${base}/metrics`),
      "storybot_database_connection_errors_total",
    );
    const [table] = (await sql.query<{ id: number }>("SELECT id FROM game_table")).rows;
    // Hold the table's lock so the bot's transaction is caught half-way (interaction recorded, table row asked for).
    const locker = new pg.Client({ connectionString: e2e.database.url });
    await locker.connect();
    let gift: InteractionHandle | undefined;
    try {
      await locker.query("BEGIN");
      await locker.query("SELECT id FROM game_table WHERE id = $1 FOR UPDATE", [table!.id]);
      gift = e2e.double.slash(gm, e2e.channelId, "fp", ["give"], {
        character: "Ash",
        amount: 2,
        reason: "cut",
      });
      const lockerPid = (await locker.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      let victim = 0;
      await waitUntil(
        async () => {
          const { rows } = await sql.query<{ pid: number }>(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND backend_xid IS NOT NULL AND pid <> $1",
            [lockerPid],
          );
          victim = rows[0]?.pid ?? 0;
          return victim > 0;
        },
        2000,
        "the bot's transaction to wait for the table",
        10,
      );
      await sql.query("SELECT pg_terminate_backend($1)", [victim]);
      const view = await gift.settled();
      const answer = view.followups[0] ?? view.original;
      expect(answer?.text).toContain("temporarily unavailable");
      expect(answer?.ephemeral).toBe(true);
      expect((answer?.createdAt ?? Number.POSITIVE_INFINITY) - view.dispatchedAt).toBeLessThan(3000);
    } finally {
      await locker.query("ROLLBACK").catch(() => {});
      await locker.end();
    }
    // Nothing of it was kept: not the fate points, not the log, not the interaction id.
    expect(await fatePoints()).toBe(before);
    expect(
      (await sql.query("SELECT id FROM log_entry WHERE action = 'fate.fp.give' AND reason = 'cut'")).rows,
    ).toEqual([]);
    expect((await sql.query("SELECT id FROM processed_interaction WHERE id = $1", [gift!.id])).rows).toEqual(
      [],
    );
    // The broken connection was counted and closed, not handed to the next command.
    await waitUntil(
      async () =>
        metricValue(await getText(`${base}/metrics`), "storybot_database_connection_errors_total") >
        brokenBefore,
      5000,
      "the broken connection to be counted",
    );
    expect(
      (await sql.query("SELECT pid FROM pg_stat_activity WHERE state LIKE 'idle in transaction%'")).rows,
    ).toEqual([]);
    // The GM tries again and it works, several times over (every pooled connection is a sound one).
    for (let i = 0; i < 4; i++) {
      const retry = await e2e.double
        .slash(gm, e2e.channelId, "fp", ["give"], { character: "Ash", amount: 1, reason: `again ${i}` })
        .settled();
      expect(retry.original?.text).toContain("Ash");
      expect(retry.original?.ephemeral).toBe(false);
    }
    await sleep(50);
    expect(await fatePoints()).toBe(before + 4);
    expect(e2e.bot.alive()).toBe(true);
    expect(e2e.double.lateInteractions()).toEqual([]);
  });
});
