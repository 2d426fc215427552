import { DiscordjsErrorCodes, GatewayCloseCodes } from "discord.js";

/**
 * A setting Discord itself refused (a wrong or revoked token, intents, shards): the host must change
 * it, so the bot says which in one line and exits with code 2, which no supervisor retries.
 */
export class DiscordRefusedSettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DiscordRefusedSettingError";
  }
}

const WHERE_THE_TOKEN_IS =
  "copy the bot token from your application's Bot page in the Discord Developer Portal (Reset Token) into DISCORD_TOKEN";

/**
 * What a DISCORD_TOKEN that cannot be a bot token is (the most common first mistake is pasting the
 * OAuth2 client secret), or null. Anything else is left for Discord to accept or refuse.
 */
export function tokenShapeProblem(token: string): string | null {
  const pasted = (what: string) =>
    `DISCORD_TOKEN looks like ${what}, not a bot token: ${WHERE_THE_TOKEN_IS}.`;
  if (/^bot\s/i.test(token))
    return `DISCORD_TOKEN starts with "Bot ": give the token alone, without that prefix.`;
  if (/\s|["']/.test(token))
    return "DISCORD_TOKEN contains spaces or quotes: give the token alone, on one line.";
  if (/^\d{17,20}$/.test(token)) return pasted("the application id");
  if (/^[0-9a-f]{64}$/i.test(token)) return pasted("the application's public key");
  if (/^[A-Za-z0-9_-]{32}$/.test(token)) return pasted("the OAuth2 client secret");
  return null;
}

/** The gateway close codes that mean a setting is wrong, and what to say about each. */
const REFUSED_CLOSE_CODES: Partial<Record<number, string>> = {
  [GatewayCloseCodes.AuthenticationFailed]: `Discord refused DISCORD_TOKEN (gateway close code 4004, authentication failed; the token may have been reset): ${WHERE_THE_TOKEN_IS}.`,
  [GatewayCloseCodes.DisallowedIntents]:
    "Discord refused the bot's gateway intents (close code 4014, disallowed intents). The bot asks only for Guilds and Direct Messages, which need no approval: check that DISCORD_TOKEN is this bot's token and that the application is a bot.",
  [GatewayCloseCodes.InvalidIntents]:
    "Discord refused the bot's gateway intents (close code 4013, invalid intents): check that DISCORD_TOKEN is a bot token.",
  [GatewayCloseCodes.InvalidShard]:
    "Discord refused the shard settings (close code 4010, invalid shard): SHARD_IDS must each be below SHARD_COUNT, and SHARD_COUNT the same in every process.",
  [GatewayCloseCodes.ShardingRequired]:
    "Discord requires this bot to run in shards (close code 4011, sharding required): set SHARD_COUNT (one shard per 1,000 servers or fewer).",
};

/** The refusal a gateway close code means, or null for a close the client recovers from by itself. */
export function refusedByGateway(code: number): DiscordRefusedSettingError | null {
  const message = REFUSED_CLOSE_CODES[code];
  return message ? new DiscordRefusedSettingError(message) : null;
}

/** A login failure as the refusal of a setting when it is one (401 on the gateway lookup). */
export function refusedAtLogin(error: unknown): DiscordRefusedSettingError | null {
  if ((error as { code?: unknown })?.code === DiscordjsErrorCodes.TokenInvalid) {
    return new DiscordRefusedSettingError(
      `Discord refused DISCORD_TOKEN (401 Unauthorized): ${WHERE_THE_TOKEN_IS}.`,
    );
  }
  const status = (error as { status?: unknown })?.status;
  if (status === 404) {
    return new DiscordRefusedSettingError(
      "DISCORD_API_BASE does not answer like Discord's API (404 on /gateway/bot): remove it to use Discord, or point it at a Discord-compatible server.",
    );
  }
  return null;
}

const NETWORK_ERROR_CODES = new Set([
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
]);

/** Discord could not be reached at all (no DNS, no route, refused, timed out): not a setting, retried. */
export function isNetworkFailure(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_ERROR_CODES.has(code)) return true;
    if ((e as { name?: unknown }).name === "AbortError") return true; // the REST client's own timeout
  }
  return error instanceof TypeError && error.message === "fetch failed";
}
