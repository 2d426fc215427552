import pg from "pg";

/** How often a listening connection is probed: a connection cut without a FIN loses notifications silently. */
const HEALTH_CHECK_MS = 20_000;
/** A probe not answered within this is a dead connection. */
const PROBE_TIMEOUT_MS = 5000;

export interface ListenerOptions {
  databaseUrl: string;
  /** The NOTIFY channel (a plain identifier: it is written into the LISTEN statement). */
  channel: string;
  /** Names the connection in `pg_stat_activity`. */
  applicationName: string;
  onNotification: (payload: string) => void;
  /** Listening (again): anything read before may have missed a notification. */
  onUp: () => void;
  /** Not listening any more (and reconnecting unless stopped). */
  onDown: (reason: unknown) => void;
  /** A server that accepts no connection (frozen, or cut off) is given up on after this and retried. */
  connectTimeoutMs?: number;
}

/**
 * One connection that LISTENs on a channel and keeps doing so: probed every 20 s, and after any
 * failure closed and reconnected with backoff (500 ms, doubling to 30 s). Returns a stop function.
 */
export function listenResiliently(options: ListenerOptions): () => Promise<void> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let healthTimer: NodeJS.Timeout | undefined;
  let backoffMs = 500;

  const close = (dead: pg.Client | null) => {
    dead?.removeAllListeners();
    dead?.on("error", () => {});
    return dead?.end().catch(() => {});
  };

  const down = (reason: unknown) => {
    clearInterval(healthTimer);
    const dead = client;
    client = null;
    void close(dead);
    if (stopped) return;
    options.onDown(reason);
    retryTimer = setTimeout(connect, backoffMs);
    retryTimer.unref();
    backoffMs = Math.min(backoffMs * 2, 30_000);
  };

  const connect = async () => {
    const next = new pg.Client({
      connectionString: options.databaseUrl,
      keepAlive: true,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      application_name: options.applicationName,
    });
    client = next;
    next.on("error", down);
    next.on("end", () => down(new Error("connection ended")));
    next.on("notification", (message) => {
      if (message.channel === options.channel && message.payload) options.onNotification(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${options.channel}`);
    } catch (error) {
      if (client === next) down(error);
      return;
    }
    if (stopped || client !== next) return;
    backoffMs = 500;
    options.onUp();
    healthTimer = setInterval(() => {
      const probe = setTimeout(() => {
        if (client === next) down(new Error("listener health check timed out"));
      }, PROBE_TIMEOUT_MS);
      next.query("SELECT 1").then(
        () => clearTimeout(probe),
        (error) => {
          clearTimeout(probe);
          if (client === next) down(error);
        },
      );
    }, HEALTH_CHECK_MS);
    healthTimer.unref();
  };

  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    clearInterval(healthTimer);
    const last = client;
    client = null;
    await close(last);
  };
}
