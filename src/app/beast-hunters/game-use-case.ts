import type { z } from "zod";
import type { GameTable } from "../../generated/prisma/client.js";
import type { Intent } from "../intent.js";
import {
  type Access,
  type ActionContext,
  type ActionResult,
  defineUseCase,
  type UseCase,
} from "../use-case.js";

/** Every use case of this game is for Beast Hunters tables. */
export const SYSTEMS = ["beast-hunters"] as const;

/**
 * A Beast Hunters use case: every one of them runs at the channel's table (`table: "required"`),
 * for this game's tables only, and `run` gets that table; the rest is as `defineUseCase` takes it.
 */
export function defineBhUseCase<I extends Intent>(spec: {
  schema: z.ZodType<I>;
  access?: Access;
  mutates: boolean;
  ephemeral: boolean;
  run(ctx: ActionContext<I, "required">, table: GameTable): Promise<ActionResult>;
}): UseCase<I> {
  return defineUseCase<I, "required">({
    ...spec,
    systems: SYSTEMS,
    table: "required",
    run: (ctx) => spec.run(ctx, ctx.table),
  });
}
