import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execute } from "../../src/app/execute.js";
import type { CheckFlowState } from "../../src/app/fate/state.js";
import { createRegistry } from "../../src/app/registry.js";
import type { Invocation } from "../../src/app/use-case.js";
import { scriptedDice } from "../../src/rules/dice.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "410000000000000001", name: "Gail" };
const PLAYER = { id: "410000000000000002", name: "Pavel", locale: "ru" };
const OTHER = { id: "410000000000000003", name: "Olga" };

function invocation(user: { id: string; name: string; locale?: string }): Invocation {
  return {
    interactionId: `restart-${user.id}-${Date.now()}`,
    interactionToken: "token",
    applicationId: "100000000000000001",
    actor: { userId: user.id, displayName: user.name, locale: user.locale ?? "en-US", canManageGuild: false },
    guildId: "200000000000000001",
    channelId: "300000000000000001",
  };
}

/** The options of the first select on an answer (e.g. the ways to take a hit). */
function selectOptions(executed: Awaited<ReturnType<AppHarness["run"]>>): { label: string; value: string }[] {
  for (const c of (executed.result.reply?.rows ?? []).flat()) if (c.kind === "select") return c.options;
  throw new Error(`no select on: ${replyText(executed)}`);
}

describe("Fate at the table (app layer, real PostgreSQL)", () => {
  let app: AppHarness;
  const fp = async (name: string) =>
    (await app.db.character.findFirstOrThrow({ where: { name } })).fatePoints;
  const snapshot = async () => ({
    characters: await app.db.character.findMany({ orderBy: { id: "asc" } }),
    aspects: await app.db.aspect.findMany({ orderBy: { id: "asc" } }),
    flows: await app.db.flow.findMany({ orderBy: { id: "asc" } }),
  });
  const latestCheck = async () => {
    const flow = await app.db.flow.findFirstOrThrow({
      where: { kind: "fate.check" },
      orderBy: { id: "desc" },
    });
    return { id: flow.id, state: flow.state as unknown as CheckFlowState };
  };

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "fate" });
    await app.run(PLAYER, { type: "character.create", name: "Grukh" });
    await app.run(OTHER, { type: "character.create", name: "Elf" });
    await app.run(GM, { type: "character.create", name: "Bandit", kind: "npc" });
  });
  afterAll(async () => app.close());

  it("gives a new character fate points equal to the refresh and an empty sheet", async () => {
    expect(await fp("Grukh")).toBe(3);
    // A sheet is shown publicly: in the table's language (its GM's, English), whoever asks.
    const shown = await app.run(PLAYER, { type: "character.show", name: "Grukh" });
    expect(replyText(shown)).toContain("Fate points");
  });

  it("enters a sheet: the whole pyramid at once, a race, ratings; refuses a broken pyramid", async () => {
    await app.run(PLAYER, {
      type: "character.skill",
      ranks:
        "athletics 4, fight 3, Выносливость 3, notice 2, will 2, provoke 2, stealth 1, lore 1, riding 1, eloquence 1",
    });
    await app.run(PLAYER, {
      type: "character.race",
      name: "Orcs",
      bonuses: "fight 2, provoke 2, physique 1",
      stunt1: "Magic resistance: AR +1 against magic",
    });
    await app.run(PLAYER, { type: "character.ratings", wr: 1, ar: 1 });
    const sheet = replyText(await app.run(PLAYER, { type: "character.show", name: "Grukh" }));
    expect(sheet).toContain("+5 Fight");
    expect(sheet).toContain("☐☐☐☐");
    const refused = await app.refused(PLAYER, { type: "character.skill", skill: "shoot", value: 3 });
    expect(refused.code).toBe("errors.fate.pyramidRankFull");
    const unknown = await app.refused(PLAYER, { type: "character.skill", skill: "swimming", value: 1 });
    expect(unknown.code).toBe("errors.fate.unknownSkill");
    await app.run(OTHER, { type: "character.skill", skill: "athletics", value: 3 });
  });

  it("worked example: Good (+3) with +1 on the dice vs passive 3 → +1 shift, a success; faces shown", async () => {
    app.useDice(scriptedDice([1, 3, 3, 3]));
    const rolled = await app.run(OTHER, { type: "check", skill: "athletics", vs: 3 });
    const text = replyText(rolled);
    expect(text).toContain("`+ 0 0 0` (1 3 3 3)");
    expect(text).toContain("+1 dice +3 Athletics = **Great (+4)**");
    expect(text).toContain("+1 → **Success**");
    expect(rolled.result.replyIsPanelOf).toBeDefined();
    const log = await app.db.logEntry.findFirstOrThrow({
      where: { action: "fate.check" },
      orderBy: { id: "desc" },
    });
    expect(log.dice).toMatchObject({ rolled: [1, 3, 3, 3], total: 1 });
  });

  it("an invoke spends a free invoke first, then a fate point", async () => {
    await app.run(GM, { type: "aspect.add", name: "Slippery rocks", invokes: 1 });
    app.useDice(scriptedDice([2, 2, 3, 3]));
    await app.run(OTHER, { type: "check", skill: "athletics", vs: 3 });
    const first = await app.run(OTHER, { type: "invoke", aspect: "slippery rocks" });
    expect(replyText(first)).toContain("free invoke");
    expect(await fp("Elf")).toBe(3);
    expect((await app.db.aspect.findFirstOrThrow({ where: { name: "Slippery rocks" } })).freeInvokes).toBe(0);
    const second = await app.run(OTHER, { type: "invoke", aspect: "Slippery rocks" });
    expect(replyText(second)).toContain("fate point");
    expect(await fp("Elf")).toBe(2);
    const { state } = await latestCheck();
    expect(state.check.invokes.map((i) => i.paidWith)).toEqual(["free-invoke", "fate-point"]);
    // Paying a fate point twice for the same aspect on one check is refused.
    expect((await app.refused(OTHER, { type: "invoke", aspect: "Slippery rocks" })).code).toBe(
      "errors.fate.aspectAlreadyInvoked",
    );
  });

  it("a reroll invoke keeps every die rolled; the menu lists aspects to the roller only", async () => {
    app.useDice(scriptedDice([2, 2, 2, 2]));
    await app.run(OTHER, { type: "check", skill: "athletics", vs: 0 });
    const { id } = await latestCheck();
    const menu = await app.run(OTHER, { type: "fate.invoke-menu", flowId: id, mode: "reroll" });
    expect(menu.result.reply?.ephemeral).toBe(true);
    expect(replyText(menu)).toContain("Invoke");
    expect((await app.refused(PLAYER, { type: "fate.invoke-menu", flowId: id, mode: "reroll" })).code).toBe(
      "errors.notYourCharacter",
    );
    const aspect = await app.db.aspect.findFirstOrThrow({ where: { name: "Slippery rocks" } });
    app.useDice(scriptedDice([1, 1, 3, 3]));
    await app.run(OTHER, { type: "invoke", flowId: id, mode: "reroll", aspect: `a${aspect.id}` });
    const { state } = await latestCheck();
    expect(state.check.rerolledDice[0]?.rolled).toEqual([2, 2, 2, 2]);
    expect(state.check.dice.rolled).toEqual([1, 1, 3, 3]);
    expect(await fp("Elf")).toBe(1);
  });

  it("bad input gets a specific refusal and changes nothing", async () => {
    const before = await snapshot();
    const cases: Array<[typeof GM, Record<string, unknown>, string]> = [
      [PLAYER, { type: "check", skill: "swimming" }, "errors.fate.unknownSkill"],
      [OTHER, { type: "invoke", aspect: "Nonexistent" }, "errors.fate.unknownAspect"],
      [PLAYER, { type: "check", skill: "fight", character: "Elf" }, "errors.notYourCharacter"],
      [PLAYER, { type: "check", skill: "fight", character: "Bandit" }, "errors.notYourCharacter"],
      [PLAYER, { type: "fp.give", character: "Grukh", amount: 5 }, "errors.gmOnly"],
      [GM, { type: "fp.give", character: "Grukh", amount: -9 }, "errors.fate.fatePointsBelowZero"],
      [PLAYER, { type: "aspect.add", name: "Lucky", invokes: 2 }, "errors.fate.invokesGmOnly"],
    ];
    for (const [user, intent, code] of cases) {
      expect((await app.refused(user, intent as never)).code, JSON.stringify(intent)).toBe(code);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("refuses invoking without fate points or free invokes, and changes nothing", async () => {
    await app.run(GM, { type: "fp.give", character: "Elf", amount: -1 });
    expect(await fp("Elf")).toBe(0);
    app.useDice(scriptedDice([3, 3, 3, 3]));
    await app.run(OTHER, { type: "check", skill: "athletics", vs: 1 });
    await app.run(GM, { type: "aspect.add", name: "Quick feet", character: "Elf", kind: "talent" });
    const before = await snapshot();
    const refused = await app.refused(OTHER, { type: "invoke", aspect: "Quick feet" });
    expect(refused).toMatchObject({ code: "errors.fate.cannotInvoke", params: { aspect: "Quick feet" } });
    expect(await snapshot()).toEqual(before);
  });

  it("two invokes on the last fate point at the same moment: exactly one succeeds", async () => {
    await app.run(GM, { type: "fp.give", character: "Elf", amount: 1 });
    await app.run(GM, { type: "aspect.add", name: "Elven grace", character: "Elf", kind: "ambition" });
    app.useDice(scriptedDice([3, 3, 3, 3]));
    await app.run(OTHER, { type: "check", skill: "athletics", vs: 2 });
    const results = await Promise.allSettled([
      app.run(OTHER, { type: "invoke", aspect: "Quick feet" }),
      app.run(OTHER, { type: "invoke", aspect: "Elven grace" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failure = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(failure.reason.code).toBe("errors.fate.cannotInvoke");
    expect(await fp("Elf")).toBe(0);
    expect((await latestCheck()).state.check.invokes).toHaveLength(1);
  });

  it("a compel accepted gives the offered fate points; only the target can answer", async () => {
    await app.run(PLAYER, { type: "aspect.add", name: "Bloodthirsty orc", character: "Grukh", kind: "flaw" });
    const offered = await app.run(GM, {
      type: "compel",
      target: "Grukh",
      aspect: "Bloodthirsty orc",
      points: 2,
    });
    expect(offered.result.reply?.mentionUsers).toEqual([PLAYER.id]);
    const flowId = offered.result.replyIsPanelOf!;
    expect((await app.refused(OTHER, { type: "compel.accept", flowId })).code).toBe(
      "errors.fate.notCompelTarget",
    );
    expect((await app.refused(GM, { type: "compel.accept", flowId })).code).toBe(
      "errors.fate.notCompelTarget",
    );
    const before = await fp("Grukh");
    const accepted = await app.run(PLAYER, { type: "compel.accept", flowId });
    expect(accepted.result.replyMode).toBe("update");
    expect(await fp("Grukh")).toBe(before + 2);
    expect((await app.refused(PLAYER, { type: "compel.buyoff", flowId })).code).toBe("errors.flow.closed");
  });

  it("a compel bought off costs the offered points; without enough it can only be accepted", async () => {
    const before = await fp("Grukh");
    const offered = await app.run(GM, {
      type: "compel",
      target: "Grukh",
      aspect: "Bloodthirsty orc",
      points: 2,
    });
    await app.run(PLAYER, { type: "compel.buyoff", flowId: offered.result.replyIsPanelOf! });
    expect(await fp("Grukh")).toBe(before - 2);

    const big = await app.run(GM, { type: "compel", target: "Grukh", aspect: "Bloodthirsty orc", points: 5 });
    const snap = await snapshot();
    const refused = await app.refused(PLAYER, { type: "compel.buyoff", flowId: big.result.replyIsPanelOf! });
    expect(refused).toMatchObject({ code: "errors.fate.cannotBuyOffCompel", params: { need: 5 } });
    expect(await snapshot()).toEqual(snap);
    await app.run(PLAYER, { type: "compel.accept", flowId: big.result.replyIsPanelOf! });
  });

  it("a player compelling another character pays up front; refunded when bought off", async () => {
    await app.run(GM, { type: "fp.give", character: "Elf", amount: 2 });
    const grukh = await fp("Grukh");
    const offered = await app.run(OTHER, {
      type: "compel",
      target: "Grukh",
      aspect: "Bloodthirsty orc",
      points: 2,
    });
    expect(await fp("Elf")).toBe(0);
    await app.run(PLAYER, { type: "compel.buyoff", flowId: offered.result.replyIsPanelOf! });
    expect(await fp("Elf")).toBe(2);
    expect(await fp("Grukh")).toBe(grukh - 2);
  });

  it("a scene compel on everyone gives each player character 1 FP", async () => {
    await app.run(GM, { type: "aspect.add", name: "Pouring rain" });
    const before = [await fp("Grukh"), await fp("Elf"), await fp("Bandit")];
    await app.run(GM, { type: "aspect.compel", name: "Pouring rain" });
    expect([await fp("Grukh"), await fp("Elf"), await fp("Bandit")]).toEqual([
      before[0]! + 1,
      before[1]! + 1,
      before[2],
    ]);
  });

  it("«отметить соответствующие силе удара последствие или маркер стресса»: a hit of 4 on 2 boxes — Elf's player chooses box 2 + mild", async () => {
    const hit = await app.run(GM, { type: "stress.hit", character: "Elf", shifts: 4 });
    const flowId = hit.result.replyIsPanelOf!;
    expect(replyText(hit)).toContain(
      `<@${OTHER.id}>: choose how to take it — Physical stress (3 ways, cheapest first)`,
    );
    const options = selectOptions(hit);
    expect(options.map((o) => o.label)).toEqual(["stress box 2 + Mild (2)", "Moderate (4)", "Severe (6)"]);
    // Someone else's player may not choose for Elf.
    expect((await app.refused(PLAYER, { type: "fate.absorb", flowId, option: options[0]!.value })).code).toBe(
      "errors.notYourCharacter",
    );
    const chosen = await app.run(OTHER, { type: "fate.absorb", flowId, option: options[0]!.value });
    expect(replyText(chosen)).toContain("Elf takes a hit of 4 shifts: stress box 2, Mild (2)");
    expect(replyText(chosen)).toContain("Name the Mild (2) consequence");
    const elf = await app.db.character.findFirstOrThrow({ where: { name: "Elf" } });
    const sheet = elf.sheet as {
      stress: { physical: { boxes: boolean[] } };
      consequences: { id: string; taken: boolean }[];
    };
    expect(sheet.stress.physical.boxes).toEqual([false, true]);
    expect(sheet.consequences.find((s) => s.id === "mild")?.taken).toBe(true);
    // Applied once: the same choice again is refused (the hit's flow is closed).
    expect((await app.refused(OTHER, { type: "fate.absorb", flowId, option: options[0]!.value })).code).toBe(
      "errors.flow.closed",
    );
    await app.run(OTHER, {
      type: "consequence.add",
      character: "Elf",
      severity: "mild",
      name: "Twisted ankle",
    });
    expect(replyText(await app.run(OTHER, { type: "aspect.list" }))).toContain("Twisted ankle");
    await app.run(GM, { type: "stress.clear" });
    await app.run(GM, { type: "consequence.clear", character: "Elf", severity: "mild" });
  });

  it("an attack waits for the target's defence, then the hit (with WR/AR) is applied once", async () => {
    app.useDice(scriptedDice([1, 1, 3, 3]));
    const attack = await app.run(PLAYER, {
      type: "check",
      skill: "fight",
      action: "attack",
      target: "Bandit",
    });
    const attackId = attack.result.replyIsPanelOf!;
    expect(replyText(attack)).toContain("Bandit");
    expect(
      (await app.refused(OTHER, { type: "fate.defend", flowId: attackId, skill: "athletics" })).code,
    ).toBe("errors.notYourCharacter");
    app.useDice(scriptedDice([3, 3, 3, 3]));
    const defence = await app.run(GM, { type: "fate.defend", flowId: attackId, skill: "athletics" });
    expect(replyText(defence)).toContain("Defend");
    const attackFlow = await app.db.flow.findUniqueOrThrow({ where: { id: attackId } });
    const attackState = attackFlow.state as unknown as CheckFlowState;
    // Fight +5 with +2 on the dice = 7 against the Bandit's Mediocre 0: 7 shifts, +1 WR −0 AR.
    expect(attackState.check.opposition).toMatchObject({ kind: "active", value: 0 });
    // The attacker's player may not apply it: Bandit's side (the GM) does, and chooses how to take it.
    expect((await app.refused(PLAYER, { type: "fate.apply-hit", flowId: attackId })).code).toBe(
      "errors.fate.applyIsForTarget",
    );
    const applied = await app.run(GM, { type: "fate.apply-hit", flowId: attackId });
    expect(replyText(applied)).toContain("A hit of 8 shifts on Bandit from Grukh");
    const options = selectOptions(applied);
    expect(options.map((o) => o.label)).toEqual([
      "stress box 2 + Severe (6)",
      "stress box 2 + Mild (2) + Moderate (4)",
      "Mild (2) + Severe (6)",
      "Moderate (4) + Severe (6)",
    ]);
    expect((await app.refused(GM, { type: "fate.apply-hit", flowId: attackId })).code).toBe(
      "errors.flow.closed",
    );
    const taken = await app.run(GM, {
      type: "fate.absorb",
      flowId: applied.result.replyIsPanelOf!,
      option: options[0]!.value,
    });
    expect(replyText(taken)).toContain("Bandit takes a hit of 8 shifts: stress box 2, Severe (6)");
  });

  it("a conflict: hits count consequences, conceding gives 1 FP + 1 per consequence, and state survives any restart", async () => {
    await app.run(GM, { type: "stress.clear" });
    await app
      .run(GM, { type: "consequence.clear", character: "Bandit", severity: "mild" })
      .catch(() => undefined);
    const started = await app.run(GM, { type: "conflict.start", title: "Ambush at the ford" });
    expect(replyText(started)).toContain("Ambush at the ford");
    // Grukh: 4 boxes (Physique +3). Two hits of 6, each taken with a consequence.
    for (const option of ["-|severe", "b1|moderate"]) {
      const hit = await app.run(GM, { type: "stress.hit", character: "Grukh", shifts: 6 });
      await app.run(PLAYER, { type: "fate.absorb", flowId: hit.result.replyIsPanelOf!, option });
    }
    const flow = await app.db.flow.findFirstOrThrow({ where: { kind: "fate.conflict", status: "open" } });
    expect(
      (flow.state as { conflict: { participants: { consequencesTaken: number }[] } }).conflict.participants[0]
        ?.consequencesTaken,
    ).toBe(2);
    const before = await fp("Grukh");
    // As after a restart: a brand-new registry and dependencies over the same database.
    const restarted = { db: app.db, dice: scriptedDice([]) };
    const conceded = await execute(restarted, createRegistry(), invocation(PLAYER), {
      type: "conflict.concede",
    });
    expect(replyText(conceded)).toContain("3");
    expect(await fp("Grukh")).toBe(before + 3);
    expect((await app.refused(PLAYER, { type: "conflict.concede" })).code).toBe("errors.fate.outOfConflict");
    await app.run(GM, { type: "conflict.end" });
    const grukh = await app.db.character.findFirstOrThrow({ where: { name: "Grukh" } });
    expect(
      (grukh.sheet as { stress: { physical: { boxes: boolean[] } } }).stress.physical.boxes.every((b) => !b),
    ).toBe(true);
    expect((await app.refused(GM, { type: "conflict.end" })).code).toBe("errors.fate.noConflict");
  });

  it("a contest: a lone success with style wins 2 victories, a tie is a twist, first to 3 wins", async () => {
    const started = await app.run(GM, {
      type: "contest.start",
      first: "Grukh",
      second: "Elf",
      title: "Race",
    });
    const flowId = started.result.replyIsPanelOf!;
    // Grukh: athletics +4, Elf: athletics +3.
    app.useDice(scriptedDice([1, 1, 3, 3]));
    await app.run(PLAYER, { type: "contest.roll", skill: "athletics" });
    expect((await app.refused(PLAYER, { type: "contest.roll", skill: "athletics" })).code).toBe(
      "errors.fate.alreadyRolledExchange",
    );
    app.useDice(scriptedDice([3, 3, 3, 3]));
    await app.run(OTHER, { type: "contest.roll", skill: "athletics" });
    const first = await app.run(GM, { type: "contest.resolve" });
    expect(replyText(first)).toContain("Grukh wins the exchange: +2 victories");
    app.useDice(scriptedDice([3, 3, 3, 3, 1, 3, 3, 3]));
    await app.run(PLAYER, { type: "contest.roll", skill: "athletics", flowId });
    await app.run(OTHER, { type: "contest.roll", skill: "athletics", flowId });
    const tie = await app.run(OTHER, { type: "contest.resolve", flowId });
    expect(replyText(tie)).toContain("twist");
    app.useDice(scriptedDice([1, 3, 3, 3]));
    await app.run(PLAYER, { type: "contest.roll", skill: "athletics" });
    await app.run(OTHER, { type: "contest.roll", forfeit: true });
    const won = await app.run(GM, { type: "contest.resolve" });
    expect(replyText(won)).toContain("wins the contest");
    const flow = await app.db.flow.findUniqueOrThrow({ where: { id: flowId } });
    expect(flow.status).toBe("closed");
    const victories = Object.values(
      (flow.state as { contest: { victories: Record<string, number> } }).contest.victories,
    );
    expect(victories.sort()).toEqual([0, 3]);
  });

  it("an ULTIMATE disables that magic until the week refresh, which also tops fate points up (extras kept)", async () => {
    await app.run(OTHER, {
      type: "character.stunt",
      name: "Fire",
      text: "Fireballs",
      magic: true,
      ultimate: "Firestorm",
    });
    const used = await app.run(OTHER, { type: "character.ultimate", stunt: "fire" });
    expect(replyText(used)).toContain("FIRESTORM");
    expect((await app.refused(OTHER, { type: "character.ultimate", stunt: "Fire" })).code).toBe(
      "errors.fate.magicSpent",
    );
    await app.run(GM, { type: "fp.give", character: "Bandit", amount: 4 });
    const elfBefore = await fp("Elf");
    const banditBefore = await fp("Bandit");
    expect((await app.refused(PLAYER, { type: "fp.refresh" })).code).toBe("errors.gmOnly");
    const refreshed = await app.run(GM, { type: "fp.refresh" });
    expect(replyText(refreshed)).toContain("2");
    expect(await fp("Elf")).toBe(Math.max(elfBefore, 3));
    expect(await fp("Bandit")).toBe(banditBefore);
    await app.run(OTHER, { type: "character.ultimate", stunt: "Fire" });
    const table = await app.db.gameTable.findFirstOrThrow();
    expect((table.state as { fateWeek: number }).fateWeek).toBe(2);
  });

  it("factions: seven abilities rated +4 +3 +2 +1 +1, three aspects, fate points and three-box tracks", async () => {
    const created = await app.run(GM, {
      type: "faction.create",
      name: "Thieves' Guild",
      abilities: "espionage 4, Коммерция 3, popularity 2, art 1, military 1",
      aspects: "Shadows everywhere; Greedy; Old debts",
    });
    expect(replyText(created)).toContain("+4 Espionage · +3 Commerce · +2 Popularity");
    expect(
      (await app.refused(GM, { type: "faction.create", name: "Navy", abilities: "military 5" })).code,
    ).toBe("errors.fate.factionRatingInvalid");
    expect(
      (await app.refused(GM, { type: "faction.create", name: "Navy", aspects: "a; b; c; d" })).code,
    ).toBe("errors.fate.tooManyFactionAspects");
    expect((await app.refused(PLAYER, { type: "faction.fp", name: "Thieves' Guild", amount: 1 })).code).toBe(
      "errors.gmOnly",
    );
    await app.run(GM, { type: "faction.fp", name: "thieves' guild", amount: 1 });
    const hit = await app.run(GM, { type: "faction.hit", name: "Thieves' Guild", shifts: 2, track: "army" });
    expect(replyText(hit)).toContain("Army box 2");
    const shown = await app.run(PLAYER, { type: "faction.show", name: "Thieves' Guild" });
    expect(replyText(shown)).toContain("Army: ☐☒☐");
    expect((await app.refused(PLAYER, { type: "faction.show", name: "Navy" })).code).toBe(
      "errors.fate.unknownFaction",
    );
  });

  it("Fate commands on another game's table explain which game they belong to", async () => {
    const channelId = "300000000000000777";
    await app.run(GM, { type: "table.setup", system: "mountain-witch" }, { channelId });
    expect((await app.refused(GM, { type: "check", skill: "fight" }, { channelId })).code).toBe(
      "errors.wrongSystem",
    );
  });
});
