import type { Character, Flow, GameTable } from "../../generated/prisma/client.js";
import { t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { type FreeInvoke, makeAspect, sameAspectName } from "../../rules/fate/aspects.js";
import { totalSkill } from "../../rules/fate/character.js";
import {
  checkResult,
  checkShifts,
  makeCheck,
  type Opposition,
  withOpposition,
} from "../../rules/fate/check.js";
import { type ACTIONS, actionOutcome, outcome } from "../../rules/fate/outcomes.js";
import { resolveSkill, type SkillKey } from "../../rules/fate/skills.js";
import { sqlFor } from "../../store/db.js";
import { type BatchedStatement, literalSql, modelFromRow } from "../../store/sql.js";
import { actingCharacter, findCharacter, requireControl } from "../access.js";
import {
  createdFlow,
  newFlowStatement,
  panelEdit,
  requireFlow,
  saveFlowState,
  type TypedFlow,
  typedFlow,
} from "../flows.js";
import { appendLog } from "../log.js";
import { cleanName } from "../names.js";
import type { ActionContext, Effect } from "../use-case.js";
import type { ComponentView, MessageView } from "../views.js";
import { createBoost } from "./attack.js";
import { checkView } from "./check-view.js";
import { sideOf } from "./conflict-state.js";
import { checkFlow } from "./flow-states.js";
import { refuseIfOutOfTheFight } from "./harm.js";
import { fateIntents } from "./intents.js";
import {
  type CheckFlowState,
  characterById,
  fateCharacter,
  findTableAspect,
  holdersJson,
  insertAspect,
  tableAspects,
} from "./state.js";
import { defineFateUseCase } from "./use-cases.js";
import { ladderText } from "./views.js";

export type Ctx = Pick<
  ActionContext,
  "tx" | "actor" | "publicLang" | "userLang" | "dice" | "table" | "invocation"
>;

/** The panel of a check as it is now, with the extra buttons this state allows. */
export function panel(
  ctx: Pick<ActionContext, "publicLang" | "userLang">,
  flow: { id: number },
  state: CheckFlowState,
  open = true,
): MessageView {
  const view = checkView(ctx.publicLang, flow.id, state, open);
  const shifts = checkShifts(state.check);
  if (
    open &&
    state.check.action === "advantage" &&
    state.aspect &&
    !state.advantageDone &&
    shifts !== null &&
    shifts >= 0
  ) {
    const claim: ComponentView = {
      kind: "button",
      style: "success",
      label: t(ctx.publicLang, "fate.button.claimAdvantage", { aspect: state.aspect.slice(0, 40) }),
      intent: { type: "fate.claim-advantage", flowId: flow.id },
    };
    view.rows = [...(view.rows ?? [])];
    view.rows[0] = [...(view.rows[0] ?? []), claim];
  }
  if (
    open &&
    state.check.action === "advantage" &&
    state.aspect &&
    !state.advantageDone &&
    shifts !== null &&
    shifts < 0
  ) {
    // «…или добавляете, но его бесплатно призывает кто-то другой»: the roller may still put it in play, for the opponent.
    const forOpponent: ComponentView = {
      kind: "button",
      style: "secondary",
      label: t(ctx.publicLang, "fate.button.claimForOpponent", { aspect: state.aspect.slice(0, 40) }),
      intent: { type: "fate.claim-advantage", flowId: flow.id },
    };
    view.rows = [...(view.rows ?? [])];
    view.rows[0] = [...(view.rows[0] ?? []), forOpponent];
  }
  if (
    open &&
    state.check.action === "advantage" &&
    state.check.opposition.kind === "none" &&
    state.contestFlowId === null
  ) {
    // Create an advantage with no opposition: the GM sets the difficulty after the roll.
    view.rows = [
      ...(view.rows ?? []),
      [
        {
          kind: "select",
          intent: { type: "fate.set-difficulty", flowId: flow.id },
          field: "vs",
          placeholder: t(ctx.publicLang, "fate.select.difficulty"),
          options: [-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8].map((v) => ({
            label: ladderText(ctx.publicLang, v),
            value: String(v),
          })),
        },
      ],
    ];
  }
  return view;
}

/**
 * Older checks of the same roller stop taking invokes: "your latest check" is unambiguous. An
 * attack on someone whose hit is not settled stays open (its panel still applies or settles it).
 * One statement finds and closes them (a contest's rolls stay open; their state is unchanged); it
 * goes with the new check's INSERT, in one round trip.
 */
function closeOlderChecks(table: GameTable, rollerId: number, now: Date): BatchedStatement {
  return literalSql`
    UPDATE flow SET status = 'closed', closed_at = ${now}, updated_at = ${now}
    WHERE table_id = ${table.id} AND kind = 'fate.check' AND status = 'open'
      AND state -> 'rollerId' = ${JSON.stringify(rollerId)}::jsonb AND state -> 'contestFlowId' = 'null'::jsonb
      -- An attack on someone stays open until its hit is settled: the dice are down (docs/rules/fate.md §3.4).
      AND NOT (state -> 'check' ->> 'action' = 'attack' AND state -> 'targetId' <> 'null'::jsonb
               AND state -> 'hitApplied' = 'null'::jsonb)
    RETURNING *`;
}

/** The closed checks' panels, redrawn without their controls. */
function closedPanels(ctx: Ctx, rows: Record<string, unknown>[]): Effect[] {
  return rows
    .map((row) => typedFlow(checkFlow, modelFromRow<Flow>(row)))
    .sort((a, b) => a.id - b.id)
    .map((flow) => panelEdit(flow, panel(ctx, flow, flow.state, false)));
}

/** Rolls a check and stores it as a flow. */
export async function rollCheck(
  ctx: Ctx,
  table: GameTable,
  roller: Character,
  input: {
    skill: SkillKey;
    action: (typeof ACTIONS)[number];
    bonus: number;
    opposition: Opposition;
    target: Character | null;
    aspect: string | null;
    existingAspect: boolean;
    awaitingDefence: boolean;
    linkFlowId: number | null;
    contestFlowId: number | null;
  },
): Promise<{ flow: TypedFlow<CheckFlowState>; state: CheckFlowState; effects: Effect[] }> {
  const character = fateCharacter(roller);
  const check = makeCheck(
    {
      characterId: String(roller.id),
      skill: input.skill,
      skillValue: totalSkill(character, input.skill),
      bonus: input.bonus,
      action: input.action,
      opposition: input.opposition,
    },
    ctx.dice,
  );
  const state: CheckFlowState = {
    check,
    rollerId: roller.id,
    rollerName: roller.name,
    targetId: input.target?.id ?? null,
    targetName: input.target?.name ?? null,
    aspect: input.aspect,
    existingAspect: input.existingAspect,
    advantageDone: false,
    awaitingDefence: input.awaitingDefence,
    linkFlowId: input.linkFlowId,
    hitApplied: null,
    tradedForBoost: false,
    contestFlowId: input.contestFlowId,
  };
  const created = newFlowStatement(checkFlow, {
    tableId: table.id,
    state,
    createdByUserId: ctx.actor.userId,
  });
  // A contest's roll closes nothing: the contest's other rolls stay open.
  const closing = input.contestFlowId === null ? [closeOlderChecks(table, roller.id, new Date())] : [];
  const results = await ctx.tx.batch([...closing, created]);
  const effects = closing.length > 0 ? closedPanels(ctx, results[0]!) : [];
  const flow = createdFlow<CheckFlowState>(results.at(-1)!);
  await appendLog(ctx, table.id, {
    action: "fate.check",
    characterId: roller.id,
    summary: {
      key: "log.fate.check",
      params: {
        name: roller.name,
        skill: `@fate.skill.${input.skill}`,
        action: `@fate.action.${input.action}`,
        result: checkResult(check),
      },
    },
    dice: check.dice,
    after: { skillValue: check.skillValue, bonus: check.bonus, opposition: check.opposition },
  });
  return { flow, state, effects };
}

/** The open attack on `defender` still waiting for a defence (optionally from `attackerId`). */
async function pendingAttackOn(
  ctx: Ctx,
  table: GameTable,
  defenderId: number,
  attackerId: number | null,
): Promise<TypedFlow<CheckFlowState> | null> {
  const flows = (
    await sqlFor(ctx.tx).rows<Flow>`
    SELECT * FROM flow
    WHERE table_id = ${table.id} AND kind = 'fate.check' AND status = 'open'
      AND state -> 'targetId' = ${JSON.stringify(defenderId)}::jsonb
    ORDER BY id DESC`
  ).map((row) => typedFlow(checkFlow, row));
  const found = flows.find(
    (f) => f.state.awaitingDefence && (attackerId === null || f.state.rollerId === attackerId),
  );
  return found ?? null;
}

/** Rolls `defender`'s defence against a waiting attack and links the two checks. */
export async function rollDefence(
  ctx: Ctx,
  table: GameTable,
  attack: TypedFlow<CheckFlowState>,
  defender: Character,
  skill: SkillKey,
  bonus: number,
) {
  const attacker = await characterById(ctx.tx, table.id, attack.state.rollerId);
  const defence = await rollCheck(ctx, table, defender, {
    skill,
    action: "defend",
    bonus,
    opposition: { kind: "active", value: checkResult(attack.state.check), characterId: String(attacker.id) },
    target: attacker,
    aspect: null,
    existingAspect: false,
    awaitingDefence: false,
    linkFlowId: attack.id,
    contestFlowId: null,
  });
  const attackState: CheckFlowState = {
    ...attack.state,
    awaitingDefence: false,
    linkFlowId: defence.flow.id,
    check: withOpposition(attack.state.check, {
      kind: "active",
      value: checkResult(defence.state.check),
      characterId: String(defender.id),
    }),
  };
  await saveFlowState(ctx.tx, checkFlow, attack.id, attackState);
  return {
    ...defence,
    attackState,
    effects: [...defence.effects, panelEdit(attack, panel(ctx, attack, attackState))],
  };
}

export const check = defineFateUseCase({
  schema: fateIntents.check,
  async run(ctx) {
    const skill = resolveSkill(ctx.intent.skill);
    const action = (ctx.intent.action ?? "overcome") as (typeof ACTIONS)[number];
    const roller = await actingCharacter(ctx, ctx.intent.character);
    const target = ctx.intent.target ? await findCharacter(ctx.tx, ctx.table.id, ctx.intent.target) : null;
    if (target && target.id === roller.id) refuse("errors.fate.targetSelf");
    if (target && action === "overcome") refuse("errors.fate.targetNeedsAction");
    // No attacks on someone already out of the conflict (docs/rules/fate.md §3.4).
    if (target && action === "attack") await refuseIfOutOfTheFight(ctx, ctx.table, target);
    let aspect: string | null = null;
    let existingAspect = false;
    if (ctx.intent.aspect) {
      if (action !== "advantage") refuse("errors.fate.aspectOnlyForAdvantage");
      aspect = cleanName(ctx.intent.aspect, 100);
      const all = await tableAspects(ctx.tx, ctx.table.id);
      existingAspect = all.some(
        (a) =>
          sameAspectName(a.aspect.name, aspect!) && (a.characterId === null || a.characterId === target?.id),
      );
    }
    const bonus = ctx.intent.bonus ?? 0;
    if (action === "defend" && ctx.intent.vs === undefined) {
      const attack = await pendingAttackOn(ctx, ctx.table, roller.id, target?.id ?? null);
      if (attack) {
        const defence = await rollDefence(ctx, ctx.table, attack, roller, skill, bonus);
        return {
          reply: panel(ctx, defence.flow, defence.state),
          replyIsPanelOf: defence.flow.id,
          effects: defence.effects,
        };
      }
    }
    const opposition: Opposition =
      ctx.intent.vs !== undefined ? { kind: "passive", value: ctx.intent.vs } : { kind: "none" };
    const rolled = await rollCheck(ctx, ctx.table, roller, {
      skill,
      action,
      bonus,
      opposition,
      target,
      aspect,
      existingAspect,
      awaitingDefence: action === "attack" && target !== null && ctx.intent.vs === undefined,
      linkFlowId: null,
      contestFlowId: null,
    });
    return {
      reply: panel(ctx, rolled.flow, rolled.state),
      replyIsPanelOf: rolled.flow.id,
      effects: rolled.effects,
    };
  },
});

/** Create an advantage with no opposition: the GM sets the difficulty after the roll, then it can be resolved from the panel. */
export const setDifficulty = defineFateUseCase({
  schema: fateIntents["fate.set-difficulty"],
  access: "gm",
  async run(ctx) {
    const flow = await requireFlow(ctx.tx, checkFlow, ctx.table.id, ctx.intent.flowId);
    if (flow.state.check.opposition.kind !== "none" || flow.state.contestFlowId !== null)
      refuse("errors.fate.hasOpposition");
    const value = Number(ctx.intent.vs);
    const state: CheckFlowState = {
      ...flow.state,
      check: withOpposition(flow.state.check, { kind: "passive", value }),
    };
    await saveFlowState(ctx.tx, checkFlow, flow.id, state);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.difficulty",
      characterId: state.rollerId,
      summary: { key: "log.fate.difficulty", params: { name: state.rollerName, value } },
      after: { opposition: state.check.opposition },
    });
    const view = panel(ctx, flow, state);
    return {
      reply: {
        content: t(ctx.publicLang, "fate.check.difficultySet", {
          name: state.rollerName,
          value: ladderText(ctx.publicLang, value),
        }),
      },
      effects: [panelEdit(flow, view)],
    };
  },
});

/**
 * The opponent of a create-an-advantage roll, who gets the free invoke when it fails
 * (docs/rules/fate.md §3.2): its target, or whoever opposed it actively; else the other side.
 */
async function advantageOpponent(
  ctx: Ctx,
  table: GameTable,
  state: CheckFlowState,
  rollerSide: string,
): Promise<FreeInvoke> {
  const opposition = state.check.opposition;
  const id =
    state.targetId ??
    (opposition.kind === "active" && opposition.characterId ? Number(opposition.characterId) : null);
  if (id !== null) {
    const opponent = await characterById(ctx.tx, table.id, id);
    return { holderId: String(opponent.id), side: await sideOf(ctx, table, opponent) };
  }
  return { holderId: null, side: rollerSide === "pc" ? "npc" : "pc" };
}

export const claimAdvantage = defineFateUseCase({
  schema: fateIntents["fate.claim-advantage"],
  async run(ctx) {
    const flow = await requireFlow(ctx.tx, checkFlow, ctx.table.id, ctx.intent.flowId);
    const state = flow.state;
    if (state.check.action === "overcome") return claimOvercomeBoost(ctx, flow);
    if (state.check.action !== "advantage" || !state.aspect) refuse("errors.fate.notAnAdvantage");
    if (state.advantageDone) refuse("errors.fate.advantageDone");
    const roller = await characterById(ctx.tx, ctx.table.id, state.rollerId);
    requireControl(ctx, roller);
    const shifts = checkShifts(state.check);
    if (shifts === null) refuse("errors.fate.noOpposition");
    const effects = actionOutcome("advantage", shifts!, { existingAspect: state.existingAspect });
    const name = state.aspect!;
    const rollerSide = await sideOf(ctx, ctx.table, roller);
    // Success: the free invokes are the creator's and their allies'; failure: one for the opponent.
    const mine: FreeInvoke = { holderId: String(roller.id), side: rollerSide };
    const invokes: FreeInvoke[] =
      effects.opponentFreeInvokes > 0
        ? Array.from({ length: effects.opponentFreeInvokes }, () => ({ holderId: null, side: null }))
        : Array.from({ length: effects.freeInvokes }, () => mine);
    if (effects.opponentFreeInvokes > 0) {
      const opponent = await advantageOpponent(ctx, ctx.table, state, rollerSide);
      invokes.fill(opponent);
    }
    let text: string;
    if (state.existingAspect) {
      const found = await findTableAspect(ctx.tx, ctx.table.id, name, state.targetId);
      if (!found.ref.startsWith("a")) refuse("errors.fate.advantageOnConsequence");
      const after = { ...found.aspect, freeInvokes: [...found.aspect.freeInvokes, ...invokes] };
      await sqlFor(ctx.tx).run`
        UPDATE aspect SET free_invokes = ${after.freeInvokes.length},
          free_invoke_holders = ${holdersJson(after.freeInvokes)}::jsonb
        WHERE id = ${Number(found.ref.slice(1))}`;
      text = t(
        ctx.publicLang,
        effects.opponentFreeInvokes > 0 ? "fate.advantage.invokesForOpponent" : "fate.advantage.invokesAdded",
        { aspect: found.aspect.name, count: invokes.length },
      );
    } else {
      if (effects.aspect === "none") refuse("errors.fate.advantageFailed");
      const kind = effects.aspect === "boost" ? "boost" : "situational";
      const aspect =
        kind === "boost"
          ? makeAspect(name, "boost", { holderId: mine.holderId, side: mine.side })
          : { ...makeAspect(name, kind), freeInvokes: invokes };
      await insertAspect(ctx.tx, ctx.table.id, state.targetId, aspect);
      const key =
        kind === "boost"
          ? "fate.advantage.boost"
          : effects.opponentFreeInvokes > 0
            ? "fate.advantage.createdForOpponent"
            : "fate.advantage.created";
      text = t(ctx.publicLang, key, { aspect: aspect.name, count: aspect.freeInvokes.length });
    }
    const next = { ...state, advantageDone: true };
    // The action is settled: the check closes (docs/rules/fate.md §3.2).
    await saveFlowState(ctx.tx, checkFlow, flow.id, next, true);
    await appendLog(ctx, ctx.table.id, {
      action: "fate.advantage",
      characterId: roller.id,
      summary: {
        key: "log.fate.advantage",
        params: { name: roller.name, aspect: name, count: invokes.length },
      },
      after: { holders: invokes },
    });
    return {
      reply: { content: text },
      effects: [panelEdit(flow, panel(ctx, flow, next, false))],
    };
  },
});

/**
 * Overcome with style: «достигаете цели и к тому же получаете усиление» — the roller takes the
 * boost from the panel (after any invokes), and the check is settled.
 */
async function claimOvercomeBoost(ctx: Ctx & { table: GameTable }, flow: TypedFlow<CheckFlowState>) {
  const state = flow.state;
  if (state.advantageDone) refuse("errors.fate.advantageDone");
  const shifts = checkShifts(state.check);
  if (shifts === null || outcome(shifts) !== "style") refuse("errors.fate.noOvercomeBoost");
  const roller = await characterById(ctx.tx, ctx.table.id, state.rollerId);
  requireControl(ctx, roller);
  const name = await createBoost(ctx, ctx.table, roller);
  const next = { ...state, advantageDone: true };
  await saveFlowState(ctx.tx, checkFlow, flow.id, next, true);
  return {
    reply: { content: t(ctx.publicLang, "fate.boost.created", { name: roller.name, aspect: name }) },
    effects: [panelEdit(flow, panel(ctx, flow, next, false))],
  };
}
