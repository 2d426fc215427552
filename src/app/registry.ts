import * as beastHunters from "./beast-hunters/index.js";
import * as common from "./common/index.js";
import { UseCaseRegistry } from "./execute.js";
import * as fate from "./fate/index.js";
import * as mountainWitch from "./mountain-witch/index.js";
import type { AutocompleteSource } from "./use-case.js";

const areas = [common, mountainWitch, beastHunters, fate];

/** Every use case of every game: the router's only way into the app. */
export function createRegistry(): UseCaseRegistry {
  return new UseCaseRegistry(areas.flatMap((a) => a.useCases));
}

export const autocompleteSources: AutocompleteSource[] = areas.flatMap((a) => a.autocompleteSources);
