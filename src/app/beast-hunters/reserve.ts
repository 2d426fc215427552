import { z } from "zod";
import type { Character, GameTable, LogEntry, ReservePool } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import {
  chargeReserve,
  concedeFromReserve,
  newReserve,
  type Reserve,
  renewal,
  reserveLeft,
} from "../../rules/beast-hunters/index.js";
import { refuse } from "../../rules/errors.js";
import { sqlFor, type Tx } from "../../store/db.js";
import { isGm, requireGm, requireTable } from "../access.js";
import { findOpenFlow } from "../flows.js";
import { appendLog } from "../log.js";
import { cleanText } from "../names.js";
import { type ActionContext, defineUseCase } from "../use-case.js";
import type { EmbedView } from "../views.js";
import type { ChallengeFlowState } from "./challenge-view.js";
import { hunterSheet, saveHunterSheet } from "./sheets.js";

const SYSTEMS = ["beast-hunters"] as const;

export function asReserve(pool: ReservePool): Reserve {
  return { total: pool.total, ceiling: pool.ceiling, spent: pool.spent };
}

export function findReserve(tx: Tx, tableId: number): Promise<ReservePool | null> {
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
  log: { action: string; key: string; params?: Record<string, string | number>; reason?: string | null },
): Promise<void> {
  // The CHECK constraint (spent within 0..total) stays the last word on the amounts.
  const changed = await sqlFor(ctx.tx).run`
    UPDATE reserve_pool SET total = ${next.total}, ceiling = ${next.ceiling}, spent = ${next.spent}, updated_at = ${new Date()}
    WHERE table_id = ${table.id}`;
  if (changed !== 1) throw new Error(`reserve of table ${table.id} not found`);
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
  return sqlFor(tx).rows<Character>`
    SELECT * FROM "character"
    WHERE table_id = ${tableId} AND kind = 'pc' AND status = 'active' AND deleted_at IS NULL
    ORDER BY id`;
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
  const open = await findOpenFlow<ChallengeFlowState>(ctx.tx, table.id, "bh.challenge");
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

export const reserveSet = defineUseCase({
  type: "reserve.set",
  schema: z.object({
    type: z.literal("reserve.set"),
    total: z.number().int().min(0).max(10_000),
    ceiling: z.number().int().min(1).max(10_000),
    adventure: z.enum(["new", "same"]).optional(),
  }),
  systems: SYSTEMS,
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireTable(ctx);
    const hunters = await activeHunters(ctx.tx, table.id);
    // [decision] docs/rules/beast-hunters.md §2.2: any hunter at the table or the GM enters the hunters' agreed numbers.
    if (!isGm(table, ctx.actor) && !hunters.some((h) => h.ownerUserId === ctx.actor.userId)) {
      refuse("errors.bh.huntersOrGmOnly");
    }
    const fresh = newReserve(ctx.intent.total, ctx.intent.ceiling);
    const existing = await findReserve(ctx.tx, table.id);
    const newAdventure = ctx.intent.adventure !== "same" || !existing;
    if (newAdventure) await refuseIfChallengeOpen(ctx, table);
    const spent = newAdventure ? 0 : Math.min(existing!.spent, fresh.total);
    const next: Reserve = { ...fresh, spent };
    await sqlFor(ctx.tx).run`
      INSERT INTO reserve_pool (table_id, total, ceiling, spent, updated_at)
      VALUES (${table.id}, ${next.total}, ${next.ceiling}, ${spent}, ${new Date()})
      ON CONFLICT (table_id) DO UPDATE
      SET total = EXCLUDED.total, ceiling = EXCLUDED.ceiling, spent = EXCLUDED.spent, updated_at = EXCLUDED.updated_at`;
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
        const after = renewal(sheet);
        if (JSON.stringify(after) === JSON.stringify(sheet)) continue;
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
    return { reply: { embeds: [{ description: lines.join("\n"), tone: "success" }] } };
  },
});

export const reserveShow = defineUseCase({
  type: "reserve.show",
  schema: z.object({ type: z.literal("reserve.show") }),
  systems: SYSTEMS,
  table: "required",
  mutates: false,
  ephemeral: false,
  async run(ctx) {
    const table = requireTable(ctx);
    const pool = await findReserve(ctx.tx, table.id);
    // Not log_entry.id itself: an int8 would come back as a string.
    const history = await sqlFor(ctx.tx).rows<Pick<LogEntry, "at" | "actorUserId" | "summary" | "reason">>`
      SELECT at, actor_user_id, summary, reason FROM log_entry
      WHERE table_id = ${table.id} AND visible_to IS NULL
        AND action IN ('reserve.set', 'reserve.spend', 'reserve.concede', 'challenge.start', 'challenge.refund')
      ORDER BY id DESC LIMIT 10`;
    const lines = history.reverse().map((e) => {
      const summary = e.summary as { key: string; params?: Record<string, string | number> };
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
});

export const reserveSpend = defineUseCase({
  type: "reserve.spend",
  schema: z.object({
    type: z.literal("reserve.spend"),
    amount: z.number().int().min(1).max(10_000),
    reason: z.string().min(1).max(200),
  }),
  systems: SYSTEMS,
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireGm(ctx);
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
      ...(change.after === 0 ? [t(ctx.publicLang, "bh.reserve.exhausted")] : []),
    ];
    return { reply: { embeds: [{ description: lines.join("\n"), tone: "info" }] } };
  },
});

export const reserveConcede = defineUseCase({
  type: "reserve.concede",
  schema: z.object({
    type: z.literal("reserve.concede"),
    phase: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    rating: z.number().int().min(1).max(10_000).optional(),
  }),
  systems: SYSTEMS,
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireGm(ctx);
    const pool = await requireReserve(ctx.tx, table.id);
    await refuseIfChallengeOpen(ctx, table);
    const hunters = await activeHunters(ctx.tx, table.id);
    if (hunters.length === 0) refuse("errors.bh.noHunters");
    const concession = concedeFromReserve(asReserve(pool), ctx.intent.phase, ctx.intent.rating);
    await recordReserve(ctx, table, pool, concession.change.reserve, {
      action: "reserve.concede",
      key: "bh.log.concede",
      params: { phase: concession.phase, rating: concession.rating, cost: concession.cost },
    });
    for (const hunter of hunters) {
      await sqlFor(ctx.tx).run`
        UPDATE "character" SET victory_points = victory_points + ${concession.vp} WHERE id = ${hunter.id}`;
      await appendLog(ctx, table.id, {
        action: "character.vp",
        characterId: hunter.id,
        summary: { key: "bh.log.vpAwarded", params: { name: hunter.name, amount: concession.vp } },
        before: { vp: hunter.victoryPoints },
        after: { vp: hunter.victoryPoints + concession.vp },
        reason: t(ctx.publicLang, "bh.reason.concession", { phase: concession.phase }),
      });
    }
    const lines = [
      t(ctx.publicLang, "bh.concession", {
        phase: concession.phase,
        cost: concession.cost,
        before: concession.change.before,
        after: concession.change.after,
        vp: concession.vp,
      }),
      t(ctx.publicLang, "bh.reserve.vpTo", {
        names: hunters.map((h) => h.name).join(", "),
        vp: concession.vp,
      }),
      ...(concession.change.after === 0 ? [t(ctx.publicLang, "bh.reserve.exhausted")] : []),
    ];
    return { reply: { embeds: [{ description: lines.join("\n"), tone: "success" }] } };
  },
});
