import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from "discord.js";
import * as beastHunters from "./beast-hunters/index.js";
import { character } from "./character.js";
import type { CommandModule } from "./command.js";
import { conflict } from "./conflict.js";
import * as fate from "./fate/index.js";
import { help } from "./help.js";
import { macro } from "./macro.js";
import * as mountainWitch from "./mountain-witch/index.js";
import { roll } from "./roll.js";
import { buildCommand } from "./spec.js";
import { table } from "./table.js";

/** Every slash command the bot registers. */
export const commands: CommandModule[] = [
  help,
  table,
  character,
  roll,
  macro,
  ...(conflict.spec.subcommands?.length ? [conflict] : []),
  ...mountainWitch.commands,
  ...beastHunters.commands,
  ...fate.commands,
];

export function allCommandJson(): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return commands.map((c) => buildCommand(c.spec));
}
