/** A check's panel (docs/rules/fate.md §3.1, §3.2): its dice, the result on the ladder, and the buttons its state allows. */

import { type Lang, t } from "../../i18n/index.js";
import {
  type AppliedInvoke,
  checkOpposition,
  checkResult,
  checkShifts,
  type FateCheck,
} from "../../rules/fate/check.js";
import { signed } from "../../rules/fate/ladder.js";
import { actionOutcome, outcome } from "../../rules/fate/outcomes.js";
import type { ComponentView, EmbedView, MessageView } from "../views.js";
import type { CheckFlowState } from "./state.js";
import { diceText, ladderText, skillOptions, skillText } from "./views.js";

function formula(lang: Lang, check: FateCheck): string {
  const plus2 = check.invokes.filter((i) => i.mode === "plus2").length * 2;
  const terms = [
    `${signed(check.dice.total)} ${t(lang, "fate.check.term.dice")}`,
    `${signed(check.skillValue)} ${skillText(lang, check.skill)}`,
    ...(check.bonus !== 0 ? [`${signed(check.bonus)} ${t(lang, "fate.check.term.bonus")}`] : []),
    ...(plus2 !== 0 ? [`${signed(plus2)} ${t(lang, "fate.check.term.invokes")}`] : []),
  ];
  return terms.join(" ");
}

export function checkEmbed(lang: Lang, state: CheckFlowState): EmbedView {
  const { check } = state;
  const lines = [t(lang, "fate.check.dice", { dice: diceText(check.dice) })];
  for (const old of check.rerolledDice) lines.push(t(lang, "fate.check.rerolled", { dice: diceText(old) }));
  lines.push(
    t(lang, "fate.check.result", {
      formula: formula(lang, check),
      result: ladderText(lang, checkResult(check)),
    }),
  );
  const opposition = checkOpposition(check);
  const shifts = checkShifts(check);
  let tone: EmbedView["tone"] = "neutral";
  if (opposition !== null && shifts !== null) {
    const result = outcome(shifts);
    tone = result === "fail" ? "failure" : result === "tie" ? "warning" : "success";
    const key = check.opposition.kind === "active" ? "fate.check.vsActive" : "fate.check.vsPassive";
    lines.push(
      t(lang, key, {
        value: ladderText(lang, opposition),
        name: state.targetName ?? "",
        shifts: signed(shifts),
        outcome: t(lang, `fate.outcome.${result}`),
      }),
    );
    const effects = actionOutcome(check.action, shifts, { existingAspect: state.existingAspect });
    lines.push(t(lang, effects.key, { hit: effects.hit }));
  } else if (state.awaitingDefence) {
    lines.push(t(lang, "fate.check.awaitingDefence", { target: state.targetName ?? "" }));
  } else {
    lines.push(t(lang, state.contestFlowId !== null ? "fate.check.contestRoll" : "fate.check.noOpposition"));
  }
  if (state.aspect && state.advantageDone)
    lines.push(t(lang, "fate.check.advantageDone", { aspect: state.aspect }));
  if (state.hitApplied !== null && state.hitApplied > 0) {
    lines.push(
      t(lang, "fate.check.hitApplied", { target: state.targetName ?? "", shifts: state.hitApplied }),
    );
  } else if (state.hitApplied === null && attackHit(state) > 0 && state.targetName) {
    // The attacker sees who must act: the target's player (or the GM) applies it and chooses how to take it.
    lines.push(t(lang, "fate.check.targetChooses", { target: state.targetName }));
  }
  if (state.tradedForBoost) lines.push(t(lang, "fate.check.traded"));
  if (check.invokes.length > 0) lines.push(invokesLine(lang, check.invokes));
  return {
    title: t(lang, "fate.check.title", {
      name: state.rollerName,
      skill: skillText(lang, check.skill),
      action: t(lang, `fate.action.${check.action}`),
    }),
    description: lines.join("\n"),
    tone,
  };
}

/** The hit an attack check deals before WR/AR, or 0. */
export function attackHit(state: CheckFlowState): number {
  const shifts = checkShifts(state.check);
  if (state.check.action !== "attack" || shifts === null || shifts <= 0) return 0;
  return shifts;
}

export function checkRows(
  lang: Lang,
  flowId: number,
  state: CheckFlowState,
  open: boolean,
): ComponentView[][] {
  if (!open) return [];
  const rows: ComponentView[][] = [
    [
      {
        kind: "button",
        label: t(lang, "fate.button.plus2"),
        intent: { type: "fate.invoke-menu", flowId, mode: "plus2" },
      },
      {
        kind: "button",
        label: t(lang, "fate.button.reroll"),
        style: "secondary",
        intent: { type: "fate.invoke-menu", flowId, mode: "reroll" },
      },
      ...(state.check.opposition.kind === "passive"
        ? [
            {
              kind: "button" as const,
              label: t(lang, "fate.button.passive"),
              style: "secondary" as const,
              intent: { type: "fp.spend-form" as const },
            },
          ]
        : []),
    ],
  ];
  if (state.awaitingDefence) {
    rows.push([
      {
        kind: "select",
        intent: { type: "fate.defend", flowId },
        field: "skill",
        placeholder: t(lang, "fate.select.defend", { target: state.targetName ?? "" }),
        options: skillOptions(lang),
      },
    ]);
  }
  const hit = attackHit(state);
  const shifts = checkShifts(state.check);
  if (hit > 0 && state.targetId !== null && state.hitApplied === null) {
    const dealt = state.tradedForBoost ? hit - 1 : hit;
    rows[0]!.push({
      kind: "button",
      style: "danger",
      label: t(lang, "fate.button.applyHit", {
        shifts: dealt,
        target: (state.targetName ?? "").slice(0, 40),
      }),
      intent: { type: "fate.apply-hit", flowId },
    });
    if (shifts !== null && outcome(shifts) === "style" && !state.tradedForBoost) {
      // «можете снизить силу своего удара на один, чтобы дополнительно получить усиление»
      rows[0]!.push({
        kind: "button",
        style: "secondary",
        label: t(lang, "fate.button.tradeForBoost", { shifts: hit - 1 }),
        intent: { type: "fate.trade-boost", flowId },
      });
    }
  }
  if (
    state.check.action === "overcome" &&
    shifts !== null &&
    outcome(shifts) === "style" &&
    !state.advantageDone &&
    state.contestFlowId === null
  ) {
    // «…достигаете цели и к тому же получаете усиление»
    rows[0]!.push({
      kind: "button",
      style: "success",
      label: t(lang, "fate.button.takeBoost"),
      intent: { type: "fate.claim-advantage", flowId },
    });
  }
  if (
    state.check.action === "attack" &&
    shifts !== null &&
    hit <= 0 &&
    !state.awaitingDefence &&
    state.hitApplied === null &&
    state.contestFlowId === null
  ) {
    rows[0]!.push({
      kind: "button",
      style: "success",
      label: t(lang, "fate.button.resolveAttack"),
      intent: { type: "fate.resolve-attack", flowId },
    });
  }
  return rows;
}

export function checkView(lang: Lang, flowId: number, state: CheckFlowState, open = true): MessageView {
  return { embeds: [checkEmbed(lang, state)], rows: checkRows(lang, flowId, state, open) };
}

/** The invokes applied to a check, each with its mode and how it was paid: one line. */
export function invokesLine(lang: Lang, invokes: readonly AppliedInvoke[]): string {
  const list = invokes
    .map(
      (i) =>
        `${i.aspect} (${t(lang, `fate.invokeMode.${i.mode}`)}, ${t(lang, `fate.payment.${i.paidWith}`)})`,
    )
    .join("; ");
  return t(lang, "fate.check.invokes", { list });
}
