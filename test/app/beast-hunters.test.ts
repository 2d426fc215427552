import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adventureOf, saveAdventure } from "../../src/app/beast-hunters/adventure.js";
import { findReserve, reserveRead } from "../../src/app/beast-hunters/reserve.js";
import { execute } from "../../src/app/execute.js";
import { createRegistry } from "../../src/app/registry.js";
import { scriptedDice } from "../../src/rules/dice.js";
import { inTransaction } from "../../src/store/db.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";
import { recordSentStatements } from "../support/sent-statements.js";
import {
  chooseIntent,
  clickIntent,
  controlIntents,
  expectModalWithinDiscordLimits,
  expectWithinDiscordLimits,
  optionLabel,
  optionValues,
} from "./beast-hunters-controls.js";

const GM = { id: "500000000000000001", name: "Gail" };
const PLAYER = { id: "500000000000000002", name: "Pavel", locale: "ru" };
const OTHER = { id: "500000000000000003", name: "Olga" };
const LURKER = { id: "500000000000000004", name: "Lena" };

describe("Beast Hunters use cases", () => {
  let app: AppHarness;
  let yakharaId: number;

  async function reserveRow() {
    return app.db.reservePool.findFirstOrThrow();
  }
  async function flowState() {
    const flow = await app.db.flow.findFirstOrThrow({
      where: { kind: "bh.challenge" },
      orderBy: { id: "desc" },
    });
    // biome-ignore lint/suspicious/noExplicitAny: reading the stored JSON in assertions
    return { flow, state: (flow.state as any).challenge };
  }
  /** A refusal that changes nothing: same reserve, same flows, same log length. */
  async function refusedUnchanged(user: typeof GM, intent: Record<string, unknown> & { type: string }) {
    const before = await app.database.query(
      "SELECT (SELECT row_to_json(r) FROM reserve_pool r) AS reserve, (SELECT json_agg(f.state ORDER BY f.id) FROM flow f) AS flows, (SELECT count(*) FROM log_entry) AS log, (SELECT json_agg(c.sheet ORDER BY c.id) FROM character c) AS sheets",
    );
    const refusal = await app.refused(user, intent);
    const after = await app.database.query(
      "SELECT (SELECT row_to_json(r) FROM reserve_pool r) AS reserve, (SELECT json_agg(f.state ORDER BY f.id) FROM flow f) AS flows, (SELECT count(*) FROM log_entry) AS log, (SELECT json_agg(c.sheet ORDER BY c.id) FROM character c) AS sheets",
    );
    expect(after).toEqual(before);
    return refusal;
  }

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "beast-hunters" });
  });
  afterAll(async () => app.close());

  it("enters Yakhara's sheet in a few commands, checks it against the creation steps, and shows it", async () => {
    await app.run(PLAYER, { type: "character.create", name: "Якхара" });
    yakharaId = (await app.db.character.findFirstOrThrow({ where: { name: "Якхара" } })).id;
    await app.run(PLAYER, {
      type: "character.trait.replace",
      traits:
        "Мама будет мной гордиться:Ф4 Проницательность:С3 Майхара_—_мой_враг:Ф2 Знания охотников на чудовищ:М2",
    });
    await app.run(PLAYER, {
      type: "character.resource.replace",
      resources: "Мамин старый топор:ФА4 Личные связи:СЗ3 Щит Майхары:ФЗ2 Предназначение:МА2",
    });
    await app.run(PLAYER, { type: "character.initiative", physical: 3, social: 2, mental: 2 });
    const done = await app.run(PLAYER, {
      type: "character.boxes",
      physical: "3/3/1/1/1",
      social: "2/1/1/1/1",
      mental: "2/1/1/1/1",
    });
    expect(replyText(done)).toContain("Creation check: everything matches the creation steps.");
    expect(replyText(done)).toContain("PA+4 Мамин старый топор");
    expect(replyText(done)).toContain("L□□□ M□□□ H□ K□ F□");

    const bad = await refusedUnchanged(PLAYER, { type: "character.boxes", social: "1/2/1/1/1" });
    expect(bad.code).toBe("errors.bh.boxesIncrease");
    expect(
      (await refusedUnchanged(OTHER, { type: "character.initiative", physical: 1, character: "Якхара" }))
        .code,
    ).toBe("errors.notYourCharacter");
  });

  it("lets a hunter (not a bystander) set the reserve; only the GM spends it, never below 0", async () => {
    expect((await refusedUnchanged(LURKER, { type: "reserve.set", total: 30, ceiling: 8 })).code).toBe(
      "errors.bh.huntersOrGmOnly",
    );
    await app.run(PLAYER, { type: "reserve.set", total: 30, ceiling: 8 });
    expect(await reserveRow()).toMatchObject({ total: 30, ceiling: 8, spent: 0 });

    const player = await refusedUnchanged(PLAYER, { type: "reserve.spend", amount: 2, reason: "хочу" });
    expect(player.code).toBe("errors.gmOnly");
    const spent = await app.run(GM, { type: "reserve.spend", amount: 2, reason: "wolves on the road" });
    expect(replyText(spent)).toContain("30 → 28");
    // Refused with what is left, not with the price of going to dice.
    expect(await refusedUnchanged(GM, { type: "reserve.spend", amount: 29, reason: "too much" })).toEqual({
      code: "errors.bh.spendOverReserve",
      params: { amount: 29, left: 28 },
    });
    const shown = await app.run(OTHER, { type: "reserve.show" });
    expect(replyText(shown)).toContain("**28** left of 30 (spent 2) · ceiling 8");
    expect(replyText(shown)).toContain("wolves on the road");
  });

  it("spends the reserve in two round trips: the reserve comes with the table's lock, the write with the COMMIT", async () => {
    const recording = recordSentStatements();
    let spent: Awaited<ReturnType<typeof app.run>>;
    try {
      spent = await app.run(GM, { type: "reserve.spend", amount: 1, reason: "a lantern" });
    } finally {
      recording.stop();
    }
    expect(replyText(spent)).toContain("28 → 27");
    const trips = recording.sent.filter((text) => !text.includes("INSERT INTO user_language"));
    expect(trips).toHaveLength(2);
    // The lock and the interaction's record, the reserve, the open challenge (a spend is refused
    // while one is open), the table's characters (the GM's among them); then the writes.
    expect(trips[0]?.startsWith("BEGIN;")).toBe(true);
    expect(trips[0]?.match(/EXECUTE /g)).toHaveLength(4);
    expect(trips[1]?.endsWith("COMMIT")).toBe(true);
    expect(await reserveRow()).toMatchObject({ total: 30, spent: 3 });
    // Back to where the seed's fight below starts.
    await app.database.query("UPDATE reserve_pool SET spent = spent - 1");
  });

  it("never hands out a reserve read with the opening once the transaction has written it", async () => {
    const table = await app.db.gameTable.findFirstOrThrow({
      where: { system: "beast-hunters", status: "active" },
    });
    const at = { tableId: table.id, userId: GM.id };
    const seen = await inTransaction(
      app.db,
      async (tx, [rows = []]) => {
        tx.noteOpened(reserveRead, reserveRead.scope(at), rows);
        const opened = await findReserve(tx, table.id);
        tx.noteOpened(reserveRead, reserveRead.scope(at), rows);
        await saveAdventure(tx, table.id, adventureOf(opened));
        await tx.sql().run`UPDATE reserve_pool SET spent = spent + 1 WHERE table_id = ${table.id}`;
        const afterWrite = await findReserve(tx, table.id);
        // Rolled back: the fight below starts from the reserve as it was.
        throw Object.assign(new Error("roll back"), { seen: [opened?.spent, afterWrite?.spent] });
      },
      [reserveRead.statement(at)],
    ).catch((error: { seen?: unknown }) => error.seen);
    expect(seen).toEqual([2, 3]);
  });

  it("refuses bad obstacles with specific errors and changes nothing", async () => {
    const base = { type: "challenge.start", sphere: "physical", phase: 2 };
    const cases: [Record<string, unknown>, string][] = [
      [{ traits: "Hungry 4" }, "errors.bh.badTraits"],
      [{ resources: "Rusty A2" }, "errors.bh.badResources"],
      [{ boxes: "2/1/1/1" }, "errors.bh.badBoxes"],
      [{ boxes: "2/1/1/1/1" }, "errors.bh.extraBoxesOnlyInClimax"],
      [{ traits: "Hungry:8 Surround:8" }, "errors.bh.overCeiling"],
      [{ neutralize: "Копьё" }, "errors.bh.noSuchHunterResource"],
    ];
    for (const [options, code] of cases) {
      expect((await refusedUnchanged(GM, { ...base, ...options })).code, JSON.stringify(options)).toBe(code);
    }
    expect((await refusedUnchanged(PLAYER, base)).code).toBe("errors.gmOnly");
    expect(await app.db.flow.count()).toBe(0);
  });

  it("plays the seed's fight: prices the bandits, offers and accepts AP, rolls the maneuver and the strikes", async () => {
    const started = await app.run(GM, {
      type: "challenge.start",
      sphere: "physical",
      phase: 2,
      name: "Разбойники",
      traits: "Голодные и отчаянные:4 Окружаем:2",
      resources: "Кожаная броня:D2 Ржавые мечи:A2 Охотничьи ножи:A2",
    });
    expect(started.result.replyIsPanelOf).toBeTypeOf("number");
    expect(replyText(started)).toContain("Minimal damage boxes 1/1/1/1/1 (mandatory): 1 point");
    expect(replyText(started)).toContain("Trait Голодные и отчаянные +4: 2 points");
    expect(await reserveRow()).toMatchObject({ spent: 2 + 7 });

    const notYet = await refusedUnchanged(GM, {
      type: "challenge.activate",
      trait: "Окружаем",
      as: "defense",
    });
    expect(notYet).toEqual({ code: "errors.bh.notYourTurn", params: { name: "Якхара" } });

    await app.run(PLAYER, { type: "challenge.activate", trait: "Мама будет мной гордиться", as: "attack" });
    await app.run(GM, { type: "challenge.activate", trait: "Окружаем", as: "defense" });
    await app.run(PLAYER, { type: "challenge.activate", trait: "Проницательность", as: "attack" });
    await app.run(GM, { type: "challenge.activate", trait: "Голодные и отчаянные", as: "attack" });

    expect((await refusedUnchanged(PLAYER, { type: "challenge.offer", points: 10 })).code).toBe(
      "errors.gmOnly",
    );
    const offer = await app.run(GM, { type: "challenge.offer", points: 10 });
    expect(replyText(offer)).toContain("The GM offers Якхара 10 AP against Разбойники");
    await app.run(PLAYER, { type: "challenge.accept" });
    expect((await flowState()).state.advantage).toEqual({ [yakharaId]: { obstacle: 10 } });

    app.useDice(scriptedDice([5, 7, 6, 5]));
    const maneuver = await app.run(GM, { type: "challenge.maneuver" });
    expect(replyText(maneuver)).toContain("[5, 7] + 4 = **16**");
    expect(replyText(maneuver)).toContain("[6, 5] + 0 = **11**");
    expect((await flowState()).state.advantage.obstacle).toEqual({ [yakharaId]: 5 });

    app.useDice(scriptedDice([4, 5]));
    const strike = await app.run(PLAYER, { type: "challenge.strike", dice: 2 });
    expect(replyText(strike)).toContain("[4, 5] = 9 + 4 − 2 = **11** → heavy");

    const tooMuch = await refusedUnchanged(GM, { type: "challenge.strike", dice: 2 });
    expect(tooMuch).toEqual({ code: "errors.bh.notEnoughAdvantage", params: { need: 8, have: 5 } });
    app.useDice(scriptedDice([5]));
    await app.run(GM, { type: "challenge.strike", dice: 1 });
    const sheet = (await app.db.character.findUniqueOrThrow({ where: { id: yakharaId } })).sheet as {
      damage: { physical: Record<string, number> };
    };
    expect(sheet.damage.physical).toEqual({ light: 1, medium: 0, heavy: 0, knockout: 0, fatal: 0 });
    const { state } = await flowState();
    expect(state.advantage).toEqual({ [yakharaId]: { obstacle: 2 }, obstacle: { [yakharaId]: 1 } });
  });

  it("keeps playing after a restart: a fresh registry on the same database continues the challenge", async () => {
    const restarted = createRegistry();
    app.useDice(scriptedDice([10, 10, 1, 1]));
    const result = await execute(
      app.deps,
      restarted,
      {
        interactionId: "restart-1",
        interactionToken: "t",
        applicationId: "100000000000000001",
        actor: { userId: PLAYER.id, displayName: "Pavel", locale: "ru", canManageGuild: false },
        guildId: "200000000000000001",
        channelId: "300000000000000001",
      },
      { type: "challenge.maneuver" },
    );
    // 20 + 6 = 26 against 2 + 2 = 4: 22 AP, and a free strike.
    expect(replyText({ ...result, result: result.result })).toContain("22 AP in one maneuver");
    expect((await flowState()).state.pendingBonus).toMatchObject({ gained: 22 });
  });

  it("knocks the bandits out with the free strike: the hunter wins VP = rating, written to the sheet and the log", async () => {
    const vpBefore = (await app.db.character.findUniqueOrThrow({ where: { id: yakharaId } })).victoryPoints;
    app.useDice(scriptedDice([5, 5, 4]));
    // 14 + axe 4 − armour 2 = 16 → knockout.
    const strike = await app.run(PLAYER, { type: "challenge.strike", dice: 3 });
    expect(replyText(strike)).toContain("**16** → knockout");
    expect(replyText(strike)).toContain("The hunters win");
    // One hunter: the rating divides evenly, so no remainder is named.
    expect(replyText(strike)).toContain("(rating 7 shared by the hunters standing).");
    const { flow, state } = await flowState();
    expect(flow.status).toBe("closed");
    expect(state.outcome).toMatchObject({ winner: "hunters", reason: "beaten", vp: { [yakharaId]: 7 } });
    const after = await app.db.character.findUniqueOrThrow({ where: { id: yakharaId } });
    expect(after.victoryPoints).toBe(vpBefore + 7);
    expect(await app.db.logEntry.count({ where: { action: "character.vp", characterId: yakharaId } })).toBe(
      1,
    );
    expect(await app.db.logEntry.count({ where: { action: "challenge.strikeRolled" } })).toBe(3);
  });

  it("gives the GM the points back when the hunter gives up", async () => {
    const before = (await reserveRow()).spent;
    await app.run(GM, { type: "challenge.start", sphere: "social", phase: 3, traits: "Упрямый:2" });
    // Rating 2 at phase 3 costs 3.
    expect((await reserveRow()).spent).toBe(before + 3);
    const gaveUp = await app.run(PLAYER, { type: "challenge.giveup" });
    expect(replyText(gaveUp)).toContain("3 points go back to the reserve.");
    expect((await reserveRow()).spent).toBe(before);
  });

  it("a click on a challenge panel that comes before its message id is stored still updates that panel", async () => {
    // The panel's id is stored just after it is posted (by the router: not here, so it stays unknown).
    await app.run(GM, { type: "challenge.start", sphere: "social", phase: 3, traits: "Упрямый:2" });
    const onPanel = await app.run(
      PLAYER,
      { type: "challenge.giveup" },
      { source: { messageId: "9001", public: true } },
    );
    expect(onPanel.result.replyMode).toBe("update");
    // The same click on a private message (an ephemeral answer) is answered apart.
    await app.run(GM, { type: "challenge.start", sphere: "social", phase: 3, traits: "Упрямый:2" });
    const elsewhere = await app.run(
      PLAYER,
      { type: "challenge.giveup" },
      { source: { messageId: "9002", public: false } },
    );
    expect(elsewhere.result.replyMode).not.toBe("update");
  });

  it("concedes in negotiation: 2 × rating from the reserve and VP = phase for every hunter", async () => {
    const vp = (await app.db.character.findUniqueOrThrow({ where: { id: yakharaId } })).victoryPoints;
    const spent = (await reserveRow()).spent;
    await app.run(GM, { type: "reserve.concede", phase: 2, rating: 3 });
    expect((await reserveRow()).spent).toBe(spent + 6);
    expect((await app.db.character.findUniqueOrThrow({ where: { id: yakharaId } })).victoryPoints).toBe(
      vp + 2,
    );
  });

  it("lets exactly one of two simultaneous spends of the last points through", async () => {
    const pool = await reserveRow();
    const left = pool.total - pool.spent;
    const results = await Promise.allSettled([
      app.run(GM, { type: "reserve.spend", amount: left, reason: "a" }),
      app.run(GM, { type: "reserve.spend", amount: left, reason: "b" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason.code).toBe("errors.bh.spendOverReserve");
    expect((await reserveRow()).spent).toBe(pool.total);
  });

  it("renews the hunters when a new adventure starts", async () => {
    await app.run(PLAYER, { type: "reserve.set", total: 20, ceiling: 6 });
    const sheet = (await app.db.character.findUniqueOrThrow({ where: { id: yakharaId } })).sheet as {
      damage: { physical: Record<string, number> };
    };
    expect(sheet.damage.physical.light).toBe(0);
    expect(await reserveRow()).toMatchObject({ total: 20, ceiling: 6, spent: 0 });
  });

  it("records VP spending with what it bought, and refuses overspending", async () => {
    const vp = (await app.db.character.findUniqueOrThrow({ where: { id: yakharaId } })).victoryPoints;
    await app.run(PLAYER, { type: "character.vp.spend", amount: 2, reason: "Проницательность +1" });
    expect((await app.db.character.findUniqueOrThrow({ where: { id: yakharaId } })).victoryPoints).toBe(
      vp - 2,
    );
    expect(
      (await refusedUnchanged(PLAYER, { type: "character.vp.spend", amount: 999, reason: "всё" })).code,
    ).toBe("errors.bh.notEnoughVp");
    expect(
      (await refusedUnchanged(PLAYER, { type: "character.vp.add", amount: 5, reason: "сам себе" })).code,
    ).toBe("errors.gmOnly");
  });
  it("plays from the panel's menus: activate, neutralise, an offer picked from the menu, a task die and its roll", async () => {
    await app.run(GM, {
      type: "challenge.start",
      sphere: "physical",
      phase: 2,
      traits: "Окружаем:2",
      resources: "D2",
    });
    const { flow } = await flowState();
    await app.run(PLAYER, {
      type: "challenge.menu",
      flowId: flow.id,
      pick: "attack:Мама будет мной гордиться",
    });
    // The bandits disarm Yakhara: 18 against 2.
    app.useDice(scriptedDice([9, 9, 1, 1]));
    await app.run(GM, { type: "challenge.menu", flowId: flow.id, pick: `n:${yakharaId}:Мамин старый топор` });
    expect((await flowState()).state.participants[0].resources[0].neutralised).toEqual({
      margin: 16,
      by: "obstacle",
    });
    // The offer menu sends its points as text.
    await app.run(GM, { type: "challenge.offer", flowId: flow.id, points: "12" });
    await app.run(PLAYER, { type: "challenge.accept", flowId: flow.id });
    await app.run(PLAYER, { type: "challenge.task", flowId: flow.id, name: "Шрам" });
    // «Задачи разрешаются, когда обе стороны согласны»: no dice before the GM accepts the difficulty.
    const early = await app.refused(PLAYER, { type: "challenge.taskmenu", flowId: flow.id, pick: "a:Шрам" });
    expect(early.code).toBe("errors.bh.taskNotAgreed");
    await app.run(GM, { type: "challenge.taskmenu", flowId: flow.id, pick: "g:Шрам" });
    // The free action after 12 AP is an achievement: one die for 4 AP.
    const bought = await app.run(PLAYER, { type: "challenge.taskmenu", flowId: flow.id, pick: "a:Шрам" });
    expect(replyText(bought)).toContain("12 → 8");
    const vp = (await app.db.character.findUniqueOrThrow({ where: { id: yakharaId } })).victoryPoints;
    // Rolled only when both sides pressed ready.
    const ready = await app.run(PLAYER, { type: "challenge.taskmenu", flowId: flow.id, pick: "r:Шрам" });
    expect(replyText(ready)).toContain("The hunters are ready to roll “Шрам”");
    app.useDice(scriptedDice([2, 5]));
    const rolled = await app.run(GM, { type: "challenge.taskmenu", flowId: flow.id, pick: "r:Шрам" });
    expect(replyText(rolled)).toContain("GM [2] = 2, hunters [5] = 5 → the hunters win");
    expect((await app.db.character.findUniqueOrThrow({ where: { id: yakharaId } })).victoryPoints).toBe(
      vp + 2,
    );
    await app.run(GM, { type: "challenge.end", concede: true });
    expect((await app.db.character.findUniqueOrThrow({ where: { id: yakharaId } })).victoryPoints).toBe(
      vp + 2 + 3,
    );
    expect((await flowState()).flow.status).toBe("closed");
  });
});

describe("Beast Hunters with several hunters", () => {
  let app: AppHarness;
  const CHANNEL = { channelId: "300000000000000077" };
  const GM2 = { id: "510000000000000001", name: "Gm" };
  const A = { id: "510000000000000002", name: "Ada" };
  const B = { id: "510000000000000003", name: "Bo" };
  const run = (user: typeof GM2, intent: Record<string, unknown> & { type: string }) =>
    app.run(user, intent, CHANNEL);
  let ids: Record<string, string> = {};
  async function challenge() {
    const flow = await app.db.flow.findFirstOrThrow({
      where: { kind: "bh.challenge" },
      orderBy: { id: "desc" },
    });
    // biome-ignore lint/suspicious/noExplicitAny: reading the stored JSON in assertions
    return (flow.state as any).challenge;
  }

  beforeAll(async () => {
    app = await createAppHarness();
    await run(GM2, { type: "table.setup", system: "beast-hunters" });
    for (const [user, name, init] of [
      [A, "Ада", 3],
      [B, "Бо", 2],
    ] as const) {
      await run(user, { type: "character.create", name });
      await run(user, { type: "character.trait.replace", traits: "Сила:Ф4 Хитрость:Ф2" });
      await run(user, { type: "character.initiative", physical: init });
    }
    ids = Object.fromEntries((await app.db.character.findMany()).map((c) => [c.name, String(c.id)]));
    await run(A, { type: "reserve.set", total: 20, ceiling: 8 });
    await run(GM2, {
      type: "challenge.start",
      sphere: "physical",
      phase: 2,
      name: "Волки",
      traits: "Стая:2",
    });
  });
  afterAll(async () => app.close());

  it("plays in rounds (each hunter and the wolves once a round), lets hunters help each other, and switches and passes AP at 50 % rounded up", async () => {
    // Round 1: Ada, the wolves, Bo.
    expect((await challenge()).turn).toBe(ids.Ада);
    await run(A, { type: "challenge.activate", trait: "Сила", as: "attack" });
    await run(GM2, { type: "challenge.activate", trait: "Стая", as: "attack" });
    expect((await challenge()).turn).toBe(ids.Бо);
    await run(B, { type: "challenge.activate", trait: "Хитрость", as: "attack" });

    // Round 2 opens with Ada again: she helps Bo with her active "Сила" (+4, beyond his own 3 + 3).
    expect((await challenge()).turn).toBe(ids.Ада);
    await run(A, { type: "challenge.help", hunter: "Бо", trait: "Сила" });
    // The wolves maneuver against Ada: 20 + 2 against 2 → 20 AP, a free action the GM lets go.
    app.useDice(scriptedDice([10, 10, 1, 1]));
    await run(GM2, { type: "challenge.maneuver", target: "Ада" });
    await run(GM2, { type: "challenge.skip" });
    expect((await challenge()).advantage.obstacle).toEqual({ [ids.Ада!]: 20 });

    // Bo maneuvers with the help: 10 + 2 + 4 = 16 against 10 + 0 = 10 → 6 AP.
    app.useDice(scriptedDice([5, 5, 5, 5]));
    const helped = await run(B, { type: "challenge.maneuver" });
    expect(replyText(helped)).toContain("[5, 5] + 6 = **16**");
    expect((await challenge()).advantage[ids.Бо!]).toEqual({ obstacle: 6 });

    // Round 3: acting out of turn is refused, naming whose turn it is.
    const early = await app.refused(B, { type: "challenge.pass", to: "Ада", points: 5 }, CHANNEL);
    expect(early).toEqual({ code: "errors.bh.notYourTurn", params: { name: "Ада" } });
    await run(A, { type: "challenge.activate", trait: "Хитрость", as: "defense" });
    // The wolves switch 20 AP from Ada to Bo: 10.
    await run(GM2, { type: "challenge.switch", from: "Ада", to: "Бо" });
    expect((await challenge()).advantage.obstacle).toEqual({ [ids.Ада!]: 0, [ids.Бо!]: 10 });

    // Bo passes 5 of his 6 AP to Ada, against the same target.
    await run(B, { type: "challenge.pass", to: "Ада", points: 5 });
    const state = await challenge();
    expect(state.advantage[ids.Бо!]).toEqual({ obstacle: 1 });
    expect(state.advantage[ids.Ада!]).toEqual({ obstacle: 5 });
    // Round 4: Ada lets her turn go; the wolves are next.
    await run(A, { type: "challenge.skip" });
    expect((await challenge()).turn).toBe("obstacle");
  });

  it("plays switch, pass and help from the panel's team menu, maneuvers and strikes at a chosen hunter, and sets up tasks through the form", async () => {
    const LURKER2 = { id: "510000000000000009", name: "Lu" };
    const ada = ids.Ада!;
    const bo = ids.Бо!;
    /** The panel as `user` sees it after `/challenge show`, checked against Discord's limits. */
    const panel = async (user: typeof GM2) => {
      const view = (await run(user, { type: "challenge.show" })).result.reply!;
      expectWithinDiscordLimits(view);
      return view;
    };
    /** The private team menu the panel's team button opens for `user`. */
    const teamMenu = async (user: typeof GM2) => {
      const reply = (await run(user, clickIntent(await panel(user), "challenge.team"))).result.reply!;
      expect(reply.ephemeral).toBe(true);
      expectWithinDiscordLimits(reply);
      return reply;
    };
    /** Nothing at all changed in the database. */
    const unchanged = async <T>(act: () => Promise<T>): Promise<T> => {
      const query =
        "SELECT (SELECT json_agg(f.state ORDER BY f.id) FROM flow f) AS flows, (SELECT count(*) FROM log_entry) AS log, (SELECT json_agg(c.sheet ORDER BY c.id) FROM character c) AS sheets";
      const before = await app.database.query(query);
      const result = await act();
      expect(await app.database.query(query)).toEqual(before);
      return result;
    };

    // The wolves' turn, with 10 AP against Bo. Two hunters: a maneuver button for each, strikes by target.
    let state = await challenge();
    expect(state.turn).toBe("obstacle");
    expect(state.advantage.obstacle).toEqual({ [ada]: 0, [bo]: 10 });
    const gmPanel = await panel(GM2);
    expect(controlIntents(gmPanel)).toContainEqual({ type: "challenge.team", flowId: expect.any(Number) });
    expect(clickIntent(gmPanel, "challenge.menu", `m:${ada}`)).toBeTruthy();
    expect(clickIntent(gmPanel, "challenge.menu", `m:${bo}`)).toBeTruthy();
    expect(optionValues(gmPanel)).toEqual(expect.arrayContaining([`x:${bo}:1`, `x:${bo}:2`]));
    expect(optionValues(gmPanel)).not.toContain(`x:${ada}:1`);

    // Not Ada's turn: her team button says whose it is, and changes nothing.
    const early = await unchanged(() => app.refused(A, clickIntent(gmPanel, "challenge.team"), CHANNEL));
    expect(early).toEqual({ code: "errors.bh.notYourTurn", params: { name: "Волки" } });

    // The GM's team menu offers only switching (help and pass are for hunters): 10 against Bo → 5 against Ada.
    const gmTeam = await teamMenu(GM2);
    expect(optionValues(gmTeam)).toEqual([`s:${bo}:${ada}`]);
    expect(optionLabel(gmTeam, `s:${bo}:${ada}`)).toBe("Бо: 10 AP → Ада: 5 AP");
    const switched = await run(GM2, chooseIntent(gmTeam, `s:${bo}:${ada}`));
    expect(replyText(switched)).toContain("AP Волки → Бо: 10 → 0");
    expect(replyText(switched)).toContain("AP Волки → Ада: 0 → 5");
    state = await challenge();
    expect(state.advantage.obstacle).toEqual({ [ada]: 5, [bo]: 0 });
    // Bo, last in the round, lets his turn go; the next round opens with Ada.
    expect(state.turn).toBe(bo);
    await run(B, { type: "challenge.skip" });
    state = await challenge();
    expect(state.turn).toBe(ada);

    // Ada's menu: help Bo with either active trait, or pass her 5 AP against the wolves to him.
    const adaTeam = await teamMenu(A);
    expect(optionValues(adaTeam).sort()).toEqual(
      [`h:${bo}:Сила`, `h:${bo}:Хитрость`, `p:${bo}:obstacle`].sort(),
    );
    // A forged pick (a participant this challenge does not have) is stale, and changes nothing.
    const forged = await unchanged(() =>
      app.refused(A, { ...chooseIntent(adaTeam, `p:${bo}:obstacle`), pick: "p:999:obstacle" }, CHANNEL),
    );
    expect(forged.code).toBe("errors.staleAction");
    await run(A, chooseIntent(adaTeam, `p:${bo}:obstacle`));
    state = await challenge();
    expect(state.advantage[ada]).toEqual({ obstacle: 0 });
    expect(state.advantage[bo]).toEqual({ obstacle: 6 });
    expect(state.turn).toBe("obstacle");

    // The GM sets up a task through the form: it is not an action, the turn stays.
    const formIntent = clickIntent(await panel(GM2), "challenge.taskform");
    const form = (await run(GM2, formIntent)).result.modal!;
    expectModalWithinDiscordLimits(form);
    expect(form.intent).toEqual({ type: "challenge.task", flowId: formIntent.flowId });
    expect(form.inputs.map((i) => [i.field, i.required ?? true])).toEqual([
      ["name", true],
      ["difficulty", false],
    ]);
    expect(form.inputs[1]!.placeholder).toBe("1 + additions: the GM 0–2, each hunter +1; at most 5");
    const bystander = await unchanged(() => app.refused(LURKER2, formIntent, CHANNEL));
    expect(bystander.code).toBe("errors.character.noneOwned");
    const submit = (fields: { name: string; difficulty: string }) => ({ ...form.intent, ...fields });
    expect(
      await unchanged(() => app.refused(GM2, submit({ name: "Загнать в овраг", difficulty: "3+" }), CHANNEL)),
    ).toEqual({ code: "errors.bh.badDifficulty", params: { difficulty: "3+", min: 1, max: 5 } });
    expect(
      await unchanged(() => app.refused(GM2, submit({ name: "Загнать в овраг", difficulty: "9" }), CHANNEL)),
    ).toEqual({ code: "errors.bh.badDifficulty", params: { difficulty: 9, min: 1, max: 5 } });
    await run(GM2, submit({ name: "Загнать в овраг", difficulty: " 3 " }));
    await run(A, submit({ name: "Сбить со следа", difficulty: "" }));
    state = await challenge();
    expect(
      state.tasks.map((task: { name: string; difficulty: number }) => [task.name, task.difficulty]),
    ).toEqual([
      ["Загнать в овраг", 3],
      ["Сбить со следа", 1],
    ]);
    expect(state.turn).toBe("obstacle");

    // The wolves maneuver at Bo from his button: 6 + 6 + 2 = 14 against 3 + 3 = 6 → 8 AP.
    app.useDice(scriptedDice([6, 6, 3, 3]));
    await run(GM2, clickIntent(await panel(GM2), "challenge.menu", `m:${bo}`));
    state = await challenge();
    expect(state.advantage.obstacle).toEqual({ [ada]: 5, [bo]: 8 });
    expect(state.turn).toBe(bo);

    // Bo helps Ada with his active "Хитрость" (+2); he could also pass his 6 AP to her.
    const boTeam = await teamMenu(B);
    expect(optionValues(boTeam).sort()).toEqual([`h:${ada}:Хитрость`, `p:${ada}:obstacle`].sort());
    await run(B, chooseIntent(boTeam, `h:${ada}:Хитрость`));
    state = await challenge();
    expect(state.participants.find((p: { id: string }) => p.id === ada).help).toEqual([
      { helper: bo, trait: "Хитрость", value: 2 },
    ]);
    expect(state.advantage[bo]).toEqual({ obstacle: 6 });
    // A new round: Ada lets her turn go, then the wolves act.
    expect(state.turn).toBe(ada);
    await run(A, { type: "challenge.skip" });
    expect((await challenge()).turn).toBe("obstacle");

    // The wolves strike Bo with 1d6 from the strike menu: 8 → 4 AP, a light box on his sheet.
    app.useDice(scriptedDice([3]));
    const strikePanel = await panel(GM2);
    expect(optionValues(strikePanel)).toEqual(
      expect.arrayContaining([`x:${ada}:1`, `x:${bo}:1`, `x:${bo}:2`]),
    );
    const struck = await run(GM2, chooseIntent(strikePanel, `x:${bo}:1`));
    expect(replyText(struck)).toContain("[3] = 3");
    state = await challenge();
    expect(state.advantage.obstacle).toEqual({ [ada]: 5, [bo]: 4 });
    const boSheet = (await app.db.character.findUniqueOrThrow({ where: { id: Number(bo) } })).sheet as {
      damage: { physical: Record<string, number> };
    };
    expect(boSheet.damage.physical.light).toBe(1);
  });
});
