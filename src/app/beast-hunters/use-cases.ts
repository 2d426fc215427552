/**
 * How a Beast Hunters use case is written: its intent type (the catalogue's key, which gives its
 * schema), how it runs (who may, whether it changes anything, whether its answer is private) and
 * its rule as `run`. What every one of them would otherwise repeat — the game, the channel's table —
 * is said once here.
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
import { bhIntents } from "./intents.js";

/** Every use case of this game is for Beast Hunters tables. */
export const SYSTEMS = ["beast-hunters"] as const;

export type BhIntentType = keyof typeof bhIntents;
/** An intent of this game's catalogue as its use case reads it (after its schema's defaults and transforms). */
export type BhIntent<T extends BhIntentType> = CatalogueIntent<typeof bhIntents, T>;

/** How a use case runs: who may (checked first), whether it changes anything, whether its answer is private. */
export interface BhUseCaseOptions {
  access?: Access;
  mutates: boolean;
  ephemeral: boolean;
}

/**
 * A Beast Hunters use case for the intent `type` of the catalogue (its schema): every one of them
 * runs at the channel's table (`table: "required"`), for this game's tables only, and `run` gets
 * that table.
 */
export function defineBhUseCase<T extends BhIntentType>(
  type: T,
  options: BhUseCaseOptions,
  run: (ctx: ActionContext<BhIntent<T>, "required">, table: GameTable) => Promise<ActionResult>,
): UseCase<BhIntent<T>> {
  return catalogueUseCase(bhIntents, type, {
    systems: SYSTEMS,
    table: "required",
    ...options,
    run: (ctx) => run(ctx, ctx.table),
  });
}
