import pg from "pg";

/**
 * Every statement the bot sends is raw SQL through this: a tagged template whose values go as
 * parameters, on the connection a `Tx` stands for (db.ts). Prisma's query builder costs the bot
 * about four times the CPU of the same statement sent by `pg` (bench/statements.ts), and routing
 * it down our own transactions needed Prisma's internals; Prisma keeps the schema, the migrations,
 * the row types (`import type { Character } from "../generated/prisma/client.js"`) and the tests'
 * inspections.
 *
 * Results come back as Prisma's models have them: camelCase fields, jsonb parsed, TIMESTAMP(3)
 * columns as UTC Dates (the pool is configured in db.ts).
 */
export interface Sql {
  /** All rows of a query written as a template: `sql.rows<Flow>\`SELECT * FROM flow WHERE id = ${id}\``. */
  rows<T>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]>;
  /** The first row, or null. */
  one<T>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T | null>;
  /** Runs a statement; returns how many rows it changed. */
  run(strings: TemplateStringsArray, ...values: unknown[]): Promise<number>;
  /**
   * A statement whose text is built in code, for what a parameter cannot be (a table name taken
   * from a fixed list of our own): `$1`, `$2`… in `text` are `values`. Never put input in `text`.
   */
  rowsOfText<T>(text: string, values: readonly unknown[]): Promise<T[]>;
}

type Queryable = Pick<pg.ClientBase, "query">;

/** `snake_case` → `camelCase`, remembered per column name. */
const fieldNames = new Map<string, string>();
function fieldName(column: string): string {
  let name = fieldNames.get(column);
  if (name === undefined) {
    name = column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    fieldNames.set(column, name);
  }
  return name;
}

export function modelFromRow<T>(row: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const column in row) out[fieldName(column)] = row[column];
  return out as T;
}

/** Objects and arrays go as JSON text (pg would send an array as a PostgreSQL array literal). */
function parameter(value: unknown): unknown {
  if (value === undefined) return null;
  if (value !== null && typeof value === "object" && !(value instanceof Date)) return JSON.stringify(value);
  return value;
}

/** A list of integer ids as one parameter: write `= ANY(${intArray(ids)}::int[])` (arrays otherwise go as JSON). */
export function intArray(ids: readonly number[]): string {
  return `{${ids.map((id) => Math.trunc(id)).join(",")}}`;
}

/** One value as SQL text (what `parameter` would send, written as a literal: quoted and escaped by pg). */
function literal(value: unknown): string {
  const sent = parameter(value);
  if (sent === null) return "NULL";
  if (typeof sent === "number") {
    if (!Number.isFinite(sent)) throw new Error(`not a number PostgreSQL can store: ${sent}`);
    return String(sent);
  }
  if (typeof sent === "bigint") return String(sent);
  if (typeof sent === "boolean") return sent ? "true" : "false";
  // TIMESTAMP(3) columns hold UTC: an ISO time's zone is dropped by PostgreSQL, leaving UTC.
  if (sent instanceof Date) return pg.escapeLiteral(sent.toISOString());
  return pg.escapeLiteral(String(sent));
}

/** Each statement's text and name, by its template (one per place in the code: the same object every call). */
const prepared = new WeakMap<TemplateStringsArray, { text: string; name: string }>();
let statementsNamed = 0;

/**
 * A named statement: PostgreSQL parses it once per connection and keeps its plan, instead of
 * parsing and planning it again on every call (pg sends the Parse only the first time on each
 * connection). Its name stands for its text for good: a template's text never changes.
 */
function named(strings: TemplateStringsArray): { text: string; name: string } {
  let known = prepared.get(strings);
  if (!known) {
    let text = strings[0]!;
    for (let i = 1; i < strings.length; i++) text += `$${i}${strings[i]}`;
    known = { text, name: `s${++statementsNamed}` };
    prepared.set(strings, known);
  }
  return known;
}

function statement(
  strings: TemplateStringsArray,
  values: unknown[],
): { text: string; name: string; values: unknown[] } {
  return { ...named(strings), values: values.map(parameter) };
}

/**
 * A named statement with its values written as literals (escaped by pg), for the few places that
 * send several statements in one round trip, which only the simple protocol allows — it takes no
 * parameters: a transaction's opening with its BEGIN, its last writes with its COMMIT (db.ts).
 * It is sent as `EXECUTE name(values…)` (`batchText`): parsed and planned once per connection too.
 */
export interface BatchedStatement {
  name: string;
  text: string;
  literals: string[];
}

export function literalSql(strings: TemplateStringsArray, ...values: unknown[]): BatchedStatement {
  const { name, text } = named(strings);
  // Its own name: a template used both ways (`Tx.later` outside a transaction sends it as a
  // parameterised statement) must not meet its other self on one connection.
  return { name: `b${name.slice(1)}`, text, literals: values.map(literal) };
}

/** A write's target: `INSERT INTO t`, `UPDATE t`, `DELETE FROM t` (also inside a CTE). */
const WRITE_TARGET = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:ONLY\s+)?"?([a-z_][a-z0-9_]*)"?/gi;
/** By statement text: statements come from templates, so the texts are few (bounded all the same). */
const writtenByText = new Map<string, readonly string[]>();

/**
 * The tables a statement writes, by its text. It errs only towards naming too many (`FOR UPDATE
 * SKIP LOCKED` names "skip"): what it is for, forgetting rows read earlier, then forgets more.
 */
export function tablesWrittenBy(text: string): readonly string[] {
  let written = writtenByText.get(text);
  if (!written) {
    written = [...new Set(Array.from(text.matchAll(WRITE_TARGET), (m) => m[1]!.toLowerCase()))];
    if (writtenByText.size < 4096) writtenByText.set(text, written);
  }
  return written;
}

/** The statements each connection has prepared by name (a connection lost takes its own with it). */
const preparedOn = new WeakMap<object, Set<string>>();

/**
 * Batched statements as one simple-protocol text for `connection`, each an EXECUTE of its named
 * statement, PREPAREd first the first time this connection sees it. A PREPARE stays even if the
 * text fails after it (prepared statements are not transactional), so it is noted as sent; only a
 * PREPARE that itself fails (a statement that cannot work) would leave a later EXECUTE failing too.
 */
export function batchText(connection: object, statements: readonly BatchedStatement[]): string {
  let known = preparedOn.get(connection);
  if (!known) {
    known = new Set();
    preparedOn.set(connection, known);
  }
  const parts: string[] = [];
  for (const { name, text, literals } of statements) {
    if (!known.has(name)) {
      parts.push(`PREPARE ${name} AS ${text}`);
      known.add(name);
    }
    parts.push(literals.length > 0 ? `EXECUTE ${name}(${literals.join(", ")})` : `EXECUTE ${name}`);
  }
  return parts.join(";\n");
}

/** After "prepared statement … does not exist" (26000): the connection's bookkeeping starts again. */
export function forgetPrepared(connection: object): void {
  preparedOn.delete(connection);
}

/**
 * `deadlineMs`: how long a statement may go unanswered before its connection is closed (db.ts);
 * shorter than the default for statements that never wait for a lock, so a frozen server is
 * noticed sooner.
 */
export function sqlOn(target: Queryable | (() => Queryable), options: { deadlineMs?: number } = {}): Sql {
  const on = typeof target === "function" ? target : () => target;
  const send = (strings: TemplateStringsArray, values: unknown[]) =>
    on().query({ ...statement(strings, values), ...options } as pg.QueryConfig);
  return {
    async rows<T>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]> {
      const result = await send(strings, values);
      return result.rows.map((row) => modelFromRow<T>(row));
    },
    async one<T>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T | null> {
      const result = await send(strings, values);
      return result.rows[0] ? modelFromRow<T>(result.rows[0]) : null;
    },
    async run(strings: TemplateStringsArray, ...values: unknown[]): Promise<number> {
      return (await send(strings, values)).rowCount ?? 0;
    },
    async rowsOfText<T>(text: string, values: readonly unknown[]): Promise<T[]> {
      const result = await on().query({ text, values: values.map(parameter), ...options } as pg.QueryConfig);
      return result.rows.map((row) => modelFromRow<T>(row));
    },
  };
}
