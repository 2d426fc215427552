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

export function createLogger(level: string, destination?: DestinationStream) {
  return pino(
    {
      level,
      base: { pid: process.pid },
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    },
    destination,
  );
}

export type Logger = ReturnType<typeof createLogger>;
