import { describe, expect, it } from "vitest";
import { scriptedDice } from "../../../src/rules/dice.js";
import {
  addObstacle,
  addParticipant,
  assist,
  betray,
  buyNarration,
  type ConflictState,
  closeConflict,
  damageChoices,
  declareKillIntent,
  declareTrade,
  leaveConflict,
  narratorOf,
  openConflict,
  openRecoveryConflict,
  recoveryOutcome,
  rollConflict,
  spendDamage,
  spenderOf,
  spendsSide,
  tradeSuccesses,
} from "../../../src/rules/mountain-witch/index.js";
import { expectRefusal, link, npc, pc, wound } from "./helpers.js";

/** Every state must survive a JSON round trip unchanged (it is stored as JSONB). */
function stored(state: ConflictState): ConflictState {
  const copy = JSON.parse(JSON.stringify(state)) as ConflictState;
  expect(copy).toStrictEqual(state);
  return copy;
}

function duel1v1(a = pc(1), b = npc(10, "strong")): ConflictState {
  let s = openConflict();
  s = addParticipant(s, a, "a");
  s = addParticipant(s, b, "b");
  return s;
}

describe("worked examples (docs/rules/mountain-witch.md §1.1)", () => {
  it("a side rolling 6 against a wounded defender's 1 − 1 gets degree 6: a double success", () => {
    const w = wound(10);
    const { state, result } = rollConflict(duel1v1(), scriptedDice([6, 1]), { 10: [w] });
    const [pairing] = result.pairings;
    expect(pairing!.b!.entries[0]!.lead).toMatchObject({
      die: 1,
      penalty: 1,
      value: 0,
      penaltyDamageIds: [w.id],
    });
    expect(pairing!.margin).toBe(6);
    expect(pairing!.degree).toBe("double");
    expect(pairing!.winner).toBe("a");
    expect(pairing!.successes).toEqual({ a: ["whole", "whole"], b: [] });
    // The wound lasted until the character's next roll: this one.
    expect(result.expiredDamageIds).toEqual([w.id]);
    stored(state);
  });

  it("results may go negative: 6 against 1 with two wounds is 6 − (−1) = 7", () => {
    const { result } = rollConflict(duel1v1(), scriptedDice([6, 1]), {
      10: [wound(10, "chapter"), wound(10, "permanent")],
    });
    expect(result.pairings[0]!.b!.result).toBe(-1);
    expect(result.pairings[0]!.margin).toBe(7);
    expect(result.pairings[0]!.degree).toBe("double");
    expect(result.expiredDamageIds).toEqual([]);
  });

  it("names every degree by the margin: 0 tie … 5+ double, the loser of a mixed success gets ½", () => {
    const cases: [number, number, string, string[], string[]][] = [
      [3, 3, "tie", [], []],
      [4, 3, "partial", ["half"], []],
      [5, 3, "mixed", ["whole"], ["half"]],
      [4, 1, "normal", ["whole"], []],
      [5, 1, "critical", ["whole", "half"], []],
      [6, 1, "double", ["whole", "whole"], []],
    ];
    for (const [a, b, degree, winner, loser] of cases) {
      const p = rollConflict(duel1v1(), scriptedDice([a, b])).result.pairings[0]!;
      expect(p.degree).toBe(degree);
      if (degree === "tie") {
        expect(p.winner).toBeNull();
        expect(p.narration).toBeNull();
      } else {
        expect(p.successes).toEqual({ a: winner, b: loser });
      }
    }
  });

  it("a helper's die is added; a helper at −1 adds 0 and never lowers the sum", () => {
    let s = duel1v1();
    const helped = assist(s, { helper: pc(2), targetId: 1 }, [link(1, 2, 2)]);
    expect(helped.spent).toEqual({ use: "help", giverId: 1, holderId: 2, amount: 1, before: 2, after: 1 });
    s = stored(helped.state);
    // PC2 carries two wounds and rolls 1: 1 − 2 = −1, which adds 0.
    const { result } = rollConflict(s, scriptedDice([4, 3, 1]), {
      2: [wound(2, "chapter"), wound(2, "chapter")],
    });
    const entry = result.pairings[0]!.a!.entries[0]!;
    expect(entry.helpers).toEqual([
      { roll: expect.objectContaining({ characterId: 2, value: -1 }), added: 0 },
    ]);
    expect(entry.total).toBe(4);
    expect(result.pairings[0]!.degree).toBe("partial");
  });

  it("help: the pair counts as one roll and the helped character narrates, whatever the dice", () => {
    let s = duel1v1();
    s = assist(s, { helper: pc(2), targetId: 1 }, [link(1, 2, 1)]).state;
    const { result } = rollConflict(s, scriptedDice([2, 4, 5]));
    const p = result.pairings[0]!;
    expect(p.a!.result).toBe(7);
    expect(p.a!.entries).toHaveLength(1);
    expect(p.degree).toBe("normal");
    expect(p.narration).toMatchObject({ characterId: 1, playerId: "user-1", reason: "highest" });
  });

  it("several helpers each pay 1 from their own link", () => {
    let s = duel1v1();
    s = assist(s, { helper: pc(2), targetId: 1 }, [link(1, 2, 1)]).state;
    s = assist(s, { helper: pc(3), targetId: 1 }, [link(1, 3, 3)]).state;
    expect(s.trustUses.map((u) => [u.holderId, u.amount])).toEqual([
      [2, 1],
      [3, 1],
    ]);
    const { result } = rollConflict(s, scriptedDice([1, 6, 1, 1]));
    expect(result.pairings[0]!.a!.result).toBe(3);
  });

  it("betrayal adds +3 to the betrayer against the betrayed, who then may not spend trust", () => {
    let s = openConflict();
    s = addParticipant(s, pc(1, "Kenji"), "a");
    s = addParticipant(s, pc(2, "Ayame"), "b");
    const b = betray(s, { betrayer: pc(2, "Ayame"), betrayedId: 1, points: 3 }, [link(1, 2, 3)]);
    expect(b.spent).toMatchObject({ use: "betray", amount: 3, before: 3, after: 0 });
    s = stored(b.state);
    // Kenji may not answer with his own betrayal, nor help, nor (later) buy narration.
    expectRefusal(
      () => betray(s, { betrayer: pc(1, "Kenji"), betrayedId: 2, points: 1 }, [link(2, 1, 5)]),
      "errors.mw.betrayedCannotSpend",
    );
    const { state, result } = rollConflict(s, scriptedDice([5, 3]));
    const p = result.pairings[0]!;
    expect(p.b!.entries[0]).toMatchObject({ betrayalBonus: 3, total: 6 });
    expect(p.winner).toBe("b");
    expect(p.degree).toBe("partial");
    expectRefusal(
      () => buyNarration(state, { buyer: pc(1, "Kenji"), ofId: 2 }, [link(2, 1, 5)]),
      "errors.mw.betrayedCannotSpend",
    );
  });

  it("a dead character's player betrays from outside the conflict: the bonus goes to the other side", () => {
    let s = duel1v1();
    s = betray(s, { betrayer: pc(3, "Ghost", "dead"), betrayedId: 1, points: 2 }, [link(1, 3, 2)]).state;
    const p = rollConflict(s, scriptedDice([4, 3])).result.pairings[0]!;
    expect(p.b!.betrayalBonus).toBe(2);
    expect(p.b!.result).toBe(5);
    expect(p.winner).toBe("b");
  });

  it("a dead character's player may help (without the presence requirement) but not roll for themselves", () => {
    let s = duel1v1();
    expectRefusal(() => addParticipant(s, pc(3, "Ghost", "dead"), "a"), "errors.mw.characterDead", {
      name: "Ghost",
    });
    s = assist(s, { helper: pc(3, "Ghost", "dead"), targetId: 1 }, [link(1, 3, 1)]).state;
    expect(rollConflict(s, scriptedDice([2, 2, 3])).result.pairings[0]!.a!.result).toBe(5);
  });
});

describe("group conflicts", () => {
  it("the GM rolls once per opposing character or obstacle and keeps the highest", () => {
    let s = openConflict({ title: "The tengu on the wall" });
    s = addParticipant(s, pc(1, "Hamada"), "a");
    s = addParticipant(s, npc(10, "strong", "Tengu"), "b");
    const added = addObstacle(s, { name: "Crumbling wall", strength: "weak" });
    expect(added.id).toBe(-1);
    s = stored(added.state);
    const { result } = rollConflict(s, scriptedDice([3, 2, 5]));
    expect(result.dice.map((d) => [d.characterId, d.die])).toEqual([
      [1, 3],
      [10, 2],
      [-1, 5],
    ]);
    const p = result.pairings[0]!;
    expect(p.b!.result).toBe(5);
    expect(p.degree).toBe("mixed");
    // The wall's die was higher: the GM narrates Hamada falling from the wall.
    expect(p.narration).toMatchObject({ characterId: -1, playerId: null, side: "b", reason: "highest" });
  });

  it("players whose characters tie for the best die roll off, again on ties", () => {
    let s = openConflict();
    s = addParticipant(s, pc(1), "a");
    s = addParticipant(s, pc(2), "a");
    s = addParticipant(s, npc(10, "medium"), "b");
    const { result } = rollConflict(s, scriptedDice([5, 5, 2, 3, 3, 2, 6]));
    const n = result.pairings[0]!.narration!;
    expect(n.reason).toBe("roll-off");
    expect(n.tiedIds).toEqual([1, 2]);
    expect(n.rollOff).toEqual([
      [
        { characterId: 1, die: 3 },
        { characterId: 2, die: 3 },
      ],
      [
        { characterId: 1, die: 2 },
        { characterId: 2, die: 6 },
      ],
    ]);
    expect(n.characterId).toBe(2);
  });

  it("the GM's tied characters need no roll-off", () => {
    let s = openConflict();
    s = addParticipant(s, pc(1), "a");
    s = addParticipant(s, npc(10, "medium"), "b");
    s = addParticipant(s, npc(11, "weak"), "b");
    const dice = scriptedDice([1, 5, 5]);
    const n = rollConflict(s, dice).result.pairings[0]!.narration!;
    expect(dice.remaining()).toBe(0);
    expect(n).toMatchObject({
      characterId: 10,
      playerId: null,
      reason: "highest",
      tiedIds: [10, 11],
      rollOff: [],
    });
  });

  it("common danger: the GM rolls once and each player's die is compared with it on its own", () => {
    let s = openConflict({ mode: "common-danger", title: "Landslide" });
    s = addParticipant(s, npc(20, "medium", "Landslide"), "b");
    s = addParticipant(s, pc(1), "a");
    s = addParticipant(s, pc(2), "a");
    s = addParticipant(s, pc(3), "a");
    expectRefusal(() => addParticipant(s, npc(21, "weak"), "b"), "errors.mw.dangerAlreadySet");
    const { state, result } = rollConflict(s, scriptedDice([4, 6, 4, 1]));
    expect(result.dice.filter((d) => d.characterId === 20)).toHaveLength(1);
    expect(result.pairings.map((p) => [p.id, p.winner, p.degree])).toEqual([
      [1, "a", "mixed"],
      [2, null, "tie"],
      [3, "b", "normal"],
    ]);
    // The danger's success on PC3 is spent on PC3's pairing, found from the target.
    const hit = spendDamage(state, { attackerSide: "b", targetId: 3, quality: "normal" });
    expect(hit.damage).toMatchObject({ pairingId: 3, duration: "chapter", takenOut: null });
    // The mixed success gave the danger ½ against PC1.
    const back = spendDamage(hit.state, { attackerSide: "b", targetId: 1, quality: "partial" });
    expect(back.damage).toMatchObject({ pairingId: 1, duration: "next-roll" });
    // PC2 tied and trades: both get a normal success in that pairing only.
    const traded = declareTrade(back.state, { declarerId: 2, level: "normal" }).state;
    expect(traded.pairings[1]!.successes).toEqual({ a: ["whole"], b: ["whole"] });
    expect(traded.pairings[1]!.narration).toMatchObject({ characterId: 2, reason: "trade" });
    // Damage on the danger needs to say whose comparison it is.
    expectRefusal(
      () => spendDamage(traded, { attackerSide: "a", targetId: 20, quality: "normal" }),
      "errors.mw.pairingNeeded",
    );
    const onDanger = spendDamage(traded, {
      attackerSide: "a",
      targetId: 20,
      quality: "normal",
      pairingId: 1,
    });
    expect(onDanger.damage).toMatchObject({ duration: "chapter" });
  });
});

describe("trade", () => {
  it("declared by a player before the roll: no roll happens, both sides get the chosen success", () => {
    const { state } = declareTrade(duel1v1(), { declarerId: 1, level: "critical" });
    stored(state);
    expect(state.phase).toBe("rolled");
    expect(state.dice).toEqual([]);
    expect(state.pairings[0]).toMatchObject({
      winner: null,
      degree: "tie",
      successes: { a: ["whole", "half"], b: ["whole", "half"] },
      trade: { declarerId: 1, level: "critical", beforeRoll: true },
    });
    expectRefusal(() => rollConflict(state, scriptedDice([1, 1])), "errors.mw.conflictAlreadyRolled");
  });

  it("on a tie after the roll; never on another degree, never partial or mixed", () => {
    const tied = rollConflict(duel1v1(), scriptedDice([3, 3])).state;
    expectRefusal(
      () => declareTrade(tied, { declarerId: 1, level: "partial" as never }),
      "errors.mw.tradeLevelInvalid",
    );
    const { state } = declareTrade(tied, { declarerId: 1, level: "double" });
    expect(state.pairings[0]!.successes).toEqual({ a: ["whole", "whole"], b: ["whole", "whole"] });
    expectRefusal(() => declareTrade(state, { declarerId: 1, level: "normal" }), "errors.mw.alreadyTraded");
    const won = rollConflict(duel1v1(), scriptedDice([4, 3])).state;
    expectRefusal(() => declareTrade(won, { declarerId: 1, level: "normal" }), "errors.mw.tradeNeedsTie");
  });

  it("the GM can never declare a trade", () => {
    expectRefusal(
      () => declareTrade(duel1v1(), { declarerId: 10, level: "normal" }),
      "errors.mw.gmCannotTrade",
    );
    const tied = rollConflict(duel1v1(), scriptedDice([3, 3])).state;
    expectRefusal(() => declareTrade(tied, { declarerId: 10, level: "normal" }), "errors.mw.gmCannotTrade");
  });

  it("«Размен в групповом конфликте … Ущерб причиняется тому, кто объявил размен»: the rules apply the opponents' half to the declarer at once", () => {
    let s = openConflict();
    s = addParticipant(s, pc(1, "Kenji"), "a");
    s = addParticipant(s, pc(2, "Ayame"), "a");
    s = addParticipant(s, npc(10, "strong", "Oni"), "b");
    s = rollConflict(s, scriptedDice([3, 2, 3])).state;
    const traded = declareTrade(s, { declarerId: 2, level: "normal" });
    // «Успех с Ущербом такого качества, какое выбрал игрок для взаимного Успеха»: 1 on Ayame, for the chapter.
    expect(traded.tradeCost).toMatchObject({
      targetId: 2,
      attackerSide: "b",
      quality: "normal",
      tradeCost: true,
    });
    expect(traded.tradeCost!.duration).toBe("chapter");
    s = traded.state;
    expect(s.pairings[0]!.remaining).toEqual({ a: ["whole"], b: [] });
    // Nothing is left of the GM's half for anyone to misplace.
    expectRefusal(
      () => spendDamage(s, { attackerSide: "b", targetId: 1, quality: "normal" }),
      "errors.mw.notEnoughSuccesses",
    );
    expectRefusal(
      () => spendDamage(s, { attackerSide: "b", targetId: 2, quality: "partial" }),
      "errors.mw.notEnoughSuccesses",
    );
    // The declarer's own half is a success on the other side, and narration may still be bought.
    const onOni = spendDamage(s, { attackerSide: "a", targetId: 10, quality: "normal" });
    expect(onOni.damage.targetId).toBe(10);
  });

  it("«тогда и он и его противник получают одинаковый Успех»: a group trade at each level costs the declarer that level", () => {
    for (const [level, duration, takenOut] of [
      ["normal", "chapter", null],
      ["critical", "permanent", null],
      ["double", "taken-out", "incapacitated"],
    ] as const) {
      let s = openConflict();
      s = addParticipant(s, pc(1, "Aki"), "a");
      s = addParticipant(s, pc(2, "Bo"), "a");
      s = addParticipant(s, npc(10, "strong", "Raiders"), "b");
      // Before the roll: no dice, the cost lands at once.
      const before = declareTrade(s, { declarerId: 2, level });
      expect(before.state.dice).toEqual([]);
      expect(before.tradeCost).toMatchObject({ targetId: 2, quality: level, duration, takenOut });
      expect(before.state.pairings[0]!.remaining.b).toEqual([]);
      expect(before.state.pairings[0]!.remaining.a).toEqual(tradeSuccesses(level));
    }
  });

  it("«Размен может объявить даже до броска»: in a common danger the cost lands at the roll, in the declarer's pairing only", () => {
    let s = openConflict({ mode: "common-danger" });
    s = addParticipant(s, npc(20, "strong", "Avalanche"), "b");
    s = addParticipant(s, pc(1, "Aki"), "a");
    s = addParticipant(s, pc(2, "Bo"), "a");
    s = addParticipant(s, pc(3, "Cho"), "a");
    s = assist(s, { helper: pc(3, "Cho"), targetId: 2 }, [link(2, 3, 2)]).state;
    s = declareTrade(s, { declarerId: 2, level: "critical" }).state;
    const { state, result } = rollConflict(s, scriptedDice([4, 5]));
    expect(result.tradeCosts).toHaveLength(1);
    expect(result.tradeCosts[0]).toMatchObject({ pairingId: 2, targetId: 2, duration: "permanent" });
    expect(state.pairings.find((p) => p.id === 2)!.remaining).toEqual({ a: ["whole", "half"], b: [] });
  });

  it("«размен описывается как Успех с Ущербом»: one on one, the opponent applies the other half to the declarer, at the quality traded, or leaves it", () => {
    const tied = rollConflict(duel1v1(), scriptedDice([3, 3])).state;
    const { state, tradeCost } = declareTrade(tied, { declarerId: 1, level: "critical" });
    expect(tradeCost).toBeNull();
    const pairing = state.pairings[0]!;
    // The declarer narrates and spends the players' half; the GM spends the opponents' half.
    expect(spenderOf(state, pairing, "a")).toEqual({ playerId: "user-1" });
    expect(spenderOf(state, pairing, "b")).toEqual({ playerId: null });
    expect(spendsSide(state, pairing, "b", { userId: "user-1", isGm: false })).toBe(false);
    expect(spendsSide(state, pairing, "b", { userId: "gm", isGm: true })).toBe(true);
    expectRefusal(
      () => spendDamage(state, { attackerSide: "b", targetId: 1, quality: "partial" }),
      "errors.mw.tradeDamageAtLevel",
    );
    const hit = spendDamage(state, { attackerSide: "b", targetId: 1, quality: "critical" });
    expect(hit.damage).toMatchObject({ targetId: 1, duration: "permanent" });
    expect(damageChoices(hit.state, 0).every((c) => c.attackerSide === "a")).toBe(true);
  });
});

describe("damage (docs/rules/mountain-witch.md §1.2)", () => {
  it("a weak opponent is taken out by a normal success", () => {
    const s = rollConflict(duel1v1(pc(1), npc(10, "weak", "Ashigaru")), scriptedDice([5, 2])).state;
    const { state, damage } = spendDamage(s, { attackerSide: "a", targetId: 10, quality: "normal" });
    expect(damage).toMatchObject({ duration: "taken-out", takenOut: "incapacitated", quality: "normal" });
    expect(state.pairings[0]!.remaining.a).toEqual([]);
    expectRefusal(
      () => spendDamage(state, { attackerSide: "a", targetId: 10, quality: "partial" }),
      "errors.mw.alreadyTakenOut",
      { name: "Ashigaru" },
    );
  });

  it("taken out means dead only when the intent to kill was declared before the roll", () => {
    let s = duel1v1(pc(1), npc(10, "weak"));
    expectRefusal(() => declareKillIntent(s, { byId: 1, targetId: 1 }), "errors.mw.targetNotOpponent");
    s = declareKillIntent(s, { byId: 1, targetId: 10 });
    s = rollConflict(s, scriptedDice([5, 2])).state;
    expectRefusal(() => declareKillIntent(s, { byId: 10, targetId: 1 }), "errors.mw.killIntentAfterRoll");
    expect(spendDamage(s, { attackerSide: "a", targetId: 10, quality: "normal" }).damage.takenOut).toBe(
      "dead",
    );
    expect(
      spendDamage(s, { attackerSide: "a", targetId: 10, quality: "normal", kill: false }).damage.takenOut,
    ).toBe("incapacitated");
    const undeclared = rollConflict(duel1v1(pc(1), npc(10, "weak")), scriptedDice([5, 2])).state;
    expectRefusal(
      () => spendDamage(undeclared, { attackerSide: "a", targetId: 10, quality: "normal", kill: true }),
      "errors.mw.killNotDeclared",
    );
  });

  it("a player character is strong: critical is a permanent −1, double takes out", () => {
    const crit = rollConflict(duel1v1(pc(1), npc(10, "strong")), scriptedDice([1, 5])).state;
    expect(spendDamage(crit, { attackerSide: "b", targetId: 1, quality: "critical" }).damage.duration).toBe(
      "permanent",
    );
    const dbl = rollConflict(duel1v1(pc(1), npc(10, "strong")), scriptedDice([1, 6])).state;
    expect(spendDamage(dbl, { attackerSide: "b", targetId: 1, quality: "double" }).damage.takenOut).toBe(
      "incapacitated",
    );
  });

  it("a critical success is a whole and a half: two separate damages, but a whole is never split", () => {
    const s = rollConflict(duel1v1(pc(1), npc(10, "medium")), scriptedDice([5, 1])).state;
    const first = spendDamage(s, { attackerSide: "a", targetId: 10, quality: "normal" });
    expect(first.damage.duration).toBe("chapter");
    const second = spendDamage(first.state, { attackerSide: "a", targetId: 10, quality: "partial" });
    expect(second.damage.duration).toBe("next-roll");
    expectRefusal(
      () => spendDamage(second.state, { attackerSide: "a", targetId: 10, quality: "partial" }),
      "errors.mw.notEnoughSuccesses",
    );
    const normalOnly = rollConflict(duel1v1(), scriptedDice([4, 1])).state;
    const half = spendDamage(normalOnly, { attackerSide: "a", targetId: 10, quality: "partial" }).state;
    expectRefusal(
      () => spendDamage(half, { attackerSide: "a", targetId: 10, quality: "partial" }),
      "errors.mw.notEnoughSuccesses",
    );
  });

  it("ability damage and conditional damage", () => {
    const s = rollConflict(duel1v1(), scriptedDice([1, 4])).state;
    const ability = spendDamage(s, {
      attackerSide: "b",
      targetId: 1,
      quality: "normal",
      ability: "Spider climb",
    });
    expect(ability.damage).toMatchObject({ duration: "chapter", ability: "Spider climb", condition: null });
    const poison = spendDamage(s, {
      attackerSide: "b",
      targetId: 1,
      quality: "normal",
      condition: "antidote",
    });
    expect(poison.damage).toMatchObject({ duration: "condition", condition: "antidote" });
    const out = rollConflict(duel1v1(pc(1), npc(10, "weak")), scriptedDice([5, 1])).state;
    expectRefusal(
      () => spendDamage(out, { attackerSide: "a", targetId: 10, quality: "normal", ability: "Claws" }),
      "errors.mw.takenOutNoAbilityOrCondition",
    );
  });

  it("only the other side can be damaged, and only with successes that exist", () => {
    const s = rollConflict(duel1v1(), scriptedDice([4, 3])).state;
    expectRefusal(
      () => spendDamage(s, { attackerSide: "a", targetId: 1, quality: "partial" }),
      "errors.mw.targetNotOpponent",
    );
    expectRefusal(
      () => spendDamage(s, { attackerSide: "b", targetId: 1, quality: "partial" }),
      "errors.mw.notEnoughSuccesses",
    );
    expectRefusal(
      () => spendDamage(s, { attackerSide: "a", targetId: 10, quality: "normal" }),
      "errors.mw.notEnoughSuccesses",
    );
    expectRefusal(
      () => spendDamage(s, { attackerSide: "a", targetId: 99, quality: "partial" }),
      "errors.mw.notInConflict",
    );
  });

  it("ability damage puts no −1 on the die", () => {
    const lostAbility = { ...wound(1, "chapter"), ability: "See the dead" };
    const { result } = rollConflict(duel1v1(), scriptedDice([4, 4]), { 1: [lostAbility] });
    expect(result.pairings[0]!.a!.entries[0]!.lead.penalty).toBe(0);
  });
});

describe("narration", () => {
  it("is bought for 1 point after the roll and before narration, by someone outside the scene", () => {
    const s = rollConflict(duel1v1(), scriptedDice([5, 3])).state;
    expect(narratorOf(s)).toMatchObject({ characterId: 1 });
    const bought = buyNarration(s, { buyer: pc(3), ofId: 1 }, [link(1, 3, 2)]);
    expect(bought.spent).toMatchObject({ use: "narration", giverId: 1, holderId: 3, amount: 1, after: 1 });
    expect(narratorOf(bought.state)).toMatchObject({ characterId: 3, playerId: "user-3", reason: "bought" });
    expectRefusal(
      () => buyNarration(bought.state, { buyer: pc(2), ofId: 1 }, [link(1, 2, 1)]),
      "errors.mw.narrationAlreadyBought",
    );
    const damaged = spendDamage(s, { attackerSide: "a", targetId: 10, quality: "normal" }).state;
    expectRefusal(
      () => buyNarration(damaged, { buyer: pc(3), ofId: 1 }, [link(1, 3, 2)]),
      "errors.mw.narrationStarted",
    );
    expectRefusal(
      () => buyNarration(s, { buyer: pc(1), ofId: 1 }, [link(1, 1, 2)]),
      "errors.mw.alreadyNarrator",
    );
    const before = duel1v1();
    expectRefusal(
      () => buyNarration(before, { buyer: pc(3), ofId: 1 }, [link(1, 3, 2)]),
      "errors.mw.conflictNotRolled",
    );
  });

  it("needs a point from that character", () => {
    const s = rollConflict(duel1v1(), scriptedDice([5, 3])).state;
    expectRefusal(
      () => buyNarration(s, { buyer: pc(3), ofId: 1 }, [link(1, 3, 0, 2)]),
      "errors.mw.notEnoughTrust",
      {
        have: 0,
        need: 1,
      },
    );
    expectRefusal(
      () => buyNarration(s, { buyer: pc(3), ofId: 10 }, []),
      "errors.mw.narrationOnlyPlayerCharacters",
    );
  });
});

describe("refusals while forming the conflict", () => {
  it("help needs a point the helped character gave the helper", () => {
    const s = duel1v1();
    expectRefusal(() => assist(s, { helper: pc(2), targetId: 1 }, []), "errors.mw.notEnoughTrust", {
      have: 0,
      need: 1,
    });
    expectRefusal(
      () => assist(s, { helper: pc(2), targetId: 1 }, [link(2, 1, 5)]),
      "errors.mw.notEnoughTrust",
    );
    expectRefusal(() => assist(s, { helper: pc(1), targetId: 1 }, []), "errors.mw.cannotHelpSelf");
    expectRefusal(() => assist(s, { helper: pc(2), targetId: 10 }, []), "errors.mw.helpOnlyPlayerCharacters");
    expectRefusal(() => assist(s, { helper: pc(2), targetId: 7 }, []), "errors.mw.notInConflict");
    expectRefusal(
      () => assist(s, { helper: pc(2, "Sick", "incapacitated"), targetId: 1 }, [link(1, 2, 1)]),
      "errors.mw.characterIncapacitated",
    );
  });

  it("help cannot chain, double up, or cross sides", () => {
    let s = openConflict();
    s = addParticipant(s, pc(1), "a");
    s = addParticipant(s, pc(4, "Rival"), "b");
    s = assist(s, { helper: pc(2), targetId: 1 }, [link(1, 2, 1)]).state;
    expectRefusal(() => assist(s, { helper: pc(3), targetId: 2 }, [link(2, 3, 1)]), "errors.mw.helpChain");
    expectRefusal(
      () => assist(s, { helper: pc(2), targetId: 1 }, [link(1, 2, 1)]),
      "errors.mw.alreadyHelping",
    );
    expectRefusal(
      () => assist(s, { helper: pc(4, "Rival"), targetId: 1 }, [link(1, 4, 1)]),
      "errors.mw.helperOnOtherSide",
    );
    expectRefusal(
      () => assist(s, { helper: pc(1), targetId: 4 }, [link(4, 1, 1)]),
      "errors.mw.helperOnOtherSide",
    );
  });

  it("betrayal: a whole number of points, against someone opposed, by someone acting", () => {
    let s = openConflict();
    s = addParticipant(s, pc(1, "Kenji"), "a");
    s = addParticipant(s, pc(2, "Ayame"), "a");
    s = addParticipant(s, npc(10, "strong"), "b");
    const links = [link(1, 2, 3), link(1, 3, 3)];
    expectRefusal(
      () => betray(s, { betrayer: pc(2, "Ayame"), betrayedId: 1, points: 1 }, links),
      "errors.mw.betrayTargetNotOpposing",
      { name: "Kenji" },
    );
    expectRefusal(
      () => betray(s, { betrayer: pc(3), betrayedId: 1, points: 1 }, links),
      "errors.mw.betrayerNotInConflict",
    );
    expectRefusal(
      () => betray(s, { betrayer: pc(3), betrayedId: 1, points: 0 }, links),
      "errors.mw.trustAmountInvalid",
    );
    expectRefusal(
      () => betray(s, { betrayer: pc(3), betrayedId: 10, points: 1 }, links),
      "errors.mw.betrayOnlyPlayerCharacters",
    );
    expectRefusal(
      () => betray(s, { betrayer: pc(3, "Ghost", "dead"), betrayedId: 1, points: 4 }, links),
      "errors.mw.notEnoughTrust",
      { have: 3, need: 4 },
    );
  });

  it("joining: no one twice, no incapacitated character, not after the roll or the end", () => {
    const s = duel1v1();
    expectRefusal(() => addParticipant(s, pc(1, "Kenji"), "b"), "errors.mw.alreadyInConflict", {
      name: "Kenji",
    });
    expectRefusal(
      () => addParticipant(s, pc(5, "Sick", "incapacitated"), "a"),
      "errors.mw.characterIncapacitated",
    );
    const rolled = rollConflict(s, scriptedDice([1, 2])).state;
    expectRefusal(() => addParticipant(rolled, pc(5), "a"), "errors.mw.conflictAlreadyRolled");
    const closed = closeConflict(rolled);
    expectRefusal(
      () => spendDamage(closed, { attackerSide: "b", targetId: 1, quality: "partial" }),
      "errors.mw.conflictClosed",
    );
    expectRefusal(() => closeConflict(closed), "errors.mw.conflictClosed");
  });

  it("a roll needs both sides", () => {
    const s = addParticipant(openConflict(), pc(1), "a");
    expectRefusal(() => rollConflict(s, scriptedDice([1])), "errors.mw.conflictNeedsTwoSides");
    const danger = addParticipant(openConflict({ mode: "common-danger" }), pc(1), "a");
    expectRefusal(() => rollConflict(danger, scriptedDice([1])), "errors.mw.dangerMissing");
    expectRefusal(() => addParticipant(danger, pc(2), "b"), "errors.mw.dangerMustBeGm");
  });

  it("leaving before the roll gives back the trust spent by, on or against the character", () => {
    let s = duel1v1();
    s = addParticipant(s, pc(3), "a");
    expect(leaveConflict(s, 3).state.participants.map((p) => p.id)).toEqual([1, 10]);
    expect(leaveConflict(s, 3).refunds).toEqual([]);
    s = assist(s, { helper: pc(2), targetId: 1 }, [link(1, 2, 1)]).state;
    // The helped one leaves: the help comes back and the helper rolls for itself.
    const helpedLeaves = leaveConflict(s, 1);
    expect(helpedLeaves.refunds).toEqual([{ use: "help", giverId: 1, holderId: 2, amount: 1 }]);
    expect(helpedLeaves.state.participants.find((p) => p.id === 2)?.helps).toBeNull();
    expect(helpedLeaves.state.trustUses).toEqual([]);
    // The helper leaves: the same point comes back, the helped one stays.
    const helperLeaves = leaveConflict(s, 2);
    expect(helperLeaves.refunds).toEqual([{ use: "help", giverId: 1, holderId: 2, amount: 1 }]);
    expect(helperLeaves.state.participants.map((p) => p.id)).toEqual([1, 10, 3]);
    // A betrayal of someone who leaves comes back to the betrayer, and the betrayed may spend again.
    let b = addParticipant(addParticipant(duel1v1(), pc(3), "b"), pc(4), "a");
    b = betray(b, { betrayer: pc(3), betrayedId: 1, points: 2 }, [link(1, 3, 2)]).state;
    const betrayedLeaves = leaveConflict(b, 1);
    expect(betrayedLeaves.refunds).toEqual([{ use: "betray", giverId: 1, holderId: 3, amount: 2 }]);
    expect(betrayedLeaves.state.betrayals).toEqual([]);
    expectRefusal(
      () => leaveConflict(rollConflict(b, scriptedDice([1, 1, 1, 1])).state, 4),
      "errors.mw.conflictAlreadyRolled",
    );
  });
});

describe("recovery from incapacity (docs/rules/mountain-witch.md §1.2)", () => {
  it("is a conflict against incapacity, a weak opponent that must be taken out", () => {
    const sick = pc(1, "Kenji", "incapacitated");
    let s = openRecoveryConflict(sick);
    expect(s.participants[1]).toMatchObject({ id: -1, nameKey: "mw.obstacle.incapacity", strength: "weak" });
    s = assist(s, { helper: pc(2), targetId: 1 }, [link(1, 2, 1)]).state;
    s = rollConflict(s, scriptedDice([3, 3, 2])).state;
    expect(recoveryOutcome(s)).toBe("failed");
    s = spendDamage(s, { attackerSide: "a", targetId: -1, quality: "normal" }).state;
    expect(recoveryOutcome(s)).toBe("recovered");
    expectRefusal(() => openRecoveryConflict(pc(1)), "errors.mw.notIncapacitated");
    expectRefusal(() => recoveryOutcome(duel1v1()), "errors.mw.notRecoveryConflict");
  });
});
