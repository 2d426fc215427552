import { randomBytes } from "node:crypto";

/** Discord's epoch (2015-01-01T00:00:00.000Z) used by snowflakes. */
const DISCORD_EPOCH = 1420070400000n;

let increment = 0n;

/**
 * A real-looking snowflake. `timestampMs` lets callers pick the high bits, which matters because
 * guild → shard routing uses `(guild_id >> 22) % shard_count`.
 */
export function snowflake(timestampMs: number = Date.now()): string {
  increment = (increment + 1n) & 0xfffn;
  return (((BigInt(timestampMs) - DISCORD_EPOCH) << 22n) | (1n << 17n) | increment).toString();
}

/** A snowflake whose guild routing lands on `shardId` of `shardCount`. */
export function snowflakeOnShard(shardId: number, shardCount: number): string {
  const base = BigInt(Date.now()) - DISCORD_EPOCH;
  const count = BigInt(shardCount);
  const offset = (BigInt(shardId) - (base % count) + count) % count;
  return snowflake(Number(base + offset + DISCORD_EPOCH));
}

export function shardOf(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

export function interactionToken(): string {
  return `aW50ZXJhY3Rpb24.${randomBytes(48).toString("base64url")}`;
}

export function sessionId(): string {
  return randomBytes(16).toString("hex");
}
