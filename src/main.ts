import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { Session } from "node:inspector";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { type Client, Events, type Interaction, ShardingManager } from "discord.js";
import { commands } from "../commands/index.js";
import { useTableBackupKey } from "./app/common/table-backup.js";
import type { AppDeps } from "./app/execute.js";
import { gamesByGuild, gamesOfGuild, registeredCommandSets } from "./app/guild-games.js";
import { autocompleteSources, createRegistry } from "./app/registry.js";
import { TableCache } from "./app/table-cache.js";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { createClient } from "./discord/client.js";
import {
  DiscordRefusedSettingError,
  isNetworkFailure,
  refusedAtLogin,
  refusedByGateway,
  tokenShapeProblem,
} from "./discord/first-contact.js";
import { CommandRegistrar } from "./discord/register.js";
import {
  acknowledgeWhileStarting,
  answerHelpWhileStarting,
  answerUnavailable,
  createRouter,
} from "./discord/router.js";
import { startHttpServer } from "./http.js";
import { createLogger, LogFormatUnavailableError, type Logger } from "./log.js";
import { createMetrics } from "./metrics.js";
import { handleProcessErrors } from "./process-errors.js";
import { cryptoDice } from "./rules/dice.js";
import { holdBotPresence } from "./store/bot-presence.js";
import { backupDirOf, dailyBackupsOf } from "./store/daily-backup.js";
import { closeDb, createDb, type Db, inTransaction, isDatabaseUnavailable, sqlFor } from "./store/db.js";
import {
  type EmbeddedDatabase,
  EmbeddedPostgresAccessError,
  EmbeddedPostgresMissingError,
  startEmbeddedPostgres,
} from "./store/embedded-postgres.js";
import { migrate } from "./store/migrate.js";
import { startPruning } from "./store/prune.js";
import { activeTable } from "./store/tables.js";
import { configureLinks, servePage, type WebServer } from "./web/index.js";

function readConfig(): Config {
  // A .env file next to the bot is the documented way to configure it (see .env.example).
  if (existsSync(".env")) process.loadEnvFile(".env");
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/** Where the database is, for logs: host (or socket directory), port and database name, never the password. */
function databaseName(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.searchParams.get("host") ?? url.hostname}:${url.port || 5432}${url.pathname}`;
  } catch {
    return "DATABASE_URL";
  }
}

/**
 * Runs `attempt` until PostgreSQL answers: a server that is not there yet (starting, restarting, the
 * network not up) is waited for with backoff, saying what is waited for; any other failure (a wrong
 * password, a failing migration) is thrown at once.
 */
/** The longest wait between tries: short enough that an interaction waiting for start-up is answered. */
const MAX_DATABASE_RETRY_MS = 4000;
/** Aborted by a shutdown: start-up stops waiting for the database, so SIGTERM ends the process at once. */
const startupAbort = new AbortController();
async function waitForDatabase<T>(databaseUrl: string, log: Logger, attempt: () => Promise<T>): Promise<T> {
  let delayMs = 500;
  for (let tries = 1; ; tries++) {
    try {
      const result = await attempt();
      return result;
    } catch (error) {
      if (!isDatabaseUnavailable(error) || startupAbort.signal.aborted) throw error;
      log.warn(
        { err: error, database: databaseName(databaseUrl), attempt: tries, retryInMs: delayMs },
        "waiting for the database",
      );
      await delay(delayMs, undefined, { signal: startupAbort.signal }).catch(() => {
        throw error;
      });
      delayMs = Math.min(delayMs * 2, MAX_DATABASE_RETRY_MS);
    }
  }
}

/** PostgreSQL: DATABASE_URL, or the embedded server under DATA_DIR; migrated either way. */
async function openDatabase(config: Config, log: Logger) {
  let embedded: EmbeddedDatabase | null = null;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(config.DATA_DIR, "postgres"),
      onLog: (line) => log.debug({ postgres: line.trim() }, "embedded postgres"),
    });
    databaseUrl = embedded.url;
    log.info({ dataDir: embedded.dataDir, port: embedded.port }, "embedded PostgreSQL started");
  }
  const url = databaseUrl;
  try {
    const applied = await waitForDatabase(url, log, () => migrate(url));
    if (applied.length > 0) log.info({ applied }, "migrations applied");
  } catch (error) {
    if (embedded) await embedded.stop().catch(() => {});
    throw error;
  }
  return { embedded, databaseUrl };
}

/**
 * One full, memory-reducing garbage collection once start-up is over: parsing thousands of
 * GUILD_CREATE payloads leaves tens of MB that V8 would otherwise keep in RSS until it needs room
 * (measured: about 40 MB with 5,000 guilds). The in-process inspector is the API that shrinks the heap.
 */
async function collectStartupGarbage(): Promise<void> {
  const session = new Session();
  session.connect();
  try {
    await new Promise<void>((resolve) => session.post("HeapProfiler.collectGarbage", () => resolve()));
  } finally {
    session.disconnect();
  }
}

/** The shard ids this process's client serves (set by SHARD_IDS, or by the sharding manager). */
function shardIdsOf(client: Client): number[] {
  const shards = client.options.shards;
  if (Array.isArray(shards)) return shards;
  if (typeof shards === "number") return [shards];
  return [0];
}

/**
 * How old an interaction that arrives during start-up may get while it waits for the app to be
 * ready (it is acknowledged at once, so Discord waits too); after that it gets the unavailable notice.
 */
const STARTUP_WAIT_MS = 10_000;
/**
 * How old it may get before it is acknowledged: an ordinary start-up is over by then, and the
 * router still defers in time (it defers 1.2 s after it starts, within Discord's 3 s).
 */
const STARTUP_SHORT_WAIT_MS = 1000;

/**
 * The longest a SIGTERM may take: in-flight interactions get most of it to finish; past it the
 * process exits anyway, and the sharding manager kills a shard that is still running 2 s later.
 */
const SHUTDOWN_DEADLINE_MS = 12_000;

/** How long a shard process must have run for its next death to be respawned without delay. */
const SHARD_STABLE_MS = 60_000;

/**
 * `SHARD_COUNT` without `SHARD_IDS` on one machine: this process becomes a discord.js
 * ShardingManager that runs one bot process per shard. It owns the embedded database when there is
 * no DATABASE_URL, so all shards share one PostgreSQL; shard n serves its health endpoints on
 * HTTP_PORT + n. A shard process that exits — before or after it became ready — is started again
 * on its own, after 1 s, doubling up to 30 s while it keeps dying young; the other shards are
 * never touched, and nothing a shard does can end the manager.
 */
async function runShardingManager(config: Config, shardCount: number) {
  const log = createLogger(config.LOG_LEVEL, undefined, config.LOG_FORMAT);
  handleProcessErrors(log);
  const { embedded, databaseUrl } = await openDatabase(config, log);
  process.env.DATABASE_URL = databaseUrl;
  // This process owns the embedded server, so it takes its daily backups (the shards do not).
  const backups = dailyBackupsOf(config, embedded, log);
  // The campaign page: served by the manager alone; the shards build their links to it.
  useTableBackupKey(config.TABLE_BACKUP_KEY);
  const pageDb = createDb(databaseUrl);
  const page = await servePage(config, pageDb, databaseUrl, log);
  process.env.WEB_BASE_URL = configureLinks(config, page.port);
  const script = process.argv[1] ?? path.join(import.meta.dirname, "main.ts");
  const manager = new ShardingManager(script, {
    totalShards: shardCount,
    token: config.DISCORD_TOKEN,
    mode: "process",
    // Respawning is ours (below): discord.js's own turns a shard that dies before it is ready into
    // an unhandled ShardingReadyDied that would take the manager, and every shard, down with it.
    respawn: false,
    // The same loader (tsx) as this process, so the shards can run TypeScript too.
    execArgv: process.execArgv,
  });
  let stopping = false;
  const readyOnce = new Map<number, Promise<void>>();
  manager.on("shardCreate", (shard) => {
    // The shard's environment is built when it is created and used when it is spawned, just after.
    const env = shard.env as NodeJS.ProcessEnv;
    if (config.HTTP_PORT !== 0) env.HTTP_PORT = String(config.HTTP_PORT + shard.id);
    log.info({ shardId: shard.id, shardCount }, "shard process starting");
    readyOnce.set(shard.id, new Promise((resolve) => shard.once("ready", () => resolve())));
    let startedAt = Date.now();
    let delayMs = 1000;
    shard.on("spawn", (child) => {
      startedAt = Date.now();
      log.info({ shardId: shard.id, childPid: (child as ChildProcess).pid }, "shard process spawned");
    });
    shard.on("error", (error) => log.error({ err: error, shardId: shard.id }, "shard error"));
    shard.on("death", (exited) => {
      const child = exited as ChildProcess;
      if (stopping) return;
      if (Date.now() - startedAt >= SHARD_STABLE_MS) delayMs = 1000;
      log.warn(
        { shardId: shard.id, code: child.exitCode, signal: child.signalCode, restartInMs: delayMs },
        "shard process exited; starting it again",
      );
      const timer = setTimeout(() => {
        if (stopping) return;
        shard
          .spawn(-1)
          .catch((error) => log.error({ err: error, shardId: shard.id }, "shard respawn failed"));
      }, delayMs);
      timer.unref();
      delayMs = Math.min(delayMs * 2, 30_000);
    });
  });
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping shard processes");
    const children = [...manager.shards.values()]
      .map((shard) => shard.process)
      .filter(
        (child): child is ChildProcess => !!child && child.exitCode === null && child.signalCode === null,
      );
    const exited = Promise.all(
      children.map((child) => new Promise<void>((resolve) => child.once("exit", () => resolve()))),
    );
    for (const child of children) child.kill("SIGTERM");
    // A shard that does not finish within its own deadline is not waited for any longer.
    const late = setTimeout(() => {
      const left = children.filter((c) => c.exitCode === null && c.signalCode === null);
      log.error({ pids: left.map((c) => c.pid) }, "shard processes did not stop in time; killing them");
      for (const child of left) child.kill("SIGKILL");
    }, SHUTDOWN_DEADLINE_MS + 2000);
    await exited;
    clearTimeout(late);
    backups?.stop();
    await page.close().catch(() => {});
    await closeDb(pageDb).catch(() => {});
    if (embedded) await embedded.stop().catch(() => {});
    log.info("stopped");
    process.exit(0);
  }
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("disconnect", () => void shutdown("parent process gone"));
  // discord.js spaces the shards' starts 5.5 s apart, as Discord's identify limit requires; it does
  // not wait for each to be ready (a shard waiting for the database must not hold up the others).
  await manager.spawn({ amount: shardCount, timeout: -1 });
  await Promise.all(readyOnce.values());
  log.info({ shardCount }, "all shards ready");
}

/**
 * Logs in, waiting out a network that cannot reach Discord (no DNS, no route): one line per try,
 * 1 s doubling to a minute, since that is not a setting to fix. A refusal by Discord is thrown.
 */
async function loginWhenReachable(client: Client, token: string, log: Logger): Promise<void> {
  for (let delayMs = 1000, attempt = 1; ; attempt++) {
    try {
      await client.login(token);
      return;
    } catch (error) {
      if (!isNetworkFailure(error) || startupAbort.signal.aborted) throw error;
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
      log.warn({ attempt, retryInMs: delayMs, cause }, "cannot reach Discord; trying again");
      await delay(delayMs, undefined, { signal: startupAbort.signal }).catch(() => {
        throw error;
      });
      delayMs = Math.min(delayMs * 2, 60_000);
    }
  }
}

async function runBot(config: Config) {
  const log = createLogger(config.LOG_LEVEL, undefined, config.LOG_FORMAT);
  const tokenProblem = tokenShapeProblem(config.DISCORD_TOKEN);
  if (tokenProblem) throw new DiscordRefusedSettingError(tokenProblem);
  const metrics = createMetrics({ backupDir: backupDirOf(config) });
  useTableBackupKey(config.TABLE_BACKUP_KEY);
  const client = createClient({
    apiBase: config.DISCORD_API_BASE,
    shards: config.SHARD_IDS,
    shardCount: config.SHARD_COUNT ?? (config.SHARD_IDS ? Math.max(...config.SHARD_IDS) + 1 : undefined),
  });
  const shardIds = shardIdsOf(client);
  const registers = config.REGISTER_COMMANDS && shardIds.includes(0);
  // The campaign page: one process serves it — this one when it serves shard 0 and no sharding
  // manager (which serves it itself) runs it.
  const servesPage = shardIds.includes(0) && !process.env.SHARDING_MANAGER;
  configureLinks(config);

  // The health endpoints first: a busy port is a setting to change, said before anything else starts.
  let db: Db | null = null;
  const http = await startHttpServer({
    host: config.HTTP_HOST,
    port: config.HTTP_PORT,
    metrics,
    readiness: async () => ({
      gateway: client.isReady() && client.ws.ping !== undefined,
      database: db
        ? await sqlFor(db).run`SELECT 1`.then(
            () => true,
            () => false,
          )
        : false,
    }),
  });
  log.info({ host: config.HTTP_HOST, port: http.port }, "health endpoints listening");

  // Start-up does three slow things at once instead of one after another: the gateway login (READY
  // and every guild), the database (embedded server, migrations, warm-up), and command registration
  // (as soon as READY names the application). "ready" is logged when all three are done.
  let registration: Promise<unknown> = Promise.resolve();
  let registrar: CommandRegistrar | null = null;
  client.on(Events.Raw, (packet: { t?: string; d?: { application?: { id?: string } } }) => {
    const applicationId = packet.d?.application?.id;
    if (packet.t !== "READY" || !config.REGISTER_COMMANDS || registrar || !applicationId) return;
    registrar = new CommandRegistrar({
      rest: client.rest,
      applicationId,
      gamesOf: async (guildId) => gamesOfGuild((await database).db, guildId),
      registered: registeredCommandSets(async () => (await database).db, applicationId),
      joinedAt: (guildId) => client.guilds.cache.get(guildId)?.joinedTimestamp,
      log,
      devGuildId: config.DEV_GUILD_ID,
    });
    if (!registers) return;
    // The process serving shard 0 registers the global commands ("ready" waits for that), then
    // brings every guild that has tables up to date in the background, a few at a time (the
    // games' commands are per guild: see src/discord/register.ts).
    const own = registrar;
    registration = own.registerGlobal();
    // After the gateway's guilds have arrived: a guild's registration is known by when the bot joined it.
    void Promise.all([database, gatewayReady])
      .then(async ([{ db }]) => own.syncGuilds(await gamesByGuild(db)))
      .catch((error) => log.error({ err: error }, "command registration failed"));
  });
  const gatewayReady = new Promise<Client<true>>((resolve) => client.once(Events.ClientReady, resolve));

  const database = (async () => {
    const { embedded, databaseUrl } = await openDatabase(config, log);
    // Held while the bot runs: `npm run restore` refuses while any bot process holds it.
    const presence = await waitForDatabase(databaseUrl, log, () => holdBotPresence(databaseUrl, log));
    const db = createDb(databaseUrl, {
      onConnectionError: (error) => {
        metrics.connectionErrors.inc();
        log.warn({ err: error }, "database connection lost; it is closed and replaced");
      },
    });
    // Warm the pool (and the statements' code paths) so the first player after a restart is not the slow one.
    // The pool fails fast (1.5 s) by design; while thousands of guilds arrive at start-up the event
    // loop is busy, so a slow first connection is retried rather than fatal.
    try {
      await waitForDatabase(databaseUrl, log, async () => {
        await activeTable(db, "");
        await inTransaction(db, async (tx) => sqlFor(tx).run`SELECT 1`);
      });
    } catch (error) {
      await closeDb(db).catch(() => {});
      await presence.release();
      if (embedded) await embedded.stop().catch(() => {});
      throw error;
    }
    const tables = config.TABLE_CACHE ? new TableCache() : undefined;
    const stopListening = tables ? tables.listen(databaseUrl, log) : async () => {};
    const stopPruning = startPruning(db, log);
    const backups = dailyBackupsOf(config, embedded, log);
    return { embedded, db, databaseUrl, tables, stopListening, stopPruning, presence, backups };
  })();
  const page: Promise<WebServer | null> = servesPage
    ? database.then(({ db, databaseUrl }) => servePage(config, db, databaseUrl, log))
    : Promise.resolve(null);
  // Awaited with the rest of start-up below; a failure (a busy WEB_PORT) is reported there.
  page.catch(() => {});
  // An interaction can only arrive after the gateway is ready; if the database is still starting
  // then, it waits for it (the router defers past 1.2 s, so Discord's 3 s are still kept).
  const registry = createRegistry();
  const app = database.then(({ db, tables }) => {
    const deps: AppDeps = { db, dice: cryptoDice, tables };
    return createRouter(client, {
      app: deps,
      registry,
      commands,
      autocomplete: autocompleteSources,
      log,
      // A table set up or archived changes which games' commands its guild sees.
      guildCommandsChanged: (guildId) => registrar?.syncGuild(guildId) ?? Promise.resolve(false),
      observe: metrics.observe,
    });
  });
  database.then(
    (d) => {
      db = d.db;
    },
    () => {},
  );

  let stopping = false;
  let startedUp = false;
  let router: Awaited<typeof app> | null = null;
  app.then(
    (r) => {
      router = r;
    },
    () => {},
  );
  const unavailable = (interaction: Interaction) =>
    answerUnavailable(interaction).catch((error) =>
      log.warn({ err: error, interactionId: interaction.id }, "could not deliver the unavailable notice"),
    );
  client.on(Events.InteractionCreate, (interaction) => {
    if (stopping) return;
    if (router) return void router.handle(interaction);
    void answerWhileStarting(interaction);
  });
  /**
   * Start-up is not over (the database is starting, migrating, or not there yet): `/help` is
   * answered at once; anything else is acknowledged now and answered as soon as the app is ready,
   * or told "temporarily unavailable" once it has waited STARTUP_WAIT_MS.
   */
  async function answerWhileStarting(interaction: Interaction): Promise<void> {
    // Start-up is usually done in a moment: a short wait lets the router answer as it always does.
    const shortWaitMs = Math.max(0, STARTUP_SHORT_WAIT_MS - (Date.now() - interaction.createdTimestamp));
    const soon = await Promise.race([app, delay(shortWaitMs).then(() => null)]).catch(() => null);
    if (stopping) return;
    if (soon) return soon.handle(interaction);
    try {
      if (interaction.isChatInputCommand() && interaction.commandName === "help") {
        return await answerHelpWhileStarting(interaction);
      }
      if (!(await acknowledgeWhileStarting(interaction, registry))) return;
    } catch (error) {
      log.warn(
        { err: error, interactionId: interaction.id },
        "could not acknowledge an interaction during start-up",
      );
      return;
    }
    const waitMs = Math.max(0, STARTUP_WAIT_MS - (Date.now() - interaction.createdTimestamp));
    const ready = await Promise.race([app, delay(waitMs).then(() => null)]).catch(() => null);
    if (stopping) return;
    if (ready) return ready.handle(interaction);
    return unavailable(interaction);
  }
  // Added to a guild while running (discord.js emits this only for a guild it did not have): Discord
  // dropped the bot's guild commands when it was removed, so a guild with tables gets them again.
  client.on(Events.GuildCreate, (guild) => {
    registrar
      ?.guildJoined(guild.id)
      .catch((error) => log.warn({ err: error, guildId: guild.id }, "guild commands not restored"));
  });
  client.on(Events.ShardResume, (shardId) => {
    metrics.reconnects.inc();
    log.info({ shardId }, "gateway resumed");
  });
  // A shard that becomes ready again re-identified (its session was invalidated): a reconnect too.
  const readyShards = new Set<number>();
  client.on(Events.ShardReady, (shardId) => {
    if (readyShards.has(shardId)) {
      metrics.reconnects.inc();
      log.info({ shardId }, "gateway re-identified");
    }
    readyShards.add(shardId);
  });
  // A clean shutdown closes the gateway too, which discord.js reports as a reconnect: not one.
  client.on(Events.ShardReconnecting, (shardId) => {
    if (!stopping) log.warn({ shardId }, "gateway reconnecting");
  });
  // A close Discord will not take back (a revoked token, refused intents or shards), at start-up
  // or later: say which setting, stop cleanly, and exit with the code no supervisor retries.
  let refused: ((error: DiscordRefusedSettingError) => void) | null = null;
  const refusal = new Promise<never>((_, reject) => {
    refused = reject;
  });
  refusal.catch(() => {});
  client.on(Events.ShardDisconnect, (event, shardId) => {
    const error = refusedByGateway(event.code);
    if (!error || stopping) return;
    log.error({ shardId, code: event.code }, "Discord refused a setting");
    refused?.(error);
    if (startedUp) void refuseAndExit(error);
  });
  client.on(Events.Error, (error) => log.error({ err: error }, "discord client error"));

  async function shutdown(signal: string, exitCode = 0) {
    if (stopping) return;
    stopping = true;
    log.info({ signal, inFlight: router?.inFlight() ?? 0 }, "shutting down");
    // Whatever a step waits for (a dead database, a stuck socket), the process is not kept alive:
    // past the deadline it says which step it was in and exits.
    let step = "draining interactions";
    setTimeout(() => {
      log.error({ step }, "shutdown did not finish in time; exiting");
      process.exit(exitCode);
    }, SHUTDOWN_DEADLINE_MS).unref();
    // A start-up still waiting for PostgreSQL gives up now instead of holding the shutdown.
    startupAbort.abort();
    await router?.drain(SHUTDOWN_DEADLINE_MS - 2000);
    step = "closing the gateway";
    await client.destroy().catch(() => {});
    http.server.close();
    step = "waiting for the database to open";
    const opened = await database.catch(() => null);
    registrar?.stop();
    opened?.stopPruning();
    opened?.backups?.stop();
    step = "closing the campaign page";
    await (await page.catch(() => null))?.close().catch(() => {});
    step = "closing the table cache's listener";
    await opened?.stopListening();
    step = "closing the database pool";
    if (opened) await closeDb(opened.db).catch(() => {});
    await opened?.presence.release();
    step = "stopping the embedded database";
    if (opened?.embedded) await opened.embedded.stop().catch(() => {});
    log.info("stopped");
    process.exit(exitCode);
  }
  /** A refused setting: its one line on standard error, then a clean stop (the embedded server too). */
  async function refuseAndExit(error: DiscordRefusedSettingError): Promise<void> {
    process.stderr.write(`${error.message}\n`);
    await shutdown("Discord refused a setting", 2);
  }
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  handleProcessErrors(log, metrics);
  // Run by the supervisor (npm start) or the sharding manager: if that parent is gone, stop too,
  // rather than keep serving beside the replacement it would start.
  process.on("disconnect", () => void shutdown("parent process gone"));

  let ready: Client<true>;
  try {
    await Promise.race([loginWhenReachable(client, config.DISCORD_TOKEN, log), refusal]);
    [ready] = await Promise.race([Promise.all([gatewayReady, app, page]), refusal]);
    await registration;
  } catch (error) {
    // Stopped before start-up was over (e.g. while waiting for the database): the shutdown exits.
    if (stopping) return;
    const refusedSetting = error instanceof DiscordRefusedSettingError ? error : refusedAtLogin(error);
    if (refusedSetting) return refuseAndExit(refusedSetting);
    throw error;
  }
  startedUp = true;
  await collectStartupGarbage();
  log.info(
    {
      user: ready.user.tag,
      guilds: ready.guilds.cache.size,
      shards: shardIds,
      // Since the process started (module loading included): what an operator waits for.
      startupMs: Math.round(performance.now()),
    },
    "ready",
  );
}

async function main() {
  const config = readConfig();
  // Under the sharding manager each shard process gets SHARD_COUNT too; SHARDING_MANAGER marks it.
  if (config.SHARD_COUNT && config.SHARD_COUNT > 1 && !config.SHARD_IDS && !process.env.SHARDING_MANAGER) {
    await runShardingManager(config, config.SHARD_COUNT);
  } else {
    await runBot(config);
  }
}

main().catch((error) => {
  // A setting the host must change: say what, without a stack, and do not restart into the same wall.
  if (
    error instanceof EmbeddedPostgresAccessError ||
    error instanceof EmbeddedPostgresMissingError ||
    error instanceof ConfigError ||
    error instanceof DiscordRefusedSettingError ||
    error instanceof LogFormatUnavailableError
  ) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`Fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
