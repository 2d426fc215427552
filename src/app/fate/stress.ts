import type { GameTable } from "../../generated/prisma/client.js";
import { t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { clearStress } from "../../rules/fate/character.js";
import {
  type ConsequenceSlotId,
  clearConsequence,
  nameConsequence,
  slotToName,
} from "../../rules/fate/stress.js";
import { sqlFor } from "../../store/db.js";
import { findCharacter, requireControl } from "../access.js";
import { appendLog } from "../log.js";
import { cleanName } from "../names.js";
import type { ActionContext } from "../use-case.js";
import { settleAttacksOn } from "./attack.js";
import { expireOpenCompels } from "./compel.js";
import { closeOpenChecks } from "./conflict-state.js";
import { endOpenContest } from "./contest.js";
import { closeFactionChecks } from "./faction-check.js";
import { landHit, refuseIfOutOfTheFight } from "./harm.js";
import { fateIntents } from "./intents.js";
import { consequenceRecovery, earlyClearNote } from "./recovery.js";
import { characterById, fateCharacter, liveCharacters, saveFateCharacter } from "./state.js";
import { defineFateUseCase } from "./use-cases.js";

export const stressHit = defineFateUseCase({
  schema: fateIntents["stress.hit"],
  async run(ctx) {
    const row = await findCharacter(ctx.tx, ctx.table.id, ctx.intent.character);
    requireControl(ctx, row, { gmMayActForPlayers: true });
    await refuseIfOutOfTheFight(ctx, ctx.table, row);
    // A hit by hand on someone an attack is waiting to hit settles that attack: it is applied once.
    const settled = await settleAttacksOn(ctx, ctx.table, row.id, ctx.intent.shifts);
    const landed = await landHit(
      ctx,
      ctx.table,
      row,
      ctx.intent.shifts,
      ctx.intent.kind ?? "physical",
      null,
      null,
    );
    const note = settled.texts.length > 0 ? `\n${settled.texts.join("\n")}` : "";
    const view = { ...landed.view, content: (landed.view.content ?? "") + note || undefined };
    return {
      reply: view,
      replyIsPanelOf: landed.flowId ?? undefined,
      effects: [...settled.effects, ...landed.effects],
    };
  },
});

export const stressClear = defineFateUseCase({
  schema: fateIntents["stress.clear"],
  access: "gm",
  async run(ctx) {
    const rows = ctx.intent.character
      ? [await findCharacter(ctx.tx, ctx.table.id, ctx.intent.character)]
      : await liveCharacters(ctx.tx, ctx.table.id);
    for (const row of rows) {
      const before = fateCharacter(row);
      await saveFateCharacter(ctx.tx, row, clearStress(before));
      await appendLog(ctx, ctx.table.id, {
        action: "fate.stress.clear",
        characterId: row.id,
        summary: { key: "log.fate.stressClear", params: { name: row.name } },
        before: { physical: before.stress.physical.boxes, mental: before.stress.mental.boxes },
      });
    }
    // Clearing everyone's stress ends the scene: its open checks stop taking invokes (docs/rules/fate.md §3.2).
    const scene = ctx.intent.character ? { effects: [], expired: [] } : await endScene(ctx, ctx.table);
    const cleared = t(ctx.publicLang, "fate.stress.cleared", { names: rows.map((r) => r.name).join(", ") });
    const expired =
      scene.expired.length > 0
        ? `\n${t(ctx.publicLang, "fate.scene.boostsExpired", { names: scene.expired.map((n) => `«${n}»`).join(", ") })}`
        : "";
    return { reply: { content: cleared + expired }, effects: scene.effects };
  },
});

/** Names a consequence the character has taken, or (GM, or the character's player) takes a free slot by hand. */
export const consequenceAdd = defineFateUseCase({
  schema: fateIntents["consequence.add"],
  async run(ctx) {
    const row =
      ctx.intent.characterId !== undefined
        ? await characterById(ctx.tx, ctx.table.id, ctx.intent.characterId)
        : await findCharacter(ctx.tx, ctx.table.id, ctx.intent.character ?? "");
    requireControl(ctx, row, { gmMayActForPlayers: true });
    const before = fateCharacter(row);
    // Naming fills the slot the hit took; it never takes another one (docs/rules/fate.md §3.3).
    const target = slotToName(before.consequences, ctx.intent.severity);
    if (target.kind === "none") refuse("errors.fate.noConsequenceToName", { name: row.name });
    if (target.kind === "waiting") {
      refuse("errors.fate.nameTheTakenSlot", {
        slot: `@fate.consequenceSlot.${target.waiting.id}`,
        command: "@/consequence add character name",
      });
    }
    const slot = target.slot;
    const name = cleanName(ctx.intent.name, 100);
    const consequences = nameConsequence(before.consequences, slot.id as ConsequenceSlotId, name);
    await saveFateCharacter(ctx.tx, row, { ...before, consequences });
    await appendLog(ctx, ctx.table.id, {
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
export const consequenceClear = defineFateUseCase({
  schema: fateIntents["consequence.clear"],
  access: "gm",
  async run(ctx) {
    const row = await findCharacter(ctx.tx, ctx.table.id, ctx.intent.character);
    const before = fateCharacter(row);
    const consequences = clearConsequence(before.consequences, ctx.intent.severity);
    const old = before.consequences.find((s) => s.id === ctx.intent.severity);
    const [recovery] = await consequenceRecovery(ctx.tx, ctx.table.id, row.id, old ? [old] : [], ctx.now);
    await saveFateCharacter(ctx.tx, row, { ...before, consequences });
    await appendLog(ctx, ctx.table.id, {
      action: "fate.consequence.clear",
      characterId: row.id,
      summary: { key: "log.fate.consequenceClear", params: { name: row.name, slot: ctx.intent.severity } },
      before: { aspect: old?.aspect?.name ?? null },
    });
    return {
      reply: {
        content:
          t(ctx.publicLang, "fate.consequence.cleared", {
            name: row.name,
            slot: `@fate.consequenceSlot.${ctx.intent.severity}`,
          }) + earlyClearNote(ctx.publicLang, recovery),
      },
    };
  },
});

/** The button under a hit that took a consequence: a form to name exactly that slot. */
export const nameConsequenceForm = defineFateUseCase({
  schema: fateIntents["fate.name-consequence"],
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    const row = await characterById(ctx.tx, ctx.table.id, ctx.intent.characterId);
    requireControl(ctx, row, { gmMayActForPlayers: true });
    const slot = fateCharacter(row).consequences.find((s) => s.id === ctx.intent.slot);
    if (!slot?.taken) refuse("errors.fate.consequenceSlotFree", { slot: ctx.intent.slot });
    if (slot.aspect) refuse("errors.fate.consequenceSlotTaken", { slot: slot.id });
    return {
      modal: {
        title: t(ctx.userLang, "fate.consequence.formTitle", {
          name: row.name.slice(0, 30),
          slot: `@fate.consequenceSlot.${slot.id}`,
        }).slice(0, 45),
        intent: { type: "consequence.add", characterId: row.id, severity: slot.id },
        inputs: [
          {
            field: "name",
            label: t(ctx.userLang, "fate.consequence.formLabel"),
            style: "short",
            maxLength: 100,
          },
        ],
      },
    };
  },
});

/**
 * The end of a scene (`/stress clear` for the whole table, docs/rules/fate.md §3.2): open checks
 * and waiting hits close, a contest ends (undecided if need be) and its rolls close, the factions'
 * checks close, compels still unanswered and boosts expire.
 */
async function endScene(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang" | "invocation">,
  table: GameTable,
) {
  const effects = await closeOpenChecks(ctx, table);
  const contest = await endOpenContest(ctx, table);
  if (contest) effects.push(...contest.effects);
  effects.push(...(await closeFactionChecks(ctx, table)));
  effects.push(...(await expireOpenCompels(ctx, table)));
  // The mark the next scene counts from (who acts in it: docs/rules/fate.md §3.4).
  await appendLog(ctx, table.id, {
    action: "fate.scene.end",
    summary: { key: "log.fate.sceneEnd", params: {} },
  });
  // Boosts last until used or the end of the scene, as in Fate Core.
  const expired = await sqlFor(ctx.tx).rows<{ name: string }>`
    UPDATE aspect SET removed_at = ${new Date()}
    WHERE table_id = ${table.id} AND kind = 'boost' AND removed_at IS NULL
    RETURNING name`;
  if (expired.length > 0)
    await appendLog(ctx, table.id, {
      action: "fate.scene.boosts-expired",
      summary: { key: "log.fate.boostsExpired", params: { names: expired.map((b) => b.name).join(", ") } },
    });
  return { effects, expired: expired.map((b) => b.name) };
}
