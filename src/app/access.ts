import type { Character, GameTable } from "../generated/prisma/client.js";
import { refuse } from "../rules/errors.js";
import { liveCharacterByKey, ownedCharacters } from "../store/characters.js";
import type { Db, Tx } from "../store/db.js";
import { nameKey } from "./names.js";
import type { ActionContext, Actor } from "./use-case.js";

/** The permission model: the GM runs the table; players act for their own characters; Manage Server can recover. */

export function requireTable(ctx: Pick<ActionContext, "table">): GameTable {
  if (!ctx.table) refuse("errors.noTable");
  return ctx.table;
}

/** The guild the action is in: tables and saved rolls live in a server, never in a DM. */
export function requireGuild(ctx: Pick<ActionContext, "invocation">): string {
  if (!ctx.invocation.guildId) refuse("errors.table.guildOnly");
  return ctx.invocation.guildId;
}

export function isGm(table: GameTable, actor: Actor): boolean {
  return table.gmUserId === actor.userId;
}

export function requireGm(ctx: Pick<ActionContext, "table" | "actor">): GameTable {
  const table = requireTable(ctx);
  if (!isGm(table, ctx.actor)) refuse("errors.gmOnly");
  return table;
}

/** GM-level actions that a server admin may also take, to recover a table whose GM is gone. */
export function requireGmOrAdmin(ctx: Pick<ActionContext, "table" | "actor">): GameTable {
  const table = requireTable(ctx);
  if (!isGm(table, ctx.actor) && !ctx.actor.canManageGuild) refuse("errors.gmOrAdminOnly");
  return table;
}

export async function findCharacter(tx: Db | Tx, tableId: number, name: string): Promise<Character> {
  const character = await liveCharacterByKey(tx, tableId, nameKey(name));
  if (!character) refuse("errors.character.notFound", { name: name.slice(0, 64) });
  return character;
}

/**
 * May this actor act for this character? Players only for their own; the GM for GM
 * characters and obstacles, and for player characters only where `gmMayActForPlayers`.
 */
export function canControl(
  table: GameTable,
  actor: Actor,
  character: Character,
  options: { gmMayActForPlayers?: boolean } = {},
): boolean {
  if (character.ownerUserId === actor.userId) return true;
  if (!isGm(table, actor)) return false;
  return character.ownerUserId === null || options.gmMayActForPlayers === true;
}

export function requireControl(
  ctx: Pick<ActionContext, "table" | "actor">,
  character: Character,
  options: { gmMayActForPlayers?: boolean } = {},
): void {
  const table = requireTable(ctx);
  if (!canControl(table, ctx.actor, character, options))
    refuse("errors.notYourCharacter", { name: character.name });
}

/**
 * The character an action is for: the named one (which the actor must control), or the
 * actor's own player character when there is exactly one.
 */
export async function actingCharacter(
  ctx: Pick<ActionContext, "table" | "actor" | "tx">,
  name: string | undefined | null,
  options: { gmMayActForPlayers?: boolean } = {},
): Promise<Character> {
  const table = requireTable(ctx);
  if (name) {
    const character = await findCharacter(ctx.tx, table.id, name);
    requireControl(ctx, character, options);
    return character;
  }
  const own = await ownedCharacters(ctx.tx, table.id, ctx.actor.userId);
  if (own.length === 1) return own[0]!;
  if (own.length === 0)
    refuse(isGm(table, ctx.actor) ? "errors.character.nameNeeded" : "errors.character.noneOwned");
  refuse("errors.character.whichOne", { names: own.map((c) => c.name).join(", ") });
}
