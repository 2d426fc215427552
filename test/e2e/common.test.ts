import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { componentId } from "./components.js";
import { buttonIds, type E2E, startE2E } from "./harness.js";

describe("e2e: the real bot process against the Discord double and PostgreSQL", () => {
  let e2e: E2E;
  let gm: string;
  let player: string;
  let other: string;

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    player = e2e.double.addUser({ username: "pavel", locale: "ru" });
    other = e2e.double.addUser({ username: "olga", locale: "en-GB" });
  });
  afterAll(async () => e2e?.stop());

  it("registers valid, localized commands and answers /help well within 3 s", async () => {
    const names = e2e.double.registeredCommands().map((c) => c.name);
    // Global: the common commands (each game's arrive in a guild with its first table of that game).
    expect(names).toEqual(expect.arrayContaining(["help", "table", "roll"]));
    const help = await e2e.slash(player, "help").response();
    expect(help.ephemeral).toBe(true);
    expect(help.ms).toBeLessThan(3000);
    expect(help.message?.text).toContain("С чего начать");
  });

  it("sets up a table and creates characters as a player and as the GM", async () => {
    const setup = await e2e.slash(gm, "table", ["setup"], { system: "mountain-witch" }).settled();
    expect(setup.original?.ephemeral).toBe(false);
    expect(setup.original?.text).toContain("The Mountain Witch");
    const guildNames = e2e.double.registeredCommands(e2e.guildId).map((c) => c.name);
    expect(guildNames).toEqual(expect.arrayContaining(["character", "conflict", "duel", "trust"]));

    const mine = await e2e.slash(player, "character", ["create"], { name: "Акио", zodiac: "rat" }).settled();
    // Public: in the table's language (its GM's, English), even for a Russian player.
    expect(mine.original?.text).toContain("Created **Акио**");

    const npc = await e2e
      .slash(gm, "character", ["create"], { name: "Oni", kind: "npc", strength: "weak" })
      .settled();
    expect(npc.original?.text).toContain("Oni");
    const forOther = await e2e
      .slash(gm, "character", ["create"], { name: "Bo", player: other, zodiac: "horse" })
      .settled();
    expect(forOther.original?.text).toContain("Bo");
    const rows = await e2e.database.query<{ name: string; owner_user_id: string | null }>(
      "SELECT name, owner_user_id FROM character ORDER BY id",
    );
    expect(rows).toEqual([
      { name: "Акио", owner_user_id: player },
      { name: "Oni", owner_user_id: null },
      { name: "Bo", owner_user_id: other },
    ]);
  });

  it("refuses a player's GM action with a localized ephemeral error and changes nothing", async () => {
    const before = await e2e.database.query("SELECT gm_user_id, status FROM game_table");
    const refused = await e2e.slash(player, "table", ["gm"], { user: player }).response();
    expect(refused.ephemeral).toBe(true);
    expect(refused.message?.text).toContain("только ведущий стола или администратор");
    const npc = await e2e.slash(player, "character", ["create"], { name: "X", kind: "npc" }).response();
    expect(npc.ephemeral).toBe(true);
    expect(npc.message?.text).toContain("только ведущий");
    expect(await e2e.database.query("SELECT gm_user_id, status FROM game_table")).toEqual(before);
    expect(await e2e.database.query("SELECT count(*)::int AS n FROM character")).toEqual([{ n: 3 }]);
  });

  it("rolls valid expressions publicly, refuses invalid ones specifically, and keeps secret rolls private", async () => {
    const ok = await e2e.slash(other, "roll", [], { expression: "2d6+3", reason: "climb" }).response();
    expect(ok.ephemeral).toBe(false);
    expect(ok.message?.text).toMatch(/2d6 \[\d, \d\] \+ 3 = \*\*\d+\*\*/);

    const cases: Array<[string, RegExp]> = [
      ["2d0", /2 sides|граней/],
      ["1001d6", /100/],
      ["d", /side|грани/i],
      ["abc", /abc/],
      ["5d6kh9", /9/],
    ];
    for (const [expression, expected] of cases) {
      const bad = await e2e.slash(other, "roll", [], { expression }).response();
      expect(bad.ephemeral, expression).toBe(true);
      expect(bad.message?.text, expression).toMatch(expected);
    }

    const secret = await e2e.slash(other, "roll", [], { expression: "1d20", secret: true }).response();
    expect(secret.ephemeral).toBe(true);
    expect(secret.message?.text).toContain("1d20 [");
    expect(secret.message?.visibleTo).toBe(other);
    const publicMessages = e2e.double.channelMessages(e2e.channelId).filter((m) => m.visibleTo === null);
    expect(publicMessages.some((m) => m.text.includes("2d6"))).toBe(true);
    expect(publicMessages.some((m) => m.text.includes("1d20"))).toBe(false);
    expect(e2e.double.ephemeralsFor(gm).some((m) => m.text.includes("1d20"))).toBe(false);
  });

  it("speaks the table's language in public and each user's own in private; the GM changes the table's", async () => {
    const shown = await e2e.slash(player, "table", ["show"]).response();
    expect(shown.message?.text).toContain("Player characters");
    const log = await e2e.slash(player, "table", ["log"]).response();
    expect(log.ephemeral).toBe(true);
    expect(log.message?.text).toContain("Журнал стола");
    const switched = await e2e.slash(gm, "table", ["language"], { lang: "ru" }).response();
    expect(switched.ephemeral).toBe(false);
    expect(switched.message?.text).toContain("Язык стола теперь — русский");
    const inRussian = await e2e.slash(other, "table", ["show"]).response();
    expect(inRussian.message?.text).toContain("Ведущий");
    const ownLog = await e2e.slash(other, "table", ["log"]).response();
    expect(ownLog.message?.text).toContain("Table log");
    await e2e.slash(gm, "table", ["language"], { lang: "en" }).response();
    const back = await e2e.slash(player, "table", ["show"]).response();
    expect(back.message?.text).toContain("Player characters");
  });

  it("autocompletes character names", async () => {
    const choices = await e2e.double.autocomplete(
      player,
      e2e.channelId,
      "character",
      ["show"],
      { name: "ак" },
      "name",
    );
    expect(choices.map((c) => c.name)).toEqual(["Акио"]);
  });

  it("deletes a character only after a private confirmation; the click answers in place and tells the channel", async () => {
    await e2e.slash(player, "character", ["create"], { name: "Юки" }).settled();
    const asked = await e2e.slash(player, "character", ["delete"], { name: "Юки" }).settled();
    // The question is the player's own, in their language; nothing is deleted yet.
    expect(asked.original?.ephemeral).toBe(true);
    expect(asked.original?.text).toContain("Удалить **Юки**?");
    const alive = "SELECT count(*)::int AS n FROM character WHERE name = 'Юки' AND deleted_at IS NULL";
    expect(await e2e.database.query(alive)).toEqual([{ n: 1 }]);
    await e2e.double
      .click(player, asked.original!, componentId(asked.original, "character.delete-confirm"))
      .settled();
    const answered = await e2e.eventually(asked.original!.id, "**Юки** удалён.");
    expect(buttonIds(answered)).toEqual([]);
    // Told at the table in its language (English), naming who deleted it.
    await e2e.posted(`<@${player}> deleted the character **Юки**.`);
    expect(await e2e.database.query(alive)).toEqual([{ n: 0 }]);
  });

  it("keeps tables and characters across a crash and restart of the bot", async () => {
    await e2e.restart("kill");
    const list = await e2e.slash(other, "character", ["list"]).settled();
    expect(list.original?.text).toContain("Акио");
    expect(list.original?.text).toContain("Oni");
    expect(list.original?.text).toContain("Bo");
    const show = await e2e.slash(other, "table", ["show"]).settled();
    expect(show.original?.text).toContain("The Mountain Witch");
  });

  it("never pinged anyone and never answered late", () => {
    expect(e2e.double.pingedMessages()).toEqual([]);
    expect(e2e.double.lateInteractions()).toEqual([]);
  });
});
