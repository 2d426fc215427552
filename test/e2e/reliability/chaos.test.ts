import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActError, type InteractionHandle } from "../../../src/double/index.js";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../../../src/store/embedded-postgres.js";
import { type E2E, startE2E } from "../harness.js";
import {
  answerOf,
  checkFateBooks,
  checkReserveBooks,
  redeliver,
  sleep,
  stopCluster,
  waitUntil,
} from "./ops.js";

const CALLBACK = "POST /interactions/:interactionId/:token/callback";
const FOLLOWUP = "PATCH /webhooks/:appId/:token/messages/:messageId";

interface Sent {
  handle: InteractionHandle;
  /** A change to the books (and the reason it is logged under), or a roll. */
  books: "fate" | "reserve" | null;
  reason: string;
}

/**
 * A bounded chaos run at the bot as `npm start` runs it (under its supervisor), on its own
 * PostgreSQL, under about 16 interactions a second on two tables (fate point gifts, Beast Hunters
 * reserve spends, rolls) with answered interactions delivered again: kill -9 of the bot twice, a
 * PostgreSQL restart, gateway drops, 5xx on the interaction callback and on the edits of deferred
 * answers. Then the ledger checks: the reserve spent is exactly its log entries, the fate points
 * exactly theirs, nothing applied twice, nothing the user was told was done missing.
 */
describe("e2e reliability: a bounded chaos run", () => {
  let root: string;
  let postgres: EmbeddedDatabase;
  let e2e: E2E;
  let gm: string;
  let fateChannel: string;
  let huntChannel: string;
  let initialFatePoints = 0;

  const readyCount = () => e2e.bot.logs().filter((l) => l.msg === "ready").length;
  const botPid = () => e2e.bot.logs().findLast((l) => l.msg === "bot process started")?.childPid as number;
  /** kill -9 of the bot itself (not its supervisor); resolves once the supervisor has it ready again. */
  const crash = async () => {
    const readyBefore = readyCount();
    process.kill(botPid(), "SIGKILL");
    await waitUntil(() => readyCount() > readyBefore, 20_000, "the supervisor to bring the bot back");
    await e2e.double.waitForBot({ timeoutMs: 10_000 });
  };
  const works = async (what: string) =>
    waitUntil(
      async () => {
        const show = await e2e.double.slash(gm, fateChannel, "fp", ["show"], { character: "Ash" }).settled();
        return (show.original?.text ?? "").includes("Ash") && !show.original?.ephemeral;
      },
      15_000,
      `a command to work after ${what}`,
      200,
    );

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "storybot-chaos-"));
    await chmod(root, 0o711);
    postgres = await startEmbeddedPostgres({ dataDir: path.join(root, "db") });
    e2e = await startE2E({ databaseUrl: postgres.url, botOptions: { supervisedSources: true } });
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    fateChannel = e2e.channelId;
    huntChannel = e2e.double.addChannel({ guildId: e2e.guildId, name: "hunt" });
    await e2e.double.slash(gm, fateChannel, "table", ["setup"], { system: "fate" }).settled();
    await e2e.double.slash(gm, huntChannel, "table", ["setup"], { system: "beast-hunters" }).settled();
    await e2e.double.waitFor(
      () => {
        const names = e2e.double.registeredCommands(e2e.guildId).map((c) => c.name);
        return names.includes("fp") && names.includes("reserve") ? true : null;
      },
      { timeoutMs: 10_000, what: () => "the Fate and Beast Hunters commands in the guild" },
    );
    await e2e.double.slash(gm, fateChannel, "character", ["create"], { name: "Ash", kind: "npc" }).settled();
    await e2e.double.slash(gm, huntChannel, "reserve", ["set"], { total: 10_000, ceiling: 10 }).settled();
    expect(await e2e.database.query("SELECT total, spent FROM reserve_pool")).toEqual([
      { total: 10_000, spent: 0 },
    ]);
    const [ash] = await e2e.database.query<{ fate_points: number }>(
      "SELECT fate_points FROM character WHERE name = 'Ash'",
    );
    initialFatePoints = ash!.fate_points;
  });

  afterAll(async () => {
    await e2e?.stop();
    await postgres?.stop().catch(() => {});
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("keeps the books exact through kill -9, a database restart, gateway drops, 5xx and redeliveries under load", async () => {
    const started = Date.now();
    const sent: Sent[] = [];
    let n = 0;
    let undelivered = 0;
    let redeliveries = 0;
    const load = setInterval(() => {
      n++;
      try {
        if (n % 7 === 0 && sent.length > 0) {
          // An interaction delivered again (a gateway replay): never applied twice.
          redeliver(e2e.double, e2e.guildId, sent[(n * 31) % sent.length]!.handle.payload);
          redeliveries++;
          return;
        }
        const reason = `chaos ${n}`;
        const kind = n % 4;
        if (kind === 0) {
          const handle = e2e.double.slash(gm, fateChannel, "fp", ["give"], {
            character: "Ash",
            amount: 1,
            reason,
          });
          sent.push({ handle, books: "fate", reason });
        } else if (kind === 1) {
          const handle = e2e.double.slash(gm, huntChannel, "reserve", ["spend"], { amount: 2, reason });
          sent.push({ handle, books: "reserve", reason });
        } else {
          const channel = kind === 2 ? fateChannel : huntChannel;
          const handle = e2e.double.slash(gm, channel, "roll", [], { expression: "1d6" });
          sent.push({ handle, books: null, reason });
        }
      } catch (error) {
        // No gateway session at that moment (the bot is down): Discord delivers nothing.
        if (!(error instanceof ActError) && !String(error).includes("no session")) throw error;
        undelivered++;
      }
    }, 60);
    try {
      await sleep(2000);
      await crash();
      e2e.double.dropGateway({ mode: "close" });
      e2e.double.failNext(CALLBACK, { status: 503, times: 3 });
      await sleep(1500);
      await stopCluster(postgres.dataDir, "SIGQUIT");
      await sleep(3000);
      postgres = await startEmbeddedPostgres({ dataDir: postgres.dataDir, port: postgres.port });
      await works("the database restart");
      e2e.double.dropGateway({ mode: "destroy" });
      e2e.double.failNext(FOLLOWUP, { status: 502, times: 2 });
      e2e.double.failNext(CALLBACK, { status: 500, times: 2 });
      await sleep(1500);
      await crash();
      await sleep(1500);
    } finally {
      clearInterval(load);
    }
    // Every interaction is answered, or was lost with a bot that was killed (Discord's "did not respond").
    await waitUntil(
      () =>
        sent.every((s) => answerOf(s.handle) !== null || Date.now() - s.handle.view().dispatchedAt > 4000),
      10_000,
      "every interaction to be answered or given up",
    );
    await works("the chaos");
    expect(Date.now() - started, "the chaos is bounded").toBeLessThan(55_000);
    // The supervisor never stopped; it restarted the bot after each kill.
    expect(e2e.bot.alive()).toBe(true);
    expect(e2e.bot.logs().filter((l) => l.msg === "bot process exited; starting it again")).toHaveLength(2);

    const answers = sent.map((s) => answerOf(s.handle));
    for (const answer of answers) expect(answer ?? "").not.toMatch(/internal error|went wrong/i);
    const done = sent.filter(
      (s, i) => s.books && answers[i] && !answers[i]!.includes("temporarily unavailable"),
    );
    // Not a vacuous run: changes of both kinds went through between the faults.
    expect(done.filter((s) => s.books === "fate").length).toBeGreaterThan(5);
    expect(done.filter((s) => s.books === "reserve").length).toBeGreaterThan(5);
    expect(answers.some((a) => a?.includes("temporarily unavailable"))).toBe(true);
    expect(redeliveries).toBeGreaterThan(10);
    expect(e2e.double.requests().filter((r) => r.fault).length, "5xx injected").toBeGreaterThanOrEqual(5);
    expect(
      (await e2e.bot.writtenLogs()).filter((l) => l.msg === "gateway resumed").length,
      "gateway resumes",
    ).toBeGreaterThan(0);
    expect(undelivered).toBeLessThan(sent.length);

    // The ledger checks: fate points = their log, reserve spent = its log, everything told done is there.
    const [ash] = await e2e.database.query<{ id: number }>("SELECT id FROM character WHERE name = 'Ash'");
    const asked = (books: Sent["books"]) => sent.filter((s) => s.books === books);
    expect(await checkFateBooks(e2e.database, ash!.id, initialFatePoints, asked("fate"))).toBeGreaterThan(5);
    expect(await checkReserveBooks(e2e.database, huntChannel, asked("reserve"))).toBeGreaterThan(5);
    // Every applied interaction is recorded once with its log entry, and no other.
    const [counts] = await e2e.database.query<{ processed: number; logged: number }>(
      "SELECT (SELECT count(*)::int FROM processed_interaction) AS processed, (SELECT count(*)::int FROM log_entry) AS logged",
    );
    expect(counts!.processed).toBe(counts!.logged);
  }, 90_000);
});
