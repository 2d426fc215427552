import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { Prisma, PrismaClient } from "../generated/prisma/client.js";
import { type Sql, sqlOn, transactionScope } from "./sql.js";

export { Prisma, PrismaClient };
export type Db = PrismaClient;
/** A transaction client: what mutating use cases get (see `inTransaction`). */
export type Tx = Prisma.TransactionClient;

/** Well above any real query or table-lock wait; the router has deferred its answer long before. */
const QUERY_DEADLINE_MS = 5000;
/** For statements that never wait for a lock (BEGIN, a lookup by key): this long means PostgreSQL is not answering. */
export const QUICK_DEADLINE_MS = 1500;

/**
 * A connection whose query gets no answer within the deadline (the server is frozen, or the network
 * is cut) is closed: the query fails at once, PostgreSQL rolls back whatever transaction was open on
 * it, and the pool opens a fresh one. (pg's own `query_timeout` would return the connection to the
 * pool still inside its transaction, where the next user's work could be committed with it.)
 */
class DeadlineClient extends pg.Client {
  /** Why this connection broke, if it did: it is then closed for good, never given back to the pool. */
  failure: Error | undefined;

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // From the moment it exists, not only while it sits idle in the pool (the pool listens then):
    // an 'error' with no listener — PostgreSQL restarted under a transaction — would end the
    // process. The statement in flight fails with the error itself; later ones fail at once.
    this.on("error", (error: Error) => {
      this.failure ??= error;
    });
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this only wraps it
  override query(...args: any[]): any {
    const deadline = (args[0] as { deadlineMs?: number } | undefined)?.deadlineMs ?? QUERY_DEADLINE_MS;
    const timer = setTimeout(() => {
      (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    }, deadline);
    timer.unref();
    const last = args.at(-1);
    if (typeof last === "function") {
      args[args.length - 1] = (...results: unknown[]) => {
        clearTimeout(timer);
        last(...results);
      };
      return super.query(...(args as [string]));
    }
    const pending = super.query(...(args as [string]));
    if (pending && typeof pending.then === "function") {
      pending.then(
        () => clearTimeout(timer),
        () => clearTimeout(timer),
      );
    } else {
      clearTimeout(timer);
    }
    return pending;
  }
}

/**
 * Prisma DateTime columns are TIMESTAMP(3) holding UTC: raw statements read and write them as UTC
 * too, whatever the process's time zone (Prisma's adapter does its own conversions).
 */
pg.defaults.parseInputDatesAsUTC = true;
const TIMESTAMP_OID = 1114;
const rawTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_OID && format !== "binary"
      ? (value: string) => new Date(`${value.replace(" ", "T")}Z`)
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/**
 * Inside `inTransaction`, everything sent through the pool goes down that transaction's connection
 * instead: the query builder's statements (Prisma's adapter queries the pool) as well as raw ones.
 * A transaction Prisma opens by itself in there (for a write of several statements) becomes a
 * savepoint of ours.
 */
class TransactionAwarePool extends pg.Pool {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this only routes it
  override query(...args: any[]): any {
    const client = transactionScope.getStore()?.client;
    return client ? client.query(...(args as [string])) : super.query(...(args as [string]));
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's connect has callback and promise overloads
  override connect(...args: any[]): any {
    const client = transactionScope.getStore()?.client;
    if (!client) return super.connect(...(args as []));
    const nested = asSavepoint(client);
    if (typeof args[0] === "function") {
      args[0](undefined, nested, () => {});
      return undefined;
    }
    return Promise.resolve(nested);
  }
}

let savepoints = 0;

/** The transaction's connection as a nested transaction: BEGIN/COMMIT/ROLLBACK act on a savepoint. */
function asSavepoint(client: pg.PoolClient): pg.PoolClient {
  const name = `nested_${++savepoints}`;
  const replacement: Record<string, string> = {
    BEGIN: `SAVEPOINT ${name}`,
    COMMIT: `RELEASE SAVEPOINT ${name}`,
    ROLLBACK: `ROLLBACK TO SAVEPOINT ${name}`,
  };
  return new Proxy(client, {
    get(target, property) {
      if (property === "release") return () => {};
      if (property === "query") {
        // biome-ignore lint/suspicious/noExplicitAny: forwards pg's query overloads unchanged
        return (config: any, ...rest: any[]) => {
          const text = typeof config === "string" ? config : config?.text;
          const instead = typeof text === "string" ? replacement[text.trim().toUpperCase()] : undefined;
          if (instead) config = typeof config === "string" ? instead : { ...config, text: instead };
          return target.query(config, ...rest);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * The query builder as a transaction's statements may use it: `findUnique` becomes `findFirst`
 * (same rows), because Prisma batches the `findUnique`s of one tick into one statement — which
 * could then run on another transaction's connection.
 */
function builderInTransaction(db: Db): Tx {
  const models = new Map<PropertyKey, unknown>();
  return new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value === "function") return value.bind(target);
      if (typeof property !== "string" || property.startsWith("$") || typeof value !== "object" || !value)
        return value;
      let model = models.get(property);
      if (!model) {
        const delegate = value as Record<string, unknown>;
        model = new Proxy(delegate, {
          get(inner, method) {
            const name =
              method === "findUnique"
                ? "findFirst"
                : method === "findUniqueOrThrow"
                  ? "findFirstOrThrow"
                  : method;
            const fn = Reflect.get(inner, name, inner);
            return typeof fn === "function" ? fn.bind(inner) : fn;
          },
        });
        models.set(property, model);
      }
      return model;
    },
  }) as unknown as Tx;
}

/**
 * One transaction of our own: BEGIN … COMMIT on one pooled connection, with every statement of
 * `work` on it — raw (`sqlFor`) and query builder alike — so they commit or roll back together.
 * Prisma's interactive transactions cost the bot about 0.6 ms more CPU each (a microbenchmark:
 * 1.5 vs 0.9 ms for three statements).
 */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  const pool = pools.get(db);
  if (!pool) throw new Error("inTransaction needs a client made by createDb");
  const client = (await pool.connect()) as pg.PoolClient & { failure?: Error };
  const scope = { client: client as pg.PoolClient | null };
  let broken: Error | undefined;
  try {
    // BEGIN answers at once unless the server is frozen: then fail fast, well within Discord's 3 s.
    await client.query({ text: "BEGIN", deadlineMs: QUICK_DEADLINE_MS } as pg.QueryConfig);
    const result = await transactionScope.run(scope, () => work(builderInTransaction(db)));
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((e: Error) => {
      broken = e;
    });
    throw error;
  } finally {
    // Anything still running in the scope after this goes to the pool, not to a released connection.
    scope.client = null;
    // A connection that failed is closed, not given back: the next user gets a fresh one.
    client.release(broken ?? client.failure);
  }
}

const pools = new WeakMap<object, pg.Pool>();

/**
 * Raw SQL on the connection `tx` stands for: inside a transaction run by execute.ts, that
 * transaction's connection; with the plain client, the pool.
 */
export function sqlFor(tx: Db | Tx, options: { deadlineMs?: number } = {}): Sql {
  const client = transactionScope.getStore()?.client;
  if (client) return sqlOn(client, options);
  const pool = pools.get(tx);
  if (!pool) throw new Error("raw SQL asked for outside a transaction scope and without the plain client");
  return sqlOn(pool, options);
}

export function createDb(
  databaseUrl: string,
  options: {
    poolSize?: number;
    /** Told about each connection that breaks (PostgreSQL restarted, the network dropped), idle or in use. */
    onConnectionError?: (error: Error) => void;
  } = {},
): Db {
  const pool = new TransactionAwarePool({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    // Fail fast when PostgreSQL is down, so users hear "temporarily unavailable" within Discord's 3 s.
    connectionTimeoutMillis: 1500,
    idleTimeoutMillis: 30_000,
    Client: DeadlineClient as unknown as new () => pg.ClientBase,
    types: rawTypes,
  });
  // An idle connection that dies (PostgreSQL restarted) is dropped and replaced by the pool; without a
  // listener its error would crash the process. (Prisma adds one only once its own engine connects,
  // and the hot paths do not go through it.)
  pool.on("error", () => {});
  const report = options.onConnectionError;
  if (report) pool.on("connect", (client) => client.on("error", report));
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(db, pool);
  return db;
}

/** Disconnects the query builder and closes the pool, whether or not the query builder was ever used. */
export async function closeDb(db: Db): Promise<void> {
  await db.$disconnect();
  const pool = pools.get(db);
  if (pool && !pool.ending && !pool.ended) await pool.end();
}

/** PostgreSQL unreachable or failing: the user hears "temporarily unavailable, nothing was changed". */
export function isDatabaseUnavailable(error: unknown): boolean {
  const text = `${(error as Error)?.name ?? ""} ${(error as Error)?.message ?? ""} ${(error as { code?: string })?.code ?? ""}`;
  // 57P01–57P03: the server is shutting down, restarting or recovering; 08xxx: the connection failed;
  // "timeout expired": pg's client found no server answering its connection in time.
  return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ENOTFOUND|P1001|P1002|P1017|P2024|\b57P0[1-3]\b|\b08(000|001|003|004|006|P01)\b|timeout exceeded when trying to connect|timeout expired|Connection terminated|Query read timeout|DatabaseNotReachable|Can't reach database|the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)|terminating connection|not queryable|Unable to start a transaction/i.test(
    text,
  );
}
