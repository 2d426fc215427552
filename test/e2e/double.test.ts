import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  type ChatInputCommandInteraction,
  Client,
  DiscordAPIError,
  GatewayIntentBits,
  type Interaction,
  MessageFlags,
  ModalBuilder,
  Partials,
  Routes,
  SlashCommandBuilder,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
} from "discord.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  commandSize,
  computeMentions,
  DiscordDouble,
  isValidChatInputName,
  validateCommandList,
  validateMessageBody,
} from "../../src/double/index.js";

/** Error code of a rejected discord.js REST call (or the rejection itself when it is not an API error). */
async function apiErrorCode(promise: Promise<unknown>): Promise<number | string> {
  try {
    await promise;
    return "resolved";
  } catch (error) {
    if (error instanceof DiscordAPIError) return Number(error.code);
    throw error;
  }
}

const commands = [
  new SlashCommandBuilder()
    .setName("ping")
    .setDescription("Answers pong")
    .setNameLocalizations({ ru: "пинг" })
    .setDescriptionLocalizations({ ru: "Отвечает понг" }),
  new SlashCommandBuilder().setName("secret").setDescription("Answers only to you"),
  new SlashCommandBuilder().setName("slow").setDescription("Defers, then edits"),
  new SlashCommandBuilder().setName("multi").setDescription("Replies and follows up"),
  new SlashCommandBuilder()
    .setName("game")
    .setDescription("Game commands")
    .addSubcommand((s) =>
      s
        .setName("roll")
        .setDescription("Roll dice")
        .addIntegerOption((o) =>
          o.setName("dice").setDescription("How many").setRequired(true).setMinValue(1),
        )
        .addStringOption((o) =>
          o
            .setName("mood")
            .setDescription("Mood")
            .addChoices(
              { name: "Calm", value: "calm", name_localizations: { ru: "Спокойно" } },
              { name: "Wild", value: "wild" },
            ),
        ),
    )
    .addSubcommandGroup((g) =>
      g
        .setName("trust")
        .setDescription("Trust")
        .addSubcommand((s) =>
          s
            .setName("give")
            .setDescription("Give trust")
            .addUserOption((o) => o.setName("to").setDescription("Whom").setRequired(true)),
        ),
    ),
  new SlashCommandBuilder().setName("panel").setDescription("Shows buttons"),
  new SlashCommandBuilder().setName("form").setDescription("Shows a modal"),
  new SlashCommandBuilder()
    .setName("pick")
    .setDescription("Autocompletes")
    .addStringOption((o) => o.setName("name").setDescription("Name").setAutocomplete(true).setRequired(true)),
  new SlashCommandBuilder().setName("dm").setDescription("Sends you a DM"),
  new SlashCommandBuilder().setName("long").setDescription("Too long at first"),
  new SlashCommandBuilder().setName("twice").setDescription("Acknowledges twice"),
  new SlashCommandBuilder().setName("announce").setDescription("Mentions everyone"),
  new SlashCommandBuilder().setName("sleepy").setDescription("Answers when released"),
  new SlashCommandBuilder().setName("ignored").setDescription("Never answered"),
  new SlashCommandBuilder()
    .setName("admin")
    .setDescription("Managers only")
    .setDefaultMemberPermissions("32"),
].map((b) => b.toJSON());

describe("DiscordDouble with a real discord.js client", () => {
  const double = new DiscordDouble({ retryAfterMs: 200 });
  let client: Client;
  let guildId: string;
  let channelId: string;
  let alice: string;
  let boris: string;
  let closed: string;
  const replyCodes: Record<string, number | string> = {};
  let releaseSleepy: (() => void) | null = null;

  async function onCommand(i: ChatInputCommandInteraction): Promise<void> {
    switch (i.commandName) {
      case "ping":
        await i.reply(
          `pong ${i.locale} ${i.guildId ?? "dm"} ${i.inGuild() ? i.memberPermissions?.bitfield : "-"}`,
        );
        return;
      case "secret": {
        const callback = await i.reply({
          content: "only you",
          flags: MessageFlags.Ephemeral,
          withResponse: true,
        });
        replyCodes.secretMessageId = callback.resource?.message?.id ?? "none";
        return;
      }
      case "slow":
        await i.deferReply();
        await new Promise((r) => setTimeout(r, 30));
        await i.editReply("done after thinking");
        return;
      case "multi":
        await i.reply("first");
        await i.followUp({ content: "second, secret", flags: MessageFlags.Ephemeral });
        await i.followUp("third, public");
        return;
      case "game": {
        const sub = i.options.getSubcommand();
        if (sub === "roll") {
          await i.reply(
            `roll ${i.options.getInteger("dice", true)} ${i.options.getString("mood") ?? "none"}`,
          );
        } else {
          await i.reply({
            content: `trust to ${i.options.getUser("to", true).username}`,
            allowedMentions: { parse: [] },
          });
        }
        return;
      }
      case "panel":
        await i.reply({
          content: "panel",
          components: [
            new ActionRowBuilder<ButtonBuilder>().addComponents(
              new ButtonBuilder().setCustomId("panel:go").setLabel("Go").setStyle(ButtonStyle.Primary),
              new ButtonBuilder().setCustomId("panel:form").setLabel("Form").setStyle(ButtonStyle.Secondary),
            ),
            new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
              new StringSelectMenuBuilder()
                .setCustomId("panel:color")
                .addOptions({ label: "Red", value: "red" }, { label: "Blue", value: "blue" }),
            ),
          ],
        });
        return;
      case "form":
        await i.showModal(formModal());
        return;
      case "dm":
        await i.deferReply({ flags: MessageFlags.Ephemeral });
        replyCodes[i.user.id] = await apiErrorCode(i.user.send("a private word"));
        await i.editReply(`dm result ${replyCodes[i.user.id]}`);
        return;
      case "long":
        replyCodes.long = await apiErrorCode(i.reply("x".repeat(2001)));
        await i.reply("short enough");
        return;
      case "twice":
        await i.reply("once");
        replyCodes.twice = await apiErrorCode(
          client.rest.post(Routes.interactionCallback(i.id, i.token), {
            body: { type: 4, data: { content: "twice" } },
            auth: false,
          }),
        );
        return;
      case "announce":
        await i.reply({ content: "@everyone the game starts", allowedMentions: { parse: [] } });
        return;
      case "sleepy":
        await new Promise<void>((r) => {
          releaseSleepy = r;
        });
        replyCodes.sleepy = await apiErrorCode(i.reply("too late"));
        return;
      case "admin":
        await i.reply({ content: "admin ok", flags: MessageFlags.Ephemeral });
        return;
    }
  }

  function formModal(): ModalBuilder {
    return new ModalBuilder()
      .setCustomId("form:aspect")
      .setTitle("Aspect")
      .addComponents(
        new ActionRowBuilder<TextInputBuilder>().addComponents(
          new TextInputBuilder()
            .setCustomId("aspect")
            .setLabel("Aspect")
            .setStyle(TextInputStyle.Short)
            .setMaxLength(40),
        ),
      );
  }

  async function onInteraction(i: Interaction): Promise<void> {
    if (i.isChatInputCommand()) return onCommand(i);
    if (i.isAutocomplete()) {
      const typed = String(i.options.getFocused());
      await i.respond(
        ["alpha", "beta", "alphonse"].filter((n) => n.startsWith(typed)).map((n) => ({ name: n, value: n })),
      );
      return;
    }
    if (i.isButton() && i.customId === "panel:go") {
      await i.update({ content: `went by ${i.user.username}`, components: [] });
      return;
    }
    if (i.isButton() && i.customId === "panel:form") {
      await i.showModal(formModal());
      return;
    }
    if (i.isStringSelectMenu()) {
      await i.update({ content: `color ${i.values.join(",")}` });
      return;
    }
    if (i.isModalSubmit()) {
      await i.reply({
        content: `aspect: ${i.fields.getTextInputValue("aspect")}`,
        flags: MessageFlags.Ephemeral,
      });
    }
  }

  beforeAll(async () => {
    const { apiBase } = await double.start();
    guildId = double.addGuild({ name: "Table", preferredLocale: "ru" });
    channelId = double.addChannel({ guildId, name: "game" });
    alice = double.addUser({ username: "alice", locale: "en-US", manageGuild: true });
    boris = double.addUser({ username: "boris", locale: "ru" });
    closed = double.addUser({ username: "closed", dmsClosed: true });

    client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.DirectMessages],
      partials: [Partials.Channel],
      rest: { api: apiBase },
    });
    client.on("interactionCreate", (i) => {
      onInteraction(i).catch((error) => {
        replyCodes.unexpected = String(error);
      });
    });
    const ready = new Promise<void>((resolve) => client.once("clientReady", () => resolve()));
    await client.login(double.token);
    await ready;
    await client.application?.commands.set(commands);
  });

  afterAll(async () => {
    await client?.destroy();
    await double.stop();
  });

  it("logs in over the gateway and registers validated commands with ids", async () => {
    const sessions = await double.waitForBot();
    expect(sessions).toHaveLength(1);
    expect(client.guilds.cache.get(guildId)?.name).toBe("Table");
    const registered = double.registeredCommands();
    expect(registered.map((c) => c.name)).toContain("ping");
    expect(registered.find((c) => c.name === "ping")?.name_localizations).toEqual({ ru: "пинг" });
    expect(registered.every((c) => typeof c.id === "string")).toBe(true);
    const ids = registered.map((c) => c.id);
    // A second bulk overwrite keeps the ids of commands with the same name.
    await client.application?.commands.set(commands);
    expect(double.registeredCommands().map((c) => c.id)).toEqual(ids);
  });

  it("rejects an invalid command list with 400 / 50035 and keeps the previous set", async () => {
    const before = double.registeredCommands().length;
    const bad = [{ name: "Bad Name", description: "x", name_localizations: { xx: "bad" } }];
    const code = await apiErrorCode(client.application!.commands.set(bad as never));
    expect(code).toBe(50035);
    expect(double.registeredCommands()).toHaveLength(before);
    const last = double.requests().at(-1);
    expect(last).toMatchObject({
      method: "PUT",
      route: "/applications/:appId/commands",
      status: 400,
      code: 50035,
    });
  });

  it("answers a plain reply with the member's locale, guild locale and permissions", async () => {
    const handle = double.slash(boris, channelId, "ping");
    expect(handle.payload).toMatchObject({ locale: "ru", guild_locale: "ru", guild_id: guildId, context: 0 });
    const response = await handle.response();
    expect(response.type).toBe(4);
    expect(response.ephemeral).toBe(false);
    expect(response.ms).toBeLessThan(3000);
    expect(response.message?.content).toMatch(/^pong ru \d+ \d+$/);
    expect(BigInt(response.message!.content.split(" ")[3]!) & 0x20n).toBe(0n);
    expect(double.channelMessages(channelId).map((m) => m.id)).toContain(response.message?.id);
  });

  it("keeps ephemeral replies visible only to the user who ran the command", async () => {
    const response = await double.slash(alice, channelId, "secret").response();
    expect(response.ephemeral).toBe(true);
    // with_response=true: discord.js got the created message back.
    expect(await double.waitFor(() => replyCodes.secretMessageId)).toBe(response.message?.id);
    expect(double.ephemeralsFor(alice).map((m) => m.content)).toContain("only you");
    expect(double.ephemeralsFor(boris).map((m) => m.content)).not.toContain("only you");
    expect(double.channelMessages(channelId).map((m) => m.content)).not.toContain("only you");
    expect(double.messagesVisibleTo(boris).map((m) => m.text)).not.toContain("only you");
    expect(double.messagesVisibleTo(alice).map((m) => m.text)).toContain("only you");
  });

  it("follows a deferred reply until it is edited, with its edit history", async () => {
    const handle = double.slash(alice, channelId, "slow");
    const response = await handle.response();
    expect(response.deferred).toBe(true);
    const settled = await handle.settled();
    expect(settled.original?.content).toBe("done after thinking");
    expect(settled.original?.loading).toBe(false);
    expect(settled.original?.history.map((h) => h.content)).toEqual(["", "done after thinking"]);
  });

  it("records followups, public and ephemeral", async () => {
    const handle = double.slash(alice, channelId, "multi");
    const followups = await handle.followups(2);
    expect(followups.map((f) => [f.content, f.ephemeral])).toEqual([
      ["second, secret", true],
      ["third, public", false],
    ]);
    expect(double.ephemeralsFor(alice).map((m) => m.content)).toContain("second, secret");
    expect(double.channelMessages(channelId).map((m) => m.content)).toContain("third, public");
  });

  it("nests sub-commands and groups and types options from the registered definition", async () => {
    const roll = await double.slash(alice, channelId, "game", ["roll"], { dice: 3, mood: "calm" }).response();
    expect(roll.message?.content).toBe("roll 3 calm");
    const trust = double.slash(alice, channelId, "game", ["trust", "give"], { to: boris });
    expect((trust.payload.data as { options: unknown }).options).toEqual([
      {
        name: "trust",
        type: 2,
        options: [{ name: "give", type: 1, options: [{ name: "to", type: 6, value: boris }] }],
      },
    ]);
    expect((await trust.response()).message?.content).toBe("trust to boris");
    // What the Discord client itself would refuse never reaches the bot.
    expect(() => double.slash(alice, channelId, "game", ["roll"], { dice: "3" })).toThrow(
      /expected an integer/,
    );
    expect(() => double.slash(alice, channelId, "game", ["roll"], {})).toThrow(/required option "dice"/);
    expect(() => double.slash(alice, channelId, "game", ["roll"], { dice: 1, mood: "sad" })).toThrow(
      /choices/,
    );
    expect(() => double.slash(boris, channelId, "admin")).toThrow(/default_member_permissions/);
    expect((await double.slash(alice, channelId, "admin").response()).message?.content).toBe("admin ok");
  });

  it("handles a button click with update, a select, and a modal opened from a button", async () => {
    const panel = (await double.slash(alice, channelId, "panel").response()).message!;
    const picked = await double.select(boris, panel, "panel:color", ["blue"]).response();
    expect(picked.type).toBe(7);
    expect(double.message(panel.id).content).toBe("color blue");
    const opened = await double.click(boris, panel, "panel:form").response();
    expect(opened.type).toBe(9);
    const submitted = await double.submitModal(boris, "form:aspect", { aspect: "Brave" }).response();
    expect(submitted.message?.content).toBe("aspect: Brave");
    expect(submitted.message?.visibleTo).toBe(boris);
    const went = await double.click(boris, panel, "panel:go").response();
    expect(went.type).toBe(7);
    const updated = double.message(panel.id);
    expect(updated.content).toBe("went by boris");
    expect(updated.components).toEqual([]);
    expect(updated.history.map((h) => h.content)).toEqual(["panel", "color blue", "went by boris"]);
    expect(() => double.click(boris, panel, "panel:go")).toThrow(/no component/);
  });

  it("shows a modal from a slash command and validates the submission like the client", async () => {
    expect((await double.slash(alice, channelId, "form").response()).modal?.custom_id).toBe("form:aspect");
    expect(() => double.submitModal(alice, "form:aspect", { aspect: "x".repeat(41) })).toThrow(
      /longer than 40/,
    );
    const done = await double.submitModal(alice, "form:aspect", { aspect: "Quick" }).response();
    expect(done.message?.content).toBe("aspect: Quick");
    expect(() => double.submitModal(alice, "form:aspect", { aspect: "again" })).toThrow(/no open modal/);
  });

  it("returns autocomplete choices", async () => {
    const choices = await double.autocomplete(alice, channelId, "pick", [], { name: "al" }, "name");
    expect(choices.map((c) => c.value)).toEqual(["alpha", "alphonse"]);
  });

  it("runs commands in DM context and refuses DMs to users who closed them", async () => {
    const dm = double.dmChannelOf(boris);
    const handle = double.slash(boris, dm, "ping");
    expect(handle.payload.guild_id).toBeUndefined();
    expect(handle.payload).toMatchObject({ context: 1, user: { id: boris }, channel: { type: 1 } });
    expect(handle.payload.member).toBeUndefined();
    expect((await handle.response()).message?.content).toBe("pong ru dm -");
    expect(double.dmsOf(boris).map((m) => m.content)).toContain("pong ru dm -");

    await double.slash(closed, channelId, "dm").settled();
    expect(replyCodes[closed]).toBe(50007);
    expect(double.dmsOf(closed)).toEqual([]);
    await double.slash(alice, channelId, "dm").settled();
    expect(replyCodes[alice]).toBe("resolved");
    expect(double.dmsOf(alice).map((m) => m.content)).toEqual(["a private word"]);
    expect(double.ephemeralsFor(alice).map((m) => m.content)).toContain("dm result resolved");
  });

  it("refuses over-long content, double acknowledgement and late answers, and records them", async () => {
    const long = double.slash(alice, channelId, "long");
    expect((await long.response()).message?.content).toBe("short enough");
    expect(replyCodes.long).toBe(50035);
    expect(long.view().rejected[0]?.details.join()).toMatch(/data\.content: BASE_TYPE_MAX_LENGTH/);

    const twice = double.slash(alice, channelId, "twice");
    await twice.response();
    await double.waitFor(() => replyCodes.twice);
    expect(replyCodes.twice).toBe(40060);

    const sleepy = double.slash(alice, channelId, "sleepy");
    const release = await double.waitFor(() => releaseSleepy);
    double.advanceClock(3_500);
    release();
    await expect(sleepy.response()).rejects.toThrow(/answered late/);
    expect(await double.waitFor(() => replyCodes.sleepy)).toBe(10062);
    expect(double.lateInteractions().map((i) => i.label)).toEqual(["/sleepy"]);

    // Interaction tokens work for 15 minutes, then webhook calls get 401 / 50027.
    const edit = (token: string) =>
      client.rest.patch(Routes.webhookMessage(double.applicationId, token, "@original"), {
        body: { content: "edited later" },
        auth: false,
      });
    expect(await apiErrorCode(edit(long.token))).toBe("resolved");
    double.advanceClock(15 * 60_000);
    expect(await apiErrorCode(edit(long.token))).toBe(50027);
    expect(double.failedInteractions().map((i) => i.label)).toEqual(["/long", "/twice", "/sleepy"]);
  });

  it("explains clearly when the bot never answers", async () => {
    const silent = double.slash(alice, channelId, "ignored");
    await expect(silent.response({ timeoutMs: 150 })).rejects.toThrow(
      /initial response to \/ignored .*delivered to gateway session .*no accepted callback/,
    );
  });

  it("serves the lookups discord.js makes", async () => {
    const application = await client.application!.fetch();
    expect(application.id).toBe(double.applicationId);
    expect((await client.user!.fetch(true)).id).toBe(double.botUserId);
    expect((await client.users.fetch(boris, { force: true })).username).toBe("boris");
    const guild = await client.guilds.fetch({ guild: guildId, force: true });
    expect(guild.preferredLocale).toBe("ru");
    expect((await guild.members.fetch({ user: alice, force: true })).user.username).toBe("alice");
    expect(await apiErrorCode(guild.members.fetch({ user: "1", force: true }))).toBe(10007);
    // Several members at once go over the gateway (op 8 → GUILD_MEMBERS_CHUNK).
    const many = await guild.members.fetch({ user: [alice, boris], time: 2000 });
    expect([...many.keys()].sort()).toEqual([alice, boris].sort());
    const dm = await (await client.users.fetch(alice)).createDM(true);
    expect(dm.id).toBe(double.dmChannelOf(alice));
  });

  it("records who a message would ping under allowed_mentions", async () => {
    const quiet = await double.slash(alice, channelId, "announce").response();
    expect(quiet.message?.mentions).toEqual({ everyone: false, users: [], roles: [] });
    const channel = await client.channels.fetch(channelId);
    if (!channel?.isSendable()) throw new Error("channel not sendable");
    const loud = await channel.send("@everyone look");
    expect(double.message(loud.id).mentions.everyone).toBe(true);
    expect(double.pingedMessages().map((m) => m.id)).toEqual([loud.id]);
  });

  it("survives a dropped gateway connection by resuming and replaying the missed interaction", async () => {
    expect(double.dropGateway({ mode: "close" })).toBe(1);
    await double.waitFor(() => double.sessions().every((s) => !s.connected));
    const handle = double.slash(alice, channelId, "ping");
    expect((await handle.response()).message?.content).toMatch(/^pong en-US/);
    expect(double.sessions()).toMatchObject([{ connected: true, resumes: 1, closeCodes: [4000] }]);

    double.dropGateway({ mode: "destroy" });
    await double.waitFor(() => double.sessions()[0]?.resumes === 2);
    expect((await double.slash(alice, channelId, "ping").response()).type).toBe(4);
  });

  it("lets discord.js retry through an injected 429 and a 502", async () => {
    double.failNext("POST /interactions/:interactionId/:token/callback", { status: 429 });
    const response = await double.slash(alice, channelId, "ping").response();
    expect(response.type).toBe(4);
    const callbacks = double
      .requests()
      .filter((r) => r.route === "/interactions/:interactionId/:token/callback");
    expect(callbacks.slice(-2).map((r) => [r.status, r.fault])).toEqual([
      [429, "429"],
      [204, null],
    ]);

    double.failNext("/channels/:channelId", { status: 502 });
    const channel = await client.channels.fetch(channelId, { force: true });
    expect(channel?.id).toBe(channelId);
  });

  it("injects missing permissions, deleted channels and messages", async () => {
    const channel = await client.channels.fetch(channelId);
    if (!channel?.isSendable()) throw new Error("channel not sendable");
    const withFile = await channel.send({
      content: "log",
      files: [{ attachment: Buffer.from("hi"), name: "log.txt" }],
    });
    expect(double.message(withFile.id).content).toBe("log");
    const message = await channel.send("to be deleted");
    double.deleteMessage(message.id);
    expect(await apiErrorCode(message.edit("nope"))).toBe(10008);

    double.setSendAllowed(channelId, false);
    expect(await apiErrorCode(channel.send("muted"))).toBe(50013);
    double.setSendAllowed(channelId, true);

    const spare = double.addChannel({ guildId, name: "spare" });
    await double.waitFor(() => client.channels.cache.get(spare));
    double.deleteChannel(spare);
    expect(await apiErrorCode(client.rest.get(Routes.channel(spare)))).toBe(10003);
    expect(double.unknownRoutes()).toEqual([]);
    expect(replyCodes.unexpected).toBeUndefined();
  });
});

describe("DiscordDouble with two bot processes on two shards", () => {
  it("routes each guild's interactions to the shard that owns it, DMs to shard 0", async () => {
    const double = new DiscordDouble({ shardCount: 2 });
    const { apiBase } = await double.start();
    const g0 = double.addGuild({ onShard: { shardId: 0, shardCount: 2 } });
    const g1 = double.addGuild({ onShard: { shardId: 1, shardCount: 2 } });
    const c0 = double.addChannel({ guildId: g0 });
    const c1 = double.addChannel({ guildId: g1 });
    const user = double.addUser();
    const clients = [0, 1].map((shard) => {
      const c = new Client({
        intents: [GatewayIntentBits.Guilds],
        partials: [Partials.Channel],
        shards: [shard],
        shardCount: 2,
        rest: { api: apiBase },
      });
      c.on("interactionCreate", (i) => {
        if (i.isChatInputCommand()) void i.reply(`shard ${shard} has ${c.guilds.cache.size} guild(s)`);
      });
      return c;
    });
    try {
      await Promise.all(clients.map((c) => c.login(double.token)));
      await double.waitForBot();
      await clients[0]!.application!.commands.set([{ name: "where", description: "Which shard?" }]);
      const r0 = await double.slash(user, c0, "where").response();
      const r1 = await double.slash(user, c1, "where").response();
      const rdm = await double.slash(user, double.dmChannelOf(user), "where").response();
      expect([r0, r1, rdm].map((r) => r.message?.content)).toEqual([
        "shard 0 has 1 guild(s)",
        "shard 1 has 1 guild(s)",
        "shard 0 has 1 guild(s)",
      ]);
    } finally {
      await Promise.all(clients.map((c) => c.destroy()));
      await double.stop();
    }
  });
});

describe("Discord validation rules in the double", () => {
  const cmd = (over: Record<string, unknown>) => ({ name: "roll", description: "Roll", ...over });
  const problems = (body: unknown): string => {
    try {
      validateCommandList(body);
      return "accepted";
    } catch (error) {
      return JSON.stringify((error as { errors?: unknown }).errors);
    }
  };

  it("checks command names, descriptions, localizations and option order", () => {
    expect(isValidChatInputName("бросок")).toBe(true);
    expect(isValidChatInputName("roll-2_d")).toBe(true);
    expect(isValidChatInputName("Roll")).toBe(false);
    expect(isValidChatInputName("two words")).toBe(false);
    expect(isValidChatInputName("x".repeat(33))).toBe(false);
    expect(problems([cmd({})])).toBe("accepted");
    expect(problems([cmd({ description: "" })])).toContain("BASE_TYPE_BAD_LENGTH");
    expect(problems([cmd({ description: "d".repeat(101) })])).toContain("BASE_TYPE_BAD_LENGTH");
    expect(problems([cmd({ name_localizations: { ru: "бросок", uk: "кидок", "en-US": "roll" } })])).toBe(
      "accepted",
    );
    expect(problems([cmd({ name_localizations: { en: "roll" } })])).toContain("ENUM_TYPE_COERCE");
    expect(problems([cmd({ name_localizations: { ru: "Бросок" } })])).toContain(
      "APPLICATION_COMMAND_INVALID_NAME",
    );
    expect(problems([cmd({}), cmd({})])).toContain("APPLICATION_COMMANDS_DUPLICATE_NAME");
    const opt = (name: string, required: boolean) => ({ type: 3, name, description: "d", required });
    expect(problems([cmd({ options: [opt("a", false), opt("b", true)] })])).toContain(
      "REQUIRED_INVALID_ORDER",
    );
    expect(problems([cmd({ options: Array.from({ length: 26 }, (_, i) => opt(`o${i}`, false)) })])).toContain(
      "BASE_TYPE_MAX_LENGTH",
    );
  });

  it("checks sub-command structure and choices", () => {
    const sub = { type: 1, name: "go", description: "d" };
    expect(problems([cmd({ options: [sub, { type: 3, name: "x", description: "d" }] })])).toContain(
      "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
    );
    expect(problems([cmd({ options: [{ ...sub, options: [sub] }] })])).toContain("OPTIONS_TYPE_INVALID");
    const choices = Array.from({ length: 26 }, (_, i) => ({ name: `c${i}`, value: `c${i}` }));
    expect(problems([cmd({ options: [{ type: 3, name: "c", description: "d", choices }] })])).toContain(
      "BASE_TYPE_MAX_LENGTH",
    );
    expect(
      problems([cmd({ options: [{ type: 5, name: "b", description: "d", choices: choices.slice(0, 2) }] })]),
    ).toContain("CHOICES_INVALID");
  });

  it("counts the 8000-character budget with the longest localization of each field", () => {
    const description = "d".repeat(100);
    const longRu = "р".repeat(100);
    const option = (i: number) => ({
      type: 3,
      name: `o${i}`,
      description,
      description_localizations: { ru: longRu },
      choices: Array.from({ length: 25 }, () => ({
        name: "n".repeat(10),
        value: "v".repeat(10),
        name_localizations: { ru: "и".repeat(20) },
      })),
    });
    // Per option: 2 (name) + 100 (description) + 25 × (20 + 10) = 852; 10 options = 8520 > 8000.
    const big = cmd({ options: Array.from({ length: 10 }, (_, i) => option(i)) });
    expect(commandSize(big)).toBe(4 + 4 + 10 * 852);
    expect(problems([big])).toContain("APPLICATION_COMMAND_TOO_LARGE");
    const fits = cmd({ options: Array.from({ length: 9 }, (_, i) => option(i)) });
    expect(problems([fits])).toBe("accepted");
  });

  it("checks message, embed and component limits", () => {
    const check = (body: unknown) => {
      try {
        validateMessageBody(body, { create: true, allowEphemeral: false });
        return "accepted";
      } catch (error) {
        return `${(error as { code: number }).code} ${JSON.stringify((error as { errors?: unknown }).errors ?? "")}`;
      }
    };
    expect(check({ content: "x".repeat(2000) })).toBe("accepted");
    expect(check({ content: "x".repeat(2001) })).toContain("BASE_TYPE_MAX_LENGTH");
    expect(check({ content: "" })).toMatch(/^50006/);
    expect(check({ embeds: Array.from({ length: 11 }, () => ({ title: "t" })) })).toContain(
      "BASE_TYPE_BAD_LENGTH",
    );
    expect(check({ embeds: [{ title: "t".repeat(257) }] })).toContain("title");
    expect(
      check({ embeds: [{ description: "d".repeat(4000) }, { description: "d".repeat(2001) }] }),
    ).toContain("MAX_EMBED_SIZE_EXCEEDED");
    expect(check({ embeds: [{ fields: [{ name: "n", value: "v".repeat(1025) }] }] })).toContain("value");
    const button = (id: string, label = "b") => ({ type: 2, style: 1, custom_id: id, label });
    const row = (...components: unknown[]) => ({ type: 1, components });
    expect(check({ components: [row(button("a"))] })).toBe("accepted");
    expect(check({ components: Array.from({ length: 6 }, (_, i) => row(button(`b${i}`))) })).toContain(
      "components",
    );
    expect(check({ components: [row(...Array.from({ length: 6 }, (_, i) => button(`b${i}`)))] })).toContain(
      "BASE_TYPE_BAD_LENGTH",
    );
    expect(check({ components: [row(button("x".repeat(101)))] })).toContain("custom_id");
    expect(check({ components: [row(button("a", "l".repeat(81)))] })).toContain("label");
    expect(check({ components: [row(button("a"), button("a"))] })).toContain(
      "COMPONENT_CUSTOM_ID_DUPLICATED",
    );
    const options = Array.from({ length: 26 }, (_, i) => ({ label: `l${i}`, value: `v${i}` }));
    expect(check({ components: [row({ type: 3, custom_id: "s", options })] })).toContain("options");
    expect(check({ content: "x", flags: MessageFlags.Ephemeral })).toContain("MESSAGE_FLAGS_INVALID");
  });

  it("computes pings from content and allowed_mentions", () => {
    const id = "123456789012345678";
    expect(computeMentions(`@everyone <@${id}>`, undefined)).toEqual({
      everyone: true,
      users: [id],
      roles: [],
    });
    expect(computeMentions(`@everyone <@${id}>`, { parse: [] })).toEqual({
      everyone: false,
      users: [],
      roles: [],
    });
    expect(computeMentions(`@here <@!${id}>`, { parse: ["users"] })).toEqual({
      everyone: false,
      users: [id],
      roles: [],
    });
    expect(computeMentions(`<@&${id}>`, { roles: [id] })).toEqual({
      everyone: false,
      users: [],
      roles: [id],
    });
  });
});
