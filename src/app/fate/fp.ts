import { z } from "zod";
import { t } from "../../i18n/index.js";
import { startNewWeek } from "../../rules/fate/character.js";
import { adjustFatePoints } from "../../rules/fate/fate-points.js";
import { findCharacter, requireGm, requireTable } from "../access.js";
import { appendLog } from "../log.js";
import { cleanText } from "../names.js";
import { defineUseCase } from "../use-case.js";
import {
  fateCharacter,
  liveCharacters,
  saveFateCharacter,
  saveFatePoints,
  saveTableState,
  tableState,
} from "./state.js";

const characterName = z.string().min(1).max(100);

export const fpShow = defineUseCase({
  type: "fp.show",
  systems: ["fate"],
  schema: z.object({ type: z.literal("fp.show"), character: characterName.optional() }),
  table: "required",
  mutates: false,
  ephemeral: false,
  async run(ctx) {
    const table = requireTable(ctx);
    const rows = ctx.intent.character
      ? [await findCharacter(ctx.tx, table.id, ctx.intent.character)]
      : await liveCharacters(ctx.tx, table.id);
    const lines = rows.map((c) =>
      t(ctx.publicLang, "fate.fp.line", { name: c.name, fp: c.fatePoints, refresh: c.refresh }),
    );
    return {
      reply: {
        embeds: [
          {
            title: t(ctx.publicLang, "fate.fp.title", { week: tableState(table).fateWeek }),
            description: lines.join("\n") || t(ctx.publicLang, "fate.fp.none"),
            tone: "info",
          },
        ],
      },
    };
  },
});

export const fpGive = defineUseCase({
  type: "fp.give",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("fp.give"),
    character: characterName,
    amount: z.number().int().min(-20).max(20),
    reason: z.string().max(300).optional(),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireGm(ctx);
    const row = await findCharacter(ctx.tx, table.id, ctx.intent.character);
    const reason = ctx.intent.reason ? cleanText(ctx.intent.reason, 200) : null;
    const after = adjustFatePoints({ fatePoints: row.fatePoints }, ctx.intent.amount);
    await saveFatePoints(ctx.tx, row.id, after.fatePoints);
    await appendLog(ctx, table.id, {
      action: "fate.fp.give",
      characterId: row.id,
      summary: { key: "log.fate.fpGive", params: { name: row.name, amount: ctx.intent.amount } },
      before: { fatePoints: row.fatePoints },
      after: { fatePoints: after.fatePoints },
      reason,
    });
    return {
      reply: {
        content: t(ctx.publicLang, ctx.intent.amount >= 0 ? "fate.fp.given" : "fate.fp.taken", {
          name: row.name,
          amount: Math.abs(ctx.intent.amount),
          fp: after.fatePoints,
        }),
      },
    };
  },
});

/** A new game week (GM): fate points back up to each refresh (more are kept), spent ULTIMATEs return. */
export const fpRefresh = defineUseCase({
  type: "fp.refresh",
  systems: ["fate"],
  schema: z.object({ type: z.literal("fp.refresh") }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireGm(ctx);
    const state = tableState(table);
    const week = state.fateWeek + 1;
    const lines: string[] = [];
    for (const row of await liveCharacters(ctx.tx, table.id)) {
      const before = fateCharacter(row);
      const after = startNewWeek(before);
      await saveFateCharacter(ctx.tx, row, after);
      const magic = after.stunts.filter(
        (s, i) => before.stunts[i]?.disabledUntilNextWeek && !s.disabledUntilNextWeek,
      );
      await appendLog(ctx, table.id, {
        action: "fate.fp.refresh",
        characterId: row.id,
        summary: {
          key: "log.fate.refresh",
          params: { name: row.name, from: before.fatePoints, to: after.fatePoints },
        },
        before: { fatePoints: before.fatePoints },
        after: { fatePoints: after.fatePoints, magicRestored: magic.map((s) => s.name) },
      });
      lines.push(
        t(ctx.publicLang, "fate.fp.refreshLine", {
          name: row.name,
          from: before.fatePoints,
          to: after.fatePoints,
        }) +
          (magic.length > 0
            ? ` ${t(ctx.publicLang, "fate.fp.magicBack", { names: magic.map((s) => s.name).join(", ") })}`
            : ""),
      );
    }
    await saveTableState(ctx.tx, table, { ...state, fateWeek: week });
    return {
      reply: {
        embeds: [
          {
            title: t(ctx.publicLang, "fate.fp.refreshTitle", { week }),
            description: lines.join("\n") || t(ctx.publicLang, "fate.fp.none"),
            tone: "success",
          },
        ],
      },
    };
  },
});
