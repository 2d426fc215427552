import type { Intent } from "../intent.js";
import { defineUseCase, type UseCase, type UseCaseSpec } from "../use-case.js";

type FateUseCaseSpec<I extends Intent> = Omit<
  UseCaseSpec<I, "required">,
  "systems" | "table" | "mutates" | "ephemeral"
> &
  Partial<Pick<UseCaseSpec<I, "required">, "mutates" | "ephemeral">>;

/**
 * A Fate use case: it serves Fate tables only and needs the channel's table (`ctx.table` is
 * always there). Most Fate actions change the table and answer in public, so that is the
 * default: a use case says `mutates: false` (it only reads) or `ephemeral: true` (only the
 * actor sees the answer) when it differs, and otherwise reads as its rule.
 */
export function defineFateUseCase<I extends Intent>(spec: FateUseCaseSpec<I>): UseCase<I> {
  return defineUseCase<I, "required">({
    mutates: true,
    ephemeral: false,
    ...spec,
    systems: ["fate"],
    table: "required",
  });
}
