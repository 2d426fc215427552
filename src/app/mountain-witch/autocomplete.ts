/** Autocomplete for Mountain Witch options. Never lists a secret: names, ids and public damage only. */
import { t } from "../../i18n/index.js";
import type { ConflictState } from "../../rules/mountain-witch/index.js";
import { nameKey } from "../names.js";
import type { AutocompleteSource } from "../use-case.js";
import { participantName } from "./conflict-view.js";

/** Everyone in the table's open conflicts, obstacles that exist only there included. */
export const conflictParticipants: AutocompleteSource = {
  name: "mw-participant",
  async choices({ db, table, lang, query }) {
    if (!table) return [];
    const flows = await db.flow.findMany({
      where: { tableId: table.id, kind: "mw.conflict", status: "open" },
      orderBy: { id: "desc" },
    });
    const key = nameKey(query);
    const names = new Set<string>();
    for (const f of flows)
      for (const p of (f.state as unknown as ConflictState).participants) names.add(participantName(lang, p));
    return [...names]
      .filter((n) => !key || nameKey(n).includes(key))
      .slice(0, 25)
      .map((n) => ({ name: n, value: n }));
  },
};

/** Tables where the user plays a character (for `/trust set` in DMs). */
export const trustTables: AutocompleteSource = {
  name: "mw-table",
  async choices({ db, actor, lang }) {
    const mine = await db.character.findMany({
      where: {
        ownerUserId: actor.userId,
        kind: "pc",
        deletedAt: null,
        table: { status: "active", system: "mountain-witch" },
      },
      select: { name: true, tableId: true },
      orderBy: { tableId: "asc" },
    });
    return mine.slice(0, 25).map((c) => ({
      name: t(lang, "mw.trust.tableChoice", { id: c.tableId, name: c.name }),
      value: String(c.tableId),
    }));
  },
};

/** Player characters at the table (or the DM-chosen table), for trust targets. */
export const trustTargets: AutocompleteSource = {
  name: "mw-trust-target",
  async choices({ db, table, query, options }) {
    const tableId = options.table !== undefined ? Number(options.table) : table?.id;
    if (!tableId || !Number.isInteger(tableId)) return [];
    const key = nameKey(query);
    const characters = await db.character.findMany({
      where: { tableId, kind: "pc", deletedAt: null, ...(key ? { nameKey: { contains: key } } : {}) },
      select: { name: true },
      orderBy: { name: "asc" },
      take: 25,
    });
    return characters.map((c) => ({ name: c.name, value: c.name }));
  },
};

/** A character's active damage entries (public on the sheet anyway). */
export const damageEntries: AutocompleteSource = {
  name: "mw-damage-entry",
  async choices({ db, table, lang, options }) {
    if (!table || typeof options.character !== "string") return [];
    const character = await db.character.findFirst({
      where: { tableId: table.id, nameKey: nameKey(options.character), deletedAt: null },
    });
    if (!character) return [];
    const entries = await db.damageEntry.findMany({
      where: { characterId: character.id, clearedAt: null },
      orderBy: { id: "asc" },
      take: 25,
    });
    return entries.map((e) => ({
      name: `#${e.id} ${e.ability ? e.ability : "−1"} · ${t(lang, `mw.durationShort.${e.duration}`)}${e.condition ? ` (${e.condition})` : ""}`,
      value: String(e.id),
    }));
  },
};

export const mwAutocompleteSources = [conflictParticipants, trustTables, trustTargets, damageEntries];
