import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from "discord.js";
import * as beastHunters from "./beast-hunters/index.js";
import { characterCommand } from "./character.js";
import type { CommandModule } from "./command.js";
import { conflictCommand } from "./conflict.js";
import * as fate from "./fate/index.js";
import { help } from "./help.js";
import { macro } from "./macro.js";
import * as mountainWitch from "./mountain-witch/index.js";
import { roll } from "./roll.js";
import { buildCommand, type CommandSpec, type GroupSpec, type SubcommandSpec } from "./spec.js";
import { table } from "./table.js";

export const GAMES = ["mountain-witch", "beast-hunters", "fate"] as const;
export type Game = (typeof GAMES)[number];

/** What one game adds to the command surface. */
export interface GameCommands {
  /** Its own commands. */
  commands: readonly CommandModule[];
  /** Its sheet subcommands of the shared `/character`. */
  characterSubcommands: readonly (SubcommandSpec | GroupSpec)[];
  /** Its subcommands of the shared `/conflict` (The Mountain Witch and Fate both have conflicts). */
  conflictSubcommands: readonly SubcommandSpec[];
}

export const gameCommands: Record<Game, GameCommands> = {
  "mountain-witch": mountainWitch,
  "beast-hunters": beastHunters,
  fate,
};

/** Commands that mean the same on every table (and outside one): registered globally. */
export const commonCommands: readonly CommandModule[] = [help, table, roll, macro];

/**
 * The commands of the given games, as a guild with tables of those games sees them: `/character`
 * with the common subcommands and those games' sheet subcommands, `/conflict` with those games'
 * subcommands (if any), then each game's own commands. Registered per guild.
 */
export function gameCommandModules(games: Iterable<Game>): readonly CommandModule[] {
  const present = GAMES.filter((g) => [...games].includes(g));
  const key = present.join(",");
  let modules = modulesByGames.get(key);
  if (!modules) {
    modules = Object.freeze(combinedModules(present));
    modulesByGames.set(key, modules);
  }
  return modules;
}

/** Per set of games (seven at most): the same specs each time, so their JSON is built once (buildCommand). */
const modulesByGames = new Map<string, readonly CommandModule[]>();

function combinedModules(present: readonly Game[]): CommandModule[] {
  if (present.length === 0) return [];
  const conflict = conflictCommand(present.map((g) => gameCommands[g].conflictSubcommands));
  return [
    characterCommand(present.map((g) => gameCommands[g].characterSubcommands)),
    ...(conflict.spec.subcommands?.length ? [conflict] : []),
    ...present.flatMap((g) => gameCommands[g].commands),
  ];
}

/** Every slash command the bot understands, of every game (for routing and parsing). */
export const commands: CommandModule[] = [...commonCommands, ...gameCommandModules(GAMES)];

/** The commands a guild sees in its channels: the common ones, then those of the games it has tables of. */
export function commandSpecsFor(games: Iterable<Game>): CommandSpec[] {
  return [...commonCommands, ...gameCommandModules(games)].map((c) => c.spec);
}

export function allCommandJson(): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return commands.map((c) => buildCommand(c.spec));
}
