/** The conflict panel: who is on each side, who helps and betrays, and after the roll every die. */
import { type Lang, t } from "../../i18n/index.js";
import {
  betrayalAdded,
  type ConflictState,
  type DieRoll,
  damageChoices,
  deadHelpsOf,
  type EntryResult,
  INCAPACITY_OBSTACLE_KEY,
  narrationStarted,
  type Pairing,
  type Participant,
  type SideKey,
  type SideResult,
  spenderOf,
} from "../../rules/mountain-witch/index.js";
import type { ComponentView, EmbedView, MessageView } from "../views.js";
import { button, durationText, successesText } from "./shared.js";

export function participantName(lang: Lang, p: Participant): string {
  return p.nameKey ? t(lang, p.nameKey) : p.name;
}

function nameOf(lang: Lang, state: ConflictState, id: number): string {
  const p = state.participants.find((q) => q.id === id);
  if (p) return participantName(lang, p);
  return deadHelpsOf(state).find((h) => h.helperId === id)?.helperName ?? `#${id}`;
}

/** A number as a reader writes it: a true minus sign for negatives ("−1", not "-1"). */
export function signed(n: number): string {
  return n < 0 ? `−${-n}` : String(n);
}

export function dieText(roll: DieRoll): string {
  return roll.penalty > 0 ? `🎲 ${roll.die} − ${roll.penalty} = ${signed(roll.value)}` : `🎲 ${roll.die}`;
}

function entryLine(lang: Lang, state: ConflictState, e: EntryResult): string {
  const parts = [`**${nameOf(lang, state, e.leadId)}** ${dieText(e.lead)}`];
  for (const h of e.helpers) {
    const zero = h.added === 0 && h.roll.value < 0 ? ` ${t(lang, "mw.conflict.addsZero")}` : "";
    parts.push(`+ ${nameOf(lang, state, h.roll.characterId)} ${dieText(h.roll)}${zero}`);
  }
  if (e.betrayalBonus > 0) parts.push(`+ ${t(lang, "mw.conflict.betrayalBonus", { n: e.betrayalBonus })}`);
  const sum = e.helpers.length > 0 || e.betrayalBonus > 0 ? ` → **${signed(e.total)}**` : "";
  return `• ${parts.join(" ")}${sum}`;
}

function sideLabel(lang: Lang, state: ConflictState, side: SideKey): string {
  const leads = state.participants.filter((p) => p.side === side && p.helps === null);
  if (leads.length > 0 && leads.every((p) => p.kind === "npc")) return t(lang, "mw.conflict.gmSide");
  return t(lang, side === "a" ? "mw.conflict.sideA" : "mw.conflict.sideB");
}

function sideBlock(lang: Lang, state: ConflictState, side: SideResult): string {
  const lines = side.entries.map((e) => entryLine(lang, state, e));
  if (side.betrayalBonus > 0)
    lines.push(`• ${t(lang, "mw.conflict.betrayalBonus", { n: side.betrayalBonus })}`);
  lines.push(t(lang, "mw.conflict.result", { n: signed(side.result) }));
  return lines.join("\n");
}

function pairingFields(lang: Lang, state: ConflictState, p: Pairing): EmbedView["fields"] {
  const fields: NonNullable<EmbedView["fields"]> = [];
  const heading = state.mode === "common-danger" ? ` — ${nameOf(lang, state, p.id)}` : "";
  if (p.a && p.b) {
    fields.push({
      name: `${sideLabel(lang, state, "a")}${heading}`,
      value: sideBlock(lang, state, p.a),
      inline: true,
    });
    fields.push({ name: sideLabel(lang, state, "b"), value: sideBlock(lang, state, p.b), inline: true });
  }
  const degree = t(lang, `mw.degree.${p.degree}`);
  const lines: string[] = [];
  if (p.trade) {
    lines.push(
      t(lang, "mw.conflict.traded", {
        name: nameOf(lang, state, p.trade.declarerId),
        level: t(lang, `mw.degree.${p.trade.level}`),
      }),
    );
  } else if (p.winner) {
    lines.push(
      t(lang, "mw.conflict.outcome", { degree, margin: p.margin, side: sideLabel(lang, state, p.winner) }),
    );
  } else {
    lines.push(`**${degree}** — ${t(lang, "mw.narration.none")}`);
  }
  if (p.narration) {
    const name =
      p.narration.reason === "bought"
        ? `{buyer:${p.narration.characterId}}`
        : nameOf(lang, state, p.narration.characterId);
    // The GM narrates for their characters and obstacles (an obstacle never narrates itself).
    const byGm = p.narration.playerId === null && p.narration.reason !== "bought";
    lines.push(
      byGm ? t(lang, "mw.narration.gm", { name }) : t(lang, `mw.narration.${p.narration.reason}`, { name }),
    );
    if (p.narration.rollOff.length > 0) {
      const rounds = p.narration.rollOff.map((round) =>
        round.map((r) => `${nameOf(lang, state, r.characterId)} 🎲 ${r.die}`).join(", "),
      );
      lines.push(t(lang, "mw.conflict.rollOff", { rounds: rounds.join(" · ") }));
    }
  }
  lines.push(
    t(lang, "mw.conflict.successesLeft", {
      a: successesText(p.remaining.a),
      b: successesText(p.remaining.b),
      sideA: sideLabel(lang, state, "a"),
      sideB: sideLabel(lang, state, "b"),
    }),
  );
  for (const d of p.damage) {
    const target = nameOf(lang, state, d.targetId);
    const quality = t(lang, `mw.quality.${d.quality}`);
    const duration = durationText(lang, d.duration, d.condition);
    const incapacity =
      state.participants.find((q) => q.id === d.targetId)?.nameKey === INCAPACITY_OBSTACLE_KEY;
    lines.push(
      d.takenOut && incapacity && state.recoveryOf !== null
        ? // A recovery: incapacity is overcome, not "taken out: incapacitated".
          `💪 ${t(lang, "mw.conflict.incapacityOvercome", { name: nameOf(lang, state, state.recoveryOf) })}`
        : d.takenOut
          ? `💀 ${t(lang, `mw.takenOut.${d.takenOut}`, { name: target })}`
          : d.ability
            ? `🩸 ${t(lang, "mw.conflict.damageLineAbility", { name: target, quality, ability: d.ability, duration })}`
            : `🩸 ${t(lang, "mw.conflict.damageLine", { name: target, quality, duration })}`,
    );
    if (d.tradeCost) lines[lines.length - 1] += ` (${t(lang, "mw.conflict.tradeCostMark")})`;
  }
  // One on one, the opponents' half of a trade waits for them: applied to the declarer, or a mutual success.
  if (p.trade) {
    const declarer = state.participants.find((q) => q.id === p.trade!.declarerId);
    const other = declarer?.side === "a" ? "b" : "a";
    const spender = declarer ? spenderOf(state, p, other) : null;
    if (declarer && spender && p.remaining[other].length > 0) {
      const owner = state.participants.find((q) => q.side === other && q.helps === null);
      lines.push(
        t(lang, "mw.conflict.tradeHalfOpen", {
          spender:
            spender.playerId === null || !owner ? t(lang, "mw.conflict.gm") : participantName(lang, owner),
          quality: t(lang, `mw.quality.${p.trade.level}`),
          name: participantName(lang, declarer),
        }),
      );
    }
  }
  fields.push({ name: t(lang, "mw.conflict.outcomeTitle"), value: lines.join("\n") });
  return fields;
}

/** Names of buyers are not in the conflict; the caller passes them. */
export function conflictPanel(
  lang: Lang,
  flowId: number,
  state: ConflictState,
  extraNames: Record<number, string> = {},
  /** Before the roll: each participant's current wound penalty (−1 per damage entry). */
  penalties: Readonly<Record<number, number>> = {},
): MessageView {
  const fixNames = (text: string) =>
    text.replace(/\{buyer:(\d+)\}/g, (_, id: string) => extraNames[Number(id)] ?? `#${id}`);
  const title = state.title
    ? t(lang, "mw.conflict.titleNamed", { title: state.title })
    : t(lang, state.recoveryOf !== null ? "mw.conflict.titleRecovery" : "mw.conflict.title", { id: flowId });
  const description: string[] = [];
  if (state.mode === "common-danger") description.push(t(lang, "mw.conflict.commonDanger"));
  if (state.phase === "open") {
    for (const side of ["a", "b"] as const) {
      const leads = state.participants.filter((p) => p.side === side && p.helps === null);
      const lines = leads.map((p) => {
        const helpers = [
          ...state.participants.filter((h) => h.helps === p.id).map((h) => participantName(lang, h)),
          ...deadHelpsOf(state)
            .filter((h) => h.targetId === p.id)
            .map((h) => `💀 ${h.helperName}`),
        ];
        const strength = p.kind === "npc" ? ` (${t(lang, `mw.strength.${p.strength}`)})` : "";
        const help = helpers.length
          ? ` ${t(lang, "mw.conflict.helpedBy", { names: helpers.join(", ") })}`
          : "";
        // The penalty each die will carry, so everyone sees it before deciding to help or betray.
        const members = [p, ...state.participants.filter((h) => h.helps === p.id)];
        const wounds = members
          .filter((m) => (penalties[m.id] ?? 0) > 0)
          .map((m) =>
            t(lang, "mw.conflict.penaltyOf", { name: participantName(lang, m), n: penalties[m.id]! }),
          );
        const penalty = wounds.length ? ` · 🩸 ${wounds.join(", ")}` : "";
        return `• **${participantName(lang, p)}**${strength}${help}${penalty}`;
      });
      description.push(`__${sideLabel(lang, state, side)}__\n${lines.join("\n") || "—"}`);
    }
  }
  const notes: string[] = [];
  for (const b of state.betrayals) {
    const betrayer = state.participants.find((p) => p.id === b.betrayerId);
    const betrayed = nameOf(lang, state, b.betrayedId);
    // The points count only against the roll compared; when they changed nothing, say so.
    const nothing =
      betrayalAdded(state, b) === false ? ` ${t(lang, "mw.conflict.betrayalAddsZero", { betrayed })}` : "";
    notes.push(
      `🗡️ ${t(lang, "mw.conflict.betrayal", {
        betrayer: betrayer
          ? participantName(lang, betrayer)
          : (extraNames[b.betrayerId] ?? `#${b.betrayerId}`),
        betrayed,
        n: b.points,
      })}${nothing}`,
    );
  }
  for (const k of state.killIntents) {
    notes.push(
      `☠️ ${t(lang, "mw.conflict.killIntent", { by: nameOf(lang, state, k.byId), target: nameOf(lang, state, k.targetId) })}`,
    );
  }
  for (const tr of state.trades) {
    if (state.phase === "open")
      notes.push(
        `🤝 ${t(lang, "mw.conflict.tradeDeclared", { name: nameOf(lang, state, tr.declarerId), level: t(lang, `mw.degree.${tr.level}`) })}`,
      );
  }
  if (notes.length) description.push(notes.join("\n"));
  const status =
    state.phase === "open"
      ? t(lang, "mw.conflict.waitingRoll")
      : state.phase === "rolled"
        ? t(lang, "mw.conflict.rolled")
        : t(lang, "mw.conflict.closed");
  const fields =
    state.phase === "open" ? [] : state.pairings.flatMap((p) => pairingFields(lang, state, p) ?? []);
  const embed: EmbedView = {
    title: `⚔️ ${title}`,
    description: fixNames(description.join("\n\n")),
    fields: fields.map((f) => ({ ...f, value: fixNames(f.value) })),
    footer: status,
    tone: state.phase === "closed" ? "info" : "neutral",
  };
  return { embeds: [embed], rows: conflictRows(lang, flowId, state) };
}

function conflictRows(lang: Lang, flowId: number, state: ConflictState): ComponentView[][] {
  if (state.phase === "closed") return [];
  if (state.phase === "rolled") {
    const withSuccesses = state.pairings.some((p) => damageChoices(state, p.id).length > 0);
    const rows: ComponentView[][] = [
      [
        ...(withSuccesses
          ? [
              button(
                t(lang, "mw.conflict.button.damageForm"),
                "secondary",
                { type: "conflict.damage-form", flowId },
                { emoji: "🩸" },
              ),
            ]
          : []),
        button(t(lang, "mw.conflict.button.end"), "secondary", { type: "conflict.end", flowId }),
      ],
    ];
    if (state.pairings.some((p) => p.winner === null && p.trade === null))
      rows.push([tradeSelect(lang, flowId)]);
    // Buying narration, while no pairing's narration has begun (its damage spent).
    const buyable = state.participants
      .filter((p) => p.kind === "pc" && p.helps === null)
      .filter(() => state.pairings.some((pr) => !narrationStarted(pr) && pr.narration?.reason !== "bought"))
      .slice(0, 25);
    const narrate: ComponentView | null =
      buyable.length > 0
        ? {
            kind: "select",
            intent: { type: "conflict.narrate", flowId },
            field: "ofId",
            placeholder: t(lang, "mw.conflict.select.narrate"),
            options: buyable.map((p) => ({
              label: participantName(lang, p).slice(0, 100),
              value: String(p.id),
            })),
          }
        : null;
    // A message holds five rows: one damage menu per pairing while they fit, else one chooser
    // (pairing → its damage menu) for any number of pairings.
    const selects = state.pairings.flatMap((pairing) => damageSelect(lang, flowId, state, pairing) ?? []);
    const room = 5 - rows.length - (narrate ? 1 : 0);
    if (selects.length <= room) rows.push(...selects.map((select) => [select]));
    else rows.push([pairingChooser(lang, flowId, state)]);
    if (narrate) rows.push([narrate]);
    return rows;
  }
  const rows: ComponentView[][] = [
    [
      button(t(lang, "mw.conflict.button.join"), "primary", { type: "conflict.join", flowId }),
      button(t(lang, "mw.conflict.button.leave"), "secondary", { type: "conflict.leave", flowId }),
      button(
        t(lang, "mw.conflict.button.roll"),
        "success",
        { type: "conflict.roll", flowId },
        { emoji: "🎲" },
      ),
      button(t(lang, "mw.conflict.button.rollAll"), "success", { type: "conflict.roll-all", flowId }),
      button(t(lang, "mw.conflict.button.end"), "secondary", { type: "conflict.end", flowId }),
    ],
  ];
  const pcs = state.participants.filter((p) => p.kind === "pc" && p.helps === null).slice(0, 25);
  const option = (p: Participant) => ({ label: participantName(lang, p).slice(0, 100), value: String(p.id) });
  if (pcs.length > 0) {
    rows.push([
      {
        kind: "select",
        intent: { type: "conflict.assist", flowId },
        field: "targetId",
        placeholder: t(lang, "mw.conflict.select.assist"),
        options: pcs.map(option),
      },
    ]);
  }
  // Betrayal asks for the points in a short form; the use case checks who may betray whom.
  const betrayable = state.participants.filter((p) => p.kind === "pc").slice(0, 25);
  if (betrayable.length > 0) {
    rows.push([
      {
        kind: "select",
        intent: { type: "conflict.betray-form", flowId },
        field: "targetId",
        placeholder: t(lang, "mw.conflict.select.betray"),
        options: betrayable.map(option),
      },
    ]);
  }
  if (state.participants.length > 1) {
    rows.push([
      {
        kind: "select",
        intent: { type: "conflict.kill", flowId },
        field: "targetId",
        placeholder: t(lang, "mw.conflict.select.kill"),
        options: state.participants.slice(0, 25).map(option),
      },
    ]);
  }
  rows.push([tradeSelect(lang, flowId)]);
  return rows;
}

function tradeSelect(lang: Lang, flowId: number): ComponentView {
  return {
    kind: "select",
    intent: { type: "conflict.trade", flowId },
    field: "level",
    placeholder: t(lang, "mw.conflict.select.trade"),
    options: (["normal", "critical", "double"] as const).map((level) => ({
      label: t(lang, `mw.degree.${level}`),
      value: level,
    })),
  };
}

/** The pairings with successes left, to choose one and get its damage menu (any number of pairings). */
function pairingChooser(lang: Lang, flowId: number, state: ConflictState): ComponentView {
  const pairings = state.pairings.filter((p) => damageChoices(state, p.id).length > 0).slice(0, 25);
  return {
    kind: "select",
    intent: { type: "conflict.pairing", flowId },
    field: "pairingId",
    placeholder: t(lang, "mw.conflict.select.pairing"),
    options: pairings.map((p) => ({
      label: pairingLabel(lang, state, p).slice(0, 100),
      description: t(lang, "mw.conflict.successesLeft", {
        a: successesText(p.remaining.a),
        b: successesText(p.remaining.b),
        sideA: sideLabel(lang, state, "a"),
        sideB: sideLabel(lang, state, "b"),
      })
        .replace(/\*/g, "")
        .slice(0, 100),
      value: String(p.id),
    })),
  };
}

/** A pairing as a reader names it: the entry against the danger, or the conflict's two sides. */
function pairingLabel(lang: Lang, state: ConflictState, pairing: Pairing): string {
  const danger = state.participants.find((p) => p.side === "b" && p.helps === null);
  if (state.mode === "common-danger")
    return `${nameOf(lang, state, pairing.id)} — ${danger ? participantName(lang, danger) : "?"}`;
  return `${sideLabel(lang, state, "a")} — ${sideLabel(lang, state, "b")}`;
}

/** One pairing's damage menu on its own (the chooser's answer). */
export function pairingDamageView(
  lang: Lang,
  flowId: number,
  state: ConflictState,
  pairingId: number,
): MessageView {
  const pairing = state.pairings.find((p) => p.id === pairingId);
  const select = pairing ? damageSelect(lang, flowId, state, pairing) : null;
  return {
    ephemeral: true,
    embeds: [
      {
        title: pairing ? pairingLabel(lang, state, pairing) : `#${pairingId}`,
        description: pairing
          ? t(lang, "mw.conflict.successesLeft", {
              a: successesText(pairing.remaining.a),
              b: successesText(pairing.remaining.b),
              sideA: sideLabel(lang, state, "a"),
              sideB: sideLabel(lang, state, "b"),
            })
          : "",
        tone: "neutral",
      },
    ],
    rows: select ? [[select]] : [],
  };
}

/**
 * The pairing's damage choice: every target and quality its remaining successes can buy,
 * each saying what it would do (docs/rules/mountain-witch.md §1.2). Only the pairing's
 * narrator may choose; the use case checks.
 */
function damageSelect(
  lang: Lang,
  flowId: number,
  state: ConflictState,
  pairing: Pairing,
): ComponentView | null {
  const choices = damageChoices(state, pairing.id).slice(0, 25);
  if (choices.length === 0) return null;
  const heading =
    state.mode === "common-danger"
      ? t(lang, "mw.conflict.select.damageOf", { name: nameOf(lang, state, pairing.id) })
      : t(lang, "mw.conflict.select.damage");
  return {
    kind: "select",
    intent: { type: "conflict.damage", flowId, pairingId: pairing.id },
    field: "choice",
    placeholder: heading,
    options: choices.map((c) => {
      const target = nameOf(lang, state, c.targetId);
      const effect = c.takenOut
        ? t(lang, `mw.takenOut.${c.takenOut}`, { name: target })
        : t(lang, "mw.conflict.damageEffect", { duration: durationText(lang, c.duration, null) });
      return {
        label: `${target}: ${t(lang, `mw.quality.${c.quality}`)}`.slice(0, 100),
        description: effect.slice(0, 100),
        value: `${c.attackerSide}:${c.targetId}:${c.quality}`,
      };
    }),
  };
}
