import type { Character, GameTable, LogEntry, ReservePool } from "../../generated/prisma/client.js";
import { type Lang, type MessageKey, t } from "../../i18n/index.js";
import {
  type Adventure,
  addAdventureVp,
  chargeReserve,
  concedeFromReserve,
  newAdventure as newAdventureRecord,
  newReserve,
  type Reserve,
  renewal,
  reserveLeft,
  stillPlaying,
} from "../../rules/beast-hunters/index.js";
import { refuse } from "../../rules/errors.js";
import { activePlayerCharacters, creditVictoryPoints } from "../../store/characters.js";
import { type OpeningRead, sqlFor, type Tx } from "../../store/db.js";
import { literalSql, modelFromRow } from "../../store/sql.js";
import { isGm } from "../access.js";
import { findOpenFlow } from "../flows.js";
import { appendLog, type LogSummary } from "../log.js";
import { cleanText, nameKey } from "../names.js";
import type { ActionContext, Effect } from "../use-case.js";
import type { EmbedView, MessageView } from "../views.js";
import { adventureOf, endIfNobodyPlaying, finishAdventure, saveAdventure } from "./adventure.js";
import { challengeFlow } from "./flow-states.js";
import { closeNegotiation, findNegotiation, requireNegotiationPhase } from "./negotiation.js";
import { hunterSheet, saveHunterSheet } from "./sheets.js";
import { defineBhUseCase } from "./use-cases.js";

export function asReserve(pool: ReservePool): Reserve {
  return { total: pool.total, ceiling: pool.ceiling, spent: pool.spent };
}

/**
 * Most Beast Hunters actions read the table's reserve (a spend, a challenge's strike, its end):
 * execute.ts reads it with the transaction's opening (the game's `openingReads`), and
 * `findReserve` takes it until the transaction writes reserve_pool.
 */
export const reserveRead: OpeningRead = {
  statement: ({ tableId }) => literalSql`SELECT * FROM reserve_pool WHERE table_id = ${tableId}`,
  scope: ({ tableId }) => reserveScope(tableId),
  table: "reserve_pool",
};

function reserveScope(tableId: number): string {
  return String(tableId);
}

export async function findReserve(tx: Tx, tableId: number): Promise<ReservePool | null> {
  const opened = tx.openedRows(reserveRead, reserveScope(tableId));
  if (opened) return opened[0] ? modelFromRow<ReservePool>(opened[0]) : null;
  return sqlFor(tx).one<ReservePool>`SELECT * FROM reserve_pool WHERE table_id = ${tableId}`;
}

export async function requireReserve(tx: Tx, tableId: number): Promise<ReservePool> {
  const pool = await findReserve(tx, tableId);
  if (!pool) refuse("errors.bh.noReserve");
  return pool;
}

/** Writes a new `spent` and logs the change (who, why, before → after). */
export async function recordReserve(
  ctx: Pick<ActionContext, "tx" | "actor">,
  table: GameTable,
  pool: ReservePool,
  next: Reserve,
  log: { action: string; key: MessageKey; params?: Record<string, string | number>; reason?: string | null },
): Promise<void> {
  // The pool was read under the table's lock, so the row is there; the write goes with the COMMIT,
  // where the CHECK constraint (spent within 0..total) stays the last word on the amounts.
  await ctx.tx.later`
    UPDATE reserve_pool SET total = ${next.total}, ceiling = ${next.ceiling}, spent = ${next.spent}, updated_at = ${new Date()}
    WHERE table_id = ${table.id}`;
  const before = { ...asReserve(pool), left: reserveLeft(asReserve(pool)) };
  const after = { ...next, left: reserveLeft(next) };
  await appendLog(ctx, table.id, {
    action: log.action,
    summary: { key: log.key, params: { before: before.left, after: after.left, ...log.params } },
    before,
    after,
    reason: log.reason ?? null,
  });
}

/** The table's active hunters: player characters still in play. */
export function activeHunters(tx: Tx, tableId: number): Promise<Character[]> {
  return activePlayerCharacters(tx, tableId);
}

export function reserveSummary(lang: Lang, pool: ReservePool | null): string {
  if (!pool) return t(lang, "bh.reserve.none");
  return t(lang, "bh.reserve.summary", {
    total: pool.total,
    spent: pool.spent,
    left: reserveLeft(asReserve(pool)),
    ceiling: pool.ceiling,
  });
}

/**
 * Refuses while a challenge is open, naming the way out that works for this user now: the GM
 * plays it out or concedes it (or closes it once it is over); a hunter waits for the GM.
 */
export async function refuseIfChallengeOpen(
  ctx: Pick<ActionContext, "tx" | "actor">,
  table: GameTable,
): Promise<void> {
  const open = await findOpenFlow(ctx.tx, challengeFlow, table.id);
  if (!open) return;
  if (!isGm(table, ctx.actor)) refuse("errors.bh.challengeOpenAskGm");
  const { status, pendingFatal, participants } = open.state.challenge;
  if (status === "aftermath") refuse("errors.bh.challengeToClose");
  // A hunter's fatal choice comes before anything else, a concession included.
  if (status === "fatalChoice")
    refuse("errors.bh.fatalChoicePending", {
      name: participants.find((p) => p.id === pendingFatal)?.name ?? "?",
    });
  refuse("errors.bh.challengeOpen");
}

export const reserveSet = defineBhUseCase(
  "reserve.set",
  { mutates: true, ephemeral: false },
  async (ctx, table) => {
    const hunters = await activeHunters(ctx.tx, table.id);
    // [decision] docs/rules/beast-hunters.md §2.2: any hunter at the table or the GM enters the hunters' agreed numbers.
    if (!isGm(table, ctx.actor) && !hunters.some((h) => h.ownerUserId === ctx.actor.userId)) {
      refuse("errors.bh.huntersOrGmOnly");
    }
    const fresh = newReserve(ctx.intent.total, ctx.intent.ceiling);
    const existing = await findReserve(ctx.tx, table.id);
    const newAdventure = ctx.intent.adventure !== "same" || !existing;
    if (newAdventure) await refuseIfChallengeOpen(ctx, table);
    if (newAdventure && existing && !ctx.intent.confirm) {
      // A running adventure is never wiped by default: say what would be cleared and ask.
      const running = runningAdventure(existing, hunters);
      if (running) return { reply: confirmNewAdventure(ctx.userLang, ctx.intent, existing, running) };
    }
    const spent = newAdventure ? 0 : Math.min(existing!.spent, fresh.total);
    const next: Reserve = { ...fresh, spent };
    await sqlFor(ctx.tx).run`
      INSERT INTO reserve_pool (table_id, total, ceiling, spent, updated_at)
      VALUES (${table.id}, ${next.total}, ${next.ceiling}, ${spent}, ${new Date()})
      ON CONFLICT (table_id) DO UPDATE
      SET total = EXCLUDED.total, ceiling = EXCLUDED.ceiling, spent = EXCLUDED.spent, updated_at = EXCLUDED.updated_at`;
    if (newAdventure) await saveAdventure(ctx.tx, table.id, newAdventureRecord());
    // A negotiation left open belongs to the adventure that ends here.
    const talks = newAdventure ? await findNegotiation(ctx, table.id) : null;
    const dropped = talks
      ? [await closeNegotiation(ctx as ActionContext, table, talks, "abandoned", null)]
      : [];
    await appendLog(ctx, table.id, {
      action: "reserve.set",
      summary: {
        key: newAdventure ? "bh.log.reserveNewAdventure" : "bh.log.reserveCorrected",
        params: { total: next.total, ceiling: next.ceiling, left: reserveLeft(next) },
      },
      before: existing ? { ...asReserve(existing), left: reserveLeft(asReserve(existing)) } : null,
      after: { ...next, left: reserveLeft(next) },
    });
    const renewed: string[] = [];
    if (newAdventure) {
      // Between adventures: every damage box clears and pre-activations reset (docs/rules/beast-hunters.md §2.5).
      for (const hunter of hunters) {
        const sheet = hunterSheet(hunter);
        // Only a hunter with something to clear is renewed (a brand-new one is not).
        if (!needsRenewal(sheet)) continue;
        const after = renewal(sheet);
        await saveHunterSheet(ctx.tx, hunter.id, after);
        await appendLog(ctx, table.id, {
          action: "character.renewal",
          characterId: hunter.id,
          summary: { key: "bh.log.renewal", params: { name: hunter.name } },
          before: { damage: sheet.damage, preActivated: sheet.preActivated },
          after: { damage: after.damage, preActivated: after.preActivated },
        });
        renewed.push(hunter.name);
      }
    }
    const lines = [
      t(ctx.publicLang, newAdventure ? "bh.reserve.setNew" : "bh.reserve.setSame", {
        total: next.total,
        ceiling: next.ceiling,
        left: reserveLeft(next),
      }),
      ...(renewed.length > 0 ? [t(ctx.publicLang, "bh.reserve.renewed", { names: renewed.join(", ") })] : []),
    ];
    return { reply: { embeds: [{ description: lines.join("\n"), tone: "success" }] }, effects: dropped };
  },
);

/** What starting a new adventure would clear, or null when nothing of this one has happened yet. */
function runningAdventure(pool: ReservePool, hunters: Character[]): { damaged: string[] } | null {
  const adventure = adventureOf(pool);
  if (adventure.ended) return null;
  const damaged = hunters.filter((h) => needsRenewal(hunterSheet(h))).map((h) => h.name);
  if (pool.spent === 0 && damaged.length === 0 && adventure.challenges + adventure.concessions === 0)
    return null;
  return { damaged };
}

function needsRenewal(sheet: ReturnType<typeof hunterSheet>): boolean {
  return (
    sheet.preActivated.length > 0 ||
    Object.values(sheet.damage).some((stages) => Object.values(stages).some((n) => n > 0))
  );
}

function confirmNewAdventure(
  lang: Lang,
  intent: { total: number; ceiling: number },
  pool: ReservePool,
  running: { damaged: string[] },
): MessageView {
  return {
    ephemeral: true,
    embeds: [
      {
        description: [
          t(lang, "bh.reserve.confirmNew", {
            spent: pool.spent,
            total: pool.total,
            damaged: running.damaged.join(", ") || "—",
          }),
          t(lang, "bh.reserve.confirmSame"),
        ].join("\n"),
        tone: "warning",
      },
    ],
    rows: [
      [
        {
          kind: "button",
          label: t(lang, "bh.reserve.confirmButton", { total: intent.total, ceiling: intent.ceiling }),
          intent: {
            type: "reserve.set",
            total: intent.total,
            ceiling: intent.ceiling,
            adventure: "new",
            confirm: true,
          },
          style: "danger",
        },
      ],
    ],
  };
}

/** The summary's "next adventure" button: a form for the hunters' new reserve and ceiling. */
export const reserveForm = defineBhUseCase(
  "reserve.form",
  { mutates: false, ephemeral: true },
  async (ctx) => {
    const lang = ctx.userLang;
    return {
      modal: {
        title: t(lang, "bh.reserve.formTitle"),
        intent: { type: "reserve.set", adventure: "new" },
        inputs: [
          {
            field: "total",
            label: t(lang, "bh.reserve.formTotal"),
            style: "short",
            maxLength: 5,
            value: ctx.intent.total === undefined ? undefined : String(ctx.intent.total),
          },
          {
            field: "ceiling",
            label: t(lang, "bh.reserve.formCeiling"),
            style: "short",
            maxLength: 5,
            value: ctx.intent.ceiling === undefined ? undefined : String(ctx.intent.ceiling),
          },
        ],
      },
    };
  },
);

/** Ends the adventure when the reserve is spent and no challenge it paid for is still open. */
export async function endIfReserveSpent(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang" | "invocation">,
  table: GameTable,
): Promise<Effect[]> {
  const pool = await findReserve(ctx.tx, table.id);
  if (!pool || reserveLeft(asReserve(pool)) > 0) return [];
  if (await findOpenFlow(ctx.tx, challengeFlow, table.id)) return [];
  const summary = await finishAdventure(ctx, table, pool, adventureOf(pool), "reserve", true);
  return summary ? [{ kind: "post", channelId: ctx.invocation.channelId, view: summary }] : [];
}

export const reserveShow = defineBhUseCase(
  "reserve.show",
  { mutates: false, ephemeral: false },
  async (ctx, table) => {
    const pool = await findReserve(ctx.tx, table.id);
    // Not log_entry.id itself: an int8 would come back as a string.
    const history = await sqlFor(ctx.tx).rows<Pick<LogEntry, "at" | "actorUserId" | "summary" | "reason">>`
      SELECT at, actor_user_id, summary, reason FROM log_entry
      WHERE table_id = ${table.id} AND visible_to IS NULL
        AND action IN ('reserve.set', 'reserve.spend', 'reserve.concede', 'challenge.start', 'challenge.refund')
      ORDER BY id DESC LIMIT 10`;
    const lines = history.reverse().map((e) => {
      const summary = e.summary as unknown as LogSummary;
      const reason = e.reason ? ` — _${e.reason}_` : "";
      return `<t:${Math.floor(e.at.getTime() / 1000)}:t> <@${e.actorUserId}> ${t(ctx.publicLang, summary.key, summary.params)}${reason}`;
    });
    const embed: EmbedView = {
      title: t(ctx.publicLang, "bh.reserve.title"),
      description: reserveSummary(ctx.publicLang, pool),
      fields: [{ name: t(ctx.publicLang, "bh.reserve.history"), value: lines.join("\n") || "—" }],
      tone: "info",
    };
    return { reply: { embeds: [embed] } };
  },
);

export const reserveSpend = defineBhUseCase(
  "reserve.spend",
  { access: "gm", mutates: true, ephemeral: false },
  async (ctx, table) => {
    const pool = await requireReserve(ctx.tx, table.id);
    const reason = cleanText(ctx.intent.reason, 200);
    const left = reserveLeft(asReserve(pool));
    if (ctx.intent.amount > left) refuse("errors.bh.spendOverReserve", { amount: ctx.intent.amount, left });
    const change = chargeReserve(asReserve(pool), ctx.intent.amount);
    await recordReserve(ctx, table, pool, change.reserve, {
      action: "reserve.spend",
      key: "bh.log.reserveSpend",
      params: { amount: ctx.intent.amount },
      reason,
    });
    const lines = [
      t(ctx.publicLang, "bh.reserve.spent", {
        amount: ctx.intent.amount,
        before: change.before,
        after: change.after,
        reason,
      }),
    ];
    return {
      reply: { embeds: [{ description: lines.join("\n"), tone: "info" }] },
      // Only a spend that empties the reserve can end the adventure.
      effects: reserveLeft(change.reserve) > 0 ? [] : await endIfReserveSpent(ctx, table),
    };
  },
);

export const reserveConcede = defineBhUseCase(
  "reserve.concede",
  { access: "gm", mutates: true, ephemeral: false },
  async (ctx, table) => {
    const pool = await requireReserve(ctx.tx, table.id);
    await refuseIfChallengeOpen(ctx, table);
    const adventure = adventureOf(pool);
    if (adventure.ended) refuse("errors.bh.adventureOver");
    const negotiation = await findNegotiation(ctx, table.id);
    if (!negotiation) {
      const over = await endIfNobodyPlaying(ctx, table);
      if (over) return { reply: over };
    }
    // An open negotiation ends here: its phase, its hunters, and "concession" recorded.
    if (ctx.intent.negotiation !== undefined && negotiation?.id !== ctx.intent.negotiation)
      refuse("errors.bh.negotiationOver");
    if (negotiation) requireNegotiationPhase(negotiation, ctx.intent.phase);
    const hunters = await negotiatingHunters(
      ctx.tx,
      table.id,
      adventure,
      ctx.intent.hunters ?? negotiation?.state.hunters.map((h) => h.name).join(", "),
    );
    const concession = concedeFromReserve(asReserve(pool), ctx.intent.phase, ctx.intent.rating);
    await recordReserve(ctx, table, pool, concession.change.reserve, {
      action: "reserve.concede",
      key: "bh.log.concede",
      params: { phase: concession.phase, rating: concession.rating, cost: concession.cost },
    });
    // [decision] docs/rules/beast-hunters.md §2.4: each hunter in the negotiation gets the phase's VP.
    const vp: Record<string, number> = {};
    for (const hunter of hunters) {
      vp[String(hunter.id)] = concession.vp;
      await creditVictoryPoints(ctx.tx, hunter.id, concession.vp);
      await appendLog(ctx, table.id, {
        action: "character.vp",
        characterId: hunter.id,
        summary: { key: "bh.log.vpAwarded", params: { name: hunter.name, amount: concession.vp } },
        before: { vp: hunter.victoryPoints },
        after: { vp: hunter.victoryPoints + concession.vp },
        reason: t(ctx.publicLang, "bh.reason.concession", { phase: concession.phase }),
      });
    }
    const counted = addAdventureVp(adventure, vp);
    await saveAdventure(ctx.tx, table.id, { ...counted, concessions: counted.concessions + 1 });
    const lines = [
      t(ctx.publicLang, "bh.concession", {
        phase: concession.phase,
        rating: concession.rating,
        cost: concession.cost,
        before: concession.change.before,
        after: concession.change.after,
        vp: concession.vp,
      }),
      ...(concession.change.before - concession.change.after < concession.cost
        ? [
            t(ctx.publicLang, "bh.concessionCapped", {
              cost: concession.cost,
              spent: concession.change.before - concession.change.after,
            }),
          ]
        : []),
      t(ctx.publicLang, "bh.reserve.vpTo", {
        names: hunters.map((h) => h.name).join(", "),
        vp: concession.vp,
        count: hunters.length,
      }),
    ];
    const closed = negotiation
      ? [await closeNegotiation(ctx as ActionContext, table, negotiation, "concession", null)]
      : [];
    return {
      reply: { embeds: [{ description: lines.join("\n"), tone: "success" }] },
      effects: [...closed, ...(await endIfReserveSpent(ctx, table))],
    };
  },
);

/**
 * The hunters taking part (in a negotiation or a challenge): the named ones, or every hunter
 * still playing the adventure. A hunter out of the adventure cannot be named.
 */
export async function negotiatingHunters(
  tx: Tx,
  tableId: number,
  adventure: Adventure,
  names: string | undefined,
): Promise<Character[]> {
  const playing = (await activeHunters(tx, tableId)).filter((h) => stillPlaying(adventure, String(h.id)));
  const wanted = (names ?? "")
    .split(/[,;\n]/)
    .map((n) => n.trim())
    .filter((n) => n.length > 0);
  if (wanted.length === 0) {
    if (playing.length === 0) refuse("errors.bh.noHunters");
    return playing;
  }
  const chosen: Character[] = [];
  for (const name of wanted) {
    const hunter = playing.find((h) => nameKey(h.name) === nameKey(name));
    if (!hunter) refuse("errors.bh.notPlaying", { name: name.slice(0, 64) });
    if (!chosen.includes(hunter)) chosen.push(hunter);
  }
  return chosen;
}
