import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFateDice } from "../../src/rules/fate/dice.js";
import { sqlFor } from "../../src/store/db.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "430000000000000001", name: "Gail" };
const ILSA = { id: "430000000000000002", name: "Ivan" };

/**
 * Flows saved by the bot before a deploy changed their shape (state_version 1) load upgraded and
 * play on; a row this bot cannot read fails loudly and changes nothing.
 */
describe("Fate flows saved in an older shape (app layer, real PostgreSQL)", () => {
  let app: AppHarness;
  let tableId: number;
  let ilsaId: number;
  let captainId: number;

  /** Stores a flow row as an older bot left it: raw SQL, its state as it was written then. */
  async function storedFlow(kind: string, state: object, stateVersion: number): Promise<number> {
    const now = new Date();
    const row = await sqlFor(app.db).one<{ id: number }>`
      INSERT INTO flow (table_id, kind, status, state, state_version, created_by_user_id, created_at, updated_at)
      VALUES (${tableId}, ${kind}, 'open', ${JSON.stringify(state)}::jsonb, ${stateVersion}, ${GM.id}, ${now}, ${now})
      RETURNING id`;
    return row!.id;
  }
  const flowRow = (id: number) =>
    sqlFor(app.db).one<{ state: Record<string, unknown>; stateVersion: number; status: string }>`
      SELECT state, state_version, status FROM flow WHERE id = ${id}`;

  /**
   * Ilsa's attack on the Captain as a check stored before boosts could be traded (no
   * `tradedForBoost`): Fight 2, +2 bonus, four blank dice, against a difficulty of 0 —
   * 4 shifts, a success with style, the hit not applied yet.
   */
  const styleAttackV1 = () => ({
    check: {
      characterId: String(ilsaId),
      skill: "fight",
      skillValue: 2,
      bonus: 2,
      action: "attack",
      dice: readFateDice([3, 3, 3, 3]),
      rerolledDice: [],
      opposition: { kind: "passive", value: 0 },
      invokes: [],
    },
    rollerId: ilsaId,
    rollerName: "Ilsa",
    targetId: captainId,
    targetName: "Captain",
    aspect: null,
    existingAspect: false,
    advantageDone: false,
    awaitingDefence: false,
    linkFlowId: null,
    hitApplied: null,
    contestFlowId: null,
  });

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "fate" });
    await app.run(ILSA, { type: "character.create", name: "Ilsa" });
    await app.run(GM, { type: "character.create", name: "Captain", kind: "npc" });
    tableId = (await app.db.gameTable.findFirstOrThrow()).id;
    ilsaId = (await app.db.character.findFirstOrThrow({ where: { name: "Ilsa" } })).id;
    captainId = (await app.db.character.findFirstOrThrow({ where: { name: "Captain" } })).id;
  });
  afterAll(async () => app.close());

  it("«можете снизить силу своего удара на один»: a style attack saved before trades (version 1) is traded for a boost, its hit lands one lower", async () => {
    const flowId = await storedFlow("fate.check", styleAttackV1(), 1);

    const traded = await app.run(ILSA, { type: "fate.trade-boost", flowId, name: "Off balance" });
    expect(replyText(traded)).toContain("Off balance");
    const afterTrade = await flowRow(flowId);
    expect(afterTrade?.stateVersion).toBe(2);
    expect(afterTrade?.state).toEqual({ ...styleAttackV1(), tradedForBoost: true });
    // A second trade is refused: the upgraded state remembers the first.
    expect((await app.refused(ILSA, { type: "fate.trade-boost", flowId })).code).toBe(
      "errors.fate.alreadyTraded",
    );

    await app.run(GM, { type: "fate.apply-hit", flowId, kind: "physical" });
    const settled = await flowRow(flowId);
    // 4 shifts less the one traded: a hit of 3 (no weapon or armour ratings).
    expect(settled?.state).toMatchObject({ hitApplied: 3, tradedForBoost: true });
    expect(settled?.status).toBe("closed");
    expect(settled?.stateVersion).toBe(2);
  });

  it("a version-1 check without a trade deals its whole hit (the upgrade does not invent one)", async () => {
    const flowId = await storedFlow("fate.check", styleAttackV1(), 1);
    await app.run(GM, { type: "fate.apply-hit", flowId, kind: "physical" });
    expect((await flowRow(flowId))?.state).toMatchObject({ hitApplied: 4, tradedForBoost: false });
  });

  it("a conflict saved before turns pinged players (no `players`, version 1) plays on: the GM passes the turn", async () => {
    const state = {
      conflict: {
        title: "Harbour",
        exchange: 1,
        participants: [
          { characterId: String(ilsaId), side: "pc", status: "in", consequencesTaken: 0, pendingHit: null },
          {
            characterId: String(captainId),
            side: "npc",
            status: "in",
            consequencesTaken: 0,
            pendingHit: null,
          },
        ],
        status: "open",
        order: [String(ilsaId), String(captainId)],
        turn: 0,
      },
      names: { [String(ilsaId)]: "Ilsa", [String(captainId)]: "Captain" },
    };
    const flowId = await storedFlow("fate.conflict", state, 1);
    // As before the upgrade: with nobody's player known, only the GM passes a turn.
    expect((await app.refused(ILSA, { type: "conflict.next", flowId })).code).toBe("errors.fate.notYourTurn");
    const passed = await app.run(GM, { type: "conflict.next", flowId });
    expect(replyText(passed)).toContain("Exchange 1: Captain's turn.");
    const saved = await flowRow(flowId);
    expect(saved?.stateVersion).toBe(2);
    expect(saved?.state).toEqual({ ...state, conflict: { ...state.conflict, turn: 1 }, players: {} });
    await app.run(GM, { type: "conflict.end", flowId });
  });

  it("a check written by a newer bot (version 3) fails loudly and changes nothing", async () => {
    const stored = { ...styleAttackV1(), tradedForBoost: false };
    const flowId = await storedFlow("fate.check", stored, 3);
    const aspectsBefore = await app.db.aspect.count();
    await expect(app.run(ILSA, { type: "fate.trade-boost", flowId, name: "Too new" })).rejects.toThrow(
      /state version 3 is newer/,
    );
    expect(await flowRow(flowId)).toEqual({ state: stored, stateVersion: 3, status: "open" });
    expect(await app.db.aspect.count()).toBe(aspectsBefore);
  });

  it("a check whose stored state does not fit its shape fails loudly, naming the field, and changes nothing", async () => {
    const broken = { ...styleAttackV1(), rollerId: "Ilsa" };
    const flowId = await storedFlow("fate.check", broken, 1);
    await expect(app.run(GM, { type: "fate.apply-hit", flowId, kind: "physical" })).rejects.toThrow(
      /fate\.check.*rollerId/,
    );
    expect(await flowRow(flowId)).toEqual({ state: broken, stateVersion: 1, status: "open" });
  });
});
