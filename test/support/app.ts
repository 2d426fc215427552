import { randomUUID } from "node:crypto";
import { type AppDeps, type Executed, execute } from "../../src/app/execute.js";
import type { Intent } from "../../src/app/intent.js";
import { createRegistry } from "../../src/app/registry.js";
import { TableCache } from "../../src/app/table-cache.js";
import type { Actor } from "../../src/app/use-case.js";
import { type DiceSource, seededDice } from "../../src/rules/dice.js";
import { DomainError } from "../../src/rules/errors.js";
import { createTestDatabase, type TestDatabase } from "./database.js";

export interface TestUser {
  id: string;
  name?: string;
  locale?: string;
  admin?: boolean;
}

/**
 * Runs use cases exactly as the router does (execute → use case → real PostgreSQL), without
 * Discord: for fast tests of the app layer. End-to-end tests go through test/e2e instead.
 */
export async function createAppHarness() {
  const database: TestDatabase = await createTestDatabase();
  const registry = createRegistry();
  let dice: DiceSource = seededDice(42);
  // The table cache as in production, so every app test also checks that it stays coherent.
  const tables = new TableCache();
  const stopListening = tables.listen(database.url, { info() {}, warn() {} });
  for (let i = 0; i < 200 && !tables.active; i++) await new Promise((r) => setTimeout(r, 10));
  if (!tables.active) throw new Error("the table cache did not start listening");
  const deps: AppDeps = {
    db: database.db,
    tables,
    get dice() {
      return dice;
    },
  };
  let counter = 0;

  function actor(user: TestUser): Actor {
    return {
      userId: user.id,
      displayName: user.name ?? `user${user.id.slice(-4)}`,
      locale: user.locale ?? "en-US",
      canManageGuild: user.admin ?? false,
    };
  }

  return {
    database,
    db: database.db,
    deps,
    registry,
    /** Replaces the dice for the following actions (e.g. `scriptedDice([6, 1])`). */
    useDice(next: DiceSource) {
      dice = next;
    },
    /** Runs an intent as `user` in `channelId`; `interactionId` lets a test replay the same interaction. */
    run(
      user: TestUser,
      intent: Intent,
      options: {
        channelId?: string;
        guildId?: string | null;
        interactionId?: string;
        /** A click: the message the component is on, and whether everyone sees it. */
        source?: { messageId: string; public: boolean };
      } = {},
    ): Promise<Executed> {
      counter += 1;
      return execute(
        deps,
        registry,
        {
          interactionId: options.interactionId ?? `${Date.now()}${counter}${randomUUID().slice(0, 4)}`,
          interactionToken: `token-${counter}`,
          applicationId: "100000000000000001",
          actor: actor(user),
          guildId: options.guildId === undefined ? "200000000000000001" : options.guildId,
          channelId: options.channelId ?? "300000000000000001",
          ...(options.source
            ? { sourceMessageId: options.source.messageId, sourceMessagePublic: options.source.public }
            : {}),
        },
        intent,
      );
    },
    /** Runs an intent that must be refused; returns the refusal's code and params. */
    async refused(user: TestUser, intent: Intent, options: { channelId?: string } = {}) {
      try {
        await this.run(user, intent, options);
      } catch (error) {
        if (error instanceof DomainError) return { code: error.code, params: error.params };
        throw error;
      }
      throw new Error(`expected ${intent.type} to be refused`);
    },
    close: async () => {
      await stopListening();
      await database.drop();
    },
  };
}

export type AppHarness = Awaited<ReturnType<typeof createAppHarness>>;

/** All visible text of a result's reply, for assertions. */
export function replyText(executed: Executed): string {
  const view = executed.result.reply;
  if (!view) return "";
  return [
    view.content ?? "",
    ...(view.embeds ?? []).flatMap((e) => [
      e.title ?? "",
      e.description ?? "",
      ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
      e.footer ?? "",
    ]),
    ...(view.rows ?? []).flat().map((c) => (c.kind === "button" ? c.label : (c.placeholder ?? ""))),
  ].join("\n");
}
