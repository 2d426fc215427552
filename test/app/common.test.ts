import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commonIntents } from "../../src/app/common/intents.js";
import type { ButtonView } from "../../src/app/views.js";
import { scriptedDice } from "../../src/rules/dice.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "400000000000000001", name: "Gail" };
const PLAYER = { id: "400000000000000002", name: "Pavel", locale: "ru" };
const OTHER = { id: "400000000000000003", name: "Olga" };
const ADMIN = { id: "400000000000000009", name: "Admin", admin: true };

describe("common use cases", () => {
  let app: AppHarness;
  beforeAll(async () => {
    app = await createAppHarness();
  });
  afterAll(async () => app.close());

  it("refuse table actions before a table exists, and say how to start", async () => {
    expect((await app.refused(GM, { type: "table.show" })).code).toBe("errors.noTable");
    expect((await app.refused(GM, { type: "character.list" })).code).toBe("errors.noTable");
  });

  it("set up a table; the caller becomes GM; a second setup is refused", async () => {
    const done = await app.run(GM, { type: "table.setup", system: "mountain-witch" });
    expect(replyText(done)).toContain("The Mountain Witch");
    const table = await app.db.gameTable.findFirstOrThrow();
    expect(table).toMatchObject({
      gmUserId: GM.id,
      system: "mountain-witch",
      trustMode: "secret",
      status: "active",
    });
    expect((await app.refused(OTHER, { type: "table.setup", system: "fate" })).code).toBe(
      "errors.table.alreadySetUp",
    );
  });

  it("let players create their own character, and only the GM create NPCs or others' characters", async () => {
    await app.run(PLAYER, { type: "character.create", name: "Akio", zodiac: "rat" });
    expect((await app.refused(PLAYER, { type: "character.create", name: "Oni", kind: "npc" })).code).toBe(
      "errors.character.npcGmOnly",
    );
    expect((await app.refused(PLAYER, { type: "character.create", name: "Bo", player: OTHER.id })).code).toBe(
      "errors.character.othersGmOnly",
    );
    await app.run(GM, { type: "character.create", name: "Oni", kind: "npc", strength: "weak" });
    await app.run(GM, { type: "character.create", name: "Bo", player: OTHER.id, zodiac: "horse" });
    const chars = await app.db.character.findMany({ orderBy: { id: "asc" } });
    expect(chars.map((c) => [c.name, c.ownerUserId, c.kind, c.strength])).toEqual([
      ["Akio", PLAYER.id, "pc", "strong"],
      ["Oni", null, "npc", "weak"],
      ["Bo", OTHER.id, "pc", "strong"],
    ]);
  });

  it("refuse duplicate names and signs, mentions in names, and change nothing", async () => {
    const before = await app.db.character.count();
    expect((await app.refused(OTHER, { type: "character.create", name: "  akio " })).code).toBe(
      "errors.character.nameTaken",
    );
    expect((await app.refused(OTHER, { type: "character.create", name: "Zed", zodiac: "rat" })).code).toBe(
      "errors.character.zodiacTaken",
    );
    expect((await app.refused(OTHER, { type: "character.create", name: "@everyone" })).code).toBe(
      "errors.name.mention",
    );
    expect((await app.refused(OTHER, { type: "character.create", name: "\u200b\u200b" })).code).toBe(
      "errors.name.empty",
    );
    expect(await app.db.character.count()).toBe(before);
  });

  it("let only the owner or GM rename; others are refused", async () => {
    expect((await app.refused(OTHER, { type: "character.rename", name: "Akio", newName: "X" })).code).toBe(
      "errors.notYourCharacter",
    );
    await app.run(PLAYER, { type: "character.rename", name: "akio", newName: "Akio Sato" });
    expect(await app.db.character.count({ where: { name: "Akio Sato" } })).toBe(1);
  });

  it("apply an interaction at most once, even when it is delivered twice", async () => {
    const intent = { type: "roll", expression: "2d6" };
    await app.run(PLAYER, intent, { interactionId: "dup-1" });
    await expect(app.run(PLAYER, intent, { interactionId: "dup-1" })).rejects.toThrow(/already processed/);
    expect(await app.db.logEntry.count({ where: { action: "roll" } })).toBe(1);
  });

  it("roll, show every die, and log it; secret rolls are logged for the roller only", async () => {
    app.useDice(scriptedDice([6, 5, 2, 4]));
    const rolled = await app.run(PLAYER, { type: "roll", expression: "4d6kh3", reason: "ambush" });
    expect(replyText(rolled)).toContain("4d6kh3 [6, 5, ~~2~~, 4] = **15**");
    app.useDice(scriptedDice([3, 3]));
    const secret = await app.run(PLAYER, { type: "roll", expression: "2d6", secret: true });
    expect(secret.result.reply?.ephemeral).toBe(true);
    const log = await app.db.logEntry.findFirstOrThrow({ where: { action: "roll.secret" } });
    expect(log.visibleTo).toBe(PLAYER.id);
    const gmView = await app.run(GM, { type: "table.log", limit: 50 });
    expect(replyText(gmView)).not.toContain("in secret");
    const playerView = await app.run(PLAYER, { type: "table.log", limit: 50 });
    expect(replyText(playerView)).toContain("тайный бросок 2d6 = 6");
  });

  it("refuse bad dice expressions with specific errors", async () => {
    for (const [expression, code] of [
      ["2d0", "errors.dice.zeroSides"],
      ["1001d6", "errors.dice.tooManyDice"],
      ["d", "errors.dice.missingSides"],
      ["abc", "errors.dice.unexpected"],
      ["5d6kh9", "errors.dice.keepMoreThanRolled"],
    ] as const) {
      expect((await app.refused(PLAYER, { type: "roll", expression })).code, expression).toBe(code);
    }
  });

  it("speak the table's language in public and each user's own in private", async () => {
    // The table took its GM's (en-US) language at setup: a Russian player's public answer is in English.
    const shown = await app.run(PLAYER, { type: "table.show" });
    expect(replyText(shown)).toContain("Player characters");
    // Private answers are the player's own: help is ephemeral, so it comes in Russian.
    expect(replyText(await app.run(PLAYER, { type: "help", topic: "dice" }))).toContain("Кубики");
    expect((await app.refused(PLAYER, { type: "table.language", lang: "ru" })).code).toBe(
      "errors.gmOrAdminOnly",
    );
    // The GM switches the table to Russian, and says so publicly in Russian.
    expect(replyText(await app.run(GM, { type: "table.language", lang: "ru" }))).toContain("русский");
    expect(replyText(await app.run(GM, { type: "table.show" }))).toContain("Ведущий");
    expect(replyText(await app.run(GM, { type: "help", topic: "dice" }))).toContain("Dice");
    await app.run(GM, { type: "table.language", lang: "en" });
    expect(replyText(await app.run(PLAYER, { type: "table.show" }))).toContain("Player characters");
  });

  it("let a server admin recover a table by handing over the GM role; players may not", async () => {
    expect((await app.refused(PLAYER, { type: "table.gm", user: PLAYER.id })).code).toBe(
      "errors.gmOrAdminOnly",
    );
    await app.run(ADMIN, { type: "table.gm", user: OTHER.id });
    expect((await app.db.gameTable.findFirstOrThrow()).gmUserId).toBe(OTHER.id);
  });

  it("keep the GM's table actions to the GM or a server admin: a player is refused and nothing changes", async () => {
    // Without a table the first refusal is still "no table here", not "GM only".
    expect(
      (await app.refused(PLAYER, { type: "table.gm", user: PLAYER.id }, { channelId: "300000000000000077" }))
        .code,
    ).toBe("errors.noTable");
    const table = await app.db.gameTable.findFirstOrThrow({ where: { channelId: "300000000000000001" } });
    const entries = await app.db.logEntry.count();
    const gmActions = [
      { type: "table.gm", user: PLAYER.id },
      { type: "table.language", lang: "ru" },
      { type: "table.export" },
      { type: "table.archive" },
      { type: "table.archive-confirm", tableId: table.id },
    ];
    for (const intent of gmActions) {
      expect((await app.refused(PLAYER, intent)).code, intent.type).toBe("errors.gmOrAdminOnly");
    }
    expect(await app.db.gameTable.findUniqueOrThrow({ where: { id: table.id } })).toEqual(table);
    expect(await app.db.logEntry.count()).toBe(entries);
    // A server admin who is not the GM may (the export is the admin's own private file).
    const exported = await app.run(ADMIN, { type: "table.export" });
    expect(exported.result.reply?.files?.[0]?.name).toMatch(/^table-mountain-witch-/);
    expect(replyText(await app.run(ADMIN, { type: "table.archive" }))).toContain("Mountain Witch");
  });

  it("explain which game a command belongs to on another game's table", async () => {
    await app.run(GM, { type: "table.setup", system: "fate" }, { channelId: "300000000000000002" });
    expect(
      (
        await app.refused(
          GM,
          { type: "character.create", name: "X", zodiac: "ox" },
          { channelId: "300000000000000002" },
        )
      ).code,
    ).toBe("errors.character.zodiacMountainWitchOnly");
  });

  it("archive only after confirmation, keeping the data, freeing the channel", async () => {
    const asked = await app.run(OTHER, { type: "table.archive" });
    const button = asked.result.reply?.rows?.[0]?.[0];
    expect(button?.kind === "button" && button.intent.type).toBe("table.archive-confirm");
    if (button?.kind !== "button") throw new Error("no button");
    expect((await app.refused(PLAYER, button.intent)).code).toBe("errors.gmOrAdminOnly");
    await app.run(OTHER, button.intent);
    const table = await app.db.gameTable.findFirstOrThrow({ where: { channelId: "300000000000000001" } });
    expect(table).toMatchObject({ status: "archived", activeChannelId: null });
    expect(await app.db.character.count({ where: { tableId: table.id } })).toBe(3);
    await app.run(GM, { type: "table.setup", system: "beast-hunters" });
  });

  it("a confirmation button with a misspelled intent, a missing field or a wrong value does not compile, and its schema refuses it", () => {
    const buttons: ButtonView[] = [
      // @ts-expect-error "table.archive-confrim" is no intent
      { kind: "button", label: "x", intent: { type: "table.archive-confrim", tableId: 1 } },
      // @ts-expect-error the archive confirmation names its table
      { kind: "button", label: "x", intent: { type: "table.archive-confirm", tabelId: 1 } },
      // @ts-expect-error a character is confirmed by its id, not its name
      { kind: "button", label: "x", intent: { type: "character.delete-confirm", characterId: "Akio" } },
      // @ts-expect-error the replace confirmation names the flow holding the file
      { kind: "button", label: "x", intent: { type: "table.import-confirm" } },
    ];
    const [, misspelled, named, missing] = buttons.map((b) => (b.kind === "button" ? b.intent : null));
    expect(commonIntents["table.archive-confirm"].safeParse(misspelled).success).toBe(false);
    expect(commonIntents["character.delete-confirm"].safeParse(named).success).toBe(false);
    expect(commonIntents["table.import-confirm"].safeParse(missing).success).toBe(false);
    expect(
      commonIntents["table.archive-confirm"].safeParse({ type: "table.archive-confirm", tableId: 1 }).success,
    ).toBe(true);
  });
});
