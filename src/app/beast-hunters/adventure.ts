/** The table's adventure as the app keeps it: stored with the reserve, ended with a summary (docs/rules/beast-hunters.md §2.2). */
import type { Character, GameTable, ReservePool } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import {
  type Adventure,
  type AdventureEnd,
  addAdventureVp,
  afterFatalChoice,
  asAdventure,
  type ChallengeEvent,
  type ChallengeState,
  endAdventure,
  finalStanding,
  nobodyPlaying,
  reserveLeft,
} from "../../rules/beast-hunters/index.js";
import { activePlayerCharacters, livePlayerCharactersActiveRetiredOrDead } from "../../store/characters.js";
import { sqlFor, type Tx } from "../../store/db.js";
import { sessionRecapEmbed } from "../common/session.js";
import { findOpenFlow } from "../flows.js";
import { appendLog } from "../log.js";
import type { ActionContext, Effect } from "../use-case.js";
import type { MessageView } from "../views.js";
import { challengeFlow } from "./flow-states.js";
import { findReserve } from "./reserve.js";

export function adventureOf(pool: Pick<ReservePool, "adventure"> | null): Adventure {
  return asAdventure(pool?.adventure ?? {});
}

export async function saveAdventure(tx: Tx, tableId: number, adventure: Adventure): Promise<void> {
  await sqlFor(tx).run`
    UPDATE reserve_pool SET adventure = ${JSON.stringify(adventure)}::jsonb WHERE table_id = ${tableId}`;
}

/** The table's player characters that have a part in this adventure (active, or retired in it). */
export function adventureHunters(tx: Tx, tableId: number): Promise<Character[]> {
  return livePlayerCharactersActiveRetiredOrDead(tx, tableId);
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
  return announceEnd(ctx, table, pool, endAdventure(adventure, reason, huntersWon));
}

async function announceEnd(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang">,
  table: GameTable,
  pool: ReservePool,
  ended: Adventure,
): Promise<MessageView> {
  await saveAdventure(ctx.tx, table.id, ended);
  await appendLog(ctx, table.id, {
    action: "adventure.end",
    summary: { key: "bh.log.adventureEnded", params: { reason: ended.ended?.reason ?? "reserve" } },
    before: null,
    after: ended,
  });
  const hunters = await adventureHunters(ctx.tx, table.id);
  const summary = adventureSummary(ctx.publicLang, pool, ended, hunters);
  // The session so far goes with the summary (public entries only, as every recap), kept short
  // enough for one message beside it.
  const recap = await sessionRecapEmbed(ctx, table, ctx.publicLang, "session.recap.adventureTitle", 1800);
  return recap ? { ...summary, embeds: [...(summary.embeds ?? []), recap] } : summary;
}

/**
 * What a challenge action changes in the adventure: a fatal choice (lost, or won by a sacrifice),
 * VP earned, a challenge played; a closed climax or a closed challenge that left the reserve
 * empty ends it. Returns the summary to post when the adventure ended now.
 */
export async function settleAdventure(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang" | "invocation">,
  table: GameTable,
  before: ChallengeState,
  state: ChallengeState,
  events: readonly ChallengeEvent[],
): Promise<Effect[]> {
  const closedNow = before.status !== "closed" && state.status === "closed";
  const touches = events.some(
    (e) => e.type === "fateChosen" || e.type === "taskResolved" || e.type === "challengeEnded",
  );
  if (!closedNow && !touches) return [];
  const pool = await findReserve(ctx.tx, table.id);
  if (!pool) return [];
  const was = adventureOf(pool);
  let adventure = was;
  for (const event of events) {
    if (event.type === "fateChosen")
      adventure = afterFatalChoice(adventure, event.participant, event.choice, state.sphere);
    if (event.type === "taskResolved") adventure = addAdventureVp(adventure, event.vp);
    if (event.type === "challengeEnded") adventure = addAdventureVp(adventure, event.outcome.vp);
  }
  if (closedNow) {
    adventure = { ...adventure, challenges: adventure.challenges + 1 };
    if (state.climax) adventure = endAdventure(adventure, "climax", state.outcome?.winner === "hunters");
    else if (reserveLeft(pool) === 0) adventure = endAdventure(adventure, "reserve", true);
    else if (await nobodyLeft(ctx.tx, table.id, adventure, pool.spent))
      adventure = endAdventure(adventure, "nobodyPlaying", false);
  }
  if (was.ended || !adventure.ended) {
    await saveAdventure(ctx.tx, table.id, adventure);
    return [];
  }
  const summary = await announceEnd(ctx, table, pool, adventure);
  return [{ kind: "post", channelId: ctx.invocation.channelId, view: summary }];
}

async function nobodyLeft(tx: Tx, tableId: number, adventure: Adventure, spent: number): Promise<boolean> {
  const hunters = await activePlayerCharacters(tx, tableId);
  return nobodyPlaying(
    adventure,
    hunters.map((h) => String(h.id)),
    spent,
  );
}

/**
 * An adventure no hunter is still playing ends by itself, lost (docs/rules/beast-hunters.md §2.2):
 * the summary to post, or null while someone still plays it (or a challenge is open).
 */
export async function endIfNobodyPlaying(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang">,
  table: GameTable,
): Promise<MessageView | null> {
  const pool = await findReserve(ctx.tx, table.id);
  if (!pool) return null;
  if (await findOpenFlow(ctx.tx, challengeFlow, table.id)) return null;
  const adventure = adventureOf(pool);
  if (!(await nobodyLeft(ctx.tx, table.id, adventure, pool.spent))) return null;
  return finishAdventure(ctx, table, pool, adventure, "nobodyPlaying", false);
}

/** The end-of-adventure summary: how it ended, challenges, reserve spent, each hunter's standing and VP. */
export function adventureSummary(
  lang: Lang,
  pool: Pick<ReservePool, "total" | "ceiling" | "spent">,
  adventure: Adventure,
  hunters: readonly Pick<Character, "id" | "name" | "status">[],
): MessageView {
  const reason = adventure.ended?.reason ?? "reserve";
  // Every hunter still at the table played it (one who gave up a challenge too, with 0 VP); one
  // retired or dead is listed only if it happened in this adventure.
  const lines = hunters
    .filter(
      (h) =>
        h.status === "active" ||
        adventure.hunters[String(h.id)] !== undefined ||
        adventure.vp[String(h.id)] !== undefined,
    )
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
