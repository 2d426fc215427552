import { z } from "zod";
import type { Character, GameTable } from "../../generated/prisma/client.js";
import { t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { makeAspect, sameAspectName } from "../../rules/fate/aspects.js";
import { totalSkill } from "../../rules/fate/character.js";
import {
  checkResult,
  checkShifts,
  INVOKE_MODES,
  type InvokeMode,
  invokeAspect,
  makeCheck,
  type Opposition,
  withOpposition,
} from "../../rules/fate/check.js";
import { ACTIONS, actionOutcome, hitAfterRatings } from "../../rules/fate/outcomes.js";
import { resolveSkill, type SkillKey } from "../../rules/fate/skills.js";
import type { StressKind } from "../../rules/fate/stress.js";
import { sqlFor } from "../../store/db.js";
import { actingCharacter, findCharacter, isGm, requireControl, requireTable } from "../access.js";
import { createFlow, panelEdit, requireFlow, saveFlowState, type TypedFlow } from "../flows.js";
import { appendLog } from "../log.js";
import { cleanName, nameKey } from "../names.js";
import { type ActionContext, defineUseCase, type Effect } from "../use-case.js";
import type { ComponentView, MessageView } from "../views.js";
import { findInvokableAspect, invokableAspects, saveInvokedAspect } from "./faction.js";
import { applyHit } from "./harm.js";
import {
  type CheckFlowState,
  characterById,
  fateCharacter,
  findTableAspect,
  saveFatePoints,
  tableAspects,
} from "./state.js";
import { attackHit, checkView, ladderText } from "./views.js";

type Ctx = Pick<ActionContext, "tx" | "actor" | "publicLang" | "userLang" | "dice" | "table">;

const characterName = z.string().min(1).max(100);
const modifier = z.number().int().min(-20).max(20);
const flowId = z.number().int().positive();

/** The GM's invokes for the opposition come from the bank: the rules are silent on a limit, so there is none. */
const GM_BANK = 99;

/** Attacks with these skills harm the mind; the rest, the body. `/stress hit` can say otherwise. */
const MENTAL_ATTACK_SKILLS: readonly SkillKey[] = ["provoke", "deceive", "eloquence", "empathy", "will"];

export function attackKind(skill: SkillKey): StressKind {
  return MENTAL_ATTACK_SKILLS.includes(skill) ? "mental" : "physical";
}

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
  return view;
}

/**
 * Older checks of the same roller stop taking invokes: "your latest check" is unambiguous.
 * One statement finds and closes them (a contest's rolls stay open; their state is unchanged).
 */
async function closeOlderChecks(ctx: Ctx, table: GameTable, rollerId: number): Promise<Effect[]> {
  const now = new Date();
  const closed = await sqlFor(ctx.tx).rows<TypedFlow<CheckFlowState>>`
    UPDATE flow SET status = 'closed', closed_at = ${now}, updated_at = ${now}
    WHERE table_id = ${table.id} AND kind = 'fate.check' AND status = 'open'
      AND state -> 'rollerId' = ${JSON.stringify(rollerId)}::jsonb AND state -> 'contestFlowId' = 'null'::jsonb
    RETURNING *`;
  return closed
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
  const effects = input.contestFlowId === null ? await closeOlderChecks(ctx, table, roller.id) : [];
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
    contestFlowId: input.contestFlowId,
  };
  const flow = await createFlow(ctx.tx, {
    tableId: table.id,
    kind: "fate.check",
    state,
    createdByUserId: ctx.actor.userId,
  });
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
  const flows = await sqlFor(ctx.tx).rows<TypedFlow<CheckFlowState>>`
    SELECT * FROM flow
    WHERE table_id = ${table.id} AND kind = 'fate.check' AND status = 'open'
      AND state -> 'targetId' = ${JSON.stringify(defenderId)}::jsonb
    ORDER BY id DESC`;
  const found = flows.find(
    (f) => f.state.awaitingDefence && (attackerId === null || f.state.rollerId === attackerId),
  );
  return found ?? null;
}

/** Rolls `defender`'s defence against a waiting attack and links the two checks. */
async function rollDefence(
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
  await saveFlowState(ctx.tx, attack.id, attackState);
  return {
    ...defence,
    effects: [
      ...defence.effects,
      { kind: "editPanel" as const, flowId: attack.id, view: panel(ctx, attack, attackState) },
    ],
  };
}

export const check = defineUseCase({
  type: "check",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("check"),
    skill: z.string().min(1).max(100),
    action: z.enum(ACTIONS as [string, ...string[]]).optional(),
    vs: modifier.optional(),
    target: characterName.optional(),
    bonus: modifier.optional(),
    character: characterName.optional(),
    aspect: z.string().min(1).max(100).optional(),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireTable(ctx);
    const skill = resolveSkill(ctx.intent.skill);
    const action = (ctx.intent.action ?? "overcome") as (typeof ACTIONS)[number];
    const roller = await actingCharacter(ctx, ctx.intent.character);
    const target = ctx.intent.target ? await findCharacter(ctx.tx, table.id, ctx.intent.target) : null;
    if (target && target.id === roller.id) refuse("errors.fate.targetSelf");
    if (target && action === "overcome") refuse("errors.fate.targetNeedsAction");
    let aspect: string | null = null;
    let existingAspect = false;
    if (ctx.intent.aspect) {
      if (action !== "advantage") refuse("errors.fate.aspectOnlyForAdvantage");
      aspect = cleanName(ctx.intent.aspect, 100);
      const all = await tableAspects(ctx.tx, table.id);
      existingAspect = all.some(
        (a) =>
          sameAspectName(a.aspect.name, aspect!) && (a.characterId === null || a.characterId === target?.id),
      );
    }
    const bonus = ctx.intent.bonus ?? 0;
    if (action === "defend" && ctx.intent.vs === undefined) {
      const attack = await pendingAttackOn(ctx, table, roller.id, target?.id ?? null);
      if (attack) {
        const defence = await rollDefence(ctx, table, attack, roller, skill, bonus);
        return {
          reply: panel(ctx, defence.flow, defence.state),
          replyIsPanelOf: defence.flow.id,
          effects: defence.effects,
        };
      }
    }
    const opposition: Opposition =
      ctx.intent.vs !== undefined ? { kind: "passive", value: ctx.intent.vs } : { kind: "none" };
    const rolled = await rollCheck(ctx, table, roller, {
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

/** The check an invoke applies to: the button's, or the actor's latest (the table's latest with a difficulty for `passive`). */
async function checkForInvoke(
  ctx: Ctx,
  table: GameTable,
  mode: InvokeMode,
  id: number | undefined,
): Promise<TypedFlow<CheckFlowState>> {
  if (id !== undefined) return requireFlow<CheckFlowState>(ctx.tx, table.id, id, "fate.check");
  // Among the table's 50 latest open checks: the newest with a difficulty, or the newest whose
  // roller the actor plays (the GM: an NPC's).
  const found =
    mode === "passive"
      ? await sqlFor(ctx.tx).one<TypedFlow<CheckFlowState>>`
          SELECT f.* FROM (
            SELECT * FROM flow WHERE table_id = ${table.id} AND kind = 'fate.check' AND status = 'open'
            ORDER BY id DESC LIMIT 50
          ) f
          WHERE f.state -> 'check' -> 'opposition' ->> 'kind' = 'passive'
          ORDER BY f.id DESC LIMIT 1`
      : await sqlFor(ctx.tx).one<TypedFlow<CheckFlowState>>`
          SELECT f.* FROM (
            SELECT * FROM flow WHERE table_id = ${table.id} AND kind = 'fate.check' AND status = 'open'
            ORDER BY id DESC LIMIT 50
          ) f
          JOIN "character" c ON c.id = (f.state ->> 'rollerId')::int
          WHERE c.owner_user_id = ${ctx.actor.userId} OR (c.owner_user_id IS NULL AND ${isGm(table, ctx.actor)}::boolean)
          ORDER BY f.id DESC LIMIT 1`;
  return found ?? refuse("errors.fate.noCheck");
}

/** Who may invoke on this check: the roller's player (the GM for NPCs); for `passive`, the GM. */
async function invokerFor(ctx: Ctx, table: GameTable, state: CheckFlowState, mode: InvokeMode) {
  // +2 to a difficulty is paid with a character's own fate point: `/fp spend on:passive` (fp.ts).
  if (mode === "passive") return refuse("errors.fate.passiveIsSpend");
  const roller = await characterById(ctx.tx, table.id, state.rollerId);
  requireControl(ctx, roller);
  return roller;
}

export const invokeMenu = defineUseCase({
  type: "fate.invoke-menu",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("fate.invoke-menu"),
    flowId,
    mode: z.enum(INVOKE_MODES as [InvokeMode, ...InvokeMode[]]),
  }),
  table: "required",
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    const table = requireTable(ctx);
    const flow = await requireFlow<CheckFlowState>(ctx.tx, table.id, ctx.intent.flowId, "fate.check");
    const invoker = await invokerFor(ctx, table, flow.state, ctx.intent.mode);
    if (ctx.intent.mode === "passive" && flow.state.check.opposition.kind !== "passive") {
      refuse("errors.fate.noPassiveOpposition");
    }
    const aspects = await invokableAspects(ctx.tx, table);
    if (aspects.length === 0) refuse("errors.fate.noAspects");
    const sorted = [...aspects].sort((a, b) => b.aspect.freeInvokes.length - a.aspect.freeInvokes.length);
    const fp = invoker ? invoker.fatePoints : null;
    return {
      reply: {
        ephemeral: true,
        content:
          fp === null
            ? t(ctx.userLang, "fate.invoke.menuGm", { mode: `@fate.invokeMode.${ctx.intent.mode}` })
            : t(ctx.userLang, "fate.invoke.menu", { mode: `@fate.invokeMode.${ctx.intent.mode}`, fp }),
        rows: [
          [
            {
              kind: "select",
              intent: { type: "invoke", flowId: flow.id, mode: ctx.intent.mode },
              field: "aspect",
              placeholder: t(ctx.userLang, "fate.select.aspect"),
              options: sorted.slice(0, 25).map((a) => ({
                label: a.aspect.name.slice(0, 90),
                value: a.ref,
                description: t(ctx.userLang, "fate.invoke.option", {
                  where: a.characterName ?? t(ctx.userLang, "fate.aspect.scene"),
                  kind: `@fate.aspectKind.${a.aspect.kind}`,
                  free: a.aspect.freeInvokes.length,
                }).slice(0, 100),
              })),
            },
          ],
        ],
      },
    };
  },
});

export const invoke = defineUseCase({
  type: "invoke",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("invoke"),
    aspect: z.string().min(1).max(100),
    mode: z.enum(INVOKE_MODES as [InvokeMode, ...InvokeMode[]]).optional(),
    pay: z.enum(["free-invoke", "fate-point"]).optional(),
    flowId: flowId.optional(),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireTable(ctx);
    const mode = ctx.intent.mode ?? "plus2";
    const flow = await checkForInvoke(ctx, table, mode, ctx.intent.flowId);
    const invokerRow = await invokerFor(ctx, table, flow.state, mode);
    const found = await findInvokableAspect(ctx.tx, table, ctx.intent.aspect, flow.state.rollerId);
    const invoker = invokerRow
      ? { id: String(invokerRow.id), fatePoints: invokerRow.fatePoints }
      : { id: "gm", fatePoints: GM_BANK };
    const result = invokeAspect(
      { check: flow.state.check, invoker, aspect: found.aspect, mode, paidWith: ctx.intent.pay },
      ctx.dice,
    );
    if (invokerRow && result.invoker.fatePoints !== invokerRow.fatePoints) {
      await saveFatePoints(ctx.tx, invokerRow.id, result.invoker.fatePoints);
    }
    await saveInvokedAspect(ctx.tx, table, found, result.aspect);
    const state: CheckFlowState = { ...flow.state, check: result.check };
    await saveFlowState(ctx.tx, flow.id, state);
    const effects: Effect[] = [panelEdit(flow, panel(ctx, flow, state))];
    if (state.linkFlowId !== null) {
      const linked = await sqlFor(ctx.tx).one<TypedFlow<CheckFlowState>>`
        SELECT * FROM flow WHERE id = ${state.linkFlowId} AND table_id = ${table.id} AND status = 'open'`;
      if (linked) {
        const other = linked.state;
        const updated: CheckFlowState = {
          ...other,
          check: withOpposition(other.check, {
            kind: "active",
            value: checkResult(state.check),
            characterId: String(state.rollerId),
          }),
        };
        await saveFlowState(ctx.tx, linked.id, updated);
        effects.push({ kind: "editPanel", flowId: linked.id, view: panel(ctx, linked, updated) });
      }
    }
    await appendLog(ctx, table.id, {
      action: "fate.invoke",
      characterId: invokerRow?.id ?? null,
      summary: {
        key: "log.fate.invoke",
        params: {
          name: invokerRow?.name ?? "GM",
          aspect: found.aspect.name,
          mode: `@fate.invokeMode.${mode}`,
          payment: `@fate.payment.${result.spent.paidWith}`,
        },
      },
      before: { fatePoints: invokerRow?.fatePoints ?? null, freeInvokes: found.aspect.freeInvokes.length },
      after: {
        fatePoints: invokerRow ? result.invoker.fatePoints : null,
        freeInvokes: result.aspect?.freeInvokes.length ?? 0,
      },
      dice: mode === "reroll" ? { rerolled: flow.state.check.dice, now: result.check.dice } : undefined,
    });
    // From the invoker's own menu the answer replaces that menu (private); else it is posted.
    const fromMenu = ctx.invocation.sourceMessageId !== undefined && ctx.intent.flowId !== undefined;
    const lang = fromMenu ? ctx.userLang : ctx.publicLang;
    const text = t(lang, "fate.invoke.done", {
      name: invokerRow?.name ?? t(lang, "fate.gm"),
      aspect: found.aspect.name,
      mode: `@fate.invokeMode.${mode}`,
      payment: `@fate.payment.${result.spent.paidWith}`,
      result: ladderText(lang, checkResult(result.check)),
    });
    if (fromMenu) {
      return { reply: { ephemeral: true, content: text, rows: [] }, replyMode: "update", effects };
    }
    return { reply: { content: text, embeds: panel(ctx, flow, state).embeds }, effects };
  },
});

export const defend = defineUseCase({
  type: "fate.defend",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("fate.defend"),
    flowId,
    skill: z.string().min(1).max(100),
    bonus: modifier.optional(),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireTable(ctx);
    const attack = await requireFlow<CheckFlowState>(ctx.tx, table.id, ctx.intent.flowId, "fate.check");
    if (!attack.state.awaitingDefence || attack.state.targetId === null)
      refuse("errors.fate.notAwaitingDefence");
    const defender = await characterById(ctx.tx, table.id, attack.state.targetId);
    requireControl(ctx, defender);
    const skill = resolveSkill(ctx.intent.skill);
    const defence = await rollDefence(ctx, table, attack, defender, skill, ctx.intent.bonus ?? 0);
    return {
      reply: panel(ctx, defence.flow, defence.state),
      replyIsPanelOf: defence.flow.id,
      effects: defence.effects,
    };
  },
});

export const applyAttackHit = defineUseCase({
  type: "fate.apply-hit",
  systems: ["fate"],
  schema: z.object({
    type: z.literal("fate.apply-hit"),
    flowId,
    kind: z.enum(["physical", "mental"]).optional(),
  }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireTable(ctx);
    const flow = await requireFlow<CheckFlowState>(ctx.tx, table.id, ctx.intent.flowId, "fate.check");
    const state = flow.state;
    if (state.hitApplied !== null) refuse("errors.fate.hitAlreadyApplied");
    const hit = attackHit(state);
    if (hit <= 0 || state.targetId === null) refuse("errors.fate.noHit");
    const target = await characterById(ctx.tx, table.id, state.targetId);
    requireControl(ctx, target, { gmMayActForPlayers: true });
    const attacker = await characterById(ctx.tx, table.id, state.rollerId);
    const shifts = hitAfterRatings(hit, { wr: fateCharacter(attacker).wr, ar: fateCharacter(target).ar });
    const kind = ctx.intent.kind ?? attackKind(state.check.skill);
    const applied = await applyHit(ctx, table, target, shifts, kind);
    const next: CheckFlowState = { ...state, hitApplied: shifts };
    await saveFlowState(ctx.tx, flow.id, next);
    const ratings = shifts !== hit ? ` ${t(ctx.publicLang, "fate.hit.ratings", { hit, shifts })}` : "";
    return {
      reply: { content: applied.text + ratings },
      effects: [panelEdit(flow, panel(ctx, flow, next)), ...applied.effects],
    };
  },
});

export const claimAdvantage = defineUseCase({
  type: "fate.claim-advantage",
  systems: ["fate"],
  schema: z.object({ type: z.literal("fate.claim-advantage"), flowId }),
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = requireTable(ctx);
    const flow = await requireFlow<CheckFlowState>(ctx.tx, table.id, ctx.intent.flowId, "fate.check");
    const state = flow.state;
    if (state.check.action !== "advantage" || !state.aspect) refuse("errors.fate.notAnAdvantage");
    if (state.advantageDone) refuse("errors.fate.advantageDone");
    const roller = await characterById(ctx.tx, table.id, state.rollerId);
    requireControl(ctx, roller);
    const shifts = checkShifts(state.check);
    if (shifts === null) refuse("errors.fate.noOpposition");
    const effects = actionOutcome("advantage", shifts, { existingAspect: state.existingAspect });
    const name = state.aspect;
    let text: string;
    if (state.existingAspect) {
      if (effects.freeInvokes === 0) refuse("errors.fate.advantageFailed");
      const found = await findTableAspect(ctx.tx, table.id, name, state.targetId);
      const row = found.ref.startsWith("a") ? Number(found.ref.slice(1)) : null;
      if (row === null) refuse("errors.fate.advantageOnConsequence");
      const updated = await sqlFor(ctx.tx).one<{ name: string }>`
        UPDATE aspect SET free_invokes = free_invokes + ${effects.freeInvokes} WHERE id = ${row} RETURNING name`;
      if (!updated) throw new Error(`aspect ${row} not found`);
      text = t(ctx.publicLang, "fate.advantage.invokesAdded", {
        aspect: updated.name,
        count: effects.freeInvokes,
      });
    } else {
      if (effects.aspect !== "created" && effects.aspect !== "boost") refuse("errors.fate.advantageFailed");
      const kind = effects.aspect === "boost" ? "boost" : "situational";
      const aspect = makeAspect(name, kind, { freeInvokes: effects.freeInvokes });
      await sqlFor(ctx.tx).run`
        INSERT INTO aspect (table_id, character_id, name, name_key, kind, free_invokes, created_at)
        VALUES (${table.id}, ${state.targetId}, ${aspect.name}, ${nameKey(aspect.name)}, ${kind},
                ${aspect.freeInvokes.length}, ${new Date()})`;
      text = t(ctx.publicLang, kind === "boost" ? "fate.advantage.boost" : "fate.advantage.created", {
        aspect: aspect.name,
        count: aspect.freeInvokes.length,
      });
    }
    const next = { ...state, advantageDone: true };
    await saveFlowState(ctx.tx, flow.id, next);
    await appendLog(ctx, table.id, {
      action: "fate.advantage",
      characterId: roller.id,
      summary: {
        key: "log.fate.advantage",
        params: { name: roller.name, aspect: name, count: effects.freeInvokes },
      },
    });
    return {
      reply: { content: text },
      effects: [panelEdit(flow, panel(ctx, flow, next))],
    };
  },
});
