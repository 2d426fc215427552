import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { traitNames } from "../../src/app/beast-hunters/autocomplete.js";
import { t } from "../../src/i18n/index.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";
import { optionValues } from "./beast-hunters-controls.js";

const GM = { id: "600000000000000001", name: "Gail" };
const ADA = { id: "600000000000000002", name: "Ada" };
const BO = { id: "600000000000000003", name: "Bo" };

describe("Beast Hunters: less friction at the table", () => {
  let app: AppHarness;
  const actor = (user: { id: string; name: string }) => ({
    userId: user.id,
    displayName: user.name,
    locale: "en-US",
    canManageGuild: false,
  });

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "beast-hunters" });
    await app.run(ADA, { type: "character.create", name: "Ada" });
    await app.run(BO, { type: "character.create", name: "Bo" });
    await app.run(ADA, { type: "character.trait.replace", traits: "Strong:P4 Sly:S2 Keen:M2" });
    await app.run(BO, { type: "character.trait.replace", traits: "Big:P4" });
    await app.run(ADA, { type: "reserve.set", total: 60, ceiling: 10 });
  });
  afterAll(async () => app.close());

  it("a typo in one sphere's boxes keeps the other spheres and names the sphere", async () => {
    const kept = await app.run(ADA, { type: "character.boxes", physical: "3/2/1/1/1", social: "2/1/x" });
    expect(replyText(kept)).toContain("Social boxes “2/1/x” not read (nothing changed there)");
    const sheet = (await app.db.character.findFirstOrThrow({ where: { name: "Ada" } })).sheet as {
      boxes: Record<string, Record<string, number>>;
    };
    expect(sheet.boxes.physical).toMatchObject({ light: 3, medium: 2 });
    expect(sheet.boxes.social).toMatchObject({ light: 1, medium: 1 });
    const refused = await app.refused(ADA, { type: "character.boxes", mental: "lots" });
    expect(refused).toEqual({ code: "errors.bh.badBoxesIn", params: { sphere: "mental", fragment: "lots" } });
  });

  it("the pre-activation select offers only traits not yet used this adventure, and nothing to a hunter who already has one here", async () => {
    const opened = await app.run(GM, { type: "challenge.negotiate", sphere: "physical", phase: 2 });
    const flowId = opened.result.replyIsPanelOf!;
    await app.run(ADA, { type: "negotiation.preactivate", flowId, pick: "attack:Strong" });
    expect((await app.refused(ADA, { type: "negotiation.premenu", flowId })).code).toBe(
      "errors.bh.tooManyPreActivations",
    );
    await app.run(GM, { type: "challenge.end" });
    // The next negotiation of the adventure: "Strong" is used, Sly and Keen are offered.
    const next = await app.run(GM, { type: "challenge.negotiate", sphere: "physical", phase: 2 });
    const menu = await app.run(ADA, { type: "negotiation.premenu", flowId: next.result.replyIsPanelOf! });
    expect(optionValues(menu.result.reply)).toEqual([
      "attack:Sly",
      "defence:Sly",
      "attack:Keen",
      "defence:Keen",
    ]);
    await app.run(GM, { type: "challenge.end" });
  });

  it("a typed target may be an unambiguous prefix of the obstacle's name; the trait autocomplete lists only the player's own traits", async () => {
    await app.run(GM, { type: "challenge.start", sphere: "physical", phase: 2, name: "Bandits on the ford" });
    await app.run(GM, { type: "challenge.obstacle", name: "Wolf" });
    await app.run(GM, { type: "challenge.obstacle", name: "Wolfhound" });
    await app.run(GM, { type: "challenge.offer", points: 4, target: "bandits" });
    await app.run(ADA, { type: "challenge.accept" });
    const state = (
      await app.database.query<{
        state: { challenge: { advantage: Record<string, Record<string, number>> } };
      }>("SELECT state FROM flow WHERE kind = 'bh.challenge' ORDER BY id DESC LIMIT 1")
    )[0]!.state.challenge;
    expect(Object.values(state.advantage)).toContainEqual({ obstacle: 4 });
    // "Wolf" is a whole name; "Wol" begins two.
    expect((await app.refused(GM, { type: "challenge.maneuver", target: "Wol" }, {})).code).toBe(
      "errors.bh.unknownTarget",
    );
    const table = await app.db.gameTable.findFirstOrThrow();
    const names = (await traitNames.choices({ db: app.db, table, actor: actor(BO), query: "" } as never)).map(
      (c: { name: string }) => c.name,
    );
    expect(names).toEqual(["Big"]);
  });

  it("the words fit the numbers: one hunter's VP without “each”, a lost restore roll without a negative margin, an added obstacle's reserve before → after", async () => {
    expect(t("en", "bh.reserve.vpTo", { names: "Якхара", vp: 2, count: 1 })).toBe("Якхара: +2 VP.");
    expect(t("en", "bh.reserve.vpTo", { names: "Ada, Bo", vp: 2, count: 2 })).toBe("Ada, Bo: +2 VP each.");
    const lost = { owner: "Якхара", resource: "Топор", margin: -5, beaten: "yes", needed: 5 };
    expect(t("ru", "bh.event.restoreFailed", lost)).toBe(
      "Якхара не возвращает «Топор»: бросок проигран, а нужно 5.",
    );
    expect(t("en", "bh.event.restoreFailed", lost)).not.toContain("-5");
    const added = await app.database.query<{ summary: { key: string; params: Record<string, number> } }>(
      "SELECT summary FROM log_entry WHERE summary->>'key' = 'bh.log.obstacleAdded' ORDER BY id LIMIT 1",
    );
    const { params } = added[0]!.summary;
    expect(t("en", "bh.log.obstacleAdded", params)).toMatch(/\(\d+ → \d+\)$/);
    expect(params.before! - params.after!).toBe(params.cost);
    // A task the GM proposes is the GM's, not the obstacle's.
    const proposed = await app.run(GM, { type: "challenge.task", name: "Scar", difficulty: 2 });
    expect(replyText(proposed)).toContain("The GM proposes the task “Scar”");
  });
});
