import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  asNegotiation,
  endNegotiation,
  GM_SIDE,
  type NegotiationState,
  newNegotiation,
  nextPhase,
  preActivate,
} from "../../../src/rules/beast-hunters/index.js";
import { expectRefusal, yakhara } from "./helpers.js";

const hunters = [
  { id: "yak", name: "Якхара", traits: yakhara().traits },
  { id: "borak", name: "Borak", traits: [{ name: "Big", sphere: "physical" as const, value: 4 }] },
];
const open = (phase: 1 | 2 | 3 = 1) =>
  newNegotiation({ name: "Bandits", sphere: "physical", phase, hunters });

describe("negotiation and pre-activations", () => {
  it("«Фаза 1 … черты не активированы»: nothing is pre-activated in phase 1", () => {
    expectRefusal(
      () => preActivate(open(1), { by: "yak", trait: "Проницательность", as: "attack" }),
      "errors.bh.preActivationNotAllowed",
      { phase: 1 },
    );
  });

  it("«Охотник … пред-активирует черту, которую хочет использовать»: each hunter one trait of their own in phase 2", () => {
    const phase2 = nextPhase(open());
    const { state, added } = preActivate(phase2, {
      by: "yak",
      trait: "мама будет мной гордиться",
      as: "attack",
    });
    expect(added).toEqual({ by: "yak", trait: "Мама будет мной гордиться", as: "attack", phase: 2 });
    // A second trait for the same hunter in this negotiation is refused; another hunter may.
    expectRefusal(
      () => preActivate(state, { by: "yak", trait: "Проницательность", as: "defence" }),
      "errors.bh.tooManyPreActivations",
    );
    expect(preActivate(state, { by: "borak", trait: "Big", as: "defence" }).state.pre).toHaveLength(2);
    // Only their own traits.
    expectRefusal(
      () => preActivate(state, { by: "borak", trait: "Проницательность", as: "attack" }),
      "errors.bh.unknownTrait",
    );
  });

  it("«Ведущему разрешается активировать одну черту со своей стороны конфликта»: the GM one, in phase 3 only", () => {
    expectRefusal(
      () => preActivate(nextPhase(open()), { by: GM_SIDE, trait: "Hungry", as: "attack" }),
      "errors.bh.preActivationNotAllowed",
      { phase: 2 },
    );
    const phase3 = nextPhase(open(), 3);
    const { state } = preActivate(phase3, { by: GM_SIDE, trait: "Hungry", as: "attack" });
    expectRefusal(
      () => preActivate(state, { by: GM_SIDE, trait: "Surround", as: "defence" }),
      "errors.bh.tooManyPreActivations",
    );
  });

  it("«каждая черта может быть пред-активирована лишь один раз за время приключения»", () => {
    expectRefusal(
      () =>
        preActivate(open(2), { by: "yak", trait: "Проницательность", as: "attack" }, ["проницательность"]),
      "errors.bh.alreadyPreActivated",
      { trait: "Проницательность" },
    );
  });

  it("records whether the negotiation ended in a concession or in dice, and then takes nothing more", () => {
    const conceded = endNegotiation(open(2), "concession");
    expect(conceded.ended).toEqual({ how: "concession", phase: 2, challengeFlowId: null });
    expect(endNegotiation(open(3), "dice", 7).ended).toEqual({ how: "dice", phase: 3, challengeFlowId: 7 });
    expectRefusal(() => nextPhase(conceded), "errors.bh.negotiationOver");
    expectRefusal(
      () => preActivate(conceded, { by: "yak", trait: "Проницательность", as: "attack" }),
      "errors.bh.negotiationOver",
    );
  });

  it("phases only move forward, up to 3", () => {
    expectRefusal(() => nextPhase(open(3)), "errors.bh.phaseForwardOnly");
    expectRefusal(() => nextPhase(open(2), 1), "errors.bh.phaseForwardOnly");
  });

  it("a stored negotiation without the later fields still loads", () => {
    const old = { ...open(2) } as Partial<NegotiationState>;
    delete old.draft;
    delete old.pre;
    expect(asNegotiation(old)).toMatchObject({ pre: [], draft: {}, ended: null, phase: 2 });
  });

  it("property: whatever is tried, at most one pre-activation per hunter and one for the GM, none in phase 1", () => {
    const attempt = fc.record({
      by: fc.constantFrom("yak", "borak", GM_SIDE),
      trait: fc.constantFrom("Проницательность", "Big", "Hungry", "Мама будет мной гордиться"),
      as: fc.constantFrom("attack" as const, "defence" as const),
      advance: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(attempt, { maxLength: 12 }), (attempts) => {
        let state = open();
        for (const a of attempts) {
          if (a.advance && state.phase < 3) state = nextPhase(state);
          try {
            state = preActivate(state, a).state;
          } catch {
            // refused: nothing changed
          }
        }
        for (const by of ["yak", "borak", GM_SIDE])
          expect(state.pre.filter((p) => p.by === by).length).toBeLessThanOrEqual(1);
        expect(state.pre.every((p) => p.phase >= 2 && (p.by !== GM_SIDE || p.phase === 3))).toBe(true);
      }),
    );
  });
});
