import { t } from "../../i18n/index.js";
import {
  type DiceRollResult,
  parseDiceExpression,
  type RolledDie,
  rollDiceExpression,
  type TermRoll,
} from "../../rules/dice-expression.js";
import { takeRolledDice } from "../dice-record.js";
import { AlreadyProcessed } from "../execute.js";
import { languageOf } from "../languages.js";
import { recordOnce } from "../log.js";
import { cleanText } from "../names.js";
import type { ActionContext, ActionResult, Effect } from "../use-case.js";
import { channelUseCase } from "./use-cases.js";

/**
 * One die as shown: dropped or rerolled dice struck through, an explosion's extra dice marked `!`,
 * with success counting a success in bold and a failure marked ✗.
 */
function formatDie(die: RolledDie): string {
  let shown = die.fateSymbol ?? String(die.face);
  if (die.counts === 1) shown = `**${shown}**`;
  if (die.counts === -1) shown = `${shown}✗`;
  if (die.exploded) shown = `!${shown}`;
  return die.kept ? shown : `~~${shown}~~`;
}

/** `4d6kh3 [6, 5, ~~2~~, 4]`, Fate dice as `[+ − 0 0] (1 2 3 3)`, `(1d6 [4] + 2)`. */
function formatTerm(term: TermRoll): string {
  switch (term.kind) {
    case "constant":
      return term.notation;
    case "dice": {
      const faces = term.dice.map(formatDie);
      const raw = term.reading === "plain" ? "" : ` (${term.dice.map((d) => d.face).join(" ")})`;
      return `${term.notation} [${faces.join(", ")}]${raw}`;
    }
    case "group":
      return `(${formatSum(term.terms)})`;
    case "product":
      return term.factors
        .map((f, i) => (i === 0 ? "" : ` ${term.ops[i - 1] === "*" ? "×" : "÷"} `) + formatTerm(f))
        .join("");
  }
}

function formatSum(terms: readonly TermRoll[]): string {
  return terms.map((term, i) => `${term.sign < 0 ? "− " : i > 0 ? "+ " : ""}${formatTerm(term)}`).join(" ");
}

export function formatRoll(result: DiceRollResult): string[] {
  return result.rolls.map((roll, index) => {
    const prefix = result.rolls.length > 1 ? `#${index + 1}: ` : "";
    // A negative total with a true minus sign (−1), as the Fate ladder prints it.
    const total = roll.total < 0 ? `−${-roll.total}` : String(roll.total);
    return `${prefix}${formatSum(roll.terms)} = **${total}**`;
  });
}

export interface RollRequest {
  /** The expression as typed, label included (macros: with sheet values already filled in). */
  expression: string;
  secret: boolean;
  gmCopy: boolean;
  reason?: string;
}

/**
 * Rolls an expression for the actor, records it (once per interaction) and builds the answer:
 * `/roll` and `/macro roll` share it. A secret roll is answered ephemerally and logged visible to
 * the roller alone; with gmCopy the GM gets it by DM.
 */
export async function performRoll(ctx: ActionContext, request: RollRequest): Promise<ActionResult> {
  const fateTable = ctx.table?.system === "fate";
  const expression = parseDiceExpression(request.expression, { fateTable });
  const reason = request.reason ? cleanText(request.reason, 200) : undefined;
  const result = rollDiceExpression(expression, ctx.dice);
  const { secret } = request;
  const lang = secret ? ctx.userLang : ctx.publicLang;
  const lines = formatRoll(result);
  const totals = result.rolls.map((r) => r.total);
  const note = [result.label, reason].filter(Boolean).join(" — ") || undefined;
  const entry = {
    action: secret ? "roll.secret" : "roll",
    summary: {
      key: secret ? ("log.roll.secret" as const) : ("log.roll" as const),
      params: { expression: result.expression, total: totals.join(", ") },
    },
    dice: result,
    reason: note ?? null,
    visibleTo: secret ? ctx.actor.userId : null,
  };
  const log = ctx.table
    ? { tableId: ctx.table.id, actorUserId: ctx.actor.userId, entry, dice: takeRolledDice(ctx.dice) }
    : null;
  if (!(await recordOnce(ctx.db, ctx.invocation.interactionId, log))) throw new AlreadyProcessed();
  const heading = (text: string) => (result.label ? `${text}: ${result.label}` : text);
  const title = heading(
    t(lang, secret ? "roll.titleSecret" : "roll.title", {
      who: ctx.actor.displayName,
      expression: result.expression,
    }),
  );
  const effects: Effect[] = [];
  if (secret && request.gmCopy && ctx.table && ctx.table.gmUserId !== ctx.actor.userId) {
    effects.push({
      kind: "dm",
      userId: ctx.table.gmUserId,
      view: {
        embeds: [
          {
            title: heading(
              t(await languageOf(ctx, ctx.table.gmUserId), "roll.gmCopyTitle", {
                who: ctx.actor.displayName,
                expression: result.expression,
              }),
            ),
            description: lines.join("\n") + (reason ? `\n_${reason}_` : ""),
            tone: "secret",
          },
        ],
      },
    });
  }
  return {
    reply: {
      ephemeral: secret,
      embeds: [
        {
          title: `🎲 ${title}`,
          description: lines.join("\n") + (reason ? `\n${t(lang, "roll.reason", { reason })}` : ""),
          footer: secret ? t(lang, request.gmCopy ? "roll.secretFooterGm" : "roll.secretFooter") : undefined,
          tone: secret ? "secret" : "neutral",
        },
      ],
    },
    effects,
  };
}

// A roll changes nothing but the log: it records itself in one statement (recordOnce), atomic and
// idempotent without a transaction or the table lock — the most frequent command, made cheap.
export const roll = channelUseCase(
  "roll",
  { mutates: false, ephemeral: (intent) => intent.secret === true },
  async (ctx) =>
    performRoll(ctx, {
      expression: ctx.intent.expression,
      secret: ctx.intent.secret === true,
      gmCopy: ctx.intent.gmCopy === true,
      reason: ctx.intent.reason,
    }),
);
