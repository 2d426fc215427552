import type { Messages } from "../../types.js";
import beastHunters from "./beast-hunters.js";
import common from "./common.js";
import dice from "./dice.js";
import fate from "./fate.js";
import mountainWitch from "./mountain-witch.js";
import web from "./web.js";

export default { ...common, ...mountainWitch, ...beastHunters, ...fate, ...dice, ...web } satisfies Messages;
