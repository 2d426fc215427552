/**
 * How a Mountain Witch use case is written: its intent type (the catalogue's key, which gives its
 * schema), how it answers, and its rule as `run`. What every one of them would otherwise repeat —
 * the game, the channel's table, the transaction, the answer's visibility — is said once here.
 */
import type { z } from "zod";
import {
  type Access,
  type ActionContext,
  type ActionResult,
  type CatalogueIntent,
  catalogueUseCase,
  defineUseCase,
  type UseCase,
} from "../use-case.js";
import { mwIntents } from "./intents.js";

const SYSTEMS = ["mountain-witch"] as const;

type MwIntentType = keyof typeof mwIntents;
/** The intent a catalogue key names, as its use case receives it (validated). */
export type MwIntent<T extends MwIntentType> = CatalogueIntent<typeof mwIntents, T>;

/**
 * How an action answers and whether it changes anything: a "change" runs in one transaction with
 * the table row locked (docs/ARCHITECTURE.md); a "public" answer goes to the channel, a "private"
 * one only to whoever acted.
 */
export type Answer = "public change" | "public read" | "private change" | "private read";

function answerSpec(answer: Answer) {
  return { mutates: answer.endsWith("change"), ephemeral: answer.startsWith("private") };
}

type TableRun<T extends MwIntentType> = (
  ctx: ActionContext<MwIntent<T>, "required">,
) => Promise<ActionResult>;

function atTable<T extends MwIntentType>(type: T, answer: Answer, run: TableRun<T>, access?: Access) {
  return catalogueUseCase(mwIntents, type, {
    systems: SYSTEMS,
    table: "required",
    ...(access ? { access } : {}),
    ...answerSpec(answer),
    run,
  });
}

/** An action at the channel's Mountain Witch table: the table is there (`ctx.table`) when `run` starts. */
export function mwAction<T extends MwIntentType>(
  type: T,
  answer: Answer,
  run: TableRun<T>,
): UseCase<MwIntent<T>> {
  return atTable(type, answer, run);
}

/** An action only the table's GM may take (checked before `run`, refused with `errors.gmOnly`). */
export function gmAction<T extends MwIntentType>(
  type: T,
  answer: Answer,
  run: TableRun<T>,
): UseCase<MwIntent<T>> {
  return atTable(type, answer, run, "gm");
}

/**
 * An action a player may also take in the bot's DMs, where there is no channel table: `run`
 * finds the table itself (from the intent, or the player's only Mountain Witch table) and checks it.
 * In a channel, `ctx.table` is the channel's table, whatever its game (locked, for a mutation).
 */
export function dmAction<T extends MwIntentType>(
  type: T,
  answer: Answer,
  run: (ctx: ActionContext<MwIntent<T>, "optional">) => Promise<ActionResult>,
  schema: z.ZodType<MwIntent<T>> = mwIntents[type] as unknown as z.ZodType<MwIntent<T>>,
): UseCase<MwIntent<T>> {
  return defineUseCase<MwIntent<T>, "optional">({ schema, table: "optional", ...answerSpec(answer), run });
}
