/**
 * Per use case: how many SQL statements one action sends and how much CPU it costs in the bot
 * (through the real `execute` path, against an embedded PostgreSQL). The profile of
 * `npm run bench` said the database path dominates; this measures it without Discord in the way.
 * `--cost`: the cost-per-interaction classes instead (a roll, a reserve spend, a Fate check, a
 * check and an invoke), the bot's CPU and the server's (its processes' from /proc) per action;
 * `--sync-commit-off` runs them with `synchronous_commit` off, to see what the WAL flush costs.
 *   npx tsx bench/statements.ts [repetitions] [--show] [--cost [--sync-commit-off]]
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
import { jiffiesToMs, serverJiffies } from "./cpu.js";

const repetitions = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 300);
const show = process.argv.includes("--show");
const cost = process.argv.includes("--cost");
const syncCommitOff = process.argv.includes("--sync-commit-off");

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
const url = new URL(server.url);
if (syncCommitOff) url.searchParams.set("options", "-c synchronous_commit=off");
const db = createDb(url.toString());
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

if (cost) {
  const FATE = "200000000000000011";
  const HUNT = "200000000000000012";
  await act(GM, { type: "table.setup", system: "fate" }, FATE);
  await act(PLAYER, { type: "character.create", name: "Akio" }, FATE);
  await act(PLAYER, { type: "aspect.add", name: "Steady hands", character: "Akio", kind: "talent" }, FATE);
  for (let i = 0; i < Math.ceil((repetitions + 100) / 20); i++)
    await act(GM, { type: "fp.give", character: "Akio", amount: 20 }, FATE);
  await act(GM, { type: "table.setup", system: "beast-hunters" }, HUNT);
  await act(GM, { type: "reserve.set", total: 10000, ceiling: 40 }, HUNT);
  const classes: Array<[string, string, string, Intent[]]> = [
    ["/roll 2d6+1", PLAYER, FATE, [{ type: "roll", expression: "2d6+1" }]],
    ["/reserve spend", GM, HUNT, [{ type: "reserve.spend", amount: 1, reason: "a bench" }]],
    ["Fate /check", PLAYER, FATE, [{ type: "check", skill: "fight" }]],
    [
      "Fate /check + /invoke",
      PLAYER,
      FATE,
      [
        { type: "check", skill: "fight" },
        { type: "invoke", aspect: "Steady hands", pay: "fate-point" },
      ],
    ],
  ];
  console.log(`${"class".padEnd(24)} bot CPU ms/action  PostgreSQL CPU ms/action`);
  for (const [label, user, channel, steps] of classes) {
    for (let i = 0; i < 50; i++) for (const step of steps) await act(user, step, channel);
    const cpu0 = process.cpuUsage();
    const server0 = serverJiffies(path.join(dir, "pg"));
    for (let i = 0; i < repetitions; i++) for (const step of steps) await act(user, step, channel);
    const cpu = process.cpuUsage(cpu0);
    const actions = repetitions * steps.length;
    const bot = (cpu.user + cpu.system) / 1000 / actions;
    const server = jiffiesToMs(serverJiffies(path.join(dir, "pg")) - server0) / actions;
    console.log(`${label.padEnd(24)} ${bot.toFixed(3).padStart(17)}  ${server.toFixed(3).padStart(24)}`);
  }
  await db.$disconnect();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
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
