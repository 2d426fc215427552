import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buttonIds, type E2E, startE2E } from "./harness.js";

type Command = {
  name: string;
  name_localizations?: Record<string, string> | null;
  type?: number;
  contexts?: number[] | null;
  options?: Command[];
};

/** Every subcommand path of a command, as a client in `lang` shows it: `/конфликт урон`. */
function leaves(node: Command, lang: "en" | "ru", prefix: string[] = []): string[] {
  const path = [...prefix, lang === "ru" ? (node.name_localizations?.ru ?? node.name) : node.name];
  const subs = (node.options ?? []).filter((o) => o.type === 1 || o.type === 2);
  return subs.length === 0 ? [`/${path.join(" ")}`] : subs.flatMap((s) => leaves(s, lang, path));
}

const MOUNTAIN_WITCH = ["duel", "trust", "chapter", "darkfate", "damage"];
const BEAST_HUNTERS = ["reserve", "challenge"];
const FATE = ["check", "invoke", "aspect", "fp", "compel", "stress", "consequence", "contest", "faction"];

describe("e2e: each guild sees the commands of the games it plays, and /help lists them all", () => {
  let e2e: E2E;
  let gm: string;
  let ruPlayer: string;
  let enPlayer: string;
  let hunterChannel: string;

  const guildCommands = (guildId: string) => e2e.double.registeredCommands(guildId) as unknown as Command[];
  const names = (guildId: string) => guildCommands(guildId).map((c) => c.name);
  const subcommandsOf = (guildId: string, name: string) =>
    guildCommands(guildId)
      .filter((c) => c.name === name)
      .flatMap((c) => leaves(c, "en"));

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    ruPlayer = e2e.double.addUser({ username: "boris", locale: "ru" });
    enPlayer = e2e.double.addUser({ username: "amy", locale: "en-GB" });
    hunterChannel = e2e.double.addChannel({ guildId: e2e.guildId, name: "hunt" });
  });
  afterAll(async () => e2e?.stop());

  it("registers only the common commands globally, and the DM commands for the bot's DMs only", () => {
    const global = e2e.double.registeredCommands() as unknown as Command[];
    const inGuilds = global.filter((c) => c.contexts?.includes(0)).map((c) => c.name);
    expect(inGuilds.sort()).toEqual(["help", "macro", "roll", "table"]);
    const dmOnly = global.filter((c) => !c.contexts?.includes(0));
    expect(dmOnly.map((c) => c.name)).toEqual(["trust"]);
    expect(dmOnly[0]?.contexts).toEqual([1]);
    expect(guildCommands(e2e.guildId)).toEqual([]);
  });

  it("a Fate-only guild gets Fate's commands and nothing of the other games", async () => {
    const setup = await e2e.double.slash(gm, e2e.channelId, "table", ["setup"], { system: "fate" }).settled();
    expect(setup.original?.ephemeral).toBe(false);
    const registered = names(e2e.guildId);
    expect(registered).toEqual(expect.arrayContaining([...FATE, "character", "conflict"]));
    for (const other of [...MOUNTAIN_WITCH, ...BEAST_HUNTERS]) expect(registered).not.toContain(other);
    const sheet = subcommandsOf(e2e.guildId, "character");
    expect(sheet).toContain("/character skill");
    for (const foreign of [
      "/character zodiac",
      "/character abilities",
      "/character tattoo add",
      "/character vp add",
    ])
      expect(sheet).not.toContain(foreign);
    expect(subcommandsOf(e2e.guildId, "conflict")).not.toContain("/conflict betray");
    // The Fate player can play at once with what the answer named.
    const created = await e2e.double
      .slash(enPlayer, e2e.channelId, "character", ["create"], { name: "Mira" })
      .settled();
    expect(created.original?.text).toContain("Mira");
  });

  it("setting up a Beast Hunters table adds its commands; archiving the last one removes them", async () => {
    await e2e.double.slash(gm, hunterChannel, "table", ["setup"], { system: "beast-hunters" }).settled();
    expect(names(e2e.guildId)).toEqual(expect.arrayContaining([...FATE, ...BEAST_HUNTERS]));
    expect(subcommandsOf(e2e.guildId, "character")).toEqual(
      expect.arrayContaining(["/character skill", "/character trait set"]),
    );
    for (const other of MOUNTAIN_WITCH) expect(names(e2e.guildId)).not.toContain(other);

    const asked = await e2e.double.slash(gm, hunterChannel, "table", ["archive"]).settled();
    const confirm = buttonIds(asked.original).find((id) => id.includes("archive"));
    expect(confirm).toBeDefined();
    await e2e.double.click(gm, asked.original!, confirm!).settled();
    const after = names(e2e.guildId);
    for (const gone of BEAST_HUNTERS) expect(after).not.toContain(gone);
    expect(after).toEqual(expect.arrayContaining(FATE));
    expect(subcommandsOf(e2e.guildId, "character")).not.toContain("/character trait set");
  });

  /** `/help topic:<game>` names every subcommand registered in a guild of that game, for an en and a ru reader. */
  async function expectHelpLists(topic: string, guildId: string, channelId: string) {
    for (const [user, lang] of [
      [enPlayer, "en"],
      [ruPlayer, "ru"],
    ] as const) {
      const answer = await e2e.double.slash(user, channelId, "help", [], { topic }).settled();
      expect(answer.original?.ephemeral).toBe(true);
      const text = [answer.original, ...answer.followups].map((m) => m?.text ?? "").join("\n");
      const expected = guildCommands(guildId).flatMap((c) => leaves(c, lang));
      expect(expected.length).toBeGreaterThan(10);
      const missing = expected.filter(
        (path) => !text.includes(`\`${path}\``) && !text.includes(`\`${path} `),
      );
      expect(missing, `${topic} ${lang}`).toEqual([]);
    }
  }

  it("/help topic:fate lists every registered Fate subcommand, with the names each reader's client shows", async () => {
    await expectHelpLists("fate", e2e.guildId, e2e.channelId);
    const ru = await e2e.double.slash(ruPlayer, e2e.channelId, "help", [], { topic: "fate" }).settled();
    expect(ru.original?.text).toContain("`/проверка");
    expect(ru.original?.text).not.toContain("`/check");
  });

  it("/trust works in the bot's DMs, and not in a guild without a Mountain Witch table", async () => {
    // A second server playing The Mountain Witch: its players run the secret trust round in DMs.
    const witchGuild = e2e.double.addGuild({ name: "Witch night" });
    const witchChannel = e2e.double.addChannel({ guildId: witchGuild, name: "mountain" });
    await e2e.double.slash(gm, witchChannel, "table", ["setup"], { system: "mountain-witch" }).settled();
    expect(names(witchGuild)).toEqual(expect.arrayContaining(MOUNTAIN_WITCH));
    for (const other of [...FATE, ...BEAST_HUNTERS]) expect(names(witchGuild)).not.toContain(other);
    await expectHelpLists("mountain-witch", witchGuild, witchChannel);
    await e2e.double
      .slash(ruPlayer, witchChannel, "character", ["create"], { name: "Bo", zodiac: "rat" })
      .settled();
    await e2e.double
      .slash(enPlayer, witchChannel, "character", ["create"], { name: "Akio", zodiac: "ox" })
      .settled();
    await e2e.double.slash(gm, witchChannel, "chapter", ["next"]).settled(); // chapter 1: starting trust
    const opened = await e2e.double.slash(gm, witchChannel, "chapter", ["next"]).settled();
    expect(opened.original?.text).toContain("Trust for chapter 2");

    const set = await e2e.double
      .slash(ruPlayer, e2e.double.dmChannelOf(ruPlayer), "trust", ["set"], { target: "Akio", value: 0 })
      .settled();
    expect(set.original?.text).toContain("Akio: **0**");
    const submitted = await e2e.double
      .slash(ruPlayer, e2e.double.dmChannelOf(ruPlayer), "trust", ["submit"])
      .settled();
    expect(submitted.original).not.toBeNull();

    // The Fate guild has no /trust of its own, and the DM one is not offered in servers.
    expect(() => e2e.double.slash(enPlayer, e2e.channelId, "trust", ["show"])).toThrow(
      /not available in servers/,
    );
  });

  it("at start-up, a guild that already has tables gets its games' commands", async () => {
    // A table that exists while the bot is down (e.g. restored from a backup, or made before an upgrade).
    const restored = e2e.double.addGuild({ name: "Restored" });
    const channel = e2e.double.addChannel({ guildId: restored, name: "hunt" });
    await e2e.bot.stop();
    await e2e.database.query(
      `INSERT INTO game_table (guild_id, channel_id, active_channel_id, system, gm_user_id)
       VALUES ($1, $2, $2, 'beast-hunters', $3)`,
      [restored, channel, gm],
    );
    expect(guildCommands(restored)).toEqual([]);
    await e2e.restart();
    await e2e.double.waitFor(() => (names(restored).includes("challenge") ? true : null), {
      what: () =>
        `the restored guild's Beast Hunters commands; bot log: ${JSON.stringify(
          e2e.bot.logs().filter((l) => String(l.msg).includes("command")),
        )}`,
    });
    for (const other of [...FATE, ...MOUNTAIN_WITCH]) expect(names(restored)).not.toContain(other);
    await expectHelpLists("beast-hunters", restored, channel);
  });

  it("a restart puts no guild's commands again when none changed; a guild the bot is invited to again gets them back", async () => {
    const guildPuts = (from: number) =>
      e2e.double
        .requests()
        .slice(from)
        .filter((r) => r.method === "PUT" && r.route === "/applications/:appId/guilds/:guildId/commands");
    const fateCommands = names(e2e.guildId);
    expect(fateCommands).toContain("check");

    const beforeRestart = e2e.double.requests().length;
    await e2e.restart();
    await e2e.bot.waitForLog((l) => l.msg === "guild commands checked at start-up");
    const checked = e2e.bot.logs().find((l) => l.msg === "guild commands checked at start-up");
    expect(checked).toMatchObject({ toRegister: 0 });
    expect(checked?.guilds).toBeGreaterThanOrEqual(2);
    expect(guildPuts(beforeRestart)).toEqual([]);
    expect(names(e2e.guildId)).toEqual(fateCommands);

    // Kicked and invited again: Discord dropped the guild's commands; the bot puts them back at once.
    const beforeInvite = e2e.double.requests().length;
    e2e.double.reinviteBot(e2e.guildId);
    expect(guildCommands(e2e.guildId)).toEqual([]);
    await e2e.double.waitFor(() => (names(e2e.guildId).includes("check") ? true : null), {
      what: "the Fate guild's commands after it invited the bot again",
    });
    expect(names(e2e.guildId).sort()).toEqual([...fateCommands].sort());
    expect(guildPuts(beforeInvite)).toHaveLength(1);
    await expectHelpLists("fate", e2e.guildId, e2e.channelId);
  });
});
