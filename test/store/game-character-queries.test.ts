import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Character } from "../../src/generated/prisma/client.js";
import {
  activePlayerCharacters,
  activeTablesWithOwnedPlayerCharacter,
  characterAtTable,
  characterStatuses,
  createCharacter,
  creditVictoryPoints,
  deleteCharacter,
  liveCharacterOfSign,
  liveCharactersOfUserOrGmAmong,
  livePlayerCharacterNamesContaining,
  livePlayerCharactersActiveIncapacitatedOrDead,
  livePlayerCharactersActiveRetiredOrDead,
  livePlayerCharactersWithOwner,
  liveTableCharacters,
  liveTableCharactersByName,
  ownedPlayerCharactersAtActiveTables,
  ownsAnyCharacterOf,
  saveCharacterSheet,
  saveSheetFatePointsAndRefresh,
  setCharacterStatus,
  setCharacterZodiac,
  setFatePointsLater,
  setVictoryPointsIfUnchanged,
} from "../../src/store/characters.js";
import { type Db, inTransaction } from "../../src/store/db.js";
import { archiveTable, createTable } from "../../src/store/tables.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

/**
 * The character queries the games use (src/store/characters.ts): each filter as the game code
 * relies on it — which rows count as live, whose they are, and in what order they come.
 */
describe("the games' character queries", () => {
  let database: TestDatabase;
  let db: Db;
  let channel = 900;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
  });
  afterAll(async () => {
    await database.drop();
  });

  /** A table with: Akio (user 5), Oni (nobody's: the GM's), Ren (user 6), Kaze (user 5, deleted). */
  async function seatTable(system = "fate") {
    return inTransaction(db, async (tx) => {
      const table = await createTable(tx, {
        guildId: "1",
        channelId: String(++channel),
        system,
        gmUserId: "9",
        language: "en",
        trustMode: "secret",
      });
      const make = (name: string, ownerUserId: string | null, kind = "pc") =>
        createCharacter(tx, {
          tableId: table.id,
          name,
          nameKey: name.toLowerCase(),
          ownerUserId,
          kind,
          strength: "medium",
          zodiac: null,
        });
      // Created out of name order, so "by name" and "by id" differ.
      const ren = await make("Ren", "6");
      const oni = await make("Oni", null, "npc");
      const akio = await make("Akio", "5");
      const kaze = await make("Kaze", "5");
      await deleteCharacter(tx, kaze, new Date());
      return { table, ren, oni, akio, kaze };
    });
  }

  const names = (rows: Pick<Character, "name">[]) => rows.map((c) => c.name);

  it("lists a table's live characters oldest first, without the deleted ones", async () => {
    const { table } = await seatTable();
    expect(names(await liveTableCharacters(db, table.id))).toEqual(["Ren", "Oni", "Akio"]);
  });

  it("finds a character at its table even once deleted, and not from another table", async () => {
    const { table, kaze } = await seatTable();
    const other = await seatTable();
    expect((await characterAtTable(db, table.id, kaze.id))?.deletedAt).toBeInstanceOf(Date);
    expect(await characterAtTable(db, other.table.id, kaze.id)).toBeNull();
  });

  it("says whether the user owns one of these characters (a deleted one counts, another table's not)", async () => {
    const { table, ren, oni, kaze } = await seatTable();
    const other = await seatTable();
    expect(await ownsAnyCharacterOf(db, table.id, "5", [ren.id, oni.id])).toBe(false);
    expect(await ownsAnyCharacterOf(db, table.id, "5", [ren.id, kaze.id])).toBe(true);
    expect(await ownsAnyCharacterOf(db, table.id, "6", [ren.id])).toBe(true);
    expect(await ownsAnyCharacterOf(db, other.table.id, "6", [ren.id])).toBe(false);
    expect(await ownsAnyCharacterOf(db, table.id, "6", [])).toBe(false);
  });

  it("gives, of some characters, the live ones that are the user's or the GM's, by name", async () => {
    const { table, ren, oni, akio, kaze } = await seatTable();
    const all = [ren.id, oni.id, akio.id, kaze.id];
    expect(names(await liveCharactersOfUserOrGmAmong(db, table.id, all, "5"))).toEqual(["Akio", "Oni"]);
    expect(names(await liveCharactersOfUserOrGmAmong(db, table.id, [ren.id, akio.id], "6"))).toEqual(["Ren"]);
    expect(await liveCharactersOfUserOrGmAmong(db, table.id, [], "5")).toEqual([]);
  });

  it("saves a Fate sheet with its points and returns the row; fate points set later reach the row with the COMMIT", async () => {
    const { akio } = await seatTable();
    const saved = await inTransaction(db, (tx) =>
      saveSheetFatePointsAndRefresh(tx, akio.id, {
        sheet: { skills: { Fight: 2 } },
        fatePoints: 4,
        refresh: 2,
      }),
    );
    expect(saved).toMatchObject({ id: akio.id, sheet: { skills: { Fight: 2 } }, fatePoints: 4, refresh: 2 });
    expect(
      await inTransaction(db, (tx) =>
        saveSheetFatePointsAndRefresh(tx, -1, { sheet: {}, fatePoints: 0, refresh: 0 }),
      ),
    ).toBeNull();
    await inTransaction(db, (tx) => setFatePointsLater(tx, akio.id, 1));
    expect((await db.character.findUniqueOrThrow({ where: { id: akio.id } })).fatePoints).toBe(1);
  });

  it("Beast Hunters: active hunters are live active PCs; the adventure's are active, retired or dead ones", async () => {
    const { table, ren, akio } = await seatTable("beast-hunters");
    const more = await inTransaction(db, async (tx) => {
      const make = (name: string) =>
        createCharacter(tx, {
          tableId: table.id,
          name,
          nameKey: name.toLowerCase(),
          ownerUserId: "7",
          kind: "pc",
          strength: "medium",
          zodiac: null,
        });
      const mio = await make("Mio");
      const sora = await make("Sora");
      const yuki = await make("Yuki");
      await setCharacterStatus(tx, akio.id, "retired");
      await setCharacterStatus(tx, mio.id, "dead");
      await setCharacterStatus(tx, sora.id, "taken-out");
      return { yuki };
    });
    // Oni is an NPC, Kaze deleted: neither ever counts.
    expect(names(await activePlayerCharacters(db, table.id))).toEqual(["Ren", "Yuki"]);
    expect(names(await livePlayerCharactersActiveRetiredOrDead(db, table.id))).toEqual([
      "Ren",
      "Akio",
      "Mio",
      "Yuki",
    ]);
    expect([ren.id, more.yuki.id]).toEqual((await activePlayerCharacters(db, table.id)).map((c) => c.id));
  });

  it("Beast Hunters: victory points are credited, and a spend writes only over the count it was computed from", async () => {
    const { akio } = await seatTable("beast-hunters");
    expect(await inTransaction(db, (tx) => creditVictoryPoints(tx, akio.id, 3))).toEqual({
      id: akio.id,
      victoryPoints: 3,
    });
    expect(await inTransaction(db, (tx) => creditVictoryPoints(tx, -1, 3))).toBeNull();
    expect(
      await inTransaction(db, (tx) => setVictoryPointsIfUnchanged(tx, akio.id, { before: 2, after: 0 })),
    ).toBe(false);
    expect(
      await inTransaction(db, (tx) => setVictoryPointsIfUnchanged(tx, akio.id, { before: 3, after: 1 })),
    ).toBe(true);
    expect((await db.character.findUniqueOrThrow({ where: { id: akio.id } })).victoryPoints).toBe(1);
    const saved = await inTransaction(db, (tx) => saveCharacterSheet(tx, akio.id, { traits: [] }));
    expect(saved).toMatchObject({ id: akio.id, sheet: { traits: [] }, victoryPoints: 1 });
    expect(await inTransaction(db, (tx) => saveCharacterSheet(tx, -1, {}))).toBeNull();
  });

  it("Mountain Witch: lists by name, takes the players' PCs for fates, the active, incapacitated or dead PCs for trust", async () => {
    const { table, ren, oni } = await seatTable("mountain-witch");
    const gmPc = await inTransaction(db, async (tx) => {
      const mio = await createCharacter(tx, {
        tableId: table.id,
        name: "Mio",
        nameKey: "mio",
        ownerUserId: null,
        kind: "pc",
        strength: "medium",
        zodiac: null,
      });
      await setCharacterStatus(tx, ren.id, "retired");
      await setCharacterStatus(tx, oni.id, "incapacitated");
      return mio;
    });
    expect(names(await liveTableCharactersByName(db, table.id))).toEqual(["Akio", "Mio", "Oni", "Ren"]);
    // Mio has no player; Kaze is deleted.
    expect(names(await livePlayerCharactersWithOwner(db, table.id))).toEqual(["Ren", "Akio"]);
    // Ren is retired; Oni is an NPC.
    expect(names(await livePlayerCharactersActiveIncapacitatedOrDead(db, table.id))).toEqual(["Akio", "Mio"]);
    const statuses = await characterStatuses(db, [ren.id, oni.id, gmPc.id]);
    expect(Object.fromEntries(statuses)).toEqual({
      [ren.id]: "retired",
      [oni.id]: "incapacitated",
      [gmPc.id]: "active",
    });
    expect((await characterStatuses(db, [])).size).toBe(0);
  });

  it("Mountain Witch: a sign is taken by another live character, never by the one asking", async () => {
    const { table, akio, ren } = await seatTable("mountain-witch");
    const signed = await inTransaction(db, (tx) => setCharacterZodiac(tx, akio.id, "ox"));
    expect(signed).toMatchObject({ id: akio.id, zodiac: "ox" });
    expect((await liveCharacterOfSign(db, table.id, "ox", { except: ren.id }))?.name).toBe("Akio");
    expect(await liveCharacterOfSign(db, table.id, "ox", { except: akio.id })).toBeNull();
  });

  it("Mountain Witch: autocomplete offers only live player characters, and the user's active tables of the game", async () => {
    const first = await seatTable("mountain-witch");
    const second = await seatTable("mountain-witch");
    const archived = await seatTable("mountain-witch");
    const fate = await seatTable("fate");
    // Hana (user 77) plays at every one of them; at the second table user 77 also runs an NPC.
    await inTransaction(db, async (tx) => {
      for (const { table } of [first, second, archived, fate])
        await createCharacter(tx, {
          tableId: table.id,
          name: "Hana",
          nameKey: "hana",
          ownerUserId: "77",
          kind: "pc",
          strength: "medium",
          zodiac: null,
        });
      await createCharacter(tx, {
        tableId: second.table.id,
        name: "Ichi",
        nameKey: "ichi",
        ownerUserId: "77",
        kind: "npc",
        strength: "medium",
        zodiac: null,
      });
      await archiveTable(tx, archived.table.id, new Date());
    });
    // "o" is in Oni (an NPC) and Kaze is deleted: only player characters that are live.
    expect(await livePlayerCharacterNamesContaining(db, first.table.id, "", 25)).toEqual([
      "Akio",
      "Hana",
      "Ren",
    ]);
    expect(await livePlayerCharacterNamesContaining(db, first.table.id, "o", 25)).toEqual(["Akio"]);
    expect(await livePlayerCharacterNamesContaining(db, first.table.id, "", 1)).toEqual(["Akio"]);
    const mine = await ownedPlayerCharactersAtActiveTables(db, "77", "mountain-witch", 25);
    expect(mine).toEqual([
      { name: "Hana", tableId: first.table.id },
      { name: "Hana", tableId: second.table.id },
    ]);
    expect(await ownedPlayerCharactersAtActiveTables(db, "77", "mountain-witch", 1)).toEqual([mine[0]]);
    const tables = await activeTablesWithOwnedPlayerCharacter(db, "77", "mountain-witch");
    expect(tables.sort((a, b) => a - b)).toEqual([first.table.id, second.table.id]);
    expect(tables).not.toContain(fate.table.id);
  });
});
