import { z } from "zod";
import { t } from "../../i18n/index.js";
import {
  type DiceRollResult,
  type DiceTermRoll,
  parseDiceExpression,
  rollDiceExpression,
} from "../../rules/dice-expression.js";
import { AlreadyProcessed } from "../execute.js";
import { recordOnce } from "../log.js";
import { cleanText } from "../names.js";
import { defineUseCase, type Effect } from "../use-case.js";

/** `4d6kh3: [6, 5, ~~2~~, 4] = 15`, Fate dice as `[+ − 0 0]`. */
function formatTerm(term: DiceTermRoll): string {
  const faces = term.dice.map((d) => {
    const shown = d.fateSymbol ?? String(d.face);
    return d.kept ? shown : `~~${shown}~~`;
  });
  const raw = term.reading === "plain" ? "" : ` (${term.dice.map((d) => d.face).join(" ")})`;
  return `${term.notation} [${faces.join(", ")}]${raw}`;
}

export function formatRoll(result: DiceRollResult): string[] {
  return result.rolls.map((roll, index) => {
    const parts = roll.terms.map((term, i) => {
      const sign = term.sign < 0 ? "− " : i > 0 ? "+ " : "";
      return `${sign}${term.kind === "dice" ? formatTerm(term) : term.notation.replace(/^[+-]/, "")}`;
    });
    const prefix = result.rolls.length > 1 ? `#${index + 1}: ` : "";
    return `${prefix}${parts.join(" ")} = **${roll.total}**`;
  });
}

export const roll = defineUseCase({
  type: "roll",
  schema: z.object({
    type: z.literal("roll"),
    expression: z.string().max(400),
    secret: z.boolean().optional(),
    reason: z.string().max(400).optional(),
    gmCopy: z.boolean().optional(),
  }),
  table: "optional",
  // A roll changes nothing but the log: it records itself in one statement (recordOnce), atomic
  // and idempotent without a transaction or the table lock — the most frequent command, made cheap.
  mutates: false,
  ephemeral: (intent) => intent.secret === true,
  async run(ctx) {
    const fateTable = ctx.table?.system === "fate";
    const expression = parseDiceExpression(ctx.intent.expression, { fateTable });
    const reason = ctx.intent.reason ? cleanText(ctx.intent.reason, 200) : undefined;
    const result = rollDiceExpression(expression, ctx.dice);
    const secret = ctx.intent.secret === true;
    const lines = formatRoll(result);
    const totals = result.rolls.map((r) => r.total);
    const entry = {
      action: secret ? "roll.secret" : "roll",
      summary: {
        key: secret ? "log.roll.secret" : "log.roll",
        params: { expression: result.expression, total: totals.join(", ") },
      },
      dice: result,
      reason: reason ?? null,
      visibleTo: secret ? ctx.actor.userId : null,
    };
    const log = ctx.table ? { tableId: ctx.table.id, actorUserId: ctx.actor.userId, entry } : null;
    if (!(await recordOnce(ctx.db, ctx.invocation.interactionId, log))) throw new AlreadyProcessed();
    const title = t(ctx.lang, secret ? "roll.titleSecret" : "roll.title", {
      who: ctx.actor.displayName,
      expression: result.expression,
    });
    const effects: Effect[] = [];
    if (secret && ctx.intent.gmCopy && ctx.table && ctx.table.gmUserId !== ctx.actor.userId) {
      effects.push({
        kind: "dm",
        userId: ctx.table.gmUserId,
        view: {
          embeds: [
            {
              title: t(ctx.lang, "roll.gmCopyTitle", {
                who: ctx.actor.displayName,
                expression: result.expression,
              }),
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
            description: lines.join("\n") + (reason ? `\n${t(ctx.lang, "roll.reason", { reason })}` : ""),
            footer: secret
              ? t(ctx.lang, ctx.intent.gmCopy ? "roll.secretFooterGm" : "roll.secretFooter")
              : undefined,
            tone: secret ? "secret" : "neutral",
          },
        ],
      },
      effects,
    };
  },
});
