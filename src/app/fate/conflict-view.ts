/** A conflict's panel, its turn pings and its end (docs/rules/fate.md §3.4). */

import type { GameTable } from "../../generated/prisma/client.js";
import { familyKey, type Lang, t } from "../../i18n/index.js";
import { conflictWinner, currentTurn, turnOrder } from "../../rules/fate/conflict.js";
import type { ActionContext, Effect } from "../use-case.js";
import type { ComponentView, MessageView } from "../views.js";
import type { ConflictFlowState } from "./conflict-state.js";

/** The user to ping for a character's turn: their player, or the GM for the GM's characters. */
export function playerOf(table: GameTable, state: ConflictFlowState, characterId: string): string | null {
  const player = state.players[characterId];
  if (player === undefined) return null;
  return player ?? table.gmUserId;
}

export function nameOf(state: ConflictFlowState, id: string): string {
  return state.names[id] ?? id;
}

export function conflictView(
  lang: Lang,
  flowId: number,
  state: ConflictFlowState,
  open: boolean,
): MessageView {
  const { conflict } = state;
  const turn = currentTurn(conflict);
  const byId = new Map(conflict.participants.map((p) => [p.characterId, p]));
  const lines = turnOrder(conflict).map((id) => {
    const p = byId.get(id)!;
    const status = t(lang, `fate.conflict.status.${p.status}`);
    const side = t(lang, familyKey("fate.conflict.side.", p.side));
    const consequences =
      p.consequencesTaken > 0
        ? ` · ${t(lang, "fate.conflict.consequences", { count: p.consequencesTaken })}`
        : "";
    const marker = id === turn ? "▶ " : "• ";
    return `${marker}**${nameOf(state, id)}** — ${side} · ${status}${consequences}`;
  });
  if (conflict.status === "open") {
    lines.unshift(
      turn
        ? t(lang, "fate.conflict.turnLine", { exchange: conflict.exchange, name: nameOf(state, turn) })
        : t(lang, "fate.conflict.exchangeLine", { exchange: conflict.exchange }),
    );
  }
  const winner = conflictWinner(conflict);
  if (conflict.status === "ended") {
    lines.push(
      winner
        ? t(lang, "fate.conflict.won", { side: t(lang, familyKey("fate.conflict.side.", winner)) })
        : t(lang, "fate.conflict.over"),
    );
  }
  const buttons: ComponentView[] = [
    {
      kind: "button",
      label: t(lang, "fate.button.nextTurn"),
      style: "primary",
      intent: { type: "conflict.next", flowId },
    },
    {
      kind: "button",
      label: t(lang, "fate.button.joinConflict"),
      style: "secondary",
      intent: { type: "conflict.join", flowId },
    },
    {
      kind: "button",
      label: t(lang, "fate.button.concede"),
      style: "secondary",
      intent: { type: "conflict.concede", flowId },
    },
    {
      kind: "button",
      label: t(lang, "fate.button.endConflict"),
      style: "danger",
      intent: { type: "conflict.end", flowId },
    },
  ];
  return {
    embeds: [
      {
        title: t(lang, "fate.conflict.title", { title: conflict.title || t(lang, "fate.conflict.untitled") }),
        description: lines.join("\n") || t(lang, "fate.conflict.empty"),
        footer: t(lang, "fate.conflict.footer"),
        tone: open ? "info" : "neutral",
      },
    ],
    rows: open ? [buttons] : [],
  };
}

/** A new message saying whose turn it is, pinging that character's player (docs/rules/fate.md §3.4). */
export function turnPing(
  ctx: Pick<ActionContext, "publicLang" | "invocation">,
  table: GameTable,
  state: ConflictFlowState,
): Effect[] {
  const turn = currentTurn(state.conflict);
  if (!turn) return [];
  const user = playerOf(table, state, turn);
  const mention = user ? ` <@${user}>` : "";
  return [
    {
      kind: "post",
      channelId: ctx.invocation.channelId,
      view: {
        content:
          t(ctx.publicLang, "fate.conflict.turnPing", {
            exchange: state.conflict.exchange,
            name: nameOf(state, turn),
          }) + mention,
        mentionUsers: user ? [user] : [],
      },
    },
  ];
}

/** The announcement of the end: the winner and what became of each participant (a new message). */
export function endAnnouncement(lang: Lang, state: ConflictFlowState): string {
  const winner = conflictWinner(state.conflict);
  const head = winner
    ? t(lang, "fate.conflict.endWinner", {
        title: state.conflict.title || t(lang, "fate.conflict.untitled"),
        side: t(lang, familyKey("fate.conflict.side.", winner)),
      })
    : t(lang, "fate.conflict.endNoWinner", {
        title: state.conflict.title || t(lang, "fate.conflict.untitled"),
      });
  const outcomes = turnOrder(state.conflict).map((id) => {
    const p = state.conflict.participants.find((x) => x.characterId === id)!;
    return `• **${nameOf(state, id)}** — ${t(lang, `fate.conflict.status.${p.status}`)}`;
  });
  return [
    head,
    t(lang, "fate.conflict.endExchanges", { count: state.conflict.exchange }),
    ...outcomes,
    t(lang, "fate.conflict.ended"),
  ].join("\n");
}
