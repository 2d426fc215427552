import type { Character, Flow, GameTable } from "../../generated/prisma/client.js";
import { t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import { type FreeInvoke, makeAspect, sameAspectName, usableFreeInvokes } from "../../rules/fate/aspects.js";
import { totalSkill } from "../../rules/fate/character.js";
import {
  checkResult,
  checkShifts,
  type InvokeMode,
  invokeAspect,
  makeCheck,
  type Opposition,
  withOpposition,
} from "../../rules/fate/check.js";
import { type ACTIONS, actionOutcome, hitAfterRatings, outcome } from "../../rules/fate/outcomes.js";
import { resolveSkill, type SkillKey } from "../../rules/fate/skills.js";
import type { StressKind } from "../../rules/fate/stress.js";
import { sqlFor } from "../../store/db.js";
import { actingCharacter, findCharacter, isGm, requireControl } from "../access.js";
import { createFlow, panelEdit, requireFlow, saveFlowState, type TypedFlow, typedFlow } from "../flows.js";
import { appendLog } from "../log.js";
import { cleanName, nameKey } from "../names.js";
import { type ActionContext, type AutocompleteSource, defineUseCase, type Effect } from "../use-case.js";
import type { ComponentView, MessageView, ModalView } from "../views.js";
import { sideOf } from "./conflict-state.js";
import { findInvokableAspect, invokableAspects, saveInvokedAspect } from "./faction.js";
import { checkFlow, typedFlowOrNull } from "./flow-states.js";
import { landHit, refuseIfOutOfTheFight } from "./harm.js";
import { fateIntents } from "./intents.js";
import {
  type CheckFlowState,
  characterById,
  fateCharacter,
  findTableAspect,
  holdersJson,
  insertAspect,
  saveFatePoints,
  tableAspects,
} from "./state.js";
import { aspectInvokeOptions, attackHit, checkView, ladderText } from "./views.js";

type Ctx = Pick<ActionContext, "tx" | "actor" | "publicLang" | "userLang" | "dice" | "table" | "invocation">;

/** The GM's invokes for the opposition come from the bank: the rules are silent on a limit, so there is none. */
const GM_BANK = 99;

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
 * One statement finds and closes them (a contest's rolls stay open; their state is unchanged).
 */
async function closeOlderChecks(ctx: Ctx, table: GameTable, rollerId: number): Promise<Effect[]> {
  const now = new Date();
  const closed = (
    await sqlFor(ctx.tx).rows<Flow>`
    UPDATE flow SET status = 'closed', closed_at = ${now}, updated_at = ${now}
    WHERE table_id = ${table.id} AND kind = 'fate.check' AND status = 'open'
      AND state -> 'rollerId' = ${JSON.stringify(rollerId)}::jsonb AND state -> 'contestFlowId' = 'null'::jsonb
      -- An attack on someone stays open until its hit is settled: the dice are down (docs/rules/fate.md §3.4).
      AND NOT (state -> 'check' ->> 'action' = 'attack' AND state -> 'targetId' <> 'null'::jsonb
               AND state -> 'hitApplied' = 'null'::jsonb)
    RETURNING *`
  ).map((row) => typedFlow(checkFlow, row));
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
    tradedForBoost: false,
    contestFlowId: input.contestFlowId,
  };
  const flow = await createFlow(ctx.tx, checkFlow, {
    tableId: table.id,
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
  await saveFlowState(ctx.tx, checkFlow, attack.id, attackState);
  return {
    ...defence,
    effects: [
      ...defence.effects,
      { kind: "editPanel" as const, flowId: attack.id, view: panel(ctx, attack, attackState) },
    ],
  };
}

export const check = defineUseCase({
  systems: ["fate"],
  schema: fateIntents.check,
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const skill = resolveSkill(ctx.intent.skill);
    const action = (ctx.intent.action ?? "overcome") as (typeof ACTIONS)[number];
    const roller = await actingCharacter(ctx, ctx.intent.character);
    const target = ctx.intent.target ? await findCharacter(ctx.tx, table.id, ctx.intent.target) : null;
    if (target && target.id === roller.id) refuse("errors.fate.targetSelf");
    if (target && action === "overcome") refuse("errors.fate.targetNeedsAction");
    // No attacks on someone already out of the conflict (docs/rules/fate.md §3.4).
    if (target && action === "attack") await refuseIfOutOfTheFight(ctx, table, target);
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
  if (id !== undefined) return requireFlow(ctx.tx, checkFlow, table.id, id);
  // Among the table's 50 latest open checks: the newest with a difficulty, or the newest whose
  // roller the actor plays (the GM: an NPC's).
  const found =
    mode === "passive"
      ? typedFlowOrNull(
          checkFlow,
          await sqlFor(ctx.tx).one<Flow>`
          SELECT f.* FROM (
            SELECT * FROM flow WHERE table_id = ${table.id} AND kind = 'fate.check' AND status = 'open'
            ORDER BY id DESC LIMIT 50
          ) f
          WHERE f.state -> 'check' -> 'opposition' ->> 'kind' = 'passive'
          ORDER BY f.id DESC LIMIT 1`,
        )
      : typedFlowOrNull(
          checkFlow,
          await sqlFor(ctx.tx).one<Flow>`
          SELECT f.* FROM (
            SELECT * FROM flow WHERE table_id = ${table.id} AND kind = 'fate.check' AND status = 'open'
            ORDER BY id DESC LIMIT 50
          ) f
          JOIN "character" c ON c.id = (f.state ->> 'rollerId')::int
          WHERE c.owner_user_id = ${ctx.actor.userId} OR (c.owner_user_id IS NULL AND ${isGm(table, ctx.actor)}::boolean)
          ORDER BY f.id DESC LIMIT 1`,
        );
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
  systems: ["fate"],
  schema: fateIntents["fate.invoke-menu"],
  table: "required",
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    const { table } = ctx;
    const flow = await requireFlow(ctx.tx, checkFlow, table.id, ctx.intent.flowId);
    const invoker = await invokerFor(ctx, table, flow.state, ctx.intent.mode);
    if (ctx.intent.mode === "passive" && flow.state.check.opposition.kind !== "passive") {
      refuse("errors.fate.noPassiveOpposition");
    }
    const aspects = await invokableAspects(ctx.tx, table);
    if (aspects.length === 0) refuse("errors.fate.noAspects");
    // The free invokes shown are those this invoker may spend: their own and their side's (docs/rules/fate.md §3.2).
    const who = invoker ? { id: String(invoker.id), side: await sideOf(ctx, table, invoker) } : null;
    const free = (a: (typeof aspects)[number]) =>
      who ? usableFreeInvokes(a.aspect, who) : a.aspect.freeInvokes.length;
    const sorted = [...aspects].sort((a, b) => free(b) - free(a));
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
              options: aspectInvokeOptions(ctx.userLang, sorted, free),
            },
          ],
        ],
      },
    };
  },
});

export const invoke = defineUseCase({
  systems: ["fate"],
  schema: fateIntents.invoke,
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const mode = ctx.intent.mode ?? "plus2";
    const named =
      ctx.intent.check === undefined ? undefined : Number(String(ctx.intent.check).replace("#", ""));
    const flow = await checkForInvoke(ctx, table, mode, ctx.intent.flowId ?? named);
    const invokerRow = await invokerFor(ctx, table, flow.state, mode);
    const found = await findInvokableAspect(ctx.tx, table, ctx.intent.aspect, flow.state.rollerId);
    const invoker = invokerRow
      ? { id: String(invokerRow.id), fatePoints: invokerRow.fatePoints }
      : { id: "gm", fatePoints: GM_BANK };
    // Free invokes belong to a side (docs/rules/fate.md §3.2): only the holder and their allies spend them.
    const side = invokerRow ? await sideOf(ctx, table, invokerRow) : "npc";
    const result = invokeAspect(
      { check: flow.state.check, invoker, side, aspect: found.aspect, mode, paidWith: ctx.intent.pay },
      ctx.dice,
    );
    if (invokerRow && result.invoker.fatePoints !== invokerRow.fatePoints) {
      await saveFatePoints(ctx.tx, invokerRow.id, result.invoker.fatePoints);
    }
    await saveInvokedAspect(ctx.tx, table, found, result.aspect);
    const state: CheckFlowState = { ...flow.state, check: result.check };
    await saveFlowState(ctx.tx, checkFlow, flow.id, state);
    const effects: Effect[] = [panelEdit(flow, panel(ctx, flow, state))];
    if (state.linkFlowId !== null) {
      const linked = typedFlowOrNull(
        checkFlow,
        await sqlFor(ctx.tx).one<Flow>`
        SELECT * FROM flow WHERE id = ${state.linkFlowId} AND table_id = ${table.id} AND status = 'open'`,
      );
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
        await saveFlowState(ctx.tx, checkFlow, linked.id, updated);
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
  systems: ["fate"],
  schema: fateIntents["fate.defend"],
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const attack = await requireFlow(ctx.tx, checkFlow, table.id, ctx.intent.flowId);
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
async function createBoost(ctx: Ctx, table: GameTable, owner: Character, name?: string): Promise<string> {
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
export const applyAttackHit = defineUseCase({
  systems: ["fate"],
  schema: fateIntents["fate.apply-hit"],
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const flow = await requireFlow(ctx.tx, checkFlow, table.id, ctx.intent.flowId);
    const state = flow.state;
    if (state.hitApplied !== null) refuse("errors.fate.hitAlreadyApplied");
    const hit = dealtHit(state);
    if (attackHit(state) <= 0 || state.targetId === null) refuse("errors.fate.noHit");
    const target = await characterById(ctx.tx, table.id, state.targetId!);
    if (!isGm(table, ctx.actor) && target.ownerUserId !== ctx.actor.userId) {
      refuse("errors.fate.applyIsForTarget", { target: target.name });
    }
    const attacker = await characterById(ctx.tx, table.id, state.rollerId);
    const shifts = hitAfterRatings(hit, { wr: fateCharacter(attacker).wr, ar: fateCharacter(target).ar });
    const kind = ctx.intent.kind ?? attackKind(state.check.skill);
    const next: CheckFlowState = { ...state, hitApplied: shifts };
    const closed = await closeAttack(ctx, table, flow, next);
    const landed = await landHit(
      ctx,
      table,
      target,
      shifts,
      kind,
      { id: attacker.id, name: attacker.name, side: await sideOf(ctx, table, attacker) },
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
export const resolveAttack = defineUseCase({
  systems: ["fate"],
  schema: fateIntents["fate.resolve-attack"],
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const flow = await requireFlow(ctx.tx, checkFlow, table.id, ctx.intent.flowId);
    const state = flow.state;
    const shifts = checkShifts(state.check);
    if (state.check.action !== "attack" || shifts === null || state.awaitingDefence)
      refuse("errors.fate.notResolvable");
    if (attackHit(state) > 0) refuse("errors.fate.hitToApply");
    const attacker = await characterById(ctx.tx, table.id, state.rollerId);
    const target = state.targetId !== null ? await characterById(ctx.tx, table.id, state.targetId) : null;
    const involved =
      isGm(table, ctx.actor) ||
      attacker.ownerUserId === ctx.actor.userId ||
      (target !== null && target.ownerUserId === ctx.actor.userId);
    if (!involved) refuse("errors.fate.notInThisAttack");
    const lines: string[] = [];
    const result = outcome(shifts!);
    const owner = result === "tie" ? attacker : shifts! <= -3 ? target : null;
    if (owner) {
      // A boost is named by its owner: their player pressing the button names it in a form.
      if (
        ctx.intent.name === undefined &&
        ctx.invocation.sourceMessageId !== undefined &&
        ownsBoost(ctx, table, owner)
      ) {
        return { modal: boostForm(ctx, { type: "fate.resolve-attack", flowId: flow.id }, owner) };
      }
      const boost = await createBoost(
        ctx,
        table,
        owner,
        ownsBoost(ctx, table, owner) ? ctx.intent.name : undefined,
      );
      lines.push(t(ctx.publicLang, "fate.boost.created", { name: owner.name, aspect: boost }));
    }
    lines.unshift(
      t(ctx.publicLang, "fate.attack.resolved", {
        attacker: attacker.name,
        outcome: `@fate.outcome.${result}`,
      }),
    );
    const next: CheckFlowState = { ...state, hitApplied: 0 };
    const effects = await closeAttack(ctx, table, flow, next);
    return { reply: { content: lines.join("\n") }, effects };
  },
});

/** Success with style on attack: the attacker lowers the hit by one and takes a boost (docs/rules/fate.md §3.1). */
export const tradeHitForBoost = defineUseCase({
  systems: ["fate"],
  schema: fateIntents["fate.trade-boost"],
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const flow = await requireFlow(ctx.tx, checkFlow, table.id, ctx.intent.flowId);
    const state = flow.state;
    const shifts = checkShifts(state.check);
    if (state.check.action !== "attack" || shifts === null || outcome(shifts) !== "style")
      refuse("errors.fate.cannotTradeHit");
    if (state.hitApplied !== null) refuse("errors.fate.hitAlreadyApplied");
    if (state.tradedForBoost) refuse("errors.fate.alreadyTraded");
    const attacker = await characterById(ctx.tx, table.id, state.rollerId);
    requireControl(ctx, attacker);
    if (ctx.intent.name === undefined && ctx.invocation.sourceMessageId !== undefined) {
      return { modal: boostForm(ctx, { type: "fate.trade-boost", flowId: flow.id }, attacker) };
    }
    const boost = await createBoost(ctx, table, attacker, ctx.intent.name);
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

/** Create an advantage with no opposition: the GM sets the difficulty after the roll, then it can be resolved from the panel. */
export const setDifficulty = defineUseCase({
  systems: ["fate"],
  schema: fateIntents["fate.set-difficulty"],
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const flow = await requireFlow(ctx.tx, checkFlow, table.id, ctx.intent.flowId);
    if (flow.state.check.opposition.kind !== "none" || flow.state.contestFlowId !== null)
      refuse("errors.fate.hasOpposition");
    const value = Number(ctx.intent.vs);
    const state: CheckFlowState = {
      ...flow.state,
      check: withOpposition(flow.state.check, { kind: "passive", value }),
    };
    await saveFlowState(ctx.tx, checkFlow, flow.id, state);
    await appendLog(ctx, table.id, {
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

export const claimAdvantage = defineUseCase({
  systems: ["fate"],
  schema: fateIntents["fate.claim-advantage"],
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const { table } = ctx;
    const flow = await requireFlow(ctx.tx, checkFlow, table.id, ctx.intent.flowId);
    const state = flow.state;
    if (state.check.action !== "advantage" || !state.aspect) refuse("errors.fate.notAnAdvantage");
    if (state.advantageDone) refuse("errors.fate.advantageDone");
    const roller = await characterById(ctx.tx, table.id, state.rollerId);
    requireControl(ctx, roller);
    const shifts = checkShifts(state.check);
    if (shifts === null) refuse("errors.fate.noOpposition");
    const effects = actionOutcome("advantage", shifts!, { existingAspect: state.existingAspect });
    const name = state.aspect!;
    const rollerSide = await sideOf(ctx, table, roller);
    // Success: the free invokes are the creator's and their allies'; failure: one for the opponent.
    const mine: FreeInvoke = { holderId: String(roller.id), side: rollerSide };
    const invokes: FreeInvoke[] =
      effects.opponentFreeInvokes > 0
        ? Array.from({ length: effects.opponentFreeInvokes }, () => ({ holderId: null, side: null }))
        : Array.from({ length: effects.freeInvokes }, () => mine);
    if (effects.opponentFreeInvokes > 0) {
      const opponent = await advantageOpponent(ctx, table, state, rollerSide);
      invokes.fill(opponent);
    }
    let text: string;
    if (state.existingAspect) {
      const found = await findTableAspect(ctx.tx, table.id, name, state.targetId);
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
      await insertAspect(ctx.tx, table.id, state.targetId, aspect);
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
    await appendLog(ctx, table.id, {
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

/** `/invoke check:` — the table's open checks, newest first: "#12 Grukh · Fight (attack) → Bandit". */
export const checkSource: AutocompleteSource = {
  name: "fate-check",
  async choices({ db, table, userLang, query }) {
    if (!table) return [];
    const flows = (
      await sqlFor(db).rows<Flow>`
      SELECT * FROM flow WHERE table_id = ${table.id} AND kind = 'fate.check' AND status = 'open'
      ORDER BY id DESC LIMIT 50`
    ).map((row) => typedFlow(checkFlow, row));
    const wanted = nameKey(query.replace("#", ""));
    return flows
      .map((f) => ({
        name: t(userLang, "fate.check.choice", {
          id: f.id,
          name: f.state.rollerName,
          skill: `@fate.skill.${f.state.check.skill}`,
          action: `@fate.action.${f.state.check.action}`,
          target: f.state.targetName ?? "",
          hasTarget: f.state.targetName ? "yes" : "no",
        }).slice(0, 100),
        value: String(f.id),
      }))
      .filter((c) => wanted === "" || nameKey(c.name).includes(wanted))
      .slice(0, 25);
  },
};
