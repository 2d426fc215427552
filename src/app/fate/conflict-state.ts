import type { Character, GameTable } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import { clearStress } from "../../rules/fate/character.js";
import { conflictWinner, type FateConflict, resolveHit } from "../../rules/fate/conflict.js";
import type { HitAbsorption } from "../../rules/fate/stress.js";
import { sqlFor } from "../../store/db.js";
import { findOpenFlow, saveFlowState, type TypedFlow } from "../flows.js";
import { appendLog } from "../log.js";
import type { ActionContext, Effect } from "../use-case.js";
import type { MessageView } from "../views.js";
import { fateCharacter, saveFateCharacter } from "./state.js";

/** A Fate conflict in the `flow` table (kind `fate.conflict`). */
export interface ConflictFlowState {
  conflict: FateConflict;
  /** Character id → name, for the panel. */
  names: Record<string, string>;
}

export function openConflict(ctx: Pick<ActionContext, "tx">, table: GameTable) {
  return findOpenFlow<ConflictFlowState>(ctx.tx, table.id, "fate.conflict");
}

export function conflictView(
  lang: Lang,
  flowId: number,
  state: ConflictFlowState,
  open: boolean,
): MessageView {
  const { conflict } = state;
  const lines = conflict.participants.map((p) => {
    const status = t(lang, `fate.conflict.status.${p.status}`);
    const side = t(lang, `fate.conflict.side.${p.side}`);
    const consequences =
      p.consequencesTaken > 0
        ? ` · ${t(lang, "fate.conflict.consequences", { count: p.consequencesTaken })}`
        : "";
    return `• **${state.names[p.characterId] ?? p.characterId}** — ${side} · ${status}${consequences}`;
  });
  const winner = conflictWinner(conflict);
  if (conflict.status === "ended") {
    lines.push(
      winner
        ? t(lang, "fate.conflict.won", { side: t(lang, `fate.conflict.side.${winner}`) })
        : t(lang, "fate.conflict.over"),
    );
  }
  return {
    embeds: [
      {
        title: t(lang, "fate.conflict.title", { title: conflict.title || t(lang, "fate.conflict.untitled") }),
        description: lines.join("\n") || t(lang, "fate.conflict.empty"),
        footer: t(lang, "fate.conflict.footer"),
        tone: open ? "info" : "neutral",
      },
    ],
    rows: open
      ? [
          [
            {
              kind: "button",
              label: t(lang, "fate.button.concede"),
              style: "secondary",
              intent: { type: "conflict.concede", flowId },
            },
            {
              kind: "button",
              label: t(lang, "fate.button.endConflict"),
              style: "danger",
              intent: { type: "conflict.end", flowId },
            },
          ],
        ]
      : [],
  };
}

/**
 * The conflict is over (the GM ended it, or one side is left): stress clears for everyone in
 * it (docs/rules/fate.md §3.3), consequences stay, and the flow closes.
 */
export async function finishConflict(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang" | "userLang">,
  table: GameTable,
  flow: TypedFlow<ConflictFlowState>,
  state: ConflictFlowState,
): Promise<Effect[]> {
  for (const p of state.conflict.participants) {
    const row = await sqlFor(ctx.tx).one<Character>`
      SELECT * FROM "character" WHERE id = ${Number(p.characterId)} AND table_id = ${table.id}`;
    if (!row) continue;
    const before = fateCharacter(row);
    await saveFateCharacter(ctx.tx, row, clearStress(before));
  }
  await saveFlowState(ctx.tx, flow.id, state, true);
  await appendLog(ctx, table.id, {
    action: "fate.conflict.end",
    summary: { key: "log.fate.conflictEnd", params: { title: state.conflict.title || "—" } },
    after: { winner: conflictWinner(state.conflict) },
  });
  return [{ kind: "editPanel", flowId: flow.id, view: conflictView(ctx.publicLang, flow.id, state, false) }];
}

/** Records a hit taken by `characterId` in the open conflict, if they are in it; ends it when a side is out. */
export async function recordHitInConflict(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang" | "userLang">,
  table: GameTable,
  characterId: number,
  absorption: HitAbsorption,
): Promise<Effect[]> {
  const flow = await openConflict(ctx, table);
  if (!flow) return [];
  const participant = flow.state.conflict.participants.find((p) => p.characterId === String(characterId));
  if (participant?.status !== "in") return [];
  const state: ConflictFlowState = {
    ...flow.state,
    conflict: resolveHit(flow.state.conflict, String(characterId), absorption),
  };
  if (state.conflict.status === "ended") return finishConflict(ctx, table, flow, state);
  await saveFlowState(ctx.tx, flow.id, state);
  return [{ kind: "editPanel", flowId: flow.id, view: conflictView(ctx.publicLang, flow.id, state, true) }];
}
