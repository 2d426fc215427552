import { existsSync } from "node:fs";
import path from "node:path";
import { Events } from "discord.js";
import { commands } from "../commands/index.js";
import type { AppDeps } from "./app/execute.js";
import { autocompleteSources, createRegistry } from "./app/registry.js";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { createClient } from "./discord/client.js";
import { registerCommands } from "./discord/register.js";
import { createRouter } from "./discord/router.js";
import { startHttpServer } from "./http.js";
import { createLogger } from "./log.js";
import { createMetrics } from "./metrics.js";
import { cryptoDice } from "./rules/dice.js";
import { createDb } from "./store/db.js";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "./store/embedded-postgres.js";
import { migrate } from "./store/migrate.js";

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

async function main() {
  const startedAt = performance.now();
  const config = readConfig();
  const log = createLogger(config.LOG_LEVEL);

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
  const applied = await migrate(databaseUrl);
  if (applied.length > 0) log.info({ applied }, "migrations applied");
  const db = createDb(databaseUrl);
  // Warm the pool and Prisma's query compiler so the first player after a restart is not the slow one.
  await db.gameTable.findFirst({ where: { activeChannelId: "" } });
  await db.$transaction(async (tx) => tx.$executeRaw`SELECT 1`);
  const deps: AppDeps = { db, dice: cryptoDice };

  const metrics = createMetrics();
  const client = createClient({
    apiBase: config.DISCORD_API_BASE,
    shards: config.SHARD_IDS,
    shardCount: config.SHARD_COUNT ?? (config.SHARD_IDS ? Math.max(...config.SHARD_IDS) + 1 : undefined),
  });
  const router = createRouter(client, {
    app: deps,
    registry: createRegistry(),
    commands,
    autocomplete: autocompleteSources,
    log,
    observe: metrics.observe,
  });

  const http = await startHttpServer({
    port: config.HTTP_PORT,
    metrics,
    readiness: async () => ({
      gateway: client.isReady() && client.ws.ping !== undefined,
      database: await db.$queryRaw`SELECT 1`.then(
        () => true,
        () => false,
      ),
    }),
  });
  log.info({ port: http.port }, "health endpoints listening");

  let stopping = false;
  client.on(Events.InteractionCreate, (interaction) => {
    if (stopping) return;
    void router.handle(interaction);
  });
  client.on(Events.ShardResume, (shardId) => {
    metrics.reconnects.inc();
    log.info({ shardId }, "gateway resumed");
  });
  client.on(Events.ShardReconnecting, (shardId) => log.warn({ shardId }, "gateway reconnecting"));
  client.on(Events.Error, (error) => log.error({ err: error }, "discord client error"));
  client.once(Events.ClientReady, async (ready) => {
    try {
      if (config.REGISTER_COMMANDS && (!config.SHARD_IDS || config.SHARD_IDS.includes(0))) {
        const count = await registerCommands({
          token: config.DISCORD_TOKEN,
          applicationId: ready.application.id,
          apiBase: config.DISCORD_API_BASE,
          guildId: config.DEV_GUILD_ID,
        });
        log.info({ count, guild: config.DEV_GUILD_ID ?? "global" }, "commands registered");
      }
    } catch (error) {
      log.error({ err: error }, "command registration failed");
    }
    log.info(
      {
        user: ready.user.tag,
        guilds: ready.guilds.cache.size,
        startupMs: Math.round(performance.now() - startedAt),
      },
      "ready",
    );
  });

  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    log.info({ signal, inFlight: router.inFlight() }, "shutting down");
    await router.drain(10_000);
    await client.destroy().catch(() => {});
    http.server.close();
    await db.$disconnect().catch(() => {});
    if (embedded) await embedded.stop().catch(() => {});
    log.info("stopped");
    process.exit(0);
  }
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("unhandledRejection", (error) => log.error({ err: error }, "unhandled rejection"));

  await client.login(config.DISCORD_TOKEN);
}

main().catch((error) => {
  process.stderr.write(`Fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
