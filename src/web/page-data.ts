/**
 * What one viewer's campaign page shows, read from PostgreSQL alone (the page never calls
 * Discord). The rule of the page is the rule of Discord: everything public, plus the viewer's own
 * secrets — their own secret log entries (secret rolls, their trust submissions), their own dark
 * fate before its reveal (docs/rules/mountain-witch.md: not even the GM sees it), their own secret
 * dice in the statistics. A spectator sees public information only. Public parts are taken from
 * the same views Discord shows (sheet fields, table fields, panels), so the two never disagree.
 */

import { challengePanel } from "../app/beast-hunters/challenge-view.js";
import { challengeFlow } from "../app/beast-hunters/flow-states.js";
import { asReserve } from "../app/beast-hunters/reserve.js";
import type { RecapEntry } from "../app/common/session.js";
import { statsEmbed } from "../app/common/stats.js";
import { openConflict } from "../app/fate/conflict-state.js";
import { conflictView } from "../app/fate/conflict-view.js";
import { factionEmbed, factionsOf, invokableAspects } from "../app/fate/faction.js";
import { tableState as fateTableState } from "../app/fate/state.js";
import { findOpenFlow, openFlows } from "../app/flows.js";
import { hooksFor } from "../app/hooks.js";
import type { LogSummary } from "../app/log.js";
import { conflictPanel } from "../app/mountain-witch/conflict-view.js";
import { conflictFlow as mwConflictFlow, trustRoundFlow } from "../app/mountain-witch/flow-states.js";
import { mwTableState } from "../app/mountain-witch/shared.js";
import type { EmbedView } from "../app/views.js";
import type { Character, GameTable, ReservePool } from "../generated/prisma/client.js";
import { familyKey, type Lang, t } from "../i18n/index.js";
import { reserveLeft } from "../rules/beast-hunters/index.js";
import { type DiceStatistics, diceStatistics, type FaceCount } from "../rules/dice-stats.js";
import { trustRoundVisibleTo } from "../rules/mountain-witch/index.js";
import { type Db, outsideTransaction, sqlFor } from "../store/db.js";
import type { LinkClaims } from "./links.js";

export type ViewerRole = "gm" | "player" | "spectator";

export interface Viewer {
  role: ViewerRole;
  /** null for a spectator: nothing of anyone's is theirs. */
  userId: string | null;
  lang: Lang;
}

export function viewerOf(claims: LinkClaims, table: GameTable, lang: Lang): Viewer {
  if (claims.kind === "spectator") return { role: "spectator", userId: null, lang };
  // The GM role is the table's now, not the link's: a GM who handed the table over is a player.
  return { role: claims.userId === table.gmUserId ? "gm" : "player", userId: claims.userId, lang };
}

export interface Field {
  name: string;
  value: string;
  inline?: boolean;
}

export interface Sheet {
  id: number;
  name: string;
  kind: string;
  status: string;
  ownerUserId: string | null;
  /** The viewer plays this character. */
  own: boolean;
  fields: Field[];
  /** The viewer's own dark fate while it is still theirs alone (Mountain Witch). */
  secretFate: { name: string; description: string } | null;
}

export interface TrustCell {
  giverId: number;
  holderId: number;
  value: number;
  points: number;
  /** This chapter's change (its reveal, or the viewer's own secret edit): the value before. */
  before: number | null;
}

export interface TrustPicture {
  characters: { id: number; name: string }[];
  cells: TrustCell[];
  /** An open trust round: who has submitted (never what), and the viewer's own submission. */
  round: {
    chapter: number;
    submitted: string[];
    pending: string[];
    own: { holder: string; value: number }[];
  } | null;
}

export interface LedgerRow {
  id: string;
  at: Date;
  actorUserId: string;
  text: string;
  reason: string | null;
  /** What is left in the reserve before and after. */
  before: number | null;
  after: number;
  ceiling: number;
  total: number;
}

export interface Ledger {
  pool: { total: number; ceiling: number; spent: number; left: number } | null;
  rows: LedgerRow[];
  hunters: { name: string; vp: number; status: string }[];
}

export interface BoardAspect {
  name: string;
  kind: string;
  freeInvokes: number;
  holders: string;
}

export interface AspectBoard {
  scene: BoardAspect[];
  characters: { name: string; aspects: BoardAspect[] }[];
  factions: { name: string; aspects: BoardAspect[] }[];
}

export interface JournalEntry extends RecapEntry {
  id: string;
  at: Date;
  actorUserId: string;
  action: string;
  /** The first part of the action: roll, trust, reserve, fate, … */
  kind: string;
  characterId: number | null;
  text: string;
  reason: string | null;
  dice: string | null;
  secret: boolean;
}

export interface PageData {
  table: GameTable;
  viewer: Viewer;
  /** Who a Discord user is on the page (their characters' names, or "GM"): the page never asks Discord. */
  people: Map<string, string>;
  tableFields: Field[];
  sheets: Sheet[];
  panels: EmbedView[];
  trust: TrustPicture | null;
  ledger: Ledger | null;
  board: AspectBoard | null;
  factions: EmbedView[];
  fateWeek: number | null;
  journal: JournalEntry[];
  stats: DiceStatistics;
  statsEmbed: EmbedView;
}

/** The most journal entries one page carries (the newest); older ones are a link away. */
export const JOURNAL_PAGE = 150;

type LogRow = {
  id: string;
  at: Date;
  actorUserId: string;
  action: string;
  characterId: number | null;
  summary: LogSummary;
  before: unknown;
  after: unknown;
  dice: unknown;
  reason: string | null;
  visibleTo: string | null;
};

/** A log entry's dice as a short line, when it kept them as numbers. */
function diceLine(dice: unknown): string | null {
  if (dice === null || dice === undefined) return null;
  const numbers: number[] = [];
  const walk = (v: unknown, depth: number) => {
    if (numbers.length >= 40 || depth > 4) return;
    if (typeof v === "number" && Number.isInteger(v)) numbers.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      for (const key of ["faces", "dice", "rolls", "kept", "values"]) if (key in o) walk(o[key], depth + 1);
    }
  };
  walk(dice, 0);
  return numbers.length > 0 ? numbers.join(" ") : null;
}

function summaryText(lang: Lang, row: { summary: LogSummary }): string {
  try {
    return t(lang, row.summary.key, row.summary.params);
  } catch {
    return row.summary.key;
  }
}

export interface JournalFilter {
  characterId?: number;
  kind?: string;
  /** Only entries before this id (the "older" link). */
  beforeId?: string;
}

/**
 * The dice statistics cost the most to read (every die the table rolled): kept per table and
 * viewer until the table changes (`version`: the live listener's count of its changes, null when
 * it cannot vouch for one).
 */
export class StatsCache {
  private readonly kept = new Map<string, { version: number; faces: FaceCount[] }>();
  constructor(readonly version: (tableId: number) => number | null) {}

  async faces(
    tableId: number,
    viewer: string | null,
    read: () => Promise<FaceCount[]>,
  ): Promise<FaceCount[]> {
    const version = this.version(tableId);
    const key = `${tableId}:${viewer ?? ""}`;
    const hit = this.kept.get(key);
    if (version !== null && hit?.version === version) return hit.faces;
    const faces = await read();
    if (version !== null && this.version(tableId) === version) {
      if (this.kept.size > 2000) this.kept.clear();
      this.kept.set(key, { version, faces });
    }
    return faces;
  }
}

export async function loadPage(
  db: Db,
  table: GameTable,
  viewer: Viewer,
  filter: JournalFilter = {},
  cache?: StatsCache,
): Promise<PageData> {
  const sql = sqlFor(db);
  const lang = viewer.lang;
  const readable = viewer.userId;
  const ctx = { tx: outsideTransaction(db), publicLang: lang, table };
  // The reads that need nothing else go at once (the pool runs them side by side); awaited below.
  const beforeId = filter.beforeId && /^\d{1,19}$/.test(filter.beforeId) ? filter.beforeId : null;
  const journalRows = sql.rows<LogRow>`
    SELECT id, at, actor_user_id, action, character_id, summary, before, after, dice, reason, visible_to FROM log_entry
    WHERE table_id = ${table.id} AND (visible_to IS NULL OR visible_to = ${readable})
      AND (${filter.characterId ?? null}::int IS NULL OR character_id = ${filter.characterId ?? null})
      AND (${filter.kind ?? null}::text IS NULL OR split_part(action, '.', 1) = ${filter.kind ?? null})
      AND (${beforeId}::bigint IS NULL OR id < ${beforeId}::bigint)
    ORDER BY id DESC LIMIT ${JOURNAL_PAGE}`;
  const readFaces = () => sql.rows<FaceCount>`
    SELECT d.user_id AS "userId", u.s AS sides, u.f AS face, count(*)::int AS count
    FROM dice_rolled d, unnest(d.sides, d.faces) AS u(s, f)
    WHERE d.table_id = ${table.id} AND (d.visible_to IS NULL OR d.visible_to = ${readable})
    GROUP BY d.user_id, u.s, u.f`;
  const diceFaces = cache ? cache.faces(table.id, readable, readFaces) : readFaces();
  journalRows.catch(() => {});
  diceFaces.catch(() => {});
  const characters = await sql.rows<Character>`
    SELECT * FROM "character" WHERE table_id = ${table.id} AND deleted_at IS NULL ORDER BY kind DESC, id`;

  const people = new Map<string, string>();
  for (const c of characters) {
    if (c.ownerUserId && c.kind === "pc")
      people.set(
        c.ownerUserId,
        people.has(c.ownerUserId) ? `${people.get(c.ownerUserId)}, ${c.name}` : c.name,
      );
  }
  people.set(table.gmUserId, t(lang, "web.gm"));

  const hooks = hooksFor(table.system);
  const tableFields = (await hooks.tableFields?.(ctx)) ?? [];
  const deck = table.system === "mountain-witch" ? mwTableState(table).fates : null;
  const sheets: Sheet[] = await Promise.all(
    characters.map(async (c): Promise<Sheet> => {
      const fields = (await hooks.sheetFields?.(ctx, c)) ?? [];
      const own = readable !== null && c.ownerUserId === readable;
      const hand = deck?.hands.find((h) => h.characterId === c.id);
      const secretFate =
        own && hand && !hand.revealed
          ? {
              name: t(lang, familyKey("mw.fate.", hand.fate)),
              description: t(lang, familyKey("mw.fate.desc.", hand.fate)),
            }
          : null;
      return {
        id: c.id,
        name: c.name,
        kind: c.kind,
        status: c.status,
        ownerUserId: c.ownerUserId,
        own,
        fields,
        secretFate,
      };
    }),
  );

  const panels: EmbedView[] = [];
  let trust: TrustPicture | null = null;
  let ledger: Ledger | null = null;
  let board: AspectBoard | null = null;
  let factions: EmbedView[] = [];
  let fateWeek: number | null = null;
  const names = new Map(characters.map((c) => [c.id, c.name]));

  if (table.system === "mountain-witch") {
    for (const flow of await openFlows(db, mwConflictFlow, table.id))
      panels.push(...(conflictPanel(lang, flow.id, flow.state).embeds ?? []));
    trust = await trustPicture(db, table, characters, viewer);
  }
  if (table.system === "beast-hunters") {
    const challenge = await findOpenFlow(db, challengeFlow, table.id);
    if (challenge) panels.push(...(challengePanel(lang, challenge.id, challenge.state).embeds ?? []));
    ledger = await reserveLedger(db, table, characters, lang);
  }
  if (table.system === "fate") {
    const conflict = await openConflict({ tx: ctx.tx }, table);
    if (conflict) panels.push(...(conflictView(lang, conflict.id, conflict.state, true).embeds ?? []));
    fateWeek = fateTableState(table).fateWeek;
    factions = factionsOf(table).map((f) => factionEmbed(lang, f));
    const aspects = await invokableAspects(ctx.tx, table);
    const holderName = (id: string | null, side: string | null | undefined) =>
      id
        ? (names.get(Number(id)) ?? t(lang, familyKey("fate.conflict.side.", side ?? "pc")))
        : side
          ? t(lang, familyKey("fate.conflict.side.", side))
          : t(lang, "fate.aspect.anyone");
    const toBoard = (a: (typeof aspects)[number]): BoardAspect => {
      const counts = new Map<string, number>();
      for (const f of a.aspect.freeInvokes) {
        const who = holderName(f.holderId, f.side);
        counts.set(who, (counts.get(who) ?? 0) + 1);
      }
      return {
        name: a.aspect.name,
        kind: t(lang, familyKey("fate.aspectKind.", a.aspect.kind)),
        freeInvokes: a.aspect.freeInvokes.length,
        holders: [...counts.entries()].map(([who, n]) => `${who} ×${n}`).join(", "),
      };
    };
    const group = (list: typeof aspects) => {
      const by = new Map<string, BoardAspect[]>();
      for (const a of list) {
        const key = a.characterName ?? "?";
        by.set(key, [...(by.get(key) ?? []), toBoard(a)]);
      }
      return [...by.entries()].map(([name, list]) => ({ name, aspects: list }));
    };
    board = {
      scene: aspects.filter((a) => a.characterId === null && !a.ref.startsWith("f")).map(toBoard),
      characters: group(aspects.filter((a) => a.characterId !== null)),
      factions: group(aspects.filter((a) => a.characterId === null && a.ref.startsWith("f"))),
    };
  }

  const rows = await journalRows;
  const journal = rows.reverse().map(
    (r): JournalEntry => ({
      id: String(r.id),
      at: r.at,
      actorUserId: r.actorUserId,
      action: r.action,
      kind: r.action.split(".")[0] ?? r.action,
      characterId: r.characterId,
      summary: r.summary,
      before: r.before,
      after: r.after,
      text: summaryText(lang, r),
      reason: r.reason,
      dice: diceLine(r.dice),
      secret: r.visibleTo !== null,
    }),
  );

  const faces = await diceFaces;
  const stats = diceStatistics(faces);

  return {
    table,
    viewer,
    people,
    tableFields,
    sheets,
    panels,
    trust,
    ledger,
    board,
    factions,
    fateWeek,
    journal,
    stats,
    statsEmbed: { ...statsEmbed(lang, stats, { period: "all" }), image: undefined },
  };
}

async function trustPicture(
  db: Db,
  table: GameTable,
  characters: Character[],
  viewer: Viewer,
): Promise<TrustPicture> {
  const sql = sqlFor(db);
  const pcs = characters.filter((c) => c.kind === "pc" && c.status !== "retired");
  const linksRead = sql.rows<{ giverId: number; holderId: number; value: number; points: number }>`
    SELECT giver_id, holder_id, value, points FROM trust_link WHERE table_id = ${table.id}`;
  // This chapter's changes: the trust values logged since the chapter began, as the viewer may read them.
  const changesRead = sql.rows<{
    characterId: number | null;
    before: { value?: number };
    summary: LogSummary;
  }>`
    SELECT character_id, before, summary FROM log_entry
    WHERE table_id = ${table.id} AND action = 'trust.value'
      AND (visible_to IS NULL OR visible_to = ${viewer.userId})
      AND id > COALESCE((SELECT max(id) FROM log_entry WHERE table_id = ${table.id} AND action = 'chapter.next'), 0)
    ORDER BY id`;
  const [links, changes, [open]] = await Promise.all([
    linksRead,
    changesRead,
    openFlows(db, trustRoundFlow, table.id),
  ]);
  const byName = new Map(pcs.map((c) => [c.name, c.id]));
  const before = new Map<string, number>();
  for (const c of changes) {
    const holder = byName.get(String(c.summary.params?.holder ?? ""));
    if (c.characterId === null || holder === undefined || typeof c.before?.value !== "number") continue;
    const key = `${c.characterId}:${holder}`;
    if (!before.has(key)) before.set(key, c.before.value);
  }
  const ids = new Set(pcs.map((c) => c.id));
  const cells = links
    .filter((l) => ids.has(l.giverId) && ids.has(l.holderId))
    .map((l) => ({ ...l, before: before.get(`${l.giverId}:${l.holderId}`) ?? null }));
  const names = new Map(pcs.map((c) => [c.id, c.name]));
  let round: TrustPicture["round"] = null;
  if (open && open.state.round.phase === "collecting") {
    const mine = pcs.find((c) => viewer.userId !== null && c.ownerUserId === viewer.userId);
    const seen = trustRoundVisibleTo(open.state.round, mine?.id ?? null);
    round = {
      chapter: open.state.round.chapter,
      submitted: seen.submitted.map((id) => names.get(id) ?? "?"),
      pending: seen.pending.map((id) => names.get(id) ?? "?"),
      own: (seen.own ?? []).map((p) => ({ holder: names.get(p.holderId) ?? "?", value: p.value })),
    };
  }
  return { characters: pcs.map((c) => ({ id: c.id, name: c.name })), cells, round };
}

async function reserveLedger(db: Db, table: GameTable, characters: Character[], lang: Lang): Promise<Ledger> {
  const sql = sqlFor(db);
  const pool = await sql.one<ReservePool>`SELECT * FROM reserve_pool WHERE table_id = ${table.id}`;
  // The adventure's reserve changes: from its last new-adventure setting on, every entry that
  // recorded the reserve (a spend, a refund, a correction, a concession).
  const rows = await sql.rows<LogRow>`
    SELECT id, at, actor_user_id, action, character_id, summary, before, after, reason, visible_to FROM log_entry
    WHERE table_id = ${table.id} AND visible_to IS NULL AND after ? 'left' AND after ? 'ceiling'
      AND id >= COALESCE((SELECT max(id) FROM log_entry WHERE table_id = ${table.id}
        AND action = 'reserve.set' AND summary->>'key' = 'bh.log.reserveNewAdventure'), 0)
    ORDER BY id`;
  const ledgerRows = rows.map((r): LedgerRow => {
    const after = r.after as { left: number; ceiling: number; total: number };
    const before = r.before as { left?: number } | null;
    return {
      id: String(r.id),
      at: r.at,
      actorUserId: r.actorUserId,
      text: summaryText(lang, r),
      reason: r.reason,
      before: typeof before?.left === "number" ? before.left : null,
      after: after.left,
      ceiling: after.ceiling,
      total: after.total,
    };
  });
  return {
    pool: pool
      ? { total: pool.total, ceiling: pool.ceiling, spent: pool.spent, left: reserveLeft(asReserve(pool)) }
      : null,
    rows: ledgerRows,
    hunters: characters
      .filter((c) => c.kind === "pc")
      .map((c) => ({ name: c.name, vp: c.victoryPoints, status: c.status })),
  };
}
