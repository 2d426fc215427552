import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEEP_PROCESSED_INTERACTIONS_MS, pruneProcessedInteractions } from "../../src/store/prune.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

describe("pruning recorded interaction ids", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.drop());

  it("deletes ids older than the hour Discord could still redeliver in, in batches, and keeps the rest", async () => {
    const now = Date.now();
    // 12,000 old ids (more than two batches) and a few recent ones.
    await database.query(
      "INSERT INTO processed_interaction (id, processed_at) SELECT 'old' || g, $1 FROM generate_series(1, 12000) g",
      [new Date(now - KEEP_PROCESSED_INTERACTIONS_MS - 60_000)],
    );
    await database.query(
      "INSERT INTO processed_interaction (id, processed_at) SELECT 'new' || g, $1 FROM generate_series(1, 5) g",
      [new Date(now - 60_000)],
    );
    const deleted = await pruneProcessedInteractions(
      database.db,
      new Date(now - KEEP_PROCESSED_INTERACTIONS_MS),
    );
    expect(deleted).toBe(12000);
    const left = await database.query<{ id: string }>("SELECT id FROM processed_interaction ORDER BY id");
    expect(left.map((r) => r.id)).toEqual(["new1", "new2", "new3", "new4", "new5"]);
  });
});
