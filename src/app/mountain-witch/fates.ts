/**
 * `/darkfate …`: fates are dealt from a deck, each shown only to its owner (by DM, or
 * ephemerally); one redraw from the rest; once every fate is final the undealt ones are
 * shown to everyone. The GM never sees a fate until its owner reveals it.
 */
import type { Character, GameTable } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import {
  allFatesFinal,
  chooseFate,
  type DarkFate,
  dealFates,
  type FateDeckState,
  fateVisibleTo,
  keepFate,
  openFateDeck,
  redrawFate,
  revealFate,
  undealtFates,
} from "../../rules/mountain-witch/index.js";
import { livePlayerCharactersWithOwner } from "../../store/characters.js";
import { sqlFor } from "../../store/db.js";
import { activeTable, lockTableForAction } from "../execute.js";
import { languageOfTable, languagesOf } from "../languages.js";
import { appendLog, appendLogAs } from "../log.js";
import type { ActionContext, ActionResult, Effect } from "../use-case.js";
import type { MessageView } from "../views.js";
import { button, mwTableState, ownCharacterAt, saveTableState } from "./shared.js";
import { dmAction, gmAction, mwAction } from "./use-cases.js";

function fateName(lang: Lang, fate: DarkFate): string {
  return t(lang, `mw.fate.${fate}`);
}

/** The player characters who hold a fate (with a player, not deleted). */
async function fatePlayers(tx: ActionContext["tx"], table: GameTable): Promise<Character[]> {
  return livePlayerCharactersWithOwner(tx, table.id);
}

function ownFateView(
  lang: Lang,
  table: GameTable,
  deck: FateDeckState,
  character: Character,
  dm: boolean,
): MessageView {
  const hand = deck.hands.find((h) => h.characterId === character.id);
  if (!hand)
    return {
      ephemeral: !dm,
      embeds: [{ description: t(lang, "mw.fate.none", { name: character.name }), tone: "secret" }],
    };
  const lines = [
    t(lang, "mw.fate.yours", { name: character.name, fate: fateName(lang, hand.fate) }),
    `> ${t(lang, `mw.fate.desc.${hand.fate}`)}`,
  ];
  if (hand.revealed) lines.push(t(lang, "mw.fate.isRevealed"));
  else if (hand.final) lines.push(t(lang, "mw.fate.isFinal"));
  else lines.push(t(lang, "mw.fate.chooseKeep"));
  const rows: MessageView["rows"] =
    hand.final || deck.mode !== "deal"
      ? []
      : [
          [
            button(t(lang, "mw.fate.button.keep"), "success", {
              type: "darkfate.keep",
              tableId: table.id,
              characterId: character.id,
            }),
            button(t(lang, "mw.fate.button.redraw"), "secondary", {
              type: "darkfate.redraw",
              tableId: table.id,
              characterId: character.id,
            }),
          ],
        ];
  return {
    ephemeral: !dm,
    embeds: [{ title: `🂠 ${t(lang, "mw.fate.title")}`, description: lines.join("\n"), tone: "secret" }],
    rows,
  };
}

/** The table a fate action is for: the button's (from a DM), or the channel's. */
async function fateTable(ctx: ActionContext<{ type: string; tableId?: number }>): Promise<GameTable> {
  let table: GameTable | null = null;
  if (ctx.intent.tableId !== undefined)
    table = await sqlFor(ctx.tx).one<GameTable>`
      SELECT * FROM game_table WHERE id = ${ctx.intent.tableId} AND status = 'active'`;
  else if (ctx.invocation.guildId) table = await activeTable(ctx.tx, ctx.invocation.channelId);
  if (!table) refuse("errors.noTable");
  if (table.system !== "mountain-witch")
    refuse("errors.wrongSystem", { command: "darkfate", systems: "@system.mountain-witch" });
  return lockTableForAction(ctx, table.id, "mountain-witch");
}

/** Once every fate is final, the undealt fates are shown to everyone, once. */
async function maybeShowUndealt(
  ctx: Pick<ActionContext, "tx" | "publicLang" | "actor">,
  table: GameTable,
  deck: FateDeckState,
): Promise<Effect[]> {
  const mw = mwTableState(table);
  if (deck.mode !== "deal" || mw.undealtShown) return [];
  const players = await fatePlayers(ctx.tx, table);
  const dealt = players.filter((p) => deck.hands.some((h) => h.characterId === p.id)).map((p) => p.id);
  if (dealt.length === 0 || dealt.length < players.length || !allFatesFinal(deck, dealt)) return [];
  const undealt = undealtFates(deck, dealt);
  await saveTableState(ctx.tx, table, { undealtShown: true });
  // Shown by the deal itself, not by the player whose keep completed it: credited to the GM who dealt.
  await appendLogAs(ctx.tx, table.id, table.gmUserId, {
    action: "darkfate.undealt",
    summary: { key: "log.mw.fate.undealt", params: { fates: undealt.join(", ") } },
  });
  return [
    {
      kind: "post",
      channelId: table.channelId,
      view: {
        embeds: [
          {
            title: t(ctx.publicLang, "mw.fate.undealtTitle"),
            description: undealt.map((f) => `• ${fateName(ctx.publicLang, f)}`).join("\n") || "—",
            tone: "info",
          },
        ],
      },
    },
  ];
}

export const fateDeal = gmAction("darkfate.deal", "public change", async (ctx) => {
  const { table } = ctx;
  const mw = mwTableState(table);
  const mode = ctx.intent.mode ?? mw.fates?.mode ?? "deal";
  let deck = mw.fates ?? openFateDeck(mode);
  if (deck.mode !== mode) {
    if (deck.hands.length > 0) refuse("errors.mw.fateModeFixed");
    deck = openFateDeck(mode);
  }
  if (mode === "choose") {
    await saveTableState(ctx.tx, table, { fates: deck });
    await appendLog(ctx, table.id, { action: "darkfate.mode", summary: { key: "log.mw.fate.chooseMode" } });
    return { reply: { embeds: [{ description: t(ctx.publicLang, "mw.fate.chooseOpen"), tone: "info" }] } };
  }
  const players = await fatePlayers(ctx.tx, table);
  const waiting = players.filter((p) => !deck.hands.some((h) => h.characterId === p.id));
  if (waiting.length === 0) refuse("errors.mw.fatesAllDealt");
  deck = dealFates(
    deck,
    waiting.map((p) => p.id),
    ctx.dice,
  );
  await saveTableState(ctx.tx, table, { fates: deck, undealtShown: false });
  const effects: Effect[] = [];
  const languages = await languagesOf(
    ctx,
    waiting.map((p) => p.ownerUserId!),
  );
  for (const p of waiting) {
    const hand = deck.hands.find((h) => h.characterId === p.id)!;
    await appendLog(ctx, table.id, {
      action: "darkfate.deal",
      characterId: p.id,
      summary: { key: "log.mw.fate.dealtSecret", params: { name: p.name, fate: `@mw.fate.${hand.fate}` } },
      visibleTo: p.ownerUserId,
    });
    effects.push({
      kind: "dm",
      userId: p.ownerUserId!,
      view: ownFateView(languages.get(p.ownerUserId!)!, table, deck, p, true),
      ifClosed: {
        channelId: table.channelId,
        view: {
          content: t(ctx.publicLang, "mw.fate.dmClosed", { user: `<@${p.ownerUserId}>` }),
          mentionUsers: [p.ownerUserId!],
          // Each clicker sees their own fate only (the use case answers privately).
          rows: [[button(t(ctx.publicLang, "mw.fate.button.show"), "primary", { type: "darkfate.show" })]],
        },
      },
    });
  }
  await appendLog(ctx, table.id, {
    action: "darkfate.deal",
    summary: { key: "log.mw.fate.dealt", params: { count: waiting.length } },
  });
  return {
    reply: {
      embeds: [{ description: t(ctx.publicLang, "mw.fate.dealt", { count: waiting.length }), tone: "info" }],
    },
    effects,
  };
});

async function ownFateChange(
  ctx: ActionContext<{ type: string; tableId?: number; characterId?: number; character?: string }>,
  change: (deck: FateDeckState, character: Character) => FateDeckState,
  logKey: "darkfate.redraw" | "darkfate.keep",
): Promise<ActionResult> {
  const table = await fateTable(ctx);
  const character = await ownCharacterAt(ctx, table, ctx.intent.character, ctx.intent.characterId);
  const deck = mwTableState(table).fates;
  if (!deck) refuse("errors.mw.fateNotDealt");
  const next = change(deck, character);
  await saveTableState(ctx.tx, table, { fates: next });
  const hand = next.hands.find((h) => h.characterId === character.id)!;
  await appendLog(ctx, table.id, {
    action: logKey,
    characterId: character.id,
    summary: {
      key: logKey === "darkfate.redraw" ? "log.mw.fate.redraw" : "log.mw.fate.keep",
      params: { name: character.name, fate: `@mw.fate.${hand.fate}` },
    },
    visibleTo: ctx.actor.userId,
  });
  const effects = await maybeShowUndealt(
    { ...ctx, publicLang: await languageOfTable(ctx, table) },
    table,
    next,
  );
  const view = ownFateView(ctx.userLang, table, next, character, !ctx.invocation.guildId);
  return ctx.invocation.sourceMessageId !== undefined
    ? { replyMode: "update", reply: view, effects }
    : { reply: { ...view, ephemeral: true }, effects };
}

export const fateRedraw = dmAction("darkfate.redraw", "private change", (ctx) =>
  ownFateChange(ctx, (deck, c) => redrawFate(deck, c.id, ctx.dice), "darkfate.redraw"),
);

export const fateKeep = dmAction("darkfate.keep", "private change", (ctx) =>
  ownFateChange(ctx, (deck, c) => keepFate(deck, c.id), "darkfate.keep"),
);

export const fateChoose = dmAction("darkfate.choose", "private change", async (ctx) => {
  const table = await fateTable(ctx);
  const character = await ownCharacterAt(ctx, table, ctx.intent.character, ctx.intent.characterId);
  const deck = chooseFate(mwTableState(table).fates ?? openFateDeck("deal"), character.id, ctx.intent.fate);
  await saveTableState(ctx.tx, table, { fates: deck });
  await appendLog(ctx, table.id, {
    action: "darkfate.choose",
    characterId: character.id,
    summary: {
      key: "log.mw.fate.choose",
      params: { name: character.name, fate: `@mw.fate.${ctx.intent.fate}` },
    },
    visibleTo: ctx.actor.userId,
  });
  return { reply: ownFateView(ctx.userLang, table, deck, character, false) };
});

export const fateReveal = mwAction("darkfate.reveal", "public change", async (ctx) => {
  const { table } = ctx;
  const character = await ownCharacterAt(ctx, table, ctx.intent.character);
  const deck = mwTableState(table).fates;
  if (!deck) refuse("errors.mw.fateNotDealt");
  const next = revealFate(deck, character.id);
  await saveTableState(ctx.tx, table, { fates: next });
  const fate = next.hands.find((h) => h.characterId === character.id)!.fate;
  await appendLog(ctx, table.id, {
    action: "darkfate.reveal",
    characterId: character.id,
    summary: { key: "log.mw.fate.reveal", params: { name: character.name, fate: `@mw.fate.${fate}` } },
  });
  const effects = await maybeShowUndealt(ctx, table, next);
  return {
    reply: {
      embeds: [
        {
          title: t(ctx.publicLang, "mw.fate.revealTitle", { name: character.name }),
          description: `**${fateName(ctx.publicLang, fate)}**\n> ${t(ctx.publicLang, `mw.fate.desc.${fate}`)}`,
          tone: "warning",
        },
      ],
    },
    effects,
  };
});

export const fateShow = mwAction("darkfate.show", "private read", async (ctx) => {
  const { table } = ctx;
  const mw = mwTableState(table);
  const deck = mw.fates;
  const players = await fatePlayers(ctx.tx, table);
  const mine = players.filter((p) => p.ownerUserId === ctx.actor.userId);
  const lines: string[] = [];
  for (const p of players) {
    const viewer = p.ownerUserId === ctx.actor.userId ? p.id : null;
    const fate = deck ? fateVisibleTo(deck, p.id, viewer) : null;
    const has = deck?.hands.some((h) => h.characterId === p.id) ?? false;
    const shown = fate
      ? fateName(ctx.userLang, fate)
      : has
        ? t(ctx.userLang, "mw.fate.hidden")
        : t(ctx.userLang, "mw.fate.notYet");
    lines.push(
      `• **${p.name}**: ${shown}${mine.includes(p) && fate && !deck?.hands.find((h) => h.characterId === p.id)?.revealed ? ` ${t(ctx.userLang, "mw.fate.onlyYou")}` : ""}`,
    );
  }
  if (deck && mw.undealtShown) {
    const dealt = deck.hands.map((h) => h.characterId);
    lines.push(
      "",
      t(ctx.userLang, "mw.fate.undealtLine", {
        fates:
          undealtFates(deck, dealt)
            .map((f) => fateName(ctx.userLang, f))
            .join(", ") || "—",
      }),
    );
  }
  const rows = mine.flatMap(
    (p) => ownFateView(ctx.userLang, table, deck ?? openFateDeck(), p, false).rows ?? [],
  );
  return {
    reply: {
      ephemeral: true,
      embeds: [
        {
          title: t(ctx.userLang, "mw.fate.showTitle"),
          description: lines.join("\n") || t(ctx.userLang, "mw.fate.noPlayers"),
          tone: "secret",
        },
      ],
      rows: rows.slice(0, 5),
    },
  };
});

export const fateUseCases = [fateDeal, fateRedraw, fateKeep, fateChoose, fateReveal, fateShow];
