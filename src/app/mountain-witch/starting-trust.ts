/**
 * Starting trust (docs/rules/mountain-witch.md §1.3, §1.6): the zodiac gives each value;
 * before chapter 1 each player may raise what they give by 1 at most per character, or
 * lower it. In secret mode those edits are kept unseen in the table state until play
 * begins; then they are applied and revealed together, like a chapter's trust round.
 */
import type { Character, GameTable } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { validateStartingTrust } from "../../rules/mountain-witch/index.js";
import { sqlFor } from "../../store/db.js";
import { appendLog, appendLogAs } from "../log.js";
import type { ActionContext } from "../use-case.js";
import type { MessageView } from "../views.js";
import { mwTableState, saveTableState, trustCharacters, trustLinks, zodiacTrust } from "./shared.js";

export type StartingEdit = ReturnType<typeof mwTableState>["startingEdits"][number];

/** The value the giver gives now, counting their own unrevealed edit (for their eyes only). */
export function ownStartingValue(
  table: GameTable,
  giverId: number,
  holderId: number,
  stored: number,
): number {
  const edit = mwTableState(table).startingEdits.find(
    (e) => e.giverId === giverId && e.holderId === holderId,
  );
  return edit?.value ?? stored;
}

/**
 * Sets a starting value within the zodiac's limits. Open mode writes it at once (public);
 * secret mode keeps it in the table state, logged for the giver's player only.
 */
export async function setStartingTrust(
  ctx: Pick<ActionContext, "tx" | "actor">,
  table: GameTable,
  giver: Character,
  holder: Character,
  requested: number,
): Promise<{ value: number; secret: boolean }> {
  const value = validateStartingTrust(zodiacTrust(giver, holder), requested);
  const secret = table.trustMode !== "open";
  const sql = sqlFor(ctx.tx);
  const link = await sql.one<{ value: number }>`
    SELECT value FROM trust_link WHERE giver_id = ${giver.id} AND holder_id = ${holder.id}`;
  const before = ownStartingValue(table, giver.id, holder.id, link?.value ?? 0);
  if (secret) {
    const others = mwTableState(table).startingEdits.filter(
      (e) => !(e.giverId === giver.id && e.holderId === holder.id),
    );
    const edits =
      value === (link?.value ?? 0)
        ? others
        : [...others, { giverId: giver.id, holderId: holder.id, value, userId: ctx.actor.userId }];
    await saveTableState(ctx.tx, table, { startingEdits: edits });
  } else {
    await sql.run`
      INSERT INTO trust_link (table_id, giver_id, holder_id, value, points)
      VALUES (${table.id}, ${giver.id}, ${holder.id}, ${value}, ${value})
      ON CONFLICT (giver_id, holder_id) DO UPDATE SET value = EXCLUDED.value, points = EXCLUDED.points`;
  }
  await appendLog(ctx, table.id, {
    action: "trust.value",
    characterId: giver.id,
    summary: {
      key: "log.mw.trust.value",
      params: { giver: giver.name, holder: holder.name, before, after: value },
    },
    before: { value: before },
    after: { value },
    visibleTo: secret ? ctx.actor.userId : null,
  });
  return { value, secret };
}

/** A character's sign changed: their starting trust starts again from the zodiac, edits included. */
export async function forgetStartingEdits(tx: ActionContext["tx"], table: GameTable, characterId: number) {
  const edits = mwTableState(table).startingEdits;
  const kept = edits.filter((e) => e.giverId !== characterId && e.holderId !== characterId);
  if (kept.length !== edits.length) await saveTableState(tx, table, { startingEdits: kept });
}

/**
 * Play begins (chapter 1, or the first conflict or duel): the starting matrix becomes final,
 * unrevealed edits are applied (each credited in the log to the player who made it) and
 * every point is full. Returns the public reveal of those edits, or null when there were none.
 */
export async function beginPlay(
  ctx: Pick<ActionContext, "tx" | "actor">,
  table: GameTable,
  lang: Lang,
): Promise<MessageView | null> {
  const mw = mwTableState(table);
  if (mw.matrixLocked) return null;
  const edits = mw.startingEdits;
  const links = await trustLinks(ctx.tx, table.id);
  const characters = await trustCharacters(ctx.tx, table.id);
  const names = new Map(characters.map((c) => [c.id, c.name]));
  const lines: string[] = [];
  for (const e of edits) {
    const before = links.find((l) => l.giverId === e.giverId && l.holderId === e.holderId)?.value ?? 0;
    await sqlFor(ctx.tx).run`
      UPDATE trust_link SET value = ${e.value}, points = ${e.value}
      WHERE giver_id = ${e.giverId} AND holder_id = ${e.holderId}`;
    const params = {
      giver: names.get(e.giverId) ?? "?",
      holder: names.get(e.holderId) ?? "?",
      before,
      after: e.value,
    };
    await appendLogAs(ctx.tx, table.id, e.userId, {
      action: "trust.value",
      characterId: e.giverId,
      summary: { key: "log.mw.trust.value", params },
      before: { value: before },
      after: { value: e.value },
    });
    lines.push(t(lang, "mw.trust.changeLine", params));
  }
  await sqlFor(ctx.tx).run`UPDATE trust_link SET points = value WHERE table_id = ${table.id}`;
  await saveTableState(ctx.tx, table, { matrixLocked: true, startingEdits: [] });
  if (lines.length === 0) return null;
  return {
    embeds: [{ title: t(lang, "mw.trust.startingRevealTitle"), description: lines.join("\n"), tone: "info" }],
  };
}
