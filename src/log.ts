import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import pino, { type DestinationStream } from "pino";

/**
 * Structured logs. Never log tokens, message content, or secret values (duel dice, secret
 * trust, dark fates): log ids and outcomes instead. A discord.js error carries the message
 * it failed to send (`requestBody`) and a URL that holds the interaction token (`url`), so
 * both are redacted wherever an error is logged.
 */
export const REDACTED_PATHS = [
  "token",
  "*.token",
  "headers.authorization",
  "*.headers.authorization",
  "DISCORD_TOKEN",
  "err.requestBody",
  "err.url",
  "err.rawError",
  "*.requestBody",
  "*.url",
];

export type LogFormat = "json" | "pretty";

/** Said when LOG_FORMAT=pretty is asked for where only the production dependencies are installed. */
export class LogFormatUnavailableError extends Error {}

/**
 * Human-readable lines (pino-pretty, a development dependency loaded only when asked for) written
 * to `destination`, or to standard output.
 */
function prettyStream(destination?: DestinationStream): DestinationStream {
  let pretty: (options: Record<string, unknown>) => DestinationStream;
  try {
    pretty = createRequire(import.meta.url)("pino-pretty");
  } catch {
    throw new LogFormatUnavailableError(
      "LOG_FORMAT=pretty needs the development dependency pino-pretty, which is not installed " +
        "(install with `npm ci`, not `npm ci --omit=dev`), or unset LOG_FORMAT for JSON logs.",
    );
  }
  return pretty({
    destination: destination ?? 1,
    colorize: !destination && process.stdout.isTTY,
    sync: true,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname",
  });
}

/** How long a log line may wait in the buffer before it is written (lines are written in batches). */
export const LOG_FLUSH_MS = 200;

/**
 * Standard output in batches: a line per interaction written on its own cost the bot a system call
 * each (5 % of its CPU at 100 interactions/s). Lines wait at most LOG_FLUSH_MS, and pino writes
 * what is left when the process exits.
 */
function batchedStdout(): DestinationStream {
  const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => stream.flush(), LOG_FLUSH_MS).unref();
  return stream;
}

export function createLogger(level: string, destination?: DestinationStream, format: LogFormat = "json") {
  return pino(
    {
      level,
      base: { pid: process.pid },
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    },
    format === "pretty" ? prettyStream(destination) : (destination ?? batchedStdout()),
  );
}

export type Logger = ReturnType<typeof createLogger>;

/**
 * The interaction being handled (set by the router): an error caught at process level — an
 * unhandled rejection, an uncaught exception — is logged with the id of the interaction it came from.
 */
export const interactionScope = new AsyncLocalStorage<{ interactionId: string }>();
