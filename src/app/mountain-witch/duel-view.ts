/** The duel's views: the public panel (never a secret die before the reveal) and each duellist's own secret view. */
import { type Lang, t } from "../../i18n/index.js";
import {
  type DuelState,
  type DuelView,
  duelDamageChoices,
  duelIsOver,
  duelVisibleTo,
  type SideKey,
} from "../../rules/mountain-witch/index.js";
import type { ComponentView, EmbedView, MessageView } from "../views.js";
import { signed } from "./conflict-view.js";
import { button, durationText, successesText } from "./shared.js";

function diceFaces(dice: readonly number[]): string {
  return dice.map((d) => `🎲 ${d}`).join(" ");
}

function sideSummary(lang: Lang, v: DuelView, side: SideKey): string {
  const d = v[side];
  const r = v.result?.[side];
  if (!r) {
    const hidden = "🂠 ".repeat(d.diceCount).trim();
    const penalty = d.penalty > 0 ? ` · ${t(lang, "mw.duel.penalty", { n: d.penalty })}` : "";
    return `${hidden} ${t(lang, "mw.duel.secretDice", { n: d.diceCount })}${penalty}`;
  }
  const parts = [diceFaces(r.dice)];
  if (r.penalty > 0) parts.push(`− ${r.penalty}`);
  for (const h of r.help) parts.push(`+ 🎲 ${h.die} (${t(lang, "mw.trustUse.help")})`);
  if (r.betrayal > 0) parts.push(`+ ${r.betrayal} (${t(lang, "mw.trustUse.betray")})`);
  return `${parts.join(" ")} = **${signed(r.total)}**`;
}

/** The public panel: built from the view of nobody in particular, so it can never carry a secret die. */
export function duelPanel(
  lang: Lang,
  flowId: number,
  duel: DuelState,
  extra: { stopped?: readonly SideKey[]; ended?: boolean } = {},
): MessageView {
  const v = duelVisibleTo(duel, "");
  const title = t(lang, "mw.duel.title", { a: v.a.name, b: v.b.name });
  const fields: NonNullable<EmbedView["fields"]> = [];
  if (duel.phase !== "challenged" && duel.phase !== "declined") {
    fields.push({ name: v.a.name, value: sideSummary(lang, v, "a"), inline: true });
    fields.push({ name: v.b.name, value: sideSummary(lang, v, "b"), inline: true });
  }
  // Who spent trust on or against whom (the dead's help, betrayal and narration are public).
  for (const u of duel.trustUses) {
    const target = u.targetId === v.a.characterId ? v.a.name : v.b.name;
    fields.push({
      name: t(lang, `mw.trustUse.${u.use}`),
      value: t(lang, `mw.duel.trustUseBy.${u.use}`, {
        name: u.spenderName ?? `#${u.spenderId}`,
        target,
        n: u.amount,
      }),
      inline: true,
    });
  }
  const lines: string[] = [];
  let footer = "";
  const rows: ComponentView[][] = [];
  switch (duel.phase) {
    case "challenged":
      lines.push(
        t(lang, "mw.duel.challenged", { a: v.a.name, b: v.b.name, player: `<@${duel.b.playerId}>` }),
      );
      if (duel.lethal) lines.push(t(lang, "mw.duel.lethal"));
      rows.push([
        button(t(lang, "mw.duel.button.accept"), "success", { type: "duel.accept", flowId }),
        button(t(lang, "mw.duel.button.decline"), "secondary", { type: "duel.decline", flowId }),
      ]);
      break;
    case "declined":
      lines.push(t(lang, "mw.duel.declined", { b: v.b.name }));
      break;
    case "rolling":
      lines.push(t(lang, "mw.duel.rolling", { round: v.round }));
      footer = t(lang, "mw.duel.secretFooter");
      rows.push([
        button(t(lang, "mw.duel.button.peek"), "primary", { type: "duel.peek", flowId }, { emoji: "👁️" }),
        button(t(lang, "mw.duel.button.next"), "secondary", { type: "duel.next", flowId }, { emoji: "🎲" }),
        button(t(lang, "mw.duel.button.strike"), "danger", { type: "duel.strike", flowId }, { emoji: "⚔️" }),
      ]);
      rows.push([deadTrustSelect(lang, flowId, v, ["help", "betray"])]);
      break;
    case "revealed": {
      const r = v.result!;
      lines.push(
        t(lang, r.struckBy === "auto" ? "mw.duel.autoStrike" : "mw.duel.struck", {
          name: r.struckBy === "auto" ? "" : v[r.struckBy].name,
        }),
      );
      const degree = t(lang, `mw.degree.${r.degree}`);
      lines.push(
        r.winner
          ? t(lang, "mw.duel.outcome", { degree, margin: r.margin, name: v[r.winner].name })
          : `**${degree}** — ${t(lang, "mw.narration.none")}`,
      );
      lines.push(
        t(lang, "mw.conflict.successesLeft", {
          a: successesText(r.remaining.a),
          b: successesText(r.remaining.b),
          sideA: v.a.name,
          sideB: v.b.name,
        }),
      );
      for (const d of r.damage) {
        const target = d.targetId === v.a.characterId ? v.a.name : v.b.name;
        lines.push(
          d.takenOut
            ? `💀 ${t(lang, `mw.takenOut.${d.takenOut}`, { name: target })}`
            : `🩸 ${t(lang, "mw.conflict.damageLine", { name: target, quality: t(lang, `mw.quality.${d.quality}`), duration: durationText(lang, d.duration, d.condition) })}`,
        );
      }
      for (const side of extra.stopped ?? []) lines.push(t(lang, "mw.duel.stops", { name: v[side].name }));
      if (extra.ended || duelIsOver(duel)) {
        lines.push(t(lang, "mw.duel.ended"));
        break;
      }
      // The winner's one damage of the round, each choice saying what it does (docs/rules/mountain-witch.md §1.4).
      const choices = duelDamageChoices(duel);
      if (r.winner && choices.length > 0) {
        const loser = v[r.winner === "a" ? "b" : "a"].name;
        rows.push([
          {
            kind: "select",
            intent: { type: "duel.damage", flowId },
            field: "quality",
            placeholder: t(lang, "mw.duel.select.damage", { name: v[r.winner].name }),
            options: choices.map((c) => ({
              label: `${loser}: ${t(lang, `mw.quality.${c.quality}`)}`.slice(0, 100),
              description: (c.takenOut
                ? t(lang, `mw.takenOut.${c.takenOut}`, { name: loser })
                : t(lang, "mw.conflict.damageEffect", { duration: durationText(lang, c.duration, null) })
              ).slice(0, 100),
              value: c.quality,
            })),
          },
        ]);
      }
      rows.push([
        button(t(lang, "mw.duel.button.round"), "primary", { type: "duel.round", flowId }),
        button(t(lang, "mw.duel.button.stop"), "secondary", { type: "duel.end", flowId }),
      ]);
      if (r.damage.length === 0 && !r.narratorBought)
        rows.push([deadTrustSelect(lang, flowId, v, ["narration"])]);
      break;
    }
  }
  return {
    embeds: [
      {
        title: `⚔️ ${title}`,
        description: lines.join("\n"),
        fields,
        footer,
        tone: duel.phase === "revealed" ? "info" : "neutral",
      },
    ],
    rows,
  };
}

/**
 * The dead's trust in a duel from the panel (docs/rules/mountain-witch.md §1.4): help or betray a
 * duellist (1 point a pick) while the dice are secret, buy the narration after the reveal. Only a
 * dead character's player may pick; the use case says so to anyone else.
 */
function deadTrustSelect(
  lang: Lang,
  flowId: number,
  v: DuelView,
  uses: readonly ("help" | "betray" | "narration")[],
): ComponentView {
  return {
    kind: "select",
    intent: { type: "duel.trust-pick", flowId },
    field: "choice",
    placeholder: t(lang, "mw.duel.select.deadTrust"),
    options: uses.flatMap((use) =>
      (["a", "b"] as const).map((side) => ({
        label: t(lang, `mw.duel.deadTrust.${use}`, { name: v[side].name }).slice(0, 100),
        value: `${use}:${v[side].characterId}`,
      })),
    ),
  };
}

/** What one duellist sees, ephemerally: their own dice, and whether they wait for the other. */
export function personalView(lang: Lang, flowId: number, duel: DuelState, userId: string): MessageView {
  const v = duelVisibleTo(duel, userId);
  const side = v.you!;
  const me = v[side];
  const other = v[side === "a" ? "b" : "a"];
  if (duel.phase === "revealed") {
    return {
      ephemeral: true,
      embeds: [{ description: t(lang, "mw.duel.revealedSeeChannel"), tone: "secret" }],
      rows: [],
    };
  }
  if (duel.phase !== "rolling") {
    return {
      ephemeral: true,
      embeds: [{ description: t(lang, "mw.duel.notRolling"), tone: "secret" }],
      rows: [],
    };
  }
  const sum = (me.dice ?? []).reduce((s, d) => s + d, 0);
  const lines = [
    t(lang, "mw.duel.yourDice", { dice: diceFaces(me.dice ?? []), sum }),
    ...(me.penalty > 0 ? [t(lang, "mw.duel.penalty", { n: me.penalty })] : []),
    t(lang, "mw.duel.opponentDice", { name: other.name, n: other.diceCount }),
    t(lang, me.waiting ? "mw.duel.waiting" : "mw.duel.choose"),
  ];
  return {
    ephemeral: true,
    embeds: [
      {
        title: `🤫 ${t(lang, "mw.duel.secretTitle", { round: v.round })}`,
        description: lines.join("\n"),
        tone: "secret",
      },
    ],
    rows: [
      [
        button(
          t(lang, "mw.duel.button.next"),
          "secondary",
          { type: "duel.next", flowId },
          { emoji: "🎲", disabled: me.waiting === true },
        ),
        button(t(lang, "mw.duel.button.strike"), "danger", { type: "duel.strike", flowId }, { emoji: "⚔️" }),
      ],
    ],
  };
}
