import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A clone must hold every file its docs and comments name: nothing may point outside the
 * repository (to a sibling folder or a build machine's paths), and every relative link and
 * every `docs/…` path must exist.
 */
const tracked = execFileSync("git", ["ls-files", "-z"], { encoding: "utf8" })
  .split("\0")
  .filter((file) => file && existsSync(file));
const textFiles = tracked.filter((file) =>
  /\.(ts|mts|mjs|js|json|md|prisma|ya?ml|sql|sh|toml|txt)$|(^|\/)(Dockerfile|LICENSE|\.env\.example|\.gitignore)$/.test(
    file,
  ),
);
const read = (file: string) => readFileSync(file, "utf8");

// Spelled in pieces so this file does not match itself.
const FORBIDDEN = [["..", "shared"].join("/"), ["RULES", "md"].join("."), ["", "work", ""].join("/")];

describe("the repository is self-contained", () => {
  it("names no file outside it", () => {
    const found: string[] = [];
    for (const file of textFiles) {
      if (file === "package-lock.json") continue;
      read(file)
        .split("\n")
        .forEach((line, index) => {
          for (const word of FORBIDDEN) if (line.includes(word)) found.push(`${file}:${index + 1}: ${word}`);
        });
    }
    expect(found).toEqual([]);
  });

  it("every relative markdown link points at a file that exists", () => {
    const broken: string[] = [];
    for (const file of textFiles.filter((f) => f.endsWith(".md"))) {
      for (const match of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!.split("#")[0]!;
        if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // a URL or an anchor in the same file
        if (!existsSync(path.join(path.dirname(file), target))) broken.push(`${file}: ${match[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("every docs/… path a file names exists", () => {
    const missing: string[] = [];
    for (const file of textFiles) {
      for (const match of read(file).matchAll(/(?<![\w./-])docs\/[\w./-]*\w/g)) {
        if (!existsSync(match[0])) missing.push(`${file}: ${match[0]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("the game rules and the maintainers' guide are there", () => {
    for (const doc of ["mountain-witch", "beast-hunters", "fate", "common"])
      expect(existsSync(`docs/rules/${doc}.md`), doc).toBe(true);
    expect(existsSync("docs/ARCHITECTURE.md")).toBe(true);
    expect(existsSync("LICENSE")).toBe(true);
  });
});
