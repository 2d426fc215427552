import { type AddressInfo, createServer } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TableCache } from "../../src/app/table-cache.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "410000000000000001", name: "Gail" };
const PLAYER = { id: "410000000000000002", name: "Pavel" };
const CHANNEL = "310000000000000001";

async function until(condition: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 300; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting until ${what}`);
}

/**
 * The channel → table cache (src/app/table-cache.ts) answers from memory, and forgets a channel as
 * soon as its row changes: by this process (before the answer) or anyone else (by NOTIFY).
 */
describe("the table cache", () => {
  let app: AppHarness;
  let sql: pg.Client;
  const show = async () => replyText(await app.run(PLAYER, { type: "table.show" }, { channelId: CHANNEL }));

  beforeAll(async () => {
    app = await createAppHarness();
    sql = new pg.Client({ connectionString: app.database.url });
    await sql.connect();
    await app.run(GM, { type: "table.setup", system: "fate" }, { channelId: CHANNEL });
  });
  afterAll(async () => {
    await sql.end();
    await app.close();
  });

  it("answers from memory: a change that tells nobody is not seen until the row changes visibly", async () => {
    // (A lookup that overlaps a notification does not store what it read: the setup's may still arrive.)
    await until(
      async () => (await show()).includes("Fate") && app.deps.tables!.size > 0,
      "the table is cached",
    );
    // Proof that lookups skip the database: a change made with the notification switched off.
    await sql.query("ALTER TABLE game_table DISABLE TRIGGER game_table_change");
    await sql.query("UPDATE game_table SET language = 'ru' WHERE channel_id = $1", [CHANNEL]);
    await sql.query("ALTER TABLE game_table ENABLE TRIGGER game_table_change");
    expect(await show()).not.toMatch(/[а-я]/);
    // Any change made with the trigger on (here by hand, as another process would) reaches every cache.
    await sql.query("UPDATE game_table SET language = 'ru' WHERE channel_id = $1", [CHANNEL]);
    await until(async () => /[а-я]/.test(await show()), "the table shows in Russian");
  });

  it("forgets this process's own change before the answer, with no wait for the notification", async () => {
    await app.run(GM, { type: "table.language", lang: "en" }, { channelId: CHANNEL });
    expect(await show()).not.toMatch(/[а-я]/);
    const table = await app.db.gameTable.findFirstOrThrow({ where: { activeChannelId: CHANNEL } });
    await app.run(GM, { type: "table.archive-confirm", tableId: table.id }, { channelId: CHANNEL });
    expect((await app.refused(PLAYER, { type: "table.show" }, { channelId: CHANNEL })).code).toBe(
      "errors.noTable",
    );
    await app.run(GM, { type: "table.setup", system: "mountain-witch" }, { channelId: CHANNEL });
    expect(await show()).toContain("Mountain Witch");
  });

  it("forgets a table a use case wrote through the table store before its answer, even with no notification at all", async () => {
    const channelId = "310000000000000002";
    const showHere = async () => replyText(await app.run(PLAYER, { type: "table.show" }, { channelId }));
    const chapterShown = async () => /Chapter\n(\d+)/.exec(await showHere())?.[1];
    await app.run(GM, { type: "table.setup", system: "mountain-witch" }, { channelId });
    await until(
      async () => (await chapterShown()) === "1" && app.deps.tables!.active,
      "the new table is shown",
    );
    // Only this process's own bookkeeping (src/store/tables.ts → tx.tablesWritten) can tell the cache now.
    await sql.query("ALTER TABLE game_table DISABLE TRIGGER game_table_change");
    try {
      for (let i = 0; i < 3; i++) await showHere();
      expect(await chapterShown()).toBe("1");
      // The first /chapter next begins play (the table's game state), the second moves to chapter 2.
      await app.run(GM, { type: "chapter.next" }, { channelId });
      await app.run(GM, { type: "chapter.next" }, { channelId });
      expect(await chapterShown()).toBe("2");
      await app.run(GM, { type: "table.language", lang: "ru" }, { channelId });
      expect(await showHere()).toMatch(/[а-я]/);
      // The cache answers from memory again after each forget: a change made behind its back is not seen.
      await sql.query("UPDATE game_table SET chapter = 7 WHERE active_channel_id = $1", [channelId]);
      expect(await showHere()).not.toMatch(/\n7\n/);
    } finally {
      await sql.query("ALTER TABLE game_table ENABLE TRIGGER game_table_change");
    }
  });

  it("steps aside while its listener is down (every lookup queries) and comes back by itself", async () => {
    const tables = app.deps.tables!;
    await sql.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN game_table_change' AND datname = current_database()",
    );
    await until(() => !tables.active, "the cache notices its listener is gone");
    expect(tables.size).toBe(0);
    // Without the listener nothing is cached: a silent change is seen at once.
    await sql.query("ALTER TABLE game_table DISABLE TRIGGER game_table_change");
    await sql.query("UPDATE game_table SET language = 'ru' WHERE channel_id = $1 AND status = 'active'", [
      CHANNEL,
    ]);
    await sql.query("ALTER TABLE game_table ENABLE TRIGGER game_table_change");
    expect(await show()).toMatch(/[а-я]/);
    await until(() => tables.active, "the listener reconnects");
    expect(await show()).toMatch(/[а-я]/);
  });

  it("gives up on a server that accepts no connection and tries again, with backoff, never answering from memory meanwhile", async () => {
    // A port that accepts connections and says nothing: a frozen server, or a network that drops packets.
    const attempts: number[] = [];
    const silent = createServer((socket) => {
      attempts.push(Date.now());
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const cache = new TableCache();
    const stop = cache.listen(
      `postgresql://u:p@127.0.0.1:${(silent.address() as AddressInfo).port}/none`,
      { info: () => {}, warn: () => {} },
      { connectTimeoutMs: 100 },
    );
    try {
      await until(() => attempts.length >= 3, "three connection attempts");
      expect(cache.active).toBe(false);
      // 100 ms to give up each time, then 500 ms, then 1 s before the next try.
      expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(550);
      expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(1050);
      let loads = 0;
      const load = async () => {
        loads++;
        return null;
      };
      await cache.get("somewhere", load);
      await cache.get("somewhere", load);
      expect(loads).toBe(2);
    } finally {
      await stop();
      silent.close();
    }
  });
});
