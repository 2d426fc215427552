import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DiscordDouble } from "../../src/double/index.js";
import { freePort } from "../../src/store/embedded-postgres.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { BotProcess } from "./harness.js";

/**
 * The first start of a new host: a setting Discord refuses is said in one line naming it, with exit
 * code 2 that `npm start`'s supervisor does not retry; a network that cannot reach Discord is waited
 * out; a clean shutdown says nothing about reconnecting.
 */
describe("e2e: first contact with Discord", () => {
  let database: TestDatabase;
  let double: DiscordDouble;
  let apiBase: string;
  let token: string;
  let bot: BotProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    double = new DiscordDouble();
    ({ apiBase, token } = await double.start());
  });
  afterEach(async () => {
    double.refuseIdentify(null);
    await bot?.stop();
    bot = undefined;
  });
  afterAll(async () => {
    await double?.stop();
    await database?.drop();
  });

  const envWith = (overrides: Record<string, string>) => ({
    DISCORD_TOKEN: token,
    DISCORD_API_BASE: apiBase,
    DATABASE_URL: database.url,
    HTTP_PORT: "0",
    ...overrides,
  });

  /** Runs the bot under npm start's supervisor until it exits; gives its code and its non-JSON lines. */
  async function runUntilExit(env: Record<string, string>) {
    bot = new BotProcess(env, { supervisedSources: true });
    bot.launch();
    const code = await bot.exited(30_000);
    const plain = bot.output.filter((line) => !line.startsWith("{"));
    const starts = bot.logs().filter((l) => l.msg === "bot process started").length;
    return { code, plain, starts };
  }

  it("a token Discord refuses (401): one line naming DISCORD_TOKEN, exit code 2, not restarted", async () => {
    const { code, plain, starts } = await runUntilExit(
      envWith({ DISCORD_TOKEN: "MTIz.wrong.token-that-discord-refuses" }),
    );
    expect(code).toBe(2);
    expect(plain).toHaveLength(1);
    expect(plain[0]).toContain("DISCORD_TOKEN");
    expect(plain[0]).toContain("401");
    expect(starts).toBe(1);
  });

  it("the OAuth2 client secret pasted as the token: named as such, exit code 2", async () => {
    const { code, plain } = await runUntilExit(
      envWith({ DISCORD_TOKEN: "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1v_" }),
    );
    expect(code).toBe(2);
    expect(plain).toEqual([expect.stringMatching(/DISCORD_TOKEN looks like the OAuth2 client secret/)]);
  });

  it("the gateway closing with 4004 (authentication failed): one line naming DISCORD_TOKEN, exit code 2", async () => {
    double.refuseIdentify(4004);
    const { code, plain, starts } = await runUntilExit(envWith({}));
    expect(code).toBe(2);
    expect(plain).toHaveLength(1);
    expect(plain[0]).toContain("DISCORD_TOKEN");
    expect(plain[0]).toContain("4004");
    expect(starts).toBe(1);
  });

  it("disallowed intents (4014): one line that says so, exit code 2", async () => {
    double.refuseIdentify(4014);
    const { code, plain } = await runUntilExit(envWith({}));
    expect(code).toBe(2);
    expect(plain).toEqual([expect.stringContaining("4014, disallowed intents")]);
  });

  it("a token revoked while the bot runs: the same line and exit code 2, after a clean stop", async () => {
    bot = new BotProcess(envWith({}), { supervisedSources: true });
    await bot.start();
    double.refuseIdentify(4004);
    double.dropGateway({ mode: "invalidate" });
    expect(await bot.exited(30_000)).toBe(2);
    expect(bot.output.filter((line) => !line.startsWith("{"))).toEqual([expect.stringContaining("4004")]);
    expect(bot.logs().some((l) => l.msg === "stopped")).toBe(true);
  });

  it("no network to Discord: a line per try, retried with backoff, never exits", {
    timeout: 90_000,
  }, async () => {
    const closedPort = await freePort();
    bot = new BotProcess(envWith({ DISCORD_API_BASE: `http://127.0.0.1:${closedPort}/api` }), {
      supervisedSources: true,
    });
    bot.launch();
    await bot.waitForLog((l) => l.msg === "cannot reach Discord; trying again" && l.attempt === 2, 60_000);
    const tries = bot.logs().filter((l) => l.msg === "cannot reach Discord; trying again");
    expect(tries.map((l) => l.retryInMs)).toEqual([1000, 2000]);
    expect(tries[0]?.cause).toBe("ECONNREFUSED");
    expect(bot.alive()).toBe(true);
    expect(bot.logs().filter((l) => l.msg === "bot process started")).toHaveLength(1);
  });

  it("a clean shutdown logs no gateway reconnect", async () => {
    bot = new BotProcess(envWith({}));
    await bot.start();
    expect(await bot.stop()).toBe(0);
    expect(bot.logs().some((l) => l.msg === "stopped")).toBe(true);
    expect(bot.logs().filter((l) => l.msg === "gateway reconnecting")).toEqual([]);
  });
});
