import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "510000000000000001", name: "Gail" };
const ADA = { id: "510000000000000002", name: "Ada", locale: "ru" };
const BO = { id: "510000000000000003", name: "Bo" };

describe("Beast Hunters adventures that end", () => {
  let app: AppHarness;
  const pool = async () =>
    (
      await app.database.query<{
        spent: number;
        total: number;
        adventure: { ended: unknown; vp: Record<string, number> };
      }>("SELECT spent, total, adventure FROM reserve_pool")
    )[0]!;
  const vp = async (name: string) =>
    (await app.db.character.findFirstOrThrow({ where: { name } })).victoryPoints;

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "beast-hunters" });
    await app.run(ADA, { type: "character.create", name: "Ада" });
    await app.run(BO, { type: "character.create", name: "Бо" });
    await app.run(ADA, { type: "reserve.set", total: 6, ceiling: 3 });
  });
  afterAll(async () => app.close());

  it("a concession pays the phase VP to each hunter in the negotiation, and shows the rating", async () => {
    const conceded = await app.run(GM, { type: "reserve.concede", phase: 2, rating: 1, hunters: "Ада" });
    expect(replyText(conceded)).toContain("rating 1 × 2");
    expect(await vp("Ада")).toBe(2);
    expect(await vp("Бо")).toBe(0);
    expect((await pool()).spent).toBe(2);
  });

  it("/reserve set mid-adventure asks on a button before clearing, and changes nothing yet", async () => {
    const asked = await app.run(BO, { type: "reserve.set", total: 10, ceiling: 5 });
    expect(asked.result.reply?.ephemeral).toBe(true);
    expect(JSON.stringify(asked.result.reply?.rows)).toContain('"confirm":true');
    expect((await pool()).spent).toBe(2);
    expect((await pool()).total).toBe(6);
  });

  it("«Когда резерв опустеет, приключение закончится»: a summary, and no challenge until the next adventure", async () => {
    const last = await app.run(GM, { type: "reserve.concede", phase: 1, rating: 2 });
    const effects = JSON.stringify(last.result.effects ?? []);
    expect(effects).toContain("The adventure is over");
    expect(effects).toContain("reserve.form");
    const adventure = (await pool()).adventure;
    expect(adventure.ended).toMatchObject({ reason: "reserve", won: true });
    const refused = await app.refused(GM, { type: "challenge.start", sphere: "physical", phase: 2 });
    expect(refused.code).toBe("errors.bh.adventureOver");
    // The next adventure needs no confirmation: this one is over.
    await app.run(ADA, { type: "reserve.set", total: 10, ceiling: 5 });
    expect(await pool()).toMatchObject({ spent: 0, total: 10, adventure: { ended: null } });
  });
});
