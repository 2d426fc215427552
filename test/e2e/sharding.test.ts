import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageView } from "../../src/double/index.js";
import { type BotProcess, type E2E, startE2E } from "./harness.js";

/** The custom_id of a button on a message whose intent has this type. */
function buttonFor(view: MessageView | null | undefined, type: string): string {
  for (const row of (view?.components ?? []) as Array<{ components?: Array<{ custom_id?: string }> }>) {
    for (const c of row.components ?? []) if (c.custom_id?.startsWith(`i1|${type}|`)) return c.custom_id;
  }
  throw new Error(`no ${type} button on: ${view?.text ?? "(no message)"}`);
}

/** Which of the bot processes handled that interaction (waits for the "interaction" log line). */
async function handledBy(bots: BotProcess[], interactionId: string): Promise<number> {
  const line = (l: Record<string, unknown>) => l.msg === "interaction" && l.interactionId === interactionId;
  await Promise.any(bots.map((b) => b.waitForLog(line, 5000)));
  const written = await Promise.all(bots.map((b) => b.writtenLogs()));
  const which = written.flatMap((logs, i) => (logs.some(line) ? [i] : []));
  if (which.length !== 1)
    throw new Error(`interaction ${interactionId} handled by processes ${which.join(", ")}`);
  return which[0]!;
}

describe("e2e: two bot processes (SHARD_COUNT=2, SHARD_IDS=0 and 1) on one PostgreSQL are one bot", () => {
  let e2e: E2E;
  let guild: string;
  let channel: string;
  let gm: string;
  const players: string[] = [];
  const names = ["Akio", "Bo", "Chi"];

  const slash = (
    user: string,
    command: string,
    path: string[],
    options: Record<string, string | number> = {},
  ) => e2e.double.slash(user, channel, command, path, options);
  const dmWith = (user: string, text: string) =>
    e2e.double.waitFor(() => e2e.double.dmsOf(user).find((m) => m.text.includes(text)) ?? null, {
      timeoutMs: 5000,
      what: () => `a DM to ${user} containing "${text}" (DMs: ${e2e.double.dmsOf(user).map((m) => m.text)})`,
    });

  beforeAll(async () => {
    e2e = await startE2E({ shardCount: 2, processes: [[0], [1]] });
    // A guild that Discord routes to shard 1, i.e. to the second process; DMs go to shard 0.
    guild = e2e.double.addGuild({ name: "Shard one", onShard: { shardId: 1, shardCount: 2 } });
    channel = e2e.double.addChannel({ guildId: guild, name: "mountain" });
    gm = e2e.double.addUser({ username: "gm", locale: "en-US" });
    for (const name of ["akira", "bora", "chie"]) players.push(e2e.double.addUser({ username: name }));
  });
  afterAll(async () => e2e?.stop());

  it("each process serves its own shard, and only the one with shard 0 registers commands", async () => {
    const ready = e2e.bots.map((b) => b.logs().find((l) => l.msg === "ready"));
    expect(ready.map((l) => l?.shards)).toEqual([[0], [1]]);
    expect(e2e.bots[0]!.logs().some((l) => l.msg === "commands registered")).toBe(true);
    expect((await e2e.bots[1]!.writtenLogs()).some((l) => l.msg === "commands registered")).toBe(false);

    const setup = slash(gm, "table", ["setup"], { system: "mountain-witch" });
    expect((await setup.settled()).original?.text).toContain("The Mountain Witch");
    expect(await handledBy(e2e.bots, setup.id)).toBe(1);
    for (const [i, zodiac] of ["rat", "dragon", "monkey"].entries()) {
      await slash(players[i]!, "character", ["create"], { name: names[i]!, zodiac }).settled();
    }
    await slash(gm, "character", ["create"], { name: "Oni", kind: "npc", strength: "strong" }).settled();
  });

  it("a secret trust round of a shard-1 guild: DM submissions arrive on shard 0 and change that table", async () => {
    // The first /chapter next starts chapter 1; the second opens the trust round and DMs the players.
    await slash(gm, "chapter", ["next"]).settled();
    const opened = await slash(gm, "chapter", ["next"]).settled();
    expect(opened.original?.text).toContain("Trust for chapter 2");
    for (const user of players) await dmWith(user, "your trust for chapter 2");

    const before = await e2e.database.query<{ value: number }>(
      "SELECT l.value FROM trust_link l JOIN character g ON g.id = l.giver_id JOIN character h ON h.id = l.holder_id WHERE g.name = 'Akio' AND h.name = 'Bo'",
    );
    const set = e2e.double.slash(players[0]!, e2e.double.dmChannelOf(players[0]!), "trust", ["set"], {
      target: "Bo",
      value: before[0]!.value + 1,
    });
    expect((await set.settled()).original?.text).toContain("Bo");
    expect(await handledBy(e2e.bots, set.id)).toBe(0);

    const submits = [];
    for (const user of players) {
      const dm = await dmWith(user, "your trust for chapter 2");
      const click = e2e.double.click(user, dm, buttonFor(e2e.double.message(dm.id), "trust.submit"));
      await click.settled();
      submits.push(click.id);
    }
    for (const id of submits) expect(await handledBy(e2e.bots, id)).toBe(0);

    // The last submission (handled by shard 0's process) reveals in the shard-1 guild's channel.
    const reveal = await e2e.double.waitFor(
      () => e2e.double.channelMessages(channel).find((m) => m.text.includes("Trust revealed")) ?? null,
      { timeoutMs: 5000, what: () => "the reveal in the channel" },
    );
    expect(reveal.text).toContain(`Akio → Bo: ${before[0]!.value} → **${before[0]!.value + 1}**`);
    const after = await e2e.database.query<{ value: number; points: number }>(
      "SELECT l.value, l.points FROM trust_link l JOIN character g ON g.id = l.giver_id JOIN character h ON h.id = l.holder_id WHERE g.name = 'Akio' AND h.name = 'Bo'",
    );
    expect(after[0]).toEqual({ value: before[0]!.value + 1, points: before[0]!.value + 1 });
    const rounds = await e2e.database.query<{ status: string }>(
      "SELECT status FROM flow WHERE kind = 'mw.trust-round'",
    );
    expect(rounds).toEqual([{ status: "closed" }]);
  });

  it("a conflict's buttons and commands work right after the owning process crashes and restarts", async () => {
    const started = await slash(gm, "conflict", ["start"], { opponent: "Oni" }).settled();
    const panel = started.original!;
    await e2e.double.click(players[0]!, panel, buttonFor(panel, "conflict.join")).settled();

    await e2e.restartProcess(1, "kill");
    const join = e2e.double.click(
      players[1]!,
      panel,
      buttonFor(e2e.double.message(panel.id), "conflict.join"),
    );
    const joined = await join.settled();
    expect(joined.rejected).toEqual([]);
    expect(await handledBy(e2e.bots, join.id)).toBe(1);
    await e2e.double.waitFor(() => (e2e.double.message(panel.id).text.includes("Bo") ? true : null), {
      timeoutMs: 5000,
      what: () => `the panel to show Bo: ${e2e.double.message(panel.id).text}`,
    });
    const show = slash(players[2]!, "conflict", ["show"]);
    expect((await show.settled()).original?.text).toContain("Akio");
    expect(await handledBy(e2e.bots, show.id)).toBe(1);
    const conflict = await e2e.database.query<{ state: { participants?: Array<{ name: string }> } }>(
      "SELECT state FROM flow WHERE kind = 'mw.conflict' AND status = 'open'",
    );
    expect(JSON.stringify(conflict[0]?.state)).toContain("Bo");
    await slash(gm, "conflict", ["end"]).settled();
  });

  it("never answered late, never failed a callback, never pinged", () => {
    expect(e2e.double.failedInteractions()).toEqual([]);
    expect(e2e.double.pingedMessages().filter((m) => m.mentions.everyone || m.mentions.roles.length)).toEqual(
      [],
    );
  });
});

describe("e2e: SHARD_COUNT=2 alone runs a sharding manager with one process per shard", () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E({ shardCount: 2, env: { SHARD_COUNT: "2" } });
  });
  afterAll(async () => e2e?.stop());

  it("starts both shards, answers a guild on each, and stops them all on SIGTERM", async () => {
    const logs = e2e.bot.logs();
    expect(logs.filter((l) => l.msg === "shard process starting").map((l) => l.shardId)).toEqual([0, 1]);
    const user = e2e.double.addUser({ username: "ann" });
    for (const shardId of [0, 1]) {
      const guild = e2e.double.addGuild({ name: `Guild ${shardId}`, onShard: { shardId, shardCount: 2 } });
      const channel = e2e.double.addChannel({ guildId: guild, name: "dice" });
      const roll = await e2e.double.slash(user, channel, "roll", [], { expression: "2d6" }).response();
      expect(roll.message?.text).toMatch(/2d6 \[\d, \d\]/);
    }
    await e2e.bot.stop();
    expect(e2e.bot.alive()).toBe(false);
    await e2e.double.waitFor(() => (e2e.double.sessions().every((s) => !s.connected) ? true : null), {
      timeoutMs: 10_000,
      what: () => `every shard to disconnect: ${JSON.stringify(e2e.double.sessions())}`,
    });
  });
});
