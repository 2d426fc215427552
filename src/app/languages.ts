import type { GameTable } from "../generated/prisma/client.js";
import { type Lang, langFromLocale } from "../i18n/index.js";
import { type Db, QUICK_DEADLINE_MS, sqlFor, type Tx } from "../store/db.js";
import { giveAutoTablesTheirGmLanguage } from "../store/tables.js";
import type { ActionContext } from "./use-case.js";

/**
 * The language model: what the whole table sees (channel posts, panels and their buttons,
 * reveals) is in the table's language; what one user sees alone (ephemeral answers, refusals,
 * modals, autocomplete, their DMs and secret views) is in that user's own Discord language.
 * A user's language is remembered as last seen, for private output they receive when someone
 * else acts (a DM at the start of a trust round, their duel dice redrawn by the other duellist).
 */

const isLang = (value: unknown): value is Lang => value === "en" || value === "ru";

/** What this process last wrote for each user: a write only when a user's language changes. */
const remembered = new Map<string, Lang>();
const REMEMBERED_MAX = 50_000;

/**
 * Records the acting user's language (at most once per change, per process). A table of theirs
 * still marked 'auto' (from before tables had one language) takes it, as its GM's language.
 * Best effort: a failure here never stops the action.
 */
export async function rememberUserLanguage(db: Db, userId: string, lang: Lang): Promise<void> {
  if (remembered.get(userId) === lang) return;
  try {
    const sql = sqlFor(db, { deadlineMs: QUICK_DEADLINE_MS });
    // A memo, not the books: its commit need not wait for the disk (a crash of the server may
    // forget the last fraction of a second of them, as if those users had not been seen yet). Even
    // when nothing changes the conflicting row is locked, and a durable commit would flush the WAL.
    await sql.run`
      WITH quick AS (SELECT set_config('synchronous_commit', 'off', true))
      INSERT INTO user_language (user_id, language, seen_at) SELECT ${userId}, ${lang}, now() FROM quick
      ON CONFLICT (user_id) DO UPDATE SET language = EXCLUDED.language, seen_at = now()
      WHERE user_language.language <> EXCLUDED.language`;
    await giveAutoTablesTheirGmLanguage(db, userId, lang, { deadlineMs: QUICK_DEADLINE_MS });
    if (remembered.size >= REMEMBERED_MAX) remembered.clear();
    remembered.set(userId, lang);
  } catch {
    // Not remembered: the next action tries again.
  }
}

/** The languages last seen for these users; those never seen are left out. */
export async function storedLanguages(db: Db | Tx, userIds: readonly string[]): Promise<Map<string, Lang>> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return new Map();
  const rows = await sqlFor(db).rows<{ userId: string; language: string }>`
    SELECT user_id, language FROM user_language
    WHERE user_id IN (SELECT jsonb_array_elements_text(${unique}::jsonb))`;
  return new Map(rows.filter((r) => isLang(r.language)).map((r) => [r.userId, r.language as Lang]));
}

/**
 * The table's language. A table still marked 'auto' (created before tables had one language)
 * speaks its GM's language: the actor's when the actor is the GM, else the one last seen for the
 * GM, else (the GM never seen since) the actor's.
 */
export async function publicLanguage(
  db: Db | Tx,
  table: GameTable | null,
  actor: { userId: string; locale: string },
): Promise<Lang> {
  const own = langFromLocale(actor.locale);
  if (!table) return own;
  if (isLang(table.language)) return table.language;
  if (table.gmUserId === actor.userId) return own;
  return (await storedLanguages(db, [table.gmUserId])).get(table.gmUserId) ?? own;
}

/**
 * The languages to write private output in for each of these users: the actor's own language,
 * the one last seen for anyone else, the table's for someone never seen.
 */
export async function languagesOf(
  ctx: Pick<ActionContext, "tx" | "actor" | "userLang" | "publicLang">,
  userIds: readonly string[],
): Promise<Map<string, Lang>> {
  const others = userIds.filter((id) => id !== ctx.actor.userId);
  const stored = await storedLanguages(ctx.tx, others);
  return new Map(
    userIds.map((id) => [id, id === ctx.actor.userId ? ctx.userLang : (stored.get(id) ?? ctx.publicLang)]),
  );
}

/** One user's private language (see languagesOf). */
export async function languageOf(
  ctx: Pick<ActionContext, "tx" | "actor" | "userLang" | "publicLang">,
  userId: string,
): Promise<Lang> {
  return (await languagesOf(ctx, [userId])).get(userId)!;
}

/**
 * The language of `table` for an action that found its table itself (from a DM, where the
 * context has no channel table and its publicLang is the actor's own).
 */
export async function languageOfTable(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang" | "table">,
  table: GameTable,
): Promise<Lang> {
  if (ctx.table?.id === table.id) return ctx.publicLang;
  return publicLanguage(ctx.tx, table, ctx.actor);
}
