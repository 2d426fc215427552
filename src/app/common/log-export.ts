import type { GameTable, LogEntry } from "../../generated/prisma/client.js";
import { familyKey, type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { characterNames } from "../../store/characters.js";
import { sqlFor } from "../../store/db.js";
import type { LogSummary } from "../log.js";
import type { ActionContext } from "../use-case.js";
import type { FileView } from "../views.js";

export const LOG_FORMATS = ["markdown", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The version of the JSON log file's shape. */
export const LOG_FILE_VERSION = 1;

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?$/;

/**
 * A `from`/`to` bound of `/table log`, in UTC: `2026-12-01` or `2026-12-01 18:30`. A `to` date
 * without a time takes in that whole day. Anything else is refused, naming the forms that work.
 */
export function parseLogBound(text: string | undefined, end: boolean): Date | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const match = DATE.exec(text.trim());
  const bad = () => refuse("errors.log.badDate", { value: text.slice(0, 40) });
  if (!match) bad();
  const [, y, m, d, hh, mm] = match as RegExpExecArray;
  const at = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d), Number(hh ?? 0), Number(mm ?? 0)));
  if (
    at.getUTCFullYear() !== Number(y) ||
    at.getUTCMonth() !== Number(m) - 1 ||
    at.getUTCDate() !== Number(d) ||
    Number(hh ?? 0) > 23 ||
    Number(mm ?? 0) > 59
  ) {
    bad();
  }
  if (end) return new Date(at.getTime() + (hh === undefined ? 24 * 3600_000 : 60_000));
  return at;
}

/**
 * The log entries a user may read (secret ones only their own) within a range, oldest first: all
 * of them, or only the `newest` few.
 */
export async function readableLog(
  ctx: Pick<ActionContext, "tx" | "actor">,
  table: GameTable,
  range: { from?: Date; to?: Date },
  options: { newest?: number } = {},
): Promise<LogEntry[]> {
  const sql = sqlFor(ctx.tx);
  const from = range.from ?? null;
  const to = range.to ?? null;
  // Secret entries are readable only by the one user they belong to (docs/rules/common.md §4.5).
  const rows =
    options.newest === undefined
      ? await sql.rows<LogRow>`
          SELECT * FROM log_entry
          WHERE table_id = ${table.id} AND (visible_to IS NULL OR visible_to = ${ctx.actor.userId})
            AND (${from}::timestamp(3) IS NULL OR at >= ${from}) AND (${to}::timestamp(3) IS NULL OR at < ${to})
          ORDER BY id`
      : (
          await sql.rows<LogRow>`
          SELECT * FROM log_entry
          WHERE table_id = ${table.id} AND (visible_to IS NULL OR visible_to = ${ctx.actor.userId})
            AND (${from}::timestamp(3) IS NULL OR at >= ${from}) AND (${to}::timestamp(3) IS NULL OR at < ${to})
          ORDER BY id DESC LIMIT ${options.newest}`
        ).reverse();
  // pg reads a bigint as text; the model's id is a BigInt.
  return rows.map((row) => ({ ...row, id: BigInt(row.id) }));
}

type LogRow = Omit<LogEntry, "id"> & { id: string };

export const entryText = (lang: Lang, entry: LogEntry) => {
  const summary = entry.summary as unknown as LogSummary;
  return t(lang, summary.key, summary.params);
};

const compact = (value: unknown) => {
  const text = typeof value === "string" ? value : value === null ? "—" : JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
};

/**
 * The faces of an entry's dice, as read at the table: every `face` in the recorded roll (a Fate
 * die by its symbol, a dropped die struck through), or a plain list of numbers.
 */
export function diceText(dice: unknown): string {
  const faces: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) {
      if (value.length > 0 && value.every((v) => typeof v === "number")) faces.push(...value.map(String));
      else for (const v of value) walk(v);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    const die = value as Record<string, unknown>;
    if (typeof die.face === "number") {
      const shown = typeof die.fateSymbol === "string" ? die.fateSymbol : String(die.face);
      faces.push(die.kept === false ? `~~${shown}~~` : shown);
      return;
    }
    for (const v of Object.values(die)) walk(v);
  };
  walk(dice);
  return faces.length > 0 ? faces.join(" ") : compact(dice);
}

/** `trust: 2 → 3, points: 1 → 0`, or the two values whole when they are not alike. */
export function beforeAfter(before: unknown, after: unknown): string | null {
  if (before == null && after == null) return null;
  const isRecord = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    const changes = keys
      .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
      .map((k) => `${k}: ${compact(before[k] ?? null)} → ${compact(after[k] ?? null)}`);
    if (changes.length > 0) return changes.join(", ");
  }
  if (before == null && isRecord(after)) {
    return Object.entries(after)
      .map(([k, v]) => `${k}: ${compact(v)}`)
      .join(", ");
  }
  return `${compact(before ?? null)} → ${compact(after ?? null)}`;
}

const isoMinute = (at: Date) => at.toISOString().slice(0, 16).replace("T", " ");

/** The campaign journal: one section per day, one line per entry, in the table's language. */
export function logMarkdown(
  lang: Lang,
  table: GameTable,
  entries: readonly LogEntry[],
  names: ReadonlyMap<number, string>,
  exportedAt: Date,
): string {
  const lines = [
    `# ${t(lang, "logExport.title", { system: t(lang, familyKey("system.", table.system)) })}`,
    "",
    `_${t(lang, "logExport.subtitle", { count: entries.length, at: isoMinute(exportedAt) })}_`,
  ];
  let day = "";
  for (const entry of entries) {
    const date = entry.at.toISOString().slice(0, 10);
    if (date !== day) {
      day = date;
      lines.push("", `## ${date}`, "");
    }
    const who = entry.characterId && names.get(entry.characterId);
    const parts = [
      `**${entry.at.toISOString().slice(11, 16)}** <@${entry.actorUserId}>${who ? ` (${who})` : ""}: ${entryText(lang, entry)}`,
    ];
    if (entry.dice != null) parts.push(`🎲 ${diceText(entry.dice)}`);
    const change = beforeAfter(entry.before, entry.after);
    if (change) parts.push(change);
    if (entry.reason) parts.push(`_${entry.reason}_`);
    if (entry.visibleTo) parts.push(`🔒 ${t(lang, "logExport.secret")}`);
    lines.push(`- ${parts.join(" · ")}`);
  }
  if (entries.length === 0) lines.push("", t(lang, "table.log.empty"));
  return `${lines.join("\n")}\n`;
}

/** The same entries for tools: raw values plus each entry's text in the table's language. */
export function logJson(
  lang: Lang,
  table: GameTable,
  entries: readonly LogEntry[],
  names: ReadonlyMap<number, string>,
  exportedAt: Date,
  range: { from?: Date; to?: Date },
): string {
  return `${JSON.stringify(
    {
      format: "table-log",
      version: LOG_FILE_VERSION,
      exportedAt: exportedAt.toISOString(),
      table: {
        system: table.system,
        language: table.language,
        guildId: table.guildId,
        channelId: table.channelId,
      },
      range: { from: range.from?.toISOString() ?? null, to: range.to?.toISOString() ?? null },
      entries: entries.map((e) => ({
        id: Number(e.id),
        at: e.at.toISOString(),
        actorUserId: e.actorUserId,
        action: e.action,
        character: e.characterId ? (names.get(e.characterId) ?? null) : null,
        text: entryText(lang, e),
        summary: e.summary,
        before: e.before,
        after: e.after,
        dice: e.dice,
        reason: e.reason,
        secret: e.visibleTo !== null,
      })),
    },
    null,
    2,
  )}\n`;
}

/**
 * The log file of `/table log format:…` for the asking user (their own secrets only), in their
 * language: a private answer is in the reader's language.
 */
export async function logFile(
  ctx: Pick<ActionContext, "tx" | "actor" | "userLang" | "now">,
  table: GameTable,
  format: LogFormat,
  range: { from?: Date; to?: Date },
): Promise<{ file: FileView; count: number }> {
  const entries = await readableLog(ctx, table, range);
  const ids = [...new Set(entries.map((e) => e.characterId).filter((id): id is number => id !== null))];
  const names = await characterNames(ctx.tx, ids);
  const text =
    format === "json"
      ? logJson(ctx.userLang, table, entries, names, ctx.now, range)
      : logMarkdown(ctx.userLang, table, entries, names, ctx.now);
  const stamp = ctx.now.toISOString().slice(0, 10);
  return {
    file: {
      name: `table-log-${stamp}.${format === "json" ? "json" : "md"}`,
      data: new TextEncoder().encode(text),
    },
    count: entries.length,
  };
}
