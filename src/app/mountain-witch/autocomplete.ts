/** Autocomplete for Mountain Witch options. Never lists a secret: names, ids and public damage only. */
import { familyKey, t } from "../../i18n/index.js";
import {
  livePlayerCharacterNamesContaining,
  ownedPlayerCharactersAtActiveTables,
} from "../../store/characters.js";
import { sqlFor } from "../../store/db.js";
import { isGm } from "../access.js";
import { openFlows } from "../flows.js";
import { nameKey } from "../names.js";
import type { AutocompleteSource } from "../use-case.js";
import { participantName } from "./conflict-view.js";
import { conflictFlow } from "./flow-states.js";

/** Everyone in the table's open conflicts, obstacles that exist only there included. */
export const conflictParticipants: AutocompleteSource = {
  name: "mw-participant",
  async choices({ db, table, userLang: lang, query }) {
    if (!table) return [];
    const flows = (await openFlows(db, conflictFlow, table.id)).reverse();
    const key = nameKey(query);
    const names = new Set<string>();
    for (const f of flows) for (const p of f.state.participants) names.add(participantName(lang, p));
    return [...names]
      .filter((n) => !key || nameKey(n).includes(key))
      .slice(0, 25)
      .map((n) => ({ name: n, value: n }));
  },
};

/** Tables where the user plays a character (for `/trust set` in DMs). */
export const trustTables: AutocompleteSource = {
  name: "mw-table",
  async choices({ db, actor, userLang: lang }) {
    const mine = await ownedPlayerCharactersAtActiveTables(db, actor.userId, "mountain-witch", 25);
    return mine.map((c) => ({
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
    const names = await livePlayerCharacterNamesContaining(db, tableId, key, 25);
    return names.map((name) => ({ name, value: name }));
  },
};

/** A character's active damage entries (public on the sheet anyway). */
export const damageEntries: AutocompleteSource = {
  name: "mw-damage-entry",
  async choices({ db, table, userLang: lang, options }) {
    if (!table || typeof options.character !== "string") return [];
    // The character by name and its entries in one statement (no character: no rows).
    const entries = await sqlFor(db).rows<{
      id: number;
      duration: string;
      ability: string | null;
      condition: string | null;
    }>`
      SELECT d.id, d.duration, d.ability, d.condition FROM damage_entry d
      JOIN "character" c ON c.id = d.character_id
      WHERE c.table_id = ${table.id} AND c.name_key = ${nameKey(options.character)} AND c.deleted_at IS NULL
        AND d.cleared_at IS NULL
      ORDER BY d.id LIMIT 25`;
    return entries.map((e) => ({
      name: `#${e.id} ${e.ability ? e.ability : "−1"} · ${t(lang, familyKey("mw.durationShort.", e.duration))}${e.condition ? ` (${e.condition})` : ""}`,
      value: String(e.id),
    }));
  },
};

/** One's own player characters (the GM: every player character), for `/darkfate reveal`. */
export const ownCharacters: AutocompleteSource = {
  name: "mw-own-character",
  async choices({ db, table, actor, query }) {
    if (!table) return [];
    const key = nameKey(query);
    const gm = isGm(table, actor);
    const rows = await sqlFor(db).rows<{ name: string }>`
      SELECT name FROM "character"
      WHERE table_id = ${table.id} AND kind = 'pc' AND deleted_at IS NULL AND strpos(name_key, ${key}) > 0
        AND (${gm} OR owner_user_id = ${actor.userId})
      ORDER BY name LIMIT 25`;
    return rows.map((r) => ({ name: r.name, value: r.name }));
  },
};

export const mwAutocompleteSources = [
  conflictParticipants,
  trustTables,
  trustTargets,
  damageEntries,
  ownCharacters,
];
