import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkBackupFile } from "../../src/store/backup.js";
import { type E2E, startE2E } from "./harness.js";

/** `npm run <script> -- args` with the bot's DATABASE_URL, as a cron job or a GM runs it. */
function npmRun(
  script: string,
  args: string[],
  databaseUrl: string,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script, "--", ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", DATABASE_URL: databaseUrl },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("exit", (code) => resolve({ code, stderr }));
  });
}

describe("e2e: backing up a running bot (two shard processes) and restoring with it stopped", () => {
  let e2e: E2E;
  let dir: string;
  let gm: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "storybot-backup-e2e-"));
    e2e = await startE2E({ shardCount: 2, processes: [[0], [1]] });
    gm = e2e.double.addUser({ username: "gm", locale: "en-US" });
  });
  afterAll(async () => {
    await e2e?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("backs up while it runs, refuses a restore while any process runs, and restores once it is stopped", async () => {
    await e2e.slash(gm, "table", ["setup"], { system: "fate" }).settled();
    await e2e.slash(gm, "character", ["create"], { name: "Wren" }).settled();
    const file = path.join(dir, "live.backup.gz");
    const backup = await npmRun("backup", [file], e2e.database.url);
    expect(backup.stderr).toContain(`Backup written to ${file}`);
    expect(backup.code).toBe(0);
    expect((await checkBackupFile(file)).header.tables.find((t) => t.name === "character")?.rows).toBe(1);

    // A character made after the backup: the restore takes the database back to before it.
    await e2e.slash(gm, "character", ["create"], { name: "Later" }).settled();
    const refused = await npmRun("restore", [file, "--force"], e2e.database.url);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      "The bot is running on this database (2 processes): stop it, then restore. Nothing was changed.",
    );
    expect((await e2e.database.query("SELECT name FROM character ORDER BY name")).map((r) => r.name)).toEqual(
      ["Later", "Wren"],
    );

    await Promise.all(e2e.bots.map((bot) => bot.stop()));
    const restored = await npmRun("restore", [file, "--force"], e2e.database.url);
    expect(restored.stderr).toContain("replacing the data that was there");
    expect(restored.code).toBe(0);
    await Promise.all(e2e.bots.map((_, i) => e2e.restartProcess(i)));
    const shown = await e2e.slash(gm, "character", ["list"]).settled();
    expect(shown.original?.text).toContain("Wren");
    expect(shown.original?.text).not.toContain("Later");
  });
});
