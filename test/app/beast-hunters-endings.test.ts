import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { scriptedDice } from "../../src/rules/dice.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";
import { clickIntent } from "./beast-hunters-controls.js";

const GM = { id: "570000000000000001", name: "Gail" };
const ADA = { id: "570000000000000002", name: "Ada" };
const BO = { id: "570000000000000003", name: "Bo", locale: "ru" };

/** Every negotiation and every adventure can end: a hunter gives up, the GM drops, nobody is left. */
describe("Beast Hunters: every negotiation and adventure can end", () => {
  let app: AppHarness;
  const pool = async () =>
    (
      await app.database.query<{
        spent: number;
        adventure: { ended: { reason: string; won: boolean } | null; hunters: Record<string, string> };
      }>("SELECT spent, adventure FROM reserve_pool")
    )[0]!;
  const lastNegotiation = async () =>
    (
      await app.database.query<{
        status: string;
        state: { ended: { how: string } | null; hunters: { name: string }[] };
      }>("SELECT status, state FROM flow WHERE kind = 'bh.negotiation' ORDER BY id DESC LIMIT 1")
    )[0]!;
  const vp = async (name: string) =>
    (await app.db.character.findFirstOrThrow({ where: { name } })).victoryPoints;
  const logged = (action: string) =>
    app.database.query<{ actor_user_id: string; summary: { params: Record<string, unknown> } }>(
      "SELECT actor_user_id, summary FROM log_entry WHERE action = $1 ORDER BY id",
      [action],
    );

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "beast-hunters" });
    await app.run(ADA, { type: "character.create", name: "Ada" });
    await app.run(BO, { type: "character.create", name: "Бо" });
    await app.run(ADA, { type: "reserve.set", total: 100, ceiling: 20 });
  });
  afterAll(async () => app.close());
  beforeEach(async () => {
    // Each case starts from "nothing in progress".
    expect(
      await app.database.query("SELECT id FROM flow WHERE kind LIKE 'bh.%' AND status = 'open'"),
    ).toEqual([]);
  });

  it("«Если охотник не заинтересован, он может в любой момент сдаться» — «Если охотник сдаётся, то ведущий ничего не тратит»: each hunter gives up the negotiation, by command or from its panel, and the last one ends it for free", async () => {
    const opened = await app.run(GM, { type: "challenge.negotiate", sphere: "social", name: "Elders" });
    const flowId = opened.result.replyIsPanelOf!;
    const before = (await pool()).spent;
    const giveUp = clickIntent(opened.result.reply, "negotiation.giveup");
    const first = await app.run(ADA, { type: "challenge.giveup" });
    expect(replyText(first)).toContain("Ada gives up and leaves the negotiation. Nothing is spent.");
    expect((await lastNegotiation()).state.hunters.map((h) => h.name)).toEqual(["Бо"]);
    // Bo gives up from the panel's button: the negotiation ends, nothing is spent, nobody earns VP.
    const last = await app.run(BO, giveUp, { source: { messageId: "900000000000000001", public: true } });
    expect(JSON.stringify(last.result)).toContain("no hunter is left in the negotiation");
    expect(await lastNegotiation()).toMatchObject({ status: "closed", state: { ended: { how: "givenUp" } } });
    expect((await pool()).spent).toBe(before);
    expect([await vp("Ada"), await vp("Бо")]).toEqual([0, 0]);
    expect((await logged("negotiation.gaveUp")).map((e) => e.summary.params.name)).toEqual(["Ada", "Бо"]);
    // A hunter no longer in it cannot give up twice; the table can open the next negotiation.
    expect((await app.refused(ADA, { type: "negotiation.giveup", flowId })).code).toBe("errors.flow.closed");
  });

  it("the GM gives up for an absent player by naming the hunter (said and logged); without a name the GM is pointed to the drop", async () => {
    await app.run(GM, { type: "challenge.negotiate", sphere: "mental" });
    const refused = await app.refused(GM, { type: "challenge.giveup" });
    expect(refused.code).toBe("errors.bh.gmGivesUpNegotiation");
    const acted = await app.run(GM, { type: "challenge.giveup", character: "Бо" });
    expect(replyText(acted)).toContain("The GM acts for Бо.");
    expect((await logged("challenge.gmActedFor")).at(-1)).toMatchObject({ actor_user_id: GM.id });
    expect((await lastNegotiation()).state.hunters.map((h) => h.name)).toEqual(["Ada"]);
    // The drop the refusal named works for the GM: `/challenge end`, free and logged.
    const before = (await pool()).spent;
    const dropped = await app.run(GM, { type: "challenge.end" });
    expect(replyText(dropped)).toContain("The GM drops the negotiation");
    expect(await lastNegotiation()).toMatchObject({ status: "closed", state: { ended: { how: "dropped" } } });
    expect((await pool()).spent).toBe(before);
    expect((await logged("negotiation.ended")).at(-1)?.summary.params.how).toBe("dropped");
  });

  it("the GM drops a negotiation opened by mistake from its panel (free, logged); a hunter cannot", async () => {
    const opened = await app.run(GM, { type: "challenge.negotiate", sphere: "physical", name: "Oops" });
    const drop = clickIntent(opened.result.reply, "negotiation.drop");
    expect((await app.refused(ADA, drop)).code).toBe("errors.gmOnly");
    // Conceding is not dropping: `/challenge end concede` points to the concession.
    expect((await app.refused(GM, { type: "challenge.end", concede: true })).code).toBe(
      "errors.bh.concedeNegotiationWith",
    );
    const before = (await pool()).spent;
    await app.run(GM, drop, { source: { messageId: "900000000000000002", public: true } });
    expect(await lastNegotiation()).toMatchObject({ status: "closed", state: { ended: { how: "dropped" } } });
    expect((await pool()).spent).toBe(before);
    // Nothing is in progress: a new negotiation opens at once.
    await app.run(GM, { type: "challenge.negotiate", sphere: "physical", name: "Bandits" });
    await app.run(GM, { type: "negotiation.drop" });
  });

  it("«персонаж проигрывает приключение, но спасается живым» for the last hunter still playing: the adventure ends by itself, lost, with its summary and the renewal button", async () => {
    // Bo leaves the table; Ada is the only hunter still playing.
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
    // The beast maneuvers 20 against 2 (a free strike), then strikes 4d6 + 20: fatal.
    app.useDice(scriptedDice([10, 10, 1, 1, 6, 6, 6, 6]));
    await app.run(GM, { type: "challenge.maneuver" });
    const struck = await app.run(GM, { type: "challenge.strike", dice: 4 });
    expect(replyText(struck)).toMatch(/fatal/i);
    const survived = await app.run(ADA, { type: "challenge.fate", choice: "survive" });
    const effects = JSON.stringify(survived.result.effects ?? []);
    expect(effects).toContain("No hunter is still playing: the adventure is lost.");
    expect(effects).toContain("lost the adventure");
    expect(effects).toContain('"type":"reserve.form"');
    // The session so far goes with the summary: who acted, from the public log.
    expect(effects).toContain("📜 The session so far, as the adventure ends");
    expect(effects).toMatch(/Who acted: [^"]*Ada/);
    expect((await pool()).adventure.ended).toMatchObject({ reason: "nobodyPlaying", won: false });
    // The renewal the summary offers works: the next adventure needs no confirmation.
    await app.run(ADA, { type: "reserve.set", total: 10, ceiling: 5 });
    expect((await pool()).adventure.ended).toBeNull();
  });
});
