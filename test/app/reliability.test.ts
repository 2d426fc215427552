import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AlreadyProcessed, execute, refusalForRace, UseCaseRegistry } from "../../src/app/execute.js";
import type { Intent } from "../../src/app/intent.js";
import { type ActionContext, defineUseCase, type Invocation } from "../../src/app/use-case.js";
import type { GameTable } from "../../src/generated/prisma/client.js";
import { DomainError } from "../../src/rules/errors.js";
import { sqlFor } from "../../src/store/db.js";
import { type AppHarness, createAppHarness } from "../support/app.js";

const GM = { id: "410000000000000001", name: "Gail" };
const USERS = Array.from({ length: 8 }, (_, i) => ({ id: `41000000000000002${i}`, name: `P${i}` }));

/** How each of several simultaneous runs ended: "ok", a refusal code, "duplicate", or the raw error. */
async function outcomes(runs: Array<Promise<unknown>>): Promise<string[]> {
  const settled = await Promise.allSettled(runs);
  return settled.map((s) => {
    if (s.status === "fulfilled") return "ok";
    if (s.reason instanceof DomainError) return s.reason.code;
    if (s.reason instanceof AlreadyProcessed) return "duplicate";
    return `ERROR ${String(s.reason?.message ?? s.reason).slice(0, 200)}`;
  });
}

const count = (list: string[], what: string) => list.filter((x) => x === what).length;

describe("reliability of the use-case runner: idempotency and races", () => {
  let app: AppHarness;
  let channels = 0;
  const nextChannel = () => {
    channels += 1;
    return String(500000000000000000n + BigInt(channels));
  };

  beforeAll(async () => {
    app = await createAppHarness();
  });
  afterAll(async () => app.close());

  it("applies one interaction once when it is delivered several times at the same moment", async () => {
    const channelId = nextChannel();
    await app.run(GM, { type: "table.setup", system: "fate" }, { channelId });
    const intent: Intent = { type: "character.create", name: "Twice" };
    const runs = Array.from({ length: 6 }, () =>
      app.run(USERS[0]!, intent, { channelId, interactionId: "redelivered-1" }),
    );
    const results = await outcomes(runs);
    expect(count(results, "ok"), results.join("; ")).toBe(1);
    expect(count(results, "duplicate"), results.join("; ")).toBe(5);
    expect(await app.db.character.count({ where: { name: "Twice" } })).toBe(1);
    expect(await app.db.logEntry.count({ where: { action: "character.create" } })).toBe(1);
    // And once more later (a gateway replay after a resume): still nothing new.
    await expect(app.run(USERS[0]!, intent, { channelId, interactionId: "redelivered-1" })).rejects.toThrow(
      AlreadyProcessed,
    );
    expect(await app.db.character.count({ where: { name: "Twice" } })).toBe(1);
  });

  it("a refused interaction is not recorded, so it changes nothing and leaves no trace", async () => {
    const channelId = nextChannel();
    await expect(
      app.run(GM, { type: "character.create", name: "Nobody" }, { channelId, interactionId: "refused-1" }),
    ).rejects.toThrow(DomainError);
    expect(await app.db.processedInteraction.count({ where: { id: "refused-1" } })).toBe(0);
  });

  it("sets up exactly one table when many /table setup arrive at once in a new channel; the others hear a clear refusal", async () => {
    const channelId = nextChannel();
    const systems = ["fate", "mountain-witch", "beast-hunters"] as const;
    const runs = USERS.map((user, i) =>
      app.run(user, { type: "table.setup", system: systems[i % 3]! }, { channelId }),
    );
    const results = await outcomes(runs);
    expect(results.filter((r) => r !== "ok" && r !== "errors.table.alreadySetUp")).toEqual([]);
    expect(count(results, "ok")).toBe(1);
    expect(await app.db.gameTable.count({ where: { channelId } })).toBe(1);
    const table = await app.db.gameTable.findFirstOrThrow({ where: { channelId } });
    expect(await app.db.logEntry.count({ where: { tableId: table.id, action: "table.setup" } })).toBe(1);
    // The refusal names the game the winner set up.
    const winner = USERS[results.indexOf("ok")]!;
    expect(table.gmUserId).toBe(winner.id);
  });

  it("creates one character when many players take the same name at once (in any spelling)", async () => {
    const channelId = nextChannel();
    await app.run(GM, { type: "table.setup", system: "fate" }, { channelId });
    const spellings = ["Akio", "akio", " AKIO ", "Akio\u200b", "akio", "Akio", "aKio", "Ａｋｉｏ"];
    const runs = USERS.map((user, i) =>
      app.run(user, { type: "character.create", name: spellings[i]! }, { channelId }),
    );
    const results = await outcomes(runs);
    expect(count(results, "ok")).toBe(1);
    expect(count(results, "errors.character.nameTaken")).toBe(USERS.length - 1);
    const table = await app.db.gameTable.findFirstOrThrow({ where: { channelId } });
    expect(await app.db.character.count({ where: { tableId: table.id } })).toBe(1);
  });

  it("renames only one of two characters to the same new name when both are renamed at once", async () => {
    const channelId = nextChannel();
    await app.run(GM, { type: "table.setup", system: "fate" }, { channelId });
    await app.run(USERS[0]!, { type: "character.create", name: "One" }, { channelId });
    await app.run(USERS[1]!, { type: "character.create", name: "Two" }, { channelId });
    const results = await outcomes([
      app.run(USERS[0]!, { type: "character.rename", name: "One", newName: "Same" }, { channelId }),
      app.run(USERS[1]!, { type: "character.rename", name: "Two", newName: "Same" }, { channelId }),
    ]);
    expect(results.sort()).toEqual(["errors.character.nameTaken", "ok"]);
    const table = await app.db.gameTable.findFirstOrThrow({ where: { channelId } });
    const names = (await app.db.character.findMany({ where: { tableId: table.id } })).map((c) => c.name);
    expect([
      ["One", "Same"],
      ["Same", "Two"],
    ]).toContainEqual(names.sort());
  });

  it("archives a table once when the confirm button is pressed many times at once", async () => {
    const channelId = nextChannel();
    await app.run(GM, { type: "table.setup", system: "fate" }, { channelId });
    const table = await app.db.gameTable.findFirstOrThrow({ where: { channelId } });
    const runs = Array.from({ length: 5 }, () =>
      app.run(GM, { type: "table.archive-confirm", tableId: table.id }, { channelId }),
    );
    const results = await outcomes(runs);
    expect(count(results, "ok")).toBe(1);
    expect(count(results, "errors.noTable")).toBe(4);
    expect(await app.db.logEntry.count({ where: { tableId: table.id, action: "table.archive" } })).toBe(1);
  });

  it("turns any other unique-index race or deadlock into one clear refusal, never an internal error", async () => {
    // Use cases that skip the application checks and meet the database's unique indexes directly.
    const bare = (type: string, run: (ctx: ActionContext & { table: GameTable }) => Promise<unknown>) =>
      defineUseCase({
        schema: z.object({ type: z.literal(type), name: z.string().optional() }),
        table: "required",
        mutates: true,
        ephemeral: false,
        async run(ctx) {
          await run({ ...ctx, table: ctx.table! });
          return {};
        },
      });
    const registry = new UseCaseRegistry([
      bare("test.dup-character", async (ctx) => {
        const insert = () =>
          sqlFor(ctx.tx)
            .run`INSERT INTO "character" (table_id, name, name_key) VALUES (${ctx.table.id}, 'Clash', 'clash')`;
        await insert();
        await insert();
      }),
      bare("test.dup-trust", async (ctx) => {
        const sql = sqlFor(ctx.tx);
        const [a, b] = await sql.rows<{ id: number }>`
          INSERT INTO "character" (table_id, name, name_key) VALUES (${ctx.table.id}, 'A', 'a'), (${ctx.table.id}, 'B', 'b')
          RETURNING id`;
        const link = () =>
          sql.run`INSERT INTO trust_link (table_id, giver_id, holder_id, value, points) VALUES (${ctx.table.id}, ${a!.id}, ${b!.id}, 1, 1)`;
        await link();
        await link();
      }),
      bare("test.broken", async () => {
        throw new Error("a plain bug");
      }),
    ]);
    const channelId = nextChannel();
    await app.run(GM, { type: "table.setup", system: "mountain-witch" }, { channelId });
    const invocation = (id: string): Invocation => ({
      interactionId: id,
      interactionToken: "t",
      applicationId: "1",
      actor: { userId: GM.id, displayName: "Gail", locale: "en-US", canManageGuild: false },
      guildId: "1",
      channelId,
    });
    const refusal = async (type: string, name?: string) => {
      try {
        await execute(app.deps, registry, invocation(`${type}-${Math.random()}`), { type, name });
      } catch (error) {
        return error instanceof DomainError ? { code: error.code, params: error.params } : error;
      }
      return "applied";
    };
    expect(await refusal("test.dup-character", "Clash")).toEqual({
      code: "errors.character.nameTaken",
      params: { name: "Clash" },
    });
    expect(await refusal("test.dup-trust")).toEqual({ code: "errors.concurrentChange", params: {} });
    // A plain bug stays an error (the router answers "internal error" with a reference and logs it).
    expect(await refusal("test.broken")).toBeInstanceOf(Error);
    expect(await refusal("test.broken")).not.toBeInstanceOf(DomainError);
    // Every refused transaction was rolled back.
    const table = await app.db.gameTable.findFirstOrThrow({ where: { channelId } });
    expect(await app.db.character.count({ where: { tableId: table.id } })).toBe(0);
  });

  it("turns a race that PostgreSQL reports through raw SQL (pg's error shape) into the same refusal", async () => {
    const id = `raw-race-${Date.now()}`;
    await sqlFor(app.db).run`INSERT INTO processed_interaction (id) VALUES (${id})`;
    const error = await sqlFor(app.db).run`INSERT INTO processed_interaction (id) VALUES (${id})`.catch(
      (e: unknown) => e,
    );
    expect((error as { code?: string }).code).toBe("23505");
    const invocation = {
      interactionId: "x",
      interactionToken: "t",
      applicationId: "1",
      actor: { userId: GM.id, displayName: "Gail", locale: "en-US", canManageGuild: false },
      guildId: null,
      channelId: nextChannel(),
    };
    const refusal = await refusalForRace(app.db, invocation, { type: "roll" } as Intent, error);
    expect(refusal?.code).toBe("errors.concurrentChange");
    // A number no column can hold, caught by PostgreSQL: bad input, not an internal error.
    const tooBig = await sqlFor(app.db).one`SELECT ${"99999999999"}::int AS n`.catch((e: unknown) => e);
    expect((tooBig as { code?: string }).code).toBe("22003");
    const invalid = await refusalForRace(app.db, invocation, { type: "roll" } as Intent, tooBig);
    expect(invalid?.code).toBe("errors.invalidInput");
  });
});
