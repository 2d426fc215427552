import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiscordDouble } from "../../src/double/index.js";
import { BotProcess } from "./harness.js";

/**
 * `npm start` with no DATABASE_URL: the bot, built to JavaScript as `npm start` builds it, runs its
 * own embedded PostgreSQL with data under DATA_DIR, and what was created survives a graceful
 * restart and a kill -9.
 */
describe("e2e: the embedded database by default", () => {
  let double: DiscordDouble;
  let grandparent: string;
  let sharedParent: string;
  let dataDir: string;
  let env: Record<string, string>;
  let bot: BotProcess;

  beforeAll(async () => {
    double = new DiscordDouble();
    const { apiBase, token } = await double.start();
    // Like a host's /srv/shared (1777) inside a directory others may only pass through (0751):
    // the bot creates DATA_DIR itself and must leave both modes as they were.
    grandparent = await mkdtemp(path.join(tmpdir(), "storybot-embedded-"));
    await chmod(grandparent, 0o751);
    sharedParent = path.join(grandparent, "shared");
    await mkdir(sharedParent);
    await chmod(sharedParent, 0o1777);
    dataDir = path.join(sharedParent, "storybot");
    env = {
      DISCORD_TOKEN: token,
      DISCORD_API_BASE: apiBase,
      DATA_DIR: dataDir,
      HTTP_PORT: "0",
      WEB_PORT: "0",
      LOG_LEVEL: "info",
    };
    // The bot must not inherit a DATABASE_URL from the environment running the tests.
    delete process.env.DATABASE_URL;
    execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
    bot = new BotProcess(env, { built: true });
    await bot.start();
    await double.waitForBot();
  });

  afterAll(async () => {
    await bot?.stop();
    await double?.stop();
    await rm(grandparent, { recursive: true, force: true });
  });

  it("starts PostgreSQL under DATA_DIR and keeps tables and characters across restarts and a crash", async () => {
    expect(bot.logs().some((l) => l.msg === "embedded PostgreSQL started")).toBe(true);
    const guildId = double.addGuild();
    const channelId = double.addChannel({ guildId });
    const gm = double.addUser({ locale: "en-US" });
    await double.slash(gm, channelId, "table", ["setup"], { system: "fate" }).settled();
    await double.slash(gm, channelId, "character", ["create"], { name: "Lira" }).settled();

    await bot.waitForLog((l) => l.msg === "table cache listening for changes");
    await bot.stop();
    // Restarted with the table cache off (for PgBouncer in transaction mode): tables are looked up each time.
    bot = new BotProcess({ ...env, TABLE_CACHE: "false" }, { built: true });
    await bot.start();
    await double.waitForBot();
    const afterRestart = await double.slash(gm, channelId, "character", ["list"]).settled();
    expect(afterRestart.original?.text).toContain("Lira");
    expect((await bot.writtenLogs()).some((l) => l.msg === "table cache listening for changes")).toBe(false);

    // A crash leaves the embedded server running; the next start must take the data directory over.
    await bot.kill();
    bot = new BotProcess(env, { built: true });
    await bot.start();
    await double.waitForBot();
    const afterCrash = await double.slash(gm, channelId, "table", ["show"]).settled();
    expect(afterCrash.original?.text).toContain("Fate");
    expect(afterCrash.original?.text).toContain("Lira");

    // Directories the bot did not create keep their modes.
    expect(statSync(grandparent).mode & 0o7777).toBe(0o751);
    expect(statSync(sharedParent).mode & 0o7777).toBe(0o1777);
  });
});
