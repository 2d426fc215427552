import type { CommandModule } from "../command.js";
import type { GroupSpec, SubcommandSpec } from "../spec.js";

/** This game's own slash commands. */
export const commands: CommandModule[] = [];
/** Subcommands this game adds to `/character` (sheet fields). */
export const characterSubcommands: (SubcommandSpec | GroupSpec)[] = [];
/** Subcommands this game adds to the shared `/conflict` command (Mountain Witch and Fate both have conflicts). */
export const conflictSubcommands: SubcommandSpec[] = [];
