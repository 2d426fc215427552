import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idKindOfKey, remapIds } from "../../src/app/backup-ids.js";
import { readBackup, restoreTable, useTableBackupKey } from "../../src/app/common/table-backup.js";
import type { Executed } from "../../src/app/execute.js";
import { scriptedDice } from "../../src/rules/dice.js";
import { inTransaction } from "../../src/store/db.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "420000000000000001", name: "Gail" };
const PLAYER = { id: "420000000000000002", name: "Pavel", locale: "ru" };
const RIVAL = { id: "420000000000000003", name: "Rita" };
const ADMIN = { id: "420000000000000009", name: "Admin", admin: true };

const FATE = "320000000000000001";
const WITCH = "320000000000000002";
const ELSEWHERE = "320000000000000003";
const THIRD = "320000000000000004";
const HUNTERS = "320000000000000005";
const HUNTERS_COPY = "320000000000000006";
const OTHER_GUILD = "220000000000000002";

const fileOf = (executed: Executed) => new TextDecoder().decode(executed.result.reply?.files?.[0]?.data);
const upload = (text: string, name = "backup.json") => ({ name, size: text.length, text });

/** A backup's content as restored: what must survive a round trip (not when or where it was made). */
function content(text: string) {
  const { exportedAt: _a, source: _s, sealed: _x, signature: _g, ...rest } = JSON.parse(text);
  return rest;
}

describe("/table export and /table import", () => {
  let app: AppHarness;
  beforeAll(async () => {
    app = await createAppHarness();
    // A Fate table with a sheet, an aspect, fate points, a roll and a secret roll.
    await app.run(GM, { type: "table.setup", system: "fate" }, { channelId: FATE });
    await app.run(PLAYER, { type: "character.create", name: "Мира" }, { channelId: FATE });
    await app.run(PLAYER, { type: "character.skill", ranks: "fight 3, lore 1" }, { channelId: FATE });
    await app.run(GM, { type: "aspect.add", name: "Storm coming", invokes: 1 }, { channelId: FATE });
    await app.run(GM, { type: "fp.give", character: "Мира", amount: 2 }, { channelId: FATE });
    app.useDice(scriptedDice([1, 2, 3, 3, 6, 6]));
    await app.run(PLAYER, { type: "roll", expression: "4dF+1" }, { channelId: FATE });
    await app.run(PLAYER, { type: "roll", expression: "2d6", secret: true }, { channelId: FATE });
    // A Mountain Witch table with trust links and a duel in progress (its dice are a secret).
    await app.run(GM, { type: "table.setup", system: "mountain-witch" }, { channelId: WITCH });
    await app.run(PLAYER, { type: "character.create", name: "Akio", zodiac: "rat" }, { channelId: WITCH });
    await app.run(RIVAL, { type: "character.create", name: "Bo", zodiac: "dragon" }, { channelId: WITCH });
    const challenged = await app.run(
      PLAYER,
      { type: "duel.challenge", opponent: "Bo" },
      { channelId: WITCH },
    );
    const flowId = challenged.result.replyIsPanelOf!;
    app.useDice(scriptedDice([5, 2]));
    await app.run(RIVAL, { type: "duel.accept", flowId }, { channelId: WITCH });
    // A Beast Hunters table with hunters, traits and the adventure's reserve.
    await app.run(GM, { type: "table.setup", system: "beast-hunters" }, { channelId: HUNTERS });
    await app.run(PLAYER, { type: "character.create", name: "Hal" }, { channelId: HUNTERS });
    await app.run(
      PLAYER,
      { type: "character.trait.set", name: "Strong", sphere: "physical", value: 3 },
      { channelId: HUNTERS },
    );
    await app.run(PLAYER, { type: "reserve.set", total: 12, ceiling: 4 }, { channelId: HUNTERS });
  });
  afterAll(async () => app.close());

  it("ids in a flow's state are renumbered by what their key names", () => {
    expect(
      ["characterId", "giverIds", "targetId", "flowId", "negotiationId", "expiredDamageIds"].map(idKindOfKey),
    ).toEqual(["character", "character", "character", "flow", "flow", "damage"]);
    expect(["id", "pairingId", "userId", "name"].map(idKindOfKey)).toEqual([null, null, null, null]);
    const maps = {
      character: new Map([[40, 1]]),
      flow: new Map([[7, 1]]),
      damage: new Map(),
      aspect: new Map(),
      table: new Map([[3, 1]]),
    };
    expect(
      remapIds(
        {
          a: { characterId: 40, flowId: 7, pairingId: 40, tableId: 3, ids: [40] },
          b: [{ giverIds: [40, 41] }],
        },
        maps,
      ),
    ).toEqual({
      a: { characterId: 1, flowId: 1, pairingId: 40, tableId: 1, ids: [40] },
      b: [{ giverIds: [1, 41] }],
    });
  });

  it("renumbering ids and numbering them back gives the state it started from (any JSON)", () => {
    const ids = fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 8 });
    const state = fc.jsonValue();
    const keyed = fc.dictionary(
      fc.constantFrom("characterId", "targetId", "giverIds", "flowId", "damageIds", "note", "pairingId"),
      fc.oneof(fc.integer({ min: 1, max: 10_000 }), fc.array(fc.integer({ min: 1, max: 10_000 })), state),
    );
    // A file may hold any key, "__proto__" too: it comes back as the plain key it was.
    const odd = JSON.parse('{"characterId":[{"__proto__":null}],"note":{"__proto__":{"flowId":1}}}');
    const none = new Map<number, number>();
    const kept = remapIds(odd, { character: none, flow: none, damage: none, aspect: none, table: none });
    expect(JSON.stringify(kept)).toBe(JSON.stringify(odd));
    fc.assert(
      fc.property(ids, fc.array(keyed, { maxLength: 4 }), (characters, value) => {
        const forward = new Map(characters.map((id, i) => [id, 20_000 + i]));
        const back = new Map([...forward].map(([a, b]) => [b, a]));
        const none = new Map<number, number>();
        const there = remapIds(value, {
          character: forward,
          flow: none,
          damage: none,
          aspect: none,
          table: none,
        });
        const home = remapIds(there, {
          character: back,
          flow: none,
          damage: none,
          aspect: none,
          table: none,
        });
        expect(home).toEqual(value);
      }),
    );
  });

  it("the GM gets a versioned JSON file of the whole table whose secrets are sealed", async () => {
    expect((await app.refused(PLAYER, { type: "table.export" }, { channelId: WITCH })).code).toBe(
      "errors.gmOrAdminOnly",
    );
    const exported = await app.run(GM, { type: "table.export" }, { channelId: WITCH });
    expect(exported.result.reply?.ephemeral).toBe(true);
    expect(exported.result.reply?.files?.[0]?.name).toMatch(/^table-mountain-witch-\d{4}-\d{2}-\d{2}\.json$/);
    expect(replyText(exported)).toContain("2 characters");
    expect(replyText(exported)).toContain("1 open flow");
    const file = JSON.parse(fileOf(exported));
    expect(file).toMatchObject({
      format: "table-backup",
      version: 1,
      table: { system: "mountain-witch", chapter: 1 },
    });
    expect(file.characters.map((c: { id: number; name: string }) => [c.id, c.name])).toEqual([
      [1, "Akio"],
      [2, "Bo"],
    ]);
    expect(file.trust.length).toBeGreaterThan(0);
    expect(file.flows).toHaveLength(1);
    expect(file.flows[0].state).toBeUndefined();
    // No duel die anywhere in the readable part: not in a flow, not in the log.
    expect(file.log.some((e: { action: string }) => e.action === "duel.dice")).toBe(false);
    expect(JSON.stringify({ ...file, sealed: "" })).not.toMatch(/"dice":\[5|"dice":\[2/);
  });

  it("export → import into another server → export again gives the same file, ids aside", async () => {
    for (const [from, to] of [
      [FATE, ELSEWHERE],
      [WITCH, THIRD],
      [HUNTERS, HUNTERS_COPY],
    ] as const) {
      const first = fileOf(await app.run(GM, { type: "table.export" }, { channelId: from }));
      const restored = await app.run(
        GM,
        { type: "table.import", file: upload(first) },
        { channelId: to, guildId: OTHER_GUILD },
      );
      expect(restored.result.reply?.ephemeral).toBeFalsy();
      const again = fileOf(await app.run(GM, { type: "table.export" }, { channelId: to }));
      expect(content(again)).toEqual(content(first));
      expect(JSON.parse(again).source).toEqual({ guildId: OTHER_GUILD, channelId: to });
    }
    const restored = await app.db.gameTable.findFirstOrThrow({ where: { activeChannelId: ELSEWHERE } });
    expect(restored).toMatchObject({
      guildId: OTHER_GUILD,
      system: "fate",
      gmUserId: GM.id,
      status: "active",
    });
    const mira = await app.db.character.findFirstOrThrow({ where: { tableId: restored.id } });
    expect(mira).toMatchObject({ name: "Мира", ownerUserId: PLAYER.id, fatePoints: 5 });
    const reserve = await app.db.reservePool.findFirstOrThrow({
      where: { table: { activeChannelId: HUNTERS_COPY } },
    });
    expect(reserve).toMatchObject({ total: 12, ceiling: 4, spent: 0 });
    // The secret roll is still the roller's alone in the restored log.
    const secret = await app.db.logEntry.findFirstOrThrow({
      where: { tableId: restored.id, action: "roll.secret" },
    });
    expect(secret.visibleTo).toBe(PLAYER.id);
  });

  it("the restored duel goes on: its flow, ids and secret dice came along", async () => {
    const table = await app.db.gameTable.findFirstOrThrow({ where: { activeChannelId: THIRD } });
    const flow = await app.db.flow.findFirstOrThrow({
      where: { tableId: table.id, kind: "mw.duel", status: "open" },
    });
    const akio = await app.db.character.findFirstOrThrow({ where: { tableId: table.id, name: "Akio" } });
    expect(JSON.stringify(flow.state)).toContain(`"characterId":${akio.id}`);
    const peek = await app.run(
      PLAYER,
      { type: "duel.peek", flowId: flow.id },
      { channelId: THIRD, guildId: OTHER_GUILD },
    );
    expect(peek.result.reply?.ephemeral).toBe(true);
    expect(replyText(peek)).toMatch(/🎲 \d/);
  });

  it("a file exported before flow states had versions restores: its flows load as version 1, upgraded", async () => {
    const text = fileOf(await app.run(GM, { type: "table.export" }, { channelId: WITCH }));
    const OLD_FILE_CHANNEL = "320000000000000007";
    await inTransaction(app.db, async (tx) => {
      const backup = await readBackup(tx, text);
      // As the previous version wrote it: no state_version, and the duel's state without `stopped`.
      for (const flow of backup.flows) delete (flow as Record<string, unknown>).state_version;
      for (const state of Object.values(backup.secrets.flowStates))
        delete (state as Record<string, unknown>).stopped;
      await restoreTable(tx, backup, { guildId: OTHER_GUILD, channelId: OLD_FILE_CHANNEL, gmUserId: GM.id });
    });
    const table = await app.db.gameTable.findFirstOrThrow({ where: { activeChannelId: OLD_FILE_CHANNEL } });
    const flow = await app.db.flow.findFirstOrThrow({ where: { tableId: table.id, kind: "mw.duel" } });
    expect(flow.stateVersion).toBe(1);
    const peek = await app.run(
      PLAYER,
      { type: "duel.peek", flowId: flow.id },
      { channelId: OLD_FILE_CHANNEL, guildId: OTHER_GUILD },
    );
    expect(peek.result.reply?.ephemeral).toBe(true);
    expect(replyText(peek)).toMatch(/🎲 \d/);
  });

  it("a bad or edited file is refused with its first problem named, and nothing changes", async () => {
    const good = fileOf(await app.run(GM, { type: "table.export" }, { channelId: FATE }));
    const tables = await app.db.gameTable.count();
    const cases: Array<[string, string]> = [
      ["{ not json", "not JSON"],
      [JSON.stringify({ hello: 1 }), "not a table backup"],
      [JSON.stringify({ ...JSON.parse(good), version: 9 }), "version 9"],
      [
        JSON.stringify({ ...JSON.parse(good), characters: [{ ...JSON.parse(good).characters[0], name: 7 }] }),
        "characters.0.name",
      ],
      [
        JSON.stringify({
          ...JSON.parse(good),
          characters: [{ ...JSON.parse(good).characters[0], fate_points: 99 }],
        }),
        "the signature does not match",
      ],
      [
        JSON.stringify({
          ...JSON.parse(good),
          sealed: Buffer.from("garbage-garbage-garbage-garbage").toString("base64"),
        }),
        "signature",
      ],
    ];
    for (const [text, named] of cases) {
      const refusal = await app.refused(
        GM,
        { type: "table.import", file: upload(text) },
        { channelId: "320000000000000099" },
      );
      expect(refusal.code, named).toBe("errors.backup.invalid");
      expect(String(refusal.params?.problem), named).toContain(named);
    }
    expect(
      await app.refused(
        GM,
        { type: "table.import", file: { name: "big.json", size: 9e6, text: null } },
        { channelId: "320000000000000099" },
      ),
    ).toEqual({
      code: "errors.backup.unreadable",
      params: { name: "big.json" },
    });
    expect(await app.db.gameTable.count()).toBe(tables);
  });

  it("a channel with a table needs replace:true and the GM's confirmation; then the backup takes its place", async () => {
    const witch = fileOf(await app.run(GM, { type: "table.export" }, { channelId: WITCH }));
    expect(
      (await app.refused(GM, { type: "table.import", file: upload(witch) }, { channelId: FATE })).code,
    ).toBe("errors.backup.notEmpty");
    expect(
      (
        await app.refused(
          PLAYER,
          { type: "table.import", file: upload(witch), replace: true },
          { channelId: FATE },
        )
      ).code,
    ).toBe("errors.gmOrAdminOnly");
    const asked = await app.run(
      GM,
      { type: "table.import", file: upload(witch), replace: true },
      { channelId: FATE },
    );
    expect(asked.result.reply?.ephemeral).toBe(true);
    expect(replyText(asked)).toContain("Replace this table");
    // Nothing changed yet.
    expect((await app.db.gameTable.findFirstOrThrow({ where: { activeChannelId: FATE } })).system).toBe(
      "fate",
    );
    const first = asked.result.reply!.rows![0]![0]!;
    // Asked again: only the last file can be confirmed, and a waiting one is no part of a backup.
    const askedAgain = await app.run(
      GM,
      { type: "table.import", file: upload(witch), replace: true },
      { channelId: FATE },
    );
    const button = askedAgain.result.reply!.rows![0]![0]!;
    if (button.kind !== "button" || first.kind !== "button") throw new Error("expected a button");
    expect((await app.refused(GM, first.intent, { channelId: FATE })).code).toBe("errors.staleAction");
    const pendingBackup = JSON.parse(
      fileOf(await app.run(GM, { type: "table.export" }, { channelId: FATE })),
    );
    expect(pendingBackup.flows.map((f: { kind: string }) => f.kind)).not.toContain("table.import");
    const done = await app.run(ADMIN, button.intent, { channelId: FATE });
    expect(done.result.replyMode).toBe("update");
    const now = await app.db.gameTable.findFirstOrThrow({ where: { activeChannelId: FATE } });
    expect(now).toMatchObject({ system: "mountain-witch", gmUserId: ADMIN.id });
    const old = await app.db.gameTable.findFirstOrThrow({ where: { channelId: FATE, system: "fate" } });
    expect(old.status).toBe("archived");
    // The same button again: the pending import is gone with the old table.
    expect((await app.refused(ADMIN, button.intent, { channelId: FATE })).code).toBe("errors.staleAction");
  });

  it("two imports into one empty channel at the same moment, or two clicks on the confirmation: one table", async () => {
    const fate = fileOf(await app.run(GM, { type: "table.export" }, { channelId: ELSEWHERE }));
    const channelId = "320000000000000077";
    const both = await Promise.allSettled([
      app.run(GM, { type: "table.import", file: upload(fate) }, { channelId }),
      app.run(GM, { type: "table.import", file: upload(fate) }, { channelId }),
    ]);
    expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await app.db.gameTable.count({ where: { channelId } })).toBe(1);

    const asked = await app.run(
      GM,
      { type: "table.import", file: upload(fate), replace: true },
      { channelId },
    );
    const button = asked.result.reply!.rows![0]![0]!;
    if (button.kind !== "button") throw new Error("expected a button");
    const clicks = await Promise.allSettled([
      app.run(GM, button.intent, { channelId }),
      app.run(GM, button.intent, { channelId }),
    ]);
    expect(clicks.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await app.db.gameTable.count({ where: { channelId } })).toBe(2);
    expect(await app.db.gameTable.count({ where: { channelId, status: "active" } })).toBe(1);
  });

  it("a confirmation left waiting by the previous version (an unversioned row) still puts the backup in place; one that does not fit fails loudly and changes nothing", async () => {
    const witch = fileOf(await app.run(GM, { type: "table.export" }, { channelId: WITCH }));
    const waitingSince = async (channelId: string, state: unknown) => {
      await app.run(GM, { type: "table.setup", system: "fate" }, { channelId });
      const [table] = await app.database.query<{ id: number }>(
        "SELECT id FROM game_table WHERE active_channel_id = $1",
        [channelId],
      );
      // As the previous version wrote it: no state_version (the column's default, 1).
      const [flow] = await app.database.query<{ id: number; state_version: number }>(
        `INSERT INTO flow (table_id, kind, status, state, created_by_user_id)
         VALUES ($1, 'table.import', 'open', $2::jsonb, $3) RETURNING id, state_version`,
        [table!.id, JSON.stringify(state), GM.id],
      );
      expect(flow!.state_version).toBe(1);
      return flow!.id;
    };
    const OLD = "320000000000000041";
    const flowId = await waitingSince(OLD, { name: "backup.json", text: witch });
    const done = await app.run(GM, { type: "table.import-confirm", flowId }, { channelId: OLD });
    expect(done.result.replyMode).toBe("update");
    expect((await app.db.gameTable.findFirstOrThrow({ where: { activeChannelId: OLD } })).system).toBe(
      "mountain-witch",
    );

    const BROKEN = "320000000000000042";
    const brokenId = await waitingSince(BROKEN, { name: "backup.json" });
    await expect(
      app.run(GM, { type: "table.import-confirm", flowId: brokenId }, { channelId: BROKEN }),
    ).rejects.toThrow(/stored state does not fit at text/);
    expect((await app.db.gameTable.findFirstOrThrow({ where: { activeChannelId: BROKEN } })).system).toBe(
      "fate",
    );
    expect((await app.db.flow.findUniqueOrThrow({ where: { id: brokenId } })).status).toBe("open");
  });

  it("with TABLE_BACKUP_KEY set, another installation (another database) restores the file; without the key it cannot", async () => {
    const other = await createAppHarness();
    useTableBackupKey("ab".repeat(32));
    try {
      const file = fileOf(await app.run(GM, { type: "table.export" }, { channelId: ELSEWHERE }));
      await other.run(GM, { type: "table.import", file: upload(file) }, { channelId: ELSEWHERE });
      const again = fileOf(await other.run(GM, { type: "table.export" }, { channelId: ELSEWHERE }));
      expect(content(again)).toEqual(content(file));
      useTableBackupKey(undefined);
      const refusal = await other.refused(
        GM,
        { type: "table.import", file: upload(file) },
        { channelId: THIRD },
      );
      expect(String(refusal.params?.problem)).toContain("the signature does not match");
    } finally {
      useTableBackupKey(undefined);
      await other.close();
    }
  });
});
