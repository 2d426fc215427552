import { spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiscordDouble } from "../../src/double/index.js";
import { checkBackupFile } from "../../src/store/backup.js";
import { BotProcess, type E2E, startE2E } from "./harness.js";

/** `npm run <script> -- args` with the bot's settings (DATABASE_URL or DATA_DIR), as a cron job or a GM runs it. */
function npmRun(
  script: string,
  args: string[],
  settings: { DATABASE_URL: string } | { DATA_DIR: string },
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script, "--", ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...settings },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("exit", (code) => resolve({ code, stderr }));
  });
}

describe("e2e: backing up a running bot (two shard processes) and restoring with it stopped", () => {
  let e2e: E2E;
  let dir: string;
  let gm: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "storybot-backup-e2e-"));
    e2e = await startE2E({ shardCount: 2, processes: [[0], [1]] });
    gm = e2e.double.addUser({ username: "gm", locale: "en-US" });
  });
  afterAll(async () => {
    await e2e?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("backs up while it runs, refuses a restore while any process runs, and restores once it is stopped", async () => {
    await e2e.slash(gm, "table", ["setup"], { system: "fate" }).settled();
    await e2e.slash(gm, "character", ["create"], { name: "Wren" }).settled();
    const file = path.join(dir, "live.backup.gz");
    const backup = await npmRun("backup", [file], { DATABASE_URL: e2e.database.url });
    expect(backup.stderr).toContain(`Backup written to ${file}`);
    expect(backup.code).toBe(0);
    expect((await checkBackupFile(file)).header.tables.find((t) => t.name === "character")?.rows).toBe(1);

    // A character made after the backup: the restore takes the database back to before it.
    await e2e.slash(gm, "character", ["create"], { name: "Later" }).settled();
    const refused = await npmRun("restore", [file, "--force"], { DATABASE_URL: e2e.database.url });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      "The bot is running on this database (2 processes): stop it, then restore. Nothing was changed.",
    );
    expect((await e2e.database.query("SELECT name FROM character ORDER BY name")).map((r) => r.name)).toEqual(
      ["Later", "Wren"],
    );

    await Promise.all(e2e.bots.map((bot) => bot.stop()));
    const restored = await npmRun("restore", [file, "--force"], { DATABASE_URL: e2e.database.url });
    expect(restored.stderr).toContain("replacing the data that was there");
    expect(restored.code).toBe(0);
    await Promise.all(e2e.bots.map((_, i) => e2e.restartProcess(i)));
    const shown = await e2e.slash(gm, "character", ["list"]).settled();
    expect(shown.original?.text).toContain("Wren");
    expect(shown.original?.text).not.toContain("Later");
  });
});

describe("e2e: the embedded default: daily backups on, npm run backup finds the running bot's server", () => {
  let double: DiscordDouble;
  let root: string;
  let dataDir: string;
  let bot: BotProcess;
  beforeAll(async () => {
    double = new DiscordDouble();
    const { apiBase, token } = await double.start();
    root = await mkdtemp(path.join(tmpdir(), "storybot-backup-embedded-"));
    await chmod(root, 0o711); // as root the server runs as `postgres`, which must pass through
    dataDir = path.join(root, "data");
    // An empty DATABASE_URL is no DATABASE_URL: the embedded default, whatever the test runner has.
    bot = new BotProcess({
      DISCORD_TOKEN: token,
      DISCORD_API_BASE: apiBase,
      DATABASE_URL: "",
      DATA_DIR: dataDir,
      HTTP_PORT: "0",
      LOG_LEVEL: "info",
    });
    await bot.start();
    await double.waitForBot();
  });
  afterAll(async () => {
    await bot?.stop();
    await double?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it("schedules the daily backups, reports none yet, backs up the running bot and refuses a restore under it", async () => {
    await bot.waitForLog((l) => l.msg === "daily backups on", 5000);
    const on = bot.logs().find((l) => l.msg === "daily backups on");
    expect(on).toMatchObject({ dir: path.join(dataDir, "backups"), keep: 7 });
    const metrics = await (await fetch(`http://127.0.0.1:${bot.httpPort()}/metrics`)).text();
    expect(metrics).toMatch(/^storybot_backup_last_success_timestamp_seconds 0$/m);

    const guildId = double.addGuild();
    const channelId = double.addChannel({ guildId });
    const gm = double.addUser({ locale: "en-US" });
    await double.slash(gm, channelId, "table", ["setup"], { system: "mountain-witch" }).settled();
    const file = path.join(root, "embedded.backup.gz");
    const backup = await npmRun("backup", [file], { DATA_DIR: dataDir });
    expect(backup.stderr).not.toContain("starting its database");
    expect(backup.code).toBe(0);
    expect((await checkBackupFile(file)).header.tables.find((t) => t.name === "game_table")?.rows).toBe(1);

    const refused = await npmRun("restore", [file, "--force"], { DATA_DIR: dataDir });
    expect(refused.stderr.trim()).toBe(
      "The bot is running on this database (1 process): stop it, then restore. Nothing was changed.",
    );
    expect(refused.code).toBe(1);

    await bot.stop();
    const restored = await npmRun("restore", [file, "--force"], { DATA_DIR: dataDir });
    expect(restored.stderr).toContain("The bot is not running: starting its database");
    expect(restored.code).toBe(0);
  });
});
