import { type Lang, t } from "../../i18n/index.js";
import { checkOpposition, checkResult, checkShifts, type FateCheck } from "../../rules/fate/check.js";
import type { FateDiceRoll } from "../../rules/fate/dice.js";
import { ladderName, signed } from "../../rules/fate/ladder.js";
import { actionOutcome, outcome } from "../../rules/fate/outcomes.js";
import { SKILLS, type SkillKey } from "../../rules/fate/skills.js";
import type { ComponentView, EmbedView, MessageView } from "../views.js";
import type { CheckFlowState, TableAspect } from "./state.js";

/**
 * The options of an invoke's aspect select (at most 25): the aspect, where it is, its kind and how
 * many of its free invokes `free` says the invoker may spend.
 */
export function aspectInvokeOptions(
  lang: Lang,
  aspects: readonly TableAspect[],
  free: (aspect: TableAspect) => number = (a) => a.aspect.freeInvokes.length,
) {
  return aspects.slice(0, 25).map((a) => ({
    label: a.aspect.name.slice(0, 90),
    value: a.ref,
    description: t(lang, "fate.invoke.option", {
      where: a.characterName ?? t(lang, "fate.aspect.scene"),
      kind: `@fate.aspectKind.${a.aspect.kind}`,
      free: free(a),
    }).slice(0, 100),
  }));
}

/** "Great (+4)"; beyond the ladder just "+9". */
export function ladderText(lang: Lang, value: number): string {
  const rung = ladderName(value);
  return rung.key ? `${t(lang, rung.key)} (${rung.signed})` : rung.signed;
}

export function skillText(lang: Lang, key: SkillKey): string {
  return t(lang, `fate.skill.${key}`);
}

/** "`+ − 0 0` (1 2 3 3) = 0": the faces as Fate dice and the d3 numbers rolled. */
export function diceText(roll: FateDiceRoll): string {
  return `\`${roll.symbols.join(" ")}\` (${roll.rolled.join(" ")}) = ${signed(roll.total)}`;
}

/** Skill select options (18 ≤ Discord's 25), named in `lang`. */
export function skillOptions(lang: Lang): { label: string; value: string }[] {
  return SKILLS.map((s) => ({ label: s[lang], value: s.key }));
}

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
  if (check.invokes.length > 0) {
    const list = check.invokes
      .map(
        (i) =>
          `${i.aspect} (${t(lang, `fate.invokeMode.${i.mode}`)}, ${t(lang, `fate.payment.${i.paidWith}`)})`,
      )
      .join("; ");
    lines.push(t(lang, "fate.check.invokes", { list }));
  }
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

/** "☒☒☐" for a stress track. */
export function boxesText(boxes: readonly boolean[]): string {
  return boxes.length === 0 ? "—" : boxes.map((b) => (b ? "☒" : "☐")).join("");
}
