import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createMetrics } from "../../src/metrics.js";
import { checkBackupFile } from "../../src/store/backup.js";
import {
  type BackupClock,
  dailyBackupName,
  dailyBackupsOf,
  nextBackupTime,
  startDailyBackups,
} from "../../src/store/daily-backup.js";
import { databaseUrlNamed } from "../../src/store/embedded-postgres.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

/** A clock the test moves by hand: it records the one timer the scheduler keeps. */
function fakeClock(start: Date) {
  let now = start;
  let pending: { run: () => void; ms: number } | null = null;
  const clock: BackupClock = {
    now: () => now,
    setTimeout(run, ms) {
      pending = { run, ms };
      return {};
    },
    clearTimeout() {
      pending = null;
    },
  };
  return {
    clock,
    async nextTimer(): Promise<{ run: () => void; ms: number }> {
      for (let i = 0; i < 500 && !pending; i++) await new Promise((r) => setTimeout(r, 10));
      if (!pending) throw new Error("no timer was set");
      return pending;
    },
    /** Moves the clock to the pending timer's time and runs it. */
    async fire(): Promise<void> {
      const timer = await this.nextTimer();
      pending = null;
      now = new Date(now.getTime() + timer.ms);
      timer.run();
    },
  };
}

function recordingLog() {
  const lines: { level: "info" | "error"; msg: string; obj: Record<string, unknown> }[] = [];
  return {
    lines,
    info: (obj: object, msg: string) =>
      lines.push({ level: "info", msg, obj: obj as Record<string, unknown> }),
    error: (obj: object, msg: string) =>
      lines.push({ level: "error", msg, obj: obj as Record<string, unknown> }),
    async waitFor(msg: string) {
      for (let i = 0; i < 1000 && !lines.some((l) => l.msg === msg); i++)
        await new Promise((r) => setTimeout(r, 10));
      return lines.find((l) => l.msg === msg);
    },
  };
}

describe("the daily backup of the embedded database", () => {
  let t: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    t = await createTestDatabase();
    await t.query(
      `INSERT INTO game_table (guild_id, channel_id, active_channel_id, system, gm_user_id) VALUES ('1', '2', '2', 'fate', '3')`,
    );
  });
  afterAll(async () => t.drop());

  it("is due at BACKUP_HOUR local time: later today, or tomorrow once the hour is past", () => {
    expect(nextBackupTime(new Date(2026, 11, 4, 1, 15), 4)).toEqual(new Date(2026, 11, 4, 4, 0));
    expect(nextBackupTime(new Date(2026, 11, 4, 10, 30), 4)).toEqual(new Date(2026, 11, 5, 4, 0));
    expect(nextBackupTime(new Date(2026, 11, 4, 4, 0), 4)).toEqual(new Date(2026, 11, 5, 4, 0));
    expect(nextBackupTime(new Date(2026, 11, 31, 23, 0), 0)).toEqual(new Date(2027, 0, 1, 0, 0));
  });

  it("keeps the newest 7: a real backup at its hour, the oldest removed, other files left alone", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "storybot-daily-"));
    try {
      // Nine earlier daily backups (the newest one an hour old: no catch-up), a half-written one, a GM's note.
      const old = Array.from({ length: 9 }, (_, i) =>
        dailyBackupName(new Date(Date.UTC(2026, 10, 20 + i, 4))),
      );
      for (const name of old) await writeFile(path.join(dir, name), "an older backup");
      const hourAgo = new Date(Date.now() - 3600_000);
      await utimes(path.join(dir, old.at(-1)!), hourAgo, hourAgo);
      await writeFile(
        path.join(dir, `${dailyBackupName(new Date(Date.UTC(2026, 10, 19, 4)))}.partial`),
        "cut",
      );
      await writeFile(path.join(dir, "notes.txt"), "mine");

      const start = new Date(2026, 11, 4, 10, 30);
      const fake = fakeClock(start);
      const log = recordingLog();
      const backups = startDailyBackups({
        databaseUrl: t.url,
        dir,
        keep: 7,
        hour: 4,
        log,
        clock: fake.clock,
      });
      try {
        expect((await fake.nextTimer()).ms).toBe(new Date(2026, 11, 5, 4, 0).getTime() - start.getTime());
        await fake.fire();
        const written = await log.waitFor("daily backup written");
        expect(written?.obj).toMatchObject({ rows: 1, removed: old.slice(0, 3) });
        const made = dailyBackupName(new Date(2026, 11, 5, 4, 0));
        expect((await readdir(dir)).sort()).toEqual([...old.slice(3), made, "notes.txt"].sort());
        expect((await checkBackupFile(path.join(dir, made))).rows).toBe(1);
        // And the next one is due a day later.
        expect((await fake.nextTimer()).ms).toBe(24 * 3600_000);
        // /metrics: the newest backup's time.
        const metrics = await createMetrics({ backupDir: dir }).registry.metrics();
        const seconds = Number(/^storybot_backup_last_success_timestamp_seconds (\d+)$/m.exec(metrics)?.[1]);
        expect(Math.abs(seconds - Date.now() / 1000)).toBeLessThan(60);
      } finally {
        backups.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a failed backup is logged as an error, keeps the earlier backups and the schedule, and throws nothing", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "storybot-daily-fail-"));
    try {
      const earlier = dailyBackupName(new Date(Date.UTC(2026, 10, 1, 4)));
      await writeFile(path.join(dir, earlier), "an older backup");
      const start = new Date(2026, 11, 4, 10, 30);
      const weeksAgo = new Date(start.getTime() - 30 * 24 * 3600_000);
      await utimes(path.join(dir, earlier), weeksAgo, weeksAgo);
      const fake = fakeClock(start);
      const log = recordingLog();
      const backups = startDailyBackups({
        databaseUrl: databaseUrlNamed(t.url, "no_such_database"),
        dir,
        keep: 1,
        hour: 4,
        log,
        clock: fake.clock,
        catchUpMs: 60_000,
      });
      try {
        // The newest backup is weeks old: one is taken soon after the start, not only at the hour.
        expect((await fake.nextTimer()).ms).toBe(60_000);
        await fake.fire();
        const failed = await log.waitFor("daily backup failed; the earlier backups are kept");
        expect(failed?.level).toBe("error");
        expect(String(failed?.obj.err)).toContain("no_such_database");
        expect(await readdir(dir)).toEqual([earlier]);
        expect((await fake.nextTimer()).ms).toBeGreaterThan(0);
        expect(await backups.runNow()).toBe(false);
      } finally {
        backups.stop();
      }
      const metrics = await createMetrics({ backupDir: path.join(dir, "none") }).registry.metrics();
      expect(metrics).toMatch(/^storybot_backup_last_success_timestamp_seconds 0$/m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("runs only for the embedded database, and BACKUP_KEEP=0 turns it off", () => {
    const log = recordingLog();
    const config = loadConfig({ DISCORD_TOKEN: "x", BACKUP_KEEP: "0" });
    expect(dailyBackupsOf(config, { url: t.url }, log)).toBeNull();
    expect(dailyBackupsOf(loadConfig({ DISCORD_TOKEN: "x" }), null, log)).toBeNull();
  });
});

describe("backup settings", () => {
  it("BACKUP_KEEP 7 and BACKUP_HOUR 4 by default; bad values are named", () => {
    expect(loadConfig({ DISCORD_TOKEN: "x" })).toMatchObject({ BACKUP_KEEP: 7, BACKUP_HOUR: 4 });
    expect(() => loadConfig({ DISCORD_TOKEN: "x", BACKUP_HOUR: "24" })).toThrow(/BACKUP_HOUR/);
    expect(() => loadConfig({ DISCORD_TOKEN: "x", BACKUP_KEEP: "-1" })).toThrow(/BACKUP_KEEP/);
    expect(loadConfig({ DISCORD_TOKEN: "x", TABLE_BACKUP_KEY: "AB".repeat(32) }).TABLE_BACKUP_KEY).toBe(
      "AB".repeat(32),
    );
  });

  it("a malformed TABLE_BACKUP_KEY stops the bot at start-up: one message naming it, exit code 2", async () => {
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
        env: {
          PATH: process.env.PATH ?? "",
          DISCORD_TOKEN: "not-a-real-token",
          DATABASE_URL: "postgresql://nobody:nothing@127.0.0.1:1/none",
          TABLE_BACKUP_KEY: "abc123",
        },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      child.on("exit", (code) => resolve({ code, stderr }));
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      "Invalid configuration:\n  - TABLE_BACKUP_KEY: must be 64 hex digits (e.g. from `openssl rand -hex 32`)",
    );
  });
});
