/**
 * The negotiation's panel (docs/rules/beast-hunters.md §2.3): its phase, what the GM's choices
 * would cost and pay, the pre-activations made, and the buttons that move it on.
 */
import { type Lang, t } from "../../i18n/index.js";
import {
  GM_SIDE,
  type NegotiatedPreActivation,
  type NegotiationState,
} from "../../rules/beast-hunters/index.js";
import type { ComponentView, MessageView } from "../views.js";
import { phaseMultiplier } from "./challenge-view.js";

function preLine(lang: Lang, state: NegotiationState, pre: NegotiatedPreActivation): string {
  const name = pre.by === GM_SIDE ? t(lang, "bh.negotiation.gm") : nameOf(state, pre.by);
  return t(lang, "bh.negotiation.preLine", { name, trait: pre.trait, role: pre.as, phase: pre.phase });
}

/** A hunter's name in the negotiation, by character id. */
export function nameOf(state: NegotiationState, id: string): string {
  return state.hunters.find((h) => h.id === id)?.name ?? id;
}

/** The negotiation panel: phase, what each GM choice would cost and pay, the pre-activations. */
export function negotiationPanel(lang: Lang, flowId: number, state: NegotiationState): MessageView {
  const lines = [
    t(lang, "bh.negotiation.phaseLine", { phase: state.phase, sphere: state.sphere }),
    t(lang, "bh.negotiation.hunters", { names: state.hunters.map((h) => h.name).join(", ") || "—" }),
    ...((state.gaveUp ?? []).length > 0
      ? [t(lang, "bh.negotiation.gaveUpList", { names: (state.gaveUp ?? []).map((h) => h.name).join(", ") })]
      : []),
    t(lang, "bh.negotiation.choices", { phase: state.phase, multiplier: phaseMultiplier(state.phase) }),
    t(lang, "bh.negotiation.mayPre", { phase: state.phase }),
    "",
    ...(state.pre.length > 0
      ? state.pre.map((p) => preLine(lang, state, p))
      : [t(lang, "bh.negotiation.noPre")]),
  ];
  if (state.ended) {
    lines.push("", t(lang, "bh.negotiation.ended", { how: state.ended.how, phase: state.ended.phase }));
  }
  const rows: ComponentView[][] = [];
  if (!state.ended) {
    const row: ComponentView[] = [];
    if (state.phase < 3)
      row.push({
        kind: "button",
        label: t(lang, "bh.negotiation.next", { phase: state.phase + 1 }),
        intent: { type: "negotiation.phase", flowId },
      });
    if (state.phase >= 2)
      row.push({
        kind: "button",
        label: t(lang, "bh.negotiation.preButton"),
        intent: { type: "negotiation.premenu", flowId },
        style: "primary",
      });
    row.push(
      {
        kind: "button",
        label: t(lang, "bh.negotiation.concede", { phase: state.phase }),
        intent: { type: "negotiation.concedemenu", flowId },
        style: "success",
      },
      {
        kind: "button",
        label: t(lang, "bh.negotiation.dice", { multiplier: phaseMultiplier(state.phase) }),
        intent: { type: "negotiation.form", flowId },
        style: "danger",
      },
    );
    rows.push(row, [
      {
        kind: "button",
        label: t(lang, "bh.negotiation.giveUpButton"),
        intent: { type: "negotiation.giveup", flowId },
        style: "secondary",
      },
      {
        kind: "button",
        label: t(lang, "bh.negotiation.dropButton"),
        intent: { type: "negotiation.drop", flowId },
        style: "secondary",
      },
    ]);
  }
  return {
    embeds: [
      {
        title: t(lang, "bh.negotiation.title", { name: state.name ?? "—" }),
        description: lines.join("\n"),
        tone: state.ended ? "neutral" : "info",
      },
    ],
    rows,
  };
}
