import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedDice } from "../../src/rules/dice.js";
import {
  BackupFileError,
  checkBackupFile,
  objectsCreatedBy,
  RestoreRefusedError,
  restoreBackup,
  writeBackup,
} from "../../src/store/backup.js";
import { holdBotPresence } from "../../src/store/bot-presence.js";
import { listMigrations, MIGRATIONS_DIR, migrate } from "../../src/store/migrate.js";
import { type AppHarness, createAppHarness } from "../support/app.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

const GM = { id: "430000000000000001", name: "Gail" };
const PLAYER = { id: "430000000000000002", name: "Pavel", locale: "ru" };
const RIVAL = { id: "430000000000000003", name: "Rita" };

const FATE = "330000000000000001";
const WITCH = "330000000000000002";
const HUNTERS = "330000000000000003";

type Query = TestDatabase["query"];

/** Every row of every table the bot's migrations create, as PostgreSQL's text of the row, and every sequence. */
async function contents(query: Query): Promise<Record<string, string[]>> {
  const tables = objectsCreatedBy(await listMigrations())
    .filter((o) => o.kind === "TABLE")
    .map((o) => o.name);
  const all: Record<string, string[]> = {};
  for (const table of tables) {
    const exists = await query<{ found: string | null }>("SELECT to_regclass($1)::text AS found", [
      `"${table}"`,
    ]);
    if (!exists[0]?.found) continue;
    all[table] = (await query<{ r: string }>(`SELECT x::text AS r FROM "${table}" x ORDER BY 1`)).map(
      (r) => r.r,
    );
  }
  all["(sequences)"] = (
    await query<{ r: string }>(
      "SELECT sequencename || '=' || coalesce(last_value::text, 'unused') AS r FROM pg_sequences ORDER BY 1",
    )
  ).map((r) => r.r);
  return all;
}

/** Everything in the database's schema gone, as on a database that was lost. */
async function wipe(query: Query) {
  await query("DROP SCHEMA public CASCADE");
  await query("CREATE SCHEMA public");
}

async function flowsInProgress(query: Query) {
  return query<{ system: string; kind: string }>(
    `SELECT g.system, f.kind FROM flow f JOIN game_table g ON g.id = f.table_id WHERE f.status = 'open' ORDER BY 1, 2`,
  );
}

/** Three tables, one of each game, each with a flow in progress, books, rolls and log entries. */
async function playTables(app: AppHarness) {
  // Fate: a sheet, an aspect, fate points, rolls (one secret), and a conflict in progress.
  await app.run(GM, { type: "table.setup", system: "fate" }, { channelId: FATE });
  await app.run(PLAYER, { type: "character.create", name: "Мира" }, { channelId: FATE });
  await app.run(PLAYER, { type: "character.skill", ranks: "fight 3, notice 2" }, { channelId: FATE });
  await app.run(GM, { type: "aspect.add", name: "Storm coming", invokes: 1 }, { channelId: FATE });
  await app.run(GM, { type: "fp.give", character: "Мира", amount: 2 }, { channelId: FATE });
  app.useDice(scriptedDice([1, 2, 3, 3, 6, 6]));
  await app.run(PLAYER, { type: "roll", expression: "4dF+1" }, { channelId: FATE });
  await app.run(PLAYER, { type: "roll", expression: "2d6", secret: true }, { channelId: FATE });
  await app.run(GM, { type: "conflict.start", title: "Harbour" }, { channelId: FATE });
  // The Mountain Witch: two ronin and a duel in progress (its dice a secret).
  await app.run(GM, { type: "table.setup", system: "mountain-witch" }, { channelId: WITCH });
  await app.run(PLAYER, { type: "character.create", name: "Akio", zodiac: "rat" }, { channelId: WITCH });
  await app.run(RIVAL, { type: "character.create", name: "Bo", zodiac: "dragon" }, { channelId: WITCH });
  const challenged = await app.run(PLAYER, { type: "duel.challenge", opponent: "Bo" }, { channelId: WITCH });
  app.useDice(scriptedDice([5, 2]));
  await app.run(
    RIVAL,
    { type: "duel.accept", flowId: challenged.result.replyIsPanelOf! },
    { channelId: WITCH },
  );
  // Beast Hunters: a hunter, the adventure's reserve and a challenge in progress.
  await app.run(GM, { type: "table.setup", system: "beast-hunters" }, { channelId: HUNTERS });
  await app.run(PLAYER, { type: "character.create", name: "Якхара" }, { channelId: HUNTERS });
  await app.run(
    PLAYER,
    {
      type: "character.trait.replace",
      traits: "Мама будет мной гордиться:Ф4 Проницательность:С3 Майхара_—_мой_враг:Ф2 Знания:М2",
    },
    { channelId: HUNTERS },
  );
  await app.run(
    PLAYER,
    { type: "character.initiative", physical: 3, social: 2, mental: 2 },
    { channelId: HUNTERS },
  );
  await app.run(
    PLAYER,
    { type: "character.boxes", physical: "3/3/1/1/1", social: "2/1/1/1/1", mental: "2/1/1/1/1" },
    { channelId: HUNTERS },
  );
  await app.run(PLAYER, { type: "reserve.set", total: 30, ceiling: 8 }, { channelId: HUNTERS });
  await app.run(
    GM,
    {
      type: "challenge.start",
      sphere: "physical",
      phase: 2,
      name: "Разбойники",
      traits: "Голодные и отчаянные:4 Окружаем:2",
      resources: "Кожаная броня:D2 Ржавые мечи:A2",
    },
    { channelId: HUNTERS },
  );
}

describe("whole-database backups (npm run backup / npm run restore)", () => {
  let app: AppHarness;
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "storybot-backup-"));
    app = await createAppHarness();
    await playTables(app);
    file = path.join(dir, "played.backup.gz");
    await writeBackup(app.database.url, file);
  });
  afterAll(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("round trip: every book, flow in progress and log entry of a table of each game is back, and play goes on", async () => {
    const query = app.database.query;
    expect((await flowsInProgress(query)).map((f) => f.system)).toEqual(
      expect.arrayContaining(["beast-hunters", "fate", "mountain-witch"]),
    );
    const before = await contents(query);
    expect(before.log_entry!.length).toBeGreaterThan(10);
    expect(before.character!.length).toBe(4);
    expect(before.dice_rolled!.length).toBeGreaterThan(0);
    const lastLogId = Number((await query<{ id: string }>("SELECT max(id) AS id FROM log_entry"))[0]!.id);

    await wipe(query);
    expect((await contents(query)).character).toBeUndefined();
    const summary = await restoreBackup(app.database.url, file);
    expect(summary).toMatchObject({ replaced: false, migratedAfter: [] });
    expect(summary.rows).toBe(
      Object.values(before).reduce((n, rows) => n + rows.length, 0) - before["(sequences)"]!.length,
    );
    expect(await contents(query)).toEqual(before);

    // The challenge in progress goes on where it stood, and new entries get new ids.
    await app.run(
      PLAYER,
      { type: "challenge.activate", trait: "Мама будет мной гордиться", as: "attack" },
      { channelId: HUNTERS },
    );
    app.useDice(scriptedDice([2, 2, 2, 2]));
    await app.run(PLAYER, { type: "roll", expression: "4dF" }, { channelId: FATE });
    const newIds = await query<{ id: string }>("SELECT id FROM log_entry WHERE id > $1", [lastLogId]);
    expect(newIds.length).toBeGreaterThan(0);
  });

  it("restores into a new, empty database (a new machine), with the migration record", async () => {
    const fresh = await createTestDatabase({ migrated: false });
    try {
      await restoreBackup(fresh.url, file);
      const { header } = await checkBackupFile(file);
      const applied = await fresh.query<{ migration_name: string }>(
        `SELECT migration_name FROM "_prisma_migrations" ORDER BY 1`,
      );
      expect(applied.map((r) => r.migration_name)).toEqual(header.migrations.map((m) => m.name));
      expect(await migrate(fresh.url)).toEqual([]);
      const restored = await contents(fresh.query);
      expect(restored.flow!.length).toBe(header.tables.find((t) => t.name === "flow")!.rows);
    } finally {
      await fresh.drop();
    }
  });

  describe("a damaged file is refused with a clear message and nothing changes", () => {
    const refusedUnchanged = async (damaged: string, message: RegExp) => {
      const before = await contents(app.database.query);
      const error = await restoreBackup(app.database.url, damaged, { force: true }).catch((e) => e);
      expect(error).toBeInstanceOf(BackupFileError);
      expect(error.message).toMatch(message);
      expect(error.message).toContain("Nothing was changed.");
      expect(await contents(app.database.query)).toEqual(before);
    };

    it("a truncated file", async () => {
      const bytes = await readFile(file);
      const cut = path.join(dir, "cut.backup.gz");
      await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      await refusedUnchanged(cut, /ends early \(the file is truncated\)/);
    });

    it("a file cut at a line, re-compressed (gzip intact)", async () => {
      const lines = gunzipSync(await readFile(file))
        .toString("utf8")
        .split("\n");
      const cut = path.join(dir, "cut-lines.backup.gz");
      await writeFile(cut, gzipSync(lines.slice(0, -5).join("\n")));
      await refusedUnchanged(cut, /truncated|do not match/);
    });

    it("a corrupted byte in the compressed data", async () => {
      const bytes = Buffer.from(await readFile(file));
      const at = Math.floor(bytes.length / 2);
      bytes[at] = bytes[at]! ^ 0xff;
      const corrupted = path.join(dir, "corrupted.backup.gz");
      await writeFile(corrupted, bytes);
      await refusedUnchanged(corrupted, /damaged|truncated/);
    });

    it("a row edited inside an intact gzip", async () => {
      const text = gunzipSync(await readFile(file)).toString("utf8");
      const edited = text.replace('"Akio"', '"Akir"');
      expect(edited).not.toBe(text);
      const changed = path.join(dir, "edited.backup.gz");
      await writeFile(changed, gzipSync(edited));
      await refusedUnchanged(changed, /checksum does not match/);
    });

    it("a file that is not a backup", async () => {
      const other = path.join(dir, "notes.txt");
      await writeFile(other, "hello");
      await refusedUnchanged(other, /damaged or not gzip/);
      await writeFile(other, gzipSync('{"hello":1}\n'));
      await refusedUnchanged(other, /not a story dice bot backup/);
    });
  });

  it("refuses while a bot holds the database, and over data without --force; nothing changes", async () => {
    const query = app.database.query;
    const before = await contents(query);
    const presence = await holdBotPresence(app.database.url);
    try {
      const running = await restoreBackup(app.database.url, file, { force: true }).catch((e) => e);
      expect(running).toBeInstanceOf(RestoreRefusedError);
      expect(running.message).toBe(
        "The bot is running on this database (1 process): stop it, then restore. Nothing was changed.",
      );
      expect(await contents(query)).toEqual(before);
    } finally {
      await presence.release();
    }
    const withoutForce = await restoreBackup(app.database.url, file).catch((e) => e);
    expect(withoutForce).toBeInstanceOf(RestoreRefusedError);
    expect(withoutForce.message).toMatch(/already holds data \(.*character.*\).*--force/);
    expect(await contents(query)).toEqual(before);
    // With the bot stopped and --force: the database is the backup's again.
    expect((await restoreBackup(app.database.url, file, { force: true })).replaced).toBe(true);
  });

  it("a bot that starts during a restore waits for it, then runs on the restored database", async () => {
    // The exclusive lock of a restore in progress, held by hand.
    const restore = new pg.Client({ connectionString: app.database.url });
    await restore.connect();
    await restore.query("BEGIN");
    await restore.query("SELECT pg_advisory_xact_lock(7241905114)");
    let taken = false;
    const starting = holdBotPresence(app.database.url).then((p) => {
      taken = true;
      return p;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(taken).toBe(false);
    await restore.query("COMMIT");
    await restore.end();
    await (await starting).release();
    expect(taken).toBe(true);
  });

  it("a backup from an older migration level restores, and the newer migrations apply after its rows", async () => {
    const migrations = await listMigrations();
    const cutAt = migrations.findIndex((m) => m.name.endsWith("_flow_state_version"));
    expect(cutAt).toBeGreaterThan(0);
    const olderDir = path.join(dir, "older-migrations");
    for (const m of migrations.slice(0, cutAt)) {
      await cp(path.join(MIGRATIONS_DIR, m.name), path.join(olderDir, m.name), { recursive: true });
    }
    const older = await createTestDatabase({ migrated: false });
    const target = await createTestDatabase({ migrated: false });
    try {
      await migrate(older.url, olderDir);
      // A table with a flow as the older bot stored it: no state_version column yet.
      await older.query(
        `INSERT INTO game_table (guild_id, channel_id, active_channel_id, system, gm_user_id) VALUES ('1', '2', '2', 'fate', '3')`,
      );
      await older.query(
        `INSERT INTO flow (table_id, kind, state, created_by_user_id) VALUES (1, 'fate.conflict', '{"round": 1}', '3')`,
      );
      const olderFile = path.join(dir, "older.backup.gz");
      await writeBackup(older.url, olderFile);
      const { header } = await checkBackupFile(olderFile);
      expect(header.migrations.map((m) => m.name)).toEqual(migrations.slice(0, cutAt).map((m) => m.name));

      const summary = await restoreBackup(target.url, olderFile);
      expect(summary.migratedAfter).toEqual(migrations.slice(cutAt).map((m) => m.name));
      const flows = await target.query<{ kind: string; state: unknown; state_version: number }>(
        "SELECT kind, state, state_version FROM flow",
      );
      expect(flows).toEqual([{ kind: "fate.conflict", state: { round: 1 }, state_version: 1 }]);
      expect(await migrate(target.url)).toEqual([]);
      // And its sequences were set past its rows: the next table is number 2.
      const next = await target.query<{ id: number }>(
        `INSERT INTO game_table (guild_id, channel_id, system, gm_user_id) VALUES ('1', '5', 'fate', '3') RETURNING id`,
      );
      expect(next[0]!.id).toBe(2);
      // The older version's backup of the newer database would miss the newer tables: refused.
      await expect(
        writeBackup(target.url, path.join(dir, "by-older.backup.gz"), { migrationsDir: olderDir }),
      ).rejects.toThrow(/has migration \S+_flow_state_version, from a newer version of the bot/);
    } finally {
      await older.drop();
      await target.drop();
    }
  });

  it("is one snapshot: what commits while it runs is wholly out of it, in every table", async () => {
    const busy = await createTestDatabase();
    try {
      await busy.query(
        `INSERT INTO game_table (guild_id, channel_id, system, gm_user_id) VALUES ('1', '0', 'fate', '3')`,
      );
      await busy.query(
        `INSERT INTO log_entry (table_id, actor_user_id, action, summary)
           SELECT 1, '3', 'roll', '{"key": "x"}' FROM generate_series(1, 40000)`,
      );
      // Meanwhile: a table and ten log entries for it, committed together, again and again.
      let done = false;
      let commits = 0;
      const writer = (async () => {
        while (!done) {
          await busy.query(
            `WITH t AS (INSERT INTO game_table (guild_id, channel_id, system, gm_user_id) VALUES ('1', '9', 'fate', '3') RETURNING id)
             INSERT INTO log_entry (table_id, actor_user_id, action, summary)
               SELECT t.id, '3', 'roll', '{"key": "y"}' FROM t, generate_series(1, 10)`,
          );
          commits++;
        }
      })();
      const during = path.join(dir, "during.backup.gz");
      await writeBackup(busy.url, during);
      done = true;
      await writer;
      expect(commits).toBeGreaterThan(0);
      const { header } = await checkBackupFile(during);
      const rows = (name: string) => header.tables.find((t) => t.name === name)!.rows;
      expect(rows("log_entry")).toBe(40000 + 10 * (rows("game_table") - 1));
    } finally {
      await busy.drop();
    }
  });

  it("a backup made by a newer bot is refused, naming what to do", async () => {
    const text = gunzipSync(await readFile(file)).toString("utf8");
    const newer = path.join(dir, "newer.backup.gz");
    await writeFile(newer, gzipSync(text.replace('"version":1,', '"version":2,')));
    const error = await checkBackupFile(newer).catch((e) => e);
    expect(error).toBeInstanceOf(BackupFileError);
    expect(error.message).toMatch(/newer version of the bot.*update the bot first/);
    expect((await readdir(dir)).some((name) => name.endsWith(".partial"))).toBe(false);
  });
});
