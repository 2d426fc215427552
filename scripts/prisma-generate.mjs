// `prisma generate` only needs the WASM query compiler, but the CLI insists on a
// native schema-engine path and would try to download one (no network here).
// Pointing it at any existing file satisfies that check; generate never runs it.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

if (!existsSync("prisma/schema.prisma")) process.exit(0);
// A production install (`npm ci --omit=dev`) has no Prisma CLI: the client was generated and
// compiled into dist/ by the build that preceded it.
if (!existsSync("node_modules/prisma/build/index.js")) process.exit(0);
const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = "1";
execFileSync(process.execPath, ["node_modules/prisma/build/index.js", "generate"], {
  stdio: "inherit",
  env,
});
