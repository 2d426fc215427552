/**
 * Every intent the bot knows, from the areas' catalogues: what a view's buttons, selects and forms
 * may carry. A misspelled type, a missing field or a field of the wrong type fails to compile.
 */
import type { BhPendingIntentTypes, bhIntents } from "./beast-hunters/intents.js";
import type { CommonPendingIntentTypes, commonIntents } from "./common/intents.js";
import type { FatePendingIntentTypes, fateIntents } from "./fate/intents.js";
import type { Intent, IntentsOf } from "./intent.js";
import type { MwPendingIntentTypes, mwIntents } from "./mountain-witch/intents.js";

type Catalogued =
  | IntentsOf<typeof commonIntents>
  | IntentsOf<typeof mwIntents>
  | IntentsOf<typeof bhIntents>
  | IntentsOf<typeof fateIntents>;

/** Types whose schema is still written in the use case: checked by name only. */
type Pending = Intent & {
  type: CommonPendingIntentTypes | MwPendingIntentTypes | BhPendingIntentTypes | FatePendingIntentTypes;
};

/** An intent as a button carries it: whole. */
export type KnownIntent = Catalogued | Pending;

/** An intent a select or a form completes (the chosen value or the typed text fills a field). */
export type PartialKnownIntent =
  | (Catalogued extends infer C ? (C extends { type: infer T } ? { type: T } & Partial<C> : never) : never)
  | Pending;
