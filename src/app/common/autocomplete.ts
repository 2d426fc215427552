import { liveCharacterNamesContaining } from "../../store/characters.js";
import { nameKey } from "../names.js";
import type { AutocompleteSource } from "../use-case.js";

/** Character names at the channel's table (names are public; nothing secret is listed). */
export const characterNames: AutocompleteSource = {
  name: "character",
  async choices({ db, table, query }) {
    if (!table) return [];
    const names = await liveCharacterNamesContaining(db, table.id, nameKey(query), 25);
    return names.map((name) => ({ name, value: name }));
  },
};
