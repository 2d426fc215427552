/**
 * `npm run bench` — the real bot process against the Discord double and a real PostgreSQL, driven
 * by a concurrent mix of what tables do (bench/scenarios.ts), compared with the floor: a minimal
 * discord.js bot in the same double that answers everything with a fixed reply. Prints a table,
 * checks the targets, and saves the numbers to bench/results/<timestamp>.json.
 *
 *   npm run bench                     full run (60 s at 200 interactions/s, 5,000 guilds)
 *   npm run bench -- --quick          a fast check (10 s)
 *   npm run bench -- --rate 300 --duration 30 --tables 400 --guilds 5000 --floor-duration 20
 *   npm run bench -- --runs 3         repeat the measured phases and report medians
 *   npm run bench -- --no-floor --no-fairness --out /tmp/x.json
 *   npm run bench -- --scenarios "conflict|trust" --profile   (a subset; a CPU profile of the bot)
 *   npm run bench -- --ratio-classes "roll|reserve" --ratio-rate 100 --ratio-duration 15
 *   npm run bench -- --ratio-only --ratio-classes "fate check" --sql-census   (no 200/s run: faster)
 *   npm run bench -- --page-only      only the campaign page's phase (bench/page.ts); --no-page skips it
 *
 * After the measured run(s), the ratio phase: each command class (bench/scenarios.ts
 * COMMAND_CLASSES) on its own at --ratio-rate, the bot's and PostgreSQL's CPU per interaction
 * against the floor bot's at the same rate (the cost-per-interaction table).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { GAMES, gameCommandModules } from "../commands/index.js";
import { buildCommand } from "../commands/spec.js";
import { DiscordDouble } from "../src/double/index.js";
import { startEmbeddedPostgres } from "../src/store/embedded-postgres.js";
import { CpuMeter, jiffiesOf, serverJiffies } from "./cpu.js";
import { diceFairness, type FairnessResult } from "./fairness.js";
import { InspectorSession } from "./inspector.js";
import { Driver, Pacer, runTables, type Sample } from "./load.js";
import { runPageBench } from "./page.js";
import { BenchProcess, stopAll } from "./processes.js";
import {
  COMMAND_CLASSES,
  type CommandClass,
  FLOOR_SCENARIOS,
  type Options,
  type Role,
  requiredCommands,
  SCENARIOS,
  type Scenario,
  type Step,
  type System,
  type TableWorld,
} from "./scenarios.js";
import { type LatencySummary, median, round, summarize } from "./stats.js";

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    rate: { type: "string" },
    duration: { type: "string" },
    warmup: { type: "string" },
    "floor-duration": { type: "string" },
    tables: { type: "string" },
    guilds: { type: "string" },
    runs: { type: "string" },
    seed: { type: "string" },
    "no-floor": { type: "boolean", default: false },
    "no-fairness": { type: "boolean", default: false },
    out: { type: "string" },
    profile: { type: "boolean", default: false },
    scenarios: { type: "string" },
    "sql-census": { type: "boolean", default: false },
    "node-args": { type: "string" },
    "ratio-rate": { type: "string" },
    "ratio-duration": { type: "string" },
    "ratio-classes": { type: "string" },
    "no-ratios": { type: "boolean", default: false },
    "strict-ratios": { type: "boolean", default: false },
    "ratio-only": { type: "boolean", default: false },
    "ratio-runs": { type: "string" },
    "page-only": { type: "boolean", default: false },
    "no-page": { type: "boolean", default: false },
  },
});

const quick = args.quick ?? false;

/** The bot as production runs it: `npm start`'s own command line, after the same build. */
const startCommand = (
  JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } }
).scripts.start.split(/\s+/);
if (startCommand[0] !== "node") throw new Error(`npm start should run node, not: ${startCommand.join(" ")}`);
// npm start runs the bot under its supervisor (src/supervisor.ts): measure the bot's own process.
const botCommand = startCommand[1]?.endsWith("supervisor.js") ? startCommand.slice(2) : startCommand.slice(1);
const BOT_NODE_ARGS = botCommand.slice(0, -1);
const BOT_SCRIPT = botCommand.at(-1)!;
execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
const settings = {
  rate: Number(args.rate ?? 200),
  durationS: Number(args.duration ?? (quick ? 10 : 60)),
  warmupS: Number(args.warmup ?? (quick ? 3 : 5)),
  floorDurationS: Number(args["floor-duration"] ?? (quick ? 8 : 30)),
  tables: Number(args.tables ?? (quick ? 120 : 300)),
  guilds: Number(args.guilds ?? 5000),
  /** `--ratio-only`: no measured run at --rate (nor its floor), only the cost-per-interaction phase. */
  runs: args["ratio-only"] ? 0 : Number(args.runs ?? 1),
  seed: Number(args.seed ?? 20261129),
  floor: !(args["no-floor"] ?? false),
  fairness: !(args["no-fairness"] ?? false),
  fairnessRolls: 1_000_000,
  /** Only the scenarios whose name matches this regular expression. */
  scenarios: args.scenarios ?? null,
  /** Extra node flags for the measured bot, to try V8 settings (e.g. "--max-semi-space-size=4"). */
  nodeArgs: args["node-args"]?.split(/\s+/).filter(Boolean) ?? [],
  /** Count the bot's SQL statements by text (bench/sql-census.ts) and print the most frequent. */
  sqlCensus: args["sql-census"] ?? false,
  /** Write a V8 CPU profile of the bot's measured run to bench/profiles/. */
  profile: args.profile ?? false,
  /** The cost-per-interaction table: each command class on its own, below saturation. */
  ratios: !(args["no-ratios"] ?? false),
  ratioRate: Number(args["ratio-rate"] ?? 100),
  ratioDurationS: Number(args["ratio-duration"] ?? (quick ? 5 : 15)),
  ratioWarmupS: 3,
  /** Rounds of the cost-per-interaction phase (each: a fresh bot, every class, the floor); medians. */
  ratioRuns: Number(args["ratio-runs"] ?? 1),
  /** Before the first class: the whole mix, so the fresh bot's caches and JIT are warm for every class. */
  ratioMixWarmupS: quick ? 5 : 10,
  /** Only the command classes whose key or name matches this regular expression. */
  ratioClasses: args["ratio-classes"] ?? null,
  /** A missed ratio goal makes the run exit non-zero (otherwise it is reported only). */
  strictRatios: args["strict-ratios"] ?? false,
};

/** The capacity targets (at --rate; the run exits non-zero when one is missed). */
const TARGETS = {
  maxFailed: 0,
  minRateFraction: 0.97,
  ackP99VsFloorDb: 3,
  ackP99VsFloorRoll: 1.5,
  maxRssGrowth: 0.2,
  maxRssBytes: 250 * 1024 * 1024,
  maxWarmStartupMs: 3000,
};

/**
 * The cost-per-interaction goals at --ratio-rate: total CPU (bot + PostgreSQL) and ack p99 per
 * interaction against the floor bot's, for `/roll` and for every game action; none failed or late.
 */
const RATIO_GOALS = {
  cpu: { roll: 1.5, game: 2 },
  ackP99: { roll: 1.5, game: 3 },
} as const;

const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

interface PhaseResult {
  name: string;
  seconds: number;
  targetRate: number;
  achievedRate: number;
  interactions: number;
  ack: LatencySummary;
  final: LatencySummary;
  byClass: Record<string, { ack: LatencySummary; final: LatencySummary }>;
  byLabel: Record<
    string,
    { ack: LatencySummary; final: LatencySummary; refused: number; failed: number; refusals: string[] }
  >;
  failed: number;
  late: number;
  failures: string[];
  outcomes: Record<string, number>;
  /** Share of the whole machine (1 = all cores) used by the bot, PostgreSQL, the bench itself, and others. */
  cpu: Record<string, number>;
  /** CPU milliseconds per interaction: the bot's and PostgreSQL's (steadier than latency on a busy machine). */
  cpuMsPerInteraction: { bot: number; postgres: number };
  /** REST requests the bot made to Discord in the window, per interaction (its answers included). */
  discordCallsPerInteraction?: number;
  /** The bot's garbage collections and event-loop delay over the window (from its /metrics). */
  pauses?: BotPauses;
  /**
   * The bench process's own (the double and the load generator): latencies are taken in its event
   * loop, so a pause of its own shows as a slow answer of the bot.
   */
  harness?: HarnessPauses;
}

interface BotPauses {
  /** Milliseconds of GC per interaction, all kinds. */
  gcMsPerInteraction: number;
  /** Per kind (minor, major, incremental, weakcb): how many, and their milliseconds in all. */
  gc: Record<string, { count: number; ms: number }>;
  /** The event loop's delay over the window: p99 and max of the time between a 10 ms timer's runs (10 when nothing blocks it), ms. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

const GC_SERIES = /^nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\}$/;

/**
 * What the bot's GC and event loop did between two scrapes of its /metrics. prom-client resets
 * its event-loop delay histogram at every scrape, so the second scrape's figures are the window's.
 */
function pausesBetween(
  before: Record<string, number>,
  after: Record<string, number>,
  interactions: number,
): BotPauses {
  const gc: Record<string, { count: number; ms: number }> = {};
  for (const [series, value] of Object.entries(after)) {
    const match = GC_SERIES.exec(series);
    if (!match) continue;
    const [, part, kind] = match as unknown as [string, "sum" | "count", string];
    const delta = value - (before[series] ?? 0);
    gc[kind] ??= { count: 0, ms: 0 };
    const entry = gc[kind];
    if (part === "sum") entry.ms = round(delta * 1000, 1);
    else entry.count = delta;
  }
  const totalMs = Object.values(gc).reduce((sum, k) => sum + k.ms, 0);
  return {
    gcMsPerInteraction: round(totalMs / Math.max(1, interactions), 3),
    gc,
    loopDelayP99Ms: round((after.nodejs_eventloop_lag_p99_seconds ?? Number.NaN) * 1000, 1),
    loopDelayMaxMs: round((after.nodejs_eventloop_lag_max_seconds ?? Number.NaN) * 1000, 1),
  };
}

interface HarnessPauses {
  gcMs: number;
  gcMaxMs: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

/** The bench process's GC pauses and event-loop delay, from `begin()` to `end()`. */
class HarnessMonitor {
  private readonly delay = monitorEventLoopDelay({ resolution: 10 });
  private gcMs = 0;
  private gcMaxMs = 0;
  private readonly observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      this.gcMs += entry.duration;
      this.gcMaxMs = Math.max(this.gcMaxMs, entry.duration);
    }
  });

  constructor() {
    this.delay.enable();
    this.observer.observe({ entryTypes: ["gc"] });
  }

  begin(): void {
    this.delay.reset();
    this.gcMs = 0;
    this.gcMaxMs = 0;
  }

  end(): HarnessPauses {
    return {
      gcMs: round(this.gcMs, 1),
      gcMaxMs: round(this.gcMaxMs, 1),
      loopDelayP99Ms: round(this.delay.percentile(99) / 1e6, 1),
      loopDelayMaxMs: round(this.delay.max / 1e6, 1),
    };
  }

  /** Stops watching: the phases after the cost windows do not pay for it. */
  close(): void {
    this.observer.disconnect();
    this.delay.disable();
  }
}

interface MemorySample {
  t: number;
  rss: number;
}

async function main() {
  const wallStart = performance.now();
  // The campaign page's phase alone (bench/page.ts): no bot, no double.
  if (args["page-only"]) {
    await runPageBench(say);
    return;
  }
  say(
    `bench: ${settings.rate}/s for ${settings.durationS} s (+${settings.warmupS} s warm-up) × ${settings.runs} run(s), ${settings.tables} tables, ${settings.guilds} guilds; floor ${settings.floor ? `${settings.floorDurationS} s` : "off"}`,
  );

  // ---- world ----------------------------------------------------------------------------------
  const double = new DiscordDouble({ waitTimeoutMs: 10_000 });
  const { apiBase, token } = await double.start();
  const dataRoot = mkdtempSync(path.join(tmpdir(), "storybot-bench-"));
  chmodSync(dataRoot, 0o711); // ours: as root the server runs as `postgres` and must pass through it
  const pgStarted = performance.now();
  const postgres = await startEmbeddedPostgres({ dataDir: path.join(dataRoot, "postgres") });
  say(`PostgreSQL ready in ${Math.round(performance.now() - pgStarted)} ms (${postgres.dataDir})`);

  const cleanup = async () => {
    await stopAll();
    await double.stop().catch(() => {});
    await postgres.stop().catch(() => {});
    rmSync(dataRoot, { recursive: true, force: true });
  };

  const worldStarted = performance.now();
  const systems: System[] = ["mountain-witch", "fate", "beast-hunters"];
  const tables: TableWorld[] = [];
  const names = ["Akio", "Bara", "Chen"];
  for (let g = 0; g < settings.guilds; g++) {
    const guildId = double.addGuild({ name: `Guild ${g}`, preferredLocale: g % 3 === 0 ? "ru" : "en-US" });
    const channelId = double.addChannel({ guildId, name: "general" });
    if (g < settings.tables) {
      const user = (role: string, i: number) =>
        double.addUser({ username: `${role}${g}`, locale: (g + i) % 2 === 0 ? "en-US" : "ru" });
      tables.push({
        index: g,
        system: systems[g % systems.length] as System,
        guildId,
        channelId,
        gm: user("gm", 0),
        players: [user("p0-", 1), user("p1-", 2), user("p2-", 3)],
        characters: names,
        remembered: {},
      });
    }
  }
  say(
    `double: ${settings.guilds} guilds, ${settings.tables} tables (${Math.round(performance.now() - worldStarted)} ms)`,
  );

  const env = {
    DISCORD_TOKEN: token,
    DISCORD_API_BASE: apiBase,
    DATABASE_URL: postgres.url,
    HTTP_PORT: "0",
    WEB_PORT: "0",
    LOG_LEVEL: "info",
    REGISTER_COMMANDS: "true",
    DATA_DIR: dataRoot,
  };

  try {
    // ---- cold start (migrations), then set the tables up through the bot -----------------------
    let bot = new BenchProcess("bot", BOT_SCRIPT, env, BOT_NODE_ARGS);
    const coldStartMs = await bot.start();
    await double.waitForBot();
    const registration = await bot.waitForLog(
      (l) => l.msg === "commands registered" || l.msg === "command registration failed",
    );
    if (registration.msg !== "commands registered") {
      throw new Error(
        `the bot could not register its commands: ${JSON.stringify(registration.err ?? registration)}`,
      );
    }
    say(`bot ready (cold database, migrations) in ${Math.round(coldStartMs)} ms`);

    const registered = registeredPaths(double);
    const available: Scenario[] = [];
    const skipped: Array<{ name: string; missing: string[] }> = [];
    const wanted = settings.scenarios ? new RegExp(settings.scenarios, "i") : null;
    for (const scenario of SCENARIOS.filter((s) => !wanted || wanted.test(s.name))) {
      const missing = requiredCommands(scenario).filter((c) => !registered.has(c));
      if (missing.length > 0) skipped.push({ name: scenario.name, missing });
      else available.push(scenario);
    }
    for (const s of skipped) say(`  skipped scenario "${s.name}": no /${s.missing.join(", /")} yet`);
    const ratioClasses = settings.ratios ? ratioClassesToRun(registered) : [];

    const setupStarted = performance.now();
    // The ratio classes' scenarios are prepared too, also when --scenarios leaves them out of the mix.
    const toPrepare = [...new Set([...available, ...ratioClasses.flatMap((c) => c.scenarios)])];
    const setupSamples = await setUpTables(double, tables, toPrepare);
    const setupFailures = setupSamples.filter((s) => s.error || s.refusal);
    say(
      `set up ${tables.length} tables in ${Math.round(performance.now() - setupStarted)} ms (${setupSamples.length} interactions, ${setupFailures.length} refused or failed, retried)`,
    );
    for (const f of setupFailures.slice(0, 5)) say(`  setup failure: ${f.label}: ${f.error ?? f.refusal}`);

    // ---- warm restart: start-up time with a warm database and every guild -----------------------
    await bot.stop();
    const profileArgs = settings.profile ? ["--inspect=127.0.0.1:0"] : [];
    const censusFile = path.join(dataRoot, "sql-census.json");
    const censusArgs = settings.sqlCensus ? ["--import", "./bench/sql-census.ts"] : [];
    bot = new BenchProcess("bot", BOT_SCRIPT, { ...env, SQL_CENSUS_FILE: censusFile }, [
      ...BOT_NODE_ARGS,
      ...settings.nodeArgs,
      ...profileArgs,
      // The census preload is TypeScript; the bot itself stays the built JavaScript.
      ...(settings.sqlCensus ? ["--import", "tsx", ...censusArgs] : []),
    ]);
    const warmStartMs = await bot.start();
    await double.waitForBot();
    const selfReported = Number(bot.readyLine?.startupMs ?? Number.NaN);
    await sleep(500);
    const rssAtReady = bot.rss();
    const metricsAtReady = await bot.metrics();
    say(
      `bot ready (warm database) in ${Math.round(warmStartMs)} ms (bot's own count ${selfReported} ms), RSS ${mb(rssAtReady)} MB`,
    );

    // ---- measured runs ----------------------------------------------------------------------------
    const pacer = new Pacer(settings.rate);
    const driver = new Driver(double, pacer);
    const runs: Array<{ bot: PhaseResult; floor: PhaseResult | null }> = [];
    const memory: MemorySample[] = [];
    let rssAtStart = Number.NaN;
    let heapAtStart = Number.NaN;
    let rssAtEnd = Number.NaN;
    let heapAtEnd = Number.NaN;
    let floorBot: BenchProcess | null = null;
    let floorRss = Number.NaN;

    for (let run = 1; run <= settings.runs; run++) {
      if (run > 1) {
        // The floor took the gateway session; bring the bot back.
        bot = new BenchProcess("bot", BOT_SCRIPT, env, [...BOT_NODE_ARGS, ...settings.nodeArgs]);
        await bot.start();
        await double.waitForBot();
      }
      const botProcess = bot;
      driver.phase = "warmup";
      pacer.begin(settings.rate);
      const loop = runTables(driver, tables, available, settings.seed + run);
      await sleep(settings.warmupS * 1000);

      driver.phase = `bot#${run}`;
      const windowStart = Date.now();
      const startedAt = performance.now();
      pacer.begin(settings.rate);
      if (run === 1) {
        rssAtStart = botProcess.rss();
        heapAtStart = (await botProcess.metrics())?.nodejs_heap_size_used_bytes ?? Number.NaN;
      }
      const inspector =
        settings.profile && run === 1 ? await InspectorSession.connect(botProcess.inspectorUrl()) : null;
      await inspector?.startProfiling();
      const cpu = new CpuMeter(() => ({
        bot: jiffiesOf([botProcess.pid]),
        postgres: serverJiffies(postgres.dataDir),
        bench: jiffiesOf([process.pid]),
      }));
      cpu.begin();
      const sampler = setInterval(() => {
        try {
          memory.push({ t: round((performance.now() - startedAt) / 1000, 1), rss: botProcess.rss() });
        } catch {}
      }, 1000);
      await sleep(settings.durationS * 1000);
      pacer.stop();
      const seconds = (performance.now() - startedAt) / 1000;
      const cpuUsed = cpu.end();
      clearInterval(sampler);
      if (inspector) {
        const file = path.join(
          "bench",
          "profiles",
          `bot-${new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19)}.cpuprofile`,
        );
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, JSON.stringify(await inspector.stopProfiling()));
        inspector.close();
        say(`CPU profile of the measured run: ${file} (npx tsx bench/profile-summary.ts ${file})`);
      }
      await driver.drain();
      await loop;
      // The bot logs an interaction once its effects (panel edits, DMs) are done too: wait for those.
      await waitForOutcomes(botProcess, driver.samples, `bot#${run}`);
      if (run === 1) {
        rssAtEnd = botProcess.rss();
        heapAtEnd = (await botProcess.metrics())?.nodejs_heap_size_used_bytes ?? Number.NaN;
      }
      const botPhase = summarizePhase(
        `bot#${run}`,
        driver.samples,
        seconds,
        windowStart,
        double,
        botProcess,
        cpuUsed,
        settings.rate,
      );
      printPhase(botPhase);

      let floorPhase: PhaseResult | null = null;
      if (settings.floor) {
        await botProcess.stop();
        floorBot = new BenchProcess("floor", "bench/floor-bot.ts", { ...env });
        await floorBot.start();
        await double.waitForBot();
        const floorDriver = new Driver(double, pacer);
        floorDriver.phase = "warmup";
        pacer.begin(settings.rate);
        const floorLoop = runTables(floorDriver, tables, FLOOR_SCENARIOS, settings.seed + run);
        await sleep(Math.min(3, settings.warmupS) * 1000);
        floorDriver.phase = `floor#${run}`;
        const floorWindow = Date.now();
        const floorStarted = performance.now();
        pacer.begin(settings.rate);
        const floorProcess = floorBot;
        const floorCpu = new CpuMeter(() => ({
          bot: jiffiesOf([floorProcess.pid]),
          postgres: serverJiffies(postgres.dataDir),
          bench: jiffiesOf([process.pid]),
        }));
        floorCpu.begin();
        await sleep(settings.floorDurationS * 1000);
        pacer.stop();
        const floorSeconds = (performance.now() - floorStarted) / 1000;
        const floorCpuUsed = floorCpu.end();
        await floorDriver.drain();
        await floorLoop;
        floorRss = floorBot.rss();
        floorPhase = summarizePhase(
          `floor#${run}`,
          floorDriver.samples,
          floorSeconds,
          floorWindow,
          double,
          floorBot,
          floorCpuUsed,
          settings.rate,
        );
        printPhase(floorPhase);
        await floorBot.stop();
      } else if (run === settings.runs) {
        await botProcess.stop();
      }
      runs.push({ bot: botPhase, floor: floorPhase });
    }

    if (settings.runs === 0) await bot.stop();
    else if (settings.sqlCensus) printCensus(censusFile, runs);

    // ---- cost per interaction: each command class on its own, below saturation ------------------
    const ratios =
      ratioClasses.length > 0
        ? await runRatioPhase({
            double,
            tables,
            classes: ratioClasses,
            mix: available,
            env,
            postgresDir: postgres.dataDir,
            censusFile: settings.sqlCensus ? path.join(dataRoot, "sql-census-ratio.json") : null,
          })
        : null;

    // ---- dice fairness ----------------------------------------------------------------------------
    const fairness: FairnessResult[] = settings.fairness ? diceFairness(settings.fairnessRolls) : [];

    // ---- report -----------------------------------------------------------------------------------
    const report = buildReport({
      runs,
      memory: {
        rssAtReady,
        rssAtStart,
        rssAtEnd,
        heapAtReady: metricsAtReady?.nodejs_heap_size_used_bytes ?? Number.NaN,
        heapAtStart,
        heapAtEnd,
        floorRss,
        samples: memory,
      },
      startup: {
        coldMs: round(coldStartMs, 0),
        warmMs: round(warmStartMs, 0),
        warmSelfReportedMs: selfReported,
      },
      skipped,
      broken: Object.fromEntries(driver.broken),
      fairness,
      setup: { interactions: setupSamples.length, failed: setupFailures.length },
      ratios,
    });
    printReport(report);
    if (!args["no-page"]) (report as Record<string, unknown>).page = await runPageBench(say);
    const outFile =
      args.out ??
      path.join(
        "bench",
        "results",
        `${new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19)}${quick ? "-quick" : ""}.json`,
      );
    mkdirSync(path.dirname(outFile), { recursive: true });
    writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);
    say(`\nsaved ${outFile} — whole bench took ${Math.round((performance.now() - wallStart) / 1000)} s`);
    const capacityMet = report.targets.every((t) => t.pass !== false);
    const ratiosMet = !ratios || ratios.goals.every((g) => g.pass);
    process.exitCode = capacityMet && (ratiosMet || !settings.strictRatios) ? 0 : 1;
  } finally {
    await cleanup();
  }
}

function printCensus(file: string, runs: Array<{ bot: PhaseResult }>) {
  // The bot writes its census when it exits (it has, for the floor phase or at the end).
  let census: Array<[string, number]> = [];
  try {
    census = JSON.parse(readFileSync(file, "utf8")) as Array<[string, number]>;
  } catch {
    say("no SQL census (the bot has not exited yet)");
    return;
  }
  const total = census.reduce((sum, [, n]) => sum + n, 0);
  const interactions = runs.reduce((sum, r) => sum + r.bot.interactions, 0);
  say(
    `\nSQL census (whole bot life incl. warm-up): ${total} statements, ~${round(total / Math.max(1, interactions), 1)} per measured interaction`,
  );
  for (const [text, n] of census.slice(0, 25)) say(`${String(n).padStart(7)}  ${text.slice(0, 150)}`);
}

async function waitForOutcomes(bot: BenchProcess, samples: Sample[], phase: string, timeoutMs = 15_000) {
  const ids = samples.filter(
    (s) => s.phase === phase && s.interactionId && !s.label.startsWith("autocomplete"),
  );
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && ids.some((s) => !bot.outcomes.has(s.interactionId))) await sleep(100);
}

/**
 * "roll", "table show", "character vp add", … for every command a table can use: the global ones the
 * bot registered at start-up, and each game's, which it registers in a guild once that guild has a
 * table of the game (during the set-up below).
 */
function registeredPaths(double: DiscordDouble): Set<string> {
  const out = new Set<string>();
  type Opt = { type: number; name: string; options?: Opt[] };
  const surface = [
    ...double.registeredCommands(),
    ...gameCommandModules(GAMES).map((c) => buildCommand(c.spec)),
  ];
  for (const command of surface as unknown as Array<{ name: string; options?: Opt[] }>) {
    const subs = (command.options ?? []).filter((o) => o.type === 1 || o.type === 2);
    if (subs.length === 0) out.add(command.name);
    for (const sub of subs) {
      if (sub.type === 1) out.add(`${command.name} ${sub.name}`);
      else for (const s of sub.options ?? []) out.add(`${command.name} ${sub.name} ${s.name}`);
    }
  }
  return out;
}

/**
 * /table setup and the players' characters, then each available scenario's `prepare`, a few tables
 * at a time; a step that was refused or failed (e.g. the machine is busy) is retried.
 */
async function setUpTables(
  double: DiscordDouble,
  tables: TableWorld[],
  scenarios: Scenario[],
): Promise<Sample[]> {
  const setupScenario: Scenario = { name: "table setup", weight: 0, steps: [] };
  const samples: Sample[] = [];
  let next = 0;
  const worker = async () => {
    const driver = new Driver(double, null);
    const attempt = async (table: TableWorld, scenario: Scenario, steps: Step[]) => {
      for (let tries = 0; tries < 3; tries++) {
        const before = driver.samples.length;
        await driver.runScenario(table, scenario, steps, () => 0.5);
        if (!driver.samples.slice(before).some((s) => s.error || s.refusal)) return;
      }
    };
    while (next < tables.length) {
      const table = tables[next++] as TableWorld;
      await attempt(table, setupScenario, [
        { as: "gm", slash: "table setup", options: { system: table.system } },
      ]);
      for (const [i, name] of table.characters.entries()) {
        const zodiac: Options =
          table.system === "mountain-witch" ? { zodiac: ["rat", "ox", "tiger"][i] as string } : {};
        await attempt(table, setupScenario, [
          { as: `p${i}` as Role, slash: "character create", options: { name, ...zodiac } },
        ]);
      }
      for (const scenario of scenarios) {
        if (scenario.prepare && (!scenario.systems || scenario.systems.includes(table.system))) {
          await attempt(table, scenario, scenario.prepare);
        }
      }
    }
    samples.push(...driver.samples);
    for (const [name, b] of driver.broken) say(`  setup of "${name}" could not go on ${b.count}×: ${b.last}`);
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return samples;
}

function summarizePhase(
  name: string,
  allSamples: Sample[],
  seconds: number,
  windowStart: number,
  double: DiscordDouble,
  bot: BenchProcess,
  cpu: { shares: Record<string, number>; ms: Record<string, number> },
  targetRate: number,
): PhaseResult {
  const samples = allSamples.filter((s) => s.phase === name);
  const ids = new Set(samples.map((s) => s.interactionId));
  const doubleFailures = double
    .failedInteractions()
    .filter((i) => ids.has(i.id) || (i.dispatchedAt >= windowStart && i.kind === "autocomplete"));
  const failedIds = new Set(doubleFailures.map((i) => i.id));
  const outcomes: Record<string, number> = {};
  const refusedIds = new Set<string>();
  for (const s of samples) {
    const outcome =
      bot.outcomes.get(s.interactionId) ?? (s.label.startsWith("autocomplete") ? "autocomplete" : "unlogged");
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    if (outcome === "refused") refusedIds.add(s.interactionId);
    if (outcome === "error" || outcome === "unavailable") failedIds.add(s.interactionId);
  }
  const failures: string[] = [];
  for (const s of samples) {
    if (s.error || failedIds.has(s.interactionId)) {
      failedIds.add(s.interactionId || `${s.label}@${s.dispatchedAt}`);
      if (failures.length < 10) failures.push(`${s.label}: ${s.error ?? "failed in the double / bot"}`);
    }
  }
  const ackOf = (list: Sample[]) => summarize(list.flatMap((s) => (s.ackMs === null ? [] : [s.ackMs])));
  const finalOf = (list: Sample[]) => summarize(list.flatMap((s) => (s.finalMs === null ? [] : [s.finalMs])));
  const group = <K extends string>(key: (s: Sample) => K) => {
    const map = new Map<K, Sample[]>();
    for (const s of samples) map.set(key(s), [...(map.get(key(s)) ?? []), s]);
    return map;
  };
  const byClass = Object.fromEntries(
    [...group((s) => s.cls)].map(([cls, list]) => [cls, { ack: ackOf(list), final: finalOf(list) }]),
  );
  const byLabel = Object.fromEntries(
    [...group((s) => s.label)]
      .sort((a, b) => b[1].length - a[1].length)
      .map(([label, list]) => [
        label,
        {
          ack: ackOf(list),
          final: finalOf(list),
          refused: list.filter((s) => refusedIds.has(s.interactionId)).length,
          failed: list.filter((s) => failedIds.has(s.interactionId) || s.error).length,
          refusals: [...new Set(list.flatMap((s) => (s.refusal ? [s.refusal] : [])))].slice(0, 3),
        },
      ]),
  );
  return {
    name,
    seconds: round(seconds, 2),
    targetRate,
    achievedRate: round(samples.length / seconds, 1),
    interactions: samples.length,
    ack: ackOf(samples),
    final: finalOf(samples),
    byClass,
    byLabel,
    failed: failedIds.size,
    late: doubleFailures.filter((i) => i.late).length,
    failures,
    outcomes,
    cpu: cpu.shares,
    cpuMsPerInteraction: {
      bot: round((cpu.ms.bot ?? 0) / Math.max(1, samples.length), 3),
      postgres: round((cpu.ms.postgres ?? 0) / Math.max(1, samples.length), 3),
    },
  };
}

function printPhase(p: PhaseResult) {
  const cpu = Object.entries(p.cpu)
    .map(([k, v]) => `${k} ${Math.round(v * 100)}%`)
    .join(", ");
  say(
    `${p.name}: ${p.interactions} interactions in ${p.seconds} s = ${p.achievedRate}/s; ack p50 ${p.ack.p50} p99 ${p.ack.p99} max ${p.ack.max} ms; failed ${p.failed}; machine CPU: ${cpu}; CPU per interaction: bot ${p.cpuMsPerInteraction.bot} ms, PostgreSQL ${p.cpuMsPerInteraction.postgres} ms${p.discordCallsPerInteraction === undefined ? "" : `; Discord calls per interaction ${p.discordCallsPerInteraction}`}`,
  );
  if (p.pauses) {
    const kinds = Object.entries(p.pauses.gc)
      .filter(([, k]) => k.count > 0)
      .map(([kind, k]) => `${kind} ${k.count} (${k.ms} ms)`)
      .join(", ");
    say(
      `  bot GC ${p.pauses.gcMsPerInteraction} ms per interaction: ${kinds || "none"}; event-loop delay p99 ${p.pauses.loopDelayP99Ms} ms, max ${p.pauses.loopDelayMaxMs} ms`,
    );
  }
  if (p.harness) {
    const h = p.harness;
    say(
      `  bench process: GC ${h.gcMs} ms in all (longest ${h.gcMaxMs} ms); event-loop delay p99 ${h.loopDelayP99Ms} ms, max ${h.loopDelayMaxMs} ms`,
    );
  }
  if ((p.cpu.other ?? 0) > 0.1)
    say(
      `  warning: other processes used ${Math.round((p.cpu.other ?? 0) * 100)}% of the machine; numbers are noisy`,
    );
}

function buildReport(input: {
  runs: Array<{ bot: PhaseResult; floor: PhaseResult | null }>;
  memory: {
    rssAtReady: number;
    rssAtStart: number;
    rssAtEnd: number;
    heapAtReady: number;
    heapAtStart: number;
    heapAtEnd: number;
    floorRss: number;
    samples: MemorySample[];
  };
  startup: { coldMs: number; warmMs: number; warmSelfReportedMs: number };
  skipped: Array<{ name: string; missing: string[] }>;
  broken: Record<string, { count: number; last: string }>;
  fairness: FairnessResult[];
  setup: { interactions: number; failed: number };
  ratios: RatioReport | null;
}) {
  const med = (f: (r: { bot: PhaseResult; floor: PhaseResult | null }) => number | undefined) =>
    round(median(input.runs.map((r) => f(r) ?? Number.NaN)));
  const floorAck = (key: keyof LatencySummary) => med((r) => r.floor?.ack[key]);
  const summary = {
    achievedRate: med((r) => r.bot.achievedRate),
    ackP50: med((r) => r.bot.ack.p50),
    ackP95: med((r) => r.bot.ack.p95),
    ackP99: med((r) => r.bot.ack.p99),
    ackMax: med((r) => r.bot.ack.max),
    finalP50: med((r) => r.bot.final.p50),
    finalP99: med((r) => r.bot.final.p99),
    rollAckP50: med((r) => r.bot.byClass.roll?.ack.p50),
    rollAckP99: med((r) => r.bot.byClass.roll?.ack.p99),
    dbAckP50: med((r) => r.bot.byClass.db?.ack.p50),
    dbAckP99: med((r) => r.bot.byClass.db?.ack.p99),
    failed: Math.max(...input.runs.map((r) => r.bot.failed)),
    floorAckP50: floorAck("p50"),
    floorAckP95: floorAck("p95"),
    floorAckP99: floorAck("p99"),
    floorAckMax: floorAck("max"),
  };
  const ratio = (a: number, b: number) => round(a / b);
  const ratios = {
    ackP50: ratio(summary.ackP50, summary.floorAckP50),
    ackP99: ratio(summary.ackP99, summary.floorAckP99),
    rollAckP99: ratio(summary.rollAckP99, summary.floorAckP99),
    dbAckP99: ratio(summary.dbAckP99, summary.floorAckP99),
  };
  const m = input.memory;
  const rssGrowth = round((m.rssAtEnd - m.rssAtStart) / m.rssAtStart, 3);
  const longEnough = settings.durationS >= 60 && settings.rate >= 200;
  const capacityTargets: Array<{ target: string; value: string; pass: boolean | null }> = [
    {
      target: `zero failed or late at ${settings.rate}/s for ${settings.durationS} s${longEnough ? "" : " (target: 200/s for 60 s)"}`,
      value: `${summary.failed} failed, ${summary.achievedRate}/s achieved`,
      pass: summary.failed === 0 && summary.achievedRate >= settings.rate * TARGETS.minRateFraction,
    },
    {
      target: "ack p99 ≤ 3 × floor p99 (commands that touch the database)",
      value: `${summary.dbAckP99} ms vs ${summary.floorAckP99} ms = ${ratios.dbAckP99}×`,
      pass: Number.isFinite(ratios.dbAckP99) ? ratios.dbAckP99 <= TARGETS.ackP99VsFloorDb : null,
    },
    {
      target: "ack p99 ≤ 1.5 × floor p99 (/roll)",
      value: `${summary.rollAckP99} ms vs ${summary.floorAckP99} ms = ${ratios.rollAckP99}×`,
      pass: Number.isFinite(ratios.rollAckP99) ? ratios.rollAckP99 <= TARGETS.ackP99VsFloorRoll : null,
    },
    {
      target: "RSS growth < 20 % over the run",
      value: `${mb(m.rssAtStart)} → ${mb(m.rssAtEnd)} MB (${round(rssGrowth * 100, 1)} %)`,
      pass: rssGrowth < TARGETS.maxRssGrowth,
    },
    {
      target: `RSS < 250 MB with ${settings.guilds} guilds cached${settings.guilds >= 5000 ? "" : " (target: 5,000)"}`,
      value: `max ${mb(Math.max(m.rssAtEnd, ...m.samples.map((s) => s.rss)))} MB`,
      pass: Math.max(m.rssAtEnd, ...m.samples.map((s) => s.rss)) < TARGETS.maxRssBytes,
    },
  ];
  const targets: Array<{ target: string; value: string; pass: boolean | null }> = [
    ...(input.runs.length > 0 ? capacityTargets : []),
    {
      target: "start-up to ready < 3 s (warm database)",
      value: `${input.startup.warmMs} ms`,
      pass: input.startup.warmMs < TARGETS.maxWarmStartupMs,
    },
    ...input.fairness.map((f) => ({
      target: `${f.die} fair (χ² < ${f.criticalValueP001}, p = 0.001, ${f.degreesOfFreedom} df)`,
      value: `χ² = ${f.chiSquare} over ${f.rolls.toLocaleString("en")} rolls`,
      pass: f.fair,
    })),
  ];
  return {
    when: new Date().toISOString(),
    tree: treeInfo(),
    machine: machineInfo(),
    settings,
    summary,
    ratiosToFloor: ratios,
    memory: {
      rssAtReadyMb: mb(m.rssAtReady),
      rssAtStartMb: mb(m.rssAtStart),
      rssAtEndMb: mb(m.rssAtEnd),
      rssGrowth,
      heapUsedAtReadyMb: mb(m.heapAtReady),
      heapUsedAtStartMb: mb(m.heapAtStart),
      heapUsedAtEndMb: mb(m.heapAtEnd),
      floorRssMb: mb(m.floorRss),
      rssSeriesMb: m.samples.map((s) => [s.t, mb(s.rss)]),
    },
    startup: input.startup,
    targets,
    skippedScenarios: input.skipped,
    brokenScenarios: input.broken,
    setup: input.setup,
    fairness: input.fairness,
    runs: input.runs,
    ratios: input.ratios,
  };
}

/** The commit measured, and whether the bot's sources differed from it (uncommitted changes). */
function treeInfo(): { commit: string; uncommittedChanges: boolean } | null {
  try {
    const git = (...a: string[]) => execFileSync("git", a, { encoding: "utf8" }).trim();
    return {
      commit: git("rev-parse", "--short", "HEAD"),
      uncommittedChanges: git("status", "--porcelain", "--", "src", "commands", "prisma").length > 0,
    };
  } catch {
    return null;
  }
}

function machineInfo() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryGb: round(os.totalmem() / 2 ** 30, 1),
    node: process.version,
  };
}

type Report = ReturnType<typeof buildReport>;

function printReport(report: Report) {
  const s = report.summary;
  const r = report.ratiosToFloor;
  const row = (cells: Array<string | number>, widths: number[]) =>
    cells
      .map((c, i) =>
        i === 0 ? String(c).padEnd(widths[i] as number) : String(c).padStart(widths[i] as number),
      )
      .join("  ");
  const w = [34, 9, 9, 9, 9, 10, 10];
  say("");
  const first = report.runs[0];
  if (!first) say(`=== no measured run at ${report.settings.rate}/s (--ratio-only) ===`);
  if (first) {
    say(
      `=== results (${report.settings.runs > 1 ? `medians of ${report.settings.runs} runs` : "one run"}; latencies in ms) ===`,
    );
    say(row(["", "ack p50", "ack p95", "ack p99", "ack max", "final p50", "final p99"], w));
    say(row(["bot, all", s.ackP50, s.ackP95, s.ackP99, s.ackMax, s.finalP50, s.finalP99], w));
    for (const [cls, v] of Object.entries(first.bot.byClass)) {
      say(
        row(
          [
            `  ${cls === "roll" ? "/roll" : "DB commands (all but /roll)"}`,
            v.ack.p50,
            v.ack.p95,
            v.ack.p99,
            v.ack.max,
            v.final.p50,
            v.final.p99,
          ],
          w,
        ),
      );
    }
    if (first.floor) {
      say(
        row(
          [
            "floor (fixed reply, no DB)",
            s.floorAckP50,
            s.floorAckP95,
            s.floorAckP99,
            s.floorAckMax,
            first.floor.final.p50,
            first.floor.final.p99,
          ],
          w,
        ),
      );
      say(row(["ratio bot / floor", r.ackP50, "", r.ackP99, "", "", ""], w));
      say(row(["ratio /roll / floor", "", "", r.rollAckP99, "", "", ""], w));
      say(row(["ratio DB commands / floor", "", "", r.dbAckP99, "", "", ""], w));
    }
    say("");
    say(row(["by command (first run)", "count", "ack p50", "ack p99", "final p99", "refused", "failed"], w));
    for (const [label, v] of Object.entries(first.bot.byLabel)) {
      say(row([label.slice(0, 34), v.ack.count, v.ack.p50, v.ack.p99, v.final.p99, v.refused, v.failed], w));
    }
    say(`outcomes: ${JSON.stringify(first.bot.outcomes)}`);
    for (const [label, v] of Object.entries(first.bot.byLabel)) {
      for (const text of v.refusals) say(`  refused ${label}: ${text.replace(/\s+/g, " ")}`);
    }
    for (const f of first.bot.failures) say(`  failure: ${f}`);
  }
  say("");
  say(
    `interactions/s ${s.achievedRate} (target ${report.settings.rate}); failed or late ${s.failed}; start-up to ready ${report.startup.warmMs} ms warm, ${report.startup.coldMs} ms cold (migrations)`,
  );
  const m = report.memory;
  say(
    `bot memory: RSS ${m.rssAtReadyMb} MB at ready, ${m.rssAtStartMb} → ${m.rssAtEndMb} MB over the run (${round(m.rssGrowth * 100, 1)} %); heap used ${m.heapUsedAtStartMb} → ${m.heapUsedAtEndMb} MB; floor bot RSS ${m.floorRssMb} MB`,
  );
  for (const f of report.fairness) {
    say(
      `dice ${f.die}: ${f.rolls.toLocaleString("en")} rolls, χ² = ${f.chiSquare} (${f.degreesOfFreedom} df, critical ${f.criticalValueP001} at p = 0.001) ${f.fair ? "fair" : "NOT FAIR"}; counts ${f.counts.join(" ")}`,
    );
  }
  for (const sk of report.skippedScenarios) say(`skipped: ${sk.name} (missing /${sk.missing.join(", /")})`);
  for (const [name, b] of Object.entries(report.brokenScenarios))
    say(`scenario "${name}" could not go on ${b.count}×: ${b.last}`);
  say("");
  say("=== targets ===");
  for (const t of report.targets)
    say(`${t.pass === null ? "  -  " : t.pass ? "PASS " : "FAIL "} ${t.target}: ${t.value}`);
  if (report.ratios) printRatios(report.ratios);
}

// ---- cost per interaction ------------------------------------------------------------------------

/** The command classes `--ratio-classes` selects, each with only the scenarios the bot can run. */
function ratioClassesToRun(registered: Set<string>): CommandClass[] {
  const wanted = settings.ratioClasses ? new RegExp(settings.ratioClasses, "i") : null;
  const out: CommandClass[] = [];
  for (const cls of COMMAND_CLASSES.filter((c) => !wanted || wanted.test(c.key) || wanted.test(c.name))) {
    const scenarios = cls.scenarios.filter((s) => requiredCommands(s).every((c) => registered.has(c)));
    if (scenarios.length === 0) say(`  skipped command class "${cls.name}": its commands are not registered`);
    else out.push({ ...cls, scenarios });
  }
  if (wanted && out.length === 0)
    say(`  no command class matches --ratio-classes "${settings.ratioClasses}"`);
  return out;
}

/** One row of the cost-per-interaction table. CPU in ms per interaction, latencies in ms. */
interface RatioRow {
  key: string;
  command: string;
  goal: "roll" | "game";
  scenarios: string[];
  interactions: number;
  achievedRate: number;
  botMs: number;
  postgresMs: number;
  totalMs: number;
  floorMs: number;
  ratio: number;
  ackP50: number;
  ackP99: number;
  floorAckP50: number;
  floorAckP99: number;
  p99Ratio: number;
  failed: number;
  late: number;
  refused: number;
  /** Share of the machine used by processes that are neither ours nor the bench's. */
  otherShare: number;
  /** REST requests to Discord per interaction, the bot's and the floor's (its one answer). */
  discordCalls: number;
  floorDiscordCalls: number;
  /** `--sql-census`: the statements the window's interactions sent, per interaction. */
  sql: { perInteraction: number; statements: Array<{ perInteraction: number; text: string }> } | null;
}

interface RatioReport {
  rate: number;
  durationS: number;
  warmupS: number;
  /** Rounds (`--ratio-runs`); with several, a row's numbers are the medians of its windows'. */
  runs: number;
  /** The floor's windows, one per round, and their medians. */
  floors: PhaseResult[];
  floor: { achievedRate: number; cpuMs: number; ackP50: number; ackP99: number };
  rows: RatioRow[];
  goals: Array<{ target: string; value: string; pass: boolean }>;
  /** Costs of one action inside a class, estimated from two classes' windows (see `invokeAlone`). */
  derived: DerivedCost[];
  /** Each class's windows, one per round. */
  phases: Record<string, PhaseResult[]>;
  broken: Record<string, { count: number; last: string }>;
}

interface DerivedCost {
  command: string;
  how: string;
  botMs: number;
  postgresMs: number;
  totalMs: number;
  ratio: number;
}

/**
 * `/invoke` alone: the check + invoke windows' CPU less their checks at the cost per check of the
 * Fate /check windows, divided by their invokes (all rounds pooled). An estimate (the noise of two
 * classes' windows), shown apart.
 */
function invokeAlone(phases: Record<string, PhaseResult[]>): DerivedCost | null {
  const checks = phases["fate check"] ?? [];
  const both = phases["fate invoke"] ?? [];
  const total = (list: PhaseResult[], part: "bot" | "postgres") =>
    list.reduce((sum, p) => sum + p.cpuMsPerInteraction[part] * p.interactions, 0);
  const count = (list: PhaseResult[], label?: string) =>
    list.reduce((sum, p) => sum + (label ? (p.byLabel[label]?.ack.count ?? 0) : p.interactions), 0);
  const invokes = count(both, "invoke");
  const checksThere = count(both, "check");
  if (checks.length === 0 || invokes === 0) return null;
  const alone = (part: "bot" | "postgres") =>
    round((total(both, part) - (checksThere * total(checks, part)) / count(checks)) / invokes, 3);
  const botMs = alone("bot");
  const postgresMs = alone("postgres");
  const totalMs = round(botMs + postgresMs, 3);
  return {
    command: "Fate /invoke alone",
    how: `the Fate /check + /invoke windows (${checksThere} checks, ${invokes} invokes) less their checks at the Fate /check windows' cost`,
    botMs,
    postgresMs,
    totalMs,
    ratio: 0,
  };
}

type Census = Array<[string, number]>;

/** The bot's census of the statements since the previous call (bench/sql-census.ts, on SIGUSR2). */
async function censusWindow(bot: BenchProcess, file: string): Promise<Census> {
  const windowFile = `${file}.window`;
  rmSync(windowFile, { force: true });
  process.kill(bot.pid, "SIGUSR2");
  for (let i = 0; i < 100; i++) {
    if (existsSync(windowFile)) return JSON.parse(readFileSync(windowFile, "utf8")) as Census;
    await sleep(50);
  }
  say("  no SQL census window from the bot");
  return [];
}

/**
 * Each command class on its own, one after the other, at --ratio-rate across the tables: a warm-up,
 * then a measured window in which the bot's and its PostgreSQL's CPU time is read from /proc and
 * divided by the interactions. Then the floor bot at the same rate for a window as long.
 */
async function runRatioPhase(input: {
  double: DiscordDouble;
  tables: TableWorld[];
  classes: CommandClass[];
  /** The run's whole mix, for the warm-up of the fresh bot. */
  mix: Scenario[];
  env: Record<string, string>;
  postgresDir: string;
  censusFile: string | null;
}): Promise<RatioReport> {
  const { double, tables, classes, mix, env, postgresDir, censusFile } = input;
  const rate = settings.ratioRate;
  const windowS = settings.ratioDurationS;
  say(
    `\ncost per interaction: the whole mix for ${settings.ratioMixWarmupS} s (warm-up), then ${classes.length} command classes at ${rate}/s, ${windowS} s each (+${settings.ratioWarmupS} s warm-up), then the floor`,
  );
  const meter = (pid: number) =>
    new CpuMeter(() => ({
      bot: jiffiesOf([pid]),
      postgres: serverJiffies(postgresDir),
      bench: jiffiesOf([process.pid]),
    }));
  const pacer = new Pacer(rate);
  const harness = new HarnessMonitor();

  /** Warm-up, then the measured window; returns the window's phase (and its SQL census). */
  const measure = async (
    target: BenchProcess,
    name: string,
    scenarios: Scenario[],
    seed: number,
  ): Promise<{
    phase: PhaseResult;
    census: { counts: Census; interactions: number } | null;
    driver: Driver;
  }> => {
    const driver = new Driver(double, pacer);
    driver.phase = "warmup";
    pacer.begin(rate);
    const loop = runTables(driver, tables, scenarios, seed);
    await sleep(settings.ratioWarmupS * 1000);
    if (censusFile && target.name === "bot") await censusWindow(target, censusFile);
    driver.phase = name;
    const windowStart = Date.now();
    // Scraped outside the CPU window: the scrape is the bench's work, not an interaction's.
    const metricsBefore = await target.metrics();
    const cpu = meter(target.pid);
    cpu.begin();
    harness.begin();
    const requestsBefore = double.requestCount();
    const startedAt = performance.now();
    pacer.begin(rate);
    await sleep(windowS * 1000);
    pacer.stop();
    const seconds = (performance.now() - startedAt) / 1000;
    const used = cpu.end();
    const harnessPauses = harness.end();
    const requests = double.requestCount() - requestsBefore;
    const metricsAfter = metricsBefore ? await target.metrics() : null;
    await driver.drain();
    await loop;
    await waitForOutcomes(target, driver.samples, name);
    const phase = summarizePhase(name, driver.samples, seconds, windowStart, double, target, used, rate);
    phase.discordCallsPerInteraction = round(requests / Math.max(1, phase.interactions), 2);
    if (metricsBefore && metricsAfter)
      phase.pauses = pausesBetween(metricsBefore, metricsAfter, phase.interactions);
    phase.harness = harnessPauses;
    printPhase(phase);
    // The census window closes once the window's interactions, the scenarios' last steps after it
    // (the cooldown) and their effects are done: its statements are theirs.
    const counts = censusFile && target.name === "bot" ? await censusWindow(target, censusFile) : null;
    const cooldown = driver.samples.filter((s) => s.phase === "cooldown").length;
    const census = counts ? { counts, interactions: phase.interactions + cooldown } : null;
    return { phase, census, driver };
  };

  const censusArgs = censusFile ? ["--import", "tsx", "--import", "./bench/sql-census.ts"] : [];
  type Measured = { phase: PhaseResult; census: { counts: Census; interactions: number } | null };
  const byClass = new Map<string, Measured[]>(classes.map((c) => [c.key, []]));
  const floors: PhaseResult[] = [];
  const broken: Record<string, { count: number; last: string }> = {};
  // Each round: a fresh bot warmed on the whole mix, every class alone, then the floor (which needs
  // the gateway session). Several rounds spread each class over the run, so a burst of other work
  // on the machine lands in one of its windows, not all.
  for (let roundNo = 1; roundNo <= settings.ratioRuns; roundNo++) {
    const suffix = settings.ratioRuns > 1 ? `#${roundNo}` : "";
    const bot = new BenchProcess(
      "bot",
      BOT_SCRIPT,
      censusFile ? { ...env, SQL_CENSUS_FILE: censusFile } : env,
      [...BOT_NODE_ARGS, ...settings.nodeArgs, ...censusArgs],
    );
    await bot.start();
    await double.waitForBot();
    if (mix.length > 0) {
      const warm = new Driver(double, pacer);
      warm.phase = "warmup";
      pacer.begin(rate);
      const loop = runTables(warm, tables, mix, settings.seed + 998 + roundNo);
      await sleep(settings.ratioMixWarmupS * 1000);
      pacer.stop();
      await warm.drain();
      await loop;
    }
    for (const [i, cls] of classes.entries()) {
      const { phase, census, driver } = await measure(
        bot,
        `ratio: ${cls.key}${suffix}`,
        cls.scenarios,
        settings.seed + 1000 * roundNo + i,
      );
      byClass.get(cls.key)?.push({ phase, census });
      for (const [name, b] of driver.broken) broken[name] = b;
    }
    await bot.stop();

    const floorBot = new BenchProcess("floor", "bench/floor-bot.ts", { ...env });
    await floorBot.start();
    await double.waitForBot();
    const { phase: floor } = await measure(
      floorBot,
      `ratio: floor${suffix}`,
      FLOOR_SCENARIOS,
      settings.seed + 999 + roundNo,
    );
    floors.push(floor);
    await floorBot.stop();
  }
  harness.close();

  // One round: its numbers; several: the median of the rounds' (counts are summed).
  const med = (values: number[], digits = 3) => round(median(values), digits);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const floorMs = med(floors.map((f) => f.cpuMsPerInteraction.bot));
  const floorDiscordCalls = med(
    floors.map((f) => f.discordCallsPerInteraction ?? Number.NaN),
    2,
  );
  const floorAckP50 = med(
    floors.map((f) => f.ack.p50),
    2,
  );
  const floorAckP99 = med(
    floors.map((f) => f.ack.p99),
    2,
  );
  const rows: RatioRow[] = classes.map((cls) => {
    const windows = byClass.get(cls.key) ?? [];
    const phasesOf = windows.map((w) => w.phase);
    const botMs = med(phasesOf.map((p) => p.cpuMsPerInteraction.bot));
    const postgresMs = med(phasesOf.map((p) => p.cpuMsPerInteraction.postgres));
    const totalMs = round(botMs + postgresMs, 3);
    const ackP99 = med(
      phasesOf.map((p) => p.ack.p99),
      2,
    );
    const censuses = windows.flatMap((w) => (w.census ? [w.census] : []));
    const n = Math.max(1, sum(censuses.map((c) => c.interactions)));
    const counts = new Map<string, number>();
    for (const c of censuses) for (const [text, k] of c.counts) counts.set(text, (counts.get(text) ?? 0) + k);
    return {
      key: cls.key,
      command: cls.name,
      goal: cls.goal,
      scenarios: cls.scenarios.map((sc) => sc.name),
      interactions: sum(phasesOf.map((p) => p.interactions)),
      achievedRate: med(
        phasesOf.map((p) => p.achievedRate),
        1,
      ),
      botMs,
      postgresMs,
      totalMs,
      floorMs,
      ratio: round(totalMs / floorMs),
      ackP50: med(
        phasesOf.map((p) => p.ack.p50),
        2,
      ),
      ackP99,
      floorAckP50,
      floorAckP99,
      p99Ratio: round(ackP99 / floorAckP99),
      failed: sum(phasesOf.map((p) => p.failed)),
      late: sum(phasesOf.map((p) => p.late)),
      refused: sum(phasesOf.map((p) => p.outcomes.refused ?? 0)),
      otherShare: med(phasesOf.map((p) => p.cpu.other ?? 0)),
      discordCalls: med(
        phasesOf.map((p) => p.discordCallsPerInteraction ?? Number.NaN),
        2,
      ),
      floorDiscordCalls,
      sql:
        censuses.length > 0
          ? {
              perInteraction: round(sum([...counts.values()]) / n),
              statements: [...counts]
                .sort((a, b) => b[1] - a[1])
                .map(([text, k]) => ({ perInteraction: round(k / n, 3), text })),
            }
          : null,
    };
  });
  const phases = Object.fromEntries(
    classes.map((c) => [c.key, (byClass.get(c.key) ?? []).map((w) => w.phase)]),
  );
  const derived = [invokeAlone(phases)].flatMap((d) =>
    d ? [{ ...d, ratio: round(d.totalMs / floorMs) }] : [],
  );
  const goals = rows.flatMap((r) => {
    const cpuGoal = RATIO_GOALS.cpu[r.goal];
    const p99Goal = RATIO_GOALS.ackP99[r.goal];
    return [
      {
        target: `${r.command}: CPU per interaction ≤ ${cpuGoal} × the floor's`,
        value: `${r.totalMs} ms (bot ${r.botMs} + PostgreSQL ${r.postgresMs}) vs ${r.floorMs} ms = ${r.ratio}×`,
        pass: r.ratio <= cpuGoal,
      },
      {
        target: `${r.command}: ack p99 ≤ ${p99Goal} × the floor's`,
        value: `${r.ackP99} ms vs ${r.floorAckP99} ms = ${r.p99Ratio}×`,
        pass: r.p99Ratio <= p99Goal,
      },
      {
        target: `${r.command}: none failed or late`,
        value: `${r.failed} failed (${r.late} late)`,
        pass: r.failed === 0,
      },
    ];
  });
  return {
    rate,
    durationS: windowS,
    warmupS: settings.ratioWarmupS,
    runs: settings.ratioRuns,
    floors,
    floor: {
      achievedRate: med(
        floors.map((f) => f.achievedRate),
        1,
      ),
      cpuMs: floorMs,
      ackP50: floorAckP50,
      ackP99: floorAckP99,
    },
    rows,
    goals: [
      ...goals,
      ...derived.map((d) => ({
        target: `${d.command} (estimated): CPU per interaction ≤ ${RATIO_GOALS.cpu.game} × the floor's`,
        value: `${d.totalMs} ms (bot ${d.botMs} + PostgreSQL ${d.postgresMs}) = ${d.ratio}×`,
        pass: d.ratio <= RATIO_GOALS.cpu.game,
      })),
    ],
    derived,
    phases,
    broken,
  };
}

/** The cost-per-interaction table, as markdown (bench/README.md keeps one). */
function ratioTable(report: RatioReport): string[] {
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  const times = (v: number) => `${v.toFixed(1)}×`;
  const lines = [
    "| command | interactions/s | bot CPU | PostgreSQL CPU | total | floor | ratio | ack p50 / p99 | floor ack p50 / p99 | p99 ratio | Discord calls (floor) | failed (late) | refused | other load |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of report.rows) {
    lines.push(
      `| ${r.command.replace(/\/[a-z]+(?: [a-z0-9][\w+]*)?/g, "`$&`")} | ${r.achievedRate} | ${ms(r.botMs)} | ${ms(r.postgresMs)} | ${ms(r.totalMs)} | ${ms(r.floorMs)} | ${times(r.ratio)} | ${r.ackP50} / ${r.ackP99} ms | ${r.floorAckP50} / ${r.floorAckP99} ms | ${times(r.p99Ratio)} | ${r.discordCalls} (${r.floorDiscordCalls}) | ${r.failed} (${r.late}) | ${r.refused} | ${Math.round(r.otherShare * 100)} % |`,
    );
  }
  return lines;
}

function printRatios(report: RatioReport) {
  say("");
  say(
    `=== cost per interaction at ${report.rate}/s (each class alone, ${report.durationS} s window${report.runs > 1 ? `, medians of ${report.runs} rounds` : ""}; the floor: ${report.floor.achievedRate}/s, ${report.floor.cpuMs} ms CPU, ack p50 ${report.floor.ackP50} / p99 ${report.floor.ackP99} ms) ===`,
  );
  for (const line of ratioTable(report)) say(line);
  for (const d of report.derived)
    say(
      `${d.command}, estimated from ${d.how}: bot ${d.botMs} ms + PostgreSQL ${d.postgresMs} ms = ${d.totalMs} ms, ${d.ratio}× the floor`,
    );
  for (const [name, b] of Object.entries(report.broken))
    say(`scenario "${name}" could not go on ${b.count}×: ${b.last}`);
  for (const r of report.rows) {
    if (!r.sql) continue;
    say(`\nSQL per interaction, ${r.command} (${r.sql.perInteraction} statements per interaction):`);
    for (const st of r.sql.statements.slice(0, 20))
      say(`${st.perInteraction.toFixed(2).padStart(7)}  ${st.text.slice(0, 200)}`);
  }
  say("");
  say(
    `=== cost per interaction goals (reported; a miss fails the run only with --strict-ratios${settings.strictRatios ? ", which is on" : ""}) ===`,
  );
  for (const g of report.goals) say(`${g.pass ? "MET  " : "MISS "} ${g.target}: ${g.value}`);
  const missed = report.goals.filter((g) => !g.pass).length;
  say(
    missed === 0 ? "every cost-per-interaction goal met" : `${missed} of ${report.goals.length} goals missed`,
  );
}

main().catch((error) => {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
