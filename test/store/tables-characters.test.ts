import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  activePlayerCharacters,
  characterNames,
  createCharacter,
  deleteCharacter,
  liveCharacterById,
  liveCharacterByKey,
  liveCharacterNamesContaining,
  liveCharacterOfSign,
  livePlayerCharactersActiveIncapacitatedOrDead,
  livePlayerCharactersActiveRetiredOrDead,
  livePlayerCharactersWithOwner,
  liveTableCharacters,
  liveTableCharactersRead,
  ownedCharacters,
  ownedCharactersRead,
  renameCharacter,
  setCharacterStatus,
  tableCharacters,
} from "../../src/store/characters.js";
import { type Db, inTransaction, outsideTransaction, type Tx } from "../../src/store/db.js";
import {
  activeTable,
  archiveTable,
  createTable,
  giveAutoTablesTheirGmLanguage,
  setTableState,
  tableById,
} from "../../src/store/tables.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { recordSentStatements } from "../support/sent-statements.js";

/**
 * The table and character stores (src/store/tables.ts, src/store/characters.ts): raw SQL that
 * must give back what Prisma's client gave — defaults, JSON, UTC times — and note every
 * game_table write for the table cache.
 */
describe("the table and character stores", () => {
  let database: TestDatabase;
  let db: Db;
  let channel = 500;
  const place = () => {
    const channelId = String(++channel);
    return { guildId: "1", channelId, system: "fate", gmUserId: "9", language: "en", trustMode: "secret" };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
  });
  afterAll(async () => {
    await database.drop();
  });

  it("creates a table with the schema's defaults and a UTC creation time, noted as written", async () => {
    const before = Date.now();
    const { table, noted } = await inTransaction(db, async (tx) => {
      const table = await createTable(tx, place());
      return { table, noted: [...tx.tablesWritten] };
    });
    expect(noted).toEqual(["new", table.id]);
    expect(table).toMatchObject({ status: "active", chapter: 1, state: {}, archivedAt: null });
    expect(table.activeChannelId).toBe(table.channelId);
    expect(table.createdAt.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(table.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 5);
    // Stored as UTC, as Prisma's client stores and reads it.
    const [stored] = await database.query<{ utc: string }>(
      'SELECT to_char(created_at, \'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"\') AS utc FROM game_table WHERE id = $1',
      [table.id],
    );
    expect(stored!.utc).toBe(table.createdAt.toISOString());
    const prismaSees = await db.gameTable.findUniqueOrThrow({ where: { id: table.id } });
    expect(prismaSees).toEqual(table);
  });

  it("keeps any JSON table state as written (property)", async () => {
    const table = await inTransaction(db, (tx) => createTable(tx, place()));
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string(), fc.jsonValue()).filter((v) => !JSON.stringify(v).includes("\\u0000")),
        async (state) => {
          await inTransaction(db, (tx) => setTableState(tx, table.id, state));
          const read = await tableById(outsideTransaction(db), table.id);
          expect(read!.state).toEqual(JSON.parse(JSON.stringify(state)));
        },
      ),
      { numRuns: 40 },
    );
  });

  it("archives a table: the channel is free again, its open flows close, closed ones keep their time", async () => {
    const table = await inTransaction(db, (tx) => createTable(tx, place()));
    const [open] = await database.query<{ id: number }>(
      "INSERT INTO flow (table_id, kind, state, created_by_user_id) VALUES ($1, 'fate.check', '{}', '9') RETURNING id",
      [table.id],
    );
    const [closed] = await database.query<{ id: number }>(
      "INSERT INTO flow (table_id, kind, status, state, created_by_user_id, closed_at) VALUES ($1, 'fate.check', 'closed', '{}', '9', '2026-01-01') RETURNING id",
      [table.id],
    );
    const at = new Date("2026-12-02T01:02:03.456Z");
    const noted = await inTransaction(db, async (tx) => {
      await archiveTable(tx, table.id, at);
      return [...tx.tablesWritten];
    });
    expect(noted).toEqual([table.id]);
    expect(await activeTable(db, table.channelId)).toBeNull();
    expect(await tableById(db, table.id)).toMatchObject({
      status: "archived",
      activeChannelId: null,
      archivedAt: at,
    });
    const flows = await db.flow.findMany({ where: { tableId: table.id }, orderBy: { id: "asc" } });
    expect(flows.map((f) => [f.id, f.status, f.closedAt?.toISOString()])).toEqual([
      [open!.id, "closed", at.toISOString()],
      [closed!.id, "closed", "2026-01-01T00:00:00.000Z"],
    ]);
    const again = await inTransaction(db, (tx) =>
      createTable(tx, { ...place(), channelId: table.channelId }),
    );
    expect(await activeTable(db, table.channelId)).toEqual(again);
  });

  it("gives a GM's tables still marked 'auto' that GM's language, and no other table", async () => {
    const auto = await inTransaction(db, (tx) =>
      createTable(tx, { ...place(), gmUserId: "77", language: "auto" }),
    );
    const fixed = await inTransaction(db, (tx) =>
      createTable(tx, { ...place(), gmUserId: "77", language: "en" }),
    );
    const others = await inTransaction(db, (tx) =>
      createTable(tx, { ...place(), gmUserId: "78", language: "auto" }),
    );
    await giveAutoTablesTheirGmLanguage(db, "77", "ru");
    expect((await tableById(db, auto.id))!.language).toBe("ru");
    expect((await tableById(db, fixed.id))!.language).toBe("en");
    expect((await tableById(db, others.id))!.language).toBe("auto");
  });

  it("creates, finds, renames and deletes characters as the common commands need", async () => {
    const table = await inTransaction(db, (tx) => createTable(tx, place()));
    const made = await inTransaction(db, async (tx) => {
      const akio = await createCharacter(tx, {
        tableId: table.id,
        name: "Akio",
        nameKey: "akio",
        ownerUserId: "5",
        kind: "pc",
        strength: "strong",
        zodiac: "rat",
      });
      const oni = await createCharacter(tx, {
        tableId: table.id,
        name: "Oni",
        nameKey: "oni",
        ownerUserId: null,
        kind: "npc",
        strength: "medium",
        zodiac: null,
      });
      // Characters are no table write: the table cache keeps the table.
      expect(tx.tablesWritten.size).toBe(0);
      return { akio, oni };
    });
    // The schema's defaults, as Prisma's client would have filled them in.
    expect(made.akio).toMatchObject({
      status: "active",
      sheet: {},
      fatePoints: 0,
      refresh: 3,
      victoryPoints: 0,
    });
    expect(made.akio).toEqual(await db.character.findUniqueOrThrow({ where: { id: made.akio.id } }));
    expect((await liveCharacterByKey(db, table.id, "akio"))?.id).toBe(made.akio.id);
    expect(await liveCharacterByKey(db, table.id, "akio", { except: made.akio.id })).toBeNull();
    expect((await liveCharacterOfSign(db, table.id, "rat"))?.id).toBe(made.akio.id);
    expect((await ownedCharacters(db, table.id, "5")).map((c) => c.name)).toEqual(["Akio"]);
    expect((await tableCharacters(db, table.id)).map((c) => [c.name, c.kind])).toEqual([
      ["Oni", "npc"],
      ["Akio", "pc"],
    ]);

    await inTransaction(db, (tx) => renameCharacter(tx, made.akio.id, "Akio the Bold", "akio the bold"));
    expect(await liveCharacterByKey(db, table.id, "akio")).toBeNull();
    const deletedAt = new Date("2026-12-02T03:04:05.678Z");
    const renamed = (await liveCharacterByKey(db, table.id, "akio the bold"))!;
    await inTransaction(db, (tx) => deleteCharacter(tx, renamed, deletedAt));
    // The name and the sign are free again; the row stays for the log, which still names it.
    expect(await liveCharacterByKey(db, table.id, "akio the bold")).toBeNull();
    expect(await liveCharacterOfSign(db, table.id, "rat")).toBeNull();
    expect(await ownedCharacters(db, table.id, "5")).toEqual([]);
    expect(await db.character.findUniqueOrThrow({ where: { id: made.akio.id } })).toMatchObject({
      deletedAt,
      zodiac: null,
      nameKey: `akio the bold#deleted#${made.akio.id}`,
    });
    expect(await characterNames(db, [made.akio.id, made.oni.id, 999_999])).toEqual(
      new Map([
        [made.akio.id, "Akio the Bold"],
        [made.oni.id, "Oni"],
      ]),
    );
    expect(await characterNames(db, [])).toEqual(new Map());
  });

  it("lists names for autocomplete by a plain substring of the name key: `%` and `_` match only themselves", async () => {
    const table = await inTransaction(db, (tx) => createTable(tx, place()));
    await inTransaction(db, async (tx) => {
      for (const name of ["Half_Orc", "Halfling", "100% Oni", "Zed"])
        await createCharacter(tx, {
          tableId: table.id,
          name,
          nameKey: name.toLowerCase(),
          ownerUserId: null,
          kind: "npc",
          strength: "medium",
          zodiac: null,
        });
    });
    const names = (key: string, limit = 25) => liveCharacterNamesContaining(db, table.id, key, limit);
    expect(await names("half")).toEqual(["Half_Orc", "Halfling"]);
    expect(await names("_")).toEqual(["Half_Orc"]);
    expect(await names("%")).toEqual(["100% Oni"]);
    expect(await names("")).toEqual(["100% Oni", "Half_Orc", "Halfling", "Zed"]);
    expect(await names("", 2)).toEqual(["100% Oni", "Half_Orc"]);
  });
  it("hands the owned characters read with the opening to each lookup, a copy each, and drops them once a character is written", async () => {
    const { table, mine } = await inTransaction(db, async (tx) => {
      const table = await createTable(tx, place());
      const mine = await createCharacter(tx, {
        tableId: table.id,
        name: "Opened",
        nameKey: "opened",
        ownerUserId: "7",
        kind: "pc",
        strength: "medium",
        zodiac: null,
      });
      return { table, mine };
    });
    await inTransaction(
      db,
      async (tx, [rows = []]) => {
        // The opening's rows, mapped like any read (snake_case columns to the model's fields).
        expect(rows.map((r) => r.owner_user_id)).toEqual(["7"]);
        const at = { tableId: table.id, userId: "7" };
        const scope = ownedCharactersRead.scope(at);
        tx.noteOpened(ownedCharactersRead, scope, rows);
        const first = await ownedCharacters(tx, table.id, "7");
        expect(first.map((c) => [c.id, c.name, c.ownerUserId, c.deletedAt])).toEqual([
          [mine.id, "Opened", "7", null],
        ]);
        // Marked rows show whether a lookup took them or queried: every lookup takes them, each its
        // own copy (changing one's sheet in place changes no other's).
        const marked = rows.map((r) => ({ ...r, name: "From the opening" }));
        tx.noteOpened(ownedCharactersRead, scope, marked);
        const taken = await ownedCharacters(tx, table.id, "7");
        expect(taken[0]?.name).toBe("From the opening");
        (taken[0]!.sheet as Record<string, unknown>).changed = true;
        const again = await ownedCharacters(tx, table.id, "7");
        expect(again[0]?.name).toBe("From the opening");
        expect(again[0]?.sheet).not.toHaveProperty("changed");
        // A character written in the transaction drops them: the lookup queries and sees the write.
        await renameCharacter(tx, mine.id, "Renamed", "renamed");
        expect((await ownedCharacters(tx, table.id, "7"))[0]?.name).toBe("Renamed");
        // Another user's lookup never takes them.
        tx.noteOpened(ownedCharactersRead, scope, marked);
        expect(await ownedCharacters(tx, table.id, "8")).toEqual([]);
      },
      [ownedCharactersRead.statement({ tableId: table.id, userId: "7" })],
    );
  });
  it("answers every lookup of a part of the table's live characters from the opening's read exactly as its query does", async () => {
    const { table, ids } = await inTransaction(db, async (tx) => {
      const table = await createTable(tx, place());
      const ids: number[] = [];
      const cases: Array<[string, string | null, string, string]> = [
        ["Ann", "1", "pc", "active"],
        ["Ben", "2", "pc", "retired"],
        ["Cid", "2", "pc", "dead"],
        ["Dot", "3", "pc", "incapacitated"],
        ["Oni", null, "npc", "active"],
        ["Imp", "1", "npc", "active"],
        ["Gone", "1", "pc", "active"],
      ];
      for (const [name, owner, kind, status] of cases) {
        const c = await createCharacter(tx, {
          tableId: table.id,
          name,
          nameKey: name.toLowerCase(),
          ownerUserId: owner,
          kind,
          strength: "medium",
          zodiac: null,
        });
        await setCharacterStatus(tx, c.id, status);
        ids.push(c.id);
      }
      await deleteCharacter(tx, { id: ids.at(-1)!, nameKey: "gone" }, new Date());
      // Another table's character is never among them.
      const other = await createTable(tx, place());
      await createCharacter(tx, {
        tableId: other.id,
        name: "Ann",
        nameKey: "ann",
        ownerUserId: "1",
        kind: "pc",
        strength: "medium",
        zodiac: null,
      });
      return { table, ids };
    });
    const lookups = (tx: Tx) =>
      Promise.all([
        liveTableCharacters(tx, table.id),
        ownedCharacters(tx, table.id, "1"),
        ownedCharacters(tx, table.id, "2"),
        activePlayerCharacters(tx, table.id),
        livePlayerCharactersActiveRetiredOrDead(tx, table.id),
        livePlayerCharactersActiveIncapacitatedOrDead(tx, table.id),
        livePlayerCharactersWithOwner(tx, table.id),
        liveCharacterByKey(tx, table.id, "ben"),
        liveCharacterByKey(tx, table.id, "ben", { except: ids[1] }),
        liveCharacterByKey(tx, table.id, "gone"),
        liveCharacterById(tx, table.id, ids[3]!),
        liveCharacterById(tx, table.id, ids.at(-1)!),
      ]);
    const queried = await inTransaction(db, (tx) => lookups(tx));
    const at = { tableId: table.id, userId: "1" };
    const recording = recordSentStatements();
    const fromOpening = await inTransaction(
      db,
      async (tx, [rows = []]) => {
        tx.noteOpened(liveTableCharactersRead, liveTableCharactersRead.scope(at), rows);
        recording.sent.length = 0;
        const found = await lookups(tx);
        return { found, sent: [...recording.sent] };
      },
      [liveTableCharactersRead.statement(at)],
    ).finally(() => recording.stop());
    // Not one lookup queried; each found what its query found.
    expect(fromOpening.sent).toEqual([]);
    expect(fromOpening.found).toEqual(queried);
    expect(queried[1]!.map((c) => c.name)).toEqual(["Ann", "Imp"]);
    expect(queried[5]!.map((c) => c.name)).toEqual(["Ann", "Cid", "Dot"]);
  });
});
