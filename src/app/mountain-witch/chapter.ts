/**
 * `/chapter next` (docs/rules/mountain-witch.md §1.3, §1.6): the first time, play begins (the
 * starting matrix is final); after that a new chapter starts — damage "until the end of the
 * chapter" ends, the incapacitated may try to recover, and the chapter's trust round opens (in
 * secret mode each giver's row goes by DM, with a note in the channel when their DMs are closed).
 */

import { t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { openTrustRound } from "../../rules/mountain-witch/index.js";
import { sqlFor } from "../../store/db.js";
import { setTableChapter } from "../../store/tables.js";
import { sessionRecapEmbed } from "../common/session.js";
import { startFlow } from "../flows.js";
import { languagesOf } from "../languages.js";
import { appendLog } from "../log.js";
import type { Effect } from "../use-case.js";
import { type TrustRoundFlow, trustRoundFlow } from "./flow-states.js";
import { button, mwSheet, mwTableState, trustCharacters, trustLinks } from "./shared.js";
import { beginPlay } from "./starting-trust.js";
import { openRound } from "./trust.js";
import { nameMap, roundPanel, rowView } from "./trust-view.js";
import { gmAction } from "./use-cases.js";

export const chapterNext = gmAction("chapter.next", "public change", async (ctx) => {
  const { table } = ctx;
  if (await openRound(ctx.tx, table)) refuse("errors.mw.trustRoundOpen");
  const mw = mwTableState(table);
  const links = await trustLinks(ctx.tx, table.id);
  if (!mw.matrixLocked) {
    // The first chapter begins: the starting matrix is final (secret edits revealed) and points are full.
    const revealed = await beginPlay(ctx, table, ctx.publicLang);
    await appendLog(ctx, table.id, {
      action: "chapter.start",
      summary: { key: "log.mw.chapter.start", params: { chapter: table.chapter } },
    });
    return {
      reply: {
        embeds: [
          {
            title: t(ctx.publicLang, "mw.chapter.firstTitle", { chapter: table.chapter }),
            description: t(ctx.publicLang, "mw.chapter.first"),
            tone: "success",
          },
          ...(revealed?.embeds ?? []),
        ],
      },
    };
  }
  const chapter = table.chapter + 1;
  await setTableChapter(ctx.tx, table.id, chapter);
  // "Until the end of the chapter" damage ends with it (cleared and listed in one statement).
  const damage = await sqlFor(ctx.tx).rows<{ id: number }>`
      WITH cleared AS (
        UPDATE damage_entry SET cleared_at = ${ctx.now}
        WHERE table_id = ${table.id} AND cleared_at IS NULL AND duration = 'chapter'
        RETURNING id
      )
      SELECT id FROM cleared ORDER BY id`;
  // «В начале каждой главы очки доверия пересчитываются»: every point refills now, for everyone,
  // whatever the round's state; the round's changes move them when it is revealed.
  await sqlFor(ctx.tx).run`UPDATE trust_link SET points = value WHERE table_id = ${table.id}`;
  await appendLog(ctx, table.id, {
    action: "trust.refill",
    summary: { key: "log.mw.trust.refill", params: { chapter } },
  });
  const characters = await trustCharacters(ctx.tx, table.id);
  const recoverable = characters.filter((c) => {
    const s = mwSheet(c);
    return c.status === "incapacitated" && (s.incapacitatedInChapter ?? 0) < chapter;
  });
  await appendLog(ctx, table.id, {
    action: "chapter.next",
    summary: { key: "log.mw.chapter.next", params: { chapter } },
    before: { chapter: table.chapter },
    after: { chapter, clearedDamage: damage.map((d) => d.id) },
  });
  const givers = characters.filter((c) => c.ownerUserId !== null);
  const round = openTrustRound({
    chapter,
    mode: table.trustMode === "open" ? "open" : "secret",
    giverIds: givers.map((c) => c.id),
    links,
  });
  const state: TrustRoundFlow = { round, dmClosed: [] };
  const flow = await startFlow(ctx, trustRoundFlow, table.id, state);
  const names = nameMap(characters);
  const effects: Effect[] = [];
  if (round.mode === "secret") {
    // Each giver's DM is in their own language; the note posted when their DMs are closed is public.
    const languages = await languagesOf(
      ctx,
      givers.map((g) => g.ownerUserId!),
    );
    for (const giver of givers) {
      effects.push({
        kind: "dm",
        userId: giver.ownerUserId!,
        view: rowView(languages.get(giver.ownerUserId!)!, flow.id, round, giver, names, true),
        ifClosed: {
          channelId: table.channelId,
          view: {
            content: t(ctx.publicLang, "mw.trust.dmClosed", {
              user: `<@${giver.ownerUserId}>`,
              name: giver.name,
            }),
            mentionUsers: [giver.ownerUserId!],
            // The same private form as in the DM: only that player may open it (the use case checks).
            rows: [
              [
                button(
                  t(ctx.publicLang, "mw.trust.button.openForm", { name: giver.name }).slice(0, 80),
                  "primary",
                  { type: "trust.edit", flowId: flow.id, characterId: giver.id, inChannel: 1 },
                ),
              ],
            ],
          },
          intent: { type: "trust.dm-closed", flowId: flow.id, characterId: giver.id },
        },
      });
    }
  }
  // The session so far, posted as the chapter turns (public entries only, as every recap).
  const recap = await sessionRecapEmbed(ctx, table, ctx.publicLang, "session.recap.chapterTitle");
  if (recap) effects.push({ kind: "post", channelId: table.channelId, view: { embeds: [recap] } });
  const panel = roundPanel(ctx.publicLang, flow.id, state, names);
  const notes = [
    t(ctx.publicLang, "mw.chapter.next", { chapter, cleared: damage.length }),
    ...(recoverable.length
      ? [t(ctx.publicLang, "mw.chapter.mayRecover", { names: recoverable.map((c) => c.name).join(", ") })]
      : []),
  ];
  return {
    reply: { ...panel, embeds: [{ description: notes.join("\n"), tone: "info" }, ...(panel.embeds ?? [])] },
    replyIsPanelOf: flow.id,
    effects,
  };
});
export const chapterUseCases = [chapterNext];
