import { z } from "zod";
import type { Character } from "../../generated/prisma/client.js";
import { t } from "../../i18n/index.js";
import { DomainError, refuse } from "../../rules/errors.js";
import { findCharacter, requireTable } from "../access.js";
import type { Intent } from "../intent.js";
import { type ActionContext, SYSTEMS, type UseCase } from "../use-case.js";
import { notice } from "./answers.js";
import type { UploadedFile } from "./intents.js";
import { tableUseCase } from "./use-cases.js";

/**
 * `/character export name` and `/character import file|text`: a sheet as JSON. The file says
 * the sheet the way the sheet commands take it, and an import is those commands run one after
 * another on a new character — so it is checked exactly as they check it. Every problem is
 * listed at once, and on any problem nothing is saved (the whole import is one transaction).
 */

export const CHARACTER_FORMAT = "character";
export const CHARACTER_VERSION = 1;

type Sheet = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === "string" && v.length > 0 ? v : null);
const arr = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === "object" && x !== null) : [];
const obj = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

const ranksText = (ranks: unknown) =>
  Object.entries(obj(ranks))
    .map(([skill, value]) => `${skill} ${String(value)}`)
    .join(", ");

/** The sheet as its game's commands take it (docs/rules/<game>.md). */
function sheetOf(system: string, row: Character): Sheet {
  const sheet = obj(row.sheet);
  switch (system) {
    case "fate": {
      const race = sheet.race ? obj(sheet.race) : null;
      return {
        refresh: row.refresh,
        skills: obj(sheet.skills),
        race: race
          ? {
              name: race.name,
              bonuses: obj(race.bonuses),
              stunts: arr(race.stunts).map((s) => ({ name: s.name, text: s.text })),
            }
          : null,
        stunts: arr(sheet.stunts).map((s) => ({
          name: s.name,
          text: s.text,
          magic: s.magic === true,
          ultimate: str(s.ultimate),
        })),
        wr: sheet.wr ?? 0,
        ar: sheet.ar ?? 0,
      };
    }
    case "mountain-witch":
      return {
        abilities: Array.isArray(sheet.abilities) ? sheet.abilities : [],
        background: str(sheet.background),
        ronin: str(sheet.ronin),
        money: str(sheet.money),
        props: str(sheet.props),
      };
    case "beast-hunters":
      return {
        traits: arr(sheet.traits).map((x) => ({ name: x.name, sphere: x.sphere, value: x.value })),
        resources: arr(sheet.resources).map((x) => ({
          name: x.name,
          sphere: x.sphere,
          kind: x.kind,
          value: x.value,
        })),
        tattoos: Array.isArray(sheet.tattoos) ? sheet.tattoos : [],
        initiative: obj(sheet.initiative),
      };
    default:
      return {};
  }
}

const fileSchema = z.object({
  format: z.literal(CHARACTER_FORMAT),
  version: z.literal(CHARACTER_VERSION),
  system: z.enum(SYSTEMS),
  name: z.string().min(1).max(64),
  kind: z.enum(["pc", "npc"]),
  strength: z.enum(["weak", "medium", "strong"]).nullable().optional(),
  zodiac: z.string().nullable().optional(),
  sheet: z.record(z.string(), z.unknown()),
});
type CharacterFile = z.infer<typeof fileSchema>;

/** What each part of the sheet is called in a problem, and the command that sets it. */
interface Step {
  part: string;
  intent: Intent;
}

const RESOURCE_CATEGORY = (sphere: unknown, kind: unknown) =>
  `${String(sphere).charAt(0).toUpperCase()}${kind === "defence" ? "D" : "A"}`;

/** The sheet commands that give a new character this sheet, in order. */
function stepsOf(file: CharacterFile): Step[] {
  const name = file.name;
  const sheet = file.sheet;
  const steps: Step[] = [
    {
      part: "name",
      intent: {
        type: "character.create",
        name,
        kind: file.kind,
        ...(file.strength && file.kind === "npc" ? { strength: file.strength } : {}),
        ...(file.zodiac ? { zodiac: file.zodiac } : {}),
      },
    },
  ];
  const add = (part: string, intent: Intent) => steps.push({ part, intent });
  switch (file.system) {
    case "fate": {
      if (Object.keys(obj(sheet.skills)).length > 0) {
        add("skills", { type: "character.skill", ranks: ranksText(sheet.skills), character: name });
      }
      if (sheet.race) {
        const race = obj(sheet.race);
        const stunts = arr(race.stunts).map((s) => `${String(s.name)}: ${String(s.text ?? "")}`);
        add("race", {
          type: "character.race",
          name: race.name,
          ...(Object.keys(obj(race.bonuses)).length ? { bonuses: ranksText(race.bonuses) } : {}),
          ...(stunts[0] ? { stunt1: stunts[0] } : {}),
          ...(stunts[1] ? { stunt2: stunts[1] } : {}),
          character: name,
        });
      }
      for (const [i, s] of arr(sheet.stunts).entries()) {
        add(`stunts.${i}`, {
          type: "character.stunt",
          name: s.name,
          ...(s.text !== undefined ? { text: s.text } : {}),
          ...(s.magic !== undefined ? { magic: s.magic } : {}),
          ...(str(s.ultimate) ? { ultimate: s.ultimate } : {}),
          character: name,
        });
      }
      add("ratings", {
        type: "character.ratings",
        ...(sheet.refresh !== undefined ? { refresh: sheet.refresh } : {}),
        ...(sheet.wr !== undefined ? { wr: sheet.wr } : {}),
        ...(sheet.ar !== undefined ? { ar: sheet.ar } : {}),
        character: name,
      });
      break;
    }
    case "mountain-witch": {
      const abilities = Array.isArray(sheet.abilities) ? sheet.abilities : [];
      if (abilities.length > 0) {
        const [first, second, third] = abilities;
        add("abilities", {
          type: "character.abilities",
          name,
          ...(first !== undefined ? { first } : {}),
          ...(second !== undefined ? { second } : {}),
          ...(third !== undefined ? { third } : {}),
        });
      }
      if (str(sheet.background) || str(sheet.ronin) || str(sheet.money)) {
        add("background", {
          type: "character.background",
          name,
          ...(str(sheet.background) ? { text: sheet.background } : {}),
          ...(str(sheet.ronin) ? { ronin: sheet.ronin } : {}),
          ...(str(sheet.money) ? { money: sheet.money } : {}),
        });
      }
      if (sheet.props != null) add("props", { type: "character.props", name, text: sheet.props });
      break;
    }
    case "beast-hunters": {
      for (const [i, x] of arr(sheet.traits).entries()) {
        add(`traits.${i}`, {
          type: "character.trait.set",
          name: x.name,
          sphere: x.sphere,
          value: x.value,
          character: name,
        });
      }
      for (const [i, x] of arr(sheet.resources).entries()) {
        add(`resources.${i}`, {
          type: "character.resource.set",
          name: x.name,
          category: RESOURCE_CATEGORY(x.sphere, x.kind),
          value: x.value,
          character: name,
        });
      }
      for (const [i, text] of (Array.isArray(sheet.tattoos) ? sheet.tattoos : []).entries()) {
        add(`tattoos.${i}`, { type: "character.tattoo.add", text, character: name });
      }
      const initiative = obj(sheet.initiative);
      if (Object.keys(initiative).length > 0) {
        add("initiative", { type: "character.initiative", ...initiative, character: name });
      }
      break;
    }
  }
  return steps;
}

/** The sheet commands, looked up when first needed (the registry lists this module too). */
let registry: Promise<{ candidates(type: string): UseCase[] }> | null = null;
const useCases = () => {
  registry ??= import("../registry.js").then((m) => m.createRegistry());
  return registry;
};

/** One step, checked and applied as its command would be; its problem, if any, in the user's language. */
async function runStep(ctx: ActionContext, step: Step): Promise<string | null> {
  const system = requireTable(ctx).system;
  const useCase = (await useCases())
    .candidates(String(step.intent.type))
    .find((u) => !u.systems || u.systems.includes(system as never));
  if (!useCase) return `${step.part}: ${t(ctx.userLang, "errors.characterImport.notHere")}`;
  const parsed = useCase.schema.safeParse(step.intent);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `${step.part}${issue.path.length ? `.${issue.path.join(".")}` : ""}: ${issue.message}`;
  }
  // A savepoint per step: a failed one leaves no trace, and the next ones are still checked.
  try {
    await ctx.tx.savepoint(() => useCase.run({ ...ctx, intent: parsed.data }));
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return `${step.part}: ${t(ctx.userLang, error.code, error.params as Record<string, string | number>)}`;
  }
}

function readFile(ctx: ActionContext<{ type: string; file?: UploadedFile; text?: string }>) {
  const { file, text } = ctx.intent;
  if ((file ? 1 : 0) + (text ? 1 : 0) !== 1) refuse("errors.characterImport.fileOrText");
  if (file && file.text === null) refuse("errors.backup.unreadable", { name: file.name.slice(0, 100) });
  const source = (file?.text ?? text)!;
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch {
    return refuse("errors.characterImport.invalid", { problems: "not JSON" });
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 10)
      .map((i) => `${i.path.join(".") || "file"}: ${i.message}`)
      .join("\n");
    return refuse("errors.characterImport.invalid", { problems });
  }
  return parsed.data;
}

export const characterExport = tableUseCase(
  "character.export",
  { mutates: false, ephemeral: true },
  async (ctx, table) => {
    const row = await findCharacter(ctx.tx, table.id, ctx.intent.name);
    const file = {
      format: CHARACTER_FORMAT,
      version: CHARACTER_VERSION,
      system: table.system,
      name: row.name,
      kind: row.kind,
      ...(table.system === "mountain-witch" ? { strength: row.strength, zodiac: row.zodiac } : {}),
      sheet: sheetOf(table.system, row),
    };
    return {
      reply: {
        ...notice(t(ctx.userLang, "character.export.done", { name: row.name }), "info", { ephemeral: true }),
        files: [
          {
            name: `character-${row.nameKey.replace(/[^\p{L}\p{N}]+/gu, "-")}.json`,
            data: new TextEncoder().encode(`${JSON.stringify(file, null, 2)}\n`),
          },
        ],
      },
    };
  },
);

export const characterImport = tableUseCase(
  "character.import",
  { mutates: true, ephemeral: false },
  async (ctx, table) => {
    const file = readFile(ctx);
    if (file.system !== table.system) {
      refuse("errors.characterImport.otherGame", {
        file: `@system.${file.system}`,
        table: `@system.${table.system}`,
      });
    }
    const [create, ...rest] = stepsOf(file);
    const created = await runStep(ctx, create!);
    if (created) refuse("errors.characterImport.invalid", { problems: created });
    const problems: string[] = [];
    for (const step of rest) {
      const problem = await runStep(ctx, step);
      if (problem) problems.push(problem);
    }
    // Any problem: the refusal rolls the whole import back, the new character too.
    if (problems.length > 0) refuse("errors.characterImport.invalid", { problems: problems.join("\n") });
    const saved = await findCharacter(ctx.tx, table.id, file.name);
    const done = t(ctx.publicLang, "character.import.done", {
      name: saved.name,
      user: `<@${ctx.actor.userId}>`,
      parts: rest.length,
    });
    return { reply: notice(done, "success") };
  },
);
