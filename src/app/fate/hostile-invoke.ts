/** A hostile invoke (docs/rules/fate.md §3.2): the fate point paid goes to the aspect's character. */

import type { GameTable } from "../../generated/prisma/client.js";
import { t } from "../../i18n/index.js";
import type { Invoker } from "../../rules/fate/aspects.js";
import type { InvokePayment } from "../../rules/fate/check.js";
import { gainFatePoints } from "../../rules/fate/fate-points.js";
import { characterAtTable } from "../../store/characters.js";
import { appendLog } from "../log.js";
import type { ActionContext } from "../use-case.js";
import { sideOf } from "./conflict-state.js";
import { saveFatePoints, type TableAspect } from "./state.js";

/**
 * An aspect of a character of another side, invoked with a fate point: that character gets the
 * point at once (Fate Core gives it at the end of the scene; at once, it is seen being paid and
 * no scene's end can lose it). An ally's aspect, or a free invoke, pays nobody. Returns the note
 * for the invoke's answer, or null.
 */
export async function payHostileInvoke(
  ctx: Pick<ActionContext, "tx" | "actor" | "publicLang">,
  table: GameTable,
  found: TableAspect,
  invoker: Invoker,
  paidWith: InvokePayment,
): Promise<string | null> {
  if (paidWith !== "fate-point" || found.characterId === null) return null;
  if (String(found.characterId) === invoker.id) return null;
  const owner = await characterAtTable(ctx.tx, table.id, found.characterId);
  if (!owner) return null;
  if ((await sideOf(ctx, table, owner)) === invoker.side) return null;
  const after = gainFatePoints(owner, 1).fatePoints;
  await saveFatePoints(ctx.tx, owner.id, after);
  await appendLog(ctx, table.id, {
    action: "fate.invoke.hostile",
    characterId: owner.id,
    summary: { key: "log.fate.hostileInvoke", params: { name: owner.name, aspect: found.aspect.name } },
    before: { fatePoints: owner.fatePoints },
    after: { fatePoints: after },
  });
  return t(ctx.publicLang, "fate.invoke.hostilePaid", {
    name: owner.name,
    aspect: found.aspect.name,
    from: owner.fatePoints,
    to: after,
  });
}
