import { DiscordAPIError, type REST } from "discord.js";
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { Game } from "../../commands/index.js";
import {
  CommandRegistrar,
  commandSetDigest,
  guildCommandJson,
  type RegisteredCommandSets,
} from "../../src/discord/register.js";

/** A REST double for PUT: fails the first `failures` calls, records every body it accepted. */
function fakeRest(failures: number) {
  const calls: { route: string; names: string[] }[] = [];
  let left = failures;
  let inFlight = 0;
  let maxInFlight = 0;
  const rest = {
    async put(route: string, options: { body: { name: string }[] }) {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      if (left-- > 0) throw new Error("503 Service Unavailable");
      calls.push({ route, names: options.body.map((c) => c.name) });
      return [];
    },
  };
  return { rest: rest as unknown as REST, calls, maxInFlight: () => maxInFlight };
}

function capturedLog() {
  const lines: { level: number; msg: string }[] = [];
  const log = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { log, lines };
}

const eventually = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

function storedSets(initial: Record<string, string>, loadFails = false) {
  const stored = new Map(Object.entries(initial));
  const registered: RegisteredCommandSets = {
    load: async () => {
      if (loadFails) throw new Error("database unavailable");
      return new Map(stored);
    },
    save: async (guildId, digest) => {
      stored.set(guildId, digest);
    },
  };
  return { registered, stored };
}

describe("command registration", () => {
  it("puts a guild's commands: those of the games it has tables of, nothing of the others", async () => {
    const { rest, calls } = fakeRest(0);
    const registrar = new CommandRegistrar({
      rest,
      applicationId: "1",
      gamesOf: async () => ["fate"],
      log: capturedLog().log,
    });
    expect(await registrar.syncGuild("42")).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.route).toBe("/applications/1/guilds/42/commands");
    expect(calls[0]?.names).toEqual(expect.arrayContaining(["character", "conflict", "check", "aspect"]));
    for (const other of ["duel", "trust", "reserve", "challenge", "help", "table"])
      expect(calls[0]?.names).not.toContain(other);
  });

  it("logs a failure and retries with backoff until it goes through", async () => {
    const { rest, calls } = fakeRest(2);
    const { log, lines } = capturedLog();
    const registrar = new CommandRegistrar({
      rest,
      applicationId: "1",
      gamesOf: async () => ["beast-hunters"],
      log,
      retryDelaysMs: [5, 5, 5],
    });
    expect(await registrar.syncGuild("42")).toBe(false);
    await eventually(() => calls.length === 1);
    expect(calls[0]?.names).toEqual(expect.arrayContaining(["reserve", "challenge"]));
    expect(lines.filter((l) => l.msg.includes("retrying"))).toHaveLength(2);
    registrar.stop();
  });

  it("gives up after the last retry and says so", async () => {
    const { rest, calls } = fakeRest(10);
    const { log, lines } = capturedLog();
    const registrar = new CommandRegistrar({
      rest,
      applicationId: "1",
      gamesOf: async () => [],
      log,
      retryDelaysMs: [5],
    });
    await registrar.registerGlobal();
    await eventually(() => lines.some((l) => l.level === 50));
    expect(calls).toEqual([]);
  });

  it("never overlaps a guild's overwrites, and the last one carries the latest games", async () => {
    const { rest, calls, maxInFlight } = fakeRest(0);
    let games: Game[] = ["fate"];
    const registrar = new CommandRegistrar({
      rest,
      applicationId: "1",
      gamesOf: async () => games,
      log: capturedLog().log,
    });
    const first = registrar.syncGuild("42");
    games = ["fate", "mountain-witch"];
    const queued = [registrar.syncGuild("42"), registrar.syncGuild("42"), registrar.syncGuild("42")];
    await Promise.all([first, ...queued]);
    expect(maxInFlight()).toBe(1);
    expect(calls.length).toBeLessThanOrEqual(2);
    expect(calls.at(-1)?.names).toEqual(expect.arrayContaining(["check", "duel", "trust"]));
  });

  /** Stored sets in memory; `loadFails` makes reading them fail. */

  /** Application 9's registrar for guilds that all play Fate. */
  const fateRegistrar = (rest: REST, registered: RegisteredCommandSets, joinedAt?: () => number) =>
    new CommandRegistrar({
      rest,
      applicationId: "9",
      gamesOf: async () => ["fate"],
      registered,
      joinedAt,
      log: capturedLog().log,
    });

  it("at start-up, puts only the guilds whose set is not the one stored as registered, and stores what it put", async () => {
    const { rest, calls } = fakeRest(0);
    const fate = commandSetDigest(guildCommandJson(["fate"]));
    // 1: registered with Fate's set, still Fate; 2: registered before it got a Mountain Witch table;
    // 3: never registered.
    const { registered, stored } = storedSets({ "1": fate, "2": fate });
    const { log, lines } = capturedLog();
    const games: Record<string, Game[]> = {
      "1": ["fate"],
      "2": ["fate", "mountain-witch"],
      "3": ["beast-hunters"],
    };
    const registrar = new CommandRegistrar({
      rest,
      applicationId: "9",
      gamesOf: async (guildId) => games[guildId] ?? [],
      registered,
      log,
    });
    await registrar.syncGuilds(new Map(Object.entries(games)));
    expect(calls.map((c) => c.route).sort()).toEqual([
      "/applications/9/guilds/2/commands",
      "/applications/9/guilds/3/commands",
    ]);
    expect(stored.get("2")).toBe(commandSetDigest(guildCommandJson(["fate", "mountain-witch"])));
    expect(stored.get("3")).toBe(commandSetDigest(guildCommandJson(["beast-hunters"])));
    expect(lines.find((l) => l.msg === "guild commands checked at start-up")).toMatchObject({
      guilds: 3,
      toRegister: 2,
    });

    // The next start-up finds every set registered: nothing to put.
    const again = fakeRest(0);
    await new CommandRegistrar({
      rest: again.rest,
      applicationId: "9",
      gamesOf: async (guildId) => games[guildId] ?? [],
      registered,
      log,
    }).syncGuilds(new Map(Object.entries(games)));
    expect(again.calls).toEqual([]);
  });

  it("puts every guild's set at start-up when the stored sets cannot be read", async () => {
    const { rest, calls } = fakeRest(0);
    const fate = commandSetDigest(guildCommandJson(["fate"]));
    const { registered } = storedSets({ "1": fate }, true);
    await fateRegistrar(rest, registered).syncGuilds(new Map([["1", ["fate"]]]));
    expect(calls.map((c) => c.route)).toEqual(["/applications/9/guilds/1/commands"]);
  });

  it("a change of a guild's games always puts its set, even one stored as registered", async () => {
    const { rest, calls } = fakeRest(0);
    const { registered } = storedSets({ "1": commandSetDigest(guildCommandJson(["fate"])) });
    expect(await fateRegistrar(rest, registered).syncGuild("1")).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it("at start-up, puts a guild's unchanged set again when the bot joined that guild since it was stored", async () => {
    const { rest, calls } = fakeRest(0);
    const { registered, stored } = storedSets({ "1": commandSetDigest(guildCommandJson(["fate"]), 1000) });
    let joinedAt = 1000;
    const registrar = () => fateRegistrar(rest, registered, () => joinedAt);
    await registrar().syncGuilds(new Map([["1", ["fate"]]]));
    expect(calls).toEqual([]);
    joinedAt = 2000; // removed from the guild and invited again: Discord dropped its guild commands
    await registrar().syncGuilds(new Map([["1", ["fate"]]]));
    expect(calls.map((c) => c.route)).toEqual(["/applications/9/guilds/1/commands"]);
    expect(stored.get("1")).toBe(commandSetDigest(guildCommandJson(["fate"]), 2000));
  });
});

describe("a guild the bot is no longer in", () => {
  it("is not retried on 50001 Missing Access, and later start-ups skip it until the bot is back", async () => {
    const puts: string[] = [];
    const rest = {
      async put(route: string) {
        puts.push(route);
        if (route.includes("/guilds/7/")) {
          throw new DiscordAPIError({ message: "Missing Access", code: 50001 }, 50001, 403, "PUT", route, {});
        }
        return [];
      },
    } as unknown as REST;
    const { registered } = storedSets({});
    const { log, lines } = capturedLog();
    const games = new Map<string, Game[]>([
      ["7", ["fate"]],
      ["8", ["fate"]],
    ]);
    const joined = new Map<string, number>([["8", 1_000]]);
    const registrar = (at: Map<string, number>) =>
      new CommandRegistrar({
        rest,
        applicationId: "9",
        gamesOf: async (guildId) => games.get(guildId) ?? [],
        registered,
        log,
        retryDelaysMs: [5, 5],
        joinedAt: (guildId) => at.get(guildId),
      });
    await registrar(joined).syncGuilds(games);
    await new Promise((r) => setTimeout(r, 50));
    expect(puts.filter((r) => r.includes("/guilds/7/"))).toHaveLength(1);
    expect(lines.some((l) => l.msg === "command registration failed; retrying")).toBe(false);
    expect(lines.some((l) => l.msg.startsWith("not in this server any more"))).toBe(true);

    puts.length = 0;
    await registrar(joined).syncGuilds(games);
    expect(puts).toEqual([]);

    // Invited back: it has a join time now, and its commands are put again.
    await registrar(new Map([...joined, ["7", 2_000]])).syncGuilds(games);
    expect(puts).toEqual(["/applications/9/guilds/7/commands"]);
  });
});
