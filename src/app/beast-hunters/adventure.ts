/** The table's adventure as the app keeps it: stored with the reserve, ended with a summary (docs/rules/beast-hunters.md §2.2). */
import type { Character, GameTable, ReservePool } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import {
  type Adventure,
  type AdventureEnd,
  asAdventure,
  endAdventure,
  finalStanding,
  reserveLeft,
} from "../../rules/beast-hunters/index.js";
import { sqlFor, type Tx } from "../../store/db.js";
import { appendLog } from "../log.js";
import type { ActionContext } from "../use-case.js";
import type { MessageView } from "../views.js";

export function adventureOf(pool: Pick<ReservePool, "adventure"> | null): Adventure {
  return asAdventure(pool?.adventure ?? {});
}

export async function saveAdventure(tx: Tx, tableId: number, adventure: Adventure): Promise<void> {
  await sqlFor(tx).run`
    UPDATE reserve_pool SET adventure = ${JSON.stringify(adventure)}::jsonb WHERE table_id = ${tableId}`;
}

/** The table's player characters that have a part in this adventure (active, or retired in it). */
export function adventureHunters(tx: Tx, tableId: number): Promise<Character[]> {
  return sqlFor(tx).rows<Character>`
    SELECT * FROM "character"
    WHERE table_id = ${tableId} AND kind = 'pc' AND status IN ('active', 'retired', 'dead') AND deleted_at IS NULL
    ORDER BY id`;
}

/**
 * Ends the adventure (logged) and returns the summary to post, or null if it had already ended.
 * The summary carries the button that starts the next adventure (renewal).
 */
export async function finishAdventure(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang">,
  table: GameTable,
  pool: ReservePool,
  adventure: Adventure,
  reason: AdventureEnd,
  huntersWon: boolean,
): Promise<MessageView | null> {
  if (adventure.ended) return null;
  const ended = endAdventure(adventure, reason, huntersWon);
  await saveAdventure(ctx.tx, table.id, ended);
  await appendLog(ctx, table.id, {
    action: "adventure.end",
    summary: { key: "bh.log.adventureEnded", params: { reason } },
    before: null,
    after: ended,
  });
  const hunters = await adventureHunters(ctx.tx, table.id);
  return adventureSummary(ctx.publicLang, pool, ended, hunters);
}

/** The end-of-adventure summary: how it ended, challenges, reserve spent, each hunter's standing and VP. */
export function adventureSummary(
  lang: Lang,
  pool: Pick<ReservePool, "total" | "ceiling" | "spent">,
  adventure: Adventure,
  hunters: readonly Pick<Character, "id" | "name">[],
): MessageView {
  const reason = adventure.ended?.reason ?? "reserve";
  const lines = hunters
    .filter((h) => adventure.hunters[String(h.id)] !== undefined || adventure.vp[String(h.id)] !== undefined)
    .map((h) =>
      t(lang, "bh.adventure.hunterLine", {
        name: h.name,
        standing: finalStanding(adventure, String(h.id)),
        vp: adventure.vp[String(h.id)] ?? 0,
      }),
    );
  return {
    embeds: [
      {
        title: t(lang, "bh.adventure.title"),
        description: [
          t(lang, "bh.adventure.ended", { reason }),
          t(lang, "bh.adventure.counts", {
            challenges: adventure.challenges,
            concessions: adventure.concessions,
            spent: pool.total - reserveLeft(pool),
            total: pool.total,
          }),
          "",
          ...(lines.length > 0 ? lines : [t(lang, "bh.adventure.noHunters")]),
          "",
          t(lang, "bh.adventure.next"),
        ].join("\n"),
        tone: adventure.ended?.won === false ? "failure" : "success",
      },
    ],
    rows: [
      [
        {
          kind: "button",
          label: t(lang, "bh.adventure.renew"),
          intent: { type: "reserve.form", ceiling: pool.ceiling, total: pool.total },
          style: "primary",
        },
      ],
    ],
  };
}

/** Hunters named in the adventure's standings, with their last known names (for the summary). */
export function standingNames(hunters: readonly Pick<Character, "id" | "name">[], ids: readonly string[]) {
  return ids.map((id) => hunters.find((h) => String(h.id) === id)?.name ?? id).join(", ");
}
