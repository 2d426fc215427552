/**
 * A deploy never breaks a Mountain Witch flow in progress: a conflict or a duel that an older bot
 * saved (state version 1, in its shape then) loads, upgraded, and plays on with the right numbers;
 * a state this bot cannot read (a newer version, a shape that does not fit) fails loudly and
 * changes nothing (docs/ARCHITECTURE.md, "Changing a flow's shape").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Intent } from "../../src/app/intent.js";
import { conflictFlow, duelFlow } from "../../src/app/mountain-witch/flow-states.js";
import { scriptedDice } from "../../src/rules/dice.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "520000000000000001", name: "Gail" };
const HAMADA = { id: "520000000000000011", name: "Hana" };
const AKI = { id: "520000000000000013", name: "Ann" };
const YANAGI = { id: "520000000000000014", name: "Yana" };
const CHANNEL = "620000000000000001";

interface FlowRow {
  id: number;
  status: string;
  state: Record<string, unknown>;
  state_version: number;
  updated_at: Date;
}

describe("Mountain Witch flows saved by an older bot (app)", () => {
  let app: AppHarness;
  let tableId: number;
  const ids: Record<string, number> = {};
  const run = (user: { id: string }, intent: Intent) => app.run(user, intent, { channelId: CHANNEL });

  /** A flow row as an older bot left it: raw SQL, its state in that bot's shape. */
  async function insertFlow(kind: string, state: unknown, version: number): Promise<number> {
    const [row] = await app.database.query<{ id: number }>(
      `INSERT INTO flow (table_id, kind, status, state, state_version, created_by_user_id, created_at, updated_at)
       VALUES ($1, $2, 'open', $3::jsonb, $4, $5, now(), now()) RETURNING id`,
      [tableId, kind, JSON.stringify(state), version, GM.id],
    );
    return row!.id;
  }
  const flowRow = async (id: number) =>
    (await app.database.query<FlowRow>("SELECT * FROM flow WHERE id = $1", [id]))[0]!;
  const points = async (giver: string, holder: string) =>
    (
      await app.database.query<{ points: number }>(
        "SELECT points FROM trust_link WHERE giver_id = $1 AND holder_id = $2",
        [ids[giver], ids[holder]],
      )
    )[0]!.points;
  const logCount = async () =>
    Number((await app.database.query<{ n: string }>("SELECT count(*) AS n FROM log_entry"))[0]!.n);

  const participant = (name: string, user: { id: string } | null, side: "a" | "b") => ({
    id: ids[name],
    name,
    nameKey: null,
    kind: user ? "pc" : "npc",
    playerId: user?.id ?? null,
    strength: "strong",
    side,
    dead: false,
    helps: null,
  });

  /** Hamada against the Landslide before the roll, as version 1 stored it: no `deadHelps` yet. */
  const conflictV1 = () => ({
    mode: "opposed",
    title: "The rope bridge",
    phase: "open",
    recoveryOf: null,
    participants: [participant("Hamada", HAMADA, "a"), participant("Landslide", null, "b")],
    betrayals: [],
    killIntents: [],
    trades: [],
    trustUses: [],
    nextObstacleId: -1,
    dice: [],
    pairings: [],
    expiredDamageIds: [],
  });

  const duellist = (name: string, user: { id: string }, dice: number[]) => ({
    characterId: ids[name],
    name,
    playerId: user.id,
    dice,
    wantsNext: false,
    penalty: 0,
    penaltyDamageIds: [],
  });

  beforeAll(async () => {
    app = await createAppHarness();
    await run(GM, { type: "table.setup", system: "mountain-witch" });
    await run(HAMADA, { type: "character.create", name: "Hamada", zodiac: "rat" });
    await run(AKI, { type: "character.create", name: "Aki", zodiac: "monkey" });
    await run(YANAGI, { type: "character.create", name: "Yanagi", zodiac: "ox" });
    await run(GM, { type: "character.create", name: "Landslide", kind: "npc", strength: "strong" });
    await run(GM, { type: "chapter.next" });
    await run(GM, { type: "character.status", name: "Yanagi", status: "dead" });
    const rows = await app.database.query<{ id: number; name: string; table_id: number }>(
      "SELECT id, name, table_id FROM character",
    );
    for (const r of rows) ids[r.name] = r.id;
    tableId = rows[0]!.table_id;
  });
  afterAll(async () => app?.close());

  it("a conflict saved before dead characters could help: a dead character helps, the GM rolls, the numbers add up", async () => {
    const id = await insertFlow("mw.conflict", conflictV1(), 1);
    const before = await points("Hamada", "Yanagi");
    // Yanagi is dead: their help is the field version 1 did not have.
    await run(YANAGI, { type: "conflict.assist", target: "Hamada", flowId: id });
    expect(await points("Hamada", "Yanagi")).toBe(before - 1);
    const helped = await flowRow(id);
    expect(helped.state_version).toBe(conflictFlow.version);
    expect(helped.state.deadHelps).toEqual([
      { helperId: ids.Yanagi, helperName: "Yanagi", targetId: ids.Hamada },
    ]);
    // Hamada 2, the Landslide 4, Yanagi's die 5 (after everyone else's): 2 + 5 = 7 against 4, a margin of 3.
    app.useDice(scriptedDice([2, 4, 5]));
    const rolled = await run(GM, { type: "conflict.roll", flowId: id });
    expect(replyText(rolled)).toContain("🎲 5");
    const after = await flowRow(id);
    expect(after.state_version).toBe(conflictFlow.version);
    const [pairing] = after.state.pairings as {
      a: { result: number };
      b: { result: number };
      winner: string;
      degree: string;
      margin: number;
    }[];
    expect(pairing).toMatchObject({
      a: { result: 7 },
      b: { result: 4 },
      winner: "a",
      degree: "normal",
      margin: 3,
    });
    await run(GM, { type: "conflict.end", flowId: id });
  });

  it("a duel saved before stop votes were stored: the strike reveals 4 against 2, then both stop (a peek between keeps the first stop) and it closes", async () => {
    const id = await insertFlow(
      "mw.duel",
      {
        duel: {
          phase: "rolling",
          round: 1,
          lethal: false,
          a: duellist("Hamada", HAMADA, [4]),
          b: duellist("Aki", AKI, [2]),
          trustUses: [],
          expiredDamageIds: [],
          result: null,
        },
        secret: { a: null, b: null },
      },
      1,
    );
    // The reveal rolls nothing more (no help): an empty script fails on any die.
    app.useDice(scriptedDice([]));
    const struck = await run(HAMADA, { type: "duel.strike", flowId: id });
    expect(struck.result.reply?.ephemeral).toBe(true);
    const revealed = await flowRow(id);
    expect(revealed.state_version).toBe(duelFlow.version);
    expect(revealed.state.stopped).toEqual([]);
    expect(revealed.state.duel).toMatchObject({
      phase: "revealed",
      result: { a: { total: 4 }, b: { total: 2 }, winner: "a", degree: "mixed", margin: 2 },
    });
    const first = await run(AKI, { type: "duel.end", flowId: id });
    expect(replyText(first)).toContain("Aki stops here.");
    expect((await flowRow(id)).status).toBe("open");
    // A look at one's own dice after the reveal keeps the other's stop (it used to drop it).
    await run(HAMADA, { type: "duel.peek", flowId: id });
    expect((await flowRow(id)).state.stopped).toEqual(["b"]);
    await run(HAMADA, { type: "duel.end", flowId: id });
    const closed = await flowRow(id);
    expect(closed.status).toBe("closed");
    expect(closed.state_version).toBe(duelFlow.version);
    expect((closed.state.stopped as string[]).sort()).toEqual(["a", "b"]);
  });

  it("a flow saved by a newer bot, or in a shape no version had, fails loudly and changes nothing", async () => {
    for (const [state, version, message] of [
      [{ ...conflictV1(), deadHelps: [] }, conflictFlow.version + 1, /newer than this bot's/],
      [{ ...conflictV1(), deadHelps: [], phase: "paused" }, conflictFlow.version, /does not fit at phase/],
    ] as const) {
      const id = await insertFlow("mw.conflict", state, version);
      const before = await flowRow(id);
      const logs = await logCount();
      const trust = await points("Hamada", "Yanagi");
      app.useDice(scriptedDice([6, 6, 6]));
      await expect(run(GM, { type: "conflict.roll", flowId: id })).rejects.toThrow(message);
      await expect(run(YANAGI, { type: "conflict.assist", target: "Hamada", flowId: id })).rejects.toThrow(
        message,
      );
      expect(await flowRow(id)).toEqual(before);
      expect(await logCount()).toBe(logs);
      expect(await points("Hamada", "Yanagi")).toBe(trust);
      await app.database.query("DELETE FROM flow WHERE id = $1", [id]);
    }
  });
});
