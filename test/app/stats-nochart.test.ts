import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { scriptedDice } from "../../src/rules/dice.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

// A host installed without optional packages: the chart renderer's native binary is missing.
vi.mock("../../src/app/common/stats-chart.js", () => {
  throw new Error("Cannot find module './skia.linux-x64-gnu.node'");
});

const GM = { id: "440000000000000001", name: "Gail" };

describe("/table stats without the chart renderer", () => {
  let app: AppHarness;
  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "fate" });
    app.useDice(scriptedDice([1, 2, 3, 4, 5, 6]));
    await app.run(GM, { type: "roll", expression: "6d6" });
  });
  afterAll(async () => app.close());

  it("still answers with the embed, no image, and says why", async () => {
    const shown = await app.run(GM, { type: "table.stats" });
    expect(replyText(shown)).toContain("6 dice rolled by 1 player");
    expect(replyText(shown)).toContain("No chart: this bot's host lacks the chart renderer");
    expect(shown.result.reply?.files).toBeUndefined();
    expect(shown.result.reply?.embeds?.[0]?.image).toBeUndefined();
  });
});
