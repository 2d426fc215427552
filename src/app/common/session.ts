/**
 * Sessions of play, read from the table log: a session ends at `/table session end`, or where the
 * log falls silent for six hours or more. `/table session end` (GM, any game) posts the session's
 * recap in the channel; the campaign page groups its journal the same way and shows each finished
 * session's recap. A recap is built from public entries only, so it may go anywhere.
 */
import type { GameTable } from "../../generated/prisma/client.js";
import { type Lang, type MessageKey, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { sqlFor } from "../../store/db.js";
import { appendLog, type LogSummary } from "../log.js";
import type { ActionContext } from "../use-case.js";
import type { EmbedView } from "../views.js";
import { tableUseCase } from "./use-cases.js";

/** A silence this long between two entries starts a new session. */
export const SESSION_GAP_MS = 6 * 3600_000;

export interface SessionEntry {
  id: string;
  at: Date;
  action: string;
}

/** The entries in sessions, oldest first; `ended` says whether a later entry or an explicit end closed it. */
export function sessionsOf<E extends SessionEntry>(
  entries: readonly E[],
): { entries: E[]; ended: boolean }[] {
  const sessions: { entries: E[]; ended: boolean }[] = [];
  let current: E[] = [];
  for (const entry of entries) {
    const last = current[current.length - 1];
    if (last && entry.at.getTime() - last.at.getTime() >= SESSION_GAP_MS) {
      sessions.push({ entries: current, ended: true });
      current = [];
    }
    current.push(entry);
    if (entry.action === "session.end") {
      sessions.push({ entries: current, ended: true });
      current = [];
    }
  }
  if (current.length > 0) sessions.push({ entries: current, ended: false });
  return sessions;
}

export interface RecapEntry extends SessionEntry {
  actorUserId: string;
  summary: LogSummary;
  before: unknown;
  after: unknown;
  characterId: number | null;
}

/** The log's turning points, by their message: what a recap names among the key moments. */
const KEY_MOMENTS = new Set<string>([
  "log.mw.conflict.roll",
  "log.mw.duel.reveal",
  "log.mw.damage.add",
  "log.mw.sheet.status",
  "log.mw.fate.reveal",
  "log.mw.trust.refill",
  "log.mw.chapter.next",
  "bh.log.concede",
  "bh.log.adventureEnded",
  "bh.log.retired",
  "bh.log.vpAwarded",
  "log.fate.concede",
  "log.fate.takenOut",
  "log.fate.consequenceAdd",
  "log.fate.conflictEnd",
  "log.fate.factionTakenOut",
  "log.fate.contestForfeit",
]);

const ROLL_ACTIONS =
  /^(roll|fate\.check|fate\.challenge\.roll|fate\.faction\.check|conflict\.roll|duel\.reveal)$/;
const SHEET_ACTIONS = /^(character\.|damage\.|fate\.(fp|stress|consequence|aspect)|trust\.value)/;

/**
 * The recap of one session, as lines of text in `lang`: how long, who did how much, the key
 * moments, the biggest reserve spends, whose sheets changed. `person` names a Discord user.
 */
export function sessionRecap(
  lang: Lang,
  entries: readonly RecapEntry[],
  person: (userId: string) => string,
  characterName: (id: number) => string | undefined,
): string[] {
  const shown = entries.filter((e) => e.action !== "session.end");
  if (shown.length === 0) return [t(lang, "session.recap.empty")];
  const first = shown[0]!.at;
  const last = shown[shown.length - 1]!.at;
  const minutes = Math.max(1, Math.round((last.getTime() - first.getTime()) / 60_000));
  const rolls = shown.filter((e) => ROLL_ACTIONS.test(e.action)).length;
  const lines = [t(lang, "session.recap.summary", { entries: shown.length, rolls, minutes })];
  const byActor = new Map<string, number>();
  for (const e of shown) byActor.set(e.actorUserId, (byActor.get(e.actorUserId) ?? 0) + 1);
  lines.push(
    t(lang, "session.recap.who", {
      list: [...byActor.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([user, n]) => `${person(user)} ×${n}`)
        .join(", "),
    }),
  );
  const moments = shown.filter((e) => KEY_MOMENTS.has(e.summary.key)).slice(-8);
  const text = (e: RecapEntry) => t(lang, e.summary.key as MessageKey, e.summary.params);
  if (moments.length > 0) {
    lines.push(t(lang, "session.recap.moments"));
    for (const m of moments) lines.push(`• ${text(m)}`);
  }
  const spends = shown
    .map((e) => {
      const before = (e.before as { left?: number } | null)?.left;
      const after = (e.after as { left?: number } | null)?.left;
      return typeof before === "number" && typeof after === "number" && before > after
        ? { e, amount: before - after }
        : null;
    })
    .filter((s) => s !== null)
    .sort((a, b) => b.amount - a.amount)
    .slice(0, 3);
  if (spends.length > 0) {
    lines.push(t(lang, "session.recap.spends"));
    for (const s of spends) lines.push(`• ${text(s.e)}`);
  }
  const changed = new Set<string>();
  for (const e of shown) {
    if (!SHEET_ACTIONS.test(e.action) || e.characterId === null) continue;
    const name = characterName(e.characterId);
    if (name) changed.add(name);
  }
  if (changed.size > 0) lines.push(t(lang, "session.recap.sheets", { names: [...changed].join(", ") }));
  return lines;
}

/** The public entries since the last session's end (explicit, or a six-hour silence). */
async function currentSession(ctx: Pick<ActionContext, "tx">, table: GameTable): Promise<RecapEntry[]> {
  const rows = await sqlFor(ctx.tx).rows<RecapEntry & { id: string }>`
    SELECT id, at, action, actor_user_id, summary, before, after, character_id FROM log_entry
    WHERE table_id = ${table.id} AND visible_to IS NULL
      AND id > COALESCE((SELECT max(id) FROM log_entry WHERE table_id = ${table.id} AND action = 'session.end'), 0)
    ORDER BY id DESC LIMIT 5000`;
  const entries = rows.reverse().map((r) => ({ ...r, id: String(r.id) }));
  const sessions = sessionsOf(entries);
  return sessions[sessions.length - 1]?.entries ?? [];
}

/** Who a user is in a recap: their characters at the table, or the GM. */
async function peopleOf(ctx: Pick<ActionContext, "tx">, table: GameTable, lang: Lang) {
  const characters = await sqlFor(ctx.tx).rows<{
    id: number;
    name: string;
    ownerUserId: string | null;
    kind: string;
  }>`
    SELECT id, name, owner_user_id, kind FROM "character" WHERE table_id = ${table.id}`;
  const people = new Map<string, string>();
  for (const c of characters)
    if (c.ownerUserId && c.kind === "pc")
      people.set(
        c.ownerUserId,
        people.has(c.ownerUserId) ? `${people.get(c.ownerUserId)}, ${c.name}` : c.name,
      );
  people.set(table.gmUserId, t(lang, "web.gm"));
  const names = new Map(characters.map((c) => [c.id, c.name]));
  return {
    person: (userId: string) => people.get(userId) ?? t(lang, "web.someone"),
    characterName: (id: number) => names.get(id),
  };
}

/**
 * The recap of the session so far as an embed, or null when nothing public was logged yet: what
 * `/table session end` posts, and what `/chapter next` and an adventure's end post too (without
 * ending the session). `title` names the occasion.
 */
export async function sessionRecapEmbed(
  ctx: Pick<ActionContext, "tx">,
  table: GameTable,
  lang: Lang,
  title: MessageKey = "session.recap.title",
  maxChars = 4000,
): Promise<EmbedView | null> {
  const entries = await currentSession(ctx, table);
  if (entries.filter((e) => e.action !== "session.end").length === 0) return null;
  const { person, characterName } = await peopleOf(ctx, table, lang);
  return {
    title: t(lang, title),
    description: sessionRecap(lang, entries, person, characterName).join("\n").slice(0, maxChars),
    footer: t(lang, "session.recap.footer"),
    tone: "info",
  };
}

/** `/table session end` (GM): the session's recap in the channel, and the log marks its end. */
export const tableSessionEnd = tableUseCase(
  "table.session.end",
  { access: "gm", mutates: true, ephemeral: false },
  async (ctx, table) => {
    const recap = await sessionRecapEmbed(ctx, table, ctx.publicLang);
    if (!recap) refuse("errors.session.nothingYet");
    await appendLog(ctx, table.id, { action: "session.end", summary: { key: "log.session.end" } });
    return { reply: { embeds: [recap] } };
  },
);
