/**
 * What the Mountain Witch use cases share: reading characters, damage and trust from the
 * store in the shape the rules want, writing trust spends and damage back (logged), and
 * the table's per-game state (matrix lock, dark-fate deck).
 */
import type { Character, GameTable, Prisma } from "../../generated/prisma/client.js";
import type { Lang } from "../../i18n/index.js";
import { t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import {
  type CharacterRef,
  type CharacterStatus,
  type DamageDuration,
  type DamageEntry,
  type FateDeckState,
  initialTrust,
  isZodiacSign,
  NEUTRAL_TRUST,
  type Strength,
  type TrustLink,
  type TrustSpend,
} from "../../rules/mountain-witch/index.js";
import {
  liveCharacterById,
  livePlayerCharactersActiveIncapacitatedOrDead,
  ownedCharacters,
  saveCharacterSheet,
  setCharacterStatus,
} from "../../store/characters.js";
import { type OpeningRead, sqlFor, type Tx } from "../../store/db.js";
import { intArray, literalSql, modelFromRow } from "../../store/sql.js";
import { setTableState } from "../../store/tables.js";
import { findCharacter } from "../access.js";
import type { KnownIntent } from "../intents.js";
import { appendLog } from "../log.js";
import type { ActionContext } from "../use-case.js";
import type { ButtonView } from "../views.js";

/** Mountain Witch fields in `character.sheet`. */
export interface MwSheet {
  abilities: string[];
  background: string | null;
  /** The two questions of character creation: why and how a ronin, why the money. */
  ronin: string | null;
  money: string | null;
  /** Props: colour only (docs/rules/mountain-witch.md §1.5). */
  props: string | null;
  /** The chapter in which the character was taken out (for recovery attempts). */
  incapacitatedInChapter: number | null;
  recoveryTriedInChapter: number | null;
}

export function mwSheet(character: Character): MwSheet {
  const sheet = (character.sheet ?? {}) as Partial<MwSheet>;
  return {
    abilities: Array.isArray(sheet.abilities) ? sheet.abilities.filter((a) => typeof a === "string") : [],
    background: typeof sheet.background === "string" ? sheet.background : null,
    ronin: typeof sheet.ronin === "string" ? sheet.ronin : null,
    money: typeof sheet.money === "string" ? sheet.money : null,
    props: typeof sheet.props === "string" ? sheet.props : null,
    incapacitatedInChapter:
      typeof sheet.incapacitatedInChapter === "number" ? sheet.incapacitatedInChapter : null,
    recoveryTriedInChapter:
      typeof sheet.recoveryTriedInChapter === "number" ? sheet.recoveryTriedInChapter : null,
  };
}

export async function saveSheet(tx: Tx, character: Character, patch: Partial<MwSheet>): Promise<void> {
  const sheet = { ...((character.sheet ?? {}) as object), ...mwSheet(character), ...patch };
  await saveCharacterSheet(tx, character.id, sheet);
}

/** Mountain Witch state in `game_table.state`. */
export interface MwTableState {
  /** Set once play has begun (first conflict, duel or chapter): the starting matrix is then final. */
  matrixLocked: boolean;
  fates: FateDeckState | null;
  undealtShown: boolean;
  /**
   * Starting-trust edits made before play began in secret mode (docs/rules/mountain-witch.md
   * §1.3): kept here, unseen, until chapter 1 reveals them. `userId` is who made the edit.
   */
  startingEdits: { giverId: number; holderId: number; value: number; userId: string }[];
}

export function mwTableState(table: GameTable): MwTableState {
  const mw = ((table.state ?? {}) as { mw?: Partial<MwTableState> }).mw ?? {};
  return {
    matrixLocked: mw.matrixLocked === true,
    fates: mw.fates ?? null,
    undealtShown: mw.undealtShown === true,
    startingEdits: Array.isArray(mw.startingEdits) ? mw.startingEdits : [],
  };
}

export async function saveTableState(tx: Tx, table: GameTable, patch: Partial<MwTableState>): Promise<void> {
  const current = (table.state ?? {}) as Record<string, unknown>;
  const mw = { ...mwTableState(table), ...patch };
  await setTableState(tx, table.id, { ...current, mw });
  table.state = { ...current, mw } as unknown as Prisma.JsonValue;
}

export function statusOf(character: Character): CharacterStatus {
  return character.status === "dead" || character.status === "incapacitated" ? character.status : "active";
}

export function refOf(character: Character): CharacterRef {
  return {
    id: character.id,
    name: character.name,
    kind: character.kind === "pc" ? "pc" : "npc",
    playerId: character.ownerUserId,
    strength: (["weak", "medium", "strong"].includes(character.strength)
      ? character.strength
      : "medium") as Strength,
    status: statusOf(character),
  };
}

/**
 * The table's damage still in effect, which a conflict's or a duel's panel and dice read (the
 * penalties): read with the opening (the game's `openingReads`), taken by `activeDamage` until
 * the transaction writes damage_entry.
 */
export const activeDamageRead: OpeningRead = {
  statement: ({ tableId }) => literalSql`
    SELECT id, character_id, duration, ability, condition FROM damage_entry
    WHERE table_id = ${tableId} AND cleared_at IS NULL AND duration <> 'taken-out'
    ORDER BY id`,
  scope: ({ tableId }) => String(tableId),
  table: "damage_entry",
};

/** The damage in effect on these characters of the table, by character, in the rules' shape (obstacles, ids below 1, have none). */
export async function activeDamage(
  tx: Tx,
  tableId: number,
  characterIds: readonly number[],
): Promise<Record<number, DamageEntry[]>> {
  const ids = characterIds.filter((id) => id > 0);
  const opened = tx.openedRows(activeDamageRead, String(tableId));
  const rows = opened
    ? opened.map((row) => modelFromRow<DamageEntry>(row)).filter((entry) => ids.includes(entry.characterId))
    : ids.length
      ? await sqlFor(tx).rows<DamageEntry>`
        SELECT id, character_id, duration, ability, condition FROM damage_entry
        WHERE character_id = ANY(${intArray(ids)}::int[]) AND cleared_at IS NULL AND duration <> 'taken-out'
        ORDER BY id`
      : [];
  const out: Record<number, DamageEntry[]> = {};
  for (const r of rows) {
    const list = out[r.characterId] ?? [];
    out[r.characterId] = list;
    list.push(r);
  }
  return out;
}

export async function clearDamage(
  ctx: Pick<ActionContext, "tx" | "now">,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  await sqlFor(ctx.tx).run`
    UPDATE damage_entry SET cleared_at = ${ctx.now} WHERE id = ANY(${intArray(ids)}::int[]) AND cleared_at IS NULL`;
}

/**
 * The table's trust matrix, which most Mountain Witch actions read (trust shown, spent, given):
 * read with the opening (the game's `openingReads`), taken by `trustLinks` until the transaction
 * writes trust_link.
 */
export const trustLinksRead: OpeningRead = {
  statement: ({ tableId }) => literalSql`
    SELECT giver_id, holder_id, value, points FROM trust_link WHERE table_id = ${tableId} ORDER BY giver_id, holder_id`,
  scope: ({ tableId }) => String(tableId),
  table: "trust_link",
};

export async function trustLinks(tx: Tx, tableId: number): Promise<TrustLink[]> {
  const opened = tx.openedRows(trustLinksRead, String(tableId));
  if (opened) return opened.map((row) => modelFromRow<TrustLink>(row));
  return sqlFor(tx).rows<TrustLink>`
    SELECT giver_id, holder_id, value, points FROM trust_link WHERE table_id = ${tableId} ORDER BY giver_id, holder_id`;
}

/**
 * Writes one trust spend: a conditional update on the points the rules saw, so a spend
 * can never apply twice or push points below 0 (the DB CHECK backs this up), then logs it.
 */
export async function persistTrustSpend(
  ctx: Pick<ActionContext, "tx" | "actor">,
  tableId: number,
  spent: TrustSpend,
  names: { giver: string; holder: string },
): Promise<void> {
  const updated = await sqlFor(ctx.tx).run`
    UPDATE trust_link SET points = ${spent.after}
    WHERE giver_id = ${spent.giverId} AND holder_id = ${spent.holderId} AND points = ${spent.before}`;
  if (updated !== 1) refuse("errors.mw.notEnoughTrust", { have: 0, need: spent.amount });
  await appendLog(ctx, tableId, {
    action: `trust.${spent.use}`,
    characterId: spent.holderId,
    summary: {
      key: `log.mw.trust.${spent.use}`,
      params: { holder: names.holder, giver: names.giver, amount: spent.amount },
    },
    before: { giverId: spent.giverId, holderId: spent.holderId, points: spent.before },
    after: { giverId: spent.giverId, holderId: spent.holderId, points: spent.after },
  });
}

/**
 * Gives back trust spent in a conflict that the spender left before the roll: the points
 * return (never above the value given), and the log says whose they are.
 */
export async function persistTrustRefund(
  ctx: Pick<ActionContext, "tx" | "actor">,
  tableId: number,
  refund: { use: string; giverId: number; holderId: number; amount: number },
  names: { giver: string; holder: string },
): Promise<void> {
  const row = await sqlFor(ctx.tx).one<{ before: number; after: number }>`
    WITH prev AS (SELECT points FROM trust_link WHERE giver_id = ${refund.giverId} AND holder_id = ${refund.holderId})
    UPDATE trust_link l SET points = LEAST(l.value, l.points + ${refund.amount})
    FROM prev WHERE l.giver_id = ${refund.giverId} AND l.holder_id = ${refund.holderId}
    RETURNING prev.points AS before, l.points AS after`;
  if (!row) return;
  await appendLog(ctx, tableId, {
    action: "trust.refund",
    characterId: refund.holderId,
    summary: {
      key: "log.mw.trust.refund",
      params: { holder: names.holder, giver: names.giver, amount: row.after - row.before },
    },
    before: { giverId: refund.giverId, holderId: refund.holderId, points: row.before },
    after: { giverId: refund.giverId, holderId: refund.holderId, points: row.after },
  });
}

/**
 * A click on a public panel that arrives before the bot recorded that panel's message (the
 * answer that posted it is still being recorded): the clicked message is the panel, so it is
 * recorded now and the action edits it in place. Call only for components that exist on the
 * public panel alone (never on a private message).
 */
export async function adoptPanel(
  ctx: Pick<ActionContext, "tx" | "invocation">,
  flow: { id: number; panelChannelId: string | null; panelMessageId: string | null },
): Promise<void> {
  const source = ctx.invocation.sourceMessageId;
  if (flow.panelMessageId !== null || source === undefined || !ctx.invocation.guildId) return;
  await sqlFor(ctx.tx).run`
    UPDATE flow SET panel_channel_id = ${ctx.invocation.channelId}, panel_message_id = ${source}
    WHERE id = ${flow.id} AND panel_message_id IS NULL`;
  flow.panelChannelId = ctx.invocation.channelId;
  flow.panelMessageId = source;
}

/** Writes damage to a stored character: an entry, or a status change when taken out. */
export async function persistDamage(
  ctx: Pick<ActionContext, "tx" | "actor" | "now">,
  table: GameTable,
  target: Character,
  damage: {
    quality: string;
    duration: DamageDuration;
    ability: string | null;
    condition: string | null;
    takenOut: "incapacitated" | "dead" | null;
  },
  note: string | null,
): Promise<void> {
  if (damage.takenOut) {
    await setCharacterStatus(ctx.tx, target.id, damage.takenOut);
    if (damage.takenOut === "incapacitated") {
      await saveSheet(ctx.tx, target, {
        incapacitatedInChapter: table.chapter,
        recoveryTriedInChapter: null,
      });
    }
    await appendLog(ctx, table.id, {
      action: "character.status",
      characterId: target.id,
      summary: { key: `log.mw.takenOut.${damage.takenOut}`, params: { name: target.name } },
      before: { status: target.status },
      after: { status: damage.takenOut },
    });
    return;
  }
  const entry = (await sqlFor(ctx.tx).one<{ id: number }>`
    INSERT INTO damage_entry (table_id, character_id, duration, ability, condition, note, created_at)
    VALUES (${table.id}, ${target.id}, ${damage.duration}, ${damage.ability}, ${damage.condition}, ${note}, ${new Date()})
    RETURNING id`)!;
  await appendLog(ctx, table.id, {
    action: "damage.add",
    characterId: target.id,
    summary: {
      key: "log.mw.damage.add",
      params: { name: target.name, duration: `@mw.durationShort.${damage.duration}`, id: entry.id },
    },
    after: { id: entry.id, duration: damage.duration, ability: damage.ability, condition: damage.condition },
  });
}

/** Player characters at the table who take part in trust (dead ones too; not retired or deleted). */
export async function trustCharacters(tx: Tx, tableId: number): Promise<Character[]> {
  return livePlayerCharactersActiveIncapacitatedOrDead(tx, tableId);
}

/** The starting trust one character gives another: from their zodiac signs (neutral without both). */
export function zodiacTrust(giver: Character, holder: Character): number {
  const a = giver.zodiac && isZodiacSign(giver.zodiac) ? giver.zodiac : null;
  const b = holder.zodiac && isZodiacSign(holder.zodiac) ? holder.zodiac : null;
  return a && b && a !== b ? initialTrust(a, b) : NEUTRAL_TRUST;
}

export function durationText(lang: Lang, duration: DamageDuration, condition: string | null): string {
  return t(lang, `mw.duration.${duration}`, { condition: condition ?? "" });
}

/** "½", "1", "1½", … for a list of success pieces. */
export function successesText(pieces: readonly string[]): string {
  const halves = pieces.reduce((s, p) => s + (p === "half" ? 1 : 2), 0);
  const whole = Math.floor(halves / 2);
  const half = halves % 2 === 1 ? "½" : "";
  if (halves === 0) return "0";
  return `${whole > 0 ? whole : ""}${half}`;
}

/** A button of a panel or of a private view: its label (in the reader's language), its look, what it does. */
export function button(
  label: string,
  style: NonNullable<ButtonView["style"]>,
  intent: KnownIntent,
  extra: { emoji?: string; disabled?: boolean } = {},
): ButtonView {
  return { kind: "button", label, style, ...extra, intent };
}

/**
 * The actor's own character at a table (a DM's or the channel's): the one a button names by id,
 * or the named one, or their only player character there.
 */
export async function ownCharacterAt(
  ctx: Pick<ActionContext, "tx" | "actor">,
  table: GameTable,
  characterName?: string,
  characterId?: number,
): Promise<Character> {
  if (characterId !== undefined) {
    const c = await liveCharacterById(ctx.tx, table.id, characterId);
    if (!c) refuse("errors.character.notFound", { name: `#${characterId}` });
    if (c.ownerUserId !== ctx.actor.userId) refuse("errors.notYourCharacter", { name: c.name });
    return c;
  }
  if (characterName) {
    const c = await findCharacter(ctx.tx, table.id, characterName);
    if (c.ownerUserId !== ctx.actor.userId) refuse("errors.notYourCharacter", { name: c.name });
    return c;
  }
  const own = (await ownedCharacters(ctx.tx, table.id, ctx.actor.userId)).filter((c) => c.kind === "pc");
  if (own.length === 0) refuse("errors.character.noneOwned");
  if (own.length > 1) refuse("errors.character.whichOne", { names: own.map((c) => c.name).join(", ") });
  return own[0]!;
}
