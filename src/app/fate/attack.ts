/** An attack after its roll (docs/rules/fate.md §3.1, §3.3): the defence, the hit applied or the attack settled, and the boosts it gives. */

import type { Character, Flow, GameTable } from "../../generated/prisma/client.js";
import { t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { makeAspect } from "../../rules/fate/aspects.js";
import { checkShifts } from "../../rules/fate/check.js";
import { hitAfterRatings, outcome } from "../../rules/fate/outcomes.js";
import { resolveSkill, type SkillKey } from "../../rules/fate/skills.js";
import type { StressKind } from "../../rules/fate/stress.js";
import { sqlFor } from "../../store/db.js";
import { isGm, requireControl } from "../access.js";
import {
  panelEdit,
  requireFlow,
  saveFlowState,
  type TypedFlow,
  typedFlow,
  typedFlowOrNull,
} from "../flows.js";
import { appendLog } from "../log.js";
import { cleanName, nameKey } from "../names.js";
import type { ActionContext, Effect } from "../use-case.js";
import type { ModalView } from "../views.js";
import { type Ctx, panel, rollDefence } from "./check.js";
import { attackHit } from "./check-view.js";
import { passTurnAfterAttack, sideOf } from "./conflict-state.js";
import { checkFlow } from "./flow-states.js";
import { landHit } from "./harm.js";
import { fateIntents } from "./intents.js";
import { type CheckFlowState, characterById, fateCharacter, insertAspect, tableAspects } from "./state.js";
import { defineFateUseCase } from "./use-cases.js";

/** Attacks with these skills harm the mind; these the body; any other (magic through Lore, say) asks which (docs/rules/fate.md §3.3). */
const MENTAL_ATTACK_SKILLS: readonly SkillKey[] = ["provoke", "deceive", "eloquence", "empathy", "will"];
const PHYSICAL_ATTACK_SKILLS: readonly SkillKey[] = [
  "fight",
  "shoot",
  "athletics",
  "physique",
  "riding",
  "thievery",
];

/** The track an attack with `skill` hits; null when the skill does not say and the target chooses. */
export function attackKind(skill: SkillKey): StressKind | null {
  if (MENTAL_ATTACK_SKILLS.includes(skill)) return "mental";
  if (PHYSICAL_ATTACK_SKILLS.includes(skill)) return "physical";
  return null;
}

export const defend = defineFateUseCase({
  schema: fateIntents["fate.defend"],
  async run(ctx) {
    const attack = await requireFlow(ctx.tx, checkFlow, ctx.table.id, ctx.intent.flowId);
    if (!attack.state.awaitingDefence || attack.state.targetId === null)
      refuse("errors.fate.notAwaitingDefence");
    const defender = await characterById(ctx.tx, ctx.table.id, attack.state.targetId);
    requireControl(ctx, defender);
    const skill = resolveSkill(ctx.intent.skill);
    const defence = await rollDefence(ctx, ctx.table, attack, defender, skill, ctx.intent.bonus ?? 0);
    if (attackHit(defence.attackState) > 0) {
      return {
        reply: panel(ctx, defence.flow, defence.state),
        replyIsPanelOf: defence.flow.id,
        effects: defence.effects,
      };
    }
    // The defence wins or ties: the attack settles itself (its boost made), blocking nobody.
    const attackEffects = defence.effects.filter((e) => !("flowId" in e) || e.flowId !== attack.id);
    const settled = await settleWithoutHit(ctx, ctx.table, attack, defence.attackState, undefined);
    await saveFlowState(ctx.tx, checkFlow, defence.flow.id, defence.state, true);
    const view = panel(ctx, defence.flow, defence.state, false);
    return {
      reply: { ...view, content: settled.lines.join("\n") },
      replyIsPanelOf: defence.flow.id,
      // The defence's panel is this answer: no edit of a message not posted yet.
      effects: [
        ...attackEffects,
        ...settled.effects.filter((e) => !("flowId" in e) || e.flowId !== defence.flow.id),
      ],
    };
  },
});

/** Open attack checks rolled against `targetId` whose hit is not settled yet: the dice are down. */
export async function unsettledAttacksOn(
  ctx: Pick<ActionContext, "tx">,
  table: GameTable,
  targetId: number,
): Promise<TypedFlow<CheckFlowState>[]> {
  const flows = (
    await sqlFor(ctx.tx).rows<Flow>`
    SELECT * FROM flow
    WHERE table_id = ${table.id} AND kind = 'fate.check' AND status = 'open'
      AND state -> 'targetId' = ${JSON.stringify(targetId)}::jsonb
    ORDER BY id`
  ).map((row) => typedFlow(checkFlow, row));
  return flows.filter((f) => f.state.check.action === "attack" && f.state.hitApplied === null);
}

/** Closes an attack and the defence linked to it: the action is settled, no more invokes on either. */
async function closeAttack(
  ctx: Ctx,
  table: GameTable,
  attack: TypedFlow<CheckFlowState>,
  state: CheckFlowState,
): Promise<Effect[]> {
  await saveFlowState(ctx.tx, checkFlow, attack.id, state, true);
  const effects: Effect[] = [panelEdit(attack, panel(ctx, attack, state, false))];
  if (state.linkFlowId !== null) {
    const defence = typedFlowOrNull(
      checkFlow,
      await sqlFor(ctx.tx).one<Flow>`
      SELECT * FROM flow WHERE id = ${state.linkFlowId} AND table_id = ${table.id} AND status = 'open'`,
    );
    if (defence) {
      await saveFlowState(ctx.tx, checkFlow, defence.id, defence.state, true);
      effects.push(panelEdit(defence, panel(ctx, defence, defence.state, false)));
    }
  }
  return effects;
}

/**
 * A hit by hand (`/stress hit`) on someone an attack has already hit: that attack's hit is settled by
 * it, so its Apply button goes away and the hit lands once (docs/rules/fate.md §3.3).
 */
export async function settleAttacksOn(
  ctx: Ctx,
  table: GameTable,
  targetId: number,
  shifts: number,
): Promise<{ texts: string[]; effects: Effect[] }> {
  const texts: string[] = [];
  const effects: Effect[] = [];
  for (const attack of await unsettledAttacksOn(ctx, table, targetId)) {
    if (attackHit(attack.state) <= 0) continue;
    const settled: CheckFlowState = { ...attack.state, hitApplied: shifts };
    effects.push(...(await closeAttack(ctx, table, attack, settled)));
    texts.push(
      t(ctx.publicLang, "fate.hit.settlesAttack", {
        attacker: attack.state.rollerName,
        target: attack.state.targetName ?? "",
      }),
    );
  }
  return { texts, effects };
}

/** The hit an attack deals now: its shifts, less one when the attacker traded it for a boost. */
function dealtHit(state: CheckFlowState): number {
  const hit = attackHit(state);
  return hit > 0 && state.tradedForBoost ? hit - 1 : hit;
}

/** A boost (docs/rules/fate.md §3.2): a scene aspect with one free invoke for its owner's side, named by default. */
export async function createBoost(
  ctx: Ctx,
  table: GameTable,
  owner: Character,
  name?: string,
): Promise<string> {
  const side = await sideOf(ctx, table, owner);
  const base = cleanName(name ?? t(ctx.publicLang, "fate.boost.defaultName", { name: owner.name }), 90);
  const existing = (await tableAspects(ctx.tx, table.id)).map((a) => nameKey(a.aspect.name));
  let boostName = base;
  for (let n = 2; existing.includes(nameKey(boostName)); n += 1) boostName = `${base} ${n}`;
  const boost = makeAspect(boostName, "boost", { holderId: String(owner.id), side });
  await insertAspect(ctx.tx, table.id, null, boost);
  await appendLog(ctx, table.id, {
    action: "fate.boost",
    characterId: owner.id,
    summary: { key: "log.fate.boost", params: { name: owner.name, aspect: boost.name } },
    after: { side },
  });
  return boost.name;
}

/** Whether the actor names `owner`'s boost: its player, or the GM for the GM's characters. */
function ownsBoost(ctx: Ctx, table: GameTable, owner: Character): boolean {
  return owner.ownerUserId === ctx.actor.userId || (owner.ownerUserId === null && isGm(table, ctx.actor));
}

/** The form in which a boost's owner names it; the default name is filled in. */
function boostForm(
  ctx: Ctx,
  intent: { type: "fate.resolve-attack" | "fate.trade-boost"; flowId: number },
  owner: Character,
): ModalView {
  return {
    title: t(ctx.userLang, "fate.boost.formTitle").slice(0, 45),
    intent,
    inputs: [
      {
        field: "name",
        label: t(ctx.userLang, "fate.boost.formLabel"),
        style: "short" as const,
        value: t(ctx.publicLang, "fate.boost.defaultName", { name: owner.name }).slice(0, 90),
        maxLength: 90,
      },
    ],
  };
}

/**
 * Apply on an attack's hit: the target's player or the GM (docs/rules/fate.md §3.3). The attack
 * and its defence close (settled); the target then chooses how to take it (or it lands at once
 * when there is one way).
 */
export const applyAttackHit = defineFateUseCase({
  schema: fateIntents["fate.apply-hit"],
  async run(ctx) {
    const flow = await requireFlow(ctx.tx, checkFlow, ctx.table.id, ctx.intent.flowId);
    const state = flow.state;
    if (state.hitApplied !== null) refuse("errors.fate.hitAlreadyApplied");
    const hit = dealtHit(state);
    if (attackHit(state) <= 0 || state.targetId === null) refuse("errors.fate.noHit");
    const target = await characterById(ctx.tx, ctx.table.id, state.targetId!);
    if (!isGm(ctx.table, ctx.actor) && target.ownerUserId !== ctx.actor.userId) {
      refuse("errors.fate.applyIsForTarget", { target: target.name });
    }
    const attacker = await characterById(ctx.tx, ctx.table.id, state.rollerId);
    const kind = ctx.intent.kind ?? attackKind(state.check.skill);
    // Armour is against bodily harm and magic (the seed: orcs' AR against magic attacks), not
    // against a mental hit of Provoke, Deceive and the like.
    const skillKind = attackKind(state.check.skill);
    const armour = skillKind === null || (kind ?? skillKind) === "physical" ? fateCharacter(target).ar : 0;
    const shifts = hitAfterRatings(hit, { wr: fateCharacter(attacker).wr, ar: armour });
    const next: CheckFlowState = { ...state, hitApplied: shifts };
    const closed = await closeAttack(ctx, ctx.table, flow, next);
    const landed = await landHit(
      ctx,
      ctx.table,
      target,
      shifts,
      kind,
      { id: attacker.id, name: attacker.name, side: await sideOf(ctx, ctx.table, attacker) },
      flow.id,
    );
    const ratings = shifts !== hit ? ` ${t(ctx.publicLang, "fate.hit.ratings", { hit, shifts })}` : "";
    // WR/AR are said with a hit that lands at once; a waiting hit's panel shows the shifts after them.
    const view =
      landed.flowId === null && landed.view.content !== undefined
        ? { ...landed.view, content: landed.view.content + ratings }
        : landed.view;
    return {
      reply: view,
      replyIsPanelOf: landed.flowId ?? undefined,
      effects: [...closed, ...landed.effects],
    };
  },
});

/**
 * Settles an attack that dealt no hit (docs/rules/fate.md §3.1): a tie on attack or defence gives
 * the attacker a boost, a defence with style the defender one; the attack and defence close.
 */
export const resolveAttack = defineFateUseCase({
  schema: fateIntents["fate.resolve-attack"],
  async run(ctx) {
    const flow = await requireFlow(ctx.tx, checkFlow, ctx.table.id, ctx.intent.flowId);
    const state = flow.state;
    const shifts = checkShifts(state.check);
    if (state.check.action !== "attack" || shifts === null || state.awaitingDefence)
      refuse("errors.fate.notResolvable");
    if (attackHit(state) > 0) refuse("errors.fate.hitToApply");
    const attacker = await characterById(ctx.tx, ctx.table.id, state.rollerId);
    const target = state.targetId !== null ? await characterById(ctx.tx, ctx.table.id, state.targetId) : null;
    const involved =
      isGm(ctx.table, ctx.actor) ||
      attacker.ownerUserId === ctx.actor.userId ||
      (target !== null && target.ownerUserId === ctx.actor.userId);
    if (!involved) refuse("errors.fate.notInThisAttack");
    const owner = boostOwner(state, attacker, target);
    // A boost is named by its owner: their player pressing the button names it in a form.
    if (
      owner &&
      ctx.intent.name === undefined &&
      ctx.invocation.sourceMessageId !== undefined &&
      ownsBoost(ctx, ctx.table, owner)
    ) {
      return { modal: boostForm(ctx, { type: "fate.resolve-attack", flowId: flow.id }, owner) };
    }
    const settled = await settleWithoutHit(ctx, ctx.table, flow, state, ctx.intent.name);
    return { reply: { content: settled.lines.join("\n") }, effects: settled.effects };
  },
});

/** Who gets the boost of an attack settled without a hit: the attacker on a tie, the defender on a defence with style. */
function boostOwner(state: CheckFlowState, attacker: Character, target: Character | null): Character | null {
  const shifts = checkShifts(state.check) ?? 0;
  return outcome(shifts) === "tie" ? attacker : shifts <= -3 ? target : null;
}

/**
 * An attack settled without a hit (docs/rules/fate.md §3.1): its boost made (named `name` when its
 * owner's player gave one, else by default), the attack and its defence closed.
 */
async function settleWithoutHit(
  ctx: Ctx,
  table: GameTable,
  flow: TypedFlow<CheckFlowState>,
  state: CheckFlowState,
  name: string | undefined,
): Promise<{ lines: string[]; effects: Effect[] }> {
  const attacker = await characterById(ctx.tx, table.id, state.rollerId);
  const target = state.targetId !== null ? await characterById(ctx.tx, table.id, state.targetId) : null;
  const result = outcome(checkShifts(state.check) ?? 0);
  const lines = [
    t(ctx.publicLang, "fate.attack.resolved", {
      attacker: attacker.name,
      outcome: `@fate.outcome.${result}`,
    }),
  ];
  const owner = boostOwner(state, attacker, target);
  if (owner) {
    const boost = await createBoost(ctx, table, owner, ownsBoost(ctx, table, owner) ? name : undefined);
    lines.push(t(ctx.publicLang, "fate.boost.created", { name: owner.name, aspect: boost }));
  }
  const next: CheckFlowState = { ...state, hitApplied: 0 };
  const closed = await closeAttack(ctx, table, flow, next);
  return { lines, effects: [...closed, ...(await passTurnAfterAttack(ctx, table, attacker.id))] };
}

/** Success with style on attack: the attacker lowers the hit by one and takes a boost (docs/rules/fate.md §3.1). */
export const tradeHitForBoost = defineFateUseCase({
  schema: fateIntents["fate.trade-boost"],
  async run(ctx) {
    const flow = await requireFlow(ctx.tx, checkFlow, ctx.table.id, ctx.intent.flowId);
    const state = flow.state;
    const shifts = checkShifts(state.check);
    if (state.check.action !== "attack" || shifts === null || outcome(shifts) !== "style")
      refuse("errors.fate.cannotTradeHit");
    if (state.hitApplied !== null) refuse("errors.fate.hitAlreadyApplied");
    if (state.tradedForBoost) refuse("errors.fate.alreadyTraded");
    const attacker = await characterById(ctx.tx, ctx.table.id, state.rollerId);
    requireControl(ctx, attacker);
    if (ctx.intent.name === undefined && ctx.invocation.sourceMessageId !== undefined) {
      return { modal: boostForm(ctx, { type: "fate.trade-boost", flowId: flow.id }, attacker) };
    }
    const boost = await createBoost(ctx, ctx.table, attacker, ctx.intent.name);
    const next: CheckFlowState = { ...state, tradedForBoost: true };
    await saveFlowState(ctx.tx, checkFlow, flow.id, next);
    return {
      reply: {
        content: t(ctx.publicLang, "fate.boost.traded", {
          name: attacker.name,
          aspect: boost,
          hit: attackHit(state) - 1,
          target: state.targetName ?? "—",
        }),
      },
      effects: [panelEdit(flow, panel(ctx, flow, next))],
    };
  },
});
