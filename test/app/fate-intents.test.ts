import { describe, expect, it } from "vitest";
import { checkView } from "../../src/app/fate/check-view.js";
import { fateIntents } from "../../src/app/fate/intents.js";
import type { CheckFlowState } from "../../src/app/fate/state.js";
import type { Intent } from "../../src/app/intent.js";
import type { ButtonView, ComponentView } from "../../src/app/views.js";
import { readFateDice } from "../../src/rules/fate/dice.js";

type FateType = keyof typeof fateIntents;

/** What a click (or a choice from a select, with its first option) sends for this component. */
function sent(component: ComponentView): Intent {
  if (component.kind === "button") return component.intent as Intent;
  return { ...component.intent, [component.field]: component.options[0]!.value } as Intent;
}

function accepted(intent: Intent): boolean {
  const schema = fateIntents[intent.type as FateType];
  if (!schema) throw new Error(`${intent.type} is not in the Fate catalogue`);
  return schema.safeParse(intent).success;
}

/** An attack rolled against a target, waiting for its defence (Fight 2 + 4dF at 0). */
const attack = (change: Partial<CheckFlowState> = {}): CheckFlowState => ({
  check: {
    characterId: "1",
    skill: "fight",
    skillValue: 2,
    bonus: 0,
    action: "attack",
    dice: readFateDice([3, 3, 3, 3]),
    rerolledDice: [],
    opposition: { kind: "none" },
    invokes: [],
  },
  rollerId: 1,
  rollerName: "Ilsa",
  targetId: 2,
  targetName: "Captain",
  aspect: null,
  existingAspect: false,
  advantageDone: false,
  awaitingDefence: true,
  linkFlowId: null,
  hitApplied: null,
  tradedForBoost: false,
  contestFlowId: null,
  ...change,
});

describe("Fate intents", () => {
  it("a Fate button with a misspelled type, a missing field or a wrong value does not compile, and its schema refuses it", () => {
    const buttons: ButtonView[] = [
      // @ts-expect-error "fate.defned" is no intent
      { kind: "button", label: "x", intent: { type: "fate.defned", flowId: 1, skill: "fight" } },
      // @ts-expect-error an invoke is +2, a reroll or a passive +2: there is no +3
      { kind: "button", label: "x", intent: { type: "fate.invoke-menu", flowId: 1, mode: "plus3" } },
      // @ts-expect-error a hit to absorb is named by its flow's id, a number
      { kind: "button", label: "x", intent: { type: "fate.absorb", flowId: "7" } },
      // @ts-expect-error naming a consequence says which slot
      { kind: "button", label: "x", intent: { type: "fate.name-consequence", characterId: 3 } },
    ];
    const [, plus3, textId, noSlot] = buttons.map((b) => b.intent as Intent);
    expect(accepted(plus3!)).toBe(false);
    expect(accepted(textId!)).toBe(false);
    expect(accepted(noSlot!)).toBe(false);
    expect(accepted({ type: "fate.invoke-menu", flowId: 1, mode: "reroll" })).toBe(true);
  });

  it("every button and menu on a check's panel sends an intent its use case's schema accepts", () => {
    const against = (value: number, bonus = 0) =>
      attack({
        awaitingDefence: false,
        check: { ...attack().check, bonus, opposition: { kind: "passive", value } },
      });
    const panels = [
      checkView("en", 5, attack()),
      // A tie: nothing to apply, the attack is settled with a boost.
      checkView("en", 5, against(2)),
      // A hit of 4 against -2: the target applies it.
      checkView("ru", 5, against(-2)),
      // Success with style (6 against 0): the attacker may trade a shift for a boost.
      checkView("en", 5, against(0, 4)),
    ];
    const intents = panels.flatMap((view) => (view.rows ?? []).flat().map(sent));
    expect(new Set(intents.map((i) => i.type))).toEqual(
      new Set([
        "fate.invoke-menu",
        "fate.defend",
        "fp.spend-form",
        "fate.resolve-attack",
        "fate.apply-hit",
        "fate.trade-boost",
      ]),
    );
    for (const intent of intents) expect(accepted(intent), JSON.stringify(intent)).toBe(true);
  });
});
