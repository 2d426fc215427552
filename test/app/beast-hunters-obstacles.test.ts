import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "530000000000000001", name: "Gail" };
const ADA = { id: "530000000000000002", name: "Ada" };
const BO = { id: "530000000000000003", name: "Bo" };

describe("Beast Hunters challenge with several obstacles", () => {
  let app: AppHarness;
  const spent = async () =>
    (await app.database.query<{ spent: number }>("SELECT spent FROM reserve_pool"))[0]!.spent;

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "beast-hunters" });
    await app.run(ADA, { type: "character.create", name: "Ada" });
    await app.run(BO, { type: "character.create", name: "Bo" });
    await app.run(ADA, { type: "reserve.set", total: 30, ceiling: 10 });
  });
  afterAll(async () => app.close());

  it("the GM adds a second obstacle before play: the rating adds up, the difference is paid, both are targets", async () => {
    const started = await app.run(GM, {
      type: "challenge.start",
      sphere: "physical",
      phase: 2,
      name: "Bandits",
      traits: "Hungry:4",
    });
    expect(await spent()).toBe(3);
    expect(replyText(started)).toContain("Add obstacle");
    const bad = await app.run(GM, {
      type: "challenge.obstacle",
      name: "Wolf",
      traits: "Fangs:x",
      initiative: "y",
      guided: true,
    });
    expect(bad.result.reply?.ephemeral).toBe(true);
    expect(replyText(bad)).toContain("Traits:");
    expect(replyText(bad)).toContain("Initiative:");
    expect(await spent()).toBe(3);
    const added = await app.run(GM, {
      type: "challenge.obstacle",
      name: "Wolf",
      resources: "Fangs:A2",
      initiative: 4,
    });
    expect(replyText(added)).toContain("Wolf joins the challenge: rating now 7, the GM pays 4 more");
    expect(await spent()).toBe(7);
    // The wolf (initiative 4) acts first; then Ada may maneuver against either obstacle.
    const wolfTurn = await app.run(GM, { type: "challenge.maneuver", target: "Ada" });
    expect(replyText(wolfTurn)).toContain("Wolf");
    // The turn line pings Ada's player, and only her.
    expect(wolfTurn.result.reply?.content).toBe(`<@${ADA.id}> — your turn: Ada.`);
    expect(wolfTurn.result.reply?.mentionUsers).toEqual([ADA.id]);
    const panel = JSON.stringify((await app.run(ADA, { type: "challenge.show" })).result.reply);
    expect(panel).toContain('"pick":"m:obstacle"');
    expect(panel).toContain('"pick":"m:obstacle-2"');
    // Once play has begun, no more obstacles.
    expect((await app.refused(GM, { type: "challenge.obstacle", name: "Bear" })).code).toBe(
      "errors.bh.obstacleAfterPlay",
    );
  });
  it("the panel prices each obstacle under its name; a challenge saved before obstacles were named still takes one", async () => {
    await app.run(GM, { type: "challenge.end", concede: true });
    const started = await app.run(GM, {
      type: "challenge.start",
      sphere: "social",
      phase: 2,
      name: "Elders",
      traits: "Stern:2",
    });
    const flowId = started.result.replyIsPanelOf!;
    // The previous shape (state version 1): no `obstacles` in the price.
    await app.database.query(
      "UPDATE flow SET state = state #- '{price,obstacles}', state_version = 1 WHERE id = $1",
      [flowId],
    );
    await app.run(GM, { type: "challenge.obstacle", name: "Crowd", traits: "Loud:2" });
    const text = replyText(await app.run(ADA, { type: "challenge.show" }));
    expect(text).toContain("**Elders**\n• Minimal damage boxes");
    expect(text).toContain("**Crowd**\n• Minimal damage boxes");
  });
  it("an added obstacle that empties the reserve announces the adventure's last challenge", async () => {
    await app.run(GM, { type: "challenge.end", concede: true });
    await app.run(GM, { type: "reserve.spend", amount: 30 - (await spent()) - 4, reason: "the journey" });
    await app.run(GM, { type: "challenge.start", sphere: "mental", phase: 2, name: "Doubt" });
    // Doubt costs 1; Dread (Fear 4: 2, boxes: 1) the 3 left.
    const added = await app.run(GM, { type: "challenge.obstacle", name: "Dread", traits: "Fear:4" });
    expect(await spent()).toBe(30);
    expect(replyText(added)).toContain("this is the adventure's last challenge");
  });
});
