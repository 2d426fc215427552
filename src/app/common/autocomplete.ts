import { sqlFor } from "../../store/db.js";
import { nameKey } from "../names.js";
import type { AutocompleteSource } from "../use-case.js";

/** Character names at the channel's table (names are public; nothing secret is listed). */
export const characterNames: AutocompleteSource = {
  name: "character",
  async choices({ db, table, query }) {
    if (!table) return [];
    const key = nameKey(query);
    // strpos: a plain substring test, so `%` or `_` typed by the user match only themselves.
    const characters = await sqlFor(db).rows<{ name: string }>`
      SELECT name FROM "character"
      WHERE table_id = ${table.id} AND deleted_at IS NULL AND strpos(name_key, ${key}) > 0
      ORDER BY name LIMIT 25`;
    return characters.map((c) => ({ name: c.name, value: c.name }));
  },
};
