/**
 * How a common command's use case is written: its intent type (the catalogue's key, which gives
 * its schema), how it runs (who may, whether it changes anything, whether its answer is private)
 * and its rule as `run`. Whether it needs the channel's table is said by which of the two it is.
 */
import type { GameTable } from "../../generated/prisma/client.js";
import {
  type Access,
  type ActionContext,
  type ActionResult,
  type CatalogueIntent,
  catalogueUseCase,
  type UseCase,
} from "../use-case.js";
import { commonIntents } from "./intents.js";

export type CommonIntentType = keyof typeof commonIntents;
/** An intent of the catalogue as its use case reads it (validated). */
export type CommonIntent<T extends CommonIntentType> = CatalogueIntent<typeof commonIntents, T>;

/**
 * How a use case runs: `mutates` — in one transaction with the table row locked
 * (docs/ARCHITECTURE.md); `ephemeral` — the answer is only for whoever acted (or, per intent,
 * when the user asked for a secret or private one).
 */
export interface HowItRuns<T extends CommonIntentType> {
  mutates: boolean;
  ephemeral: boolean | ((intent: CommonIntent<T>) => boolean);
}

/**
 * An action on the channel's table: refused with "no table here" without one, then with "GM only"
 * (or "GM or admin") when `access` says so; `run` gets the table.
 */
export function tableUseCase<T extends CommonIntentType>(
  type: T,
  how: HowItRuns<T> & { access?: Access },
  run: (ctx: ActionContext<CommonIntent<T>, "required">, table: GameTable) => Promise<ActionResult>,
): UseCase<CommonIntent<T>> {
  return catalogueUseCase(commonIntents, type, {
    table: "required",
    ...how,
    run: (ctx) => run(ctx, ctx.table),
  });
}

/**
 * An action in any channel (dice, help, saved rolls, setting up or importing a table): the
 * channel's table, if it has one, is `ctx.table`.
 */
export function channelUseCase<T extends CommonIntentType>(
  type: T,
  how: HowItRuns<T>,
  run: (ctx: ActionContext<CommonIntent<T>, "optional">) => Promise<ActionResult>,
): UseCase<CommonIntent<T>> {
  return catalogueUseCase(commonIntents, type, { table: "optional", ...how, run });
}
