import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import pg from "pg";
import { DiscordDouble, type MessageView } from "../../src/double/index.js";
import { LOG_FLUSH_MS } from "../../src/log.js";
import { createDb } from "../../src/store/db.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

/**
 * The real bot process (src/main.ts, what `npm start` runs once built) against the Discord double and a
 * real PostgreSQL database. Its stdout (pino JSON lines) is kept for assertions and debugging.
 */
export class BotProcess {
  private child: ChildProcess | null = null;
  readonly output: string[] = [];
  /** How many pieces its standard output arrived in (each at least one write by the bot). */
  stdoutChunks = 0;

  /**
   * `built`: run the bot as `npm start` runs it after its build (dist/src/main.js) instead of the
   * sources through tsx; `supervised`: with npm start's supervisor around it, which restarts it
   * (then this object is the supervisor's process; the bot's pid is in its logs);
   * `cwd`: the directory it runs in (e.g. a copy laid out like the Docker image).
   */
  constructor(
    private readonly env: Record<string, string>,
    private readonly options: {
      built?: boolean;
      supervised?: boolean;
      /** The sources through tsx under the supervisor (src/supervisor.ts), as npm start runs the built ones. */
      supervisedSources?: boolean;
      cwd?: string;
      /** Run as this system user (the test runner must be root to give another user). */
      user?: { uid: number; gid: number };
    } = {},
  ) {}

  async start(): Promise<void> {
    this.launch();
    await this.waitForLog((l) => l.msg === "ready", 30_000);
  }

  /** Starts the process without waiting for it to be ready (e.g. while its database is not there yet). */
  launch(): void {
    // Built: `npm start`'s own command line (node, the supervisor, the bot's flags, dist/src/main.js).
    const start = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts
      .start;
    const args = this.options.supervised
      ? start.split(" ").slice(1)
      : this.options.supervisedSources
        ? ["--import", "tsx", "src/supervisor.ts", "--import", "tsx", "src/main.ts"]
        : this.options.built
          ? start.split(" ").slice(2)
          : ["--import", "tsx", "src/main.ts"];
    const child = spawn(process.execPath, args, {
      cwd: this.options.cwd,
      ...this.options.user,
      // Any free port for the campaign page unless a test names one: bots run side by side.
      env: { ...process.env, WEB_PORT: "0", ...this.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) this.output.push(line);
    };
    child.stdout?.on("data", (chunk: Buffer) => {
      this.stdoutChunks++;
      collect(chunk);
    });
    child.stderr?.on("data", collect);
  }

  /** Parsed log lines (pino JSON); non-JSON lines come back as `{ msg: line }`. */
  logs(): Array<Record<string, unknown>> {
    return this.output.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return { msg: line };
      }
    });
  }

  /**
   * The output once what the bot has logged so far is written: a running bot writes its lines in
   * batches, at most LOG_FLUSH_MS late. For checks that a line is *not* there, or that every line
   * of a run is (presence alone: `waitForLog`).
   */
  async writtenOutput(): Promise<readonly string[]> {
    if (this.alive()) await new Promise((r) => setTimeout(r, 2 * LOG_FLUSH_MS + 200));
    return this.output;
  }

  /** `logs()` once what the bot has logged so far is written (see `writtenOutput`). */
  async writtenLogs(): Promise<Array<Record<string, unknown>>> {
    await this.writtenOutput();
    return this.logs();
  }

  async waitForLog(match: (line: Record<string, unknown>) => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.logs().some(match)) return;
      if (this.child?.exitCode !== null && this.child?.exitCode !== undefined) {
        throw new Error(`bot exited with ${this.child.exitCode}:\n${this.output.slice(-30).join("\n")}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`bot log line not seen in ${timeoutMs} ms:\n${this.output.slice(-30).join("\n")}`);
  }

  /** The port of the bot's health/metrics HTTP server (from its "health endpoints listening" log line). */
  httpPort(): number {
    const line = this.logs().findLast((l) => l.msg === "health endpoints listening");
    if (typeof line?.port !== "number") throw new Error("the bot has not logged its HTTP port yet");
    return line.port;
  }

  /** Is the process still running (not exited, not killed)? */
  alive(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the exit code once the process has exited by itself (within `timeoutMs`). */
  async exited(timeoutMs = 30_000): Promise<number | null> {
    const child = this.child;
    if (!child) throw new Error("the bot was never started");
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`bot still running after ${timeoutMs} ms:\n${this.output.slice(-30).join("\n")}`)),
        timeoutMs,
      );
      child.once("exit", (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  /** Graceful stop (SIGTERM), as a deployment would. */
  async stop(): Promise<number | null> {
    return this.signal("SIGTERM");
  }

  /** A crash: SIGKILL, no cleanup at all. */
  async kill(): Promise<number | null> {
    return this.signal("SIGKILL");
  }

  private async signal(signal: NodeJS.Signals): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill(signal);
    return exited;
  }
}

export interface E2E {
  double: DiscordDouble;
  database: TestDatabase;
  /** The (first) bot process: the one serving shard 0 when there are several. */
  bot: BotProcess;
  /** Every bot process, in the order of `options.processes` (just `[bot]` by default). */
  bots: BotProcess[];
  guildId: string;
  channelId: string;
  /** Starts a new bot process (after `bot.stop()` or `bot.kill()`). */
  restart(mode?: "graceful" | "kill"): Promise<void>;
  /** Stops (or kills) bot process `index` and starts it again; resolves when every shard is back. */
  restartProcess(index: number, mode?: "graceful" | "kill"): Promise<void>;
  /** Stops bot process `index` and launches a new one without waiting for it to be ready. */
  relaunchProcess(index: number, mode?: "graceful" | "kill"): Promise<BotProcess>;
  stop(): Promise<void>;
  /** A slash command by `user` in the table's channel (or in `channelId`). */
  slash(
    user: string,
    command: string,
    path?: string[],
    options?: SlashOptions,
    channelId?: string,
  ): ReturnType<DiscordDouble["slash"]>;
  /** Waits (5 s at most) until message `id` shows `expected` (a later edit, a redrawn panel); gives it. */
  eventually(id: string, expected: string | RegExp): Promise<MessageView>;
  /** Waits (5 s at most) for a public message in a channel (the table's by default) that shows `expected`. */
  posted(expected: string | RegExp, channelId?: string): Promise<MessageView>;
  /** Waits (5 s at most) for a DM to `user` that shows `expected`. */
  dmWith(user: string, expected: string | RegExp): Promise<MessageView>;
}

export type SlashOptions = Parameters<DiscordDouble["slash"]>[4];

const shows = (m: MessageView, expected: string | RegExp) =>
  typeof expected === "string" ? m.text.includes(expected) : expected.test(m.text);

/**
 * A database the test started itself (e.g. a separate PostgreSQL it will stop and start again):
 * `drop()` only closes this side's connections and leaves the database alone.
 */
function externalDatabase(url: string): TestDatabase {
  const db = createDb(url);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // The test may stop that server: idle connections then fail, which must not crash the test process.
  pool.on("error", () => {});
  return {
    url,
    db,
    query: async (sql, params) => (await pool.query(sql, params as unknown[])).rows,
    async drop() {
      await db.$disconnect().catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}

export interface StartE2EOptions {
  shardCount?: number;
  /** Use this PostgreSQL database (e.g. a separate cluster the test stops) instead of a fresh one in the shared cluster. */
  databaseUrl?: string;
  /** Extra environment for the bot process (e.g. LOG_LEVEL). */
  env?: Record<string, string>;
  /**
   * Several bot processes forming one bot on one database: the shard ids each serves (its SHARD_IDS;
   * SHARD_COUNT is `shardCount`), e.g. `[[0], [1]]` with `shardCount: 2`.
   */
  processes?: number[][];
  /** How the bot process runs (e.g. `{ supervisedSources: true }`: under the supervisor, as npm start runs it). */
  botOptions?: ConstructorParameters<typeof BotProcess>[1];
}

export async function startE2E(options: StartE2EOptions = {}): Promise<E2E> {
  const double = new DiscordDouble({ shardCount: options.shardCount ?? 1 });
  const { apiBase, token } = await double.start();
  const database = options.databaseUrl
    ? externalDatabase(options.databaseUrl)
    : await createTestDatabase({ migrated: false });
  const env = {
    DISCORD_TOKEN: token,
    DISCORD_API_BASE: apiBase,
    DATABASE_URL: database.url,
    HTTP_PORT: "0",
    WEB_PORT: "0",
    LOG_LEVEL: "info",
    REGISTER_COMMANDS: "true",
    ...options.env,
  };
  const envs = options.processes
    ? options.processes.map((ids) => ({
        ...env,
        SHARD_COUNT: String(options.shardCount ?? 1),
        SHARD_IDS: ids.join(","),
      }))
    : [env];
  const guildId = double.addGuild({ name: "Story night" });
  const channelId = double.addChannel({ guildId, name: "table" });
  const bots = envs.map((e) => new BotProcess(e, options.botOptions));
  const e2e: E2E = {
    double,
    database,
    bot: bots[0]!,
    bots,
    guildId,
    channelId,
    async restart(mode = "graceful") {
      await e2e.restartProcess(0, mode);
    },
    async restartProcess(index, mode = "graceful") {
      const fresh = await e2e.relaunchProcess(index, mode);
      await fresh.waitForLog((l) => l.msg === "ready", 30_000);
      await double.waitForBot();
    },
    async relaunchProcess(index, mode = "graceful") {
      const old = e2e.bots[index];
      if (!old) throw new Error(`no bot process ${index}`);
      if (mode === "kill") await old.kill();
      else await old.stop();
      const fresh = new BotProcess(envs[index]!, options.botOptions);
      e2e.bots[index] = fresh;
      if (index === 0) e2e.bot = fresh;
      fresh.launch();
      return fresh;
    },
    async stop() {
      await Promise.all(e2e.bots.map((b) => b.stop()));
      await double.stop();
      await database.drop();
    },
    slash: (user, command, path = [], options = {}, channel = channelId) =>
      double.slash(user, channel, command, path, options),
    eventually: (id, expected) =>
      double.waitFor(() => (shows(double.message(id), expected) ? double.message(id) : null), {
        timeoutMs: 5000,
        what: () => `message ${id} to show ${expected}: ${double.message(id).text}`,
      }),
    posted: (expected, channel = channelId) =>
      double.waitFor(
        () => double.channelMessages(channel).find((m) => m.visibleTo === null && shows(m, expected)) ?? null,
        {
          timeoutMs: 5000,
          what: () => `a public message in channel ${channel} showing ${expected}`,
        },
      ),
    dmWith: (user, expected) =>
      double.waitFor(() => double.dmsOf(user).find((m) => shows(m, expected)) ?? null, {
        timeoutMs: 5000,
        what: () => `a DM to ${user} showing ${expected}`,
      }),
  };
  // The process serving shard 0 registers the commands; the others may start alongside.
  await Promise.all(e2e.bots.map((b) => b.start()));
  await double.waitForBot();
  return e2e;
}

/** The text of the last embed-bearing message a user saw in answer to an interaction. */
export function shown(view: MessageView | null | undefined): string {
  return view?.text ?? "";
}

/** Every custom_id of every button on a message. */
export function buttonIds(view: MessageView | null | undefined): string[] {
  const ids: string[] = [];
  for (const row of (view?.components ?? []) as Array<{ components?: Array<{ custom_id?: string }> }>) {
    for (const c of row.components ?? []) if (c.custom_id) ids.push(c.custom_id);
  }
  return ids;
}
