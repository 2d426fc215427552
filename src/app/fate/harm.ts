import type { Character, GameTable } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { takeHit } from "../../rules/fate/character.js";
import type { HitAbsorption, StressKind } from "../../rules/fate/stress.js";
import { appendLog } from "../log.js";
import type { ActionContext, Effect } from "../use-case.js";
import { recordHitInConflict } from "./conflict-state.js";
import { fateCharacter, saveFateCharacter } from "./state.js";

/** The sentence describing how a hit was taken. */
export function absorptionText(lang: Lang, name: string, absorption: HitAbsorption): string {
  if (absorption.kind === "takenOut") {
    return t(lang, "fate.hit.takenOut", { name, shifts: absorption.shifts, capacity: absorption.capacity });
  }
  const parts: string[] = [];
  if (absorption.boxes.length > 0) {
    parts.push(
      t(lang, "fate.hit.boxes", {
        count: absorption.boxes.length,
        boxes: absorption.boxes.map((b) => b + 1).join(", "),
      }),
    );
  }
  for (const slot of absorption.consequences) parts.push(t(lang, `fate.consequenceSlot.${slot}`));
  if (parts.length === 0) return t(lang, "fate.hit.nothing", { name });
  return t(lang, "fate.hit.absorbed", { name, shifts: absorption.shifts, parts: parts.join(", ") });
}

/**
 * A hit of `shifts` on a stored character: absorbed by the default choice (see `absorbHit`)
 * or taking them out; logged, and counted in the open conflict.
 */
export async function applyHit(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang" | "userLang">,
  table: GameTable,
  row: Character,
  shifts: number,
  kind: StressKind,
): Promise<{ text: string; absorption: HitAbsorption; effects: Effect[]; row: Character }> {
  const before = fateCharacter(row);
  const { character, absorption } = takeHit(before, shifts, kind);
  const saved = await saveFateCharacter(ctx.tx, row, character);
  await appendLog(ctx, table.id, {
    action: "fate.hit",
    characterId: row.id,
    summary: {
      key: absorption.kind === "takenOut" ? "log.fate.takenOut" : "log.fate.hit",
      params: { name: row.name, shifts, kind: `@fate.stress.${kind}` },
    },
    before: {
      stress: before.stress[kind].boxes,
      consequences: before.consequences.filter((s) => s.taken).map((s) => s.id),
    },
    after: {
      stress: character.stress[kind].boxes,
      consequences: character.consequences.filter((s) => s.taken).map((s) => s.id),
      takenOut: absorption.kind === "takenOut",
    },
  });
  const effects = await recordHitInConflict(ctx, table, row.id, absorption);
  const consequenceHint =
    absorption.kind === "absorbed" && absorption.consequences.length > 0
      ? `\n${t(ctx.publicLang, "fate.hit.nameConsequence", { name: row.name })}`
      : "";
  return {
    text: absorptionText(ctx.publicLang, row.name, absorption) + consequenceHint,
    absorption,
    effects,
    row: saved,
  };
}
