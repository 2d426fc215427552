import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commands } from "../../commands/index.js";
import type { CommandSpec, OptionSpec } from "../../commands/spec.js";
import { catalogues } from "../../src/i18n/index.js";

const ROOT = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "locales" || entry.name === "generated" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every `cmd.*` key a command spec reads: descriptions, Russian names and choice labels by path. */
function specKeys(spec: CommandSpec): string[] {
  const keys: string[] = [];
  const node = (p: string) => keys.push(`cmd.${p}.desc`, `cmd.${p}.name`);
  const options = (list: readonly OptionSpec[] | undefined, p: string) => {
    for (const o of list ?? []) {
      node(`${p}.${o.name}`);
      if ("choices" in o) for (const c of o.choices ?? []) keys.push(`cmd.${p}.${o.name}.choice.${c}`);
    }
  };
  node(spec.name);
  options(spec.options, spec.name);
  for (const sub of spec.subcommands ?? []) {
    node(`${spec.name}.${sub.name}`);
    if ("group" in sub) {
      for (const s of sub.subcommands) {
        node(`${spec.name}.${sub.name}.${s.name}`);
        options(s.options, `${spec.name}.${sub.name}.${s.name}`);
      }
    } else options(sub.options, `${spec.name}.${sub.name}`);
  }
  return keys;
}

/**
 * A key is used when the code names it whole ("bh.reserve.none", "@system.fate"), when a command spec
 * reads it, or when it belongs to a family the code builds from a template (`mw.degree.${level}`:
 * any key with that shape) or names by its prefix (`familyKey("character.status.", …)`).
 */
function unusedKeys(): string[] {
  const code = [...sourceFiles(path.join(ROOT, "src")), ...sourceFiles(path.join(ROOT, "commands"))]
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
  const quoted = new Set([...code.matchAll(/["'`]@?([a-z][\w-]*(?:\.[\w-]+)+)["'`]/gi)].map((m) => m[1]!));
  // A template with a key-like literal part: `mw.degree.${level}`, or `${error.code}.button`.
  const families = [...code.matchAll(/`@?((?:[a-z][\w-]*\.|\$\{[^}`]*\}\.)[^`\s]*)`/gi)]
    .map((m) => m[1]!.split(/\$\{[^}]*\}/))
    .filter((parts) => parts.length > 1 && parts.join("").replaceAll(".", "").length >= 4)
    .map(
      (parts) =>
        new RegExp(`^${parts.map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")).join("[\\w.-]+")}$`),
    );
  // `familyKey("character.status.", row.status)`: a family named by a stored value.
  for (const m of code.matchAll(/familyKey\(\s*"([\w.-]+)"/g))
    families.push(new RegExp(`^${m[1]!.replace(/[.]/g, "\\.")}[\\w.-]+$`));
  const fromSpecs = new Set(commands.flatMap((c) => specKeys(c.spec)));
  return Object.keys(catalogues.en).filter(
    (key) => !quoted.has(key) && !fromSpecs.has(key) && !families.some((family) => family.test(key)),
  );
}

describe("message catalogues", () => {
  it("hold no key that nothing uses", () => {
    expect(unusedKeys()).toEqual([]);
  });
});
