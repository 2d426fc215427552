import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { startHttpServer } from "../../src/http.js";
import { createLogger } from "../../src/log.js";
import { createMetrics } from "../../src/metrics.js";

/** A port held by another program, as a GM's machine might have. */
async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address !== "object") throw new Error("no address");
  return { port: address.port, server };
}

/** Runs the bot's entry point as `npm run dev` does and collects what it says and how it ends. */
function runBot(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      env: { PATH: process.env.PATH ?? "", WEB_PORT: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

describe("hosting settings", () => {
  it("a busy HTTP_PORT stops the bot with one line naming the setting, no stack, exit code 2", async () => {
    const { port, server } = await occupiedPort();
    try {
      const result = await runBot({
        DISCORD_TOKEN: "not-a-real-token",
        // Nowhere: the port check comes before the database and Discord are reached.
        DATABASE_URL: "postgresql://nobody:nothing@127.0.0.1:1/none",
        DISCORD_API_BASE: "http://127.0.0.1:1/api",
        HTTP_HOST: "127.0.0.1",
        HTTP_PORT: String(port),
      });
      expect(result.code).toBe(2);
      const said = result.stderr.trim();
      expect(said.split("\n")).toHaveLength(1);
      expect(said).toContain(`HTTP_PORT ${port} is already in use`);
      expect(said).not.toMatch(/\bat .*\.(ts|js):\d+/);
      expect(said).not.toContain("Fatal");
    } finally {
      server.close();
    }
  });

  it("the health endpoints listen on this machine only unless HTTP_HOST says otherwise", async () => {
    const config = loadConfig({ DISCORD_TOKEN: "x" });
    expect(config.HTTP_HOST).toBe("127.0.0.1");
    expect(loadConfig({ DISCORD_TOKEN: "x", HTTP_HOST: "0.0.0.0" }).HTTP_HOST).toBe("0.0.0.0");
    const http = await startHttpServer({
      host: config.HTTP_HOST,
      port: 0,
      metrics: createMetrics(),
      readiness: async () => ({ gateway: true, database: true }),
    });
    try {
      expect(http.server.address()).toMatchObject({ address: "127.0.0.1" });
      const response = await fetch(`http://127.0.0.1:${http.port}/healthz`);
      expect(response.status).toBe(200);
    } finally {
      http.server.close();
    }
  });

  it("an HTTP_HOST that is not this machine's address is named as the setting to change", async () => {
    const start = startHttpServer({
      host: "192.0.2.1", // TEST-NET-1: never an address of this machine
      port: 0,
      metrics: createMetrics(),
      readiness: async () => ({ gateway: true, database: true }),
    });
    await expect(start).rejects.toThrow(/HTTP_HOST 192\.0\.2\.1 is not an address of this machine/);
  });

  it("logs JSON lines by default and human-readable lines with LOG_FORMAT=pretty", () => {
    expect(loadConfig({ DISCORD_TOKEN: "x" }).LOG_FORMAT).toBe("json");
    expect(() => loadConfig({ DISCORD_TOKEN: "x", LOG_FORMAT: "fancy" })).toThrow(/LOG_FORMAT/);
    const capture = () => {
      const lines: string[] = [];
      const stream = new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      });
      return { lines, stream };
    };
    const json = capture();
    createLogger("info", json.stream).info({ shardId: 3 }, "gateway resumed");
    expect(JSON.parse(json.lines.join(""))).toMatchObject({ msg: "gateway resumed", shardId: 3 });

    const pretty = capture();
    createLogger("info", pretty.stream, "pretty").info(
      { shardId: 3, token: "secret-token" },
      "gateway resumed",
    );
    const text = pretty.lines.join("");
    expect(() => JSON.parse(text)).toThrow();
    expect(text).toMatch(/INFO.*gateway resumed/);
    expect(text).toContain("shardId: 3");
    // Redaction holds in either format.
    expect(text).not.toContain("secret-token");
  });
});
