import { z } from "zod";
import { t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { clearStress } from "../../rules/fate/character.js";
import { type ConsequenceSlotId, clearConsequence, nameConsequence } from "../../rules/fate/stress.js";
import { findCharacter, requireControl, requireGm, requireTable } from "../access.js";
import { appendLog } from "../log.js";
import { cleanName } from "../names.js";
import { defineUseCase } from "../use-case.js";
import { applyHit } from "./harm.js";
import { fateCharacter, liveCharacters, saveFateCharacter } from "./state.js";

const characterName = z.string().min(1).max(100);
export const SLOT_IDS = ["mild", "moderate", "severe", "mildPhysical", "mildMental"] as const;

export const stressHit = defineUseCase({
  type: "stress.hit",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("stress.hit"),
    character: characterName,
    shifts: z.number().int().min(0).max(30),
    kind: z.enum(["physical", "mental"]).optional(),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireTable(ctx);
    const row = await findCharacter(ctx.tx, table.id, ctx.intent.character);
    requireControl(ctx, row, { gmMayActForPlayers: true });
    const applied = await applyHit(ctx, table, row, ctx.intent.shifts, ctx.intent.kind ?? "physical");
    return { reply: { content: applied.text }, effects: applied.effects };
  },
});

export const stressClear = defineUseCase({
  type: "stress.clear",
  systems: ["fate"],
  schema: z.object({ type: z.literal("stress.clear"), character: characterName.optional() }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireGm(ctx);
    const rows = ctx.intent.character
      ? [await findCharacter(ctx.tx, table.id, ctx.intent.character)]
      : await liveCharacters(ctx.tx, table.id);
    for (const row of rows) {
      const before = fateCharacter(row);
      await saveFateCharacter(ctx.tx, row, clearStress(before));
      await appendLog(ctx, table.id, {
        action: "fate.stress.clear",
        characterId: row.id,
        summary: { key: "log.fate.stressClear", params: { name: row.name } },
        before: { physical: before.stress.physical.boxes, mental: before.stress.mental.boxes },
      });
    }
    return {
      reply: {
        content: t(ctx.publicLang, "fate.stress.cleared", { names: rows.map((r) => r.name).join(", ") }),
      },
    };
  },
});

/** Names a consequence the character has taken, or (GM, or the character's player) takes a free slot by hand. */
export const consequenceAdd = defineUseCase({
  type: "consequence.add",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("consequence.add"),
    character: characterName,
    severity: z.enum(SLOT_IDS),
    name: z.string().min(1).max(100),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireTable(ctx);
    const row = await findCharacter(ctx.tx, table.id, ctx.intent.character);
    requireControl(ctx, row, { gmMayActForPlayers: true });
    const before = fateCharacter(row);
    const slot = before.consequences.find((s) => s.id === ctx.intent.severity);
    if (!slot) refuse("errors.fate.noSuchConsequenceSlot", { slot: ctx.intent.severity });
    if (slot.aspect) refuse("errors.fate.consequenceSlotTaken", { slot: slot.id });
    const name = cleanName(ctx.intent.name, 100);
    const consequences = nameConsequence(before.consequences, slot.id as ConsequenceSlotId, name);
    await saveFateCharacter(ctx.tx, row, { ...before, consequences });
    await appendLog(ctx, table.id, {
      action: "fate.consequence.add",
      characterId: row.id,
      summary: { key: "log.fate.consequenceAdd", params: { name: row.name, aspect: name, slot: slot.id } },
      before: { taken: slot.taken },
      after: { taken: true, aspect: name },
    });
    return {
      reply: {
        content: t(ctx.publicLang, "fate.consequence.added", {
          name: row.name,
          aspect: name,
          slot: `@fate.consequenceSlot.${slot.id}`,
        }),
      },
    };
  },
});

/** The GM clears a consequence (docs/rules/fate.md §3.3). */
export const consequenceClear = defineUseCase({
  type: "consequence.clear",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("consequence.clear"),
    character: characterName,
    severity: z.enum(SLOT_IDS),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireGm(ctx);
    const row = await findCharacter(ctx.tx, table.id, ctx.intent.character);
    const before = fateCharacter(row);
    const consequences = clearConsequence(before.consequences, ctx.intent.severity);
    const old = before.consequences.find((s) => s.id === ctx.intent.severity);
    await saveFateCharacter(ctx.tx, row, { ...before, consequences });
    await appendLog(ctx, table.id, {
      action: "fate.consequence.clear",
      characterId: row.id,
      summary: { key: "log.fate.consequenceClear", params: { name: row.name, slot: ctx.intent.severity } },
      before: { aspect: old?.aspect?.name ?? null },
    });
    return {
      reply: {
        content: t(ctx.publicLang, "fate.consequence.cleared", {
          name: row.name,
          slot: `@fate.consequenceSlot.${ctx.intent.severity}`,
        }),
      },
    };
  },
});
