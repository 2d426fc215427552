import { defineCommand } from "./command.js";
import type { OptionSpec, SubcommandSpec } from "./spec.js";

/**
 * `/conflict` serves two games: The Mountain Witch and Fate. Each contributes its
 * subcommands; a subcommand both use (start, end) gets the union of their options. The
 * use case for the table's system decides what the options mean.
 */
function merge(parts: readonly (readonly SubcommandSpec[])[]): SubcommandSpec[] {
  const byName = new Map<string, SubcommandSpec>();
  for (const sub of parts.flat()) {
    const existing = byName.get(sub.name);
    if (!existing) {
      byName.set(sub.name, sub);
      continue;
    }
    const options: OptionSpec[] = [...(existing.options ?? [])];
    for (const option of sub.options ?? []) {
      if (!options.some((o) => o.name === option.name)) options.push({ ...option, required: false });
    }
    byName.set(sub.name, { name: sub.name, options });
  }
  return [...byName.values()];
}

/** `/conflict` with the subcommands of the games given. */
export function conflictCommand(parts: readonly (readonly SubcommandSpec[])[]) {
  return defineCommand({ spec: { name: "conflict", subcommands: merge(parts) } });
}
