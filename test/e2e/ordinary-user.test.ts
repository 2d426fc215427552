import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DiscordDouble } from "../../src/double/index.js";
import { BotProcess } from "./harness.js";

/**
 * `npm start` as an ordinary user, as a self-hosting GM and the systemd unit run it: the embedded
 * PostgreSQL runs as that user, with everything under DATA_DIR, and no system user is needed. Run by
 * root (a developer's machine), the test hands the bot to `nobody`; run by anyone else, to itself.
 */
const asRoot = process.getuid?.() === 0;
const nobody = { uid: 65534, gid: 65534 };
const user = asRoot ? nobody : { uid: process.getuid!(), gid: process.getgid!() };

/** The uid a process runs as (the `Uid:` line of /proc/PID/status: real, effective, saved, fs). */
function uidOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("Uid:"));
  return Number(line?.split(/\s+/)[1]);
}

describe("e2e: npm start as an ordinary user", () => {
  let double: DiscordDouble;
  let root: string;
  let env: Record<string, string>;
  let bot: BotProcess;

  beforeAll(async () => {
    double = new DiscordDouble();
    const { apiBase, token } = await double.start();
    root = await mkdtemp(path.join(tmpdir(), "storybot-ordinary-"));
    // A directory of that user's own, as /opt/storybot is the storybot user's.
    if (asRoot) await chown(root, user.uid, user.gid);
    env = {
      DISCORD_TOKEN: token,
      DISCORD_API_BASE: apiBase,
      DATA_DIR: path.join(root, "data"),
      HTTP_PORT: "0",
      LOG_LEVEL: "info",
    };
    delete process.env.DATABASE_URL;
    execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
    bot = new BotProcess(env, { supervised: true, user });
    await bot.start();
    await double.waitForBot();
  });

  afterAll(async () => {
    await bot?.stop();
    await double?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it("starts on a fresh DATA_DIR, answers a command, and finds its data after a restart", async () => {
    const guildId = double.addGuild();
    const channelId = double.addChannel({ guildId });
    const gm = double.addUser({ locale: "en-US" });
    const setup = await double
      .slash(gm, channelId, "table", ["setup"], { system: "mountain-witch" })
      .settled();
    expect(setup.original?.text).toContain("Mountain Witch");
    await double.slash(gm, channelId, "character", ["create"], { name: "Akiko" }).settled();

    // The server runs as the bot's user and its files are that user's.
    const pgData = path.join(root, "data", "postgres");
    const postmaster = Number(readFileSync(path.join(pgData, "postmaster.pid"), "utf8").split("\n")[0]);
    expect(uidOf(postmaster)).toBe(user.uid);
    expect(statSync(pgData).uid).toBe(user.uid);

    await bot.stop();
    bot = new BotProcess(env, { supervised: true, user });
    await bot.start();
    await double.waitForBot();
    const afterRestart = await double.slash(gm, channelId, "character", ["list"]).settled();
    expect(afterRestart.original?.text).toContain("Akiko");
    const roll = await double.slash(gm, channelId, "roll", [], { expression: "2d6+1" }).response();
    expect(roll.message?.text).toMatch(/2d6 \[\d, \d\] \+ 1 = \*\*\d+\*\*/);
  });
});
