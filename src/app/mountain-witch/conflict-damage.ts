import { type Lang, t } from "../../i18n/index.js";
import { refuse } from "../../rules/errors.js";
import {
  buyNarration,
  type ConflictState,
  type DamageQuality,
  damageChoices,
  findParticipant,
  INCAPACITY_OBSTACLE_KEY,
  type Pairing,
  type Participant,
  pairingById,
  pairingOfCharacter,
  recoveryOutcome,
  type SideKey,
  spendDamage,
  spenderOf,
  spendsSide,
} from "../../rules/mountain-witch/index.js";
import { setCharacterStatus } from "../../store/characters.js";
import { actingCharacter, isGm } from "../access.js";
import { appendLog } from "../log.js";
import { cleanText } from "../names.js";
import type { Effect } from "../use-case.js";
import {
  characterById,
  chosenParticipant,
  loadConflict,
  outsideNames,
  participantNamed,
  requireParticipantOf,
  saved,
} from "./conflict.js";
import { pairingDamageView, participantName } from "./conflict-view.js";
import { persistDamage, persistTrustSpend, refOf, trustLinks } from "./shared.js";
import { mwAction } from "./use-cases.js";

export const conflictNarrate = mwAction("conflict.narrate", "public change", async (ctx) => {
  const { table } = ctx;
  const buyer = await actingCharacter(ctx, ctx.intent.buyer);
  const flow = await loadConflict(ctx, ctx.intent.flowId);
  const of = await chosenParticipant(ctx, flow.state, { id: ctx.intent.ofId, name: ctx.intent.character });
  const links = await trustLinks(ctx.tx, table.id);
  const { state, spent } = buyNarration(flow.state, { buyer: refOf(buyer), ofId: of.id }, links);
  await persistTrustSpend(ctx, table.id, spent, { giver: of.name, holder: buyer.name });
  return saved(ctx, flow, state, {
    note: t(ctx.publicLang, "mw.conflict.narrationBought", { buyer: buyer.name, name: of.name }),
  });
});

/**
 * The pairing whose successes an action spends: the one named (by the panel, or by a
 * character in it), else the only one the actor narrates, else the target's own.
 */
function pairingToSpend(
  state: ConflictState,
  who: { userId: string; isGm: boolean },
  named: { pairingId?: number; character?: Participant; target?: Participant },
): Pairing {
  if (named.pairingId !== undefined) return pairingById(state, named.pairingId);
  if (named.character) {
    const own = pairingOfCharacter(state, named.character.id);
    if (!own) refuse("errors.mw.pairingNeeded", { names: pairingNames(state, state.pairings) });
    return own;
  }
  if (state.pairings.length === 1) return state.pairings[0]!;
  const target = named.target ? pairingOfCharacter(state, named.target.id) : null;
  if (target) return target;
  const narrated = pairingsSpentBy(state, who);
  if (narrated.length === 1) return narrated[0]!;
  refuse("errors.mw.pairingNeeded", {
    names: pairingNames(state, narrated.length ? narrated : state.pairings),
  });
}

/** The pairings whose successes (either side's) `who` spends. */
function pairingsSpentBy(state: ConflictState, who: { userId: string; isGm: boolean }): Pairing[] {
  return state.pairings.filter((p) => spendsSide(state, p, "a", who) || spendsSide(state, p, "b", who));
}

/** Refuses a spending of `side`'s successes by someone else, naming who spends them. */
async function refuseNotSpender(
  ctx: Parameters<typeof outsideNames>[0] & { userLang: Lang },
  state: ConflictState,
  pairing: Pairing,
  side: SideKey,
): Promise<never> {
  const spender = spenderOf(state, pairing, side);
  if (!spender) refuse("errors.mw.noSuccesses");
  const narrator = pairing.narration;
  const characterId =
    narrator && narrator.playerId === spender.playerId
      ? narrator.characterId
      : state.participants.find((p) => p.playerId === spender.playerId && p.side === side)?.id;
  const name =
    spender.playerId === null || characterId === undefined
      ? t(ctx.userLang, "mw.conflict.gm")
      : (findParticipant(state, characterId)?.name ??
        (await outsideNames(ctx, state))[characterId] ??
        `#${characterId}`);
  refuse("errors.mw.notNarrator", { name });
}

function pairingNames(state: ConflictState, pairings: readonly Pairing[]): string {
  return pairings.map((p) => findParticipant(state, p.id)?.name ?? `#${p.id}`).join(", ");
}

/** A damage quality as the command gives it or as typed: ½ / 0.5, 1, 1½ / 1.5, 2, or its name. */
function qualityFrom(text: string): DamageQuality {
  const key = text.trim().toLowerCase().replace(",", ".");
  const byText: Record<string, DamageQuality> = {
    partial: "partial",
    "½": "partial",
    "1/2": "partial",
    "0.5": "partial",
    ".5": "partial",
    normal: "normal",
    "1": "normal",
    critical: "critical",
    "1½": "critical",
    "1.5": "critical",
    double: "double",
    "2": "double",
  };
  const quality = byText[key];
  if (!quality) refuse("errors.mw.qualityUnknown", { text: text.trim().slice(0, 20) });
  return quality;
}

/**
 * The panel's short form for damage the menu does not give: on an ability, or conditional
 * (docs/rules/mountain-witch.md §1.2). The narrator types the target, the successes spent and
 * the ability or the condition; `conflict.damage` checks it all.
 */
export const conflictDamageForm = mwAction("conflict.damage-form", "private read", async (ctx) => {
  const { table } = ctx;
  const flow = await loadConflict(ctx, ctx.intent.flowId);
  if (flow.state.phase !== "rolled") refuse("errors.mw.conflictNotRolled");
  const who = { userId: ctx.actor.userId, isGm: isGm(table, ctx.actor) };
  const mine = flow.state.pairings.flatMap((p) =>
    damageChoices(flow.state, p.id).filter((c) => spendsSide(flow.state, p, c.attackerSide, who)),
  );
  if (mine.length === 0) refuse("errors.mw.noSuccesses");
  const targets = [
    ...new Set(mine.map((c) => participantName(ctx.userLang, requireParticipantOf(flow.state, c.targetId)))),
  ];
  return {
    modal: {
      title: t(ctx.userLang, "mw.conflict.damageFormTitle").slice(0, 45),
      intent: { type: "conflict.damage", flowId: flow.id },
      inputs: [
        {
          field: "target",
          label: t(ctx.userLang, "mw.conflict.damageFormTarget").slice(0, 45),
          style: "short" as const,
          ...(targets.length === 1 ? { value: targets[0]! } : {}),
          placeholder: targets.join(", ").slice(0, 100),
          required: true,
          maxLength: 64,
        },
        {
          field: "quality",
          label: t(ctx.userLang, "mw.conflict.damageFormQuality").slice(0, 45),
          style: "short" as const,
          placeholder: "½ · 1 · 1½ · 2",
          required: true,
          maxLength: 8,
        },
        {
          field: "ability",
          label: t(ctx.userLang, "mw.conflict.damageFormAbility").slice(0, 45),
          style: "short" as const,
          required: false,
          maxLength: 100,
        },
        {
          field: "condition",
          label: t(ctx.userLang, "mw.conflict.damageFormCondition").slice(0, 45),
          style: "short" as const,
          required: false,
          maxLength: 100,
        },
      ],
    },
  };
});

export const conflictDamage = mwAction("conflict.damage", "public change", async (ctx) => {
  const { table } = ctx;
  const flow = await loadConflict(ctx, ctx.intent.flowId);
  if (flow.state.phase === "open") refuse("errors.mw.conflictNotRolled");
  const who = { userId: ctx.actor.userId, isGm: isGm(table, ctx.actor) };
  const chosen = ctx.intent.choice?.split(":");
  let target = chosen
    ? requireParticipantOf(flow.state, Number(chosen[1]))
    : ctx.intent.target
      ? await participantNamed(ctx, flow.state, ctx.intent.target)
      : undefined;
  const pairing = pairingToSpend(flow.state, who, {
    ...(ctx.intent.pairingId !== undefined ? { pairingId: ctx.intent.pairingId } : {}),
    ...(ctx.intent.character
      ? { character: await participantNamed(ctx, flow.state, ctx.intent.character) }
      : {}),
    ...(target ? { target } : {}),
  });
  // The successes of a pairing are its narrator's alone (docs/rules/mountain-witch.md §1.1) — but
  // the opponents' half of a trade is the opponents' own.
  const spends = (side: SideKey) => spendsSide(flow.state, pairing, side, who);
  if (!spends("a") && !spends("b")) await refuseNotSpender(ctx, flow.state, pairing, "a");
  const typed = chosen?.[2] ?? ctx.intent.quality;
  const quality = typed === undefined || typed.trim() === "" ? undefined : qualityFrom(typed);
  if (!quality) refuse("errors.mw.qualityNeeded");
  if (!target) {
    const ids = [
      ...new Set(
        damageChoices(flow.state, pairing.id)
          .filter((c) => c.quality === quality && spends(c.attackerSide))
          .map((c) => c.targetId),
      ),
    ];
    if (ids.length === 0) refuse("errors.mw.notEnoughSuccesses");
    if (ids.length > 1) refuse("errors.mw.damageTargetNeeded");
    target = requireParticipantOf(flow.state, ids[0]!);
  }
  const attackerSide = target.side === "a" ? "b" : "a";
  if (!spends(attackerSide)) await refuseNotSpender(ctx, flow.state, pairing, attackerSide);
  const { state, damage } = spendDamage(flow.state, {
    attackerSide,
    targetId: target.id,
    quality,
    pairingId: pairing.id,
    ability: ctx.intent.ability ? cleanText(ctx.intent.ability, 100) : null,
    condition: ctx.intent.condition ? cleanText(ctx.intent.condition, 100) : null,
    ...(ctx.intent.kill !== undefined ? { kill: ctx.intent.kill } : {}),
  });
  const effects: Effect[] = [];
  let note = t(ctx.publicLang, "mw.conflict.damageDone", { name: participantName(ctx.publicLang, target) });
  if (target.id > 0) {
    const stored = await characterById(ctx.tx, table, target.id);
    await persistDamage(ctx, table, stored, damage, state.title);
  }
  // A recovery attempt succeeds once incapacity is taken out: back in play, with one more permanent wound.
  if (
    state.recoveryOf !== null &&
    target.nameKey === INCAPACITY_OBSTACLE_KEY &&
    recoveryOutcome(state) === "recovered"
  ) {
    const patient = await characterById(ctx.tx, table, state.recoveryOf);
    await setCharacterStatus(ctx.tx, patient.id, "active");
    await persistDamage(
      ctx,
      table,
      patient,
      { quality: "critical", duration: "permanent", ability: null, condition: null, takenOut: null },
      null,
    );
    await appendLog(ctx, table.id, {
      action: "character.status",
      characterId: patient.id,
      summary: { key: "log.mw.recovered", params: { name: patient.name } },
      before: { status: patient.status },
      after: { status: "active" },
    });
    note = t(ctx.publicLang, "mw.conflict.recovered", { name: patient.name });
  }
  return saved(ctx, flow, state, { note, effects });
});

/** The panel's pairing chooser: one pairing's damage menu, privately, for any number of pairings. */
export const conflictPairing = mwAction("conflict.pairing", "private read", async (ctx) => {
  const flow = await loadConflict(ctx, ctx.intent.flowId);
  if (flow.state.phase !== "rolled") refuse("errors.mw.conflictNotRolled");
  const pairing = pairingById(flow.state, ctx.intent.pairingId);
  if (damageChoices(flow.state, pairing.id).length === 0) refuse("errors.mw.noSuccesses");
  return { reply: pairingDamageView(ctx.userLang, flow.id, flow.state, pairing.id) };
});

export const conflictDamageUseCases = [conflictNarrate, conflictDamage, conflictDamageForm, conflictPairing];
