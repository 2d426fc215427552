import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metricValue } from "./ops.js";

/**
 * The bot's last line of defence (src/process-errors.ts), in a process of its own with the bot's
 * logger and metrics: an error no code path handled is logged with the interaction it came from
 * and counted in /metrics; a rejection lets the process go on, an uncaught exception ends it with
 * code 1 for its supervisor to start a fresh one.
 */
describe("e2e reliability: errors no code path handled", () => {
  let dir: string;
  let script: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "storybot-process-errors-"));
    script = path.join(dir, "probe.ts");
    const src = path.resolve("src");
    await writeFile(
      script,
      `import { createLogger, interactionScope } from ${JSON.stringify(`${src}/log.ts`)};
import { createMetrics } from ${JSON.stringify(`${src}/metrics.ts`)};
import { handleProcessErrors } from ${JSON.stringify(`${src}/process-errors.ts`)};

const log = createLogger("info");
const metrics = createMetrics();
handleProcessErrors(log, metrics);
interactionScope.run({ interactionId: "1001" }, async () => {
  await new Promise((r) => setTimeout(r, 10));
  void Promise.reject(new Error("a rejection nobody awaited"));
});
setTimeout(async () => {
  console.log(JSON.stringify({ msg: "still running", metrics: await metrics.registry.metrics() }));
  if (process.env.THEN_THROW)
    interactionScope.run({ interactionId: "1002" }, () => setTimeout(() => { throw new Error("an exception nobody caught"); }, 10));
}, 200);
setTimeout(() => console.log(JSON.stringify({ msg: "outlived the exception" })), 2000).unref();
setTimeout(() => {}, 1000);
`,
    );
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const run = (env: Record<string, string> = {}) => {
    const result = spawnSync(process.execPath, ["--import", "tsx", script], {
      env: { ...process.env, ...env },
      encoding: "utf8",
      timeout: 20_000,
    });
    const lines = `${result.stdout}\n${result.stderr}`
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => {
        try {
          return JSON.parse(l) as Record<string, unknown>;
        } catch {
          return { msg: l };
        }
      });
    return { status: result.status, lines };
  };

  it("logs an unhandled rejection with its interaction id, counts it, and goes on", () => {
    const { status, lines } = run();
    expect(status).toBe(0);
    const logged = lines.find((l) => l.msg === "unhandled rejection");
    expect(logged?.interactionId).toBe("1001");
    expect(JSON.stringify(logged?.err)).toContain("a rejection nobody awaited");
    const alive = lines.find((l) => l.msg === "still running");
    expect(
      metricValue(String(alive?.metrics), "storybot_process_errors_total", { kind: "unhandledRejection" }),
    ).toBe(1);
  });

  it("logs an uncaught exception with its interaction id and exits with code 1 to be restarted", () => {
    const { status, lines } = run({ THEN_THROW: "1" });
    expect(status).toBe(1);
    const fatal = lines.find((l) => l.msg === "uncaught exception; exiting to be restarted");
    expect(fatal?.interactionId).toBe("1002");
    expect(JSON.stringify(fatal?.err)).toContain("an exception nobody caught");
    expect(lines.some((l) => l.msg === "outlived the exception")).toBe(false);
  });
});
