/**
 * Live updates for open pages: one LISTEN connection per serving process hears which table
 * changed (the `table_page_change` triggers, prisma/migrations), and every page open on that
 * table is told. A burst of changes within a moment is one update. Nothing is polled.
 */
import type { Logger } from "pino";
import { listenResiliently } from "../store/listener.js";

const CHANNEL = "table_page_change";
/** Changes this close together are one update (a transaction notifies once per table anyway). */
const SETTLE_MS = 120;
export const LIVE_APPLICATION_NAME = "storybot campaign page";

export type Listener = () => void;

export class PageLive {
  private readonly listeners = new Map<number, Set<Listener>>();
  private readonly pending = new Map<number, NodeJS.Timeout>();
  /** Bumped by every change at a table: what was read of it at an older version is stale. */
  private readonly versions = new Map<number, number>();
  private listening = false;

  /**
   * The table's change count while the listener is connected, or null (nothing heard is certain):
   * a page may keep what it read at the same version (src/web/page-data.ts, the dice statistics).
   */
  version(tableId: number): number | null {
    return this.listening ? (this.versions.get(tableId) ?? 0) : null;
  }

  /** Calls `listener` after each change at the table; returns the way to stop. */
  subscribe(tableId: number, listener: Listener): () => void {
    let set = this.listeners.get(tableId);
    if (!set) {
      set = new Set();
      this.listeners.set(tableId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(tableId);
    };
  }

  get open(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  /** A table changed: its pages update once the burst settles. */
  changed(tableId: number): void {
    this.versions.set(tableId, (this.versions.get(tableId) ?? 0) + 1);
    if (!this.listeners.has(tableId) || this.pending.has(tableId)) return;
    const timer = setTimeout(() => {
      this.pending.delete(tableId);
      for (const listener of this.listeners.get(tableId) ?? []) listener();
    }, SETTLE_MS);
    this.pending.set(tableId, timer);
  }

  /** Every open page updates (after a reconnect, when a notification may have been missed). */
  changedAll(): void {
    for (const tableId of this.listeners.keys()) this.changed(tableId);
  }

  /** Connects the listener and keeps it connected (backoff after a failure); returns a stop function. */
  listen(databaseUrl: string, log: Pick<Logger, "info" | "warn">): () => Promise<void> {
    const stop = listenResiliently({
      databaseUrl,
      channel: CHANNEL,
      applicationName: LIVE_APPLICATION_NAME,
      onNotification: (payload) => {
        const tableId = Number(payload);
        if (Number.isInteger(tableId)) this.changed(tableId);
      },
      onUp: () => {
        // Anything read before now may have missed a change.
        this.versions.clear();
        this.listening = true;
        this.changedAll();
      },
      onDown: (reason) => {
        this.listening = false;
        log.warn({ err: reason }, "campaign page listener lost; reconnecting");
      },
    });
    return async () => {
      this.listening = false;
      for (const timer of this.pending.values()) clearTimeout(timer);
      this.pending.clear();
      await stop();
    };
  }
}
