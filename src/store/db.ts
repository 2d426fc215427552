import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { Prisma, PrismaClient } from "../generated/prisma/client.js";
import { type Sql, sqlOn, transactionScope } from "./sql.js";

export { Prisma, PrismaClient };
export type Db = PrismaClient;
/** A transaction client: what use cases get inside `inTransaction`. */
export type Tx = Prisma.TransactionClient;

/** Well above any real query or table-lock wait; the router has deferred its answer long before. */
const QUERY_DEADLINE_MS = 5000;

/**
 * A connection whose query gets no answer within the deadline (the server is frozen, or the network
 * is cut) is closed: the query fails at once, PostgreSQL rolls back whatever transaction was open on
 * it, and the pool opens a fresh one. (pg's own `query_timeout` would return the connection to the
 * pool still inside its transaction, where the next user's work could be committed with it.)
 */
class DeadlineClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this only wraps it
  override query(...args: any[]): any {
    const timer = setTimeout(() => {
      (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    }, QUERY_DEADLINE_MS);
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

/** A pool whose connection for a transaction run in `transactionScope` is remembered there. */
class TransactionAwarePool extends pg.Pool {
  // biome-ignore lint/suspicious/noExplicitAny: pg's connect has callback and promise overloads
  override connect(...args: any[]): any {
    const scope = transactionScope.getStore();
    const connecting = super.connect(...(args as []));
    if (scope && !scope.client && connecting && typeof connecting.then === "function") {
      return connecting.then((client: pg.PoolClient) => {
        scope.client = client;
        return client;
      });
    }
    return connecting;
  }
}

const pools = new WeakMap<object, pg.Pool>();

/**
 * Raw SQL on the connection `tx` stands for: inside a transaction run by execute.ts, that
 * transaction's connection; with the plain client, the pool.
 */
export function sqlFor(tx: Db | Tx): Sql {
  const client = transactionScope.getStore()?.client;
  if (client) return sqlOn(client);
  const pool = pools.get(tx);
  if (!pool) throw new Error("raw SQL asked for outside a transaction scope and without the plain client");
  return sqlOn(pool);
}

export function createDb(databaseUrl: string, options: { poolSize?: number } = {}): Db {
  const pool = new TransactionAwarePool({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    // Fail fast when PostgreSQL is down, so users hear "temporarily unavailable" within Discord's 3 s.
    connectionTimeoutMillis: 1500,
    idleTimeoutMillis: 30_000,
    Client: DeadlineClient as unknown as new () => pg.ClientBase,
    types: rawTypes,
  });
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(db, pool);
  return db;
}
