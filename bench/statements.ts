/**
 * Per use case: how many SQL statements one action sends and how much CPU it costs in the bot
 * (through the real `execute` path and Prisma, against an embedded PostgreSQL). The profile of
 * `npm run bench` said the database path dominates; this measures it without Discord in the way.
 *   npx tsx bench/statements.ts [repetitions] [--show]
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { execute } from "../src/app/execute.js";
import type { Intent } from "../src/app/intent.js";
import { createRegistry } from "../src/app/registry.js";
import { cryptoDice } from "../src/rules/dice.js";
import { createDb } from "../src/store/db.js";
import { startEmbeddedPostgres } from "../src/store/embedded-postgres.js";
import { migrate } from "../src/store/migrate.js";

const repetitions = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 300);
const show = process.argv.includes("--show");

let statements: string[] = [];
const query = pg.Client.prototype.query;
// Count every statement the pg driver sends (Prisma's adapter goes through pg.Client).
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const q = args[0] as string | { text?: string };
  statements.push(typeof q === "string" ? q : (q?.text ?? "?"));
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

const dir = mkdtempSync(path.join(tmpdir(), "storybot-statements-"));
chmodSync(dir, 0o711); // ours: as root the server runs as `postgres` and must pass through it
const server = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg") });
await migrate(server.url);
const db = createDb(server.url);
const registry = createRegistry();
const GM = "100000000000000001";
const PLAYER = "100000000000000002";
let sequence = 0;
async function act(userId: string, intent: Intent, channelId = "200000000000000001") {
  return execute(
    { db, dice: cryptoDice },
    registry,
    {
      interactionId: `i${++sequence}`,
      interactionToken: "token",
      applicationId: "1",
      actor: { userId, displayName: userId, locale: "en-US", canManageGuild: false },
      guildId: "300000000000000001",
      channelId,
    },
    intent,
  );
}

await act(GM, { type: "table.setup", system: "mountain-witch" });
await act(PLAYER, { type: "character.create", name: "Akio", zodiac: "rat" });
await act(GM, { type: "character.create", name: "Oni", kind: "npc", strength: "medium" });

const cases: Array<[string, string, Intent]> = [
  ["roll (on a table)", PLAYER, { type: "roll", expression: "2d6+3" }],
  ["roll (no table)", PLAYER, { type: "roll", expression: "2d6+3" }],
  ["table show", PLAYER, { type: "table.show" }],
  ["character show", PLAYER, { type: "character.show", name: "Akio" }],
  ["character list", PLAYER, { type: "character.list" }],
  ["table log", GM, { type: "table.log", limit: 10 }],
];
console.log(`${"use case".padEnd(22)} statements  CPU ms/action  wall ms/action`);
for (const [label, user, intent] of cases) {
  const channel = label.includes("no table") ? "200000000000000009" : undefined;
  for (let i = 0; i < 50; i++) await act(user, intent, channel);
  statements = [];
  await act(user, intent, channel);
  const seen = [...statements];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < repetitions; i++) await act(user, intent, channel);
  const wall = (performance.now() - t0) / repetitions;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `${label.padEnd(22)} ${String(seen.length).padStart(10)}  ${((cpu.user + cpu.system) / 1000 / repetitions).toFixed(2).padStart(13)}  ${wall.toFixed(2).padStart(14)}`,
  );
  if (show) for (const s of seen) console.log(`      ${s.replace(/\s+/g, " ").slice(0, 150)}`);
}
await db.$disconnect();
await server.stop();
rmSync(dir, { recursive: true, force: true });
