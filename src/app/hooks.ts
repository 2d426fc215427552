import * as beastHunters from "./beast-hunters/index.js";
import * as fate from "./fate/index.js";
import * as mountainWitch from "./mountain-witch/index.js";
import type { SystemHooks } from "./use-case.js";

const BY_SYSTEM: Record<string, SystemHooks> = {
  "mountain-witch": mountainWitch.hooks,
  "beast-hunters": beastHunters.hooks,
  fate: fate.hooks,
};

export function hooksFor(system: string): SystemHooks {
  return BY_SYSTEM[system] ?? {};
}
