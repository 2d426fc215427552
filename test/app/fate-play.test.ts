import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commands } from "../../commands/fate/index.js";
import { scriptedDice } from "../../src/rules/dice.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "430000000000000001", name: "Gail" };
const ILSA = { id: "430000000000000002", name: "Ivan", locale: "ru" };
const WREN = { id: "430000000000000003", name: "Wendy" };

/** d3 faces: 1 → +, 2 → −, 3 → 0. */
const ZERO = [3, 3, 3, 3];
const PLUS_ONE = [1, 3, 3, 3];

type Executed = Awaited<ReturnType<AppHarness["run"]>>;

function selectOptions(executed: Executed) {
  for (const c of (executed.result.reply?.rows ?? []).flat()) if (c.kind === "select") return c.options;
  throw new Error(`no select on: ${replyText(executed)}`);
}

function buttons(executed: Executed) {
  return (executed.result.reply?.rows ?? []).flat().filter((c) => c.kind === "button");
}

describe("Fate: every flow finishes, one invoke path (app layer, real PostgreSQL)", () => {
  let app: AppHarness;
  const fp = async (name: string) =>
    (await app.db.character.findFirstOrThrow({ where: { name } })).fatePoints;
  const aspect = (name: string) => app.db.aspect.findFirst({ where: { name } });
  const factions = async () =>
    (
      (await app.db.gameTable.findFirstOrThrow()).state as {
        factions: Array<{
          name: string;
          stress: Record<string, boolean[]>;
          consequences: Array<{ id: string; taken: boolean; aspect: { name: string } | null }>;
        }>;
      }
    ).factions;

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "fate" });
    await app.run(ILSA, { type: "character.create", name: "Ilsa" });
    await app.run(WREN, { type: "character.create", name: "Wren" });
    await app.run(GM, { type: "character.create", name: "Captain", kind: "npc" });
    await app.run(ILSA, { type: "character.skill", ranks: "athletics 4, notice 3, lore 3, stealth 2" });
    await app.run(WREN, { type: "character.skill", ranks: "fight 4, will 3, physique 3" });
  });
  afterAll(async () => app.close());

  describe("1. «вы или ваши союзники можете один раз призвать этот аспект бесплатно»: every invoke knows sides", () => {
    it("on the challenge panel an ally spends the side's free invoke, not a fate point; the menu counts only those", async () => {
      // Ilsa creates an advantage on the scene: one free invoke for her and her allies.
      app.useDice(scriptedDice(PLUS_ONE));
      const rolled = await app.run(ILSA, {
        type: "check",
        skill: "notice",
        action: "advantage",
        aspect: "High ground",
        vs: 2,
      });
      await app.run(ILSA, { type: "fate.claim-advantage", flowId: rolled.result.replyIsPanelOf! });
      expect((await aspect("High ground"))?.freeInvokes).toBe(1);
      // The GM's own advantage: its free invoke is the GM's side's.
      await app.run(GM, { type: "aspect.add", name: "Captain's trick", kind: "boost" });
      await app.db.aspect.updateMany({
        where: { name: "Captain's trick" },
        data: { freeInvokeHolders: [{ holderId: "999", side: "npc" }] },
      });

      const started = await app.run(GM, {
        type: "fate-challenge.start",
        title: "Escape",
        tasks: "Fight, Lore",
      });
      const flowId = started.result.replyIsPanelOf!;
      app.useDice(scriptedDice(ZERO));
      await app.run(WREN, { type: "fate-challenge.roll", task: "1", skill: "fight" });
      const menu = await app.run(WREN, { type: "fate-challenge.invoke-menu", flowId, mode: "plus2" });
      const options = selectOptions(menu);
      // The side's free invoke is counted and first; the GM's boost counts none for Wren.
      expect(options[0]?.label).toBe("High ground");
      expect(options[0]?.description).toContain("1");
      const trick = options.find((o) => o.label === "Captain's trick");
      expect(trick?.description).toContain("0");

      const before = await fp("Wren");
      const used = await app.run(WREN, {
        type: "fate-challenge.invoke",
        flowId,
        mode: "plus2",
        task: 0,
        aspect: "High ground",
      });
      expect(replyText(used)).toContain("free invoke");
      expect(await fp("Wren")).toBe(before);
      expect((await aspect("High ground"))?.freeInvokes).toBe(0);
      // The other side's boost is not Wren's: refused, nothing spent.
      const refused = await app.refused(WREN, {
        type: "fate-challenge.invoke",
        flowId,
        mode: "plus2",
        task: 0,
        aspect: "Captain's trick",
      });
      expect(refused.code).toBe("errors.fate.freeInvokeNotYours");
      expect(await fp("Wren")).toBe(before);
      expect((await aspect("Captain's trick"))?.freeInvokes).toBe(1);
    });

    it("an ally's boost is usable on the challenge panel (a boost takes no fate point)", async () => {
      const ilsa = await app.db.character.findFirstOrThrow({ where: { name: "Ilsa" } });
      await app.run(GM, { type: "aspect.add", name: "Ilsa's opening", kind: "boost" });
      await app.db.aspect.updateMany({
        where: { name: "Ilsa's opening" },
        data: { freeInvokeHolders: [{ holderId: String(ilsa.id), side: "pc" }] },
      });
      const flow = await app.db.flow.findFirstOrThrow({ where: { kind: "fate.challenge", status: "open" } });
      const before = await fp("Wren");
      await app.run(WREN, {
        type: "fate-challenge.invoke",
        flowId: flow.id,
        mode: "plus2",
        task: 0,
        aspect: "Ilsa's opening",
      });
      expect(await fp("Wren")).toBe(before);
      // A boost is gone once used.
      expect(await aspect("Ilsa's opening")).toMatchObject({ freeInvokes: 0, removedAt: expect.any(Date) });
      await app.run(GM, { type: "fate-challenge.end" });
    });

    it("a faction check and /invoke take the same path: another side's free invoke is refused, nothing spent", async () => {
      await app.run(GM, { type: "faction.create", name: "Harbour Guild", abilities: "commerce 4" });
      await app.run(GM, { type: "faction.fp", name: "Harbour Guild", amount: 1 });
      app.useDice(scriptedDice(ZERO));
      const check = await app.run(GM, {
        type: "faction.check",
        faction: "Harbour Guild",
        ability: "commerce",
        vs: 2,
      });
      const flowId = check.result.replyIsPanelOf!;
      const refused = await app.refused(GM, {
        type: "faction.invoke",
        flowId,
        mode: "plus2",
        aspect: "Captain's trick",
      });
      expect(refused.code).toBe("errors.fate.freeInvokeNotYours");
      expect((await factions()).length).toBe(1);
      app.useDice(scriptedDice(ZERO));
      await app.run(ILSA, { type: "check", skill: "athletics", vs: 2 });
      const before = await fp("Ilsa");
      expect((await app.refused(ILSA, { type: "invoke", aspect: "Captain's trick" })).code).toBe(
        "errors.fate.freeInvokeNotYours",
      );
      expect(await fp("Ilsa")).toBe(before);
    });
  });

  describe("4. a hostile invoke pays the owner of the aspect", () => {
    it("an aspect of a character of the other side, invoked with a fate point: that character gets the point at once", async () => {
      await app.run(GM, { type: "aspect.add", name: "Slow to turn", character: "Captain", kind: "flaw" });
      await app.run(ILSA, { type: "aspect.add", name: "Quick hands", character: "Ilsa", kind: "talent" });
      app.useDice(scriptedDice(ZERO));
      const check = await app.run(WREN, { type: "check", skill: "fight", vs: 3 });
      const flowId = check.result.replyIsPanelOf!;
      const [wren, captain, ilsa] = [await fp("Wren"), await fp("Captain"), await fp("Ilsa")];
      const hostile = await app.run(WREN, { type: "invoke", aspect: "Slow to turn", flowId });
      expect(await fp("Wren")).toBe(wren - 1);
      expect(await fp("Captain")).toBe(captain + 1);
      const posted = (hostile.result.effects ?? []).filter((e) => e.kind === "post");
      expect(posted.map((e) => (e.kind === "post" ? e.view.content : ""))).toEqual([
        `«Slow to turn» is Captain's: Captain gets the fate point paid for it (${captain} → ${captain + 1}).`,
      ]);
      const log = await app.db.logEntry.findFirstOrThrow({ where: { action: "fate.invoke.hostile" } });
      expect(log.after).toEqual({ fatePoints: captain + 1 });
      // An ally's aspect pays nobody.
      await app.run(WREN, { type: "invoke", aspect: "Quick hands", flowId });
      expect(await fp("Ilsa")).toBe(ilsa);
      expect(await fp("Wren")).toBe(wren - 2);
    });
  });

  describe("9. «…достигаете цели и к тому же получаете усиление»: overcome with style makes the boost", () => {
    it("the panel offers the boost; taking it makes a boost for the roller's side and settles the check", async () => {
      app.useDice(scriptedDice(ZERO));
      const rolled = await app.run(ILSA, { type: "check", skill: "athletics", vs: 1 });
      const take = buttons(rolled).find((b) => b.intent.type === "fate.claim-advantage");
      expect(take?.label).toBeDefined();
      const flowId = rolled.result.replyIsPanelOf!;
      expect((await app.refused(WREN, { type: "fate.claim-advantage", flowId })).code).toBe(
        "errors.notYourCharacter",
      );
      const taken = await app.run(ILSA, { type: "fate.claim-advantage", flowId });
      expect(replyText(taken)).toMatch(/«.+»/);
      const ilsa = await app.db.character.findFirstOrThrow({ where: { name: "Ilsa" } });
      const boost = await app.db.aspect.findFirstOrThrow({
        where: { kind: "boost", removedAt: null },
        orderBy: { id: "desc" },
      });
      expect(boost.freeInvokeHolders).toEqual([{ holderId: String(ilsa.id), side: "pc" }]);
      expect((await app.db.flow.findUniqueOrThrow({ where: { id: flowId } })).status).toBe("closed");
      // A plain success offers none.
      app.useDice(scriptedDice(ZERO));
      const plain = await app.run(ILSA, { type: "check", skill: "athletics", vs: 3 });
      expect(buttons(plain).some((b) => b.intent.type === "fate.claim-advantage")).toBe(false);
      expect(
        (await app.refused(ILSA, { type: "fate.claim-advantage", flowId: plain.result.replyIsPanelOf! }))
          .code,
      ).toBe("errors.fate.noOvercomeBoost");
    });
  });

  describe("11. armour and a player's only character", () => {
    it("armour reduces a physical hit, not a mental one (Will); a character aspect goes on the player's only character", async () => {
      await app.run(GM, { type: "character.ratings", ar: 2, character: "Captain" });
      const attack = async (skill: string) => {
        app.useDice(scriptedDice([...ZERO, ...ZERO]));
        const rolled = await app.run(WREN, { type: "check", skill, action: "attack", target: "Captain" });
        const flowId = rolled.result.replyIsPanelOf!;
        await app.run(GM, { type: "fate.defend", flowId, skill: "athletics" });
        const applied = await app.run(GM, { type: "fate.apply-hit", flowId });
        const hitFlow = applied.result.replyIsPanelOf;
        if (hitFlow)
          await app.run(GM, { type: "fate.absorb", flowId: hitFlow, option: "-|severe" }).catch(() => null);
        await app.run(GM, { type: "stress.clear", character: "Captain" });
        await app
          .run(GM, { type: "consequence.clear", character: "Captain", severity: "severe" })
          .catch(() => null);
        return replyText(applied);
      };
      expect(await attack("will")).toContain("3 shifts");
      expect(await attack("fight")).toContain("2 shifts");
      // No `character:` needed for the player's only character.
      await app.run(WREN, { type: "aspect.add", name: "Stubborn as a mule", kind: "flaw" });
      const wren = await app.db.character.findFirstOrThrow({ where: { name: "Wren" } });
      expect((await aspect("Stubborn as a mule"))?.characterId).toBe(wren.id);
      // The GM with two characters still names one.
      await app.run(GM, { type: "character.create", name: "Innkeeper", kind: "npc" });
      expect((await app.refused(GM, { type: "aspect.add", name: "Greedy", kind: "flaw" })).code).toBe(
        "errors.fate.characterAspectNeedsCharacter",
      );
    });
  });

  describe("12. an attack nobody settled blocks nobody", () => {
    it("an attack whose defence wins settles itself: the target may leave the conflict at once", async () => {
      await app.run(GM, { type: "conflict.start", title: "Docks" });
      app.useDice(scriptedDice([...ZERO, ...ZERO]));
      const rolled = await app.run(GM, {
        type: "check",
        skill: "fight",
        action: "attack",
        target: "Wren",
        character: "Captain",
      });
      const flowId = rolled.result.replyIsPanelOf!;
      const defended = await app.run(WREN, { type: "fate.defend", flowId, skill: "fight" });
      expect(replyText(defended)).toContain("attack is settled");
      expect(replyText(defended)).toContain("Wren gets a boost");
      expect((await app.db.flow.findUniqueOrThrow({ where: { id: flowId } })).status).toBe("closed");
      const left = await app.run(WREN, { type: "conflict.leave" });
      expect(replyText(left)).toContain("Wren leaves the conflict");
      await app.run(GM, { type: "conflict.end" });
    });
  });

  describe("14. `/invoke` offers no mode it always refuses", () => {
    it("its modes are +2 and a reroll; +2 to a passive opposition is the fate-point spend", async () => {
      const invoke = commands.find((c) => c.spec.name === "invoke")!;
      const mode = (invoke.spec.options ?? []).find((o) => o.name === "mode") as { choices?: string[] };
      expect(mode.choices).toEqual(["plus2", "reroll"]);
    });
  });

  describe("the end of the scene: boosts and unanswered compels expire, as in Fate Core", () => {
    it("a boost and a compel of scene 1 are gone in scene 2; the compeller's points come back", async () => {
      await app.run(GM, { type: "aspect.add", name: "Sudden gust", kind: "boost" });
      await app.run(ILSA, { type: "aspect.add", name: "Hot-headed", character: "Ilsa", kind: "flaw" });
      const before = await fp("Wren");
      const offered = await app.run(WREN, {
        type: "compel",
        target: "Ilsa",
        aspect: "Hot-headed",
        points: 1,
      });
      expect(await fp("Wren")).toBe(before - 1);
      const ended = await app.run(GM, { type: "stress.clear" });
      expect(replyText(ended)).toContain("«Sudden gust»");
      expect(await aspect("Sudden gust")).toMatchObject({ removedAt: expect.any(Date) });
      expect(await fp("Wren")).toBe(before);
      const flowId = offered.result.replyIsPanelOf!;
      expect((await app.refused(ILSA, { type: "compel.accept", flowId })).code).toBe("errors.flow.closed");
    });
  });

  describe("13. the invoke select holds 25: the relevant ones first, a search for the rest", () => {
    it("with 30 scene aspects, the one with a free invoke for the roller comes first, and the menu points to the search", async () => {
      for (let i = 1; i <= 30; i += 1) await app.run(GM, { type: "aspect.add", name: `Crowd ${i}` });
      await app.run(GM, { type: "aspect.add", name: "Crowd 31", invokes: 1 });
      app.useDice(scriptedDice(ZERO));
      const check = await app.run(ILSA, { type: "check", skill: "athletics", vs: 5 });
      const menu = await app.run(ILSA, {
        type: "fate.invoke-menu",
        flowId: check.result.replyIsPanelOf!,
        mode: "plus2",
      });
      const options = selectOptions(menu);
      expect(options).toHaveLength(25);
      expect(options[0]?.label).toBe("Crowd 31");
      expect(replyText(menu)).toContain("не в списке");
      await app.run(GM, { type: "stress.clear" });
    });
  });

  describe("2. naming a consequence is its own step, never a second hit", () => {
    it("a faction: the hint and the button name the slot the hit took; no new hit, no second consequence", async () => {
      await app.run(GM, { type: "faction.create", name: "Port", abilities: "military 4" });
      await app.run(GM, { type: "faction.hit", name: "Port", shifts: 3, track: "army" });
      const hit = await app.run(GM, { type: "faction.hit", name: "Port", shifts: 4, track: "politics" });
      const text = replyText(hit);
      expect(text).not.toContain("/faction hit");
      expect(text).toContain("/faction consequence");
      const button = buttons(hit).find((b) => b.intent.type === "faction.consequence-form");
      expect(button).toBeDefined();
      const port = () => factions().then((all) => all.find((f) => f.name === "Port")!);
      const harmBefore = await port();
      const form = await app.run(GM, button!.intent as never);
      expect(form.result.modal?.intent.type).toBe("faction.consequence");
      const named = await app.run(GM, { ...form.result.modal!.intent, consequence: "Бунт в порту" } as never);
      expect(replyText(named)).toContain("«Бунт в порту»");
      const after = await port();
      // The same boxes; the same slots taken; one of them now named.
      expect(after.stress).toEqual(harmBefore.stress);
      expect(after.consequences.map((c) => c.taken)).toEqual(harmBefore.consequences.map((c) => c.taken));
      expect(after.consequences.filter((c) => c.aspect?.name === "Бунт в порту")).toHaveLength(1);
      // Naming again: nothing waits for a name.
      expect(
        (await app.refused(GM, { type: "faction.consequence", name: "Port", consequence: "Again" })).code,
      ).toBe("errors.fate.factionNoConsequenceToName");
      expect(await port()).toEqual(after);
    });

    it("5. a character: naming fills the slot the hit took; another severity is refused and takes no extra slot", async () => {
      app.useDice(scriptedDice([...ZERO, ...ZERO]));
      await app.run(GM, { type: "stress.hit", character: "Wren", shifts: 4 });
      const sheet = async () =>
        (
          (await app.db.character.findFirstOrThrow({ where: { name: "Wren" } })).sheet as {
            consequences: Array<{ id: string; taken: boolean; aspect: { name: string } | null }>;
          }
        ).consequences;
      // Take the hit on the moderate slot if a choice is offered.
      const hitFlow = await app.db.flow.findFirst({ where: { kind: "fate.hit", status: "open" } });
      if (hitFlow) await app.run(WREN, { type: "fate.absorb", flowId: hitFlow.id, option: "-|moderate" });
      const taken = (await sheet()).filter((s) => s.taken);
      expect(taken).toHaveLength(1);
      const other = taken[0]!.id === "mild" ? "severe" : "mild";
      const refused = await app.refused(WREN, {
        type: "consequence.add",
        character: "Wren",
        severity: other as "mild",
        name: "Extra",
      });
      expect(refused.code).toBe("errors.fate.nameTheTakenSlot");
      expect((await sheet()).filter((s) => s.taken)).toHaveLength(1);
      await app.run(WREN, { type: "consequence.add", character: "Wren", name: "Cracked rib" });
      const now = (await sheet()).filter((s) => s.taken);
      expect(now).toHaveLength(1);
      expect(now[0]).toMatchObject({ id: taken[0]!.id, aspect: { name: "Cracked rib" } });
      await app.run(GM, { type: "consequence.clear", character: "Wren", severity: taken[0]!.id as "mild" });
    });
  });

  describe("3. a contest can be ended: `/contest end`, the end of the scene, and when it is decided", () => {
    it("a stalled contest: the GM ends it, its open rolls take no more invokes, a new contest may start", async () => {
      await app.run(GM, { type: "contest.start", first: "Ilsa", second: "Wren", title: "Debate" });
      app.useDice(scriptedDice(ZERO));
      const roll = await app.run(ILSA, { type: "contest.roll", skill: "lore" });
      const rollId = roll.result.replyIsPanelOf!;
      expect((await app.refused(GM, { type: "contest.start", first: "Ilsa", second: "Wren" })).code).toBe(
        "errors.fate.contestOpen",
      );
      expect((await app.refused(ILSA, { type: "contest.end" })).code).toBe("errors.gmOnly");
      const ended = await app.run(GM, { type: "contest.end" });
      expect(replyText(ended)).toContain("undecided");
      expect((await app.db.flow.findUniqueOrThrow({ where: { id: rollId } })).status).toBe("closed");
      const before = await fp("Ilsa");
      expect((await app.refused(ILSA, { type: "invoke", aspect: "High ground", check: rollId })).code).toBe(
        "errors.flow.closed",
      );
      expect(await fp("Ilsa")).toBe(before);
      await app.run(GM, { type: "contest.start", first: "Ilsa", second: "Wren", title: "Race" });
    });

    it("the end of the scene ends the contest and closes its rolls", async () => {
      app.useDice(scriptedDice(ZERO));
      const roll = await app.run(WREN, { type: "contest.roll", skill: "fight" });
      await app.run(GM, { type: "stress.clear" });
      expect(
        (await app.db.flow.findUniqueOrThrow({ where: { id: roll.result.replyIsPanelOf! } })).status,
      ).toBe("closed");
      expect((await app.refused(GM, { type: "contest.show" })).code).toBe("errors.fate.noContest");
    });

    it("8. decided after 3 exchanges: the title says exchange 3, and no roll of it stays open", async () => {
      const started = await app.run(GM, {
        type: "contest.start",
        first: "Ilsa",
        second: "Wren",
        title: "Sprint",
      });
      const flowId = started.result.replyIsPanelOf!;
      let last: Executed | null = null;
      for (let i = 0; i < 3; i++) {
        app.useDice(scriptedDice([...PLUS_ONE, ...ZERO]));
        // Lore +3 +1 against Will +3: one victory an exchange.
        await app.run(ILSA, { type: "contest.roll", skill: "lore", flowId });
        await app.run(WREN, { type: "contest.roll", skill: "will", flowId });
        last = await app.run(GM, { type: "contest.resolve", flowId });
      }
      expect(replyText(last!)).toContain("wins the contest");
      expect(replyText(last!)).toContain("exchange 3");
      expect(replyText(last!)).not.toContain("exchange 4");
      const open = await app.db.flow.findMany({ where: { kind: "fate.check", status: "open" } });
      expect(
        open.filter((f) => (f.state as { contestFlowId: number | null }).contestFlowId === flowId),
      ).toEqual([]);
    });
  });

  describe("10. the GM's characters in a conflict: those of the scene, not every NPC at the table", () => {
    it("after the scene's end, only the NPC who acts joins; the GM adds another with /conflict join", async () => {
      await app.run(GM, { type: "character.create", name: "Barkeep", kind: "npc" });
      await app.run(GM, { type: "stress.clear" });
      app.useDice(scriptedDice(ZERO));
      await app.run(GM, { type: "check", skill: "fight", character: "Captain", vs: 1 });
      const started = await app.run(GM, { type: "conflict.start", title: "Tavern" });
      const conflict = await app.db.flow.findUniqueOrThrow({ where: { id: started.result.replyIsPanelOf! } });
      const names = Object.values((conflict.state as { names: Record<string, string> }).names);
      expect(names).toContain("Captain");
      expect(names).toContain("Ilsa");
      expect(names).not.toContain("Barkeep");
      const joined = await app.run(GM, { type: "conflict.join", character: "Barkeep" });
      expect(replyText(joined)).toContain("Barkeep");
      await app.run(GM, { type: "conflict.end" });
    });
  });

  describe("language", () => {
    it("a compel by the GM reads “The GM compels …”, with a capital", async () => {
      const offered = await app.run(GM, {
        type: "compel",
        target: "Wren",
        aspect: "Stubborn as a mule",
        points: 1,
      });
      expect(replyText(offered)).toContain("The GM compels **Wren**");
      await app.run(WREN, { type: "compel.accept", flowId: offered.result.replyIsPanelOf! });
    });
  });
});
