import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

/** No Docker engine runs here, so check what can be checked: structure and consistency. */
describe("deployment files", () => {
  const compose = parse(readFileSync("docker-compose.yml", "utf8")) as {
    services: Record<string, Record<string, unknown>>;
    volumes: Record<string, unknown>;
  };

  it("run PostgreSQL with a volume and a health check, and the bot after it is healthy", () => {
    const pg = compose.services.postgres!;
    expect(String(pg.image)).toMatch(/^postgres:\d+/);
    expect((pg.healthcheck as { test: string[] }).test.join(" ")).toContain("pg_isready");
    const volume = (pg.volumes as string[])[0]!.split(":")[0]!;
    expect(compose.volumes).toHaveProperty(volume);
    const bot = compose.services.bot!;
    expect(bot.build).toBe(".");
    expect(bot.env_file).toBe(".env");
    expect(bot.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    const env = bot.environment as Record<string, string>;
    const pgEnv = pg.environment as Record<string, string>;
    // The health endpoints listen on every interface inside the container; the host publishes them on its loopback.
    expect(env.HTTP_HOST).toBe("0.0.0.0");
    expect(env.WEB_HOST).toBe("0.0.0.0");
    expect(bot.ports).toEqual([
      `127.0.0.1:${env.HTTP_PORT}:${env.HTTP_PORT}`,
      `127.0.0.1:${env.WEB_PORT}:${env.WEB_PORT}`,
    ]);
    expect(env.DATABASE_URL).toBe(
      `postgresql://${pgEnv.POSTGRES_USER}:${pgEnv.POSTGRES_PASSWORD}@postgres:5432/${pgEnv.POSTGRES_DB}`,
    );
  });

  it("document every setting the config reads in .env.example", () => {
    const example = readFileSync(".env.example", "utf8");
    const config = readFileSync("src/config.ts", "utf8");
    const keys = [...config.matchAll(/^\s{2}([A-Z][A-Z_]+):/gm)].map((m) => m[1]!);
    expect(keys.length).toBeGreaterThan(8);
    for (const key of keys) expect(example, key).toMatch(new RegExp(`^#? ?${key}=`, "m"));
  });

  it("build the image from what the bot needs, build the JavaScript, and start it on bare node", () => {
    const dockerfile = readFileSync("Dockerfile", "utf8");
    for (const path of ["package-lock.json", "prisma", "src", "commands", "scripts"])
      expect(dockerfile).toContain(path);
    expect(dockerfile).toMatch(/npm ci/);
    expect(dockerfile).toMatch(/RUN npm run build/);
    // What the image runs is what `npm start` runs after its build.
    const scripts = JSON.parse(readFileSync("package.json", "utf8")).scripts;
    expect(scripts.prestart).toBe("npm run build");
    // The bot under its supervisor, which starts it again whenever it exits unasked.
    expect(scripts.start).toMatch(/^node dist\/src\/supervisor\.js .*dist\/src\/main\.js$/);
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(JSON.parse(cmd ?? "[]")).toEqual(scripts.start.split(" "));
    expect(dockerfile).toContain("/healthz");
  });

  it("ship a systemd unit that runs the bot as an ordinary user and always restarts it", () => {
    const unit = readFileSync("deploy/storybot.service", "utf8");
    const setting = (key: string) => new RegExp(`^${key}=(.*)$`, "m").exec(unit)?.[1];
    expect(setting("User")).toMatch(/^\w+$/);
    expect(setting("User")).not.toBe("root");
    expect(setting("Restart")).toBe("always");
    expect(setting("ExecStart")).toMatch(/node .*dist\/src\/main\.js$/);
    const compose = parse(readFileSync("docker-compose.yml", "utf8")) as {
      services: Record<string, { restart?: string }>;
    };
    expect(["always", "unless-stopped"]).toContain(compose.services.bot!.restart);
  });
});

describe("the systemd recipe", () => {
  const readme = readFileSync("README.md", "utf8");
  const section = readme.slice(readme.indexOf("### Running under systemd"), readme.indexOf("### Docker"));
  const recipe = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  const unit = readFileSync("deploy/storybot.service", "utf8");

  it("clones into the service user's home only when useradd has not created it (git refuses a directory that is not empty)", () => {
    const useradd = recipe.split("\n").find((line) => line.startsWith("useradd"));
    expect(useradd).toContain("--home-dir /opt/storybot");
    expect(useradd).not.toMatch(/--create-home|\s-m\b/);
    expect(recipe).toMatch(/git clone .* \/opt\/storybot/);
  });

  it("makes the one directory the unit opens for writing, as the service user", () => {
    const writable = /^ReadWritePaths=(.*)$/m.exec(unit)?.[1];
    expect(writable).toBe("/opt/storybot/data");
    expect(recipe).toMatch(/sudo -u storybot -H sh -c '[^']*mkdir -p data/);
    expect(/^WorkingDirectory=(.*)$/m.exec(unit)?.[1]).toBe("/opt/storybot");
  });

  it("is rated 4.0 or lower by systemd-analyze security", () => {
    const analyze = spawnSync("systemd-analyze", ["security", "--offline=yes", "deploy/storybot.service"], {
      encoding: "utf8",
    });
    if (analyze.error) {
      // No systemd tools on this machine: the unit's hardening settings are checked one by one instead.
      for (const key of ["ProtectHome", "PrivateDevices", "RestrictAddressFamilies", "SystemCallFilter"]) {
        expect(unit).toMatch(new RegExp(`^${key}=`, "m"));
      }
      return;
    }
    const score = Number(/Overall exposure level for storybot\.service: ([\d.]+)/.exec(analyze.stdout)?.[1]);
    expect(score).toBeLessThanOrEqual(4.0);
  });
});
