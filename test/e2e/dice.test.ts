import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.js";

describe("e2e: richer /roll, macros, dice statistics and files", () => {
  let e2e: E2E;
  let gm: string;
  let player: string;

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    player = e2e.double.addUser({ username: "pavel", locale: "ru" });
    await e2e.double.slash(gm, e2e.channelId, "table", ["setup"], { system: "fate" }).settled();
  });
  afterAll(async () => e2e?.stop());

  it("/roll takes exploding dice, rerolls, successes, parentheses and a label", async () => {
    const labelled = await e2e.double
      .slash(player, e2e.channelId, "roll", [], { expression: "(1d6+2)*2 # атака" })
      .response();
    expect(labelled.ephemeral).toBe(false);
    expect(labelled.message?.text).toContain("атака");
    expect(labelled.message?.text).toMatch(/\(1d6 \[\d\] \+ 2\) × 2 = \*\*\d+\*\*/);
    const successes = await e2e.double
      .slash(player, e2e.channelId, "roll", [], { expression: "10к10>=7ф1" })
      .response();
    expect(successes.message?.text).toContain("10d10>=7f1");
    const exploding = await e2e.double
      .slash(player, e2e.channelId, "roll", [], { expression: "4d6!r1" })
      .response();
    expect(exploding.message?.text).toContain("4d6!r1");
    const refused = await e2e.double
      .slash(player, e2e.channelId, "roll", [], { expression: "1d6/(1d2-1)" })
      .response();
    expect(refused.ephemeral).toBe(true);
    expect(refused.message?.text).toContain("на ноль делить нельзя");
    const logged = await e2e.database.query<{ reason: string | null }>(
      "SELECT reason FROM log_entry WHERE action = 'roll' ORDER BY id",
    );
    expect(logged[0]?.reason).toBe("атака");
  });
});
