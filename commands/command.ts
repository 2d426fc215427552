import type { Intent } from "../src/app/intent.js";
import type { CommandSpec } from "./spec.js";

/** What a slash command carried: its subcommand path and its options by name (users as ids). */
export interface SlashInput {
  command: string;
  /** Subcommand group and/or subcommand names, e.g. ["vp", "add"]. */
  path: string[];
  options: Record<string, string | number | boolean>;
}

export interface CommandModule {
  spec: CommandSpec;
}

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

export function defaultIntent(input: SlashInput): Intent {
  const fields = Object.fromEntries(Object.entries(input.options).map(([k, v]) => [camel(k), v]));
  return { ...fields, type: [input.command, ...input.path].join(".") };
}

export function defineCommand(module: CommandModule): CommandModule {
  return module;
}
