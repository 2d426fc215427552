import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppHarness, createAppHarness } from "../support/app.js";

const GM = { id: "580000000000000001", name: "Gail" };
const AKI = { id: "580000000000000002", name: "Aki" };
const BO = { id: "580000000000000003", name: "Bo" };

/** The session so far is posted where a chapter turns, as at `/table session end`: public entries only. */
describe("the session's recap at /chapter next", () => {
  let app: AppHarness;
  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "mountain-witch" });
    await app.run(AKI, { type: "character.create", name: "Aki", zodiac: "monkey" });
    await app.run(BO, { type: "character.create", name: "Bo", zodiac: "ox" });
    await app.run(GM, { type: "chapter.next" });
  });
  afterAll(async () => app?.close());

  it("posts the session so far: who acted, from the public log", async () => {
    await app.run(AKI, { type: "roll", expression: "2d6" });
    const next = await app.run(GM, { type: "chapter.next" });
    const posts = (next.result.effects ?? []).filter((e) => e.kind === "post");
    const recap = JSON.stringify(posts);
    expect(recap).toContain("📜 The session so far, as the chapter ends");
    expect(recap).toMatch(/Who acted: [^"]*Aki/);
  });
});
