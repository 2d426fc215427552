import { describe, expect, it } from "vitest";
import {
  type ChallengeSetup,
  type ChallengeState,
  type HunterInput,
  knockoutHasNoEffect,
  newHunterSheet,
  newReserve,
  participant,
  stageCounts,
  startChallenge,
  victoryPointsEarned,
  withDamage,
} from "../../../src/rules/beast-hunters/index.js";
import { act, expectRefusal, yakhara } from "./helpers.js";

const YAK = "yak";

/** The seed's physical bandits: Hungry and desperate +4, Surround +2, leather armour D2, rusty swords A2, knives A2. */
function bandits() {
  return {
    name: "Разбойники",
    traits: [
      { name: "Голодные и отчаянные", value: 4 },
      { name: "Окружаем", value: 2 },
    ],
    resources: [
      { name: "Кожаная броня", kind: "defence" as const, value: 2 },
      { name: "Ржавые мечи", kind: "attack" as const, value: 2 },
      { name: "Охотничьи ножи", kind: "attack" as const, value: 2 },
    ],
    initiative: 0,
  };
}

function yakharaInput(): HunterInput {
  return { characterId: YAK, name: "Якхара", sheet: yakhara() };
}

function setup(overrides: Partial<ChallengeSetup> = {}): ChallengeSetup {
  return {
    sphere: "physical",
    phase: 2,
    obstacles: [bandits()],
    hunters: [yakharaInput()],
    reserve: newReserve(40, 12),
    ...overrides,
  };
}

function start(overrides: Partial<ChallengeSetup> = {}): ChallengeState {
  return startChallenge(setup(overrides)).state;
}

/** A state with these AP set (states are plain JSON, so tests may arrange them). */
function withAdvantage(state: ChallengeState, actor: string, target: string, points: number): ChallengeState {
  const next = structuredClone(state);
  next.advantage[actor] = { ...(next.advantage[actor] ?? {}), [target]: points };
  return next;
}

function withTurn(state: ChallengeState, turn: string): ChallengeState {
  return { ...structuredClone(state), turn };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe("the seed's fight: Yakhara against the bandits", () => {
  it("starts with the price charged, Yakhara first (Ф3 against Ф0) and only physical resources in play", () => {
    const { state, events, rating, cost, reserve } = startChallenge(setup());
    expect(rating).toBe(7);
    expect(cost).toBe(7);
    expect(reserve).toMatchObject({ before: 40, after: 33 });
    expect(events[0]).toEqual({
      type: "challengeStarted",
      rating: 7,
      cost: 7,
      reserveBefore: 40,
      reserveAfter: 33,
      order: [YAK, "obstacle"],
      first: YAK,
    });
    expect(state.turn).toBe(YAK);
    expect(participant(state, YAK).resources.map((r) => r.name)).toEqual([
      "Мамин старый топор",
      "Щит Майхары",
    ]);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  it("plays the seed's example turn by turn", () => {
    let state = start();

    // Yakhara activates "Мама будет мной гордиться" (Ф+4) for attack.
    let r = act(state, { type: "activate", actor: YAK, trait: "Мама будет мной гордиться", as: "attack" });
    expect(r.events).toEqual([
      {
        type: "traitActivated",
        actor: YAK,
        trait: "Мама будет мной гордиться",
        as: "attack",
        value: 4,
        preActivated: false,
      },
      { type: "turnPassed", from: YAK, to: "obstacle" },
    ]);
    state = r.state;

    // The bandits activate "Окружаем" for defence.
    state = act(state, { type: "activate", actor: "obstacle", trait: "Окружаем", as: "defence" }).state;

    // "Проницательность" is social +3: half in a physical fight, rounded up, is +2.
    r = act(state, { type: "activate", actor: YAK, trait: "Проницательность", as: "attack" });
    expect(r.events[0]).toMatchObject({ type: "traitActivated", value: 2 });
    state = r.state;

    state = act(state, {
      type: "activate",
      actor: "obstacle",
      trait: "Голодные и отчаянные",
      as: "attack",
    }).state;

    // Maneuver: the GM offers 10 AP and Yakhara takes them.
    r = act(state, { type: "offerAdvantage", points: 10 });
    expect(r.events).toEqual([
      { type: "offerMade", offer: { kind: "advantage", hunter: YAK, target: "obstacle", points: 10 } },
    ]);
    r = act(r.state, { type: "accept", actor: YAK });
    expect(r.events).toContainEqual({
      type: "advantageChanged",
      actor: YAK,
      target: "obstacle",
      before: 0,
      after: 10,
      reason: "offer",
    });
    state = r.state;
    expect(state.turn).toBe("obstacle");

    // The bandits' maneuver: 12 + 4 = 16 against Yakhara's 11 → 5 AP.
    r = act(state, { type: "maneuver", actor: "obstacle" }, [5, 7, 6, 5]);
    expect(r.events[0]).toEqual({
      type: "opposedRoll",
      purpose: "maneuver",
      actor: "obstacle",
      opponent: YAK,
      actorRole: "attack",
      actorRoll: { dice: [5, 7], bonus: 4, total: 16 },
      opponentRoll: { dice: [6, 5], bonus: 0, total: 11 },
      help: [],
      margin: 5,
    });
    expect(r.events[1]).toMatchObject({ type: "advantageChanged", actor: "obstacle", target: YAK, after: 5 });
    state = r.state;

    // Yakhara strikes with 2d6 (8 AP): 9 + axe 4 − armour 2 = 11 → heavy.
    r = act(state, { type: "strike", actor: YAK, dice: 2 }, [4, 5]);
    expect(r.events).toEqual([
      { type: "advantageChanged", actor: YAK, target: "obstacle", before: 10, after: 2, reason: "strike" },
      {
        type: "strikeRolled",
        actor: YAK,
        target: "obstacle",
        apSpent: 8,
        dice: [4, 5],
        attackResource: { name: "Мамин старый топор", value: 4 },
        defenceResource: { name: "Кожаная броня", value: 2 },
        total: 11,
        stage: "heavy",
        free: false,
      },
      { type: "damageMarked", participant: "obstacle", struck: "heavy", stage: "heavy", before: 0, after: 1 },
      { type: "turnPassed", from: YAK, to: "obstacle" },
    ]);
    state = r.state;

    // The bandits have 5 AP: only 1d6 (5 → 1 AP). 5 + swords 2 − shield 2 = 5 → light.
    r = act(state, { type: "strike", actor: "obstacle", dice: 1 }, [5]);
    expect(r.events[1]).toMatchObject({
      type: "strikeRolled",
      total: 5,
      stage: "light",
      attackResource: { name: "Ржавые мечи", value: 2 },
      defenceResource: { name: "Щит Майхары", value: 2 },
    });
    state = r.state;
    expect(state.advantage).toEqual({ [YAK]: { obstacle: 2 }, obstacle: { [YAK]: 1 } });
    expect(participant(state, YAK).damage).toEqual(stageCounts(1, 0, 0, 0, 0));
    expect(participant(state, "obstacle").damage).toEqual(stageCounts(0, 0, 1, 0, 0));
  });

  it("the bandits disarm Yakhara (18 against 13: margin 5), and the GM lets her win the axe back", () => {
    let state = start();
    state = act(state, {
      type: "activate",
      actor: YAK,
      trait: "Мама будет мной гордиться",
      as: "attack",
    }).state;
    state = act(state, {
      type: "activate",
      actor: "obstacle",
      trait: "Голодные и отчаянные",
      as: "attack",
    }).state;
    state = act(state, { type: "activate", actor: YAK, trait: "Майхара — мой враг", as: "attack" }).state;

    let r = act(
      state,
      { type: "neutralise", actor: "obstacle", target: YAK, resource: "Мамин старый топор" },
      [7, 7, 6, 7],
    );
    expect(r.events[0]).toMatchObject({
      actorRoll: { total: 18 },
      opponentRoll: { total: 13 },
      margin: 5,
    });
    expect(r.events[1]).toEqual({
      type: "resourceNeutralised",
      owner: YAK,
      resource: "Мамин старый топор",
      margin: 5,
      by: "obstacle",
      granted: false,
    });
    state = r.state;
    expect(participant(state, YAK).resources[0]!.neutralised).toEqual({ margin: 5, by: "obstacle" });

    // Without the axe, Yakhara's strikes get no attack resource.
    const striking = act(
      withAdvantage(state, YAK, "obstacle", 4),
      { type: "strike", actor: YAK, dice: 1 },
      [6],
    );
    expect(striking.events[1]).toMatchObject({ attackResource: null, total: 4, stage: "light" });

    // "Крутой план": the GM grants the restore without a roll.
    r = act(state, { type: "offerRestore", resource: "Мамин старый топор" });
    r = act(r.state, { type: "accept", actor: YAK });
    expect(r.events).toContainEqual({
      type: "resourceRestored",
      owner: YAK,
      resource: "Мамин старый топор",
      granted: true,
    });
    expect(participant(r.state, YAK).resources[0]!.neutralised).toBeNull();
  });

  it("a rolled restore must beat the other side by at least the margin", () => {
    let state = start({
      obstacles: [{ ...bandits(), neutralise: [{ hunter: YAK, resource: "Мамин старый топор" }] }],
    });
    expect(participant(state, YAK).resources[0]!.neutralised).toEqual({ margin: 5, by: "obstacle" });

    // 9 against 5: by 4, one short.
    let r = act(state, { type: "restore", actor: YAK, resource: "Мамин старый топор" }, [4, 5, 2, 3]);
    expect(r.events[1]).toEqual({
      type: "restoreFailed",
      owner: YAK,
      resource: "Мамин старый топор",
      margin: 4,
      needed: 5,
    });
    state = withTurn(r.state, YAK);
    // 10 against 5: exactly the margin is enough.
    r = act(state, { type: "restore", actor: YAK, resource: "Мамин старый топор" }, [5, 5, 2, 3]);
    expect(r.events[1]).toMatchObject({ type: "resourceRestored", granted: false });
  });

  it("the seed's achievement: difficulty 1, 8 of 12 AP for 2 dice, 4 against 4 is a tie and the hunter wins 2 VP", () => {
    let state = withAdvantage(start(), YAK, "obstacle", 12);
    // Setting up a task is not an action: it is still Yakhara's turn.
    let r = act(state, { type: "proposeTask", name: "Весть об Якхаре", difficulty: 1, by: YAK });
    expect(r.events).toEqual([{ type: "taskProposed", task: "Весть об Якхаре", difficulty: 1, by: YAK }]);
    expect(r.state.turn).toBe(YAK);
    // "Думаю, задача несложная, так что я не буду добавлять свою единицу": the GM accepts 1.
    expectRefusal(
      () => act(r.state, { type: "achieve", actor: YAK, task: "Весть об Якхаре", dice: 2 }),
      "errors.bh.taskNotAgreed",
    );
    r = act(r.state, { type: "agreeTask", task: "Весть об Якхаре", side: "gm" });
    expect(r.events).toEqual([
      { type: "taskAgreed", task: "Весть об Якхаре", difficulty: 1, side: "gm", settled: true },
    ]);

    r = act(r.state, { type: "achieve", actor: YAK, task: "Весть об Якхаре", dice: 2 });
    expect(r.events[0]).toMatchObject({ type: "advantageChanged", before: 12, after: 4, reason: "achieve" });
    expect(r.events[1]).toMatchObject({ type: "taskDiceBought", dice: 2, apPerDie: 4, totalDice: 2 });
    state = r.state;

    // "Хочешь сделать это сейчас…?" — "Давай сейчас.": rolled only once both sides are ready.
    r = act(state, { type: "resolveTask", task: "Весть об Якхаре", side: "hunters" });
    expect(r.events).toEqual([{ type: "taskReady", task: "Весть об Якхаре", side: "hunters" }]);
    // The GM rolls 1d6 (difficulty 1): 4. Yakhara rolls her 2d6: 1 + 3 = 4.
    r = act(r.state, { type: "resolveTask", task: "Весть об Якхаре", side: "gm" }, [4, 1, 3]);
    expect(r.events).toEqual([
      { type: "taskReady", task: "Весть об Якхаре", side: "gm" },
      {
        type: "taskResolved",
        task: "Весть об Якхаре",
        difficulty: 1,
        gmDice: [4],
        hunterDice: [1, 3],
        gmTotal: 4,
        hunterTotal: 4,
        winner: "hunters",
        vp: { [YAK]: 2 },
      },
    ]);
    expect(victoryPointsEarned(r.state)).toEqual({ [YAK]: 2 });
    expectRefusal(
      () => act(r.state, { type: "resolveTask", task: "весть об якхаре", side: "gm" }),
      "errors.bh.taskResolved",
      {
        task: "Весть об Якхаре",
      },
    );
  });

  it("the GM wins a task by rolling higher, and adds its own bought dice", () => {
    let state = withAdvantage(withTurn(start(), "obstacle"), "obstacle", YAK, 4);
    state = act(state, { type: "proposeTask", name: "Поджечь лагерь", difficulty: 3 }).state;
    state = act(state, { type: "agreeTask", task: "Поджечь лагерь", side: "hunters" }).state;
    state = act(state, { type: "achieve", actor: "obstacle", task: "Поджечь лагерь", dice: 1 }).state;
    state = act(state, { type: "resolveTask", task: "Поджечь лагерь", side: "gm" }).state;
    const r = act(state, { type: "resolveTask", task: "Поджечь лагерь", side: "hunters" }, [1, 1, 1, 1]);
    expect(r.events[1]).toMatchObject({
      gmDice: [1, 1, 1, 1],
      hunterDice: [],
      gmTotal: 4,
      winner: "gm",
      vp: {},
    });
  });
});

describe("maneuvers and the free strike", () => {
  it("gaining 12+ AP offers a free Strike that must be taken (or declined) before the turn ends", () => {
    let state = start();
    let r = act(state, { type: "offerAdvantage", points: 12 });
    r = act(r.state, { type: "accept", actor: YAK });
    expect(r.events).toContainEqual({
      type: "bonusActionGranted",
      actor: YAK,
      target: "obstacle",
      gained: 12,
    });
    state = r.state;
    expect(state.turn).toBe(YAK);
    expect(state.pendingBonus).toEqual({ actor: YAK, target: "obstacle", gained: 12 });

    // It cannot be kept for later, nor swapped for another kind of action.
    expectRefusal(
      () => act(state, { type: "activate", actor: YAK, trait: "Проницательность", as: "attack" }),
      "errors.bh.bonusPending",
      { name: "Якхара" },
    );
    expectRefusal(() => act(state, { type: "maneuver", actor: "obstacle" }), "errors.bh.bonusPending");

    r = act(state, { type: "strike", actor: YAK, dice: 3 }, [6, 6, 6]);
    expect(r.events[1]).toMatchObject({
      type: "strikeRolled",
      free: true,
      total: 18 + 4 - 2,
      stage: "fatal",
    });
    // 20 → fatal: the bandits are beaten.
    expect(r.state.outcome).toMatchObject({
      winner: "hunters",
      reason: "beaten",
      vp: { [YAK]: 7 },
      refund: 0,
    });
    expect(r.state.status).toBe("closed");
  });

  it("a rolled maneuver of 12+ grants the bonus too; declining it passes the turn", () => {
    let state = start();
    state = act(state, {
      type: "activate",
      actor: YAK,
      trait: "Мама будет мной гордиться",
      as: "attack",
    }).state;
    state = withTurn(state, YAK);
    const r = act(state, { type: "maneuver", actor: YAK }, [10, 9, 1, 2]);
    expect(r.events[0]).toMatchObject({ margin: 23 - 3 });
    expect(r.events).toContainEqual({
      type: "bonusActionGranted",
      actor: YAK,
      target: "obstacle",
      gained: 20,
    });
    const declined = act(r.state, { type: "declineBonus", actor: YAK });
    expect(declined.events).toEqual([
      { type: "bonusActionDeclined", actor: YAK },
      { type: "turnPassed", from: YAK, to: "obstacle" },
    ]);
    expect(declined.state.advantage[YAK]).toEqual({ obstacle: 20 });
  });

  it("an 11-point gain is not enough for the bonus; a lost maneuver gains nothing", () => {
    const state = start();
    let r = act(state, { type: "maneuver", actor: YAK }, [10, 5, 2, 2]);
    expect(r.events[0]).toMatchObject({ margin: 11 });
    expect(r.state.pendingBonus).toBeNull();
    expect(r.state.turn).toBe("obstacle");
    r = act(state, { type: "maneuver", actor: YAK }, [1, 1, 2, 2]);
    expect(r.events.map((e) => e.type)).toEqual(["opposedRoll", "turnPassed"]);
    expect(r.state.advantage).toEqual({});
  });

  it("rolling instead of accepting drops the offer", () => {
    const offered = act(start(), { type: "offerAdvantage", points: 6 }).state;
    const rolled = act(offered, { type: "maneuver", actor: YAK }, [1, 1, 1, 1]);
    expect(rolled.state.pendingOffer).toBeNull();
    expect(rolled.state.advantage).toEqual({});
  });

  it("refuses small offers, offers on the GM's turn and accepting nothing", () => {
    expectRefusal(() => act(start(), { type: "offerAdvantage", points: 1 }), "errors.bh.offerTooSmall", {
      points: 1,
      min: 2,
    });
    expectRefusal(
      () => act(withTurn(start(), "obstacle"), { type: "offerAdvantage", points: 4 }),
      "errors.bh.offerOnlyOnHuntersTurn",
    );
    expectRefusal(() => act(start(), { type: "accept", actor: YAK }), "errors.bh.noOffer");
  });
});

describe("turns and traits", () => {
  it("refuses acting out of turn, naming whose turn it is", () => {
    expectRefusal(
      () => act(start(), { type: "activate", actor: "obstacle", trait: "Окружаем", as: "defence" }),
      "errors.bh.notYourTurn",
      { name: "Якхара" },
    );
  });

  it("on an initiative tie the hunters choose who acts first", () => {
    const tie = { ...bandits(), initiative: 4, name: "Быстрые" };
    expect(start({ obstacles: [tie], hunters: [yakharaInput()], sphere: "physical" }).turn).toBe("obstacle");
    const even = { ...bandits(), initiative: 2 };
    const social = { sphere: "social" as const, obstacles: [even] };
    expect(start(social).turn).toBe(YAK);
    expect(start({ ...social, tieGoesTo: "gm" }).turn).toBe("obstacle");
  });

  it("allows at most 3 attack and 3 defence traits, and reassigns only active ones", () => {
    const many = {
      ...bandits(),
      traits: ["Один", "Два", "Три", "Четыре", "Пять"].map((name) => ({ name, value: 2 })),
    };
    let state = withTurn(start({ obstacles: [many] }), "obstacle");
    for (const trait of ["Один", "Два", "Три"]) {
      state = withTurn(
        act(state, { type: "activate", actor: "obstacle", trait, as: "attack" }).state,
        "obstacle",
      );
    }
    expectRefusal(
      () => act(state, { type: "activate", actor: "obstacle", trait: "Четыре", as: "attack" }),
      "errors.bh.tooManyActive",
      { role: "attack", max: 3 },
    );
    expectRefusal(
      () => act(state, { type: "activate", actor: "obstacle", trait: "Один", as: "defence" }),
      "errors.bh.traitAlreadyActive",
      { trait: "Один" },
    );
    state = withTurn(
      act(state, { type: "activate", actor: "obstacle", trait: "Четыре", as: "defence" }).state,
      "obstacle",
    );
    const r = act(state, {
      type: "reassign",
      actor: "obstacle",
      roles: { Один: "defence", Четыре: "attack" },
    });
    expect(r.events[0]).toEqual({
      type: "traitsReassigned",
      actor: "obstacle",
      changes: [
        { trait: "Один", from: "attack", to: "defence" },
        { trait: "Четыре", from: "defence", to: "attack" },
      ],
    });
    expectRefusal(
      () => act(state, { type: "reassign", actor: "obstacle", roles: { Пять: "attack" } }),
      "errors.bh.traitNotActive",
      { trait: "Пять" },
    );
    expectRefusal(
      () => act(state, { type: "reassign", actor: "obstacle", roles: { Четыре: "attack" } }),
      "errors.bh.tooManyActive",
      { role: "attack", max: 3 },
    );
    expectRefusal(
      () => act(state, { type: "activate", actor: "obstacle", trait: "Шесть", as: "attack" }),
      "errors.bh.unknownTrait",
      { name: "Разбойники", trait: "Шесть" },
    );
  });

  it("never changes the state it is given", () => {
    const state = deepFreeze(start());
    const r = act(state, { type: "activate", actor: YAK, trait: "Проницательность", as: "defence" });
    expect(r.state).not.toBe(state);
    expect(state.turn).toBe(YAK);
  });
});

describe("strikes and damage", () => {
  it("refuses a strike with too little AP, or no dice", () => {
    const state = withAdvantage(withTurn(start(), "obstacle"), "obstacle", YAK, 5);
    expectRefusal(
      () => act(state, { type: "strike", actor: "obstacle", dice: 2 }),
      "errors.bh.notEnoughAdvantage",
      {
        need: 8,
        have: 5,
      },
    );
    expectRefusal(
      () => act(state, { type: "strike", actor: "obstacle", dice: 0 }),
      "errors.bh.badDiceCount",
      {
        dice: 0,
      },
    );
  });

  it("a strike total of 0 or less does no damage", () => {
    const state = withAdvantage(withTurn(start(), "obstacle"), "obstacle", YAK, 4);
    // Swords +2, shield −2: a 1 on the die. Then the knives stay unused (one resource per category).
    const r = act(state, { type: "strike", actor: "obstacle", dice: 1 }, [1]);
    expect(r.events[1]).toMatchObject({ total: 1, stage: "light" });
    const armoured = structuredClone(state);
    participant(armoured, YAK).resources.push({
      name: "Броня",
      kind: "defence",
      value: 6,
      neutralised: null,
    });
    const none = act(armoured, { type: "strike", actor: "obstacle", dice: 1 }, [3]);
    expect(none.events[1]).toMatchObject({
      total: -1,
      stage: null,
      defenceResource: { name: "Броня", value: 6 },
    });
    expect(none.events.some((e) => e.type === "damageMarked")).toBe(false);
  });

  it("light damage moves to medium when the light boxes are full", () => {
    const state = withAdvantage(withTurn(start(), "obstacle"), "obstacle", YAK, 4);
    participant(state, YAK).damage = stageCounts(3, 0, 0, 0, 0);
    const r = act(state, { type: "strike", actor: "obstacle", dice: 1 }, [3]);
    expect(r.events[2]).toEqual({
      type: "damageMarked",
      participant: YAK,
      struck: "light",
      stage: "medium",
      before: 0,
      after: 1,
    });
  });

  it("knocking out the hunter loses the challenge with no refund", () => {
    const state = withAdvantage(withTurn(start(), "obstacle"), "obstacle", YAK, 12);
    // 6+6+5 + 2 − 2 = 17 → knockout.
    const r = act(state, { type: "strike", actor: "obstacle", dice: 3 }, [6, 6, 5]);
    expect(r.events).toContainEqual({ type: "knockedOut", participant: YAK });
    expect(r.state.outcome).toEqual({
      winner: "gm",
      reason: "knockout",
      refund: 0,
      vp: {},
      lostAdventure: [],
      retired: [],
    });
    expectRefusal(() => act(r.state, { type: "maneuver", actor: YAK }), "errors.bh.challengeOver");
  });

  it("with two knockout boxes, only the second knocks out", () => {
    const sheet = yakhara();
    sheet.boxes.physical = stageCounts(3, 3, 2, 2, 1);
    let state = start({ hunters: [{ characterId: YAK, name: "Якхара", sheet }] });
    state = withAdvantage(withTurn(state, "obstacle"), "obstacle", YAK, 24);
    let r = act(state, { type: "strike", actor: "obstacle", dice: 3 }, [6, 6, 5]);
    expect(r.events.some((e) => e.type === "knockedOut")).toBe(false);
    r = act(withTurn(r.state, "obstacle"), { type: "strike", actor: "obstacle", dice: 3 }, [6, 6, 5]);
    expect(r.events).toContainEqual({ type: "knockedOut", participant: YAK });
  });

  it("a hunter already knocked out earlier in the adventure fights on, and the next knockout hit turns fatal", () => {
    const sheet = withDamage(yakhara(), "physical", stageCounts(0, 0, 0, 1, 0));
    let state = start({ hunters: [{ characterId: YAK, name: "Якхара", sheet }] });
    expect(participant(state, YAK).status).toBe("in");
    state = withAdvantage(withTurn(state, "obstacle"), "obstacle", YAK, 12);
    const r = act(state, { type: "strike", actor: "obstacle", dice: 3 }, [6, 6, 5]);
    expect(r.events).toContainEqual({
      type: "damageMarked",
      participant: YAK,
      struck: "knockout",
      stage: "fatal",
      before: 0,
      after: 1,
    });
    expect(r.state.status).toBe("fatalChoice");
  });

  it("fatal damage: the hunter survives and loses the adventure…", () => {
    const state = withAdvantage(withTurn(start(), "obstacle"), "obstacle", YAK, 16);
    let r = act(state, { type: "strike", actor: "obstacle", dice: 4 }, [6, 6, 6, 6]);
    expect(r.events).toContainEqual({ type: "fatalDamage", participant: YAK });
    expect(r.state.status).toBe("fatalChoice");
    expect(r.state.pendingFatal).toBe(YAK);
    expectRefusal(() => act(r.state, { type: "maneuver", actor: YAK }), "errors.bh.fatalChoicePending", {
      name: "Якхара",
    });
    r = act(r.state, { type: "chooseFate", actor: YAK, choice: "survive" });
    expect(r.state.outcome).toMatchObject({
      winner: "gm",
      reason: "fatal",
      lostAdventure: [YAK],
      retired: [],
    });
  });

  it("…or wins the challenge and the adventure and retires", () => {
    const state = withAdvantage(withTurn(start(), "obstacle"), "obstacle", YAK, 16);
    const fatal = act(state, { type: "strike", actor: "obstacle", dice: 4 }, [6, 6, 6, 6]).state;
    const r = act(fatal, { type: "chooseFate", actor: YAK, choice: "retire" });
    expect(r.state.outcome).toMatchObject({ winner: "hunters", reason: "sacrifice", retired: [YAK] });
    expectRefusal(
      () => act(r.state, { type: "chooseFate", actor: YAK, choice: "retire" }),
      "errors.bh.noFatalChoice",
    );
  });

  it("in the last challenge of a non-hunt adventure or the final beast fight, knockout has no effect", () => {
    expect(knockoutHasNoEffect({ lastChallenge: true, hunt: false, beastFight: false })).toBe(true);
    expect(knockoutHasNoEffect({ lastChallenge: false, hunt: true, beastFight: true })).toBe(true);
    expect(knockoutHasNoEffect({ lastChallenge: true, hunt: true, beastFight: false })).toBe(false);
    expect(knockoutHasNoEffect({ lastChallenge: false, hunt: false, beastFight: false })).toBe(false);

    let state = withAdvantage(start({ knockoutHasNoEffect: true, climax: true }), YAK, "obstacle", 8);
    // Yakhara: 6+6 + 4 − 2 = 14 → knockout: the bandits fight on.
    let r = act(state, { type: "strike", actor: YAK, dice: 2 }, [6, 6]);
    expect(r.events).toContainEqual({ type: "knockoutIgnored", participant: "obstacle" });
    expect(r.state.status).toBe("active");
    state = withAdvantage(withTurn(r.state, YAK), YAK, "obstacle", 8);
    // The next knockout hit finds the knockout box full and lands on fatal.
    r = act(state, { type: "strike", actor: YAK, dice: 2 }, [6, 6]);
    expect(r.events).toContainEqual({ type: "fatalDamage", participant: "obstacle" });
    expect(r.state.outcome).toMatchObject({ winner: "hunters", reason: "beaten" });
  });
});

describe("giving up, conceding and closing", () => {
  it("a hunter who gives up gets the GM's points refunded; the GM's concession gives the VP", () => {
    const gaveUp = act(start(), { type: "giveUp", actor: YAK });
    expect(gaveUp.state.outcome).toMatchObject({ winner: "gm", reason: "giveUp", refund: 7, vp: {} });

    const conceded = act(start(), { type: "concede" });
    expect(conceded.state.outcome).toMatchObject({
      winner: "hunters",
      reason: "gmConceded",
      refund: 0,
      vp: { [YAK]: 7 },
    });
  });

  it("unresolved tasks keep the challenge open; winners may buy more dice at 6 AP, pooling their AP", () => {
    const two = [yakharaInput(), { characterId: "kor", name: "Корра", sheet: yakhara() }];
    let state = start({ hunters: two });
    state = act(state, { type: "proposeTask", name: "Шрам", difficulty: 2 }).state;
    state = act(state, { type: "agreeTask", task: "Шрам", side: "hunters" }).state;
    state = withAdvantage(withAdvantage(state, YAK, "obstacle", 4), "kor", "obstacle", 2);
    expectRefusal(
      () =>
        act(state, {
          type: "buyTaskDice",
          task: "Шрам",
          dice: 1,
          contributions: [{ hunter: YAK, points: 4 }],
        }),
      "errors.bh.extraDiceOnlyAfterWin",
    );
    state = act(state, { type: "concede" }).state;
    expect(state.status).toBe("aftermath");
    expectRefusal(
      () =>
        act(state, {
          type: "buyTaskDice",
          task: "Шрам",
          dice: 1,
          contributions: [{ hunter: YAK, points: 4 }],
        }),
      "errors.bh.poolMismatch",
      { need: 6, offered: 4 },
    );
    expectRefusal(
      () =>
        act(state, {
          type: "buyTaskDice",
          task: "Шрам",
          dice: 1,
          contributions: [
            { hunter: YAK, points: 3 },
            { hunter: "kor", points: 3 },
          ],
        }),
      "errors.bh.notEnoughAdvantage",
      { need: 3, have: 2 },
    );
    let r = act(state, {
      type: "buyTaskDice",
      task: "Шрам",
      dice: 1,
      contributions: [
        { hunter: YAK, points: 4 },
        { hunter: "kor", points: 2 },
      ],
    });
    expect(r.state.advantage).toEqual({ [YAK]: { obstacle: 0 }, kor: { obstacle: 0 } });
    // Closing resolves what is left: GM 2d6 = 2, hunters 1d6 = 6. 4 VP split between the two buyers.
    r = act(r.state, { type: "close" }, [1, 1, 6]);
    expect(r.events[0]).toMatchObject({ winner: "hunters", vp: { [YAK]: 2, kor: 2 } });
    expect(r.state.status).toBe("closed");
    // The conceded rating 7 is shared: 3 each, the remainder to the first hunter in turn order.
    expect(victoryPointsEarned(r.state)).toEqual({ [YAK]: 4 + 2, kor: 3 + 2 });
  });

  it("refuses difficulties out of range", () => {
    expectRefusal(
      () => act(start(), { type: "proposeTask", name: "X", difficulty: 4 }),
      "errors.bh.badDifficulty",
      {
        difficulty: 4,
        min: 1,
        max: 3,
      },
    );
    const three = [YAK, "b", "c"].map((id) => ({ characterId: id, name: id, sheet: yakhara() }));
    expect(
      act(start({ hunters: three }), { type: "proposeTask", name: "X", difficulty: 7 }).state.tasks,
    ).toHaveLength(1);
    expectRefusal(
      () => act(start(), { type: "proposeTask", name: "X", difficulty: 0 }),
      "errors.bh.badDifficulty",
    );
  });
});

describe("several hunters", () => {
  const hunters = () => [
    yakharaInput(),
    {
      characterId: "kor",
      name: "Корра",
      sheet: { ...yakhara(), initiative: { physical: 1, social: 1, mental: 1 } },
    },
  ];

  it("rounds: each hunter and the obstacle act once a round, the sides alternating", () => {
    let state = start({ hunters: hunters() });
    expect(state.participants.map((p) => p.id)).toEqual([YAK, "kor", "obstacle"]);
    const order: string[] = [];
    for (let i = 0; i < 6; i++) {
      order.push(state.turn);
      state = act(
        state,
        { type: "maneuver", actor: state.turn, target: state.turn === "obstacle" ? YAK : null },
        [1, 1, 1, 1],
      ).state;
    }
    expect(order).toEqual([YAK, "obstacle", "kor", YAK, "obstacle", "kor"]);
  });

  it("switch target: 11 AP against one hunter become 6 against the other", () => {
    const state = withAdvantage(withTurn(start({ hunters: hunters() }), "obstacle"), "obstacle", YAK, 11);
    const r = act(state, { type: "switchTarget", actor: "obstacle", from: YAK, to: "kor" });
    expect(r.events.slice(0, 2)).toEqual([
      { type: "advantageChanged", actor: "obstacle", target: YAK, before: 11, after: 0, reason: "switch" },
      { type: "advantageChanged", actor: "obstacle", target: "kor", before: 0, after: 6, reason: "switch" },
    ]);
  });

  it("pass advantage: to another hunter against the same target, whole", () => {
    const state = withAdvantage(start({ hunters: hunters() }), YAK, "obstacle", 9);
    const r = act(state, { type: "passAdvantage", actor: YAK, to: "kor", target: "obstacle", points: 5 });
    expect(r.state.advantage).toEqual({ [YAK]: { obstacle: 4 }, kor: { obstacle: 5 } });
  });

  it("pass advantage switched to another target costs half, rounded up", () => {
    const twoObstacles = [bandits(), { ...bandits(), id: "wolves", name: "Волки" }];
    const state = withAdvantage(
      start({ hunters: hunters(), obstacles: twoObstacles, reserve: newReserve(40, 20) }),
      YAK,
      "obstacle",
      9,
    );
    const r = act(state, {
      type: "passAdvantage",
      actor: YAK,
      to: "kor",
      target: "obstacle",
      switchTo: "wolves",
    });
    expect(r.state.advantage).toEqual({ [YAK]: { obstacle: 0 }, kor: { wolves: 5 } });
  });

  it("help adds one of the helper's active traits to the other hunter's next rolled action, beyond 3+3", () => {
    let state = start({ hunters: hunters() });
    state = act(state, {
      type: "activate",
      actor: YAK,
      trait: "Мама будет мной гордиться",
      as: "attack",
    }).state;
    state = withTurn(state, YAK);
    let r = act(state, { type: "help", actor: YAK, helped: "kor", trait: "Мама будет мной гордиться" });
    expect(r.events[0]).toEqual({
      type: "helpGiven",
      actor: YAK,
      helped: "kor",
      trait: "Мама будет мной гордиться",
      value: 4,
    });
    state = withTurn(r.state, "kor");
    r = act(state, { type: "maneuver", actor: "kor" }, [5, 5, 5, 5]);
    expect(r.events[0]).toMatchObject({
      actorRoll: { bonus: 4, total: 14 },
      help: [{ helper: YAK, trait: "Мама будет мной гордиться", value: 4 }],
      margin: 4,
    });
    expect(participant(r.state, "kor").help).toEqual([]);
  });

  it("one hunter's knockout does not end the fight; the GM skips them; a give-up then ends it with a refund", () => {
    let state = withAdvantage(withTurn(start({ hunters: hunters() }), "obstacle"), "obstacle", YAK, 12);
    state = act(state, { type: "strike", actor: "obstacle", dice: 3 }, [6, 6, 5]).state;
    expect(participant(state, YAK).status).toBe("knockedOut");
    expect(state.status).toBe("active");
    expect(state.turn).toBe("kor");
    expectRefusal(
      () => act(withTurn(state, "obstacle"), { type: "maneuver", actor: "obstacle", target: YAK }),
      "errors.bh.participantOut",
      {
        name: "Якхара",
      },
    );
    const r = act(state, { type: "giveUp", actor: "kor" });
    expect(r.state.outcome).toMatchObject({ winner: "gm", reason: "giveUp", refund: 7 });
  });

  it("the multi-hunter actions are refused with a single hunter", () => {
    const state = withAdvantage(start(), YAK, "obstacle", 8);
    expectRefusal(
      () => act(state, { type: "switchTarget", actor: YAK, from: "obstacle", to: "obstacle" }),
      "errors.bh.multiHunterOnly",
    );
    expectRefusal(
      () => act(state, { type: "help", actor: YAK, helped: YAK, trait: "x" }),
      "errors.bh.multiHunterOnly",
    );
  });
});

describe("starting a challenge", () => {
  it("a resource neutralised in advance is priced from the sheet and starts neutralised with margin 5", () => {
    const { state, prices, events } = startChallenge(
      setup({ obstacles: [{ ...bandits(), neutralise: [{ hunter: YAK, resource: "мамин старый топор" }] }] }),
    );
    expect(prices[0]!.price.lines).toContainEqual({
      item: "neutralise",
      hunter: YAK,
      resource: "Мамин старый топор",
      value: 4,
      price: 2,
    });
    expect(state.rating).toBe(9);
    expect(events).toContainEqual({
      type: "resourceNeutralised",
      owner: YAK,
      resource: "Мамин старый топор",
      margin: 5,
      by: "obstacle",
      granted: true,
    });
  });

  it("refuses a resource of another sphere, an over-ceiling rating and a short reserve", () => {
    expectRefusal(
      () =>
        startChallenge(
          setup({ obstacles: [{ ...bandits(), neutralise: [{ hunter: YAK, resource: "Личные связи" }] }] }),
        ),
      "errors.bh.resourceNotInSphere",
      { resource: "Личные связи", sphere: "physical" },
    );
    expectRefusal(() => startChallenge(setup({ reserve: newReserve(20, 6) })), "errors.bh.overCeiling", {
      rating: 7,
      ceiling: 6,
    });
    expectRefusal(
      () => startChallenge(setup({ phase: 1, reserve: newReserve(13, 8) })),
      "errors.bh.notEnoughReserve",
      {
        cost: 14,
        left: 13,
      },
    );
  });

  it("pre-activation: none in phase 1, one per hunter in phase 2, and one for the GM in phase 3", () => {
    const hunterPre = { participant: YAK, trait: "Проницательность", as: "attack" as const };
    const gmPre = { participant: "obstacle", trait: "Окружаем", as: "defence" as const };
    expectRefusal(
      () => startChallenge(setup({ phase: 1, preActivations: [hunterPre] })),
      "errors.bh.preActivationNotAllowed",
      {
        phase: 1,
      },
    );
    const phase2 = startChallenge(setup({ phase: 2, preActivations: [hunterPre] }));
    expect(participant(phase2.state, YAK).traits[1]!.active).toBe("attack");
    expect(phase2.events).toContainEqual({
      type: "traitActivated",
      actor: YAK,
      trait: "Проницательность",
      as: "attack",
      value: 2,
      preActivated: true,
    });
    expectRefusal(
      () => startChallenge(setup({ phase: 2, preActivations: [gmPre] })),
      "errors.bh.preActivationNotAllowed",
      {
        phase: 2,
      },
    );
    const phase3 = startChallenge(setup({ phase: 3, preActivations: [hunterPre, gmPre] }));
    expect(phase3.cost).toBe(11);
    expectRefusal(
      () =>
        startChallenge(
          setup({
            phase: 3,
            preActivations: [hunterPre, { participant: YAK, trait: "Майхара — мой враг", as: "attack" }],
          }),
        ),
      "errors.bh.tooManyPreActivations",
      { name: "Якхара", max: 1 },
    );
    const used = { ...yakhara(), preActivated: ["Проницательность"] };
    expectRefusal(
      () =>
        startChallenge(
          setup({
            hunters: [{ characterId: YAK, name: "Якхара", sheet: used }],
            preActivations: [hunterPre],
          }),
        ),
      "errors.bh.alreadyPreActivated",
      { trait: "Проницательность" },
    );
  });

  it("refuses a challenge without hunters or with clashing ids", () => {
    expectRefusal(() => startChallenge(setup({ hunters: [] })), "errors.bh.noHunters");
    expectRefusal(
      () => startChallenge(setup({ obstacles: [{ ...bandits(), id: YAK }] })),
      "errors.bh.duplicateParticipant",
      { id: YAK },
    );
    const blank = { characterId: "new", name: "Новенький", sheet: newHunterSheet() };
    expect(startChallenge(setup({ hunters: [blank] })).state.participants[0]!.traits).toEqual([]);
  });
});
