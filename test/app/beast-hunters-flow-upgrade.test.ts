import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { challengeFlow } from "../../src/app/beast-hunters/flow-states.js";
import { typedFlow } from "../../src/app/flows.js";
import type { Flow } from "../../src/generated/prisma/client.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "540000000000000001", name: "Gail" };
const ADA = { id: "540000000000000002", name: "Ada" };

interface FlowRow {
  id: number;
  status: string;
  state_version: number;
  // biome-ignore lint/suspicious/noExplicitAny: the stored JSON, read as the test wrote it
  state: any;
}

const stages = (n: number) => ({ light: n, medium: n, heavy: n, knockout: n, fatal: n });

/**
 * A challenge mid-play as version 1 stored it: its price has no `obstacles` (one obstacle), and
 * its task was saved before a task's agreement and readiness were kept.
 */
const oldChallenge = (ada: string) => ({
  challenge: {
    version: 1,
    name: "Old bridge",
    sphere: "physical",
    phase: 2,
    rating: 3,
    cost: 3,
    climax: false,
    knockoutHasNoEffect: false,
    participants: [
      {
        id: ada,
        name: "Ada",
        side: "hunters",
        initiative: 2,
        traits: [{ name: "Quick", sphere: "physical", value: 2, effective: 2, active: "attack" }],
        resources: [],
        boxes: stages(1),
        damage: stages(0),
        status: "in",
        help: [],
      },
      {
        id: "obstacle",
        name: "Troll",
        side: "gm",
        initiative: 0,
        traits: [{ name: "Huge", sphere: "physical", value: 4, effective: 4, active: null }],
        resources: [],
        boxes: stages(1),
        damage: stages(0),
        status: "in",
        help: [],
      },
    ],
    advantage: { [ada]: { obstacle: 5 } },
    turn: ada,
    lastActed: { hunters: null, gm: "obstacle" },
    status: "active",
    pendingOffer: null,
    pendingBonus: null,
    pendingFatal: null,
    tasks: [
      {
        name: "Cross",
        proposedBy: ada,
        difficulty: 2,
        gmDice: 0,
        hunterDice: 0,
        buyers: [],
        result: null,
      },
    ],
    outcome: null,
  },
  price: {
    lines: [
      { item: "minimalBoxes", price: 1 },
      { item: "trait", name: "Huge", value: 4, price: 2 },
    ],
    ceiling: 10,
  },
});

/**
 * Flows saved by the previous version of the bot (state version 1) load, upgraded, and play on
 * after a deploy: a challenge mid-play and a negotiation mid-phase.
 */
describe("Beast Hunters flows saved in the previous shape", () => {
  let app: AppHarness;
  let tableId: number;
  let ada: string;

  const flow = async (id: number) =>
    (
      await app.database.query<FlowRow>("SELECT id, status, state_version, state FROM flow WHERE id = $1", [
        id,
      ])
    )[0]!;

  /** A flow row as the previous version wrote it: its state as JSON, `state_version` 1. */
  async function insertOldFlow(kind: string, state: unknown): Promise<number> {
    const [row] = await app.database.query<{ id: number }>(
      `INSERT INTO flow (table_id, kind, status, state, state_version, created_by_user_id, created_at, updated_at)
       VALUES ($1, $2, 'open', $3::jsonb, 1, $4, now(), now()) RETURNING id`,
      [tableId, kind, JSON.stringify(state), GM.id],
    );
    return row!.id;
  }

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "beast-hunters" });
    await app.run(ADA, { type: "character.create", name: "Ada" });
    await app.run(ADA, { type: "character.trait.set", name: "Quick", sphere: "physical", value: 2 });
    await app.run(ADA, { type: "reserve.set", total: 30, ceiling: 10 });
    const [table] = await app.database.query<{ id: number }>("SELECT id FROM game_table");
    tableId = table!.id;
    const [character] = await app.database.query<{ id: number }>(
      `SELECT id FROM "character" WHERE name = 'Ada'`,
    );
    ada = String(character!.id);
  });
  afterAll(async () => app.close());

  it("a challenge saved mid-play by the previous version plays on: Ada buys a die for the task (4 of her 5 AP), the troll's turn", async () => {
    const id = await insertOldFlow("bh.challenge", oldChallenge(ada));
    // A task saved before agreement was kept counts as agreed by both sides: a die may be bought.
    const bought = await app.run(ADA, { type: "challenge.taskmenu", flowId: id, pick: "a:Cross" });
    expect(replyText(bought)).toContain("Cross");
    const saved = await flow(id);
    expect(saved.status).toBe("open");
    expect(saved.state_version).toBe(2);
    const { challenge, price } = saved.state;
    expect(challenge.advantage[ada].obstacle).toBe(1);
    expect(challenge.tasks[0]).toMatchObject({
      name: "Cross",
      hunterDice: 1,
      buyers: [ada],
      agreed: { hunters: true, gm: true },
      ready: { hunters: false, gm: false },
    });
    expect(challenge.turn).toBe("obstacle");
    // The one obstacle's price lines are all the lines, under its name.
    expect(price.obstacles).toEqual([{ name: "Troll", from: 0 }]);
    expect(price.lines).toHaveLength(2);
    // The panel draws it as any challenge of this version.
    const shown = replyText(await app.run(GM, { type: "challenge.show", flowId: id }));
    expect(shown).toContain("Old bridge");
    await app.run(GM, { type: "challenge.end", flowId: id, concede: true });
    await app.run(GM, { type: "challenge.end", flowId: id });
    expect((await flow(id)).status).toBe("closed");
  });

  it("a negotiation saved before pre-activations and the form's draft were kept takes a pre-activation in phase 2", async () => {
    const id = await insertOldFlow("bh.negotiation", {
      version: 1,
      name: "Troll bridge",
      sphere: "physical",
      phase: 2,
      climax: false,
      hunters: [{ id: ada, name: "Ada", traits: [{ name: "Quick", sphere: "physical", value: 2 }] }],
    });
    const done = await app.run(ADA, { type: "negotiation.preactivate", flowId: id, pick: "defence:Quick" });
    expect(replyText(done)).toContain("Quick");
    const saved = await flow(id);
    expect(saved.state_version).toBe(2);
    expect(saved.state).toMatchObject({
      phase: 2,
      pre: [{ by: ada, trait: "Quick", as: "defence", phase: 2 }],
      draft: {},
      ended: null,
    });
    await app.run(GM, { type: "reserve.concede", phase: 2, negotiation: id });
    expect((await flow(id)).status).toBe("closed");
  });

  it("a challenge written by a newer bot, or one whose state does not fit, fails loudly and changes nothing", async () => {
    const newer = await insertOldFlow("bh.challenge", oldChallenge(ada));
    await app.database.query("UPDATE flow SET state_version = 3 WHERE id = $1", [newer]);
    const before = await flow(newer);
    await expect(
      app.run(ADA, { type: "challenge.taskmenu", flowId: newer, pick: "a:Cross" }),
    ).rejects.toThrow(/state version 3 is newer/);
    expect(await flow(newer)).toEqual(before);
    await app.database.query("DELETE FROM flow WHERE id = $1", [newer]);

    const broken = oldChallenge(ada);
    (broken.challenge as { status: string }).status = "paused";
    const unfit = await insertOldFlow("bh.challenge", broken);
    const stored = await flow(unfit);
    await expect(
      app.run(ADA, { type: "challenge.taskmenu", flowId: unfit, pick: "a:Cross" }),
    ).rejects.toThrow(/does not fit at challenge\.status/);
    expect(await flow(unfit)).toEqual(stored);
  });
});

/** A stored `bh.challenge` row of this state and version, as PostgreSQL gives it back. */
function challengeRow(state: unknown, stateVersion: number): Flow {
  const at = new Date("2026-12-01T12:00:00Z");
  return {
    id: 9,
    tableId: 1,
    kind: "bh.challenge",
    status: "open",
    state: state as Flow["state"],
    stateVersion,
    panelChannelId: null,
    panelMessageId: null,
    createdByUserId: GM.id,
    createdAt: at,
    updatedAt: at,
    closedAt: null,
  };
}

describe("the upgrade of a version-1 challenge", () => {
  const perSide = fc.record({ hunters: fc.boolean(), gm: fc.boolean() });
  const shapes = fc.record({
    obstacles: fc.option(fc.constant([{ name: "Troll", from: 0 }]), { nil: undefined }),
    tasks: fc.array(
      fc.record({
        agreed: fc.option(perSide, { nil: undefined }),
        ready: fc.option(perSide, { nil: undefined }),
      }),
      { maxLength: 4 },
    ),
  });

  it("keeps what a version-1 row already had, fills only what it lacked, and is the same when run again", () => {
    fc.assert(
      fc.property(shapes, ({ obstacles, tasks }) => {
        const old = oldChallenge("7");
        const stored = {
          ...old,
          challenge: {
            ...old.challenge,
            tasks: tasks.map((t, i) => ({
              ...old.challenge.tasks[0]!,
              name: `Task ${i}`,
              ...(t.agreed ? { agreed: t.agreed } : {}),
              ...(t.ready ? { ready: t.ready } : {}),
            })),
          },
          price: { ...old.price, ...(obstacles ? { obstacles } : {}) },
        };
        const upgraded = typedFlow(challengeFlow, challengeRow(structuredClone(stored), 1)).state;
        expect(upgraded.price.obstacles).toEqual([{ name: "Troll", from: 0 }]);
        upgraded.challenge.tasks.forEach((task, i) => {
          // A task saved before agreement was kept had been agreed by both; before readiness, ready for neither.
          expect(task.agreed).toEqual(tasks[i]!.agreed ?? { hunters: true, gm: true });
          expect(task.ready).toEqual(tasks[i]!.ready ?? { hunters: false, gm: false });
        });
        expect(typedFlow(challengeFlow, challengeRow(structuredClone(upgraded), 1)).state).toEqual(upgraded);
        expect(typedFlow(challengeFlow, challengeRow(structuredClone(upgraded), 2)).state).toEqual(upgraded);
      }),
    );
  });
});
