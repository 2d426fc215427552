import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { databaseUrlNamed, startEmbeddedPostgres } from "../../src/store/embedded-postgres.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** URL of the cluster's `postgres` maintenance database; each test file makes its own database. */
    pgAdminUrl: string;
  }
}

/** One real PostgreSQL cluster for the whole test run; test files isolate themselves by database. */
export default async function setup(project: TestProject) {
  const root = await mkdtemp(path.join(tmpdir(), "storybot-test-pg-"));
  // Our own directory (mkdtemp makes it 0700): as root the server runs as `postgres` and must pass through it.
  await chmod(root, 0o711);
  const db = await startEmbeddedPostgres({ dataDir: path.join(root, "db") });
  project.provide("pgAdminUrl", databaseUrlNamed(db.url, "postgres"));
  return async () => {
    await db.stop();
    await rm(root, { recursive: true, force: true });
  };
}
