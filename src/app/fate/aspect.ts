import type { Aspect as AspectRow, GameTable } from "../../generated/prisma/client.js";
import { familyKey, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { CHARACTER_ASPECT_KINDS, makeAspect } from "../../rules/fate/aspects.js";
import { sceneCompel } from "../../rules/fate/compel.js";
import { characterById, ownedCharacters } from "../../store/characters.js";
import { sqlFor } from "../../store/db.js";
import { findCharacter, isGm, requireControl, requireGm, requireTable } from "../access.js";
import { appendLog } from "../log.js";
import { cleanName, nameKey } from "../names.js";
import type { ActionContext } from "../use-case.js";
import { openConflict } from "./conflict-state.js";
import { fateIntents } from "./intents.js";
import { findTableAspect, liveCharacters, saveFatePoints, tableAspects } from "./state.js";
import { defineFateUseCase } from "./use-cases.js";

export const aspectAdd = defineFateUseCase({
  schema: fateIntents["aspect.add"],
  async run(ctx) {
    const gm = isGm(ctx.table, ctx.actor);
    const kind = ctx.intent.kind ?? "situational";
    const characterKind = (CHARACTER_ASPECT_KINDS as readonly string[]).includes(kind);
    // A character aspect goes on the named character, else on the actor's one character.
    const owner = ctx.intent.character
      ? await findCharacter(ctx.tx, ctx.table.id, ctx.intent.character)
      : characterKind
        ? await ownCharacterOrNull(ctx)
        : null;
    if (owner) requireControl(ctx, owner, { gmMayActForPlayers: true });
    if (!owner && characterKind) refuse("errors.fate.characterAspectNeedsCharacter");
    // Free invokes come from rolls (create an advantage); by hand only the GM hands them out.
    if ((ctx.intent.invokes ?? 0) > 0 && !gm) refuse("errors.fate.invokesGmOnly");
    const aspect = makeAspect(cleanName(ctx.intent.name, 100), kind, {
      freeInvokes: ctx.intent.invokes ?? 0,
    });
    const here = await sqlFor(ctx.tx).rows<AspectRow>`
      SELECT * FROM aspect
      WHERE table_id = ${ctx.table.id} AND character_id IS NOT DISTINCT FROM ${owner?.id ?? null}::int AND removed_at IS NULL
      ORDER BY id`;
    if (here.some((a) => a.nameKey === nameKey(aspect.name)))
      refuse("errors.fate.aspectExists", { name: aspect.name });
    // One aspect of each character kind: a new Ambition replaces the old one.
    const replaced = (CHARACTER_ASPECT_KINDS as readonly string[]).includes(kind)
      ? here.find((a) => a.kind === kind)
      : undefined;
    if (replaced)
      await sqlFor(ctx.tx).run`UPDATE aspect SET removed_at = ${ctx.now} WHERE id = ${replaced.id}`;
    await sqlFor(ctx.tx).run`
      INSERT INTO aspect (table_id, character_id, name, name_key, kind, free_invokes, created_at)
      VALUES (${ctx.table.id}, ${owner?.id ?? null}, ${aspect.name}, ${nameKey(aspect.name)}, ${kind},
              ${aspect.freeInvokes.length}, ${new Date()})`;
    await appendLog(ctx, ctx.table.id, {
      action: "fate.aspect.add",
      characterId: owner?.id ?? null,
      summary: {
        key: "log.fate.aspectAdd",
        params: {
          aspect: aspect.name,
          where: owner?.name ?? "@fate.aspect.scene",
          invokes: aspect.freeInvokes.length,
        },
      },
      before: replaced ? { replaced: replaced.name } : undefined,
      after: { kind, freeInvokes: aspect.freeInvokes.length },
    });
    return {
      reply: {
        content: t(ctx.publicLang, "fate.aspect.added", {
          aspect: aspect.name,
          kind: `@fate.aspectKind.${kind}`,
          where: owner?.name ?? t(ctx.publicLang, "fate.aspect.scene"),
          invokes: aspect.freeInvokes.length,
        }),
      },
    };
  },
});

export const aspectRemove = defineFateUseCase({
  schema: fateIntents["aspect.remove"],
  async run(ctx) {
    const owner = ctx.intent.character
      ? await findCharacter(ctx.tx, ctx.table.id, ctx.intent.character)
      : null;
    const found = await findTableAspect(ctx.tx, ctx.table.id, ctx.intent.name, owner?.id ?? null);
    if (!found.ref.startsWith("a")) refuse("errors.fate.consequenceUseCommand");
    if (found.characterId === null) requireGm(ctx);
    else {
      const character = await characterById(ctx.tx, found.characterId);
      if (!character) throw new Error(`character ${found.characterId} not found`);
      requireControl(ctx, character, { gmMayActForPlayers: true });
    }
    await sqlFor(ctx.tx)
      .run`UPDATE aspect SET removed_at = ${ctx.now} WHERE id = ${Number(found.ref.slice(1))}`;
    await appendLog(ctx, ctx.table.id, {
      action: "fate.aspect.remove",
      characterId: found.characterId,
      summary: { key: "log.fate.aspectRemove", params: { aspect: found.aspect.name } },
      before: { freeInvokes: found.aspect.freeInvokes.length },
    });
    return { reply: { content: t(ctx.publicLang, "fate.aspect.removed", { aspect: found.aspect.name }) } };
  },
});

export async function aspectLines(ctx: Pick<ActionContext, "tx" | "publicLang">, table: GameTable) {
  const all = await tableAspects(ctx.tx, table.id);
  const names = new Map((await liveCharacters(ctx.tx, table.id)).map((c) => [String(c.id), c.name]));
  // Whose the free invokes are (docs/rules/fate.md §3.2): "Ilsa ×1, anyone ×1".
  const owners = (a: (typeof all)[number]) => {
    const counts = new Map<string, number>();
    for (const f of a.aspect.freeInvokes) {
      const who = f.holderId
        ? (names.get(f.holderId) ?? t(ctx.publicLang, familyKey("fate.conflict.side.", f.side ?? "pc")))
        : f.side
          ? t(ctx.publicLang, familyKey("fate.conflict.side.", f.side))
          : t(ctx.publicLang, "fate.aspect.anyone");
      counts.set(who, (counts.get(who) ?? 0) + 1);
    }
    return [...counts.entries()].map(([who, n]) => `${who} ×${n}`).join(", ");
  };
  const line = (a: (typeof all)[number]) =>
    `• ${a.aspect.name} — ${t(ctx.publicLang, `fate.aspectKind.${a.aspect.kind}`)}${
      a.aspect.freeInvokes.length > 0
        ? ` · ${t(ctx.publicLang, "fate.aspect.free", { count: a.aspect.freeInvokes.length })} (${owners(a)})`
        : ""
    }`;
  const scene = all.filter((a) => a.characterId === null).map(line);
  const byCharacter = new Map<string, string[]>();
  for (const a of all.filter((x) => x.characterId !== null)) {
    const list = byCharacter.get(a.characterName ?? "?") ?? [];
    list.push(line(a));
    byCharacter.set(a.characterName ?? "?", list);
  }
  return { scene, byCharacter };
}

export const aspectList = defineFateUseCase({
  schema: fateIntents["aspect.list"],
  mutates: false,
  async run(ctx) {
    const { scene, byCharacter } = await aspectLines(ctx, ctx.table);
    const fields = [...byCharacter.entries()].slice(0, 24).map(([name, lines]) => ({
      name,
      value: lines.join("\n").slice(0, 1024),
    }));
    return {
      reply: {
        embeds: [
          {
            title: t(ctx.publicLang, "fate.aspect.listTitle"),
            description: `**${t(ctx.publicLang, "fate.aspect.scene")}**\n${scene.join("\n") || "—"}`.slice(
              0,
              4000,
            ),
            fields,
            tone: "info",
          },
        ],
      },
    };
  },
});

/**
 * A compel on a scene aspect that affects everyone (GM): each character in the scene gets
 * 1 FP — the characters in the open conflict, otherwise every player character at the table.
 */
export const aspectCompel = defineFateUseCase({
  schema: fateIntents["aspect.compel"],
  access: "gm",
  async run(ctx) {
    const found = await findTableAspect(ctx.tx, ctx.table.id, ctx.intent.name);
    if (found.characterId !== null) refuse("errors.fate.notSceneAspect", { aspect: found.aspect.name });
    const conflict = await openConflict(ctx, ctx.table);
    const inConflict = new Set(
      conflict?.state.conflict.participants
        .filter((p) => p.status === "in")
        .map((p) => Number(p.characterId)) ?? [],
    );
    const everyone = (await liveCharacters(ctx.tx, ctx.table.id)).filter((c) =>
      conflict ? inConflict.has(c.id) : c.kind === "pc" && c.status === "active",
    );
    const after = sceneCompel(everyone);
    for (const [i, row] of everyone.entries()) {
      await saveFatePoints(ctx.tx, row.id, after[i]!.fatePoints);
      await appendLog(ctx, ctx.table.id, {
        action: "fate.compel.scene",
        characterId: row.id,
        summary: { key: "log.fate.sceneCompel", params: { name: row.name, aspect: found.aspect.name } },
        before: { fatePoints: row.fatePoints },
        after: { fatePoints: after[i]!.fatePoints },
      });
    }
    return {
      reply: {
        content: t(ctx.publicLang, "fate.compel.scene", {
          aspect: found.aspect.name,
          names: everyone.map((c) => c.name).join(", ") || "—",
        }),
      },
    };
  },
});

/** The actor's only character at the table, or null (none, or several: then it must be named). */
async function ownCharacterOrNull(ctx: Pick<ActionContext, "table" | "actor" | "tx">) {
  const table = requireTable(ctx);
  const own = await ownedCharacters(ctx.tx, table.id, ctx.actor.userId);
  return own.length === 1 ? own[0]! : null;
}
