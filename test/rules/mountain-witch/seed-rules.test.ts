/**
 * Rules where the seed's own words decide (docs/rules/mountain-witch.md §1.1–§1.4): common
 * dangers, narration by pairing, the dead's trust, betrayal against the betrayed only, one
 * damage per duel round.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scriptedDice, seededDice } from "../../../src/rules/dice.js";
import {
  acceptDuel,
  addParticipant,
  assist,
  betray,
  buyNarration,
  type ConflictState,
  challengeDuel,
  damageChoices,
  duelDamageChoices,
  duelIsOver,
  duelTrust,
  leaveConflict,
  narratesPairing,
  openConflict,
  pairingOfCharacter,
  pairingsNarratedBy,
  rollConflict,
  spendDamage,
  spendDuelDamage,
  strike,
  validateStartingTrust,
} from "../../../src/rules/mountain-witch/index.js";
import { expectRefusal, link, npc, pc, wound } from "./helpers.js";

const GM = { userId: "gm", isGm: true };
const as = (id: number) => ({ userId: `user-${id}`, isGm: false });

/** Hamada (1), Kenji (2) and Aki (3) against one landslide (20), which rolls once. */
function landslide(dice: number[]): ConflictState {
  let s = openConflict({ mode: "common-danger", title: "Landslide" });
  s = addParticipant(s, npc(20, "strong", "Landslide"), "b");
  s = addParticipant(s, pc(1, "Hamada"), "a");
  s = addParticipant(s, pc(2, "Kenji"), "a");
  s = addParticipant(s, pc(3, "Aki"), "a");
  return rollConflict(s, scriptedDice(dice)).state;
}

describe("common danger: «наносить и принимать Ущерб» — each pairing's winner spends that pairing's successes", () => {
  it("two winners each spend their own pairing's successes on the danger; the GM spends where the danger won", () => {
    // Landslide 3; Hamada 6 (normal), Kenji 5 (mixed), Aki 1 (mixed for the danger).
    const s = landslide([3, 6, 5, 1]);
    expect(s.pairings.map((p) => [p.id, p.winner, p.degree])).toEqual([
      [1, "a", "normal"],
      [2, "a", "mixed"],
      [3, "b", "mixed"],
    ]);
    expect(pairingsNarratedBy(s, as(1)).map((p) => p.id)).toEqual([1]);
    expect(pairingsNarratedBy(s, as(2)).map((p) => p.id)).toEqual([2]);
    expect(pairingsNarratedBy(s, GM).map((p) => p.id)).toEqual([3]);
    const hamada = spendDamage(s, { attackerSide: "a", targetId: 20, quality: "normal", pairingId: 1 });
    const kenji = spendDamage(hamada.state, {
      attackerSide: "a",
      targetId: 20,
      quality: "normal",
      pairingId: 2,
    });
    expect([hamada.damage.pairingId, kenji.damage.pairingId]).toEqual([1, 2]);
    // Each pairing's successes are its own: Hamada's pairing has nothing left.
    expectRefusal(
      () => spendDamage(kenji.state, { attackerSide: "a", targetId: 20, quality: "partial", pairingId: 1 }),
      "errors.mw.notEnoughSuccesses",
    );
  });

  it("a character's pairing is found from the character; the danger is in every pairing", () => {
    const s = landslide([3, 6, 5, 1]);
    expect(pairingOfCharacter(s, 2)?.id).toBe(2);
    expect(pairingOfCharacter(s, 20)).toBeNull();
  });

  it("the damage choice lists what each quality does to each target of that pairing only", () => {
    const s = landslide([3, 6, 5, 1]);
    // Hamada's normal success: ½ or 1 on the strong landslide.
    expect(damageChoices(s, 1).map((c) => [c.attackerSide, c.targetId, c.quality, c.duration])).toEqual([
      ["a", 20, "partial", "next-roll"],
      ["a", 20, "normal", "chapter"],
    ]);
    // Kenji's mixed success: his whole on the danger, the danger's ½ on Kenji — never on Hamada.
    const kenji = damageChoices(s, 2);
    expect(kenji.filter((c) => c.attackerSide === "b").map((c) => [c.targetId, c.quality])).toEqual([
      [2, "partial"],
    ]);
    expect(kenji.some((c) => c.targetId === 1 || c.targetId === 3)).toBe(false);
  });
});

describe("narration: «Права рассказать … получает тот, кто выбросил большее число» — per pairing", () => {
  it("the narrator of one pairing does not narrate another, and only the narrator spends its successes", () => {
    const s = landslide([3, 6, 5, 1]);
    const [hamada, kenji, aki] = s.pairings;
    expect(narratesPairing(hamada!, as(1))).toBe(true);
    expect(narratesPairing(kenji!, as(1))).toBe(false);
    expect(narratesPairing(aki!, as(3))).toBe(false);
    expect(narratesPairing(aki!, GM)).toBe(true);
    // A narrator is never the GM for a player's pairing.
    expect(narratesPairing(hamada!, GM)).toBe(false);
  });

  it("bought narration moves that pairing's narration (and its successes) to the buyer only", () => {
    const s = landslide([3, 6, 5, 1]);
    const bought = buyNarration(s, { buyer: pc(4, "Bo"), ofId: 2 }, [link(2, 4, 1)]).state;
    expect(narratesPairing(bought.pairings[1]!, as(4))).toBe(true);
    expect(narratesPairing(bought.pairings[1]!, as(2))).toBe(false);
    expect(narratesPairing(bought.pairings[0]!, as(4))).toBe(false);
  });
});

describe("the dead: «могут свободно тратить очки доверия в любой ситуации без ограничений, даже на дуэлях»", () => {
  const yanagi = pc(5, "Yanagi", "dead");

  it("a dead character betrays a character on any side without taking part", () => {
    let s = openConflict();
    s = addParticipant(s, pc(1, "Mori"), "a");
    s = addParticipant(s, pc(2, "Kenji"), "a");
    s = addParticipant(s, npc(10, "strong", "Tengu"), "b");
    // Yanagi helped Kenji (outside the conflict) and betrays Mori, on the same side.
    s = assist(s, { helper: yanagi, targetId: 2 }, [link(2, 5, 1)]).state;
    s = betray(s, { betrayer: yanagi, betrayedId: 1, points: 2 }, [link(1, 5, 2)]).state;
    expect(s.participants.map((p) => p.id)).toEqual([1, 2, 10]);
    expect(s.betrayals).toEqual([{ betrayerId: 5, betrayedId: 1, points: 2 }]);
  });

  it("a dead character helps several characters across common-danger pairings, once each", () => {
    let s = openConflict({ mode: "common-danger" });
    s = addParticipant(s, npc(20, "strong", "Storm"), "b");
    s = addParticipant(s, pc(1, "Hamada"), "a");
    s = addParticipant(s, pc(2, "Kenji"), "a");
    const links = [link(1, 5, 1), link(2, 5, 1)];
    s = assist(s, { helper: yanagi, targetId: 1 }, links).state;
    s = assist(s, { helper: yanagi, targetId: 2 }, links).state;
    expectRefusal(
      () => assist(s, { helper: yanagi, targetId: 1 }, [link(1, 5, 3)]),
      "errors.mw.alreadyHelpingTarget",
      { name: "Yanagi", target: "Hamada" },
    );
    // Storm 4; Hamada 1 + Yanagi 6; Kenji 2 + Yanagi 3.
    const rolled = rollConflict(s, scriptedDice([4, 1, 2, 6, 3])).state;
    expect(rolled.pairings.map((p) => [p.id, p.a!.result, p.winner])).toEqual([
      [1, 7, "a"],
      [2, 5, "a"],
    ]);
  });

  it("a dead helper's die carries no wound penalty", () => {
    let s = openConflict();
    s = addParticipant(s, pc(1, "Mori"), "a");
    s = addParticipant(s, npc(10, "strong"), "b");
    s = assist(s, { helper: yanagi, targetId: 1 }, [link(1, 5, 1)]).state;
    const w = wound(5, "permanent");
    const { result } = rollConflict(s, scriptedDice([2, 3, 4]), { 5: [w] });
    const entry = result.pairings[0]!.a!.entries[0]!;
    expect(entry.helpers[0]).toMatchObject({ roll: { die: 4, penalty: 0, value: 4 }, added: 4, dead: true });
    expect(entry.total).toBe(6);
    expect(result.expiredDamageIds).toEqual([]);
  });

  it("in a duel a dead character helps one duellist and betrays the other", () => {
    let d = acceptDuel(
      challengeDuel({ challenger: pc(1, "Mori"), opponent: pc(2, "Kenji") }),
      scriptedDice([3, 3]),
    );
    d = duelTrust(d, { spender: yanagi, use: "help", targetId: 1 }, [link(1, 5, 1)]).state;
    d = duelTrust(d, { spender: yanagi, use: "betray", targetId: 2, points: 1 }, [link(2, 5, 1)]).state;
    d = strike(d, "a", scriptedDice([5]));
    expect(d.result).toMatchObject({ a: { total: 3 + 5 + 1 }, b: { total: 3 } });
  });
});

describe("betrayal: «бонус против „преданного“ персонажа» — only in the comparison with the betrayed", () => {
  it("the bonus counts when the betrayed's roll is the one compared", () => {
    let s = openConflict();
    s = addParticipant(s, pc(1, "Mori"), "a");
    s = addParticipant(s, pc(2, "Kenji"), "a");
    s = addParticipant(s, pc(3, "Ayame"), "b");
    s = betray(s, { betrayer: pc(3, "Ayame"), betrayedId: 1, points: 3 }, [link(1, 3, 3)]).state;
    // Mori 5 is side a's best: Ayame 3 + 3 beats him.
    const p = rollConflict(s, scriptedDice([5, 2, 3])).result.pairings[0]!;
    expect(p.b!.entries[0]).toMatchObject({ betrayalBonus: 3, total: 6 });
    expect(p.winner).toBe("b");
  });

  it("not against anyone else: when Kenji's roll is compared, Ayame's betrayal of Mori adds nothing", () => {
    let s = openConflict();
    s = addParticipant(s, pc(1, "Mori"), "a");
    s = addParticipant(s, pc(2, "Kenji"), "a");
    s = addParticipant(s, pc(3, "Ayame"), "b");
    s = betray(s, { betrayer: pc(3, "Ayame"), betrayedId: 1, points: 3 }, [link(1, 3, 3)]).state;
    const p = rollConflict(s, scriptedDice([2, 5, 3])).result.pairings[0]!;
    expect(p.b!.entries[0]).toMatchObject({ betrayalBonus: 0, total: 3 });
    expect(p.winner).toBe("a");
  });

  it("a dead betrayer's bonus counts only in the betrayed's common-danger pairing", () => {
    let s = openConflict({ mode: "common-danger" });
    s = addParticipant(s, npc(20, "strong", "Storm"), "b");
    s = addParticipant(s, pc(1, "Hamada"), "a");
    s = addParticipant(s, pc(2, "Kenji"), "a");
    s = betray(s, { betrayer: pc(5, "Yanagi", "dead"), betrayedId: 1, points: 2 }, [link(1, 5, 2)]).state;
    const rolled = rollConflict(s, scriptedDice([3, 4, 4])).state;
    expect(rolled.pairings.map((p) => [p.id, p.b!.result, p.winner])).toEqual([
      [1, 5, "b"],
      [2, 3, "a"],
    ]);
  });

  it("property: a betrayal never changes the result of a side compared with someone else", () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 5 }), (seed, points) => {
        let s = openConflict();
        s = addParticipant(s, pc(1, "Mori"), "a");
        s = addParticipant(s, pc(2, "Kenji"), "a");
        s = addParticipant(s, pc(3, "Ayame"), "b");
        const plain = rollConflict(s, seededDice(seed)).result.pairings[0]!;
        const betrayed = betray(s, { betrayer: pc(3, "Ayame"), betrayedId: 1, points }, [
          link(1, 3, 5),
        ]).state;
        const p = rollConflict(betrayed, seededDice(seed)).result.pairings[0]!;
        const moriCompared = plain.a!.entries[0]!.total >= plain.a!.entries[1]!.total;
        expect(p.b!.result).toBe(plain.b!.result + (moriCompared ? points : 0));
        expect(p.a!.result).toBe(plain.a!.result);
      }),
    );
  });
});

describe("duel: «Любой Ущерб за один раунд дуэли наносится только один раз»", () => {
  const revealed = (a: number, b: number) =>
    strike(
      acceptDuel(
        challengeDuel({ challenger: pc(1, "Mori"), opponent: pc(2, "Kenji") }),
        scriptedDice([a, b]),
      ),
      "a",
      scriptedDice([]),
    );

  it("the winner chooses one damage entry; a second one in the same round is refused", () => {
    // 6 against 1: a double success, two wholes — still one damage.
    const d = revealed(6, 1);
    const once = spendDuelDamage(d, { attackerSide: "a", quality: "normal" });
    expect(once.damage).toMatchObject({ targetId: 2, duration: "chapter" });
    expectRefusal(
      () => spendDuelDamage(once.state, { attackerSide: "a", quality: "normal" }),
      "errors.mw.duelDamageOnce",
    );
  });

  it("only the winner damages: the loser's ½ of a mixed success is narration, a tie damages nobody", () => {
    const mixed = revealed(5, 3);
    expectRefusal(
      () => spendDuelDamage(mixed, { attackerSide: "b", quality: "partial" }),
      "errors.mw.duelDamageWinnerOnly",
      { name: "Mori" },
    );
    expectRefusal(
      () => spendDuelDamage(revealed(4, 4), { attackerSide: "a", quality: "partial" }),
      "errors.mw.duelNoWinner",
    );
  });

  it("the reveal offers the winner one choice per quality their successes buy, and none once dealt", () => {
    // 6 against 2: critical (1½) — partial, normal, critical; a lethal duel takes out as death.
    const d = revealed(6, 2);
    expect(duelDamageChoices(d)).toEqual([
      { quality: "partial", duration: "next-roll", takenOut: null },
      { quality: "normal", duration: "chapter", takenOut: null },
      { quality: "critical", duration: "permanent", takenOut: null },
    ]);
    expect(duelDamageChoices(revealed(6, 1)).at(-1)).toEqual({
      quality: "double",
      duration: "taken-out",
      takenOut: "dead",
    });
    const dealt = spendDuelDamage(d, { attackerSide: "a", quality: "partial" }).state;
    expect(duelDamageChoices(dealt)).toEqual([]);
    expect(duelIsOver(dealt)).toBe(false);
    expect(duelDamageChoices(revealed(3, 3))).toEqual([]);
    expect(duelIsOver(spendDuelDamage(revealed(6, 1), { attackerSide: "a", quality: "double" }).state)).toBe(
      true,
    );
  });

  it("property: a round never applies more than one damage entry", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(
          fc.tuple(
            fc.constantFrom("a" as const, "b" as const),
            fc.constantFrom("partial" as const, "normal" as const, "critical" as const, "double" as const),
          ),
          { maxLength: 6 },
        ),
        (a, b, attempts) => {
          let d = revealed(a, b);
          for (const [side, quality] of attempts) {
            try {
              d = spendDuelDamage(d, { attackerSide: side, quality }).state;
            } catch {
              // refused: nothing changed
            }
          }
          expect(d.result!.damage.length).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
});

describe("leaving: «Если на этом этапе кто-то из игроков хочет изменить свои намерения … это можно сделать до того, как все бросили кубики»", () => {
  it("a character who leaves before the roll gets back the trust spent by, on and against them", () => {
    let s = openConflict();
    s = addParticipant(s, npc(20, "strong", "Tengu"), "b");
    s = addParticipant(s, pc(1, "Hamada"), "a");
    s = addParticipant(s, pc(3, "Aki"), "b");
    s = assist(s, { helper: pc(2, "Kenji"), targetId: 1 }, [link(1, 2, 1)]).state;
    s = betray(s, { betrayer: pc(3, "Aki"), betrayedId: 1, points: 2 }, [link(1, 3, 2)]).state;
    const { state, refunds } = leaveConflict(s, 1);
    expect(refunds).toEqual([
      { use: "help", giverId: 1, holderId: 2, amount: 1 },
      { use: "betray", giverId: 1, holderId: 3, amount: 2 },
    ]);
    expect(state.trustUses).toEqual([]);
    // Kenji, who helped Hamada, rolls for himself again.
    expect(state.participants.map((p) => [p.id, p.helps])).toEqual([
      [20, null],
      [3, null],
      [2, null],
    ]);
  });

  it("property: leaving never refunds more than was spent, and leaves no record of the leaver", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.boolean(), (points, helped) => {
        let s = openConflict();
        s = addParticipant(s, npc(20, "strong"), "b");
        s = addParticipant(s, pc(1), "a");
        s = addParticipant(s, pc(3), "b");
        if (helped) s = assist(s, { helper: pc(2), targetId: 1 }, [link(1, 2, 1)]).state;
        s = betray(s, { betrayer: pc(3), betrayedId: 1, points }, [link(1, 3, points)]).state;
        const spent = s.trustUses.reduce((sum, r) => sum + r.amount, 0);
        const { state, refunds } = leaveConflict(s, 1);
        expect(refunds.reduce((sum, r) => sum + r.amount, 0)).toBe(spent);
        expect(JSON.stringify([state.betrayals, state.trustUses, state.killIntents])).not.toMatch(
          /"(betrayedId|giverId|targetId)":1\b/,
        );
      }),
    );
  });
});

describe("starting trust: «Начальное доверие выбирается на основе знаков Зодиака»", () => {
  it("the zodiac value may be raised by 1 at most or lowered before chapter 1", () => {
    expect(validateStartingTrust(2, 3)).toBe(3);
    expect(validateStartingTrust(3, 0)).toBe(0);
    expectRefusal(() => validateStartingTrust(2, 20), "errors.mw.startingTrustTooHigh", {
      zodiac: 2,
      max: 3,
    });
    expectRefusal(() => validateStartingTrust(0, -1), "errors.mw.trustNegative");
  });

  it("property: an accepted starting value is never above the zodiac value + 1 nor below 0", () => {
    fc.assert(
      fc.property(fc.constantFrom(0, 2, 3), fc.integer({ min: -5, max: 25 }), (zodiac, value) => {
        try {
          const accepted = validateStartingTrust(zodiac, value);
          expect(accepted).toBeGreaterThanOrEqual(0);
          expect(accepted).toBeLessThanOrEqual(zodiac + 1);
        } catch {
          expect(value < 0 || value > zodiac + 1).toBe(true);
        }
      }),
    );
  });
});
