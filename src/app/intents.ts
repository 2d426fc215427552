/**
 * Every intent the bot knows, from the areas' catalogues: what a view's buttons, selects and forms
 * may carry. A misspelled type, a missing field or a field of the wrong type fails to compile.
 */
import type { bhIntents } from "./beast-hunters/intents.js";
import type { commonIntents } from "./common/intents.js";
import type { fateIntents } from "./fate/intents.js";
import type { IntentsOf } from "./intent.js";
import type { mwIntents } from "./mountain-witch/intents.js";

/** An intent as a button carries it: whole. */
export type KnownIntent =
  | IntentsOf<typeof commonIntents>
  | IntentsOf<typeof mwIntents>
  | IntentsOf<typeof bhIntents>
  | IntentsOf<typeof fateIntents>;

/** An intent a select or a form completes (the chosen value or the typed text fills a field). */
export type PartialKnownIntent = KnownIntent extends infer C
  ? C extends { type: infer T }
    ? { type: T } & Partial<C>
    : never
  : never;
