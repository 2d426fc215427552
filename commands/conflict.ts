import { defineCommand } from "./command.js";
import * as fate from "./fate/index.js";
import * as mountainWitch from "./mountain-witch/index.js";
import type { OptionSpec, SubcommandSpec } from "./spec.js";

/**
 * `/conflict` serves two games: The Mountain Witch and Fate. Each contributes its
 * subcommands; a subcommand both use (start, end) gets the union of their options. The
 * use case for the table's system decides what the options mean.
 */
function merge(parts: readonly SubcommandSpec[][]): SubcommandSpec[] {
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

export const conflict = defineCommand({
  spec: {
    name: "conflict",
    subcommands: merge([mountainWitch.conflictSubcommands, fate.conflictSubcommands]),
  },
});
