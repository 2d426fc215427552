import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { t } from "../../src/i18n/index.js";
import { scriptedDice } from "../../src/rules/dice.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";
import {
  chooseIntent,
  clickIntent,
  expectWithinDiscordLimits,
  optionLabel,
  optionValues,
} from "./beast-hunters-controls.js";

const GM = { id: "590000000000000001", name: "Gail" };
const ADA = { id: "590000000000000002", name: "Ada" };
const BO = { id: "590000000000000003", name: "Bo", locale: "ru" };
const HUNTER_CY = { id: "590000000000000004", name: "Cy" };
const CLICK = { source: { messageId: "990000000000000001", public: true } };

/** Wrong numbers, wrong people and dead ends found by playing whole adventures. */
describe("Beast Hunters: the right number for the right person, and no dead ends", () => {
  let app: AppHarness;
  const challenge = async () =>
    (
      await app.database.query<{ id: number; state: { challenge: { turn: string; status: string } } }>(
        "SELECT id, state FROM flow WHERE kind = 'bh.challenge' ORDER BY id DESC LIMIT 1",
      )
    )[0]!;
  const id = async (name: string) =>
    String((await app.db.character.findFirstOrThrow({ where: { name } })).id);
  const lastLog = async (action: string) =>
    (
      await app.database.query<{ actor_user_id: string; summary: { params: Record<string, unknown> } }>(
        "SELECT actor_user_id, summary FROM log_entry WHERE action = $1 ORDER BY id DESC LIMIT 1",
        [action],
      )
    )[0];
  const all = (executed: Awaited<ReturnType<AppHarness["run"]>>) =>
    `${replyText(executed)}\n${JSON.stringify(executed.result.effects ?? [])}`;

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "beast-hunters" });
    await app.run(ADA, { type: "character.create", name: "Ada" });
    await app.run(BO, { type: "character.create", name: "Бо" });
    await app.run(ADA, { type: "character.trait.set", name: "Strong", sphere: "physical", value: 4 });
    await app.run(ADA, { type: "reserve.set", total: 100, ceiling: 20 });
  });
  afterAll(async () => app.close());

  it("«Победные очки можно потратить … до переговоров перед испытанием»: a VP spend during the negotiation is refused, naming when", async () => {
    await app.run(GM, { type: "character.vp.add", amount: 3, reason: "test", character: "Ada" });
    await app.run(GM, { type: "challenge.negotiate", sphere: "physical" });
    const refused = await app.refused(ADA, { type: "character.vp.spend", amount: 1, reason: "spear" });
    expect(refused).toEqual({ code: "errors.bh.vpSpendNotNow", params: { name: "Ada" } });
    await app.run(GM, { type: "challenge.end" });
    // Between challenges it is spent.
    await app.run(ADA, { type: "character.vp.spend", amount: 1, reason: "spear" });
  });

  it("«разбойник с единственной … чертой «Трус +1»»: the seed's odd trait is bought (rounded up to 1 point)", async () => {
    const started = await app.run(GM, {
      type: "challenge.start",
      sphere: "physical",
      phase: 2,
      name: "Bandit",
      traits: "Трус:1",
    });
    // Rating: boxes 1 + Трус +1 → 1 = 2.
    expect(replyText(started)).toMatch(/rating\s*\**2\b|Rating\s*\**2\b/i);
    await app.run(GM, { type: "challenge.end", concede: true });
  });

  it("the extra task die after a win with too few pooled AP names its own price: 6 AP, not 4", async () => {
    await app.run(GM, { type: "challenge.start", sphere: "physical", phase: 2, name: "Wolves" });
    await app.run(GM, { type: "challenge.offer", points: 2 });
    await app.run(ADA, { type: "challenge.accept" });
    await app.run(GM, { type: "challenge.skip" });
    await app.run(GM, { type: "challenge.offer", points: 3 });
    await app.run(BO, { type: "challenge.accept" });
    await app.run(ADA, { type: "challenge.task", name: "Fame", difficulty: 1 });
    await app.run(GM, { type: "challenge.task", name: "Fame", difficulty: 1 });
    await app.run(GM, { type: "challenge.end", concede: true });
    const refused = await app.refused(ADA, { type: "challenge.achieve", task: "Fame", dice: 1, pool: true });
    expect(refused).toEqual({ code: "errors.bh.notEnoughAdvantageAfterWin", params: { need: 6, have: 5 } });
    await app.run(GM, { type: "challenge.end" });
  });

  it("the GM's click on an absent hunter's turn acts for that hunter, said and logged", async () => {
    const started = await app.run(GM, {
      type: "challenge.start",
      sphere: "physical",
      phase: 2,
      name: "Boar",
    });
    const flow = await challenge();
    expect(flow.state.challenge.turn).toBe(await id("Ada"));
    // Ada's player is away: the GM presses the panel's Maneuver button, which is for her now.
    const maneuver = clickIntent(started.result.reply, "challenge.maneuver");
    app.useDice(scriptedDice([5, 5, 5, 5]));
    const acted = await app.run(GM, maneuver, CLICK);
    expect(replyText(acted) + JSON.stringify(acted.result.effects)).toContain("The GM acts for Ada.");
    expect(await lastLog("challenge.gmActedFor")).toMatchObject({ actor_user_id: GM.id });
    expect((await challenge()).state.challenge.turn).toBe("obstacle");
    await app.run(GM, { type: "challenge.end", concede: true });
  });

  it("the GM's fatal-choice button for an absent hunter makes that hunter's choice; «выигрывает и испытание, и приключение, но навсегда изымается»: nobody standing shares the rating, and the text says so", async () => {
    const asked = await app.run(BO, { type: "character.delete", name: "Бо" });
    await app.run(BO, clickIntent(asked.result.reply, "character.delete-confirm"));
    await app.run(GM, {
      type: "challenge.start",
      sphere: "physical",
      phase: 2,
      name: "Beast",
      resources: "Claws:A20",
      initiative: 4,
    });
    app.useDice(scriptedDice([10, 10, 1, 1, 6, 6, 6, 6]));
    await app.run(GM, { type: "challenge.maneuver" });
    const struck = await app.run(GM, { type: "challenge.strike", dice: 4 });
    expect((await challenge()).state.challenge.status).toBe("fatalChoice");
    const fate = clickIntent(
      struck.result.effects?.find((e) => e.kind === "editPanel")?.view as never,
      "challenge.fate",
    );
    const retire = { ...fate, choice: "retire" };
    const chosen = await app.run(GM, retire, CLICK);
    const text = all(chosen);
    expect(text).toContain("The GM acts for Ada.");
    expect(text).toContain("no hunter is left standing to share rating");
    expect(text).not.toContain("shared by the hunters standing");
  });

  it("the summary lists a hunter who gave up in the last challenge: «won the adventure · 0 VP»", async () => {
    const CY = { id: "590000000000000004", name: "Cy" };
    const DEE = { id: "590000000000000005", name: "Dee" };
    await app.run(CY, { type: "character.create", name: "Cy" });
    await app.run(DEE, { type: "character.create", name: "Dee" });
    await app.run(CY, { type: "reserve.set", total: 50, ceiling: 6, adventure: "new", confirm: true });
    await app.run(GM, { type: "challenge.start", sphere: "social", phase: 2, name: "Elders", climax: true });
    await app.run(CY, { type: "challenge.giveup" });
    const conceded = await app.run(GM, { type: "challenge.end", concede: true });
    const summary = JSON.stringify(conceded.result.effects ?? []);
    expect(summary).toContain("The adventure is over");
    expect(summary).toContain("**Cy** — won the adventure · 0 VP");
    expect(summary).toMatch(/\*\*Dee\*\* — won the adventure · [1-9]\d* VP/);
  });

  it("the setup text and the no-challenge refusal point to `/challenge negotiate`", async () => {
    const setup = await app.run(
      GM,
      { type: "table.setup", system: "beast-hunters" },
      { channelId: "300000000000000777" },
    );
    expect(replyText(setup)).toContain("challenge negotiate");
    await app.run(GM, { type: "reserve.set", total: 10, ceiling: 5 }, { channelId: "300000000000000777" });
    const refused = await app.refused(
      GM,
      { type: "challenge.maneuver" },
      { channelId: "300000000000000777" },
    );
    expect(refused.code).toBe("errors.bh.noChallenge");
    expect(t("en", "errors.bh.noChallenge")).toContain("/challenge negotiate");
    expect(t("ru", "errors.bh.noChallenge")).toContain("/испытание переговоры");
    expect(t("en", "errors.bh.noChallenge")).not.toContain("challenge start");
  });

  it("the negotiation panel's concede shows the cost, lets the GM pick the rating (the ceiling first) and asks once; a concession larger than the reserve says what was spent", async () => {
    const CY = { id: "590000000000000004", name: "Cy" };
    await app.run(CY, { type: "reserve.set", total: 20, ceiling: 8, adventure: "new", confirm: true });
    const opened = await app.run(GM, { type: "challenge.negotiate", sphere: "mental", name: "Spirits" });
    const button = clickIntent(opened.result.reply, "negotiation.concedemenu");
    expect((await app.refused(CY, button)).code).toBe("errors.gmOnly");
    const menu = await app.run(GM, button, CLICK);
    expect(menu.result.reply?.ephemeral).toBe(true);
    expectWithinDiscordLimits(menu.result.reply!);
    expect(replyText(menu)).toContain("the ceiling 8 costs 16 of the 20 left");
    expect(optionLabel(menu.result.reply, "8")).toBe("Rating 8: 16 of reserve (20 → 4), 1 VP each");
    expect(optionValues(menu.result.reply)[0]).toBe("8");
    // Nothing is spent until the GM picks.
    const spent = async () =>
      (
        await app.database.query<{ spent: number }>(
          "SELECT spent FROM reserve_pool WHERE table_id = (SELECT id FROM game_table WHERE active_channel_id = '300000000000000001')",
        )
      )[0]!.spent;
    expect(await spent()).toBe(0);
    await app.run(GM, chooseIntent(menu.result.reply, "3"), CLICK);
    expect(await spent()).toBe(6);
    // The next concession asks for 16 with 14 left: it says what was actually spent.
    const next = await app.run(GM, { type: "challenge.negotiate", sphere: "mental", name: "More spirits" });
    const again = await app.run(GM, clickIntent(next.result.reply, "negotiation.concedemenu"), CLICK);
    const capped = await app.run(GM, chooseIntent(again.result.reply, "8"), CLICK);
    expect(JSON.stringify(capped.result)).toContain(
      "The reserve had less than 16: only 14 points were spent",
    );
    expect(await spent()).toBe(20);
  });

  it("with two obstacles the GM's offer menu carries the target", async () => {
    await app.run(HUNTER_CY, {
      type: "reserve.set",
      total: 60,
      ceiling: 12,
      adventure: "new",
      confirm: true,
    });
    await app.run(GM, { type: "challenge.start", sphere: "physical", phase: 2, name: "Bandits" });
    await app.run(GM, { type: "challenge.obstacle", name: "Wolf" });
    const view = (await app.run(GM, { type: "challenge.show" })).result.reply!;
    expectWithinDiscordLimits(view);
    const flow = await challenge();
    expect(flow.state.challenge.turn).toBe(await id("Cy"));
    await app.run(GM, chooseIntent(view, "8:obstacle-2"), CLICK);
    await app.run(HUNTER_CY, { type: "challenge.accept" });
    const after = (
      await app.database.query<{
        state: { challenge: { advantage: Record<string, Record<string, number>> } };
      }>("SELECT state FROM flow WHERE id = $1", [flow.id])
    )[0]!.state.challenge.advantage;
    expect(after[await id("Cy")]).toEqual({ "obstacle-2": 8 });
  });

  it("«Я потрачу 8 из них, чтобы купить 2 кубика исхода в свою пользу»: the panel offers every count of achievement and strike dice the AP allow, in one action", async () => {
    const EVE = { id: "590000000000000006", name: "Eve" };
    const at = { channelId: "300000000000000888" };
    const click = { ...at, ...CLICK };
    await app.run(GM, { type: "table.setup", system: "beast-hunters" }, at);
    await app.run(EVE, { type: "character.create", name: "Eve" }, at);
    await app.run(GM, { type: "reserve.set", total: 30, ceiling: 8 }, at);
    await app.run(GM, { type: "challenge.start", sphere: "physical", phase: 2, name: "Raiders" }, at);
    for (let i = 0; i < 2; i++) {
      await app.run(GM, { type: "challenge.offer", points: 10 }, at);
      await app.run(EVE, { type: "challenge.accept" }, at);
      await app.run(GM, { type: "challenge.skip" }, at);
    }
    await app.run(EVE, { type: "challenge.task", name: "Fame", difficulty: 1 }, at);
    await app.run(GM, { type: "challenge.task", name: "Fame", difficulty: 1 }, at);
    // 20 AP: strikes of 1–5 dice in one select, achievements of 1–5 dice in the task menu.
    const panel = (await app.run(EVE, { type: "challenge.show" }, at)).result.reply!;
    expectWithinDiscordLimits(panel);
    const values = optionValues(panel);
    // Strikes of 1–3 dice are the panel's buttons, 4 and 5 its select.
    expect(
      (panel.rows ?? [])
        .flat()
        .flatMap((c) => (c.intent.type === "challenge.strike" ? [(c.intent as { dice: number }).dice] : [])),
    ).toEqual([1, 2, 3]);
    for (let dice = 1; dice <= 5; dice++) {
      if (dice > 3) expect(values).toContain(`x:obstacle:${dice}`);
      expect(values).toContain(`a:${dice}:Fame`);
    }
    expect(values).not.toContain("x:obstacle:6");
    expect(optionLabel(panel, "a:2:Fame")).toBe("Achievement: 2d6 for “Fame” (8 AP)");
    await app.run(EVE, chooseIntent(panel, "a:2:Fame"), click);
    const state = (
      await app.database.query<{
        state: {
          challenge: { tasks: { hunterDice: number }[]; advantage: Record<string, Record<string, number>> };
        };
      }>("SELECT state FROM flow WHERE kind = 'bh.challenge' ORDER BY id DESC LIMIT 1")
    )[0]!.state.challenge;
    expect(state.tasks[0]!.hunterDice).toBe(2);
    expect(Object.values(state.advantage).map((byTarget) => byTarget.obstacle)).toContain(12);
  });
});
