import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "./ops.js";

/**
 * What `npm start` runs around the bot (src/supervisor.ts), with a stand-in bot whose behaviour
 * each test chooses: it starts the bot again after any exit it did not ask for, with a growing
 * delay; it does not retry a setting to fix (exit code 2); SIGTERM goes to the bot and the
 * supervisor exits with it.
 */
describe("e2e reliability: the supervisor npm start runs", () => {
  let dir: string;
  let script: string;
  let supervisor: ChildProcess | null = null;
  let lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "storybot-supervisor-"));
    script = path.join(dir, "bot.mjs");
    // BOT_MODE: "crash" exits 1 at once, "setting" exits 2, anything else serves until SIGTERM (exit 0).
    await writeFile(
      script,
      `const mode = process.env.BOT_MODE;
console.log(JSON.stringify({ msg: "stand-in started", pid: process.pid }));
if (mode === "crash") setTimeout(() => process.exit(1), 50);
else if (mode === "setting") process.exit(2);
else {
  setInterval(() => {}, 1000);
  process.on("SIGTERM", () => { console.log(JSON.stringify({ msg: "stand-in stopping" })); process.exit(0); });
}
`,
    );
  });
  afterEach(() => {
    if (supervisor && supervisor.exitCode === null && supervisor.signalCode === null)
      supervisor.kill("SIGKILL");
    supervisor = null;
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  function run(mode: string): Promise<number | null> {
    // This run's own lines: output an earlier, killed supervisor still flushes goes to its own array.
    const ownLines: Array<Record<string, unknown>> = [];
    lines = ownLines;
    const child = spawn(process.execPath, ["--import", "tsx", "src/supervisor.ts", script], {
      env: { ...process.env, BOT_MODE: mode },
      stdio: ["ignore", "pipe", "pipe"],
    });
    supervisor = child;
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (!line.trim()) continue;
        try {
          ownLines.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          ownLines.push({ msg: line });
        }
      }
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }
  const starts = () => lines.filter((l) => l.msg === "stand-in started");

  it("starts a bot that keeps crashing again after 1 s, then 2 s, and keeps going", async () => {
    void run("crash");
    await waitUntil(() => starts().length >= 3, 15_000, "three starts");
    const restarts = lines.filter((l) => l.msg === "bot process exited; starting it again");
    expect(restarts.slice(0, 2).map((l) => l.restartInMs)).toEqual([1000, 2000]);
    expect(restarts[0]?.code).toBe(1);
    const at = lines.filter((l) => l.msg === "bot process started").map((l) => l.time as number);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(1000);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(2000);
    expect(supervisor?.exitCode).toBeNull();
  });

  it("starts it again after kill -9, and stops with it on SIGTERM (exit 0, no restart)", async () => {
    const exited = run("serve");
    await waitUntil(() => starts().length === 1, 10_000, "the stand-in to start");
    process.kill(starts()[0]!.pid as number, "SIGKILL");
    await waitUntil(() => starts().length === 2, 10_000, "the supervisor to start it again");
    expect(lines.find((l) => l.msg === "bot process exited; starting it again")?.signal).toBe("SIGKILL");
    supervisor!.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(lines.some((l) => l.msg === "stand-in stopping")).toBe(true);
    expect(starts()).toHaveLength(2);
  });

  it("does not retry a setting to fix: exit code 2 ends the supervisor with code 2", async () => {
    expect(await run("setting")).toBe(2);
    expect(starts()).toHaveLength(1);
  });
});
