// `npm run backup [file]` and `npm run restore -- file [--force]`: a whole-database backup and its
// restore, with nothing but this checkout (no PostgreSQL client tools), for the embedded database
// and for DATABASE_URL alike. Reads the same settings as the bot (.env, the environment).
import { accessSync, constants, existsSync } from "node:fs";
import path from "node:path";
import { ConfigError, loadConfig } from "./config.js";
import {
  BackupFileError,
  checkBackupFile,
  RestoreRefusedError,
  restoreBackup,
  writeBackup,
} from "./store/backup.js";
import { dailyBackupName } from "./store/daily-backup.js";
import {
  EmbeddedPostgresAccessError,
  EmbeddedPostgresMissingError,
  runningEmbeddedServer,
  startEmbeddedPostgres,
} from "./store/embedded-postgres.js";

const USAGE = `usage:
  npm run backup [file]              a backup of the whole database (default: ${dailyBackupName(new Date(0)).replace("19700101T000000Z", "<time>")} here; - for standard output)
  npm run restore -- file [--force]  restore it, with the bot stopped (--force: replace the data the database holds)`;

class UsageError extends Error {}

/** Said on the terminal: what the user did not get, in one message, without a stack. */
const EXPECTED = [
  BackupFileError,
  RestoreRefusedError,
  UsageError,
  ConfigError,
  EmbeddedPostgresAccessError,
  EmbeddedPostgresMissingError,
];

function say(line: string) {
  process.stderr.write(`${line}\n`);
}

/**
 * Runs `work` on the bot's database: DATABASE_URL; or the embedded server the running bot started
 * (found from its postmaster.pid, since its port changes at every start); or, with the bot
 * stopped, the embedded server started for the occasion and stopped after.
 */
async function onDatabase<T>(
  config: ReturnType<typeof loadConfig>,
  purpose: "backup" | "restore",
  work: (databaseUrl: string) => Promise<T>,
): Promise<T> {
  if (config.DATABASE_URL) return work(config.DATABASE_URL);
  const dataDir = path.resolve(config.DATA_DIR, "postgres");
  try {
    accessSync(dataDir, constants.R_OK | constants.X_OK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EACCES") {
      throw new UsageError(
        `${dataDir} is not yours to read: run this as the user the bot runs as (e.g. sudo -u storybot npm run ${purpose} …).`,
      );
    }
  }
  const running = runningEmbeddedServer(dataDir);
  if (running) return work(running.url);
  if (purpose === "backup" && !existsSync(path.join(dataDir, "PG_VERSION"))) {
    throw new UsageError(
      `There is no database in ${dataDir}: the bot has not run with DATA_DIR=${config.DATA_DIR} here, and DATABASE_URL is not set.`,
    );
  }
  say(`The bot is not running: starting its database in ${dataDir} for the ${purpose}.`);
  const embedded = await startEmbeddedPostgres({ dataDir });
  try {
    return await work(embedded.url);
  } finally {
    await embedded.stop().catch(() => {});
  }
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  // `npm run restore file --force` hands --force to npm, which passes it on as npm_config_force.
  const force = rest.includes("--force") || process.env.npm_config_force === "true";
  const files = rest.filter((a) => a !== "--force");
  if (
    (command !== "backup" && command !== "restore") ||
    files.length > 1 ||
    rest.some((a) => /^--./.test(a) && a !== "--force")
  ) {
    throw new UsageError(USAGE);
  }
  if (existsSync(".env")) process.loadEnvFile(".env");
  const config = loadConfig(process.env, { needsToken: false });
  // npm runs scripts in the checkout; a file named by the user is where they were.
  const here = process.env.INIT_CWD ?? process.cwd();
  if (command === "backup") {
    const given = files[0] ?? dailyBackupName(new Date());
    const file = given === "-" ? "-" : path.resolve(here, given);
    const summary = await onDatabase(config, "backup", (url) => writeBackup(url, file));
    say(
      `Backup written${file === "-" ? "" : ` to ${file}`}: ${summary.rows} rows in ${summary.tables} tables, at migration ${summary.migration ?? "none"}.`,
    );
    return 0;
  }
  if (!files[0]) throw new UsageError(USAGE);
  const file = path.resolve(here, files[0]);
  if (!existsSync(file)) throw new UsageError(`There is no file ${file}.`);
  // The file first: a damaged one is refused before any database is started or reached.
  const checked = await checkBackupFile(file);
  const summary = await onDatabase(config, "restore", (url) => restoreBackup(url, file, { force, checked }));
  say(
    `Restored ${file} (a backup of ${summary.createdAt}): ${summary.rows} rows in ${summary.tables} tables${summary.replaced ? ", replacing the data that was there" : ""}.` +
      (summary.migratedAfter.length > 0
        ? ` Migrations newer than the backup applied: ${summary.migratedAfter.join(", ")}.`
        : ""),
  );
  say("Start the bot again (npm start, or your service) to use it.");
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    if (EXPECTED.some((kind) => error instanceof kind)) {
      say(error.message);
      process.exit(error instanceof ConfigError || error instanceof UsageError ? 2 : 1);
    }
    say(
      `The ${process.argv[2] ?? "command"} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  },
);
