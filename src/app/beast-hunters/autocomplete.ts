import type { GameTable } from "../../generated/prisma/client.js";
import { ownedCharacters } from "../../store/characters.js";
import type { Db } from "../../store/db.js";
import { findOpenFlow } from "../flows.js";
import { nameKey } from "../names.js";
import type { Actor, AutocompleteSource } from "../use-case.js";
import { challengeFlow } from "./flow-states.js";
import { hunterSheet } from "./sheets.js";

/** Nothing in Beast Hunters is secret: traits, resources, tasks and names are all on the table. */
async function openChallenge(db: Db, table: GameTable | null) {
  if (table?.system !== "beast-hunters") return null;
  return (await findOpenFlow(db, challengeFlow, table.id))?.state.challenge ?? null;
}

function matching(names: string[], query: string) {
  const key = nameKey(query);
  return [...new Set(names)]
    .filter((n) => !key || nameKey(n).includes(key))
    .slice(0, 25)
    .map((n) => ({ name: n.slice(0, 100), value: n.slice(0, 100) }));
}

async function ownSheets(db: Db, table: GameTable, actor: Actor) {
  const own = await ownedCharacters(db, table.id, actor.userId);
  return own.map(hunterSheet);
}

export const traitNames: AutocompleteSource = {
  name: "bh-trait",
  async choices({ db, table, actor, query }) {
    if (!table) return [];
    const state = await openChallenge(db, table);
    if (state) {
      // The GM's side, or the player's own hunters: another hunter's traits are theirs to name.
      const own = new Set((await ownedCharacters(db, table.id, actor.userId)).map((c) => String(c.id)));
      const mine = state.participants.filter((p) =>
        table.gmUserId === actor.userId ? p.side === "gm" : own.has(p.id),
      );
      return matching(
        mine.flatMap((p) => p.traits.map((tr) => tr.name)),
        query,
      );
    }
    return matching(
      (await ownSheets(db, table, actor)).flatMap((s) => s.traits.map((tr) => tr.name)),
      query,
    );
  },
};

export const resourceNames: AutocompleteSource = {
  name: "bh-resource",
  async choices({ db, table, actor, query }) {
    if (!table) return [];
    const state = await openChallenge(db, table);
    if (state)
      return matching(
        state.participants.flatMap((p) => p.resources.map((r) => r.name)),
        query,
      );
    return matching(
      (await ownSheets(db, table, actor)).flatMap((s) => s.resources.map((r) => r.name)),
      query,
    );
  },
};

export const taskNames: AutocompleteSource = {
  name: "bh-task",
  async choices({ db, table, query }) {
    const state = await openChallenge(db, table);
    return matching(state?.tasks.filter((task) => !task.result).map((task) => task.name) ?? [], query);
  },
};

export const targetNames: AutocompleteSource = {
  name: "bh-target",
  async choices({ db, table, query }) {
    const state = await openChallenge(db, table);
    return matching(state?.participants.map((p) => p.name) ?? [], query);
  },
};
