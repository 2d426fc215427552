import { statSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { EmbeddedPostgresAccessError, startEmbeddedPostgres } from "../../src/store/embedded-postgres.js";

const asRoot = process.getuid?.() === 0;

describe("embedded PostgreSQL and directories it did not create", () => {
  let grandparent: string | undefined;
  afterEach(async () => {
    if (grandparent) await rm(grandparent, { recursive: true, force: true });
  });

  // As root the server runs as `postgres`; a private directory on the way (like /root at 0700) is named, not opened.
  it.runIf(asRoot)(
    "refuses a data directory behind a 0700 directory, names it, and changes no mode",
    async () => {
      grandparent = await mkdtemp(path.join(tmpdir(), "storybot-private-"));
      await chmod(grandparent, 0o700);
      const parent = path.join(grandparent, "shared");
      await mkdir(parent);
      await chmod(parent, 0o1777);

      const error = await startEmbeddedPostgres({ dataDir: path.join(parent, "storybot", "postgres") }).catch(
        (e) => e,
      );
      expect(error).toBeInstanceOf(EmbeddedPostgresAccessError);
      expect(error.blockedDirectory).toBe(grandparent);
      expect(error.message).toContain(grandparent);
      expect(error.message).toContain("DATA_DIR");
      expect(error.message).toContain("DATABASE_URL");
      expect(statSync(grandparent).mode & 0o7777).toBe(0o700);
      expect(statSync(parent).mode & 0o7777).toBe(0o1777);
    },
  );

  it("never changes the mode of the system temporary directory", async () => {
    const before = statSync(tmpdir()).mode & 0o7777;
    grandparent = await mkdtemp(path.join(tmpdir(), "storybot-tmpmode-"));
    await chmod(grandparent, 0o711);
    const db = await startEmbeddedPostgres({ dataDir: path.join(grandparent, "a", "b", "postgres") });
    await db.stop();
    expect(statSync(tmpdir()).mode & 0o7777).toBe(before);
    // The levels the bot created itself are opened just enough for the server's user to pass.
    if (asRoot) expect(statSync(path.join(grandparent, "a")).mode & 0o7777).toBe(0o711);
  });
});

describe("embedded PostgreSQL's connection", () => {
  let root: string | undefined;
  afterEach(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  const clientPortOf = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ port: number | null }>(
        "SELECT client_port AS port FROM pg_stat_activity WHERE pid = pg_backend_pid()",
      );
      return rows[0]?.port;
    } finally {
      await client.end();
    }
  };

  it("goes over a Unix socket in the data directory, and over 127.0.0.1 when that path is too long for a socket", async () => {
    root = await mkdtemp(path.join(tmpdir(), "storybot-socket-"));
    await chmod(root, 0o711);
    const short = await startEmbeddedPostgres({ dataDir: path.join(root, "pg") });
    try {
      expect(new URL(short.url).searchParams.get("host")).toBe(short.dataDir);
      expect(await clientPortOf(short.url)).toBe(-1); // PostgreSQL's mark of a Unix-socket client
    } finally {
      await short.stop();
    }
    const long = await startEmbeddedPostgres({ dataDir: path.join(root, "d".repeat(110)) });
    try {
      expect(new URL(long.url).searchParams.has("host")).toBe(false);
      expect(await clientPortOf(long.url)).toBeGreaterThan(0);
    } finally {
      await long.stop();
    }
  });
});
