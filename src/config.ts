import { z } from "zod";

const booleanFromEnv = z
  .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");

const snowflake = z.string().regex(/^\d{17,20}$/, "must be a Discord id (17–20 digits)");

const ConfigSchema = z.object({
  DISCORD_TOKEN: z.string().min(1).optional(),
  DISCORD_API_BASE: z.url({ message: "must be a URL such as http://localhost:8080/api" }).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DEV_GUILD_ID: snowflake.optional(),
  REGISTER_COMMANDS: booleanFromEnv.default(true),
  /** Keep each channel's table in memory (needs LISTEN/NOTIFY: a direct connection, not PgBouncer in transaction mode). */
  TABLE_CACHE: booleanFromEnv.default(true),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** JSON lines for machines (the default), or pretty for reading by eye in development (needs pino-pretty). */
  LOG_FORMAT: z.enum(["json", "pretty"]).default("json"),
  /** The address the health endpoints listen on: this machine only, unless a monitor elsewhere needs them. */
  HTTP_HOST: z.string().min(1).default("127.0.0.1"),
  HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** The campaign page (src/web/): its address (this machine only unless a reverse proxy elsewhere needs it), */
  WEB_HOST: z.string().min(1).default("127.0.0.1"),
  /** its port (0: any free port, as tests use), */
  WEB_PORT: z.coerce.number().int().min(0).max(65535).default(8090),
  /** the address its links are built from (what players open; unset: http://localhost:<port>), */
  WEB_BASE_URL: z.url({ message: "must be a URL such as https://dice.example.org" }).optional(),
  /** and how many days a link works. */
  WEB_LINK_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  SHARD_COUNT: z.coerce.number().int().min(1).max(1000).optional(),
  SHARD_IDS: z
    .string()
    .regex(/^\d+(,\d+)*$/, "must be a comma-separated list of shard numbers, e.g. 0,1")
    .transform((s) => s.split(",").map(Number))
    .optional(),
  /** Daily backups of the embedded database kept in DATA_DIR/backups (0: none taken). */
  BACKUP_KEEP: z.coerce.number().int().min(0).max(1000).default(7),
  /** The local hour (0–23) the daily backup is taken at. */
  BACKUP_HOUR: z.coerce.number().int().min(0).max(23).default(4),
  /** The key that seals and signs `/table export` files, so another database can read them. */
  TABLE_BACKUP_KEY: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex digits (e.g. from `openssl rand -hex 32`)")
    .optional(),
});

export type Config = z.infer<typeof ConfigSchema> & { DISCORD_TOKEN: string };

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly kind: "invalid" | "missing-token",
  ) {
    super(message);
  }
}

export const TOKEN_HELP = `DISCORD_TOKEN is not set, so the bot cannot reach Discord.

To get a token:
  1. Open https://discord.com/developers/applications and create an application.
  2. In "Bot", press "Reset Token" and copy the token. No privileged intents are needed.
  3. In "OAuth2 → URL Generator", tick the scopes "bot" and "applications.commands",
     and the permissions "Send Messages", "Embed Links", "Read Message History";
     open the URL to invite the bot to your server.
  4. Put the token in .env (see .env.example) or the environment:
       DISCORD_TOKEN=... npm start`;

/** Reads and validates the environment. Every problem is listed at once. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  /** False for tools that never reach Discord (`npm run backup`). */
  options: { needsToken?: boolean } = {},
): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`, "invalid");
  }
  if (!parsed.data.DISCORD_TOKEN && options.needsToken !== false)
    throw new ConfigError(TOKEN_HELP, "missing-token");
  if (parsed.data.SHARD_IDS && parsed.data.SHARD_COUNT) {
    const bad = parsed.data.SHARD_IDS.filter((id) => id >= parsed.data.SHARD_COUNT!);
    if (bad.length > 0) {
      throw new ConfigError(
        `Invalid configuration:\n  - SHARD_IDS: ${bad.join(",")} not below SHARD_COUNT ${parsed.data.SHARD_COUNT}`,
        "invalid",
      );
    }
  }
  return parsed.data as Config;
}
