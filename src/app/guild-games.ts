import { GAMES, type Game } from "../../commands/index.js";
import { type Db, sqlFor } from "../store/db.js";

/** The games a guild has active tables of. */
export async function gamesOfGuild(db: Db, guildId: string): Promise<Game[]> {
  const rows = await sqlFor(db).rows<{ system: string }>`
    SELECT DISTINCT system FROM game_table WHERE guild_id = ${guildId} AND status = 'active'`;
  return GAMES.filter((g) => rows.some((r) => r.system === g));
}

/** Guilds with at least one active table (their commands are brought up to date at start-up). */
export async function guildsWithTables(db: Db): Promise<string[]> {
  const rows = await sqlFor(db).rows<{ guildId: string }>`
    SELECT DISTINCT guild_id FROM game_table WHERE status = 'active'`;
  return rows.map((r) => r.guildId);
}
