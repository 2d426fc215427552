import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";

export type LogLine = Record<string, unknown>;

/**
 * A bot process (`node dist/src/main.js` as production runs it, or `node --import tsx <script.ts>`) whose pino JSON log is watched: start-up time to
 * the "ready" line, the /metrics port, each interaction's outcome, and its memory.
 */
/** Every process the benchmark started, so a failed run can still stop them all. */
const running = new Set<BenchProcess>();

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.kill().catch(() => {})));
}

export class BenchProcess {
  private child: ChildProcess | null = null;
  private buffer = "";
  private readonly recent: string[] = [];
  private readonly watchers = new Set<(line: LogLine) => void>();
  readonly outcomes = new Map<string, string>();
  /** Every log line except the per-interaction ones. */
  readonly events: LogLine[] = [];
  metricsPort: number | null = null;
  readyLine: LogLine | null = null;

  constructor(
    readonly name: string,
    private readonly script: string,
    private readonly env: Record<string, string>,
    private readonly nodeArgs: string[] = [],
  ) {}

  get pid(): number {
    if (!this.child?.pid) throw new Error(`${this.name} is not running`);
    return this.child.pid;
  }

  /** Spawns the process and resolves when it logs "ready"; returns wall-clock ms from spawn to ready. */
  async start(timeoutMs = 60_000): Promise<number> {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [
        // TypeScript runs through tsx; the built bot (dist/*.js) on bare node, as in production.
        ...(this.nodeArgs.includes("tsx") || this.script.endsWith(".js")
          ? this.nodeArgs
          : [...this.nodeArgs, "--import", "tsx"]),
        this.script,
      ],
      {
        env: { ...process.env, ...this.env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    this.child = child;
    running.add(this);
    child.once("exit", () => running.delete(this));
    child.stdout?.on("data", (chunk: Buffer) => this.collect(chunk));
    child.stderr?.on("data", (chunk: Buffer) => this.collect(chunk));
    await this.waitForLog((l) => l.msg === "ready", timeoutMs);
    return performance.now() - started;
  }

  private collect(chunk: Buffer): void {
    this.buffer += chunk.toString("utf8");
    let newline = this.buffer.indexOf("\n");
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      newline = this.buffer.indexOf("\n");
      if (!line) continue;
      this.recent.push(line);
      if (this.recent.length > 300) this.recent.shift();
      let parsed: LogLine;
      try {
        parsed = JSON.parse(line) as LogLine;
      } catch {
        parsed = { msg: line };
      }
      if (parsed.msg === "interaction" && typeof parsed.interactionId === "string") {
        this.outcomes.set(parsed.interactionId, String(parsed.outcome));
      } else if (parsed.msg === "health endpoints listening" && typeof parsed.port === "number") {
        this.metricsPort = parsed.port;
      } else if (parsed.msg === "ready") {
        this.readyLine = parsed;
      }
      if (parsed.msg !== "interaction") this.events.push(parsed);
      for (const w of this.watchers) w(parsed);
    }
  }

  /** Resolves with the first line (already seen or to come) that matches. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs = 10_000): Promise<LogLine> {
    const seen = this.events.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const finish = (error: Error | null, line?: LogLine) => {
        clearTimeout(timer);
        this.watchers.delete(watcher);
        this.child?.off("exit", onExit);
        if (error) reject(error);
        else resolve(line as LogLine);
      };
      const watcher = (line: LogLine) => {
        if (match(line)) finish(null, line);
      };
      const onExit = (code: number | null) =>
        finish(new Error(`${this.name} exited with ${code}:\n${this.tail()}`));
      const timer = setTimeout(
        () => finish(new Error(`${this.name}: log line not seen in ${timeoutMs} ms:\n${this.tail()}`)),
        timeoutMs,
      );
      this.watchers.add(watcher);
      this.child?.once("exit", onExit);
    });
  }

  tail(lines = 30): string {
    return this.recent.slice(-lines).join("\n");
  }

  /** The DevTools websocket of a process started with `--inspect=127.0.0.1:0`. */
  inspectorUrl(): string {
    const line = this.events.find((l) => /Debugger listening on ws:/.test(String(l.msg)));
    const url = /(ws:\/\/\S+)/.exec(String(line?.msg ?? ""))?.[1];
    if (!url) throw new Error(`${this.name} has no inspector (start it with --inspect)`);
    return url;
  }

  /** Resident set size from /proc (bytes). */
  rss(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : Number.NaN;
  }

  /** Samples from the bot's Prometheus endpoint (null when it has none). */
  async metrics(): Promise<Record<string, number> | null> {
    if (this.metricsPort === null) return null;
    const text = await fetch(`http://127.0.0.1:${this.metricsPort}/metrics`).then((r) => r.text());
    const values: Record<string, number> = {};
    for (const line of text.split("\n")) {
      if (!line || line.startsWith("#")) continue;
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?)\s+(\S+)$/.exec(line);
      if (match) values[match[1] as string] = Number(match[2]);
    }
    return values;
  }

  async stop(): Promise<void> {
    await this.signal("SIGTERM");
  }

  async kill(): Promise<void> {
    await this.signal("SIGKILL");
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  }
}
