import { type ChildProcess, spawn } from "node:child_process";
import pino from "pino";

/**
 * What `npm start` runs: `node dist/src/supervisor.js <node flags> dist/src/main.js`. It starts the
 * bot with that command line and starts it again whenever it exits unasked — a crash, kill -9, an
 * uncaught exception — after 1 s, doubling up to 30 s while it keeps dying within a minute of
 * starting. SIGTERM/SIGINT are passed on and the supervisor exits when the bot has stopped. Exit
 * code 2 (a setting the host must change: a missing token, an unreachable data directory) is not
 * retried. With SHARD_COUNT the bot it runs is the sharding manager, which restarts shards itself.
 *
 * It loads nothing but pino, so it costs a few MB, and it holds no state: restarting the bot loses
 * nothing (every flow lives in PostgreSQL).
 */
const STABLE_MS = 60_000;
const CONFIGURATION_ERROR = 2;

const log = pino({ base: { pid: process.pid, role: "supervisor" } });
const command = process.argv.slice(2);
if (command.length === 0) {
  process.stderr.write("usage: node supervisor.js [node flags] path/to/main.js\n");
  process.exit(2);
}

let child: ChildProcess | null = null;
let stopping = false;
let delayMs = 1000;
let restartTimer: NodeJS.Timeout | undefined;

function start() {
  const startedAt = Date.now();
  // The IPC channel tells the bot when this process is gone (it then stops, not serving twice).
  const bot = spawn(process.execPath, command, { stdio: ["inherit", "inherit", "inherit", "ipc"] });
  child = bot;
  log.info({ childPid: bot.pid }, "bot process started");
  bot.on("error", (error) => log.error({ err: error }, "could not start the bot process"));
  bot.on("exit", (code, signal) => {
    child = null;
    if (stopping) process.exit(code ?? 0);
    if (code === 0 || code === CONFIGURATION_ERROR) {
      log.info({ code }, "bot process stopped");
      process.exit(code);
    }
    if (Date.now() - startedAt >= STABLE_MS) delayMs = 1000;
    log.warn({ code, signal, restartInMs: delayMs }, "bot process exited; starting it again");
    restartTimer = setTimeout(start, delayMs);
    delayMs = Math.min(delayMs * 2, 30_000);
  });
}

function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  clearTimeout(restartTimer);
  if (!child) process.exit(0);
  child.kill(signal);
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));

start();
