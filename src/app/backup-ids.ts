/**
 * Ids inside a table backup. A backup numbers every character, damage entry, aspect, flow, log
 * entry and die row of its table 1, 2, 3… in the order they were made, so a restored table
 * exported again gives the same file. The same renumbering reaches into JSON values (flow
 * states, the table's state, log before/after): a number under a key naming an id is mapped by
 * what the key names — `…flowId` (or `negotiationId`, `challengeId`, …: a flow's kind) a flow, `…damageId(s)` a damage entry, `…aspectId(s)` an
 * aspect, `tableId` the table, and any other `…Id`/`…Ids` a character when it is one of the
 * table's. Anything else is left as it is.
 */

export type IdKind = "character" | "flow" | "damage" | "aspect" | "table";
export type IdMaps = Record<IdKind, ReadonlyMap<number, number>>;

/** Keys ending in Id/Ids that never hold one of the table's row ids. */
const NOT_ROW_IDS = new Set(["pairingId", "interactionId", "messageId", "userId", "channelId", "guildId"]);

export function idKindOfKey(key: string): IdKind | null {
  if (!/(^id|Id)s?$/.test(key) || key === "id" || key === "ids" || NOT_ROW_IDS.has(key)) return null;
  if (/(^f|F)lowIds?$|(negotiation|challenge|contest|check|conflict|compel|duel|round)Ids?$/i.test(key)) {
    return "flow";
  }
  if (/(^d|D)amageIds?$/.test(key)) return "damage";
  if (/(^a|A)spectIds?$/.test(key)) return "aspect";
  if (key === "tableId") return "table";
  return "character";
}

function mapOne(maps: IdMaps, kind: IdKind, value: unknown): unknown {
  if (typeof value !== "number") return value;
  return maps[kind].get(value) ?? value;
}

/** A copy of `value` with every id the backup numbers mapped (see the module comment). */
export function remapIds(value: unknown, maps: IdMaps): unknown {
  if (Array.isArray(value)) return value.map((v) => remapIds(v, maps));
  if (typeof value !== "object" || value === null) return value;
  // Built from entries, so a key such as "__proto__" in a file stays a plain key (never a prototype).
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      const kind = idKindOfKey(key);
      if (kind && typeof v === "number") return [key, mapOne(maps, kind, v)];
      if (kind && Array.isArray(v) && v.every((x) => typeof x === "number"))
        return [key, v.map((x) => mapOne(maps, kind, x))];
      return [key, remapIds(v, maps)];
    }),
  );
}
