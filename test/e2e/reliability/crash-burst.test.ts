import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InteractionView } from "../../../src/double/index.js";
import { type E2E, startE2E } from "../harness.js";
import { redeliver, waitUntil } from "./ops.js";

const answered = (view: InteractionView) =>
  view.ack !== null && !view.deferredPending && (view.original?.text ?? view.followups[0]?.text ?? "") !== "";

/**
 * kill -9 in the middle of a burst of state-changing interactions: whatever was committed is there
 * exactly once with its log entry, whatever was not left no trace, and replays or retries after
 * the restart never double anything.
 */
describe("e2e reliability: kill -9 during a burst of interactions", () => {
  let e2e: E2E;
  let gm: string;
  const players: string[] = [];
  const NAMES = Array.from({ length: 24 }, (_, i) => `Runner ${i + 1}`);

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail" });
    for (let i = 0; i < NAMES.length; i++) players.push(e2e.double.addUser({ username: `r${i}` }));
    await e2e.double.slash(gm, e2e.channelId, "table", ["setup"], { system: "beast-hunters" }).settled();
  });
  afterAll(async () => e2e?.stop());

  it("keeps every committed change exactly once and every uncommitted one not at all", async () => {
    const burst = NAMES.flatMap((name, i) => [
      e2e.double.slash(players[i]!, e2e.channelId, "character", ["create"], { name }),
      e2e.double.slash(players[i]!, e2e.channelId, "roll", [], { expression: "1d6", reason: `burst ${i}` }),
    ]);
    // Let part of the burst through, then crash with no cleanup at all.
    await waitUntil(
      async () => {
        const [row] = await e2e.database.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM processed_interaction",
        );
        return (row?.n ?? 0) >= 12;
      },
      10_000,
      "part of the burst to be applied",
      5,
    );
    await e2e.bot.kill();
    const beforeRestart = burst.map((h) => h.view());

    await e2e.restart("kill");

    // Every interaction of the burst reaches the new process again (a replay, or a second process).
    for (const handle of burst) redeliver(e2e.double, e2e.guildId, handle.payload);
    await e2e.bot.waitForLog(
      () =>
        burst.every((h) => e2e.bot.logs().some((l) => l.msg === "interaction" && l.interactionId === h.id)),
      15_000,
    );
    const outcomes = burst.map(
      (h) => e2e.bot.logs().find((l) => l.msg === "interaction" && l.interactionId === h.id)?.outcome,
    );
    // Nothing answered before the crash is applied a second time. One that was not may be applied
    // now if it is still within Discord's 3 s (a fast restart), or is refused as expired.
    for (const [k, outcome] of outcomes.entries()) {
      if (answered(beforeRestart[k]!)) expect(outcome, `interaction ${k}`).toBe("duplicate");
      else expect(["duplicate", "expired", "ok"], `interaction ${k}`).toContain(outcome);
    }

    // The players whose command got no answer try again, as they would.
    for (const [i, name] of NAMES.entries()) {
      if (!answered(beforeRestart[2 * i]!)) {
        const retry = await e2e.double
          .slash(players[i]!, e2e.channelId, "character", ["create"], { name })
          .settled();
        const text = retry.original?.text ?? retry.followups[0]?.text ?? "";
        expect(text, name).toMatch(
          new RegExp(`Created \\*\\*${name}\\*\\*|already a character called \\*\\*${name}\\*\\*`),
        );
      }
    }

    const characters = await e2e.database.query<{ name: string; n: number }>(
      "SELECT name, count(*)::int AS n FROM character GROUP BY name ORDER BY name",
    );
    expect(characters.map((c) => c.name).sort()).toEqual([...NAMES].sort());
    expect(characters.every((c) => c.n === 1)).toBe(true);
    const [created] = await e2e.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM log_entry WHERE action = 'character.create'",
    );
    expect(created?.n).toBe(NAMES.length);
    // Every roll in the log is there at most once (by its reason), and every answered roll is there.
    const rolls = await e2e.database.query<{ reason: string; n: number }>(
      "SELECT reason, count(*)::int AS n FROM log_entry WHERE action = 'roll' GROUP BY reason",
    );
    expect(rolls.every((r) => r.n === 1)).toBe(true);
    for (const [i] of NAMES.entries()) {
      if (answered(beforeRestart[2 * i + 1]!)) expect(rolls.map((r) => r.reason)).toContain(`burst ${i}`);
    }
    // One processed-interaction row per applied interaction: none was recorded without its change.
    const [processed] = await e2e.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM processed_interaction",
    );
    const [logged] = await e2e.database.query<{ n: number }>("SELECT count(*)::int AS n FROM log_entry");
    expect(processed?.n).toBe(logged?.n);
  });
});
