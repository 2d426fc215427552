import { type Lang, t } from "../../i18n/index.js";
import {
  type DiceExpression,
  type DiceRollResult,
  type FaceTest,
  parseDiceExpression,
  type ReadingNote,
  type RolledDie,
  readingOf,
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

/** A user's note shown in Markdown: its formatting characters escaped, so it reads as typed. */
const escapeMarkdown = (text: string) => text.replace(/[\\*_~`|>]/g, "\\$&");

/**
 * One die as shown: dropped or rerolled dice struck through, an explosion's extra dice marked `!`,
 * a compounded die as its faces added (`6+6+2`), a clamped or penetrating die as `face→value`,
 * with success counting a success in bold and a failure marked ✗.
 */
function formatDie(die: RolledDie, percentile = false): string {
  let shown =
    die.fateSymbol ??
    (percentile
      ? String(die.value)
      : die.compounded
        ? die.compounded.join("+")
        : die.value !== die.face
          ? `${die.face}→${die.value}`
          : String(die.face));
  if (die.counts === 1) shown = `**${shown}**`;
  if (die.counts === -1) shown = `${shown}✗`;
  if (die.exploded) shown = `!${shown}`;
  return die.kept ? shown : `~~${shown}~~`;
}

/**
 * `4d6kh3 [6, 5, ~~2~~, 4]`, Fate dice as `[+ − 0 0] (1 2 3 3)`, `(1d6 [4] + 2)`, a term's note after
 * it in italics. `compact` leaves the dice out (`100d6 […350]`), for rolls too long for one message.
 */
function formatTerm(term: TermRoll, compact: boolean): string {
  const note = term.note ? ` _${escapeMarkdown(term.note)}_` : "";
  switch (term.kind) {
    case "constant":
      return term.notation + note;
    case "dice": {
      if (compact) return `${term.notation} […${term.subtotal}]${note}`;
      const faces = term.dice.map((d) => formatDie(d));
      const raw = term.reading === "plain" ? "" : ` (${term.dice.map((d) => d.face).join(" ")})`;
      return `${term.notation} [${faces.join(", ")}]${raw}${note}`;
    }
    case "percentile":
      return `${term.notation} [${term.dice.map((d) => formatDie(d, true)).join(", ")}]${note}`;
    case "group":
      return `(${formatSum(term.terms, compact)})${note}`;
    case "set": {
      const members = term.members.map((m) => {
        let shown = `${formatSum(m.terms, compact)} → ${m.total}`;
        if (m.counts === 1) shown = `**${shown}**`;
        if (m.counts === -1) shown = `${shown}✗`;
        return m.kept ? shown : `~~${shown}~~`;
      });
      return `{${members.join("; ")}}${term.notation.slice(term.notation.lastIndexOf("}") + 1)}${note}`;
    }
    case "product":
      return (
        term.factors
          .map(
            (f, i) =>
              (i === 0 ? "" : ` ${term.ops[i - 1] === "*" ? "×" : term.ops[i - 1] === "/" ? "÷" : "%"} `) +
              formatTerm(f, compact),
          )
          .join("") + note
      );
  }
}

function formatSum(terms: readonly TermRoll[], compact: boolean): string {
  return terms
    .map((term, i) => `${term.sign < 0 ? "− " : i > 0 ? "+ " : ""}${formatTerm(term, compact)}`)
    .join(" ");
}

/** How much of each roll is shown: every die, each term's subtotal, or the total alone. */
type Detail = "dice" | "subtotals" | "totals";

export function formatRoll(result: DiceRollResult, detail: Detail = "dice"): string[] {
  return result.rolls.map((roll, index) => {
    const prefix = result.rolls.length > 1 ? `#${index + 1}: ` : "";
    // A negative total with a true minus sign (−1), as the Fate ladder prints it.
    const total = roll.total < 0 ? `−${-roll.total}` : String(roll.total);
    if (detail === "totals") return `${prefix}**${total}**`;
    return `${prefix}${formatSum(roll.terms, detail === "subtotals")} = **${total}**`;
  });
}

/** The most detailed lines that fit `room` characters. */
function fittingLines(result: DiceRollResult, room: number): string[] {
  for (const detail of ["dice", "subtotals"] as const) {
    const lines = formatRoll(result, detail);
    if (lines.join("\n").length <= room) return lines;
  }
  return formatRoll(result, "totals");
}

/** A test in words, integer dice in mind: `>4` reads "5+", `<3` "2 or less". */
function testWords(lang: Lang, test: FaceTest, negate = false): string {
  let op: string = test.op;
  let value = test.value;
  if (op === ">") [op, value] = [">=", value + 1];
  if (op === "<") [op, value] = ["<=", value - 1];
  if (negate) {
    if (op === ">=") [op, value] = ["<=", value - 1];
    else if (op === "<=") [op, value] = [">=", value + 1];
    else op = "!=";
  }
  const name = op === ">=" ? "ge" : op === "<=" ? "le" : op === "!=" ? "ne" : "eq";
  return t(lang, "dice.reading.test", { op: name, value });
}

const yes = (flag: boolean) => (flag ? "yes" : "no");

function readingWords(lang: Lang, note: ReadingNote): string {
  switch (note.kind) {
    case "keep":
      return t(lang, "dice.reading.keep", { mode: note.mode, count: note.count });
    case "explode":
      return t(lang, "dice.reading.explode", {
        test: testWords(lang, note.on),
        once: yes(note.once),
        compound: yes(note.compound),
        penetrate: yes(note.penetrate),
      });
    case "reroll":
      return t(lang, "dice.reading.reroll", {
        until: yes(note.until),
        test: testWords(lang, note.test, note.until),
      });
    case "success":
      return t(lang, "dice.reading.success", { test: testWords(lang, note.test) });
    case "failure":
      return t(lang, "dice.reading.failure", { test: testWords(lang, note.test) });
    case "min":
      return t(lang, "dice.reading.min", { value: note.value });
    case "max":
      return t(lang, "dice.reading.max", { value: note.value });
    case "unique":
      return t(lang, "dice.reading.unique");
    case "advantage":
      return t(lang, "dice.reading.advantage", { advantage: yes(note.advantage === 1) });
    case "percentile":
      return t(lang, "dice.reading.percentile", { bonus: yes(note.bonus === 1) });
    case "fateDF1":
      return t(lang, "dice.reading.fateDF1");
    case "division":
      return t(lang, "dice.reading.division");
    case "remainder":
      return t(lang, "dice.reading.remainder");
    case "precedence":
      return t(lang, "dice.reading.precedence");
  }
}

/**
 * How the bot read the modifiers, in words (`4d10r3: rerolled once on 3 or less`), so a player used to
 * another dice bot's meaning sees this one's; null when there is nothing to say.
 */
export function formatReading(lang: Lang, expression: DiceExpression): string | null {
  const byTerm = new Map<string, string[]>();
  for (const note of readingOf(expression)) {
    const key = "term" in note ? `\`${note.term}\`` : "";
    byTerm.set(key, [...(byTerm.get(key) ?? []), readingWords(lang, note)]);
  }
  if (byTerm.size === 0) return null;
  const parts = [...byTerm].map(([term, words]) =>
    term ? `${term}: ${words.join(", ")}` : words.join(", "),
  );
  return t(lang, "dice.reading.line", { parts: parts.join(" · ") });
}

/**
 * An embed's description holds 4096 characters (Discord); the dice get what the reading line, the
 * reason (at most 200 characters, shown in the longest of the two languages' frames) and a margin
 * leave.
 */
const DESCRIPTION_MAX = 4096;
const REASON_ROOM = 300;
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
  const reading = formatReading(lang, expression);
  // The GM's copy may read in another language: room for the longer reading of the two.
  const readingRoom = Math.max(
    ...(["en", "ru"] as const).map((l) => formatReading(l, expression)?.length ?? 0),
  );
  const lines = fittingLines(result, DESCRIPTION_MAX - REASON_ROOM - readingRoom);
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
    const gmLang = await languageOf(ctx, ctx.table.gmUserId);
    const gmReading = formatReading(gmLang, expression);
    effects.push({
      kind: "dm",
      userId: ctx.table.gmUserId,
      view: {
        embeds: [
          {
            title: heading(
              t(gmLang, "roll.gmCopyTitle", {
                who: ctx.actor.displayName,
                expression: result.expression,
              }),
            ),
            description:
              lines.join("\n") + (gmReading ? `\n${gmReading}` : "") + (reason ? `\n_${reason}_` : ""),
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
          description:
            lines.join("\n") +
            (reading ? `\n${reading}` : "") +
            (reason ? `\n${t(lang, "roll.reason", { reason })}` : ""),
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
