import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "540000000000000001", name: "Gail" };
const ADA = { id: "540000000000000002", name: "Ada" };
const BO = { id: "540000000000000003", name: "Bo" };

describe("Beast Hunters: answers that say what is true", () => {
  let app: AppHarness;

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "beast-hunters" });
    await app.run(ADA, { type: "character.create", name: "Ada" });
    await app.run(BO, { type: "character.create", name: "Bo" });
  });
  afterAll(async () => app.close());

  it("brand-new hunters are not reported as renewed", async () => {
    const set = await app.run(ADA, { type: "reserve.set", total: 30, ceiling: 6 });
    expect(replyText(set)).not.toMatch(/renew/i);
  });

  it("a sheet shows the creation warnings while the hunter is new, not once they have earned VP", async () => {
    const fresh = await app.run(ADA, {
      type: "character.trait.set",
      name: "Sly",
      sphere: "social",
      value: 3,
    });
    expect(fresh.result.reply?.embeds?.[0]?.footer).toBeTruthy();
    await app.run(GM, { type: "reserve.concede", phase: 1, rating: 1, hunters: "Ada" });
    const veteran = await app.run(ADA, {
      type: "character.trait.set",
      name: "Strong",
      sphere: "physical",
      value: 6,
    });
    expect(veteran.result.reply?.embeds?.[0]?.footer).toBeUndefined();
  });

  it("a GM without enough AP against any hunter is told so, not asked to name a target", async () => {
    await app.run(GM, { type: "challenge.start", sphere: "physical", phase: 2, initiative: 2 });
    const refused = await app.refused(GM, { type: "challenge.strike", dice: 1 });
    expect(refused).toEqual({ code: "errors.bh.notEnoughAdvantage", params: { need: 4, have: 0 } });
  });

  it("extra task dice after a lost challenge: “only after a win”, not “not enough advantage”", async () => {
    await app.run(GM, { type: "challenge.task", name: "Escape", difficulty: 1 });
    await app.run(ADA, { type: "challenge.task", name: "Escape", difficulty: 1 });
    await app.run(ADA, { type: "challenge.giveup" });
    await app.run(BO, { type: "challenge.giveup" });
    const refused = await app.refused(ADA, { type: "challenge.achieve", task: "Escape", dice: 1 });
    expect(refused.code).toBe("errors.bh.extraDiceOnlyAfterWin");
  });

  it("/challenge show moves the live panel: the old message points to the new one and its buttons are disabled", async () => {
    await app.run(GM, { type: "challenge.resolve", task: "Escape" });
    await app.run(ADA, { type: "challenge.resolve", task: "Escape" });
    const started = await app.run(GM, { type: "challenge.start", sphere: "physical", phase: 2 });
    const flowId = started.result.replyIsPanelOf!;
    await app.database.query(
      "UPDATE flow SET panel_channel_id = '300000000000000001', panel_message_id = '900' WHERE id = $1",
      [flowId],
    );
    const shown = await app.run(BO, { type: "challenge.show" });
    expect(shown.result.replyIsPanelOf).toBe(flowId);
    const edit = shown.result.effects?.find((e) => e.kind === "editPanel");
    expect(edit && "panel" in edit ? edit.panel : null).toEqual({
      channelId: "300000000000000001",
      messageId: "900",
    });
    const view = edit && edit.kind === "editPanel" ? edit.view : null;
    expect(view?.embeds?.[0]?.description).toContain("This panel has moved");
    const controls = (view?.rows ?? []).flat();
    expect(controls.length).toBeGreaterThan(0);
    expect(controls.every((c) => c.disabled === true)).toBe(true);
  });
  it("the GM passes an absent player's turn, saying so in the channel and logging who did it", async () => {
    const passed = await app.run(GM, { type: "challenge.skip", character: "Ada" });
    expect(replyText(passed)).toContain("The GM acts for Ada.");
    expect(replyText(passed)).toContain("Ada passes the turn without an action.");
    const state = (
      await app.database.query<{ state: { challenge: { turn: string } } }>(
        "SELECT state FROM flow WHERE kind = 'bh.challenge' ORDER BY id DESC LIMIT 1",
      )
    )[0]!.state.challenge;
    expect(state.turn).toBe("obstacle");
    const logged = await app.database.query<{ actor_user_id: string }>(
      "SELECT actor_user_id FROM log_entry WHERE action = 'challenge.gmActedFor' ORDER BY id DESC LIMIT 1",
    );
    expect(logged[0]?.actor_user_id).toBe(GM.id);
    // A player may not pass another hunter's turn.
    expect((await app.refused(ADA, { type: "challenge.skip", character: "Bo" })).code).toBe(
      "errors.notYourCharacter",
    );
  });
});
