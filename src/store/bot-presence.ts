import pg from "pg";

/**
 * An arbitrary constant: the advisory lock every running bot process holds shared on its
 * database (several shard processes may share one), and that a restore takes exclusively — so a
 * restore is refused while any bot process runs, and a bot that starts during a restore waits.
 */
export const BOT_PRESENCE_LOCK_KEY = 7_241_905_114;

export interface BotPresence {
  release(): Promise<void>;
}

interface PresenceLog {
  warn(obj: object, msg: string): void;
}

/**
 * Holds the presence lock on a connection of its own for as long as the bot runs. A broken
 * connection (the server restarted) loses the lock with it, so it is taken again on a new one.
 */
export async function holdBotPresence(databaseUrl: string, log?: PresenceLog): Promise<BotPresence> {
  let client: pg.Client | null = null;
  let released = false;
  let retry: NodeJS.Timeout | undefined;

  async function take(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl, application_name: "storybot presence" });
    next.on("error", () => {}); // the 'end' below takes it from here
    await next.connect();
    next.on("end", () => {
      if (released || client !== next) return;
      client = null;
      log?.warn({}, "the bot's presence lock connection closed; taking it again");
      retakeSoon();
    });
    client = next;
    // Waits while a restore holds the lock exclusively, then runs on the restored database. A
    // failure ends the connection, and its 'end' takes the lock again.
    await next.query("SELECT pg_advisory_lock_shared($1)", [BOT_PRESENCE_LOCK_KEY]).catch(() => next.end());
  }

  function retakeSoon(): void {
    retry = setTimeout(() => {
      if (released) return;
      take().catch(() => retakeSoon());
    }, 1000);
    retry.unref();
  }

  await take();
  return {
    async release() {
      released = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
      client = null;
    },
  };
}
