import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompelFlowState } from "../../src/app/fate/compel.js";
import type { Intent } from "../../src/app/intent.js";
import { scriptedDice } from "../../src/rules/dice.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "420000000000000001", name: "Gail" };
const PLAYER = { id: "420000000000000002", name: "Ilsa's player", locale: "ru" };
const OTHER = { id: "420000000000000003", name: "Olga" };

/** d3 faces: 1 → +, 2 → −, 3 → 0. */
const PLUS = 1;
const MINUS = 2;
const ZERO = 3;

describe("Fate factions, challenges, compels and fate points spent (app layer, real PostgreSQL)", () => {
  let app: AppHarness;
  const fp = async (name: string) =>
    (await app.db.character.findFirstOrThrow({ where: { name } })).fatePoints;
  const factions = async () =>
    ((await app.db.gameTable.findFirstOrThrow()).state as { factions: Array<Record<string, unknown>> })
      .factions;
  const snapshot = async () => ({
    characters: await app.db.character.findMany({ orderBy: { id: "asc" } }),
    flows: await app.db.flow.findMany({ orderBy: { id: "asc" } }),
    table: await app.db.gameTable.findFirstOrThrow(),
  });

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "fate" });
    await app.run(PLAYER, { type: "character.create", name: "Ilsa" });
    await app.run(OTHER, { type: "character.create", name: "Wren" });
    await app.run(GM, { type: "character.create", name: "Captain", kind: "npc" });
    await app.run(PLAYER, { type: "character.skill", ranks: "athletics 4, stealth 3, lore 3, notice 2" });
    await app.run(OTHER, { type: "character.skill", ranks: "fight 4, will 3" });
    await app.run(PLAYER, { type: "aspect.add", name: "Never backs down", character: "Ilsa", kind: "flaw" });
    await app.run(PLAYER, {
      type: "character.stunt",
      name: "Shadow step",
      text: "Once per scene, for a fate point, vanish",
    });
  });
  afterAll(async () => app.close());

  describe("self-compels (docs/rules/fate.md §3.2: «можно делать Навязывания самому себе»)", () => {
    it("«навязывания самому себе» wait for the GM: no fate point changes hands before the GM agrees", async () => {
      expect(await fp("Ilsa")).toBe(3);
      const offered = await app.run(PLAYER, {
        type: "compel",
        target: "Ilsa",
        aspect: "Never backs down",
        points: 5,
      });
      const flowId = offered.result.replyIsPanelOf!;
      expect(replyText(offered)).toContain("Waiting for the GM");
      // The player cannot take the points herself, nor can another player agree.
      const before = await snapshot();
      expect((await app.refused(PLAYER, { type: "compel.accept", flowId })).code).toBe(
        "errors.fate.compelNeedsGm",
      );
      expect((await app.refused(PLAYER, { type: "compel.gm-agree", flowId })).code).toBe(
        "errors.fate.compelGmAgrees",
      );
      expect((await app.refused(OTHER, { type: "compel.gm-agree", flowId })).code).toBe(
        "errors.fate.compelGmAgrees",
      );
      expect(await snapshot()).toEqual(before);
      // Two clicks of the GM at once pay once.
      const clicks = await Promise.allSettled([
        app.run(GM, { type: "compel.gm-agree", flowId }),
        app.run(GM, { type: "compel.gm-agree", flowId }),
      ]);
      expect(clicks.filter((c) => c.status === "fulfilled")).toHaveLength(1);
      expect(await fp("Ilsa")).toBe(8);
    });

    it("the GM may decline a self-compel: nothing is paid and the panel says so", async () => {
      const offered = await app.run(PLAYER, {
        type: "compel",
        target: "Ilsa",
        aspect: "Never backs down",
        points: 1,
      });
      const declined = await app.run(GM, {
        type: "compel.gm-decline",
        flowId: offered.result.replyIsPanelOf!,
      });
      expect(replyText(declined)).toContain("The GM declines");
      expect(await fp("Ilsa")).toBe(8);
    });

    it("a compel saved before self-compels waited (no needsGm) is answered as before", async () => {
      const offered = await app.run(GM, {
        type: "compel",
        target: "Ilsa",
        aspect: "Never backs down",
        points: 1,
      });
      const flowId = offered.result.replyIsPanelOf!;
      const flow = await app.db.flow.findUniqueOrThrow({ where: { id: flowId } });
      const { needsGm: _n, targetFactionId: _f, ...old } = flow.state as unknown as CompelFlowState;
      await app.db.flow.update({ where: { id: flowId }, data: { state: old as object, stateVersion: 1 } });
      await app.run(PLAYER, { type: "compel.accept", flowId });
      expect(await fp("Ilsa")).toBe(9);
      const saved = await app.db.flow.findUniqueOrThrow({ where: { id: flowId } });
      expect(saved.stateVersion).toBe(2);
      expect(saved.state).toMatchObject({ needsGm: false, targetFactionId: null, answer: "accepted" });
    });
  });

  describe("fate points spent by players (docs/rules/fate.md §3.2: «оплатить Трюк… установить факт повествования»)", () => {
    it("«оплатить Трюк»: a player pays one fate point for her own stunt, with a reason, logged", async () => {
      const before = await fp("Ilsa");
      const spent = await app.run(PLAYER, {
        type: "fp.spend",
        on: "stunt",
        stunt: "shadow step",
        reason: "slips past the guards",
      });
      expect(replyText(spent)).toContain(`«Shadow step»: slips past the guards (${before} → ${before - 1})`);
      expect(await fp("Ilsa")).toBe(before - 1);
      const log = await app.db.logEntry.findFirstOrThrow({
        where: { action: "fate.fp.spend" },
        orderBy: { id: "desc" },
      });
      expect(log.reason).toBe("slips past the guards");
      expect(log.before).toEqual({ fatePoints: before });
    });

    it("«установить факт повествования»: a story detail costs one; none left → refused, nothing changed", async () => {
      await app.run(OTHER, { type: "fp.spend", on: "detail", reason: "the ferryman owes me" });
      await app.run(OTHER, { type: "fp.spend", on: "detail", reason: "a spare key" });
      await app.run(OTHER, { type: "fp.spend", on: "detail", reason: "an old map" });
      expect(await fp("Wren")).toBe(0);
      const before = await snapshot();
      const refused = await app.refused(OTHER, { type: "fp.spend", on: "detail", reason: "one more" });
      expect(refused.code).toBe("errors.fate.notEnoughFatePoints");
      expect((await app.refused(PLAYER, { type: "fp.spend", on: "stunt", reason: "x" })).code).toBe(
        "errors.fate.spendNeedsStunt",
      );
      expect(
        (await app.refused(PLAYER, { type: "fp.spend", on: "stunt", stunt: "Flight", reason: "x" })).code,
      ).toBe("errors.fate.unknownStunt");
      expect(
        (await app.refused(OTHER, { type: "fp.spend", on: "detail", reason: "x", character: "Ilsa" })).code,
      ).toBe("errors.notYourCharacter");
      expect(await snapshot()).toEqual(before);
    });

    it("«усилить пассивное сопротивление на 2»: paid with a character's fate point, never from a GM bank", async () => {
      await app.run(GM, { type: "fp.give", character: "Wren", amount: 1 });
      await app.run(GM, { type: "aspect.add", name: "Crumbling walls" });
      app.useDice(scriptedDice([ZERO, ZERO, ZERO, ZERO]));
      await app.run(PLAYER, { type: "check", skill: "athletics", vs: 3 });
      // The old GM-bank path now points to the spend.
      expect(
        (await app.refused(GM, { type: "invoke", aspect: "Crumbling walls", mode: "passive" })).code,
      ).toBe("errors.fate.passiveIsSpend");
      expect(
        (
          await app.refused(PLAYER, {
            type: "fp.spend",
            on: "passive",
            aspect: "Crumbling walls",
            reason: "x",
          })
        ).code,
      ).toBe("errors.fate.passiveOwnCheck");
      const raised = await app.run(OTHER, {
        type: "fp.spend",
        on: "passive",
        aspect: "Crumbling walls",
        reason: "the wall gives way",
      });
      expect(replyText(raised)).toContain("(now Superb (+5); Ilsa has Great (+4))");
      expect(await fp("Wren")).toBe(0);
    });

    it("the check panel's +2 button opens the form of that spend, and what the form sends spends it", async () => {
      await app.run(GM, { type: "fp.give", character: "Wren", amount: 1 });
      await app.run(GM, { type: "aspect.add", name: "Loose scree" });
      app.useDice(scriptedDice([ZERO, ZERO, ZERO, ZERO]));
      const checked = await app.run(PLAYER, { type: "check", skill: "athletics", vs: 2 });
      const button = (checked.result.reply?.rows ?? [])
        .flat()
        .find((c) => c.kind === "button" && c.intent.type === "fp.spend-form");
      expect(button).toBeDefined();
      const form = (await app.run(OTHER, (button as { intent: Intent }).intent)).result.modal!;
      expect(form.inputs.map((i) => i.field)).toEqual(["aspect", "reason"]);
      // The GM pays with a GM character, so the GM's form also asks which one.
      const gmForm = (await app.run(GM, { type: "fp.spend-form" })).result.modal!;
      expect(gmForm.inputs.map((i) => i.field)).toEqual(["aspect", "reason", "character"]);
      const before = await fp("Wren");
      const spent = await app.run(OTHER, { ...form.intent, aspect: "Loose scree", reason: "it slides" });
      expect(replyText(spent)).toContain("Loose scree");
      expect(await fp("Wren")).toBe(before - 1);
    });
  });

  describe("challenges (docs/rules/fate.md §3.4: «череда действий преодоления… навык, отличающийся от уже использованных»)", () => {
    it("a three-task challenge: each task one overcome with a different skill, results on one panel", async () => {
      expect(
        (await app.refused(PLAYER, { type: "fate-challenge.start", title: "x", tasks: "Athletics" })).code,
      ).toBe("errors.gmOnly");
      const started = await app.run(GM, {
        type: "fate-challenge.start",
        title: "Escape the burning archive",
        tasks: "Athletics, Stealth 3, Save the scrolls",
      });
      const panelFlow = started.result.replyIsPanelOf!;
      const text = replyText(started);
      expect(text).toContain("1. **Athletics** — difficulty Fair (+2)");
      expect(text).toContain("2. **Stealth** — difficulty Good (+3)");
      expect(text).toContain("3. **Save the scrolls** — difficulty Fair (+2)");
      expect(
        (await app.refused(GM, { type: "fate-challenge.start", title: "Again", tasks: "Lore" })).code,
      ).toBe("errors.fate.challengeOpen");

      app.useDice(scriptedDice([PLUS, ZERO, ZERO, ZERO]));
      const first = await app.run(PLAYER, {
        type: "fate-challenge.roll",
        task: "athletics",
        skill: "athletics",
      });
      // +1 dice + 4 Athletics = Superb (+5) against Fair (+2): +3, success with style.
      expect(replyText(first)).toContain("Superb (+5) → +3, **Success with style**");
      const before = await snapshot();
      expect(
        (await app.refused(OTHER, { type: "fate-challenge.roll", task: "2", skill: "Атлетика" })).code,
      ).toBe("errors.fate.skillUsedInChallenge");
      expect(
        (await app.refused(OTHER, { type: "fate-challenge.roll", task: "1", skill: "fight" })).code,
      ).toBe("errors.fate.challengeTaskDone");
      expect(
        (await app.refused(OTHER, { type: "fate-challenge.roll", task: "Swim", skill: "fight" })).code,
      ).toBe("errors.fate.unknownChallengeTask");
      expect(await snapshot()).toEqual(before);

      app.useDice(scriptedDice([MINUS, MINUS, ZERO, ZERO]));
      await app.run(PLAYER, { type: "fate-challenge.roll", task: "2", skill: "stealth" });
      app.useDice(scriptedDice([ZERO, ZERO, ZERO, PLUS]));
      const third = await app.run(OTHER, {
        type: "fate-challenge.roll",
        task: "Save the scrolls",
        skill: "will",
      });
      const panel = replyText(third);
      expect(panel).toContain("Wren, Will");
      expect(panel).toContain("Successes 1 · with style 1 · ties 0 · fails 1 · to roll 0");
      expect(panel).toContain("lean to **success**");
      // Ilsa invokes an aspect on her Stealth roll (a fail: −2 + 3 = 1 against Good) for +2.
      const fpBefore = await fp("Ilsa");
      expect(
        (
          await app.refused(OTHER, {
            type: "fate-challenge.invoke",
            flowId: panelFlow,
            mode: "plus2",
            task: 1,
            aspect: "Never backs down",
          })
        ).code,
      ).toBe("errors.notYourCharacter");
      const menu = await app.run(PLAYER, {
        type: "fate-challenge.invoke-menu",
        flowId: panelFlow,
        mode: "plus2",
      });
      expect(replyText(menu)).toContain("Stealth");
      const invoked = await app.run(PLAYER, {
        type: "fate-challenge.invoke",
        flowId: panelFlow,
        mode: "plus2",
        task: 1,
        aspect: "Never backs down",
      });
      expect(replyText(invoked)).toContain("now **Good (+3)**, Tie");
      expect(await fp("Ilsa")).toBe(fpBefore - 1);
      const ended = await app.run(GM, { type: "fate-challenge.end" });
      expect(replyText(ended)).toContain("2 successes, 0 fails, 1 tie, every task rolled");
      expect((await app.refused(PLAYER, { type: "fate-challenge.show" })).code).toBe(
        "errors.fate.noChallenge",
      );
    });
  });

  describe("races", () => {
    it("two rolls of one challenge task at the same moment: exactly one counts", async () => {
      await app.run(GM, { type: "fate-challenge.start", title: "Race", tasks: "Notice" });
      app.useDice(scriptedDice([ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO]));
      const results = await Promise.allSettled([
        app.run(PLAYER, { type: "fate-challenge.roll", task: "1", skill: "notice" }),
        app.run(OTHER, { type: "fate-challenge.roll", task: "1", skill: "fight" }),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const flow = await app.db.flow.findFirstOrThrow({ where: { kind: "fate.challenge", status: "open" } });
      expect((flow.state as { tasks: Array<{ roll: unknown }> }).tasks.filter((t) => t.roll)).toHaveLength(1);
      await app.run(GM, { type: "fate-challenge.end" });
    });

    it("two spends of the last fate point at the same moment: exactly one is paid", async () => {
      await app.run(GM, { type: "fp.give", character: "Wren", amount: 1 - (await fp("Wren")) });
      const results = await Promise.allSettled([
        app.run(OTHER, { type: "fp.spend", on: "detail", reason: "a" }),
        app.run(OTHER, { type: "fp.spend", on: "detail", reason: "b" }),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(await fp("Wren")).toBe(0);
    });
  });

  describe("factions (docs/rules/fate.md §3.5)", () => {
    it("«три стресс-трекера: Политика, Армия и Экономика… три деления», then consequences 2/4/6", async () => {
      await app.run(GM, {
        type: "faction.create",
        name: "Iron Legion",
        abilities: "military 4, resources 3, popularity 2, espionage 1, art 1",
        aspects: "Discipline above all; Old grudges; Too many borders",
        stunts: "Drill: +2 Military when defending a fort",
      });
      const hit = await app.run(GM, { type: "faction.hit", name: "Iron Legion", shifts: 3, track: "army" });
      expect(replyText(hit)).toContain("Army box 3");
      const second = await app.run(GM, {
        type: "faction.hit",
        name: "Iron Legion",
        shifts: 4,
        track: "army",
        consequence: "Broken vanguard",
      });
      // Box 3 is gone: box 2 + mild (2) is cheaper than the moderate (4).
      expect(replyText(second)).toContain("Army box 2 + Mild (2)");
      expect(replyText(second)).toContain("Consequence: «Broken vanguard»");
      const shown = replyText(await app.run(OTHER, { type: "faction.show", name: "Iron Legion" }));
      expect(shown).toContain("Politics: ☐☐☐");
      expect(shown).toContain("Army: ☐☒☒");
      expect(shown).toContain("Economy: ☐☐☐");
      expect(shown).toContain("Drill");
      const healed = await app.run(GM, { type: "faction.clear", name: "Iron Legion", severity: "mild" });
      expect(replyText(healed)).toContain("Iron Legion recovers: the Mild (2) consequence is gone");
      expect(replyText(healed)).toContain("Mild (2): —");
      expect(
        (await app.refused(GM, { type: "faction.clear", name: "Iron Legion", severity: "mild" })).code,
      ).toBe("errors.fate.factionConsequenceFree");
      const out = await app.run(GM, {
        type: "faction.hit",
        name: "Iron Legion",
        shifts: 20,
        track: "economy",
      });
      expect(replyText(out)).toContain("taken out");
    });

    it("the GM may take a faction's hit another way, while nothing else changed it", async () => {
      await app.run(GM, { type: "faction.create", name: "River Guild", abilities: "commerce 4" });
      const hit = await app.run(GM, { type: "faction.hit", name: "River Guild", shifts: 4, track: "army" });
      expect(replyText(hit)).toContain("Army box 2 + Mild (2)");
      expect(replyText(hit)).toContain("3 other ways");
      const flowId = hit.result.replyIsPanelOf!;
      expect((await app.refused(PLAYER, { type: "faction.hit-way", flowId, way: "-|moderate" })).code).toBe(
        "errors.gmOnly",
      );
      const other = await app.run(GM, { type: "faction.hit-way", flowId, way: "-|moderate" });
      expect(replyText(other)).toContain("River Guild takes a hit of 4 shifts on Army: Moderate (4)");
      expect(replyText(other)).toContain("Army: ☐☐☐");
      expect((await app.refused(GM, { type: "faction.hit-way", flowId, way: "b1|mild" })).code).toBe(
        "errors.flow.closed",
      );
      const next = await app.run(GM, {
        type: "faction.hit",
        name: "River Guild",
        shifts: 2,
        track: "politics",
      });
      await app.run(GM, { type: "faction.hit", name: "River Guild", shifts: 1, track: "economy" });
      const before = await snapshot();
      expect(
        (await app.refused(GM, { type: "faction.hit-way", flowId: next.result.replyIsPanelOf!, way: "b2|" }))
          .code,
      ).toBe("errors.fate.factionChangedSinceHit");
      expect(await snapshot()).toEqual(before);
    });

    it("«одно очко судьбы на сцену»: a new scene clears stress and gives 1 FP, unless a character passes one", async () => {
      await app.run(GM, { type: "faction.scene", name: "Iron Legion" });
      const wren = await fp("Wren");
      await app.run(GM, { type: "fp.give", character: "Wren", amount: 1 });
      const passed = await app.run(GM, { type: "faction.scene", name: "Iron Legion", from: "Wren" });
      expect(replyText(passed)).toContain(
        `Wren passes it a fate point (Wren: ${wren + 1} → ${wren}; Iron Legion: 1 → 2)`,
      );
      expect(await fp("Wren")).toBe(wren);
      const legion = (await factions()).find((f) => f.name === "Iron Legion")!;
      expect(legion.fatePoints).toBe(2);
      await app.run(GM, { type: "faction.fp", name: "Iron Legion", amount: -1 });
      expect(legion.stress).toEqual({
        politics: [false, false, false],
        army: [false, false, false],
        economy: [false, false, false],
      });
    });

    it("a faction check rolls 4d3 + the ability; the faction invokes its own aspect with its fate point", async () => {
      expect(
        (await app.refused(PLAYER, { type: "faction.check", faction: "Iron Legion", ability: "military" }))
          .code,
      ).toBe("errors.gmOnly");
      app.useDice(scriptedDice([PLUS, MINUS, ZERO, ZERO]));
      const rolled = await app.run(GM, {
        type: "faction.check",
        faction: "Iron Legion",
        ability: "Военная сила",
        vs: 5,
      });
      const flowId = rolled.result.replyIsPanelOf!;
      expect(replyText(rolled)).toContain("0 dice +4 Military = **Great (+4)**");
      expect(replyText(rolled)).toContain("Against difficulty Superb (+5): −1 → **Fail**");
      const legion = (await factions()).find((f) => f.name === "Iron Legion")! as { id: string };
      const invoked = await app.run(GM, {
        type: "faction.invoke",
        flowId,
        mode: "plus2",
        aspect: `f${legion.id}.a0`,
      });
      expect(replyText(invoked)).toContain(
        "Iron Legion invokes «Discipline above all» (+2 to the result, fate point)",
      );
      expect(replyText(invoked)).toContain("Fantastic (+6)");
      expect((await factions()).find((f) => f.name === "Iron Legion")!.fatePoints).toBe(0);
      const before = await snapshot();
      expect(
        (await app.refused(GM, { type: "faction.invoke", flowId, mode: "plus2", aspect: "Old grudges" }))
          .code,
      ).toBe("errors.fate.factionCannotInvoke");
      expect(await snapshot()).toEqual(before);
    });

    it("a character invokes a faction's aspect on her own check with /invoke, and a faction is compelled", async () => {
      app.useDice(scriptedDice([ZERO, ZERO, ZERO, ZERO]));
      await app.run(PLAYER, { type: "check", skill: "stealth", vs: 4 });
      const fpBefore = await fp("Ilsa");
      const invoked = await app.run(PLAYER, { type: "invoke", aspect: "Too many borders" });
      expect(replyText(invoked)).toContain("Too many borders");
      expect(await fp("Ilsa")).toBe(fpBefore - 1);
      const compelled = await app.run(GM, {
        type: "compel",
        target: "Iron Legion",
        aspect: "Old grudges",
        points: 1,
      });
      expect(
        (await app.refused(PLAYER, { type: "compel.accept", flowId: compelled.result.replyIsPanelOf! })).code,
      ).toBe("errors.fate.notCompelTarget");
      await app.run(GM, { type: "compel.accept", flowId: compelled.result.replyIsPanelOf! });
      expect((await factions()).find((f) => f.name === "Iron Legion")!.fatePoints).toBe(1);
    });

    it("a faction stored with the old two tracks loads: physical marks → Army, mental → Politics", async () => {
      const table = await app.db.gameTable.findFirstOrThrow();
      const state = table.state as { factions: Array<Record<string, unknown>> };
      const old = {
        id: "fold",
        name: "Old Guild",
        aspects: [],
        abilities: { commerce: 4 },
        stunts: [],
        fatePoints: 2,
        stress: {
          physical: { kind: "physical", boxes: [true, false] },
          mental: { kind: "mental", boxes: [false, true] },
        },
        consequences: [],
      };
      await app.db.gameTable.update({
        where: { id: table.id },
        data: { state: { ...state, factions: [...state.factions, old] } as object },
      });
      const shown = replyText(await app.run(GM, { type: "faction.show", name: "Old Guild" }));
      expect(shown).toContain("Army: ☒☐☐");
      expect(shown).toContain("Politics: ☐☒☐");
      const hit = await app.run(GM, { type: "faction.hit", name: "Old Guild", shifts: 1, track: "army" });
      expect(replyText(hit)).toContain("Army box 2");
    });
  });

  describe("play flow", () => {
    it("the sheet says when each consequence may clear; /consequence clear says when it is early", async () => {
      await app.run(GM, {
        type: "consequence.add",
        character: "Wren",
        severity: "mild",
        name: "Bruised ribs",
      });
      const sheet = replyText(await app.run(OTHER, { type: "character.show", name: "Wren" }));
      expect(sheet).toContain("Bruised ribs (clears after a full scene — not yet)");
      const early = await app.run(GM, { type: "consequence.clear", character: "Wren", severity: "mild" });
      expect(replyText(early)).toContain("⚠️ Early: it clears after a full scene");
      await app.run(GM, {
        type: "consequence.add",
        character: "Wren",
        severity: "mild",
        name: "Twisted ankle",
      });
      await app.run(GM, { type: "conflict.start", title: "Brawl" });
      await app.run(GM, { type: "conflict.end" });
      const after = replyText(await app.run(OTHER, { type: "character.show", name: "Wren" }));
      expect(after).toContain("Twisted ankle (clears after a full scene — may clear now)");
      const onTime = await app.run(GM, { type: "consequence.clear", character: "Wren", severity: "mild" });
      expect(replyText(onTime)).not.toContain("Early");
    });

    it("cosmetics: a GM character's header says so once; /roll 4d3 prints a true minus; no character in a contest", async () => {
      const npc = replyText(await app.run(GM, { type: "character.show", name: "Captain" }));
      expect(npc).toContain("GM character");
      expect(npc).not.toContain("GM character · GM character");
      app.useDice(scriptedDice([MINUS, ZERO, ZERO, ZERO]));
      const rolled = replyText(await app.run(OTHER, { type: "roll", expression: "4d3" }));
      expect(rolled).toContain("= **−1**");
      expect(rolled).not.toContain("**-1**");
      await app.run(GM, { type: "contest.start", first: "Ilsa", second: "Captain" });
      const refused = await app.refused(OTHER, { type: "contest.roll", skill: "fight" });
      expect(refused.code).toBe("errors.fate.noneOfYoursInContest");
    });
  });
});
