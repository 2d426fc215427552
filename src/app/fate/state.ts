import type { Aspect as AspectRow, Character, GameTable } from "../../generated/prisma/client.js";
import { refuse } from "../../rules/errors.js";
import { type Aspect, type AspectKind, type FreeInvoke, sameAspectName } from "../../rules/fate/aspects.js";
import {
  type FateCharacter,
  type Race,
  type SkillRanks,
  type Stunt,
  syncTracks,
} from "../../rules/fate/character.js";
import type { ConsequenceSlot, ConsequenceSlotId, StressKind, StressTrack } from "../../rules/fate/stress.js";
import * as characters from "../../store/characters.js";
import { type Db, sqlFor, type Tx } from "../../store/db.js";
import { setTableState } from "../../store/tables.js";
import { nameKey } from "../names.js";

/** What a Fate character keeps in `character.sheet` (fate points and refresh have their own columns). */
export interface FateSheet {
  skills: SkillRanks;
  race: Race | null;
  stunts: Stunt[];
  wr: number;
  ar: number;
  stress: Record<StressKind, StressTrack>;
  consequences: ConsequenceSlot[];
}

/** Per-table Fate state in `game_table.state`: the game week and the factions. */
export interface FateTableState {
  fateWeek: number;
  factions: import("../../rules/fate/faction.js").Faction[];
}

export function tableState(table: GameTable): FateTableState {
  const raw = (table.state ?? {}) as Partial<FateTableState>;
  return { fateWeek: raw.fateWeek ?? 1, factions: raw.factions ?? [] };
}

export async function saveTableState(tx: Tx, table: GameTable, state: FateTableState): Promise<void> {
  const merged = { ...((table.state ?? {}) as object), ...state };
  await setTableState(tx, table.id, merged);
}

/** The rules' view of a stored character; a sheet written before Fate set it up gets defaults. */
export function fateCharacter(row: Character): FateCharacter {
  const sheet = (row.sheet ?? {}) as Partial<FateSheet>;
  return syncTracks({
    id: String(row.id),
    name: row.name,
    ownerId: row.ownerUserId,
    refresh: row.refresh,
    fatePoints: row.fatePoints,
    aspects: [],
    skills: sheet.skills ?? {},
    race: sheet.race ?? null,
    stunts: sheet.stunts ?? [],
    wr: sheet.wr ?? 0,
    ar: sheet.ar ?? 0,
    stress: sheet.stress ?? {
      physical: { kind: "physical", boxes: [] },
      mental: { kind: "mental", boxes: [] },
    },
    consequences: sheet.consequences ?? [],
  });
}

export function sheetOf(character: FateCharacter): FateSheet {
  const { skills, race, stunts, wr, ar, stress, consequences } = character;
  return { skills, race, stunts, wr, ar, stress, consequences };
}

/** Writes the sheet, fate points and refresh back; returns the updated row. */
export async function saveFateCharacter(
  tx: Tx,
  row: Character,
  character: FateCharacter,
): Promise<Character> {
  const sheet = { ...((row.sheet ?? {}) as object), ...sheetOf(character) };
  const saved = await characters.saveSheetFatePointsAndRefresh(tx, row.id, {
    sheet,
    fatePoints: character.fatePoints,
    refresh: character.refresh,
  });
  if (!saved) throw new Error(`character ${row.id} vanished while being saved`);
  return saved;
}

/**
 * Sets a character's fate points (the database refuses a negative count); sent with the COMMIT,
 * or before the next statement, which then sees it.
 */
export async function saveFatePoints(tx: Tx, characterId: number, fatePoints: number): Promise<void> {
  await characters.setFatePointsLater(tx, characterId, fatePoints);
}

export async function liveCharacters(tx: Db | Tx, tableId: number): Promise<Character[]> {
  return characters.liveTableCharacters(tx, tableId);
}

export async function characterById(tx: Tx, tableId: number, id: number): Promise<Character> {
  const row = await characters.liveCharacterById(tx, tableId, id);
  if (!row) refuse("errors.character.notFound", { name: `#${id}` });
  return row;
}

/**
 * An aspect somewhere at the table — on the scene, on a character, or a named consequence —
 * with a reference short enough for a select value and a way to write it back.
 */
export interface TableAspect {
  /** `a<id>` for an aspect row, `c<characterId>.<slot>` for a consequence. */
  ref: string;
  aspect: Aspect;
  /** The character it is on, or null for the scene. */
  characterId: number | null;
  characterName: string | null;
}

/**
 * The rules' aspect of a stored row: `free_invokes` counts them and `free_invoke_holders` says
 * whose each is (docs/rules/fate.md §3.2). A row written before holders were kept, or a free
 * invoke the GM handed out, has none: anyone at the table may spend it.
 */
export function rowAspect(row: AspectRow): Aspect {
  const holders = Array.isArray(row.freeInvokeHolders)
    ? (row.freeInvokeHolders as unknown as FreeInvoke[])
    : [];
  return {
    name: row.name,
    kind: row.kind as AspectKind,
    freeInvokes: Array.from({ length: row.freeInvokes }, (_, i) => ({
      holderId: holders[i]?.holderId ?? null,
      side: holders[i]?.side ?? null,
    })),
  };
}

/** What `free_invoke_holders` stores for these free invokes (plain JSON). */
export function holdersJson(invokes: readonly FreeInvoke[]): string {
  return JSON.stringify(invokes.map((f) => ({ holderId: f.holderId, side: f.side ?? null })));
}

/** Stores a new aspect (on `characterId`, or the scene) with its free invokes and whose they are; returns its row id. */
export async function insertAspect(
  tx: Tx,
  tableId: number,
  characterId: number | null,
  aspect: Aspect,
): Promise<number> {
  const row = await sqlFor(tx).one<{ id: number }>`
    INSERT INTO aspect (table_id, character_id, name, name_key, kind, free_invokes, free_invoke_holders, created_at)
    VALUES (${tableId}, ${characterId}, ${aspect.name}, ${nameKey(aspect.name)}, ${aspect.kind},
            ${aspect.freeInvokes.length}, ${holdersJson(aspect.freeInvokes)}::jsonb, ${new Date()})
    RETURNING id`;
  if (!row) throw new Error("aspect not inserted");
  return row.id;
}

export async function tableAspects(tx: Db | Tx, tableId: number): Promise<TableAspect[]> {
  // Aspects on a deleted character are gone with it; scene aspects have no character.
  const rows = await sqlFor(tx).rows<AspectRow & { characterName: string | null }>`
    SELECT a.*, c.name AS character_name FROM aspect a LEFT JOIN "character" c ON c.id = a.character_id
    WHERE a.table_id = ${tableId} AND a.removed_at IS NULL AND c.deleted_at IS NULL
    ORDER BY a.id`;
  const found: TableAspect[] = rows.map((r) => ({
    ref: `a${r.id}`,
    aspect: rowAspect(r),
    characterId: r.characterId,
    characterName: r.characterName,
  }));
  for (const row of await liveCharacters(tx, tableId)) {
    for (const slot of fateCharacter(row).consequences) {
      if (slot.aspect) {
        found.push({
          ref: `c${row.id}.${slot.id}`,
          aspect: slot.aspect,
          characterId: row.id,
          characterName: row.name,
        });
      }
    }
  }
  return found;
}

/**
 * The aspect an action names: by reference (from a select), or by name, preferring the
 * acting character's own, then the scene's, then anyone's.
 */
export async function findTableAspect(
  tx: Tx,
  tableId: number,
  nameOrRef: string,
  preferCharacterId: number | null = null,
): Promise<TableAspect> {
  const all = await tableAspects(tx, tableId);
  const byRef = all.find((a) => a.ref === nameOrRef);
  if (byRef) return byRef;
  const named = all.filter(
    (a) => sameAspectName(a.aspect.name, nameOrRef) || nameKey(a.aspect.name) === nameKey(nameOrRef),
  );
  const pick =
    named.find((a) => preferCharacterId !== null && a.characterId === preferCharacterId) ??
    named.find((a) => a.characterId === null) ??
    named[0];
  if (!pick) refuse("errors.fate.unknownAspect", { name: nameOrRef.slice(0, 40) });
  return pick;
}

/** Writes an aspect changed by an invoke back where it lives; null removes it (a spent boost). */
export async function saveTableAspect(tx: Tx, found: TableAspect, after: Aspect | null): Promise<void> {
  if (found.ref.startsWith("a")) {
    const id = Number(found.ref.slice(1));
    // Sent with the COMMIT (or before the next statement, which then sees it).
    if (after) {
      await tx.later`
        UPDATE aspect SET free_invokes = ${after.freeInvokes.length},
          free_invoke_holders = ${holdersJson(after.freeInvokes)}::jsonb
        WHERE id = ${id}`;
    } else {
      await tx.later`UPDATE aspect SET removed_at = ${new Date()}, free_invokes = 0 WHERE id = ${id}`;
    }
    return;
  }
  const [characterPart, slotId] = found.ref.slice(1).split(".") as [string, ConsequenceSlotId];
  const row = await characters.characterById(tx, Number(characterPart));
  if (!row) throw new Error(`character ${characterPart} not found`);
  const character = fateCharacter(row);
  const consequences = character.consequences.map((s) =>
    s.id === slotId ? { ...s, aspect: after ?? s.aspect } : s,
  );
  await saveFateCharacter(tx, row, { ...character, consequences });
}

/** A Fate check in the `flow` table (kind `fate.check`): the rules' check plus who and what it is about. */
export interface CheckFlowState {
  check: import("../../rules/fate/check.js").FateCheck;
  rollerId: number;
  rollerName: string;
  /** Attack: the character attacked. */
  targetId: number | null;
  targetName: string | null;
  /** Create an advantage: the aspect's name, and whether it was already in play. */
  aspect: string | null;
  existingAspect: boolean;
  advantageDone: boolean;
  /** An attack without a difficulty waits for the target's defence roll. */
  awaitingDefence: boolean;
  /** Attack ↔ defence: the other check's flow. */
  linkFlowId: number | null;
  /** The hit, once applied to the target (0: settled without a hit). */
  hitApplied: number | null;
  /** Attack with style: the attacker took a boost for one shift of the hit. */
  tradedForBoost: boolean;
  /** A contest roll belongs to this contest flow. */
  contestFlowId: number | null;
}
