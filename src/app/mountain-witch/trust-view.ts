/** The trust views: the matrix, a giver's own row in a trust round, the round's public panel (who submitted, never what). */
import type { Character } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import {
  type TrustChange,
  type TrustLink,
  type TrustRoundState,
  trustRoundVisibleTo,
} from "../../rules/mountain-witch/index.js";
import type { EmbedView, MessageView } from "../views.js";
import type { TrustRoundFlow } from "./flow-states.js";
import { button } from "./shared.js";

export function nameMap(characters: readonly Character[]): Map<number, string> {
  return new Map(characters.map((c) => [c.id, c.name]));
}

/** The values as a table: one line per giver. */
export function matrixLines(links: readonly TrustLink[], names: Map<number, string>): string[] {
  const givers = [...new Set(links.map((l) => l.giverId))].filter((id) => names.has(id));
  return givers.map((g) => {
    const row = links
      .filter((l) => l.giverId === g && names.has(l.holderId))
      .map((l) => `${names.get(l.holderId)} **${l.value}**`)
      .join(" · ");
    return `**${names.get(g)}** → ${row || "—"}`;
  });
}

export function changeLines(
  lang: Lang,
  changes: readonly TrustChange[],
  names: Map<number, string>,
): string[] {
  return changes.map((c) =>
    t(lang, "mw.trust.changeLine", {
      giver: names.get(c.giverId) ?? "?",
      holder: names.get(c.holderId) ?? "?",
      before: c.before,
      after: c.after,
    }),
  );
}

/** A giver's own row in the round: what they give each other character now, and what they set. */
export function rowView(
  lang: Lang,
  flowId: number,
  round: TrustRoundState,
  giver: Character,
  names: Map<number, string>,
  inDm: boolean,
): MessageView {
  const seen = trustRoundVisibleTo(round, giver.id);
  const own = seen.own ?? [];
  const lines = own.map((p) => {
    const old =
      round.values.find((v) => v.giverId === p.giverId && v.holderId === p.holderId)?.value ?? p.value;
    const change = p.value !== old ? ` (${old} → ${p.value})` : "";
    return `• ${names.get(p.holderId) ?? "?"}: **${p.value}**${change}`;
  });
  const submitted = round.submitted.includes(giver.id);
  return {
    ephemeral: !inDm,
    embeds: [
      {
        title: t(lang, "mw.trust.rowTitle", { name: giver.name, chapter: round.chapter }),
        description: [
          ...lines,
          "",
          t(
            lang,
            !submitted
              ? "mw.trust.rowHelp"
              : round.mode === "open"
                ? "mw.trust.submittedOpen"
                : "mw.trust.submitted",
          ),
        ].join("\n"),
        tone: "secret",
      },
    ],
    rows:
      submitted || round.phase !== "collecting"
        ? []
        : [
            [
              button(t(lang, "mw.trust.button.edit"), "primary", {
                type: "trust.edit",
                flowId,
                characterId: giver.id,
              }),
              button(t(lang, "mw.trust.button.submit"), "success", {
                type: "trust.submit",
                flowId,
                characterId: giver.id,
              }),
            ],
          ],
  };
}

/** The round's public panel: who has submitted (never what), and whose DMs were closed. */
export function roundPanel(
  lang: Lang,
  flowId: number,
  flow: TrustRoundFlow,
  names: Map<number, string>,
): MessageView {
  const seen = trustRoundVisibleTo(flow.round, null);
  const list = (ids: number[]) => ids.map((id) => names.get(id) ?? "?").join(", ") || "—";
  const fields: NonNullable<EmbedView["fields"]> = [
    { name: t(lang, "mw.trust.panel.submitted"), value: list(seen.submitted), inline: true },
    { name: t(lang, "mw.trust.panel.pending"), value: list(seen.pending), inline: true },
  ];
  if (flow.dmClosed.length > 0)
    fields.push({ name: t(lang, "mw.trust.panel.dmClosed"), value: list(flow.dmClosed) });
  if (flow.round.mode === "open" && seen.proposals) {
    const lines = seen.proposals.map(
      (p) => `${names.get(p.giverId)} → ${names.get(p.holderId)}: **${p.value}**`,
    );
    if (lines.length) fields.push({ name: t(lang, "mw.trust.panel.proposals"), value: lines.join("\n") });
  }
  const closed = flow.round.phase !== "collecting";
  return {
    embeds: [
      {
        title: t(lang, "mw.trust.panel.title", { chapter: flow.round.chapter }),
        description: [
          t(
            lang,
            closed
              ? "mw.trust.panel.closed"
              : flow.round.mode === "secret"
                ? "mw.trust.panel.secret"
                : "mw.trust.panel.open",
          ),
          // What "Reveal now" would do (names only): submitted changes count, the others keep their values.
          ...(!closed && seen.pending.length > 0
            ? [
                `**${t(lang, "mw.trust.panel.revealNow")}** ${t(lang, "mw.trust.panel.revealNowKeeps", { names: list(seen.pending) })}`,
              ]
            : []),
        ].join("\n\n"),
        fields,
        tone: "info",
      },
    ],
    rows: closed
      ? []
      : [[button(t(lang, "mw.trust.button.reveal"), "secondary", { type: "trust.reveal", flowId })]],
  };
}
