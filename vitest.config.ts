import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // e2e suites each start their own PostgreSQL and bot process; two cores.
    maxWorkers: 2,
    globalSetup: ["test/support/global-postgres.ts"],
  },
});
