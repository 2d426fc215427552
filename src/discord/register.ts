import { REST, Routes } from "discord.js";
import { allCommandJson } from "../../commands/index.js";

/** Bulk-overwrites the bot's slash commands, to one guild (fast, for development) or globally. */
export async function registerCommands(options: {
  token: string;
  applicationId: string;
  apiBase?: string;
  guildId?: string;
}): Promise<number> {
  const rest = new REST(options.apiBase ? { api: options.apiBase } : {}).setToken(options.token);
  const body = allCommandJson();
  const route = options.guildId
    ? Routes.applicationGuildCommands(options.applicationId, options.guildId)
    : Routes.applicationCommands(options.applicationId);
  await rest.put(route, { body });
  return body.length;
}
