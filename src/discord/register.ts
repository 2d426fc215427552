import { createHash } from "node:crypto";
import {
  DiscordAPIError,
  InteractionContextType,
  type REST,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  Routes,
} from "discord.js";
import { commonCommands, GAMES, type Game, gameCommandModules } from "../../commands/index.js";
import { buildCommand } from "../../commands/spec.js";
import type { Logger } from "../log.js";

type CommandJson = RESTPostAPIChatInputApplicationCommandsJSONBody;

/**
 * Where each command is registered:
 * - the common commands (`/help`, `/table`, `/roll`) globally;
 * - each game's commands (and its `/character` sheet and `/conflict` subcommands) per guild, once
 *   the guild has a table of that game: a guild with only Fate tables never sees another game's;
 * - game commands used in the bot's DMs (`inDMs`, e.g. the secret trust round's `/trust set`)
 *   also globally, for the bot-DM context only: guild commands do not exist in DMs, and a
 *   BotDM-only global command never shows in a guild.
 */
export function globalCommandJson(): CommandJson[] {
  const dmOnly = gameCommandModules(GAMES)
    .filter((c) => c.spec.inDMs)
    .map((c) => ({ ...buildCommand(c.spec), contexts: [InteractionContextType.BotDM] }));
  return [...commonCommands.map((c) => buildCommand(c.spec)), ...dmOnly];
}

/** A guild's own commands: those of the games it has active tables of (`contexts` is for global commands only). */
export function guildCommandJson(
  games: Iterable<Game>,
  options: { withCommon?: boolean } = {},
): CommandJson[] {
  const modules = [...(options.withCommon ? commonCommands : []), ...gameCommandModules(games)];
  return modules.map((c) => {
    const { contexts: _, ...json } = buildCommand(c.spec);
    return json;
  });
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

/**
 * What a guild's registration is known by: a digest of the JSON Discord was sent and of when the
 * bot joined the guild (Discord drops an app's guild commands when it is removed; after it is
 * added again, the same set must be put again).
 */
export function commandSetDigest(list: readonly CommandJson[], joinedAt?: number): string {
  return registrationDigest(sha256(JSON.stringify(list)), joinedAt);
}

const registrationDigest = (setDigest: string, joinedAt: number | undefined) =>
  sha256(`${setDigest}:${joinedAt ?? "?"}`);

/**
 * The sets registered on Discord, by guild, as this application last put them (stored, so that a
 * restart does not put again what Discord already has).
 */
export interface RegisteredCommandSets {
  /** Every guild's digest (`commandSetDigest`) of the set last put. */
  load(): Promise<Map<string, string>>;
  /** `guildId` now has the set of `digest`. */
  save(guildId: string, digest: string): Promise<void>;
}

/** Discord's answer for a guild the bot is no longer in: 50001 Missing Access, or 10004 Unknown Guild. */
function isNotInGuild(error: unknown): boolean {
  return error instanceof DiscordAPIError && (error.code === 50001 || error.code === 10004);
}

/** Waits before each retry of a failed registration; after the last one it gives up until the next change or restart. */
const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000];

export interface CommandRegistrarOptions {
  rest: REST;
  applicationId: string;
  /** The games a guild has active tables of. */
  gamesOf: (guildId: string) => Promise<Game[]>;
  log: Logger;
  /** Development: the common commands go to this guild (they show at once) instead of globally. */
  devGuildId?: string;
  retryDelaysMs?: readonly number[];
  /** Without it, start-up puts every guild's set. */
  registered?: RegisteredCommandSets;
  /** When the bot joined the guild (ms), if it is in it. */
  joinedAt?: (guildId: string) => number | undefined;
}

/**
 * Bulk-overwrites commands on Discord: the global set, and each guild's set whenever the games
 * it has tables of change. Failures are logged and retried with backoff; a guild's overwrites
 * never overlap (a request made during one runs once more after it, with the latest games).
 */
export class CommandRegistrar {
  /** Per guild: the run not started yet (requests meanwhile share it), and the last run queued. */
  private readonly waiting = new Map<string, Promise<boolean>>();
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly delays: readonly number[];
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: CommandRegistrarOptions) {
    this.delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  }

  /** The global commands (or, with a development guild, that guild's whole set). Resolves after the first attempt. */
  registerGlobal(): Promise<boolean> {
    const { devGuildId } = this.options;
    if (devGuildId) return this.syncGuild(devGuildId);
    const body = globalCommandJson();
    return this.attempt("global", Routes.applicationCommands(this.options.applicationId), () => body);
  }

  /**
   * The guild's commands, from the games it has tables of now. Resolves (true when it worked)
   * after the first attempt; retries go on in the background.
   */
  syncGuild(guildId: string): Promise<boolean> {
    const waiting = this.waiting.get(guildId);
    if (waiting) return waiting;
    const route = Routes.applicationGuildCommands(this.options.applicationId, guildId);
    const run = (this.tails.get(guildId) ?? Promise.resolve()).then(() => {
      // From here on a new request waits for this run to end and reads the games again.
      this.waiting.delete(guildId);
      return this.attempt(
        `guild ${guildId}`,
        route,
        async () => this.guildJson(guildId, await this.options.gamesOf(guildId)),
        (list) => this.options.registered?.save(guildId, commandSetDigest(list, this.joinedAt(guildId))),
      );
    });
    this.waiting.set(guildId, run);
    const tail: Promise<unknown> = run.finally(() => {
      if (this.tails.get(guildId) === tail) this.tails.delete(guildId);
    });
    this.tails.set(guildId, tail);
    return run;
  }

  /**
   * Brings many guilds up to date (start-up), a few overwrites at a time. A guild whose set, from
   * the games it has tables of, is the one stored as registered is left as it is: Discord has it.
   */
  async syncGuilds(gamesByGuild: ReadonlyMap<string, readonly Game[]>, parallel = 4): Promise<void> {
    const registered = await this.options.registered?.load().catch((error: unknown) => {
      this.options.log.warn({ err: error }, "registered command sets not read: putting every guild's");
      return undefined;
    });
    const setDigests = new Map<string, string>(); // per set of games: guilds share a few sets
    const digestOf = (guildId: string, games: readonly Game[]) => {
      const key = `${guildId === this.options.devGuildId ? guildId : ""}:${games.join(",")}`;
      let setDigest = setDigests.get(key);
      if (setDigest === undefined) {
        setDigest = sha256(JSON.stringify(this.guildJson(guildId, games)));
        setDigests.set(key, setDigest);
      }
      return registrationDigest(setDigest, this.joinedAt(guildId));
    };
    const stale = [...gamesByGuild]
      .filter(([guildId, games]) => registered?.get(guildId) !== digestOf(guildId, games))
      .map(([guildId]) => guildId);
    this.options.log.info(
      { guilds: gamesByGuild.size, toRegister: stale.length },
      "guild commands checked at start-up",
    );
    let next = 0;
    const worker = async () => {
      while (next < stale.length && !this.stopped) await this.syncGuild(stale[next++] as string);
    };
    await Promise.all(Array.from({ length: parallel }, worker));
  }

  /** The bot was added to a guild while running: a guild with tables gets its games' commands again. */
  async guildJoined(guildId: string): Promise<void> {
    if ((await this.options.gamesOf(guildId)).length > 0) await this.syncGuild(guildId);
  }

  private joinedAt(guildId: string): number | undefined {
    return this.options.joinedAt?.(guildId);
  }

  private guildJson(guildId: string, games: readonly Game[]): CommandJson[] {
    return guildCommandJson(games, { withCommon: guildId === this.options.devGuildId });
  }

  /** Stops retrying (shutdown). */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** One PUT now; on failure, retries later with backoff (each retry reads the body afresh). */
  private async attempt(
    what: string,
    route: `/${string}`,
    body: () => CommandJson[] | Promise<CommandJson[]>,
    /** After Discord took the set. */
    registered?: (list: CommandJson[]) => Promise<void> | undefined,
    retry = 0,
  ): Promise<boolean> {
    if (this.stopped) return false;
    let list: CommandJson[] = [];
    try {
      list = await body();
      await this.options.rest.put(route, { body: list });
      this.options.log.info({ scope: what, count: list.length }, "commands registered");
      // Not stored: the next start-up puts it again.
      await registered?.(list)?.catch((error: unknown) =>
        this.options.log.warn({ err: error, scope: what }, "registered command set not stored"),
      );
      return true;
    } catch (error) {
      if (registered && isNotInGuild(error)) {
        // Removed from that server: retrying cannot help. Stored as put (with no join time), so
        // start-ups skip it until the bot is back, when its join time differs and GuildCreate puts it.
        this.options.log.info(
          { scope: what },
          "not in this server any more: its commands wait until the bot is back",
        );
        await registered(list)?.catch(() => {});
        return false;
      }
      const delay = this.delays[retry];
      if (delay === undefined) {
        this.options.log.error(
          { err: error, scope: what },
          "command registration failed; giving up until the next change or restart",
        );
        return false;
      }
      this.options.log.warn(
        { err: error, scope: what, retryInMs: delay },
        "command registration failed; retrying",
      );
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.attempt(what, route, body, registered, retry + 1);
      }, delay);
      timer.unref();
      this.timers.add(timer);
      return false;
    }
  }
}
