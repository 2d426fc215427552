import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkBackupFile } from "../../src/store/backup.js";
import { holdBotPresence } from "../../src/store/bot-presence.js";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "../../src/store/embedded-postgres.js";
import { migrate } from "../../src/store/migrate.js";

const CHECKOUT = path.resolve(import.meta.dirname, "../..");

/** `npm run <script> -- args` as a GM types it, from `cwd`, with only the settings given (no DATABASE_URL). */
function npmRun(
  script: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["--prefix", CHECKOUT, "run", "--silent", script, "--", ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

async function rowsOf(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ r: string }>(
      "SELECT x::text AS r FROM game_table x UNION ALL SELECT y::text FROM log_entry y ORDER BY 1",
    );
    return rows.map((r) => r.r);
  } finally {
    await client.end();
  }
}

describe("npm run backup / npm run restore, with the embedded database and no PostgreSQL client", () => {
  let root: string;
  let server: EmbeddedDatabase | null = null;
  let played: string[];
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "storybot-backup-cli-"));
    await chmod(root, 0o711); // as root the server runs as `postgres`, which must pass through
    // The bot's embedded server as it runs: its port is chosen at this start.
    server = await startEmbeddedPostgres({ dataDir: path.join(root, "data", "postgres") });
    await migrate(server.url);
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query(
      `INSERT INTO game_table (guild_id, channel_id, active_channel_id, system, gm_user_id) VALUES ('1', '2', '2', 'fate', '3')`,
    );
    await client.query(
      `INSERT INTO log_entry (table_id, actor_user_id, action, summary) VALUES (1, '3', 'roll', '{"key": "x"}')`,
    );
    await client.end();
    played = await rowsOf(server.url);
  });
  afterAll(async () => {
    await server?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it("backs up the running embedded server found from its postmaster.pid, and restore refuses while the bot runs", async () => {
    const file = path.join(root, "running.backup.gz");
    const backup = await npmRun("backup", [file], { DATA_DIR: path.join(root, "data") }, root);
    expect(backup.stderr).toContain(`Backup written to ${file}: 2 rows in`);
    expect(backup.code).toBe(0);
    expect((await checkBackupFile(file)).rows).toBe(2);

    const presence = await holdBotPresence(server!.url);
    try {
      const refused = await npmRun("restore", [file, "--force"], { DATA_DIR: path.join(root, "data") }, root);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe(
        "The bot is running on this database (1 process): stop it, then restore. Nothing was changed.",
      );
    } finally {
      await presence.release();
    }
    expect(await rowsOf(server!.url)).toEqual(played);
  });

  it("on a new machine (bot stopped, no database yet) restores, and backs up with the bot stopped", async () => {
    const file = path.join(root, "running.backup.gz");
    const newData = path.join(root, "new-machine");
    const restored = await npmRun("restore", [file], { DATA_DIR: newData }, root);
    expect(restored.stderr).toContain("The bot is not running: starting its database");
    expect(restored.stderr).toMatch(/Restored .*running\.backup\.gz \(a backup of 20\d\d-.*Z\): 2 rows in/);
    expect(restored.code).toBe(0);

    // The default file name, in the directory the command was typed in.
    const before = new Set(await readdir(root));
    const again = await npmRun("backup", [], { DATA_DIR: newData }, root);
    expect(again.code).toBe(0);
    const made = (await readdir(root)).filter((name) => !before.has(name));
    expect(made).toEqual([expect.stringMatching(/^storybot-\d{8}T\d{6}Z\.backup\.gz$/)]);
    expect((await checkBackupFile(path.join(root, made[0]!))).rows).toBe(2);

    const check = await startEmbeddedPostgres({ dataDir: path.join(newData, "postgres") });
    try {
      expect(await rowsOf(check.url)).toEqual(played);
    } finally {
      await check.stop();
    }
  });

  it("says what is wrong, in one line, for a file that is not there and a setting that is malformed", async () => {
    const missing = await npmRun(
      "restore",
      [path.join(root, "nope.gz")],
      { DATA_DIR: path.join(root, "data") },
      root,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe(`There is no file ${path.join(root, "nope.gz")}.`);
    // A cut file is refused before any database is started: no DATA_DIR appears.
    const cut = path.join(root, "cut.backup.gz");
    await writeFile(cut, (await readFile(path.join(root, "running.backup.gz"))).subarray(0, 200));
    const untouched = path.join(root, "untouched");
    const refused = await npmRun("restore", [cut], { DATA_DIR: untouched }, root);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `${cut} is not a usable backup: it ends early (the file is truncated). Nothing was changed.`,
    );
    expect(existsSync(untouched)).toBe(false);
    const badKey = await npmRun(
      "backup",
      [],
      { DATA_DIR: path.join(root, "data"), TABLE_BACKUP_KEY: "xyz" },
      root,
    );
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toContain("TABLE_BACKUP_KEY: must be 64 hex digits");
  });
});
