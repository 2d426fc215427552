import * as beastHunters from "./beast-hunters/index.js";
import * as fate from "./fate/index.js";
import * as mountainWitch from "./mountain-witch/index.js";
import type { SystemHooks } from "./use-case.js";

/**
 * Read at call time, not at load time: game modules may import common modules that import
 * this one, and a table built during that import cycle would see their hooks undefined.
 */
export function hooksFor(system: string): SystemHooks {
  switch (system) {
    case "mountain-witch":
      return mountainWitch.hooks;
    case "beast-hunters":
      return beastHunters.hooks;
    case "fate":
      return fate.hooks;
    default:
      return {};
  }
}
