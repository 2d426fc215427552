import type { Aspect as AspectRow, Character } from "../../generated/prisma/client.js";
import { familyKey, type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import {
  addStunt,
  allStunts,
  findStunt,
  makeRace,
  makeStunt,
  removeStunt,
  type SkillRanks,
  type Stunt,
  setRace,
  setRatings,
  setRefresh,
  setSkill,
  setSkills,
  totalSkill,
  useUltimate,
} from "../../rules/fate/character.js";
import { signed } from "../../rules/fate/ladder.js";
import { echo, normaliseName, resolveSkill, SKILL_KEYS, SKILLS } from "../../rules/fate/skills.js";
import { sqlFor } from "../../store/db.js";
import { actingCharacter, requireTable } from "../access.js";
import { appendLog, type LogSummary } from "../log.js";
import { cleanName, cleanText } from "../names.js";
import type { ActionContext, SystemHooks } from "../use-case.js";
import { aspectLines } from "./aspect.js";
import { openConflict } from "./conflict-state.js";
import { fateIntents } from "./intents.js";
import { consequenceRecovery, recoveryText } from "./recovery.js";
import { fateCharacter, saveFateCharacter, sheetOf, tableState } from "./state.js";
import { defineFateUseCase } from "./use-cases.js";
import { boxesText, skillText } from "./views.js";

/**
 * Reads "fight 4, athletics 3" / "Драка:4; Атлетика 3" / "fight=+2": skill names in either
 * language with a number each, separated by commas, semicolons or new lines.
 */
export function parseRanks(text: string): SkillRanks {
  const ranks: SkillRanks = {};
  for (const item of text
    .split(/[,;\n]+/)
    .map((s) => s.trim())
    .filter(Boolean)) {
    const match = /^(.+?)\s*[:=]?\s*([-+−]?\d+)$/.exec(item);
    if (!match) refuse("errors.fate.ranksUnreadable", { item: echo(item) });
    const value = Number(match[2]!.replace("−", "-"));
    ranks[resolveSkill(match[1]!)] = value;
  }
  return ranks;
}

/** "Name: text" → a stunt. */
function parseStunt(text: string): Stunt {
  const [name, ...rest] = text.split(":");
  return makeStunt(cleanName(name ?? "", 100), cleanText(rest.join(":"), 1000));
}

/** Runs a sheet change for the acting character (player: own; GM: anyone) and logs it. */
async function changeSheet(
  ctx: ActionContext<{ type: string; character?: string }>,
  action: string,
  change: (row: Character) => ReturnType<typeof fateCharacter>,
  summary: (row: Character) => LogSummary,
) {
  const table = requireTable(ctx);
  const row = await actingCharacter(ctx, ctx.intent.character, { gmMayActForPlayers: true });
  const before = fateCharacter(row);
  const after = change(row);
  const saved = await saveFateCharacter(ctx.tx, row, after);
  await appendLog(ctx, table.id, {
    action,
    characterId: row.id,
    summary: summary(row),
    before: { ...sheetOf(before), refresh: before.refresh },
    after: { ...sheetOf(after), refresh: after.refresh },
  });
  return saved;
}

export const characterSkill = defineFateUseCase({
  schema: fateIntents["character.skill"],
  async run(ctx) {
    const { skill, value, ranks } = ctx.intent;
    if (!ranks && (skill === undefined || value === undefined)) refuse("errors.fate.skillOrRanks");
    const saved = await changeSheet(
      ctx,
      "fate.sheet.skill",
      (row) => {
        const character = fateCharacter(row);
        if (ranks) return setSkills(character, parseRanks(ranks));
        return setSkill(character, resolveSkill(skill!), value!);
      },
      (row) => ({ key: "log.fate.sheet", params: { name: row.name } }),
    );
    return {
      reply: {
        content: t(ctx.publicLang, "fate.sheet.skillsSet", {
          name: saved.name,
          skills: skillsText(ctx.publicLang, saved),
        }),
      },
    };
  },
});

export const characterStunt = defineFateUseCase({
  schema: fateIntents["character.stunt"],
  async run(ctx) {
    const saved = await changeSheet(
      ctx,
      "fate.sheet.stunt",
      (row) => {
        let character = fateCharacter(row);
        const existing = character.stunts.find(
          (s) => s.name.toLowerCase() === ctx.intent.name.trim().toLowerCase(),
        );
        if (existing) character = removeStunt(character, existing.name);
        if (ctx.intent.remove) {
          if (!existing) findStunt(character, ctx.intent.name);
          return character;
        }
        const stunt = makeStunt(
          cleanName(ctx.intent.name, 100),
          cleanText(ctx.intent.text ?? existing?.text ?? "", 1000),
          {
            magic: ctx.intent.magic ?? existing?.magic ?? false,
            ultimate: ctx.intent.ultimate
              ? cleanName(ctx.intent.ultimate, 100)
              : (existing?.ultimate ?? null),
          },
        );
        return addStunt(character, stunt);
      },
      (row) => ({ key: "log.fate.sheet", params: { name: row.name } }),
    );
    return {
      reply: {
        content: t(ctx.publicLang, ctx.intent.remove ? "fate.sheet.stuntRemoved" : "fate.sheet.stuntSet", {
          name: saved.name,
          stunt: ctx.intent.name,
        }),
      },
    };
  },
});

export const characterRace = defineFateUseCase({
  schema: fateIntents["character.race"],
  async run(ctx) {
    const saved = await changeSheet(
      ctx,
      "fate.sheet.race",
      (row) => {
        const stunts = [ctx.intent.stunt1, ctx.intent.stunt2].filter((s): s is string => !!s).map(parseStunt);
        const race = makeRace(
          cleanName(ctx.intent.name, 100),
          ctx.intent.bonuses ? parseRanks(ctx.intent.bonuses) : {},
          stunts,
        );
        return setRace(fateCharacter(row), race);
      },
      (row) => ({ key: "log.fate.sheet", params: { name: row.name } }),
    );
    return {
      reply: {
        content: t(ctx.publicLang, "fate.sheet.raceSet", { name: saved.name, race: ctx.intent.name }),
      },
    };
  },
});

export const characterRatings = defineFateUseCase({
  schema: fateIntents["character.ratings"],
  async run(ctx) {
    const saved = await changeSheet(
      ctx,
      "fate.sheet.ratings",
      (row) => {
        let character = setRatings(fateCharacter(row), { wr: ctx.intent.wr, ar: ctx.intent.ar });
        if (ctx.intent.refresh !== undefined) character = setRefresh(character, ctx.intent.refresh);
        return character;
      },
      (row) => ({ key: "log.fate.sheet", params: { name: row.name } }),
    );
    const c = fateCharacter(saved);
    return {
      reply: {
        content: t(ctx.publicLang, "fate.sheet.ratingsSet", {
          name: saved.name,
          refresh: c.refresh,
          wr: c.wr,
          ar: c.ar,
        }),
      },
    };
  },
});

export const characterUltimate = defineFateUseCase({
  schema: fateIntents["character.ultimate"],
  async run(ctx) {
    const row = await actingCharacter(ctx, ctx.intent.character);
    const before = fateCharacter(row);
    const after = useUltimate(before, ctx.intent.stunt);
    const stunt = findStunt(before, ctx.intent.stunt);
    await saveFateCharacter(ctx.tx, row, after);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.ultimate",
      characterId: row.id,
      summary: {
        key: "log.fate.ultimate",
        params: { name: row.name, stunt: stunt.name, ultimate: stunt.ultimate ?? "" },
      },
      after: { disabledUntilNextWeek: stunt.name, week: tableState(ctx.table).fateWeek },
    });
    return {
      reply: {
        embeds: [
          {
            title: stunt.ultimate ?? stunt.name,
            description: t(ctx.publicLang, "fate.sheet.ultimateUsed", { name: row.name, stunt: stunt.name }),
            tone: "warning",
          },
        ],
      },
    };
  },
});

function skillsText(lang: Lang, row: Character): string {
  const character = fateCharacter(row);
  const byValue = new Map<number, string[]>();
  for (const key of SKILL_KEYS) {
    const value = totalSkill(character, key);
    if (value === 0) continue;
    byValue.set(value, [...(byValue.get(value) ?? []), skillText(lang, key)]);
  }
  return (
    [...byValue.entries()]
      .sort((a, b) => b[0] - a[0])
      .map(([value, names]) => `${signed(value)} ${names.join(", ")}`)
      .join(" · ") || "—"
  );
}

function stuntText(lang: Lang, s: Stunt): string {
  const magic = s.magic ? " ✨" : "";
  const ultimate = s.ultimate
    ? ` — **${s.ultimate}**${s.disabledUntilNextWeek ? ` (${t(lang, "fate.sheet.spentThisWeek")})` : ""}`
    : "";
  return `• **${s.name}**${magic}${s.text ? `: ${s.text}` : ""}${ultimate}`;
}

export const hooks: SystemHooks = {
  /** Saved rolls name skills by key or by their English or Russian name (`4dF+{fight}`, `4dF+{драка}`). */
  sheetNumber(row, name) {
    const wanted = normaliseName(name);
    const skill = SKILLS.find(
      (s) => s.key === wanted || normaliseName(s.en) === wanted || normaliseName(s.ru) === wanted,
    );
    return skill ? totalSkill(fateCharacter(row), skill.key) : undefined;
  },
  async onCharacterCreated(ctx, row) {
    const character = fateCharacter(row);
    await saveFateCharacter(ctx.tx, row, { ...character, fatePoints: character.refresh });
  },
  async sheetFields(ctx, row) {
    const character = fateCharacter(row);
    const aspects = await sqlFor(ctx.tx).rows<AspectRow>`
      SELECT * FROM aspect WHERE character_id = ${row.id} AND removed_at IS NULL ORDER BY id`;
    // Each taken consequence says when it may clear (docs/rules/fate.md §3.3, recovery).
    const recovery = await consequenceRecovery(
      ctx.tx,
      requireTable(ctx).id,
      row.id,
      character.consequences,
      new Date(),
    );
    const consequences = character.consequences
      .map((s) => {
        const line = `${t(ctx.publicLang, `fate.consequenceSlot.${s.id}`)}: ${s.taken ? (s.aspect?.name ?? t(ctx.publicLang, "fate.sheet.unnamed")) : "—"}`;
        const when = recovery.find((r) => r.slot.id === s.id);
        return when ? `${line} (${recoveryText(ctx.publicLang, when)})` : line;
      })
      .join("\n")
      .slice(0, 1024);
    const stunts = allStunts(character).map((s) => stuntText(ctx.publicLang, s));
    return [
      {
        name: t(ctx.publicLang, "fate.sheet.fp"),
        value: t(ctx.publicLang, "fate.sheet.fpValue", {
          fp: row.fatePoints,
          refresh: row.refresh,
          wr: character.wr,
          ar: character.ar,
        }),
      },
      {
        name: t(ctx.publicLang, "fate.sheet.aspects"),
        value:
          aspects
            .map(
              (a) =>
                `• ${t(ctx.publicLang, familyKey("fate.aspectKind.", a.kind))}: ${a.name}${a.freeInvokes > 0 ? ` (${t(ctx.publicLang, "fate.aspect.free", { count: a.freeInvokes })})` : ""}`,
            )
            .join("\n")
            .slice(0, 1024) || "—",
      },
      { name: t(ctx.publicLang, "fate.sheet.skills"), value: skillsText(ctx.publicLang, row).slice(0, 1024) },
      ...(character.race
        ? [{ name: t(ctx.publicLang, "fate.sheet.race"), value: character.race.name, inline: true }]
        : []),
      { name: t(ctx.publicLang, "fate.sheet.stunts"), value: stunts.join("\n").slice(0, 1024) || "—" },
      {
        name: t(ctx.publicLang, "fate.sheet.stress"),
        value: `${t(ctx.publicLang, "fate.stress.physical")}: ${boxesText(character.stress.physical.boxes)}\n${t(ctx.publicLang, "fate.stress.mental")}: ${boxesText(character.stress.mental.boxes)}`,
        inline: true,
      },
      { name: t(ctx.publicLang, "fate.sheet.consequences"), value: consequences, inline: true },
    ];
  },
  async tableFields(ctx) {
    const table = requireTable(ctx);
    const { scene } = await aspectLines(ctx, table);
    const conflict = await openConflict(ctx, table);
    return [
      { name: t(ctx.publicLang, "fate.table.week"), value: String(tableState(table).fateWeek), inline: true },
      ...(conflict
        ? [
            {
              name: t(ctx.publicLang, "fate.table.conflict"),
              value: conflict.state.conflict.title || t(ctx.publicLang, "fate.conflict.untitled"),
              inline: true,
            },
          ]
        : []),
      { name: t(ctx.publicLang, "fate.table.sceneAspects"), value: scene.join("\n").slice(0, 1024) || "—" },
    ];
  },
};
