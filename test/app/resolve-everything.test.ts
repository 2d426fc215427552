import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commands } from "../../commands/index.js";
import type { CommandSpec } from "../../commands/spec.js";
import { createRegistry } from "../../src/app/registry.js";

const registry = createRegistry();

/** A slash command's intent type: its path joined by dots (docs/ARCHITECTURE.md, the one path of an action). */
function commandTypes(spec: CommandSpec): string[] {
  if (!spec.subcommands) return [spec.name];
  return spec.subcommands.flatMap((sub) =>
    "group" in sub
      ? sub.subcommands.map((s) => `${spec.name}.${sub.name}.${s.name}`)
      : [`${spec.name}.${sub.name}`],
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/**
 * Every intent a view names: a component's or a modal's `intent: { type: "…" }`, and the panels'
 * `button(label, { type: "…" })` shorthand.
 */
function viewIntentTypes(): string[] {
  const code = sourceFiles(path.resolve(import.meta.dirname, "../../src/app"))
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
  const named = [
    ...code.matchAll(/intent: \{\s*type: "([\w.-]+)"/g),
    ...code.matchAll(/button\([^;]{0,200}?\{\s*type: "([\w.-]+)"/g),
  ].map((m) => m[1]!);
  return [...new Set(named)].sort();
}

describe("the one path of an action", () => {
  it("every registered command path resolves to a use case", () => {
    const missing = commands
      .flatMap((c) => commandTypes(c.spec))
      .filter((type) => registry.candidates(type).length === 0);
    expect(missing).toEqual([]);
  });

  it("every intent a view can emit (buttons, selects, forms) resolves to a use case", () => {
    const types = viewIntentTypes();
    expect(types.length).toBeGreaterThan(50);
    expect(types).toContain("fp.spend-form");
    expect(types.filter((type) => registry.candidates(type).length === 0)).toEqual([]);
  });
});
