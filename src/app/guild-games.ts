import { GAMES, type Game } from "../../commands/index.js";
import type { RegisteredCommandSets } from "../discord/register.js";
import { type Db, sqlFor } from "../store/db.js";

/** The games a guild has active tables of. */
export async function gamesOfGuild(db: Db, guildId: string): Promise<Game[]> {
  const rows = await sqlFor(db).rows<{ system: string }>`
    SELECT DISTINCT system FROM game_table WHERE guild_id = ${guildId} AND status = 'active'`;
  return GAMES.filter((g) => rows.some((r) => r.system === g));
}

/** Every guild with active tables, and the games it has them of (its commands are checked at start-up). */
export async function gamesByGuild(db: Db): Promise<Map<string, Game[]>> {
  const rows = await sqlFor(db).rows<{ guildId: string; systems: string[] }>`
    SELECT guild_id, array_agg(DISTINCT system) AS systems FROM game_table WHERE status = 'active'
    GROUP BY guild_id`;
  return new Map(rows.map((r) => [r.guildId, GAMES.filter((g) => r.systems.includes(g))]));
}

/** The command sets stored as registered on Discord for `applicationId`, by guild. */
export function registeredCommandSets(db: () => Promise<Db>, applicationId: string): RegisteredCommandSets {
  return {
    async load() {
      const rows = await sqlFor(await db()).rows<{ guildId: string; digest: string }>`
        SELECT guild_id, digest FROM registered_command_set WHERE application_id = ${applicationId}`;
      return new Map(rows.map((r) => [r.guildId, r.digest]));
    },
    async save(guildId, digest) {
      await sqlFor(await db()).run`
        INSERT INTO registered_command_set (application_id, guild_id, digest) VALUES (${applicationId}, ${guildId}, ${digest})
        ON CONFLICT (application_id, guild_id) DO UPDATE SET digest = EXCLUDED.digest, registered_at = now()`;
    },
  };
}
