import { liveTableCharactersRead } from "../../store/characters.js";
import { openFlowsRead } from "../flows.js";
import type { AutocompleteSource, SystemHooks, UseCase } from "../use-case.js";
import { mwAutocompleteSources } from "./autocomplete.js";
import { chapterUseCases } from "./chapter.js";
import { conflictUseCases } from "./conflict.js";
import { conflictDamageUseCases } from "./conflict-damage.js";
import { conflictRoundUseCases } from "./conflict-round.js";
import { damageUseCases } from "./damage.js";
import { duelUseCases } from "./duel.js";
import { fateUseCases } from "./fates.js";
import { conflictFlow, duelFlow, trustRoundFlow } from "./flow-states.js";
import { activeDamageRead, trustLinksRead } from "./shared.js";
import { hooks as sheetHooks, sheetUseCases } from "./sheet.js";
import { trustUseCases } from "./trust.js";

// biome-ignore lint/suspicious/noExplicitAny: each use case has its own intent type
export const useCases: UseCase<any>[] = [
  ...conflictUseCases,
  ...conflictRoundUseCases,
  ...conflictDamageUseCases,
  ...duelUseCases,
  ...chapterUseCases,
  ...trustUseCases,
  ...fateUseCases,
  ...damageUseCases,
  ...sheetUseCases,
];
export const autocompleteSources: AutocompleteSource[] = mwAutocompleteSources;
export const hooks: SystemHooks = {
  ...sheetHooks,
  // Conflict, duel and trust-round actions load their flow first; most actions look up the table's
  // characters (by name, the matrix's names) and its trust matrix; panels and dice, its damage.
  openingReads: [
    openFlowsRead(conflictFlow, duelFlow, trustRoundFlow),
    liveTableCharactersRead,
    trustLinksRead,
    activeDamageRead,
  ],
};
