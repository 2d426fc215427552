import { PrismaPg } from "@prisma/adapter-pg";
import { klona } from "klona";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client.js";
import {
  type BatchedStatement,
  batchText,
  forgetPrepared,
  literalSql,
  type Sql,
  sqlOn,
  tablesWrittenBy,
} from "./sql.js";

/**
 * The database: Prisma's client on our pool. The bot sends every statement as raw SQL (`sqlFor`);
 * the client is there for tests' inspections (`db.character.findMany`).
 */
export type Db = PrismaClient;

/** Well above any real query or table-lock wait; the router has deferred its answer long before. */
const QUERY_DEADLINE_MS = 5000;
/** For statements that never wait for a lock (BEGIN, a lookup by key): this long means PostgreSQL is not answering. */
export const QUICK_DEADLINE_MS = 1500;
/** A transaction's BEGIN with its first statement, which may wait for the table's lock. */
const OPENING_DEADLINE_MS = 3000;

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

let savepoints = 0;

/**
 * Rows most actions of a kind read first (the actor's characters, a Beast Hunters table's
 * reserve, a game's open flows), which execute.ts sends with the transaction's opening, in its
 * round trip. The store module that owns the rows defines the read and takes its rows from the
 * transaction (`openedRows`).
 */
export interface OpeningRead {
  /** The statement, for the action's table and actor. */
  statement(at: OpeningScope): BatchedStatement;
  /** Whose rows those are: a lookup for others queries instead. */
  scope(at: OpeningScope): string;
  /** The table the rows come from: once the transaction writes it, they are forgotten. */
  table: string;
}

/** Where an action runs: its table (locked by the opening) and the one who acted. */
export interface OpeningScope {
  tableId: number;
  userId: string;
}

/**
 * Where a use case's statements go, passed down explicitly as `ctx.tx`: the connection of one
 * transaction of ours (`inTransaction`), or, for a use case that only reads, the pool (each
 * statement on its own). Statements go through `sqlFor(tx)` (or `tx.sql()`): raw SQL, with row
 * types from Prisma's generated models.
 */
export class Tx {
  /**
   * game_table rows this transaction wrote (by id; "new" for a table created): execute.ts has the
   * table cache forget them before the answer goes out. Every write to game_table goes through
   * src/store/tables.ts, which notes it here.
   */
  readonly tablesWritten = new Set<number | "new">();
  /** Rows read with the opening (`openedRows`), by what they are and whose they are. */
  private readonly opened = new Map<OpeningRead, { scope: string; rows: Record<string, unknown>[] }>();
  private connection: Queryable | null;
  private readonly plain: Sql;
  /** Appends waiting for the next statement or the COMMIT, their values as literals (see `later`). */
  private pending: BatchedStatement[] = [];

  constructor(
    connection: Queryable,
    /** Whether `connection` is a transaction's own (savepoints need one). */
    readonly isTransaction: boolean,
  ) {
    this.connection = connection;
    const flushing: Queryable = {
      query: (async (config: pg.QueryConfig) => {
        this.forgetWrittenBy(config.text);
        await this.flush();
        return this.open().query(config);
      }) as Queryable["query"],
    };
    this.plain = sqlOn(flushing);
    this.withDeadline = (options) => sqlOn(flushing, options);
  }

  private readonly withDeadline: (options: { deadlineMs?: number }) => Sql;

  private open(): Queryable {
    // A statement sent after the transaction ended would run on a connection given back to the pool.
    if (!this.connection) throw new Error("statement sent after its transaction ended");
    return this.connection;
  }

  sql(options: { deadlineMs?: number } = {}): Sql {
    return options.deadlineMs === undefined ? this.plain : this.withDeadline(options);
  }

  /** What an opening read brought (execute.ts), for the store module that owns those rows. */
  noteOpened(read: OpeningRead, scope: string, rows: Record<string, unknown>[]): void {
    this.opened.set(read, { scope, rows });
  }

  /**
   * The rows `read` brought with the opening for `scope` (a table, a user), or undefined: then the
   * caller queries. Every statement this transaction sends or queues that writes the read's table
   * forgets them first (`forgetWrittenBy`), so they are never staler than a query would be. Each
   * lookup gets its own copy, as from a query: one that changes a row's JSON in place changes no
   * other's. With `keep`, only the rows it keeps (and only they are copied).
   */
  openedRows(
    read: OpeningRead,
    scope: string,
    keep?: (row: Record<string, unknown>) => boolean,
  ): Record<string, unknown>[] | undefined {
    const opened = this.opened.get(read);
    if (opened?.scope !== scope) return undefined;
    // klona, not structuredClone: the same copy (plain values, arrays, Dates) at a quarter of the CPU.
    return klona(keep ? opened.rows.filter(keep) : opened.rows);
  }

  /** Forgets the opening's rows of every table `text` writes (INSERT, UPDATE or DELETE, in a CTE too). */
  private forgetWrittenBy(text: string): void {
    if (this.opened.size === 0) return;
    const written = tablesWrittenBy(text);
    if (written.length === 0) return;
    for (const read of this.opened.keys()) if (written.includes(read.table)) this.opened.delete(read);
  }

  /**
   * A write nothing in the transaction reads back before it commits (a log entry, rolled dice):
   * sent with the COMMIT in one round trip, or just before the next statement if one follows —
   * in the order written either way. Outside a transaction it is sent at once.
   */
  async later(strings: TemplateStringsArray, ...values: unknown[]): Promise<void> {
    if (!this.isTransaction) {
      await this.plain.run(strings, ...values);
      return;
    }
    this.open();
    const write = literalSql(strings, ...values);
    this.forgetWrittenBy(write.text);
    this.pending.push(write);
  }

  /**
   * Statements that need no result of one another, sent in one round trip (after the writes still
   * waiting, in order): each statement's rows. Only in a transaction, whose one connection keeps
   * what it prepared.
   */
  async batch(statements: readonly BatchedStatement[]): Promise<Record<string, unknown>[][]> {
    if (!this.isTransaction) throw new Error("a batch of statements needs a transaction");
    const connection = this.open();
    for (const statement of statements) this.forgetWrittenBy(statement.text);
    const waiting = this.pending.length;
    const text = batchText(connection, [...this.pending, ...statements]);
    this.pending = [];
    const sent = (await connection.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
    // Each EXECUTE's rows, the waiting writes' first; a PREPARE's result carries none.
    const results = (Array.isArray(sent) ? sent : [sent]).filter((result) => result.command !== "PREPARE");
    return results.slice(waiting).map((result) => result.rows);
  }

  /** The waiting writes as one text of statements run in order, taken off the queue ("" when none wait). */
  private takePending(): string {
    if (this.pending.length === 0) return "";
    const writes = batchText(this.open(), this.pending);
    this.pending = [];
    return writes;
  }

  private async flush(): Promise<void> {
    const writes = this.takePending();
    if (writes) await this.open().query(writes);
  }

  /** The statement that ends the transaction, with the appends still waiting. */
  commitText(): string {
    const writes = this.takePending();
    return writes ? `${writes}; COMMIT` : "COMMIT";
  }

  /** A savepoint: `work` rolls back alone if it throws, and the transaction goes on (character import replays steps this way). */
  async savepoint<T>(work: () => Promise<T>): Promise<T> {
    if (!this.isTransaction) throw new Error("a savepoint needs a transaction");
    const name = `step_${++savepoints}`;
    await this.flush();
    const connection = this.open();
    await connection.query(`SAVEPOINT ${name}`);
    let result: T;
    try {
      result = await work();
    } catch (error) {
      // Appends made inside the savepoint are rolled back with it.
      this.pending = [];
      await connection.query(`ROLLBACK TO SAVEPOINT ${name}`);
      throw error;
    }
    await this.flush();
    await connection.query(`RELEASE SAVEPOINT ${name}`);
    return result;
  }

  /** The transaction is over: its connection is no longer this Tx's to use. */
  end(): void {
    this.connection = null;
    this.pending = [];
  }
}

type Queryable = Pick<pg.ClientBase, "query">;

/** Statements straight on the pool, each on its own: what a use case that only reads gets as its `tx`. */
export function outsideTransaction(db: Db): Tx {
  return new Tx(poolOf(db), false);
}

/**
 * One transaction of our own: BEGIN … COMMIT on one pooled connection, with every statement of
 * `work` sent through its `tx`, so they commit or roll back together. Prisma's interactive
 * transactions cost the bot about 0.6 ms more CPU each (a microbenchmark: 1.5 vs 0.9 ms for three
 * statements).
 */
export async function inTransaction<T>(
  db: Db,
  work: (tx: Tx, opened: Record<string, unknown>[][]) => Promise<T>,
  /**
   * First statements sent with the BEGIN in one round trip (written with `literalSql`, as only
   * the simple protocol takes several statements at once): their rows, in order, are `work`'s
   * second argument.
   */
  opening: readonly BatchedStatement[] = [],
): Promise<T> {
  const client = (await poolOf(db).connect()) as pg.PoolClient & { failure?: Error };
  const tx = new Tx(client, true);
  let broken: Error | undefined;
  try {
    let opened: Record<string, unknown>[][] = [];
    if (opening.length > 0) {
      // It may wait for a table lock (milliseconds, normally): a little longer than a BEGIN alone,
      // still short enough that a frozen server is noticed well within Discord's 15 minutes.
      const results = (await client.query({
        text: `BEGIN; ${batchText(client, opening)}`,
        deadlineMs: OPENING_DEADLINE_MS,
      } as pg.QueryConfig)) as unknown as pg.QueryResult[];
      // Each EXECUTE's rows; the BEGIN's and any PREPARE's results carry none.
      opened = results
        .slice(1)
        .filter((result) => result.command !== "PREPARE")
        .map((result) => result.rows);
    } else {
      // BEGIN answers at once unless the server is frozen: then fail fast, well within Discord's 3 s.
      await client.query({ text: "BEGIN", deadlineMs: QUICK_DEADLINE_MS } as pg.QueryConfig);
    }
    const result = await work(tx, opened);
    await client.query(tx.commitText());
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((e: Error) => {
      broken = e;
    });
    // invalid_sql_statement_name: a statement this connection was thought to have prepared.
    if ((error as { code?: string }).code === "26000") forgetPrepared(client);
    throw error;
  } finally {
    // Anything still sent through this tx fails at once instead of landing on a released connection.
    tx.end();
    // A connection that failed is closed, not given back: the next user gets a fresh one.
    client.release(broken ?? client.failure);
  }
}

const pools = new WeakMap<object, { pool: pg.Pool; sql: Sql }>();

function poolOf(db: Db): pg.Pool {
  const entry = pools.get(db);
  if (!entry) throw new Error("a database client made by createDb is needed");
  return entry.pool;
}

/** Raw SQL on the connection `tx` stands for: a Tx's own (its transaction's, or the pool), or a Db's pool. */
export function sqlFor(tx: Db | Tx, options: { deadlineMs?: number } = {}): Sql {
  if (tx instanceof Tx) return tx.sql(options);
  const entry = pools.get(tx);
  if (!entry) throw new Error("raw SQL needs a Tx or a database client made by createDb");
  return options.deadlineMs === undefined ? entry.sql : sqlOn(entry.pool, options);
}

export function createDb(
  databaseUrl: string,
  options: {
    poolSize?: number;
    /** Told about each connection that breaks (PostgreSQL restarted, the network dropped), idle or in use. */
    onConnectionError?: (error: Error) => void;
  } = {},
): Db {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    // Fail fast when PostgreSQL is down, so users hear "temporarily unavailable" within Discord's 3 s.
    connectionTimeoutMillis: 1500,
    idleTimeoutMillis: 30_000,
    Client: DeadlineClient as unknown as new () => pg.ClientBase,
    types: rawTypes,
  });
  // An idle connection that dies (PostgreSQL restarted) is dropped and replaced by the pool; without a
  // listener its error would crash the process.
  pool.on("error", () => {});
  const report = options.onConnectionError;
  if (report) pool.on("connect", (client) => client.on("error", report));
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(db, { pool, sql: sqlOn(pool) });
  return db;
}

/** Disconnects Prisma's client (tests' inspections) and closes the pool, whether or not the client was ever used. */
export async function closeDb(db: Db): Promise<void> {
  await db.$disconnect();
  const pool = pools.get(db)?.pool;
  if (pool && !pool.ending && !pool.ended) await pool.end();
}

/** PostgreSQL unreachable or failing: the user hears "temporarily unavailable, nothing was changed". */
export function isDatabaseUnavailable(error: unknown): boolean {
  const text = `${(error as Error)?.name ?? ""} ${(error as Error)?.message ?? ""} ${(error as { code?: string })?.code ?? ""}`;
  // 57P01–57P03: the server is shutting down, restarting or recovering; 08xxx: the connection failed;
  // "timeout expired": pg's client found no server answering its connection in time; "connect ENOENT":
  // no server socket (a stopped server removes its Unix socket).
  return /ECONNREFUSED|connect ENOENT|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ENOTFOUND|P1001|P1002|P1017|P2024|\b57P0[1-3]\b|\b08(000|001|003|004|006|P01)\b|timeout exceeded when trying to connect|timeout expired|Connection terminated|Query read timeout|DatabaseNotReachable|Can't reach database|the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)|terminating connection|not queryable|Unable to start a transaction/i.test(
    text,
  );
}
