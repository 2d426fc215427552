import { type Client, Events, Routes, SlashCommandBuilder } from "discord.js";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { UseCaseRegistry } from "../../../src/app/execute.js";
import { createFlow, defineFlowKind } from "../../../src/app/flows.js";
import { appendLog } from "../../../src/app/log.js";
import { defineUseCase, type UseCase } from "../../../src/app/use-case.js";
import type { MessageView } from "../../../src/app/views.js";
import { createClient } from "../../../src/discord/client.js";
import { encodeIntent } from "../../../src/discord/custom-id.js";
import { createRouter } from "../../../src/discord/router.js";
import { DiscordDouble } from "../../../src/double/index.js";
import type { Flow } from "../../../src/generated/prisma/client.js";
import type { MessageKey } from "../../../src/i18n/index.js";
import { seededDice } from "../../../src/rules/dice.js";
import { sqlFor } from "../../../src/store/db.js";
import { createTestDatabase, type TestDatabase } from "../../support/database.js";
import { waitUntil } from "./ops.js";

/** The log text of the test-only use cases below: never shown to anyone. */
const PROBE = "probe" as MessageKey;

/**
 * The real router and discord.js client, in this process, against the Discord double, with probe
 * use cases whose effects hit each Discord fault: slow work, late arrival, expired tokens, deleted
 * panels, missing permissions, closed DMs, 429 and 5xx answers. (The common and game commands go
 * through the same router in the bot process: see the other files here.)
 */

const say = (text: string, ephemeral = false): MessageView => ({
  ephemeral,
  embeds: [{ description: text }],
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// biome-ignore lint/suspicious/noExplicitAny: each use case has its own intent type
const useCases: UseCase<any>[] = [
  defineUseCase({
    schema: z.object({
      type: z.literal("probe.slow"),
      ms: z.number().int().max(5000),
      private: z.boolean().optional(),
      update: z.boolean().optional(),
    }),
    table: "required",
    mutates: true,
    ephemeral: (intent) => intent.private === true,
    async run(ctx) {
      await sleep(ctx.intent.ms);
      await appendLog(ctx, ctx.table!.id, { action: "probe.slow", summary: { key: PROBE } });
      return {
        reply: say(`slow done ${ctx.intent.ms}`, ctx.intent.private === true),
        ...(ctx.intent.update ? { replyMode: "update" as const } : {}),
      };
    },
  }),
  defineUseCase({
    schema: z.object({ type: z.literal("probe.count") }),
    table: "required",
    mutates: true,
    ephemeral: false,
    async run(ctx) {
      await appendLog(ctx, ctx.table!.id, { action: "probe.count", summary: { key: PROBE } });
      return { reply: say("counted") };
    },
  }),
  defineUseCase({
    schema: z.object({ type: z.literal("probe.secret") }),
    table: "required",
    mutates: false,
    ephemeral: true,
    async run() {
      return { reply: say("only you see this", true) };
    },
  }),
  defineUseCase({
    schema: z.object({ type: z.literal("probe.edit-reply"), token: z.string() }),
    table: "required",
    mutates: false,
    ephemeral: true,
    async run(ctx) {
      return {
        reply: say("editing", true),
        effects: [
          { kind: "editInteractionReply", interactionToken: ctx.intent.token, view: say("edited later") },
        ],
      };
    },
  }),
  defineUseCase({
    schema: z.object({ type: z.literal("probe.panel") }),
    table: "required",
    mutates: true,
    ephemeral: false,
    async run(ctx) {
      const flow = await createFlow(ctx.tx, probeFlow, {
        tableId: ctx.table!.id,
        state: { touched: 0 },
        createdByUserId: ctx.actor.userId,
      });
      return { reply: say(`panel of flow ${flow.id}`), replyIsPanelOf: flow.id };
    },
  }),
  defineUseCase({
    schema: z.object({ type: z.literal("probe.touch"), flow: z.number().int() }),
    table: "required",
    mutates: true,
    ephemeral: true,
    async run(ctx) {
      const flow = (await sqlFor(ctx.tx).one<Flow>`SELECT * FROM flow WHERE id = ${ctx.intent.flow}`)!;
      const touched = (flow.state as { touched: number }).touched + 1;
      await sqlFor(ctx.tx).run`UPDATE flow SET state = ${{ touched }}::jsonb WHERE id = ${flow.id}`;
      return {
        reply: say("touched", true),
        effects: [{ kind: "editPanel", flowId: flow.id, view: say(`panel touched ${touched}`) }],
      };
    },
  }),
  defineUseCase({
    schema: z.object({ type: z.literal("probe.post"), channel: z.string() }),
    table: "required",
    mutates: true,
    ephemeral: false,
    async run(ctx) {
      await appendLog(ctx, ctx.table!.id, { action: "probe.post", summary: { key: PROBE } });
      return {
        reply: say("posting"),
        effects: [{ kind: "post", channelId: ctx.intent.channel, view: say("announcement") }],
      };
    },
  }),
  defineUseCase({
    schema: z.object({ type: z.literal("probe.dm") }),
    table: "required",
    mutates: false,
    ephemeral: true,
    async run(ctx) {
      return {
        reply: say("sending you a DM", true),
        effects: [
          {
            kind: "dm",
            userId: ctx.actor.userId,
            view: say("a private note"),
            ifClosed: {
              channelId: ctx.invocation.channelId,
              view: say(`<@${ctx.actor.userId}>, your DMs are closed`),
              intent: { type: "probe.dm-closed" },
            },
          },
        ],
      };
    },
  }),
  defineUseCase({
    schema: z.object({ type: z.literal("probe.dm-closed") }),
    table: "required",
    mutates: true,
    ephemeral: true,
    async run(ctx) {
      await appendLog(ctx, ctx.table!.id, { action: "probe.dm-closed", summary: { key: PROBE } });
      return {};
    },
  }),
];

const commandJson = [
  new SlashCommandBuilder()
    .setName("probe")
    .setDescription("Reliability probes")
    .addSubcommand((s) =>
      s
        .setName("slow")
        .setDescription("Takes its time")
        .addIntegerOption((o) => o.setName("ms").setDescription("How long").setRequired(true))
        .addBooleanOption((o) => o.setName("private").setDescription("Ephemeral answer")),
    )
    .addSubcommand((s) => s.setName("count").setDescription("Records one log entry"))
    .addSubcommand((s) => s.setName("secret").setDescription("Answers privately"))
    .addSubcommand((s) =>
      s
        .setName("edit-reply")
        .setDescription("Edits an earlier answer")
        .addStringOption((o) => o.setName("token").setDescription("Its token").setRequired(true)),
    )
    .addSubcommand((s) => s.setName("panel").setDescription("Posts a panel"))
    .addSubcommand((s) =>
      s
        .setName("touch")
        .setDescription("Edits the panel")
        .addIntegerOption((o) => o.setName("flow").setDescription("Flow id").setRequired(true)),
    )
    .addSubcommand((s) =>
      s
        .setName("post")
        .setDescription("Posts in a channel")
        .addStringOption((o) => o.setName("channel").setDescription("Channel id").setRequired(true)),
    )
    .addSubcommand((s) => s.setName("dm").setDescription("Sends a DM"))
    .toJSON(),
];

/** Blocks this whole process (bot included), as a long GC pause or a stalled host would. */
function stall(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy on purpose
  }
}

/** A flow of the probes' own: a counter its panel shows. */
const probeFlow = defineFlowKind({
  kind: "fate.check",
  version: 1,
  schema: z.object({ touched: z.number().int() }),
});

describe("e2e reliability: Discord faults at the router", () => {
  const double = new DiscordDouble({ retryAfterMs: 300 });
  let database: TestDatabase;
  let client: Client;
  const logs: Array<Record<string, unknown>> = [];
  let guildId: string;
  let channelId: string;
  let otherChannel: string;
  let user: string;
  let tableId: number;

  /** Interactions this file makes fail on purpose (late, or their token expired). */
  const expectedFailures: string[] = [];
  const failed = () => double.failedInteractions().filter((i) => !expectedFailures.includes(i.id));
  const logged = (msg: string) => logs.filter((l) => l.msg === msg);
  const logCount = async (action: string) => database.db.logEntry.count({ where: { action } });

  beforeAll(async () => {
    const { apiBase, token } = await double.start();
    database = await createTestDatabase();
    guildId = double.addGuild({ name: "Faults" });
    channelId = double.addChannel({ guildId, name: "table" });
    otherChannel = double.addChannel({ guildId, name: "announcements" });
    user = double.addUser({ username: "ulla" });
    const table = await database.db.gameTable.create({
      data: { guildId, channelId, activeChannelId: channelId, system: "fate", gmUserId: user },
    });
    tableId = table.id;
    const log = pino(
      { level: "info" },
      {
        write: (line: string) => {
          logs.push(JSON.parse(line) as Record<string, unknown>);
        },
      },
    );
    client = createClient({ apiBase });
    const router = createRouter(client, {
      app: { db: database.db, dice: seededDice(1) },
      registry: new UseCaseRegistry(useCases),
      commands: [],
      autocomplete: [],
      log,
    });
    client.on(Events.InteractionCreate, (interaction) => void router.handle(interaction));
    await client.login(token);
    await double.waitForBot();
    await client.rest.put(Routes.applicationCommands(double.applicationId), { body: commandJson });
  });

  afterAll(async () => {
    await client?.destroy();
    await double.stop();
    await database?.drop();
  });

  it("defers a slow action in time and then completes the answer (public, private, and a button)", async () => {
    const slow = double.slash(user, channelId, "probe", ["slow"], { ms: 1700 });
    const first = await slow.response();
    expect(first.deferred).toBe(true);
    expect(first.ms).toBeLessThan(3000);
    const done = await slow.settled();
    expect(done.original?.text).toContain("slow done 1700");
    expect(done.original?.ephemeral).toBe(false);

    const hidden = await double
      .slash(user, channelId, "probe", ["slow"], { ms: 1500, private: true })
      .settled();
    expect(hidden.ack?.type).toBe(5);
    expect(hidden.original?.ephemeral).toBe(true);
    expect(hidden.original?.text).toContain("slow done 1500");

    const panel = (await client.rest.post(Routes.channelMessages(channelId), {
      body: {
        content: "press",
        components: [
          {
            type: 1,
            components: [
              {
                type: 2,
                style: 1,
                label: "Slow",
                custom_id: encodeIntent({ type: "probe.slow", ms: 1500, update: true }),
              },
            ],
          },
        ],
      },
    })) as { id: string };
    const click = double.click(user, panel.id, encodeIntent({ type: "probe.slow", ms: 1500, update: true }));
    expect((await click.response()).type).toBe(6);
    await click.settled();
    expect(double.message(panel.id).text).toContain("slow done 1500");
    expect(double.lateInteractions()).toEqual([]);
    expect(failed()).toEqual([]);
  });

  it("does not apply an interaction that reached the bot too late to be answered", async () => {
    const before = await logCount("probe.count");
    const handle = double.slash(user, channelId, "probe", ["count"]);
    expectedFailures.push(handle.id);
    stall(3200);
    await double.waitFor(() => logs.some((l) => l.interactionId === handle.id && l.msg === "interaction"), {
      timeoutMs: 5000,
    });
    expect(logged("interaction expired before it could be answered: not applied")).toHaveLength(1);
    expect(await logCount("probe.count")).toBe(before);
    // Discord told the user it failed, so they retry: that one counts, once.
    await double.slash(user, channelId, "probe", ["count"]).settled();
    expect(await logCount("probe.count")).toBe(before + 1);
  });

  it("posts a public answer in the channel when the interaction token expired before it was ready; drops a private one with a log line", async () => {
    const slow = double.slash(user, channelId, "probe", ["slow"], { ms: 1600 });
    expect((await slow.response()).deferred).toBe(true);
    double.advanceClock(16 * 60_000);
    await double.waitFor(() => logged("interaction expired: answer posted in the channel").length === 1, {
      timeoutMs: 5000,
    });
    const posted = double.channelMessages(channelId).filter((m) => m.kind === "channel");
    expect(posted.at(-1)?.text).toContain("slow done 1600");

    const hidden = double.slash(user, channelId, "probe", ["slow"], { ms: 1600, private: true });
    expect((await hidden.response()).deferred).toBe(true);
    double.advanceClock(16 * 60_000);
    await double.waitFor(() => logged("interaction expired: private answer dropped").length === 1, {
      timeoutMs: 5000,
    });
    // Only the public answer exists anywhere; the private one was not shown to everyone instead.
    expect(double.allMessages().filter((m) => m.text.includes("slow done 1600"))).toHaveLength(1);
    // Discord shows both as failed to their users; the test knows why.
    expectedFailures.push(slow.id, hidden.id);
  });

  it("edits an earlier private answer while its token lives, and drops the edit with a log line once it expired", async () => {
    const secret = double.slash(user, channelId, "probe", ["secret"]);
    const answer = await secret.response();
    await double.slash(user, channelId, "probe", ["edit-reply"], { token: secret.token }).settled();
    await double.waitFor(() => double.message(answer.message!.id).text.includes("edited later"));

    const old = double.slash(user, channelId, "probe", ["secret"]);
    await old.response();
    double.advanceClock(16 * 60_000);
    const edit = await double.slash(user, channelId, "probe", ["edit-reply"], { token: old.token }).settled();
    expect(edit.original?.text).toContain("editing");
    await double.waitFor(
      () => logged("interaction token expired: earlier answer left as it was").length === 1,
    );
    expect(logged("effect failed")).toEqual([]);
    expectedFailures.push(old.id); // its edit was refused by Discord, as it should be
  });

  it("re-posts a flow's panel when its message was deleted, and keeps editing the new one", async () => {
    const first = await double.slash(user, channelId, "probe", ["panel"]).settled();
    let flow = await database.db.flow.findFirstOrThrow({ where: { tableId }, orderBy: { id: "desc" } });
    await waitUntil(
      async () => {
        flow = await database.db.flow.findUniqueOrThrow({ where: { id: flow.id } });
        return flow.panelMessageId !== null;
      },
      5000,
      "the panel to be remembered",
    );
    expect(flow.panelMessageId).toBe(first.original?.id);
    double.deleteMessage(flow.panelMessageId!);

    await double.slash(user, channelId, "probe", ["touch"], { flow: flow.id }).settled();
    let moved = flow;
    await waitUntil(
      async () => {
        moved = await database.db.flow.findUniqueOrThrow({ where: { id: flow.id } });
        return moved.panelMessageId !== flow.panelMessageId;
      },
      5000,
      "the panel to be re-posted",
    );
    expect(double.message(moved.panelMessageId!).text).toContain("panel touched 1");
    expect(double.message(moved.panelMessageId!).deleted).toBe(false);

    // The next change edits the new panel in place: no third message.
    const panelsBefore = double
      .channelMessages(channelId)
      .filter((m) => m.text.includes("panel touched")).length;
    await double.slash(user, channelId, "probe", ["touch"], { flow: flow.id }).settled();
    await double.waitFor(() => double.message(moved.panelMessageId!).text.includes("panel touched 2"));
    expect(double.channelMessages(channelId).filter((m) => m.text.includes("panel touched")).length).toBe(
      panelsBefore,
    );
  });

  it("tells the one who acted when the bot may not post in a channel, or it is gone; the action itself stands", async () => {
    double.setSendAllowed(otherChannel, false);
    const before = await logCount("probe.post");
    const denied = double.slash(user, channelId, "probe", ["post"], { channel: otherChannel });
    const [notice] = await denied.followups(1);
    expect(notice?.ephemeral).toBe(true);
    expect(notice?.text).toContain("Send Messages");
    expect(notice?.text).toContain(`<#${otherChannel}>`);
    expect(await logCount("probe.post")).toBe(before + 1);
    double.setSendAllowed(otherChannel, true);

    const gone = double.addChannel({ guildId, name: "old" });
    double.deleteChannel(gone);
    const [goneNotice] = await double
      .slash(user, channelId, "probe", ["post"], { channel: gone })
      .followups(1);
    expect(goneNotice?.text).toContain("no longer exists");
    expect(failed()).toEqual([]);
  });

  it("falls back when a player's DMs are closed: a note in the channel, and the fallback action runs", async () => {
    await double.slash(user, channelId, "probe", ["dm"]).settled();
    await double.waitFor(() => double.dmsOf(user).some((m) => m.text.includes("a private note")));

    double.setDmsClosed(user, true);
    const before = await logCount("probe.dm-closed");
    await double.slash(user, channelId, "probe", ["dm"]).settled();
    await double.waitFor(() =>
      double.channelMessages(channelId).some((m) => m.text.includes("your DMs are closed")),
    );
    await waitUntil(async () => (await logCount("probe.dm-closed")) === before + 1, 5000, "the fallback");
    expect(double.dmsOf(user).filter((m) => m.text.includes("a private note"))).toHaveLength(1);
    expect(double.pingedMessages()).toEqual([]);
    double.setDmsClosed(user, false);
  });

  it("retries answers and posts through 429 and 5xx, and survives a route that keeps failing", async () => {
    const callback = "POST /interactions/:interactionId/:token/callback";
    double.failNext(callback, { status: 429, retryAfterMs: 300 });
    const limited = await double.slash(user, channelId, "probe", ["secret"]).response();
    expect(limited.message?.text).toContain("only you");
    expect(limited.ms).toBeGreaterThanOrEqual(300);
    expect(limited.ms).toBeLessThan(3000);

    double.failNext(callback, { status: 502, times: 2 });
    expect((await double.slash(user, channelId, "probe", ["secret"]).response()).message?.text).toContain(
      "only you",
    );

    const posts = "POST /channels/:channelId/messages";
    double.failNext(posts, { status: 503, times: 2 });
    await double.slash(user, channelId, "probe", ["post"], { channel: otherChannel }).settled();
    await double.waitFor(() =>
      double.channelMessages(otherChannel).some((m) => m.text.includes("announcement")),
    );

    // A route that fails every time: the effect is given up with a log line; the bot goes on.
    const announcements = double.channelMessages(otherChannel).length;
    const failuresBefore = logged("effect failed").length;
    double.failNext(posts, { status: 500, times: 50 });
    await double.slash(user, channelId, "probe", ["post"], { channel: otherChannel }).settled();
    await double.waitFor(() => logged("effect failed").length > failuresBefore, { timeoutMs: 10_000 });
    double.clearFaults();
    expect(double.channelMessages(otherChannel)).toHaveLength(announcements);
    const after = await double.slash(user, channelId, "probe", ["secret"]).response();
    expect(after.message?.text).toContain("only you");
    const statuses = double.requests().map((r) => r.fault);
    expect(statuses).toEqual(expect.arrayContaining(["429", "502", "503", "500"]));
  });
});
