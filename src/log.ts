import pino from "pino";

/**
 * Structured logs. Never log tokens, message content typed by users, or secret values
 * (duel dice, secret trust, dark fates): log ids and outcomes instead.
 */
export function createLogger(level: string) {
  return pino({
    level,
    base: { pid: process.pid },
    redact: {
      paths: ["token", "*.token", "headers.authorization", "*.headers.authorization", "DISCORD_TOKEN"],
      censor: "[redacted]",
    },
  });
}

export type Logger = ReturnType<typeof createLogger>;
