import { LRUCache } from "lru-cache";
import type { Logger } from "pino";
import type { GameTable } from "../generated/prisma/client.js";
import { listenResiliently } from "../store/listener.js";

/** The channel the `game_table_change` trigger (prisma/migrations) notifies with every change. */
const CHANNEL = "game_table_change";
/** A bound on staleness should a notification ever be missed without the connection noticing. */
const TTL_MS = 60_000;
/** How the LISTEN connection names itself in pg_stat_activity (to find it, or end it, by hand). */
export const LISTENER_APPLICATION_NAME = "storybot table cache";

/** Freezes a row and its JSON state: a use case that tried to change a shared cached row would throw. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value) && !(value instanceof Date)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Every interaction starts by finding its channel's active table: in memory instead of a query each
 * time. PostgreSQL tells every process which channel to forget (LISTEN on a trigger's NOTIFY), so
 * a change made anywhere is seen everywhere within milliseconds. The cache only answers while that
 * listener is connected; without it, every lookup goes to the database as before.
 */
export class TableCache {
  private readonly rows = new LRUCache<string, { table: GameTable | null }>({ max: 20_000, ttl: TTL_MS });
  /** Bumped by every invalidation: a lookup that raced one must not store what it read. */
  private generation = 0;
  private listening = false;

  async get(channelId: string, load: () => Promise<GameTable | null>): Promise<GameTable | null> {
    if (!this.listening) return load();
    const hit = this.rows.get(channelId);
    if (hit) return hit.table;
    const generation = this.generation;
    const table = await load();
    if (this.listening && generation === this.generation)
      this.rows.set(channelId, { table: deepFreeze(table) });
    return table;
  }

  forget(channelId: string): void {
    this.generation++;
    this.rows.delete(channelId);
  }

  /** Forgets the channel(s) of one table, wherever it is cached. */
  forgetTable(tableId: number): void {
    this.generation++;
    for (const [channelId, entry] of this.rows.entries()) {
      if (entry.table?.id === tableId) this.rows.delete(channelId);
    }
  }

  forgetAll(): void {
    this.generation++;
    this.rows.clear();
  }

  get size(): number {
    return this.rows.size;
  }

  /** Whether lookups are being answered from memory (the listener is connected). */
  get active(): boolean {
    return this.listening;
  }

  /**
   * Connects the listener (and reconnects it with backoff after any failure). While it is down the
   * cache is empty and bypassed. Returns a stop function for shutdown.
   */
  listen(
    databaseUrl: string,
    log: Pick<Logger, "info" | "warn">,
    options: { connectTimeoutMs?: number } = {},
  ): () => Promise<void> {
    const stop = listenResiliently({
      databaseUrl,
      channel: CHANNEL,
      applicationName: LISTENER_APPLICATION_NAME,
      connectTimeoutMs: options.connectTimeoutMs,
      onNotification: (tableId) => this.forget(tableId),
      onUp: () => {
        // Anything cached before now may have missed a notification.
        this.forgetAll();
        this.listening = true;
        log.info("table cache listening for changes");
      },
      onDown: (reason) => {
        const wasListening = this.listening;
        this.listening = false;
        this.forgetAll();
        if (wasListening)
          log.warn({ err: reason }, "table cache listener lost; looking tables up in the database");
      },
    });
    return async () => {
      await stop();
      this.listening = false;
      this.forgetAll();
    };
  }
}
