import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The production install (`npm ci --omit=dev`) carries what runs and nothing for building or testing:
 * every package the bot's code imports at run time is a dependency, every package a build script or
 * test imports is declared, and the tools (the Prisma CLI, TypeScript, the TypeScript loader, the
 * bundler) are development dependencies.
 */
const manifest = JSON.parse(readFileSync("package.json", "utf8")) as {
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
};
const runtime = { ...manifest.dependencies, ...manifest.optionalDependencies };
const declared = { ...runtime, ...manifest.devDependencies };

function files(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && pattern.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => !file.split(path.sep).includes("generated"));
}

/** The packages a file imports for its running code (type-only imports are erased by the build). */
function importedPackages(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm),
    ...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
  ].map((m) => m[1]!);
  return specifiers
    .filter((s) => !s.startsWith(".") && !s.startsWith("node:") && !builtinModules.includes(s))
    .map((s) => (s.startsWith("@") ? s.split("/").slice(0, 2).join("/") : s.split("/")[0]!));
}

describe("the production install", () => {
  it("every package the running bot imports is a dependency", () => {
    const missing = [...files("src", /\.ts$/), ...files("commands", /\.ts$/)].flatMap((file) =>
      importedPackages(file)
        .filter((pkg) => !(pkg in runtime))
        .map((pkg) => `${file}: ${pkg}`),
    );
    expect(missing).toEqual([]);
  });

  it("every package a script, test or benchmark imports is declared", () => {
    const missing = [
      ...files("scripts", /\.m?[jt]s$/),
      ...files("test", /\.ts$/),
      ...files("bench", /\.ts$/),
    ].flatMap((file) =>
      importedPackages(file)
        .filter((pkg) => !(pkg in declared))
        .map((pkg) => `${file}: ${pkg}`),
    );
    expect(missing).toEqual([]);
  });

  it("the tools for building and testing are development dependencies only", () => {
    for (const tool of ["prisma", "typescript", "tsx", "esbuild", "vitest", "@biomejs/biome"]) {
      expect(manifest.dependencies, tool).not.toHaveProperty(tool);
      expect(manifest.devDependencies, tool).toHaveProperty(tool);
    }
  });

  it("the Prisma packages are of one version", () => {
    const versions = new Set(
      [declared.prisma, declared["@prisma/client"], declared["@prisma/adapter-pg"]].map((v) =>
        v?.replace(/^\^|~/, ""),
      ),
    );
    expect([...versions]).toHaveLength(1);
  });
});
