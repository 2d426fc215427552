import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LISTENER_APPLICATION_NAME } from "../../../src/app/table-cache.js";
import type { InteractionHandle } from "../../../src/double/index.js";
import { type E2E, startE2E } from "../harness.js";
import { type AskedChange, answerOf, checkFateBooks, getText, metricValue, sleep, waitUntil } from "./ops.js";

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
  let otherChannel: string;

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
  const listening = (logs = e2e.bot.logs()) =>
    logs.filter((l) => l.msg === "table cache listening for changes").length;
  const fatePoints = async () =>
    (await sql.query<{ fate_points: number }>("SELECT fate_points FROM character WHERE name = 'Ash'"))
      .rows[0]!.fate_points;
  const characterNamed = async (name: string) =>
    (
      await sql.query<{ id: number; fate_points: number }>(
        "SELECT id, fate_points FROM character WHERE name = $1",
        [name],
      )
    ).rows[0]!;

  /**
   * 20 interactions a second in `channel` until finished: rolls, and fate point gifts to `character`.
   * `finish` stops it after at least a second, waits for every one to be answered, none wrongly, and
   * gives the gifts for the books.
   */
  const startLoad = (channel: string, character: string) => {
    const rolls: InteractionHandle[] = [];
    const gifts: AskedChange[] = [];
    let n = 0;
    const ticker = setInterval(() => {
      n++;
      if (n % 2 === 1) {
        rolls.push(e2e.double.slash(gm, channel, "roll", [], { expression: "1d6" }));
        return;
      }
      const reason = `${character} ${n}`;
      const handle = e2e.double.slash(gm, channel, "fp", ["give"], { character, amount: 1, reason });
      gifts.push({ handle, reason });
    }, 50);
    return {
      cancel: () => clearInterval(ticker),
      async finish(): Promise<AskedChange[]> {
        // At least a second of it, however quickly the test got here.
        await waitUntil(() => n >= 20, 5000, "a second of load");
        clearInterval(ticker);
        const all = [...rolls, ...gifts.map((g) => g.handle)];
        await waitUntil(() => all.every((h) => answerOf(h) !== null), 10_000, "the load to be answered");
        for (const handle of rolls) expect(answerOf(handle)).toMatch(/1d6/);
        for (const handle of all) expect(answerOf(handle)).not.toMatch(/internal error|went wrong/i);
        expect(all.length).toBeGreaterThan(10);
        return gifts;
      },
    };
  };

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
    otherChannel = e2e.double.addChannel({ guildId: e2e.guildId, name: "other" });
    await e2e.double.slash(gm, otherChannel, "table", ["setup"], { system: "fate" }).settled();
    await e2e.double
      .slash(gm, otherChannel, "character", ["create"], { name: "Birch", kind: "npc" })
      .settled();
  });
  afterAll(async () => {
    await sql?.end().catch(() => {});
    await e2e?.stop();
  });

  it("the table cache's LISTEN connection killed alone: no answer from memory while it is down, a re-read after it reconnects, then memory again", async () => {
    const ash = await characterNamed("Ash");
    // A steady load on the same table in the meantime.
    const load = startLoad(e2e.channelId, "Ash");
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
      // The bot writes its log in batches: count its "listening" lines once they are all written.
      const connectedBefore = listening(await e2e.bot.writtenLogs());

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
    } catch (error) {
      load.cancel();
      throw error;
    }
    const gifts = await load.finish();
    expect(await checkFateBooks(e2e.database, ash.id, ash.fate_points, gifts)).toBeGreaterThan(5);
    expect(e2e.bot.alive()).toBe(true);
    expect(e2e.double.failedInteractions()).toEqual([]);
  });

  it("a pool connection killed in the middle of a transaction: that command is told 'temporarily unavailable' within 3 s, nothing of it is kept, and the next one works", async () => {
    const before = await fatePoints();
    const birch = await characterNamed("Birch");
    // A steady load on another table meanwhile, which the lock below does not hold up.
    const load = startLoad(otherChannel, "Birch");
    const brokenBefore = metricValue(
      await getText(`${base}/metrics`),
      "storybot_database_connection_errors_total",
    );
    const [table] = (
      await sql.query<{ id: number }>("SELECT id FROM game_table WHERE channel_id = $1", [e2e.channelId])
    ).rows;
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
            "SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid)) AND backend_xid IS NOT NULL",
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
    } catch (error) {
      load.cancel();
      throw error;
    } finally {
      await locker.query("ROLLBACK").catch(() => {});
      await locker.end();
    }
    // The other table's load went on, answered and booked exactly.
    const otherGifts = await load.finish();
    expect(await checkFateBooks(e2e.database, birch.id, birch.fate_points, otherGifts)).toBeGreaterThan(5);
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
    // No connection to this bot's database is left inside a half-done transaction (the cluster may
    // hold other tests' databases, whose transactions are theirs).
    expect(
      (
        await sql.query(
          "SELECT pid FROM pg_stat_activity WHERE state LIKE 'idle in transaction%' AND datname = current_database()",
        )
      ).rows,
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
