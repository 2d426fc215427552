import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFlow, findOpenFlow, openFlows, requireFlow, saveFlowState } from "../../src/app/flows.js";
import { conflictFlow, duelFlow } from "../../src/app/mountain-witch/flow-states.js";
import { hooks } from "../../src/app/mountain-witch/index.js";
import { openConflict } from "../../src/rules/mountain-witch/index.js";
import { type Db, inTransaction, type OpeningRead, type Tx } from "../../src/store/db.js";
import { createTable } from "../../src/store/tables.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

/**
 * A game's open flows read with the opening (src/app/flows.ts, `openFlowsRead`): the flow helpers
 * take them instead of querying, exactly as a query would have found them, until the
 * transaction writes a flow.
 */
describe("open flows read with the opening", () => {
  let database: TestDatabase;
  let db: Db;
  let tableId: number;
  const ids: Record<"first" | "newest" | "closed", number> = { first: 0, newest: 0, closed: 0 };
  const read = hooks.openingReads!.find((r) => r.table === "flow") as OpeningRead;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    await inTransaction(db, async (tx) => {
      const table = await createTable(tx, {
        guildId: "1",
        channelId: "2",
        system: "mountain-witch",
        gmUserId: "9",
        language: "en",
        trustMode: "secret",
      });
      tableId = table.id;
      const conflict = (title: string) =>
        createFlow(tx, conflictFlow, { tableId, state: openConflict({ title }), createdByUserId: "9" });
      ids.closed = (await conflict("Closed")).id;
      ids.first = (await conflict("First")).id;
      ids.newest = (await conflict("Newest")).id;
    });
    await database.query(`UPDATE flow SET status = 'closed' WHERE id = ${ids.closed}`);
  });
  afterAll(async () => {
    await database.drop();
  });

  /** Runs `work` with the read's rows noted as the opening brought them, their titles marked. */
  const withOpening = <T>(work: (tx: Tx) => Promise<T>) =>
    inTransaction(
      db,
      async (tx, [rows = []]) => {
        // Marked rows show whether a helper took them or queried.
        const marked = rows.map((row) => {
          const state = row.state as { title: string };
          return { ...row, state: { ...state, title: `${state.title} (opened)` } };
        });
        tx.noteOpened(read, read.scope({ tableId, userId: "9" }), marked);
        return work(tx);
      },
      [read.statement({ tableId, userId: "9" })],
    );
  const title = (flow: { state: { title: string | null } } | null) => flow?.state.title;

  it("brings only the table's open flows of the game's kinds, oldest first", async () => {
    const rows = await inTransaction(db, async (_tx, [opened = []]) => opened, [
      read.statement({ tableId, userId: "9" }),
    ]);
    expect(rows.map((row) => row.id)).toEqual([ids.first, ids.newest]);
  });

  it("requireFlow, findOpenFlow and openFlows take them, each as a query would have found", async () => {
    const seen = await withOpening(async (tx) => ({
      byId: title(await requireFlow(tx, conflictFlow, tableId, ids.first)),
      open: title(await findOpenFlow(tx, conflictFlow, tableId)),
      all: (await openFlows(tx, conflictFlow, tableId)).map(title),
      // Not among them: a closed flow, a flow of another kind by that id; another table's.
      closed: title(await requireFlow(tx, conflictFlow, tableId, ids.closed, { open: false })),
      otherKind: await requireFlow(tx, duelFlow, tableId, ids.first).catch((e: Error) => e.message),
      noDuel: await findOpenFlow(tx, duelFlow, tableId),
      otherTable: await openFlows(tx, conflictFlow, tableId + 1),
    }));
    expect(seen).toEqual({
      byId: "First (opened)",
      open: "Newest (opened)",
      all: ["First (opened)", "Newest (opened)"],
      closed: "Closed",
      otherKind: "errors.flow.notFound",
      noDuel: null,
      otherTable: [],
    });
  });

  it("after the transaction writes a flow, the helpers query again and see the write", async () => {
    const seen = await withOpening(async (tx) => {
      const before = await requireFlow(tx, conflictFlow, tableId, ids.first);
      await saveFlowState(tx, conflictFlow, ids.first, { ...before.state, title: "Saved" });
      const afterSave = title(await requireFlow(tx, conflictFlow, tableId, ids.first));
      const started = await createFlow(tx, conflictFlow, {
        tableId,
        state: openConflict({ title: "Started" }),
        createdByUserId: "9",
      });
      const newest = title(await findOpenFlow(tx, conflictFlow, tableId));
      // Rolled back: the other cases see the flows as they were.
      throw Object.assign(new Error("roll back"), {
        seen: [title(before), afterSave, newest, started.id > 0],
      });
    }).catch((error: { seen?: unknown }) => error.seen);
    expect(seen).toEqual(["First (opened)", "Saved", "Started", true]);
  });
});
