/**
 * The negotiation tracker (docs/rules/beast-hunters.md §2.3): a panel for the three phases, each
 * hunter's pre-activation from a select of their own traits (phase 2–3), the GM's (phase 3), and
 * how it ended — a concession (`/reserve concede`) or dice (`/challenge start`, or the panel's
 * challenge form).
 */
import type { GameTable } from "../../generated/prisma/client.js";
import { t } from "../../i18n/index.js";
import {
  CONCESSION_FACTOR,
  endNegotiation,
  GM_SIDE,
  giveUpNegotiation,
  markPreActivated,
  type NegotiationEnd,
  type NegotiationState,
  newNegotiation,
  nextPhase,
  type Phase,
  preActivate,
  sameName,
  type TraitRole,
} from "../../rules/beast-hunters/index.js";
import { refuse } from "../../rules/errors.js";
import { characterById, ownedCharacters } from "../../store/characters.js";
import { actingCharacter, isGm } from "../access.js";
import {
  findOpenFlow,
  isFromPanel,
  panelEdit,
  requireFlow,
  saveFlowState,
  startFlow,
  type TypedFlow,
} from "../flows.js";
import { appendLog } from "../log.js";
import { cleanName } from "../names.js";
import type { ActionContext, ActionResult, Effect } from "../use-case.js";
import type { ModalView } from "../views.js";
import { adventureOf, endIfNobodyPlaying } from "./adventure.js";
import { negotiationFlow } from "./flow-states.js";
import { nameOf, negotiationPanel } from "./negotiation-view.js";
import { negotiatingHunters, refuseIfChallengeOpen, requireReserve } from "./reserve.js";
import { hunterSheet, saveHunterSheet } from "./sheets.js";
import { defineBhUseCase } from "./use-cases.js";

export type NegotiationFlow = TypedFlow<NegotiationState>;

export async function findNegotiation(
  ctx: Pick<ActionContext, "tx">,
  tableId: number,
): Promise<NegotiationFlow | null> {
  return findOpenFlow(ctx.tx, negotiationFlow, tableId);
}

async function loadNegotiation(ctx: ActionContext, table: GameTable, id: number | undefined) {
  if (id !== undefined) return requireFlow(ctx.tx, negotiationFlow, table.id, id);
  const flow = await findNegotiation(ctx, table.id);
  if (!flow) {
    const pool = await requireReserve(ctx.tx, table.id);
    if (adventureOf(pool).ended) refuse("errors.bh.adventureOver");
    await refuseIfChallengeOpen(ctx, table);
    refuse("errors.bh.noNegotiation");
  }
  return flow;
}

/** Saves a changed negotiation and answers: a click updates the panel; a command answers and redraws it. */
function answerNegotiation(
  ctx: ActionContext,
  flow: NegotiationFlow,
  state: NegotiationState,
  lines: string[],
): ActionResult {
  const panel = negotiationPanel(ctx.publicLang, flow.id, state);
  const text = { embeds: [{ description: lines.join("\n"), tone: "info" as const }] };
  if (isFromPanel(ctx, flow))
    return {
      replyMode: "update",
      reply: panel,
      effects: [{ kind: "post", channelId: ctx.invocation.channelId, view: text }],
    };
  return { reply: text, effects: [panelEdit(flow, panel)] };
}

/** `/challenge negotiate`: opens the negotiation (sphere required), or moves an open one to `phase` (or the next). */
export const challengeNegotiate = defineBhUseCase(
  "challenge.negotiate",
  { access: "gm", mutates: true, ephemeral: false },
  async (ctx, table) => {
    const open = await findNegotiation(ctx, table.id);
    if (open && ctx.intent.sphere && ctx.intent.sphere !== open.state.sphere) {
      // The GM names the sphere in phase 1 as the plan takes shape; naming another one changes it.
      const state = { ...open.state, sphere: ctx.intent.sphere };
      await saveFlowState(ctx.tx, negotiationFlow, open.id, state);
      await appendLog(ctx, table.id, {
        action: "negotiation.sphere",
        summary: { key: "bh.log.negotiationSphere", params: { sphere: state.sphere } },
        before: { sphere: open.state.sphere },
        after: { sphere: state.sphere },
      });
      if (ctx.intent.phase === undefined || ctx.intent.phase === state.phase)
        return answerNegotiation(ctx, open, state, [
          t(ctx.publicLang, "bh.negotiation.sphereSet", { sphere: state.sphere }),
        ]);
      return movePhase(ctx, table, { ...open, state }, ctx.intent.phase);
    }
    if (open) return movePhase(ctx, table, open, ctx.intent.phase);
    const over = await endIfNobodyPlaying(ctx, table);
    if (over) return { reply: over };
    if (!ctx.intent.sphere) refuse("errors.bh.negotiationNeedsSphere");
    const flow = await openNegotiation(ctx, table, {
      sphere: ctx.intent.sphere,
      phase: ctx.intent.phase ?? 1,
      name: ctx.intent.name,
      hunters: ctx.intent.hunters,
      climax: ctx.intent.climax,
    });
    return { reply: negotiationPanel(ctx.publicLang, flow.id, flow.state), replyIsPanelOf: flow.id };
  },
);

/** Opens a negotiation for the hunters taking part (all still playing by default). */
export async function openNegotiation(
  ctx: ActionContext,
  table: GameTable,
  input: {
    sphere: NegotiationState["sphere"];
    phase: Phase;
    name?: string | undefined;
    hunters?: string | undefined;
    climax?: boolean | undefined;
  },
): Promise<NegotiationFlow> {
  await refuseIfChallengeOpen(ctx, table);
  const pool = await requireReserve(ctx.tx, table.id);
  const adventure = adventureOf(pool);
  if (adventure.ended) refuse("errors.bh.adventureOver");
  const characters = await negotiatingHunters(ctx.tx, table.id, adventure, input.hunters);
  const state = newNegotiation({
    name: input.name ? cleanName(input.name) : null,
    sphere: input.sphere,
    phase: input.phase,
    climax: input.climax ?? false,
    hunters: characters.map((c) => ({
      id: String(c.id),
      name: c.name,
      traits: hunterSheet(c).traits.map((tr) => ({ name: tr.name, sphere: tr.sphere, value: tr.value })),
    })),
  });
  const flow = await startFlow(ctx, negotiationFlow, table.id, state);
  await appendLog(ctx, table.id, {
    action: "negotiation.open",
    summary: {
      key: "bh.log.negotiationOpened",
      params: { name: state.name ?? "—", phase: state.phase, sphere: state.sphere },
    },
    after: state,
  });
  return { ...flow, state };
}

async function movePhase(
  ctx: ActionContext,
  table: GameTable,
  flow: NegotiationFlow,
  to: Phase | undefined,
): Promise<ActionResult> {
  const state = nextPhase(flow.state, to);
  await saveFlowState(ctx.tx, negotiationFlow, flow.id, state);
  await appendLog(ctx, table.id, {
    action: "negotiation.phase",
    summary: { key: "bh.log.negotiationPhase", params: { before: flow.state.phase, after: state.phase } },
    before: { phase: flow.state.phase },
    after: { phase: state.phase },
  });
  return answerNegotiation(ctx, flow, state, [
    t(ctx.publicLang, "bh.negotiation.moved", { phase: state.phase }),
  ]);
}

/** The panel's "next phase" button (the GM). */
export const negotiationPhase = defineBhUseCase(
  "negotiation.phase",
  { access: "gm", mutates: true, ephemeral: false },
  async (ctx, table) => {
    const flow = await loadNegotiation(ctx, table, ctx.intent.flowId);
    return movePhase(ctx, table, flow, undefined);
  },
);

/**
 * The panel's "pre-activate" button: a hunter in the negotiation gets a private select of their
 * own traits; the GM, in phase 3, a form for the trait of their side.
 */
export const negotiationPreMenu = defineBhUseCase(
  "negotiation.premenu",
  { mutates: false, ephemeral: true },
  async (ctx, table) => {
    const flow = await loadNegotiation(ctx, table, ctx.intent.flowId);
    const state = flow.state;
    if (state.ended) refuse("errors.bh.negotiationOver");
    // The clicker's own hunter in the negotiation, if any.
    const own = await ownedCharacters(ctx.tx, table.id, ctx.actor.userId);
    const hunter = state.hunters.find((h) => own.some((c) => String(c.id) === h.id));
    if (!hunter) {
      if (!isGm(table, ctx.actor)) refuse("errors.bh.notInNegotiationYou");
      if (state.phase !== 3) refuse("errors.bh.preActivationNotAllowed", { phase: state.phase });
      const modal: ModalView = {
        title: t(ctx.userLang, "bh.negotiation.gmFormTitle"),
        intent: { type: "negotiation.preactivate", flowId: flow.id },
        inputs: [
          {
            field: "trait",
            label: t(ctx.userLang, "bh.negotiation.gmFormTrait"),
            style: "short",
            maxLength: 100,
            placeholder: t(ctx.userLang, "bh.negotiation.gmFormPlaceholder"),
          },
        ],
      };
      return { modal };
    }
    if (state.phase === 1) refuse("errors.bh.preActivationNotAllowed", { phase: 1 });
    // One trait per hunter in a negotiation, each once per adventure: offer only what is still allowed.
    if (state.pre.some((p) => p.by === hunter.id))
      refuse("errors.bh.tooManyPreActivations", { name: hunter.name, max: 1 });
    const fresh = await characterById(ctx.tx, Number(hunter.id));
    const sheet = fresh ? hunterSheet(fresh) : null;
    const used = sheet?.preActivated ?? [];
    const traits = (sheet?.traits ?? hunter.traits).filter((tr) => !used.some((u) => sameName(u, tr.name)));
    const options = traits.flatMap((tr) =>
      (["attack", "defence"] as const).map((as) => ({
        label: t(ctx.userLang, "bh.negotiation.preOption", { trait: tr.name, role: as, value: tr.value }),
        value: `${as}:${tr.name}`,
      })),
    );
    if (options.length === 0 && used.length > 0) refuse("errors.bh.allPreActivated", { name: hunter.name });
    if (options.length === 0) refuse("errors.bh.noTraitsToPre", { name: hunter.name });
    return {
      reply: {
        ephemeral: true,
        embeds: [
          { description: t(ctx.userLang, "bh.negotiation.preIntro", { name: hunter.name }), tone: "info" },
        ],
        rows: [
          [
            {
              kind: "select",
              intent: { type: "negotiation.preactivate", flowId: flow.id },
              field: "pick",
              placeholder: t(ctx.userLang, "bh.negotiation.prePlaceholder"),
              options: options.filter((o) => o.value.length <= 100).slice(0, 25),
            },
          ],
        ],
      },
    };
  },
);

/** `Trait`, `Trait:A` or `Trait:D` (Cyrillic А/З too): the role defaults to attack. */
export function traitAndRole(text: string): { trait: string; as: TraitRole } {
  const at = text.lastIndexOf(":");
  if (at > 0) {
    const suffix = text
      .slice(at + 1)
      .trim()
      .toLowerCase();
    if (["a", "а", "attack", "атака"].includes(suffix))
      return { trait: text.slice(0, at).trim(), as: "attack" };
    if (["d", "з", "defence", "defense", "защита"].includes(suffix))
      return { trait: text.slice(0, at).trim(), as: "defence" };
  }
  return { trait: text.trim(), as: "attack" };
}

/** The select's pick (`attack:<trait>` / `defence:<trait>`) or the GM form's text. */
export const negotiationPreactivate = defineBhUseCase(
  "negotiation.preactivate",
  { mutates: true, ephemeral: false },
  async (ctx, table) => {
    const flow = await loadNegotiation(ctx, table, ctx.intent.flowId);
    if (ctx.intent.trait !== undefined) {
      if (!isGm(table, ctx.actor)) refuse("errors.gmOnly");
      return preActivateInNegotiation(ctx, table, flow, { by: GM_SIDE, ...traitAndRole(ctx.intent.trait) });
    }
    const pick = ctx.intent.pick ?? "";
    const at = pick.indexOf(":");
    const as = pick.slice(0, at);
    if (as !== "attack" && as !== "defence") refuse("errors.staleAction");
    const character = await actingCharacter(ctx, undefined);
    return preActivateInNegotiation(ctx, table, flow, {
      by: String(character.id),
      trait: pick.slice(at + 1),
      as,
    });
  },
);

/**
 * One pre-activation: checked against the negotiation and the hunter's adventure (each trait
 * once), recorded on the sheet at once (so it counts even if the GM then concedes), logged.
 */
export async function preActivateInNegotiation(
  ctx: ActionContext,
  table: GameTable,
  flow: NegotiationFlow,
  pre: { by: string; trait: string; as: TraitRole },
  options: { actedForBy?: string } = {},
): Promise<ActionResult> {
  let already: string[] = [];
  let sheet: ReturnType<typeof hunterSheet> | null = null;
  if (pre.by !== GM_SIDE) {
    const character = await characterById(ctx.tx, Number(pre.by));
    if (!character) refuse("errors.bh.notInNegotiation", { name: pre.by });
    sheet = hunterSheet(character);
    already = sheet.preActivated;
  }
  // The hunter's traits as they are now (the sheet may have changed since the negotiation opened).
  const traitsNow = sheet?.traits.map((tr) => ({ name: tr.name, sphere: tr.sphere, value: tr.value }));
  const current: NegotiationState = traitsNow
    ? {
        ...flow.state,
        hunters: flow.state.hunters.map((h) => (h.id === pre.by ? { ...h, traits: traitsNow } : h)),
      }
    : flow.state;
  const { state, added } = preActivate(current, pre, already);
  await saveFlowState(ctx.tx, negotiationFlow, flow.id, state);
  if (sheet) await saveHunterSheet(ctx.tx, Number(pre.by), markPreActivated(sheet, [added.trait]));
  const name = added.by === GM_SIDE ? t(ctx.publicLang, "bh.negotiation.gm") : nameOf(state, added.by);
  if (options.actedForBy)
    await appendLog(ctx, table.id, {
      action: "challenge.gmActedFor",
      characterId: Number(added.by),
      summary: { key: "bh.log.gmActedFor", params: { name, action: "preActivate" } },
    });
  await appendLog(ctx, table.id, {
    action: "negotiation.preActivated",
    characterId: added.by === GM_SIDE ? null : Number(added.by),
    summary: {
      key: "bh.log.preActivated",
      params: { name, trait: added.trait, role: added.as, phase: added.phase },
    },
    after: added,
  });
  const lines = [
    ...(options.actedForBy ? [t(ctx.publicLang, "bh.gmActsFor", { name: options.actedForBy })] : []),
    t(ctx.publicLang, "bh.negotiation.preDone", { name, trait: added.trait, role: added.as }),
  ];
  return answerNegotiation(ctx, flow, state, lines);
}

/** Ends an open negotiation (a concession or dice), logs how, and returns the effect that redraws its panel. */
export async function closeNegotiation(
  ctx: ActionContext,
  table: GameTable,
  flow: NegotiationFlow,
  how: NegotiationEnd,
  challengeFlowId: number | null,
): Promise<Effect> {
  const state = endNegotiation(flow.state, how, challengeFlowId);
  await saveFlowState(ctx.tx, negotiationFlow, flow.id, state, true);
  await logNegotiationEnd(ctx, table, state);
  return panelEdit(flow, negotiationPanel(ctx.publicLang, flow.id, state));
}

/**
 * A hunter gives up the negotiation (free: "если охотник сдаётся, то ведущий ничего не тратит"):
 * they leave it; the last one to give up ends it. The GM names an absent player's hunter.
 */
export async function giveUpInNegotiation(
  ctx: ActionContext,
  table: GameTable,
  flow: NegotiationFlow,
  name: string | undefined,
): Promise<ActionResult> {
  const gm = isGm(table, ctx.actor);
  if (gm && !name) {
    // The GM has no hunter to give up with: dropping the negotiation is the GM's way out.
    refuse("errors.bh.gmGivesUpNegotiation");
  }
  const character = await actingCharacter(ctx, name, { gmMayActForPlayers: gm });
  const id = String(character.id);
  if (!flow.state.hunters.some((h) => h.id === id))
    refuse("errors.bh.notInNegotiation", { name: character.name });
  const state = giveUpNegotiation(flow.state, id);
  const actedFor = gm && character.ownerUserId !== ctx.actor.userId;
  if (actedFor)
    await appendLog(ctx, table.id, {
      action: "challenge.gmActedFor",
      characterId: character.id,
      summary: { key: "bh.log.gmActedFor", params: { name: character.name, action: "giveUp" } },
    });
  await appendLog(ctx, table.id, {
    action: "negotiation.gaveUp",
    characterId: character.id,
    summary: { key: "bh.log.negotiationGaveUp", params: { name: character.name } },
    before: { hunters: flow.state.hunters.map((h) => h.name) },
    after: { hunters: state.hunters.map((h) => h.name) },
  });
  if (state.ended) await logNegotiationEnd(ctx, table, state);
  await saveFlowState(ctx.tx, negotiationFlow, flow.id, state, state.ended !== null);
  return answerNegotiation(ctx, flow, state, [
    ...(actedFor ? [t(ctx.publicLang, "bh.gmActsFor", { name: character.name })] : []),
    t(ctx.publicLang, state.ended ? "bh.negotiation.gaveUpLast" : "bh.negotiation.gaveUp", {
      name: character.name,
    }),
  ]);
}

/** The GM drops the negotiation (opened by mistake): nothing is spent, nobody earns anything; logged. */
export async function dropNegotiation(
  ctx: ActionContext,
  table: GameTable,
  flow: NegotiationFlow,
): Promise<ActionResult> {
  if (!isGm(table, ctx.actor)) refuse("errors.gmOnly");
  const state = endNegotiation(flow.state, "dropped");
  await logNegotiationEnd(ctx, table, state);
  await saveFlowState(ctx.tx, negotiationFlow, flow.id, state, true);
  return answerNegotiation(ctx, flow, state, [t(ctx.publicLang, "bh.negotiation.dropped")]);
}

async function logNegotiationEnd(ctx: ActionContext, table: GameTable, state: NegotiationState) {
  await appendLog(ctx, table.id, {
    action: "negotiation.ended",
    summary: {
      key: "bh.log.negotiationEnded",
      params: { how: state.ended?.how ?? "dropped", phase: state.phase },
    },
    after: state.ended,
  });
}

/**
 * The panel's concede button (the GM): a private menu of the ratings the GM may concede at, the
 * ceiling first, each with what it costs from the reserve now; the pick is the one confirmation.
 */
export const negotiationConcedeMenu = defineBhUseCase(
  "negotiation.concedemenu",
  { access: "gm", mutates: false, ephemeral: true },
  async (ctx, table) => {
    const flow = await loadNegotiation(ctx, table, ctx.intent.flowId);
    if (flow.state.ended) refuse("errors.bh.negotiationOver");
    const pool = await requireReserve(ctx.tx, table.id);
    const left = pool.total - pool.spent;
    const ratings = Array.from({ length: Math.min(pool.ceiling, 25) }, (_, i) => pool.ceiling - i);
    const phase = flow.state.phase;
    return {
      reply: {
        ephemeral: true,
        embeds: [
          {
            description: t(ctx.userLang, "bh.negotiation.concedeIntro", {
              phase,
              ceiling: pool.ceiling,
              cost: CONCESSION_FACTOR * pool.ceiling,
              left,
              names: flow.state.hunters.map((h) => h.name).join(", "),
            }),
            tone: "warning",
          },
        ],
        rows: [
          [
            {
              kind: "select",
              intent: { type: "reserve.concede", phase, negotiation: flow.id },
              field: "rating",
              placeholder: t(ctx.userLang, "bh.negotiation.concedePlaceholder"),
              options: ratings.map((rating) => ({
                label: t(ctx.userLang, "bh.negotiation.concedeOption", {
                  rating,
                  cost: CONCESSION_FACTOR * rating,
                  left,
                  after: Math.max(0, left - CONCESSION_FACTOR * rating),
                  vp: phase,
                }),
                value: String(rating),
              })),
            },
          ],
        ],
      },
    };
  },
);

/** The panel's "Give up" button: the clicker's hunter leaves the negotiation. */
export const negotiationGiveUp = defineBhUseCase(
  "negotiation.giveup",
  { mutates: true, ephemeral: false },
  async (ctx, table) => {
    const flow = await loadNegotiation(ctx, table, ctx.intent.flowId);
    return giveUpInNegotiation(ctx, table, flow, ctx.intent.character);
  },
);

/** The panel's "Drop" button (the GM). */
export const negotiationDrop = defineBhUseCase(
  "negotiation.drop",
  { access: "gm", mutates: true, ephemeral: false },
  async (ctx, table) => {
    const flow = await loadNegotiation(ctx, table, ctx.intent.flowId);
    return dropNegotiation(ctx, table, flow);
  },
);

/** The negotiation's phase must be the one the GM names (a concession or dice at the end of it). */
export function requireNegotiationPhase(flow: NegotiationFlow, phase: number): void {
  if (flow.state.phase !== phase)
    refuse("errors.bh.negotiationPhaseMismatch", { phase: flow.state.phase, asked: phase });
}
