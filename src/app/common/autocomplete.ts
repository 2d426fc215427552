import { nameKey } from "../names.js";
import type { AutocompleteSource } from "../use-case.js";

/** Character names at the channel's table (names are public; nothing secret is listed). */
export const characterNames: AutocompleteSource = {
  name: "character",
  async choices({ db, table, query }) {
    if (!table) return [];
    const key = nameKey(query);
    const characters = await db.character.findMany({
      where: { tableId: table.id, deletedAt: null, ...(key ? { nameKey: { contains: key } } : {}) },
      orderBy: { name: "asc" },
      take: 25,
      select: { name: true },
    });
    return characters.map((c) => ({ name: c.name, value: c.name }));
  },
};
