import { klona } from "klona";
import type { Character } from "../../generated/prisma/client.js";
import { t } from "../../i18n/index.js";
import {
  addVictoryPoints,
  type HunterSheet,
  parseBoxes,
  parseHunterResources,
  parseHunterTraits,
  type ResourceKind,
  type Sphere,
  spendVictoryPoints,
  validateSheet,
} from "../../rules/beast-hunters/index.js";
import { DomainError, refuse } from "../../rules/errors.js";
import { saveCharacterSheet, setVictoryPointsIfUnchanged } from "../../store/characters.js";
import { sqlFor } from "../../store/db.js";
import { actingCharacter } from "../access.js";
import { findOpenFlow } from "../flows.js";
import { appendLog } from "../log.js";
import { cleanName, cleanText } from "../names.js";
import type { ActionContext, ActionResult } from "../use-case.js";
import { challengeFlow, negotiationFlow } from "./flow-states.js";
import { creationCheckText, hunterSheet, hunterSheetFields } from "./sheets.js";
import { defineBhUseCase } from "./use-cases.js";

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** A hunter in an open challenge keeps the sheet the challenge started with until it ends. */
async function refuseIfInChallenge(ctx: Pick<ActionContext, "tx">, tableId: number, character: Character) {
  const flow = await findOpenFlow(ctx.tx, challengeFlow, tableId);
  if (flow?.state.challenge.participants.some((p) => p.id === String(character.id))) {
    refuse("errors.bh.inChallenge", { name: character.name });
  }
}

/** Loads the sheet (owner or GM), applies `change`, validates and saves it, and logs before → after. */
async function editSheet(
  ctx: ActionContext<{ type: string; character?: string | undefined }, "required">,
  change: (sheet: HunterSheet) => HunterSheet,
): Promise<ActionResult> {
  const table = ctx.table;
  const character = await actingCharacter(ctx, ctx.intent.character, { gmMayActForPlayers: true });
  await refuseIfInChallenge(ctx, table.id, character);
  const before = hunterSheet(character);
  const after = change(klona(before));
  validateSheet(after);
  // Saved and read back in one statement (the reply shows the row as stored).
  const fresh = await saveCharacterSheet(ctx.tx, character.id, after);
  if (!fresh) throw new Error(`character ${character.id} not found`);
  await appendLog(ctx, table.id, {
    action: "character.sheet",
    characterId: character.id,
    summary: { key: "bh.log.sheet", params: { name: character.name } },
    before,
    after,
  });
  // The creation check is for new hunters only: a veteran's sheet has grown on purpose.
  const veteran =
    fresh.victoryPoints > 0 ||
    after.tattoos.length > 0 ||
    (await sqlFor(ctx.tx).one`
      SELECT 1 AS yes FROM log_entry WHERE table_id = ${table.id} AND character_id = ${character.id}
        AND action IN ('character.vp', 'character.renewal') LIMIT 1`) !== null;
  // Built here rather than with the common sheet embed: importing it would close an import cycle through the hooks.
  const embed = {
    title: fresh.name,
    fields: hunterSheetFields(ctx.publicLang, fresh),
    ...(veteran ? {} : { footer: creationCheckText(ctx.publicLang, after) }),
    tone: "info" as const,
  };
  return { reply: { embeds: [embed] } };
}

const CATEGORY: Record<string, [Sphere, ResourceKind]> = {
  PA: ["physical", "attack"],
  PD: ["physical", "defence"],
  SA: ["social", "attack"],
  SD: ["social", "defence"],
  MA: ["mental", "attack"],
  MD: ["mental", "defence"],
};

export const traitSet = defineBhUseCase("character.trait.set", { mutates: true, ephemeral: false }, (ctx) => {
  const name = cleanName(ctx.intent.name);
  return editSheet(ctx, (sheet) => {
    const trait = { name, sphere: ctx.intent.sphere, value: ctx.intent.value };
    const at = sheet.traits.findIndex((tr) => sameName(tr.name, name));
    if (at >= 0) sheet.traits[at] = trait;
    else sheet.traits.push(trait);
    return sheet;
  });
});

export const traitRemove = defineBhUseCase(
  "character.trait.remove",
  { mutates: true, ephemeral: false },
  (ctx) => {
    return editSheet(ctx, (sheet) => {
      const at = sheet.traits.findIndex((tr) => sameName(tr.name, ctx.intent.name));
      if (at < 0) refuse("errors.bh.noSuchSheetTrait", { trait: ctx.intent.name.slice(0, 64) });
      sheet.traits.splice(at, 1);
      return sheet;
    });
  },
);

export const traitReplace = defineBhUseCase(
  "character.trait.replace",
  { mutates: true, ephemeral: false },
  (ctx) => {
    const traits = parseHunterTraits(ctx.intent.traits).map((tr) => ({ ...tr, name: cleanName(tr.name) }));
    return editSheet(ctx, (sheet) => ({ ...sheet, traits }));
  },
);

export const resourceSet = defineBhUseCase(
  "character.resource.set",
  { mutates: true, ephemeral: false },
  (ctx) => {
    const name = cleanName(ctx.intent.name);
    const [sphere, kind] = CATEGORY[ctx.intent.category]!;
    return editSheet(ctx, (sheet) => {
      const resource = { name, sphere, kind, value: ctx.intent.value };
      const at = sheet.resources.findIndex((r) => sameName(r.name, name));
      if (at >= 0) sheet.resources[at] = resource;
      else sheet.resources.push(resource);
      return sheet;
    });
  },
);

export const resourceRemove = defineBhUseCase(
  "character.resource.remove",
  { mutates: true, ephemeral: false },
  (ctx) => {
    return editSheet(ctx, (sheet) => {
      const at = sheet.resources.findIndex((r) => sameName(r.name, ctx.intent.name));
      if (at < 0) refuse("errors.bh.noSuchSheetResource", { resource: ctx.intent.name.slice(0, 64) });
      sheet.resources.splice(at, 1);
      return sheet;
    });
  },
);

export const resourceReplace = defineBhUseCase(
  "character.resource.replace",
  { mutates: true, ephemeral: false },
  (ctx) => {
    const resources = parseHunterResources(ctx.intent.resources).map((r) => ({
      ...r,
      name: cleanName(r.name),
    }));
    return editSheet(ctx, (sheet) => ({ ...sheet, resources }));
  },
);

export const tattooAdd = defineBhUseCase(
  "character.tattoo.add",
  { mutates: true, ephemeral: false },
  (ctx) => {
    const text = cleanText(ctx.intent.text, 200);
    if (!text) refuse("errors.name.empty");
    return editSheet(ctx, (sheet) => ({ ...sheet, tattoos: [...sheet.tattoos, text] }));
  },
);

export const tattooRemove = defineBhUseCase(
  "character.tattoo.remove",
  { mutates: true, ephemeral: false },
  (ctx) => {
    return editSheet(ctx, (sheet) => {
      if (ctx.intent.number > sheet.tattoos.length) {
        refuse("errors.bh.noSuchTattoo", { number: ctx.intent.number, count: sheet.tattoos.length });
      }
      return { ...sheet, tattoos: sheet.tattoos.filter((_, i) => i !== ctx.intent.number - 1) };
    });
  },
);

export const initiativeSet = defineBhUseCase(
  "character.initiative",
  { mutates: true, ephemeral: false },
  (ctx) => {
    const { physical, social, mental } = ctx.intent;
    if (physical === undefined && social === undefined && mental === undefined)
      refuse("errors.bh.nothingToChange");
    return editSheet(ctx, (sheet) => ({
      ...sheet,
      initiative: {
        physical: physical ?? sheet.initiative.physical,
        social: social ?? sheet.initiative.social,
        mental: mental ?? sheet.initiative.mental,
      },
    }));
  },
);

export const boxesSet = defineBhUseCase(
  "character.boxes",
  { mutates: true, ephemeral: false },
  async (ctx) => {
    const given = (["physical", "social", "mental"] as const).filter((s) => ctx.intent[s] !== undefined);
    if (given.length === 0) refuse("errors.bh.nothingToChange");
    // Each sphere on its own: a typo in one keeps the others, and the refusal names the sphere.
    const parsed: (readonly [(typeof given)[number], ReturnType<typeof parseBoxes>])[] = [];
    const bad: { sphere: (typeof given)[number]; fragment: string }[] = [];
    for (const sphere of given) {
      try {
        parsed.push([sphere, parseBoxes(ctx.intent[sphere]!)] as const);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        bad.push({ sphere, fragment: ctx.intent[sphere]!.slice(0, 30) });
      }
    }
    if (parsed.length === 0) refuse("errors.bh.badBoxesIn", bad[0]!);
    const result = await editSheet(ctx, (sheet) => {
      for (const [sphere, boxes] of parsed) {
        sheet.boxes[sphere] = boxes;
        // Filled boxes stay filled, but never more than the new count.
        for (const stage of Object.keys(boxes) as (keyof typeof boxes)[]) {
          sheet.damage[sphere][stage] = Math.min(sheet.damage[sphere][stage], boxes[stage]);
        }
      }
      return sheet;
    });
    if (bad.length === 0 || !result.reply) return result;
    const notes = bad.map((b) => t(ctx.userLang, "errors.bh.badBoxesIn", b));
    return {
      ...result,
      reply: {
        ...result.reply,
        embeds: [...(result.reply.embeds ?? []), { description: notes.join("\n"), tone: "warning" }],
      },
    };
  },
);

async function changeVictoryPoints(
  ctx: ActionContext<
    { type: string; amount: number; reason: string; character?: string | undefined },
    "required"
  >,
  direction: "add" | "spend",
): Promise<ActionResult> {
  const table = ctx.table;
  const character = await actingCharacter(ctx, ctx.intent.character, { gmMayActForPlayers: true });
  if (direction === "spend") {
    await refuseIfInChallenge(ctx, table.id, character);
    // «…в любой момент между испытаниями … но до переговоров перед испытанием».
    const talks = await findOpenFlow(ctx.tx, negotiationFlow, table.id);
    if (talks?.state.hunters.some((h) => h.id === String(character.id)))
      refuse("errors.bh.vpSpendNotNow", { name: character.name });
  }
  const reason = cleanText(ctx.intent.reason, 200);
  const change =
    direction === "add"
      ? addVictoryPoints(character.victoryPoints, ctx.intent.amount)
      : spendVictoryPoints(character.victoryPoints, ctx.intent.amount);
  // Conditional update: never below zero even if two spends race past the lock.
  const updated = await setVictoryPointsIfUnchanged(ctx.tx, character.id, change);
  if (!updated) refuse("errors.staleAction");
  await appendLog(ctx, table.id, {
    action: direction === "add" ? "character.vp" : "character.vp.spend",
    characterId: character.id,
    summary: {
      key: direction === "add" ? "bh.log.vpAwarded" : "bh.log.vpSpent",
      params: { name: character.name, amount: ctx.intent.amount },
    },
    before: { vp: change.before },
    after: { vp: change.after },
    reason,
  });
  return {
    reply: {
      embeds: [
        {
          description: t(ctx.publicLang, direction === "add" ? "bh.vp.added" : "bh.vp.spent", {
            name: character.name,
            amount: ctx.intent.amount,
            before: change.before,
            after: change.after,
            reason,
          }),
          tone: "success",
        },
      ],
    },
  };
}

export const vpAdd = defineBhUseCase(
  "character.vp.add",
  { access: "gm", mutates: true, ephemeral: false },
  (ctx) => changeVictoryPoints(ctx, "add"),
);

export const vpSpend = defineBhUseCase("character.vp.spend", { mutates: true, ephemeral: false }, (ctx) =>
  changeVictoryPoints(ctx, "spend"),
);
