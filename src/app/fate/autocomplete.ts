import { suggestSkills } from "../../rules/fate/skills.js";
import { nameKey } from "../names.js";
import type { AutocompleteSource } from "../use-case.js";
import { factionsOf, factionTableAspects } from "./faction.js";
import { tableAspects } from "./state.js";

/** Skills by prefix in the user's language (the value is the English key). */
export const skillSource: AutocompleteSource = {
  name: "fate-skill",
  async choices({ userLang: lang, query }) {
    return suggestSkills(query, lang).map((s) => ({ name: s.name, value: s.key }));
  },
};

/** Aspects at the table: the scene's, the characters', named consequences (all public). */
export const aspectSource: AutocompleteSource = {
  name: "fate-aspect",
  async choices({ db, table, query }) {
    if (!table) return [];
    const wanted = nameKey(query);
    const names = [
      ...new Set([
        ...(await tableAspects(db, table.id)).map((a) => a.aspect.name),
        // Faction aspects can be invoked and compelled too (docs/rules/fate.md §3.5).
        ...factionTableAspects(table).map((a) => a.aspect.name),
      ]),
    ];
    const starts = names.filter((n) => nameKey(n).startsWith(wanted));
    const contains = names.filter((n) => !starts.includes(n) && nameKey(n).includes(wanted));
    return [...starts, ...contains]
      .slice(0, 25)
      .map((n) => ({ name: n.slice(0, 100), value: n.slice(0, 100) }));
  },
};

/** The table's factions by prefix (public names). */
export const factionSource: AutocompleteSource = {
  name: "fate-faction",
  async choices({ table, query }) {
    if (!table) return [];
    const wanted = nameKey(query);
    const names = factionsOf(table).map((f) => f.name);
    const starts = names.filter((n) => nameKey(n).startsWith(wanted));
    const contains = names.filter((n) => !starts.includes(n) && nameKey(n).includes(wanted));
    return [...starts, ...contains]
      .slice(0, 25)
      .map((n) => ({ name: n.slice(0, 100), value: n.slice(0, 100) }));
  },
};
