import type { GameTable } from "../generated/prisma/client.js";
import { langFromLocale } from "../i18n/index.js";
import type { DiceSource } from "../rules/dice.js";
import { DomainError } from "../rules/errors.js";
import { liveTableCharactersRead, ownedCharactersRead } from "../store/characters.js";
import { type Db, inTransaction, type OpeningRead, outsideTransaction } from "../store/db.js";
import { type BatchedStatement, literalSql, modelFromRow } from "../store/sql.js";
import { activeTable, lockTableStatement, tableById } from "../store/tables.js";
import { recordingDice, storeRolledDice } from "./dice-record.js";
import { hooksFor } from "./hooks.js";
import type { Intent } from "./intent.js";
import { publicLanguage, rememberUserLanguage } from "./languages.js";
import { cleanName } from "./names.js";
import type { TableCache } from "./table-cache.js";
import type { ActionContext, ActionResult, Invocation, System, UseCase } from "./use-case.js";

export interface AppDeps {
  db: Db;
  dice: DiceSource;
  clock?: () => Date;
  /** The channels' active tables in memory (kept coherent by the database); absent = always query. */
  tables?: TableCache;
}

/** The interaction was already applied (a redelivery after a gateway resume, or another process got it). */
export class AlreadyProcessed extends Error {
  constructor() {
    super("interaction already processed");
  }
}

export interface Executed {
  result: ActionResult;
  useCase: UseCase;
  table: GameTable | null;
}

export { activeTable } from "../store/tables.js";

export class UseCaseRegistry {
  private readonly byType = new Map<string, UseCase[]>();

  constructor(useCases: readonly UseCase<Intent>[]) {
    for (const u of useCases) {
      const list = this.byType.get(u.type) ?? [];
      if (
        list.some(
          (other) => !other.systems || !u.systems || other.systems.some((s) => u.systems!.includes(s)),
        )
      ) {
        throw new Error(`Two use cases claim ${u.type} for the same system`);
      }
      list.push(u);
      this.byType.set(u.type, list);
    }
  }

  candidates(type: string): UseCase[] {
    return this.byType.get(type) ?? [];
  }
}

/** The channel's active table outside a transaction: from the cache when there is one. */
export function channelTable(
  deps: Pick<AppDeps, "db" | "tables">,
  channelId: string,
): Promise<GameTable | null> {
  return deps.tables
    ? deps.tables.get(channelId, () => activeTable(deps.db, channelId))
    : activeTable(deps.db, channelId);
}

/**
 * Records the interaction id and locks and reads the table row, in one statement sent with the
 * BEGIN (one round trip instead of four on every mutating action): `inTransaction`'s opening.
 */
function recordAndLock(interactionId: string, tableId: number): BatchedStatement {
  return literalSql`
    WITH fresh AS (INSERT INTO processed_interaction (id) VALUES (${interactionId}) ON CONFLICT DO NOTHING RETURNING 1)
    SELECT (SELECT count(*) FROM fresh)::int AS is_fresh, g.* FROM game_table g WHERE g.id = ${tableId} FOR UPDATE OF g`;
}

/** `fresh` is false when the id was already recorded; `table` is null when the row is gone. */
function recorded(rows: Record<string, unknown>[]): { fresh: boolean; table: GameTable | null } {
  const row = rows[0];
  // The table row is gone (deleted under us): whether the id was new no longer matters.
  if (!row) return { fresh: true, table: null };
  const { isFresh, ...table } = modelFromRow<GameTable & { isFresh: number }>(row);
  return { fresh: isFresh === 1, table };
}

/** What a mutating action at a table reads with its lock: the actor's characters, and what the game names. */
function openingReadsAt(system: string): readonly OpeningRead[] {
  const game = hooksFor(system).openingReads ?? [];
  // A game that reads all the table's live characters has the actor's own among them.
  return game.includes(liveTableCharactersRead) ? game : [ownedCharactersRead, ...game];
}

/**
 * Locks a table an action found for itself (a DM's, a button's that names its flow), with the
 * reads `execute` would have sent with its opening, in one round trip; the store modules take
 * them from the transaction as usual. Outside a transaction (an action that only reads), the row
 * alone.
 */
export async function lockTableForAction(
  ctx: Pick<ActionContext, "tx" | "actor">,
  tableId: number,
  system: System,
): Promise<GameTable> {
  if (!ctx.tx.isTransaction) {
    const table = await tableById(ctx.tx, tableId);
    if (!table) throw new Error(`game_table ${tableId} not found`);
    return table;
  }
  const scope = { tableId, userId: ctx.actor.userId };
  const reads = openingReadsAt(system);
  const [locked = [], ...opened] = await ctx.tx.batch([
    lockTableStatement(tableId),
    ...reads.map((read) => read.statement(scope)),
  ]);
  if (!locked[0]) throw new Error(`game_table ${tableId} not found`);
  for (const [i, read] of reads.entries()) ctx.tx.noteOpened(read, read.scope(scope), opened[i] ?? []);
  return modelFromRow<GameTable>(locked[0]);
}

/** Records the interaction id alone (an action without a table), sent with the BEGIN. */
function recordOnly(interactionId: string): BatchedStatement {
  return literalSql`
    WITH fresh AS (INSERT INTO processed_interaction (id) VALUES (${interactionId}) ON CONFLICT DO NOTHING RETURNING 1)
    SELECT count(*)::int AS is_fresh FROM fresh`;
}

/** Picks the use case for the intent and the channel's table, or explains which game the command belongs to. */
export function chooseUseCase(candidates: UseCase[], table: GameTable | null, type: string): UseCase {
  if (candidates.length === 0) throw new DomainError("errors.staleAction");
  const fits = candidates.find((u) => !u.systems || (table && u.systems.includes(table.system as never)));
  if (fits) return fits;
  if (!table) throw new DomainError("errors.noTable");
  const systems = [...new Set(candidates.flatMap((u) => u.systems ?? []))];
  throw new DomainError("errors.wrongSystem", {
    command: type.split(".")[0]!,
    systems: systems.map((s) => `@system.${s}`).join(", "),
  });
}

/** Every id and counter is a PostgreSQL integer: larger numbers can only be forged or mistyped. */
const INT4_MAX = 2_147_483_647;

/** The path of the first number in an intent that no column could hold (or that is not finite), if any. */
function numberOutOfRange(value: unknown, path = ""): string | null {
  if (typeof value === "number")
    return Number.isFinite(value) && Math.abs(value) <= INT4_MAX ? null : path || "?";
  if (typeof value !== "object" || value === null) return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = numberOutOfRange(inner, path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return null;
}

/**
 * The one path for every action: pick the use case, validate the intent, and run it —
 * mutating ones in one transaction that records the interaction id (so a redelivered
 * interaction is applied at most once) and locks the table row.
 */
export async function execute(
  deps: AppDeps,
  registry: UseCaseRegistry,
  invocation: Invocation,
  rawIntent: Intent,
): Promise<Executed> {
  const candidates = registry.candidates(rawIntent.type);
  const needsTable = candidates.some((u) => u.table !== "none");
  const table = needsTable ? await channelTable(deps, invocation.channelId) : null;
  const useCase = chooseUseCase(candidates, table, rawIntent.type);
  if (useCase.table === "required" && !table) throw new DomainError("errors.noTable");

  const outOfRange = numberOutOfRange(rawIntent);
  if (outOfRange)
    throw new DomainError("errors.invalidInput", { field: outOfRange, problem: "out of range" });
  const parsed = useCase.schema.safeParse(rawIntent);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DomainError("errors.invalidInput", {
      field: issue?.path.join(".") || "?",
      problem: issue?.message ?? "",
    });
  }
  const intent = parsed.data as Intent;
  const now = deps.clock?.() ?? new Date();
  const userLang = langFromLocale(invocation.actor.locale);
  await rememberUserLanguage(deps.db, invocation.actor.userId, userLang);
  // Every die this interaction rolls is kept for the table's dice statistics.
  const dice = recordingDice(deps.dice);
  const base = {
    intent,
    invocation,
    actor: invocation.actor,
    publicLang: await publicLanguage(deps.db, useCase.table === "none" ? null : table, invocation.actor),
    userLang,
    db: deps.db,
    dice,
    now,
  };

  if (!useCase.mutates) {
    const visibleTable = useCase.table === "none" ? null : table;
    const result = await useCase
      .run({ ...base, table: visibleTable, tx: outsideTransaction(deps.db) })
      .catch(async (error: unknown) => {
        throw (await refusalForRace(deps.db, invocation, intent, error)) ?? error;
      });
    if (visibleTable) {
      await storeRolledDice(deps.db, visibleTable.id, invocation.actor.userId, intent, result, dice);
    }
    return { result, useCase, table };
  }

  // Writes to game_table by this action (src/store/tables.ts notes them in tx.tablesWritten) are
  // forgotten by the cache before anyone hears the answer (other processes learn of them by NOTIFY).
  let tablesWritten: ReadonlySet<number | "new"> | undefined;
  const lockedTable = table && useCase.table !== "none" ? table : null;
  const actorId = invocation.actor.userId;
  // At a table: what most actions read first comes too — the actor's own characters, and what
  // the game names (its hooks' `openingReads`); the store modules take them from the transaction.
  const scope = lockedTable ? { tableId: lockedTable.id, userId: actorId } : null;
  const reads = lockedTable ? openingReadsAt(lockedTable.system) : [];
  const opening = scope
    ? [recordAndLock(invocation.interactionId, scope.tableId), ...reads.map((read) => read.statement(scope))]
    : [recordOnly(invocation.interactionId)];
  const result = await inTransaction(
    deps.db,
    async (tx, [record = [], ...opened]) => {
      tablesWritten = tx.tablesWritten;
      let locked: GameTable | null = null;
      if (scope) {
        const { fresh, table: row } = recorded(record);
        if (!fresh) throw new AlreadyProcessed();
        if (row?.status !== "active") throw new DomainError("errors.noTable");
        locked = row;
        for (const [i, read] of reads.entries()) tx.noteOpened(read, read.scope(scope), opened[i] ?? []);
      } else if (record[0]?.is_fresh !== 1) {
        throw new AlreadyProcessed();
      }
      const ran = await useCase.run({ ...base, table: locked, tx });
      if (locked) await storeRolledDice(tx, locked.id, invocation.actor.userId, intent, ran, dice);
      return ran;
    },
    opening,
  )
    .catch(async (error: unknown) => {
      const refusal = await refusalForRace(deps.db, invocation, intent, error);
      throw refusal ?? error;
    })
    .finally(() => {
      if (!tablesWritten || tablesWritten.size === 0 || !deps.tables) return;
      // The channel's own entry (a new table), and every entry of a table that was written.
      deps.tables.forget(invocation.channelId);
      for (const id of tablesWritten) if (id !== "new") deps.tables.forgetTable(id);
    });
  return { result, useCase, table };
}

/** What PostgreSQL said: pg's error carries the SQLSTATE and the constraint (every statement is pg's). */
function databaseCause(error: unknown): { sqlState?: string; constraint?: string } {
  const e = error as { code?: unknown; constraint?: unknown };
  if (typeof e !== "object" || e === null || typeof e.code !== "string" || !/^[0-9A-Z]{5}$/.test(e.code))
    return {};
  return { sqlState: e.code, constraint: typeof e.constraint === "string" ? e.constraint : undefined };
}

/**
 * The one place where a race the table lock cannot prevent becomes a refusal the user can act on.
 * The transaction was rolled back, so nothing changed. Two `/table setup` at once in a new channel
 * (no table row to lock yet) meet at the one-active-table-per-channel index; a unique index or a
 * deadlock elsewhere means someone else changed the same thing at the same moment. A value that
 * PostgreSQL finds out of range (an id from a forged button) is refused as bad input here too.
 */
export async function refusalForRace(
  db: Db,
  invocation: Invocation,
  intent: Intent,
  error: unknown,
): Promise<DomainError | null> {
  if (error instanceof DomainError || error instanceof AlreadyProcessed) return null;
  const { sqlState, constraint } = databaseCause(error);
  // 40001 serialization failure, 40P01 deadlock: the loser of a race.
  if (sqlState === "40001" || sqlState === "40P01") return new DomainError("errors.concurrentChange");
  // 22003 / 22P02: a number or id (from a button or typed text) that no column can hold.
  if (sqlState === "22003" || sqlState === "22P02")
    return new DomainError("errors.invalidInput", { field: "?", problem: "out of range" });
  if (sqlState !== "23505") return null;
  if (constraint === "game_table_active_channel_id_key") {
    const winner = await activeTable(db, invocation.channelId).catch(() => null);
    if (winner) return new DomainError("errors.table.alreadySetUp", { system: `@system.${winner.system}` });
  }
  if (constraint === "character_table_id_name_key_key") {
    const typed = typeof intent.newName === "string" ? intent.newName : intent.name;
    if (typeof typed === "string") {
      try {
        return new DomainError("errors.character.nameTaken", { name: cleanName(typed) });
      } catch {
        // not a clean name after all: fall through to the generic refusal
      }
    }
  }
  return new DomainError("errors.concurrentChange");
}
