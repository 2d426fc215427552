import type { z } from "zod";
import type { Character, GameTable } from "../../generated/prisma/client.js";
import { type Lang, type MessageKey, t } from "../../i18n/index.js";
import {
  addObstacle,
  applyChallengeAction,
  type ChallengeAction,
  type ChallengeEvent,
  type ChallengeState,
  GM_SIDE,
  markPreActivated,
  nothingPlayedYet,
  type ObstacleInput,
  type Phase,
  type PreActivation,
  parseBoxes,
  parseResources,
  parseTraits,
  refundReserve,
  type Sphere,
  startChallenge,
  type TraitRole,
} from "../../rules/beast-hunters/index.js";
import { DomainError, refuse } from "../../rules/errors.js";
import { sqlFor } from "../../store/db.js";
import { actingCharacter, isGm } from "../access.js";
import {
  createFlow,
  findOpenFlow,
  isFromPanel,
  panelEdit,
  requireFlow,
  saveFlowState,
  type TypedFlow,
} from "../flows.js";
import type { Intent } from "../intent.js";
import type { KnownIntent } from "../intents.js";
import { appendLog } from "../log.js";
import { cleanName, nameKey } from "../names.js";
import { type ActionContext, type ActionResult, defineUseCase, type Effect } from "../use-case.js";
import type { MessageView, ModalView } from "../views.js";
import { adventureOf, settleAdventure } from "./adventure.js";
import {
  challengePanel,
  eventLines,
  eventLogEntries,
  priceText,
  severalHunters,
  teamActionsView,
} from "./challenge-view.js";
import { type ChallengeFlowState, challengeFlow, negotiationFlow } from "./flow-states.js";
import { bhIntents } from "./intents.js";
import {
  closeNegotiation,
  findNegotiation,
  type NegotiationFlow,
  openNegotiation,
  preActivateInNegotiation,
  requireNegotiationPhase,
  traitAndRole as traitWithRole,
} from "./negotiation.js";
import {
  asReserve,
  negotiatingHunters,
  recordReserve,
  refuseIfChallengeOpen,
  requireReserve,
} from "./reserve.js";
import { hunterSheet, saveHunterSheet } from "./sheets.js";

const SYSTEMS = ["beast-hunters"] as const;
type Flow = TypedFlow<ChallengeFlowState>;

async function loadFlow(ctx: ActionContext, table: GameTable, id: number | undefined): Promise<Flow> {
  if (id !== undefined) return requireFlow(ctx.tx, challengeFlow, table.id, id);
  const flow = await findOpenFlow(ctx.tx, challengeFlow, table.id);
  if (!flow) refuse("errors.bh.noChallenge");
  return flow;
}

/**
 * The participant an actor acts as: the GM acts for the obstacle (or names it); players for
 * their own hunter in the challenge.
 */
async function actingParticipant(
  ctx: ActionContext,
  table: GameTable,
  state: ChallengeState,
  name: string | undefined,
): Promise<string> {
  const gm = isGm(table, ctx.actor);
  const obstacles = state.participants.filter((p) => p.side === "gm");
  if (name) {
    const obstacle = obstacles.find((p) => nameKey(p.name) === nameKey(name));
    if (obstacle) {
      if (!gm) refuse("errors.gmOnly");
      return obstacle.id;
    }
  } else if (gm) {
    return (
      obstacles.find((p) => p.id === state.turn) ??
      obstacles.find((p) => p.status === "in") ??
      obstacles[0]!
    ).id;
  }
  // The GM may act for an absent player's hunter by naming it; `play` says so and logs it.
  const character = await actingCharacter(ctx, name, { gmMayActForPlayers: gm });
  const id = String(character.id);
  if (!state.participants.some((p) => p.id === id))
    refuse("errors.bh.notInChallenge", { name: character.name });
  return id;
}

/** The GM acted for a player's hunter: a public line and a log entry naming who did it. */
async function gmActedFor(
  ctx: ActionContext,
  table: GameTable,
  state: ChallengeState,
  action: ChallengeAction,
): Promise<string[]> {
  if (!isGm(table, ctx.actor)) return [];
  const actor = "actor" in action ? action.actor : null;
  const hunter = state.participants.find((p) => p.id === actor && p.side === "hunters");
  if (!hunter) return [];
  await appendLog(ctx, table.id, {
    action: "challenge.gmActedFor",
    characterId: Number(hunter.id),
    summary: { key: "bh.log.gmActedFor", params: { name: hunter.name, action: action.type } },
  });
  return [t(ctx.publicLang, "bh.gmActsFor", { name: hunter.name })];
}

function participantId(state: ChallengeState, name: string | undefined): string | null {
  if (!name) return null;
  const found = state.participants.find((p) => nameKey(p.name) === nameKey(name));
  if (!found) refuse("errors.bh.unknownTarget", { name: name.slice(0, 64) });
  return found.id;
}

/** Applies the action, saves, logs every event, settles VP/refunds/damage on the sheets, and answers. */
async function play(
  ctx: ActionContext,
  table: GameTable,
  flow: Flow,
  action: ChallengeAction,
  options: { extraLines?: string[] } = {},
): Promise<ActionResult> {
  const before = flow.state.challenge;
  const result = applyChallengeAction(before, action, ctx.dice);
  const next: ChallengeFlowState = { ...flow.state, challenge: result.state };
  await saveFlowState(ctx.tx, challengeFlow, flow.id, next, result.state.status === "closed");
  const actedFor = await gmActedFor(ctx, table, before, action);
  for (const entry of eventLogEntries(result.state, result.events)) await appendLog(ctx, table.id, entry);
  await settle(ctx, table, result.state, result.events);
  const ending = await settleAdventure(ctx, table, before, result.state, result.events);
  const answered = answer(
    ctx,
    flow.id,
    next,
    [...actedFor, ...(options.extraLines ?? []), ...eventLines(ctx.publicLang, result.state, result.events)],
    flow,
    await turnPing(ctx, table, result.state, result.events),
  );
  return { ...answered, effects: [...(answered.effects ?? []), ...ending] };
}

/** Writes what a challenge changes outside itself: hunters' boxes, VP, the refund, retirements. */
async function settle(ctx: ActionContext, table: GameTable, state: ChallengeState, events: ChallengeEvent[]) {
  const hunterIds = new Set(
    events
      .flatMap((e) => (e.type === "damageMarked" ? [e.participant] : []))
      .filter((id) => isHunter(state, id)),
  );
  for (const id of hunterIds) {
    const character = await sqlFor(ctx.tx).one<Pick<Character, "sheet">>`
      SELECT sheet FROM "character" WHERE id = ${Number(id)}`;
    if (!character) throw new Error(`character ${id} not found`);
    const sheet = hunterSheet(character);
    const damage = state.participants.find((p) => p.id === id)!.damage;
    await saveHunterSheet(ctx.tx, Number(id), {
      ...sheet,
      damage: { ...sheet.damage, [state.sphere]: { ...damage } },
    });
  }
  for (const event of events) {
    if (event.type === "taskResolved")
      await awardVp(ctx, table, state, event.vp, "bh.reason.task", { task: event.task });
    if (event.type !== "challengeEnded") continue;
    const outcome = event.outcome;
    await awardVp(ctx, table, state, outcome.vp, "bh.reason.challenge", { name: state.name ?? "—" });
    if (outcome.refund > 0) {
      const pool = await requireReserve(ctx.tx, table.id);
      const change = refundReserve(asReserve(pool), outcome.refund);
      await recordReserve(ctx, table, pool, change.reserve, {
        action: "challenge.refund",
        key: "bh.log.refund",
        params: { amount: outcome.refund },
      });
    }
    for (const id of outcome.retired) {
      await sqlFor(ctx.tx).run`UPDATE "character" SET status = 'retired' WHERE id = ${Number(id)}`;
      await appendLog(ctx, table.id, {
        action: "character.status",
        characterId: Number(id),
        summary: { key: "bh.log.retired", params: { name: nameIn(state, id) } },
        before: { status: "active" },
        after: { status: "retired" },
      });
    }
  }
}

function isHunter(state: ChallengeState, id: string): boolean {
  return state.participants.some((p) => p.id === id && p.side === "hunters");
}

function nameIn(state: ChallengeState, id: string): string {
  return state.participants.find((p) => p.id === id)?.name ?? id;
}

async function awardVp(
  ctx: ActionContext,
  table: GameTable,
  state: ChallengeState,
  vp: Record<string, number>,
  reasonKey: MessageKey,
  reasonParams: Record<string, string | number>,
) {
  for (const [id, amount] of Object.entries(vp)) {
    if (amount <= 0) continue;
    const character = await sqlFor(ctx.tx).one<Pick<Character, "id" | "victoryPoints">>`
      UPDATE "character" SET victory_points = victory_points + ${amount} WHERE id = ${Number(id)}
      RETURNING id, victory_points`;
    if (!character) throw new Error(`character ${id} not found`);
    await appendLog(ctx, table.id, {
      action: "character.vp",
      characterId: character.id,
      summary: { key: "bh.log.vpAwarded", params: { name: nameIn(state, id), amount } },
      before: { vp: character.victoryPoints - amount },
      after: { vp: character.victoryPoints },
      reason: t(ctx.publicLang, reasonKey, reasonParams),
    });
  }
}

/** From the panel: update it in place and post what happened; from a command: answer with what happened and edit the panel. */
function answer(
  ctx: ActionContext,
  id: number,
  state: ChallengeFlowState,
  lines: string[],
  flow: Flow,
  ping: Ping | null = null,
): ActionResult {
  const panel = challengePanel(ctx.publicLang, id, state);
  const text = lines.filter((l) => l !== "").join("\n");
  const summary: MessageView = {
    ...(ping ?? {}),
    embeds: [{ description: text || "—", tone: "info" as const }],
  };
  if (isFromPanel(ctx, flow)) {
    return {
      replyMode: "update",
      reply: panel,
      effects: [{ kind: "post", channelId: ctx.invocation.channelId, view: summary }],
    };
  }
  return { reply: summary, effects: [panelEdit(flow, panel)] };
}

type Ping = Pick<MessageView, "content" | "mentionUsers">;

/** The old panel after `/challenge show` moved it: a pointer to the new one, every control disabled. */
function movedPanel(ctx: ActionContext, panel: MessageView): MessageView {
  const at = Math.floor(Date.now() / 1000);
  return {
    embeds: [
      { description: t(ctx.publicLang, "bh.panel.moved", { at: `<t:${at}:T>` }), tone: "warning" },
      ...(panel.embeds ?? []),
    ],
    rows: (panel.rows ?? []).map((row) => row.map((c) => ({ ...c, disabled: true }))),
  };
}

/**
 * The turn line pings the one who must act now — the hunter's player, or the GM for an
 * obstacle; a pending fatal choice pings that hunter's player. Only that user may be mentioned.
 */
async function turnPing(
  ctx: ActionContext,
  table: GameTable,
  state: ChallengeState,
  events: readonly ChallengeEvent[],
): Promise<Ping | null> {
  const moved = events.some(
    (e) =>
      e.type === "turnPassed" ||
      e.type === "challengeStarted" ||
      e.type === "obstacleAdded" ||
      e.type === "fatalDamage",
  );
  if (!moved) return null;
  const who =
    state.status === "fatalChoice" ? state.pendingFatal : state.status === "active" ? state.turn : null;
  const p = state.participants.find((x) => x.id === who);
  if (!p) return null;
  let userId: string | null = table.gmUserId;
  if (p.side === "hunters") {
    const owner = await sqlFor(ctx.tx).one<{ ownerUserId: string | null }>`
      SELECT owner_user_id FROM "character" WHERE id = ${Number(p.id)}`;
    userId = owner?.ownerUserId ?? null;
  }
  if (!userId) return null;
  const key = state.status === "fatalChoice" ? "bh.ping.fatal" : "bh.ping.turn";
  return {
    content: t(ctx.publicLang, key, { mention: `<@${userId}>`, name: p.name }),
    mentionUsers: [userId],
  };
}

// ---------------------------------------------------------------------------------------
// Start

function splitList(text: string | undefined): string[] {
  return (text ?? "")
    .split(/[,;\n]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The fields of the challenge form (the guided `/challenge start`), as the GM typed them. */
const FORM_FIELDS = ["traits", "resources", "initiative", "boxes", "neutralize"] as const;
type FormField = (typeof FORM_FIELDS)[number];
type StartIntent = {
  sphere?: Sphere | undefined;
  phase?: Phase | undefined;
  name?: string | undefined;
  traits?: string | undefined;
  resources?: string | undefined;
  initiative?: number | string | undefined;
  boxes?: string | undefined;
  neutralize?: string | undefined;
  climax?: boolean | undefined;
  preActivate?: string | undefined;
  gmPreActivate?: string | undefined;
  first?: "hunters" | "gm" | undefined;
  hunters?: string | undefined;
};

function initiativeOf(raw: number | string | undefined): number {
  if (typeof raw === "number") return raw;
  const text = (raw ?? "").trim();
  if (text === "") return 0;
  if (!/^\d{1,2}$/.test(text) || Number(text) > 40)
    refuse("errors.bh.badInitiative", { value: text.slice(0, 20) });
  return Number(text);
}

/** The obstacle's parts, each field parsed on its own (so a form can report each bad field alone). */
function obstacleFields(
  intent: StartIntent,
  sphere: Sphere,
  hunters: { characterId: string; sheet: ReturnType<typeof hunterSheet> }[],
) {
  return {
    traits: () => parseTraits(intent.traits ?? "").map((tr) => ({ ...tr, name: cleanName(tr.name) })),
    resources: () => parseResources(intent.resources ?? "").map((r) => ({ ...r, name: cleanName(r.name) })),
    initiative: () => initiativeOf(intent.initiative),
    boxes: () => (intent.boxes?.trim() ? parseBoxes(intent.boxes) : null),
    neutralize: () =>
      splitList(intent.neutralize).map((resource) => {
        const owners = hunters.filter((h) =>
          h.sheet.resources.some((r) => r.sphere === sphere && nameKey(r.name) === nameKey(resource)),
        );
        if (owners.length === 0)
          refuse("errors.bh.noSuchHunterResource", { resource: resource.slice(0, 64) });
        if (owners.length > 1) refuse("errors.bh.ambiguousResource", { resource: resource.slice(0, 64) });
        return { hunter: owners[0]!.characterId, resource };
      }),
  } satisfies Record<FormField, () => unknown>;
}

export const challengeStart = defineUseCase({
  schema: bhIntents["challenge.start"],
  systems: SYSTEMS,
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = ctx.table;
    const intent = ctx.intent;
    await refuseIfChallengeOpen(ctx, table);
    let negotiation =
      intent.negotiation !== undefined
        ? await requireNegotiation(ctx, table, intent.negotiation)
        : await findNegotiation(ctx, table.id);
    if (intent.form) {
      if (!negotiation) {
        if (!intent.sphere || !intent.phase) refuse("errors.bh.negotiationNeedsSphere");
        negotiation = await openNegotiation(ctx, table, {
          sphere: intent.sphere,
          phase: intent.phase,
          name: intent.name,
          hunters: intent.hunters,
          climax: intent.climax,
        });
      }
      return { modal: challengeForm(ctx.userLang, negotiation) };
    }
    if (!intent.guided) return buyObstacle(ctx, table, intent, negotiation);
    if (!negotiation) refuse("errors.bh.noNegotiation");
    // The guided form: every bad field is reported alone, the whole purchase is not lost.
    const draft = Object.fromEntries(
      FORM_FIELDS.map((f) => [f, intent[f] === undefined ? "" : String(intent[f])]),
    );
    try {
      return await buyObstacle(ctx, table, intent, negotiation);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const problems = error instanceof FormErrors ? error.problems : [{ field: null, error }];
      await saveFlowState(ctx.tx, negotiationFlow, negotiation.id, { ...negotiation.state, draft });
      return {
        reply: formProblems(ctx.userLang, problems, { type: "negotiation.form", flowId: negotiation.id }),
      };
    }
  },
});

/** Several fields of the form were refused: each with its own reason. */
class FormErrors extends DomainError {
  constructor(readonly problems: { field: FormField | null; error: DomainError }[]) {
    super(problems[0]!.error.code, problems[0]!.error.params);
  }
}

function formProblems(
  lang: Lang,
  problems: { field: FormField | null; error: DomainError }[],
  fix: KnownIntent | null,
): MessageView {
  const lines = problems.map(({ field, error }) =>
    field
      ? t(lang, "bh.form.badField", { field, problem: t(lang, error.code, error.params) })
      : `⚠️ ${t(lang, error.code, error.params)}`,
  );
  return {
    ephemeral: true,
    embeds: [
      {
        description: [t(lang, "bh.form.problems"), ...lines, ...(fix ? [t(lang, "bh.form.kept")] : [])].join(
          "\n",
        ),
        tone: "warning",
      },
    ],
    rows: fix ? [[{ kind: "button", label: t(lang, "bh.form.fix"), intent: fix, style: "primary" }]] : [],
  };
}

/** The guided form: the obstacle's fields, prefilled with what was typed last time. */
export function challengeForm(lang: Lang, negotiation: NegotiationFlow): ModalView {
  const draft = negotiation.state.draft;
  return {
    title: t(lang, "bh.form.title", { phase: negotiation.state.phase }),
    intent: { type: "challenge.start", negotiation: negotiation.id, guided: true },
    inputs: FORM_FIELDS.map((field) => ({
      field,
      label: t(lang, `bh.form.${field}`),
      style: "short" as const,
      required: false,
      maxLength: field === "boxes" ? 30 : field === "initiative" ? 2 : field === "neutralize" ? 200 : 300,
      placeholder: t(lang, `bh.form.${field}Placeholder`),
      ...(draft[field] ? { value: draft[field] } : {}),
    })),
  };
}

async function buyObstacle(
  ctx: ActionContext,
  table: GameTable,
  intent: StartIntent & { guided?: boolean | undefined },
  negotiation: NegotiationFlow | null,
): Promise<ActionResult> {
  const pool = await requireReserve(ctx.tx, table.id);
  const adventure = adventureOf(pool);
  if (adventure.ended) refuse("errors.bh.adventureOver");
  const talks = negotiation?.state ?? null;
  if (talks && intent.sphere && intent.sphere !== talks.sphere)
    refuse("errors.bh.negotiationSphereMismatch", { sphere: talks.sphere });
  if (negotiation && intent.phase !== undefined) requireNegotiationPhase(negotiation, intent.phase);
  const sphere = (intent.sphere ?? talks?.sphere) as Sphere | undefined;
  const phase = (intent.phase ?? talks?.phase) as Phase | undefined;
  if (!sphere || !phase) refuse("errors.bh.negotiationNeedsSphere");
  // The GM chooses which hunters take part (a split party); by default all still playing — or
  // those of the negotiation this challenge ends.
  const characters = await negotiatingHunters(
    ctx.tx,
    table.id,
    adventure,
    intent.hunters ?? talks?.hunters.map((h) => h.name).join(", "),
  );
  const hunters = characters.map((c) => ({
    characterId: String(c.id),
    name: c.name,
    sheet: hunterSheet(c),
  }));
  const rawName = intent.name ?? talks?.name ?? undefined;
  const name = rawName ? cleanName(rawName) : t(ctx.publicLang, "bh.obstacle.defaultName");

  const parts = obstacleFields(intent, sphere, hunters);
  const parsed: Partial<{ [K in FormField]: ReturnType<(typeof parts)[K]> }> = {};
  const problems: { field: FormField; error: DomainError }[] = [];
  for (const field of FORM_FIELDS) {
    try {
      // biome-ignore lint/suspicious/noExplicitAny: each field's own parser
      (parsed as any)[field] = parts[field]();
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      problems.push({ field, error });
    }
  }
  if (problems.length > 0) {
    if (!intent.guided) throw problems[0]!.error;
    throw new FormErrors(problems);
  }
  const obstacle: ObstacleInput = {
    id: "obstacle",
    name,
    traits: parsed.traits!,
    resources: parsed.resources!,
    initiative: parsed.initiative!,
    boxes: parsed.boxes ?? null,
    neutralise: parsed.neutralize!,
  };
  const preActivations: PreActivation[] = [
    // Made in the negotiation: already counted on the sheets.
    ...(talks?.pre ?? [])
      .filter((p) => p.by === GM_SIDE || hunters.some((h) => h.characterId === p.by))
      .map((p) => ({
        participant: p.by === GM_SIDE ? "obstacle" : p.by,
        trait: p.trait,
        as: p.as,
        recorded: p.by !== GM_SIDE,
      })),
    ...splitList(intent.preActivate).map((text) => {
      const { trait, as } = traitWithRole(text);
      const owners = hunters.filter((h) => h.sheet.traits.some((tr) => nameKey(tr.name) === nameKey(trait)));
      if (owners.length === 0) refuse("errors.bh.noSuchHunterTrait", { trait: trait.slice(0, 64) });
      if (owners.length > 1) refuse("errors.bh.ambiguousTrait", { trait: trait.slice(0, 64) });
      return { participant: owners[0]!.characterId, trait, as };
    }),
  ];
  if (intent.gmPreActivate)
    preActivations.push({ participant: "obstacle", ...traitWithRole(intent.gmPreActivate) });

  const climax = intent.climax ?? talks?.climax ?? false;
  const started = startChallenge({
    name,
    sphere,
    phase,
    obstacles: [obstacle],
    hunters,
    reserve: asReserve(pool),
    climax,
    // [decision] the climax is the adventure's last challenge (or a hunt's beast fight): knockout has no effect.
    knockoutHasNoEffect: climax,
    preActivations,
    tieGoesTo: intent.first ?? "hunters",
  });
  await recordReserve(ctx, table, pool, started.reserve.reserve, {
    action: "challenge.start",
    key: "bh.log.challengeStart",
    params: { name, rating: started.rating, cost: started.cost, phase },
  });
  for (const hunter of hunters) {
    const pre = preActivations
      .filter((p) => p.participant === hunter.characterId && !p.recorded)
      .map((p) => p.trait);
    if (pre.length > 0)
      await saveHunterSheet(ctx.tx, Number(hunter.characterId), markPreActivated(hunter.sheet, pre));
  }
  const price = started.prices[0]!.price;
  const state: ChallengeFlowState = {
    challenge: started.state,
    price: { lines: price.lines, ceiling: pool.ceiling, obstacles: [{ name, from: 0 }] },
  };
  const flow = await createFlow(ctx.tx, challengeFlow, {
    tableId: table.id,
    state,
    createdByUserId: ctx.actor.userId,
  });
  for (const entry of eventLogEntries(started.state, started.events)) await appendLog(ctx, table.id, entry);
  const effects: Effect[] = negotiation
    ? [await closeNegotiation(ctx, table, negotiation, "dice", flow.id)]
    : [];
  const panel = challengePanel(ctx.publicLang, flow.id, state);
  const intro = [
    t(ctx.publicLang, "bh.start.priced", { name, rating: started.rating, ceiling: pool.ceiling }),
    priceText(ctx.publicLang, price.lines),
    ...eventLines(ctx.publicLang, started.state, started.events),
    // Buying this obstacle emptied the reserve: the adventure ends with this challenge.
    ...(started.reserve.after === 0 ? [t(ctx.publicLang, "bh.start.lastChallenge")] : []),
  ].join("\n");
  const ping = await turnPing(ctx, table, started.state, started.events);
  return {
    reply: {
      ...panel,
      ...(ping ?? {}),
      embeds: [{ description: intro, tone: "info" }, ...(panel.embeds ?? [])],
    },
    replyIsPanelOf: flow.id,
    effects,
  };
}

async function requireNegotiation(
  ctx: ActionContext,
  table: GameTable,
  id: number,
): Promise<NegotiationFlow> {
  return requireFlow(ctx.tx, negotiationFlow, table.id, id);
}

/** The negotiation panel's "to dice" button (and the form's "fix" button): the guided challenge form. */
export const negotiationForm = defineUseCase({
  schema: bhIntents["negotiation.form"],
  systems: SYSTEMS,
  table: "required",
  access: "gm",
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    const table = ctx.table;
    await refuseIfChallengeOpen(ctx, table);
    const negotiation = await requireNegotiation(ctx, table, ctx.intent.flowId);
    return { modal: challengeForm(ctx.userLang, negotiation) };
  },
});

// ---------------------------------------------------------------------------------------
// Actions

/** The intents a use case turns into one rules action for the acting participant (`action`). */
type ActionIntentType =
  | "challenge.activate"
  | "challenge.reassign"
  | "challenge.menu"
  | "challenge.maneuver"
  | "challenge.accept"
  | "challenge.strike"
  | "challenge.neutralize"
  | "challenge.restore"
  | "challenge.giveup"
  | "challenge.help"
  | "challenge.switch"
  | "challenge.pass"
  | "challenge.fate"
  | "challenge.skip";
/** An action's intent as its use case reads it (every one names its challenge; most, a hunter). */
type ActionIntent<T extends ActionIntentType> = z.output<(typeof bhIntents)[T]> &
  Intent & { flowId?: number; character?: string };

/** A use case that turns its intent into one rules action for the acting participant. */
function action<T extends ActionIntentType>(
  type: T,
  build: (args: {
    ctx: ActionContext;
    table: GameTable;
    state: ChallengeState;
    intent: ActionIntent<T>;
    actor: () => Promise<string>;
  }) => Promise<ChallengeAction> | ChallengeAction,
) {
  return defineUseCase<ActionIntent<T>, "required">({
    schema: bhIntents[type] as unknown as z.ZodType<ActionIntent<T>>,
    systems: SYSTEMS,
    table: "required",
    mutates: true,
    ephemeral: false,
    async run(ctx) {
      const table = ctx.table;
      const intent = ctx.intent;
      const flow = await loadFlow(ctx, table, intent.flowId);
      const state = flow.state.challenge;
      const built = await build({
        ctx,
        table,
        state,
        intent,
        actor: () => actingParticipant(ctx, table, state, intent.character),
      });
      return play(ctx, table, flow, built);
    },
  });
}

const activateInChallenge = action("challenge.activate", async ({ intent, actor }) => ({
  type: "activate",
  actor: await actor(),
  trait: intent.trait,
  as: intent.as,
}));

/**
 * `/challenge activate`: in a challenge, the Activate action; during a negotiation (no challenge
 * yet), a pre-activation — the hunter's own trait, or the GM's side's in phase 3 (the GM names a
 * hunter with `character` to act for an absent player).
 */
export const challengeActivate = defineUseCase({
  schema: bhIntents["challenge.activate"],
  systems: SYSTEMS,
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = ctx.table;
    const intent = ctx.intent;
    const challenge = await findOpenFlow(ctx.tx, challengeFlow, table.id);
    const negotiation =
      intent.flowId === undefined && !challenge ? await findNegotiation(ctx, table.id) : null;
    if (!negotiation) return activateInChallenge.run(ctx);
    const gm = isGm(table, ctx.actor);
    if (gm && !intent.character)
      return preActivateInNegotiation(ctx, table, negotiation, {
        by: GM_SIDE,
        trait: intent.trait,
        as: intent.as,
      });
    const character = await actingCharacter(ctx, intent.character, { gmMayActForPlayers: gm });
    if (!negotiation.state.hunters.some((h) => h.id === String(character.id)))
      refuse("errors.bh.notInNegotiation", { name: character.name });
    const actedFor = gm && character.ownerUserId !== ctx.actor.userId;
    return preActivateInNegotiation(
      ctx,
      table,
      negotiation,
      { by: String(character.id), trait: intent.trait, as: intent.as },
      actedFor ? { actedForBy: character.name } : {},
    );
  },
});

/**
 * Reassign any active traits in one action: `trait` names one or several (comma-separated), each
 * set to `as`, or marked `Name:A` / `Name:D` to swap several ways at once.
 */
export const challengeReassign = action("challenge.reassign", async ({ intent, actor }) => {
  const roles: Record<string, TraitRole> = {};
  for (const text of splitList(intent.trait)) {
    const marked = /:\s*\S+$/.test(text) ? traitWithRole(text) : { trait: text, as: intent.as as TraitRole };
    roles[marked.trait] = marked.as;
  }
  return { type: "reassign", actor: await actor(), roles };
});

/**
 * The panel's action menu (a select, and buttons that carry a pick): `attack:<trait>`,
 * `defence:<trait>`, `flip:<trait>` (activate or reassign), `n:<owner id>:<resource>`
 * (neutralise), `r:<resource>` (restore), `m:<target id>` (maneuver), `x:<target id>:<dice>`
 * (strike); from the team actions: `h:<hunter id>:<trait>` (help), `s:<from id>:<to id>`
 * (switch target), `p:<to id>:<target id>[:<switch-to id>]` (pass advantage). Ids, not names,
 * keep custom_ids short; a pick that no longer fits the state is refused by the rules.
 */
export const challengeMenu = action(
  "challenge.menu",
  async ({ intent, actor, state }): Promise<ChallengeAction> => {
    if (Array.isArray(intent.pick)) return flipAll(state, await actor(), intent.pick as string[]);
    const pick = intent.pick as string;
    const at = pick.indexOf(":");
    const kind = pick.slice(0, at);
    const rest = pick.slice(at + 1);
    // Participant ids never contain ":"; trait and resource names may.
    const [first = "", second = ""] = rest.split(":");
    const afterFirst = rest.slice(first.length + 1);
    const id = await actor();
    switch (kind) {
      case "attack":
      case "defence":
        return { type: "activate", actor: id, trait: rest, as: kind };
      case "flip": {
        const current = state.participants
          .find((p) => p.id === id)
          ?.traits.find((tr) => tr.name === rest)?.active;
        return {
          type: "reassign",
          actor: id,
          roles: { [rest]: current === "attack" ? "defence" : "attack" },
        };
      }
      case "r":
        return { type: "restore", actor: id, resource: rest };
      case "n":
        if (!rest.includes(":")) refuse("errors.staleAction");
        return { type: "neutralise", actor: id, target: first, resource: afterFirst };
      case "m":
        return { type: "maneuver", actor: id, target: known(state, rest) };
      case "x":
        return { type: "strike", actor: id, target: known(state, first), dice: diceOf(second) };
      case "h":
        if (!rest.includes(":")) refuse("errors.staleAction");
        return { type: "help", actor: id, helped: known(state, first), trait: afterFirst };
      case "s":
        return {
          type: "switchTarget",
          actor: id,
          from: known(state, first),
          to: known(state, second),
          points: null,
        };
      case "p": {
        const switchTo = rest.split(":")[2];
        return {
          type: "passAdvantage",
          actor: id,
          to: known(state, first),
          target: known(state, second),
          points: null,
          switchTo: switchTo === undefined ? null : known(state, switchTo),
        };
      }
      default:
        refuse("errors.staleAction");
    }
  },
);

/** Several `flip:<trait>` picks: one Reassign action flipping each (anything else picked with them is refused). */
function flipAll(state: ChallengeState, id: string, picks: string[]): ChallengeAction {
  if (!picks.every((p) => p.startsWith("flip:"))) refuse("errors.bh.oneActionAtATime");
  const me = state.participants.find((p) => p.id === id);
  const roles: Record<string, TraitRole> = {};
  for (const pick of picks) {
    const name = pick.slice("flip:".length);
    const current = me?.traits.find((tr) => tr.name === name)?.active;
    roles[name] = current === "attack" ? "defence" : "attack";
  }
  return { type: "reassign", actor: id, roles };
}

/** A participant id from a pick: one this challenge has, or the pick is stale (or forged). */
function known(state: ChallengeState, id: string): string {
  if (!state.participants.some((p) => p.id === id)) refuse("errors.staleAction");
  return id;
}

function diceOf(text: string): number {
  const dice = Number(text);
  if (!Number.isInteger(dice) || dice < 1 || dice > 25) refuse("errors.staleAction");
  return dice;
}

/**
 * The panel's team actions button (several hunters only): a private menu of help, switch target
 * and pass advantage for the one who clicks, if it is their turn.
 */
export const challengeTeam = defineUseCase({
  schema: bhIntents["challenge.team"],
  systems: SYSTEMS,
  table: "required",
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    const table = ctx.table;
    const flow = await loadFlow(ctx, table, ctx.intent.flowId);
    const state = flow.state.challenge;
    requirePlaying(state);
    if (!severalHunters(state)) refuse("errors.bh.multiHunterOnly");
    const actor = await actingParticipant(ctx, table, state, undefined);
    if (state.pendingBonus)
      refuse("errors.bh.bonusPending", { name: nameIn(state, state.pendingBonus.actor) });
    if (state.turn !== actor) refuse("errors.bh.notYourTurn", { name: nameIn(state, state.turn) });
    return { reply: teamActionsView(ctx.userLang, flow.id, state, actor) };
  },
});

/** The panel's "new task" button: a form with the same fields as `/challenge task`. */
export const challengeTaskForm = defineUseCase({
  schema: bhIntents["challenge.taskform"],
  systems: SYSTEMS,
  table: "required",
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    const table = ctx.table;
    const flow = await loadFlow(ctx, table, ctx.intent.flowId);
    const state = flow.state.challenge;
    requirePlaying(state);
    // Whoever may set up a task (the GM or a hunter in the challenge) gets the form; others are told why.
    await actingParticipant(ctx, table, state, undefined);
    const hunters = state.participants.filter((p) => p.side === "hunters").length;
    return {
      modal: {
        title: t(ctx.userLang, "bh.task.modalTitle"),
        intent: { type: "challenge.task", flowId: flow.id },
        inputs: [
          { field: "name", label: t(ctx.userLang, "bh.task.nameLabel"), style: "short", maxLength: 64 },
          {
            field: "difficulty",
            label: t(ctx.userLang, "bh.task.difficultyLabel"),
            style: "short",
            required: false,
            maxLength: 2,
            placeholder: t(ctx.userLang, "bh.task.difficultyPlaceholder", {
              hunters,
              max: maxDifficulty(state),
            }),
          },
        ],
      },
    };
  },
});

function requirePlaying(state: ChallengeState): void {
  if (state.status === "fatalChoice")
    refuse("errors.bh.fatalChoicePending", { name: nameIn(state, state.pendingFatal!) });
  if (state.status !== "active") refuse("errors.bh.challengeOver");
}

/** docs/rules/beast-hunters.md §2.5: base 1, the GM adds 0..(number of hunters), each hunter may add 1. */
function maxDifficulty(state: ChallengeState): number {
  return 1 + 2 * state.participants.filter((p) => p.side === "hunters").length;
}

function sideOf(state: ChallengeState, id: string) {
  return state.participants.find((p) => p.id === id)!.side;
}

/**
 * The panel's task menu: `g:<task>` accepts its difficulty for the clicker's side, `a:<task>`
 * buys one die (4 AP), `r:<task>` says the clicker's side is ready to roll it.
 */
export const challengeTaskMenu = defineUseCase({
  schema: bhIntents["challenge.taskmenu"],
  systems: SYSTEMS,
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = ctx.table;
    const flow = await loadFlow(ctx, table, ctx.intent.flowId);
    const state = flow.state.challenge;
    const actor = await actingParticipant(ctx, table, state, undefined);
    const side = sideOf(state, actor);
    const task = ctx.intent.pick.slice(2);
    if (ctx.intent.pick.startsWith("r:")) return play(ctx, table, flow, { type: "resolveTask", task, side });
    if (ctx.intent.pick.startsWith("g:")) return play(ctx, table, flow, { type: "agreeTask", task, side });
    if (!ctx.intent.pick.startsWith("a:")) refuse("errors.staleAction");
    return play(ctx, table, flow, { type: "achieve", actor, task, dice: 1, target: null });
  },
});

export const challengeManeuver = action("challenge.maneuver", async ({ intent, actor, state }) => ({
  type: "maneuver",
  actor: await actor(),
  target: participantId(state, intent.target),
}));

export const challengeOffer = defineUseCase({
  schema: bhIntents["challenge.offer"],
  systems: SYSTEMS,
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = ctx.table;
    const flow = await loadFlow(ctx, table, ctx.intent.flowId);
    const state = flow.state.challenge;
    const { points, neutralize, restore } = ctx.intent;
    let built: ChallengeAction;
    if (restore) built = { type: "offerRestore", resource: restore };
    else if (neutralize) {
      const target =
        participantId(state, ctx.intent.target) ??
        ownerOf(state, neutralize, (p) => p.side === "gm") ??
        refuse("errors.bh.noSuchResource", { resource: neutralize.slice(0, 64) });
      built = { type: "offerNeutralise", target, resource: neutralize, margin: points };
    } else built = { type: "offerAdvantage", points, target: participantId(state, ctx.intent.target) };
    return play(ctx, table, flow, built);
  },
});

function ownerOf(
  state: ChallengeState,
  resource: string,
  side: (p: ChallengeState["participants"][number]) => boolean,
) {
  const owners = state.participants.filter(
    (p) => side(p) && p.resources.some((r) => nameKey(r.name) === nameKey(resource)),
  );
  if (owners.length > 1) refuse("errors.bh.chooseTarget");
  return owners[0]?.id ?? null;
}

export const challengeAccept = action("challenge.accept", async ({ actor }) => ({
  type: "accept",
  actor: await actor(),
}));

export const challengeStrike = action("challenge.strike", async ({ intent, actor, state }) => ({
  type: "strike",
  actor: await actor(),
  dice: intent.dice,
  target: participantId(state, intent.target),
}));

export const challengeNeutralize = action("challenge.neutralize", async ({ intent, actor, state }) => {
  const id = await actor();
  const me = state.participants.find((p) => p.id === id)!;
  const target =
    participantId(state, intent.target) ??
    ownerOf(state, intent.resource, (p) => p.side !== me.side) ??
    refuse("errors.bh.noSuchResource", { resource: String(intent.resource).slice(0, 64) });
  return { type: "neutralise", actor: id, target, resource: intent.resource };
});

export const challengeRestore = action("challenge.restore", async ({ intent, actor }) => ({
  type: "restore",
  actor: await actor(),
  resource: intent.resource,
}));

export const challengeTask = defineUseCase({
  schema: bhIntents["challenge.task"],
  systems: SYSTEMS,
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = ctx.table;
    const flow = await loadFlow(ctx, table, ctx.intent.flowId);
    const state = flow.state.challenge;
    const by = await actingParticipant(ctx, table, state, undefined);
    return play(ctx, table, flow, {
      type: "proposeTask",
      name: cleanName(ctx.intent.name),
      difficulty: difficultyOf(state, ctx.intent.difficulty),
      by,
    });
  },
});

function difficultyOf(state: ChallengeState, raw: number | string | undefined): number {
  if (typeof raw === "number") return raw;
  const text = (raw ?? "").trim();
  if (text === "") return 1;
  if (!/^\d{1,2}$/.test(text))
    refuse("errors.bh.badDifficulty", { difficulty: text.slice(0, 20), min: 1, max: maxDifficulty(state) });
  return Number(text);
}

export const challengeAchieve = defineUseCase({
  schema: bhIntents["challenge.achieve"],
  systems: SYSTEMS,
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = ctx.table;
    const flow = await loadFlow(ctx, table, ctx.intent.flowId);
    const state = flow.state.challenge;
    const actor = await actingParticipant(ctx, table, state, ctx.intent.character);
    if (state.status !== "aftermath") {
      return play(ctx, table, flow, {
        type: "achieve",
        actor,
        task: ctx.intent.task,
        dice: ctx.intent.dice,
        target: participantId(state, ctx.intent.target),
      });
    }
    // After a won challenge: 6 AP a die, from the actor first, then (pool) from the other hunters.
    if (state.outcome?.winner !== "hunters") refuse("errors.bh.extraDiceOnlyAfterWin");
    const need = ctx.intent.dice * 6;
    const total = (id: string) => Object.values(state.advantage[id] ?? {}).reduce((s, ap) => s + ap, 0);
    const contributions: { hunter: string; points: number }[] = [];
    let owed = need;
    const givers = [
      actor,
      ...(ctx.intent.pool
        ? state.participants.filter((p) => p.side === "hunters" && p.id !== actor).map((p) => p.id)
        : []),
    ];
    for (const hunter of givers) {
      const points = Math.min(total(hunter), owed);
      if (points > 0) contributions.push({ hunter, points });
      owed -= points;
    }
    if (owed > 0) refuse("errors.bh.notEnoughAdvantage", { need, have: need - owed });
    return play(ctx, table, flow, {
      type: "buyTaskDice",
      task: ctx.intent.task,
      dice: ctx.intent.dice,
      contributions,
    });
  },
});

export const challengeResolve = defineUseCase({
  schema: bhIntents["challenge.resolve"],
  systems: SYSTEMS,
  table: "required",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = ctx.table;
    const flow = await loadFlow(ctx, table, ctx.intent.flowId);
    // Each side says it is ready; the task is rolled when both have.
    const actor = await actingParticipant(ctx, table, flow.state.challenge, undefined);
    return play(ctx, table, flow, {
      type: "resolveTask",
      task: ctx.intent.task,
      side: sideOf(flow.state.challenge, actor),
    });
  },
});

export const challengeGiveUp = action("challenge.giveup", async ({ actor }) => ({
  type: "giveUp",
  actor: await actor(),
}));

export const challengeHelp = action("challenge.help", async ({ intent, actor, state }) => ({
  type: "help",
  actor: await actor(),
  helped: participantId(state, intent.hunter)!,
  trait: intent.trait,
}));

export const challengeSwitch = action("challenge.switch", async ({ intent, actor, state }) => ({
  type: "switchTarget",
  actor: await actor(),
  from: participantId(state, intent.from)!,
  to: participantId(state, intent.to)!,
  points: intent.points ?? null,
}));

export const challengePass = action("challenge.pass", async ({ intent, actor, state }) => {
  const id = await actor();
  const me = state.participants.find((p) => p.id === id)!;
  const opponents = state.participants.filter((p) => p.side !== me.side);
  const target =
    participantId(state, intent.target) ??
    (opponents.length === 1 ? opponents[0]!.id : refuse("errors.bh.chooseTarget"));
  return {
    type: "passAdvantage",
    actor: id,
    to: participantId(state, intent.to)!,
    target,
    points: intent.points ?? null,
    switchTo: participantId(state, intent.switchTo),
  };
});

export const challengeFate = action("challenge.fate", async ({ intent, actor }) => ({
  type: "chooseFate",
  actor: await actor(),
  choice: intent.choice,
}));

/** `/challenge skip`: let a free action go; with none pending, pass the turn (the GM: an absent player's, by `character`). */
export const challengeSkip = action("challenge.skip", async ({ actor, state }): Promise<ChallengeAction> => {
  const id = await actor();
  return state.pendingBonus?.actor === id
    ? { type: "declineBonus", actor: id }
    : { type: "passTurn", actor: id };
});

export const challengeEnd = defineUseCase({
  schema: bhIntents["challenge.end"],
  systems: SYSTEMS,
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = ctx.table;
    const flow = await loadFlow(ctx, table, ctx.intent.flowId);
    const state = flow.state.challenge;
    if (state.status === "active" || state.status === "fatalChoice") {
      if (!ctx.intent.concede) refuse("errors.bh.challengeStillActive");
      return play(ctx, table, flow, { type: "concede" });
    }
    return play(ctx, table, flow, { type: "close" });
  },
});

/**
 * `/challenge obstacle`: the GM buys another obstacle for the challenge before anything is
 * played (docs/rules/beast-hunters.md §2.4: ratings add up within the ceiling, the GM pays the
 * difference). From the panel's form (`guided`), every bad field is reported at once.
 */
export const challengeObstacle = defineUseCase({
  schema: bhIntents["challenge.obstacle"],
  systems: SYSTEMS,
  table: "required",
  access: "gm",
  mutates: true,
  ephemeral: false,
  async run(ctx) {
    const table = ctx.table;
    const flow = await loadFlow(ctx, table, ctx.intent.flowId);
    const before = flow.state.challenge;
    const intent = ctx.intent;
    const parts = obstacleFields(intent, before.sphere, []);
    const problems: { field: FormField; error: DomainError }[] = [];
    const parsed: Record<string, unknown> = {};
    for (const field of ["traits", "resources", "initiative", "boxes"] as const) {
      try {
        parsed[field] = parts[field]();
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        problems.push({ field, error });
      }
    }
    if (problems.length > 0) {
      if (!intent.guided) throw problems[0]!.error;
      return { reply: formProblems(ctx.userLang, problems, null) };
    }
    const pool = await requireReserve(ctx.tx, table.id);
    const name = cleanName(intent.name);
    const added = addObstacle(
      before,
      {
        name,
        traits: parsed.traits as ObstacleInput["traits"],
        resources: parsed.resources as ObstacleInput["resources"],
        initiative: parsed.initiative as number,
        boxes: (parsed.boxes as ObstacleInput["boxes"]) ?? null,
      },
      asReserve(pool),
    );
    await recordReserve(ctx, table, pool, added.reserve.reserve, {
      action: "challenge.start",
      key: "bh.log.obstacleAdded",
      params: { name, rating: added.state.rating, cost: added.extraCost },
    });
    const next: ChallengeFlowState = {
      challenge: added.state,
      price: {
        ...flow.state.price,
        lines: [...flow.state.price.lines, ...added.price.lines],
        obstacles: [...flow.state.price.obstacles, { name, from: flow.state.price.lines.length }],
      },
    };
    await saveFlowState(ctx.tx, challengeFlow, flow.id, next);
    for (const entry of eventLogEntries(added.state, added.events)) await appendLog(ctx, table.id, entry);
    return answer(
      ctx,
      flow.id,
      next,
      [
        priceText(ctx.publicLang, added.price.lines),
        ...eventLines(ctx.publicLang, added.state, added.events),
        // Buying this obstacle emptied the reserve: the adventure ends with this challenge.
        ...(added.reserve.after === 0 ? [t(ctx.publicLang, "bh.start.lastChallenge")] : []),
      ],
      flow,
      await turnPing(ctx, table, added.state, added.events),
    );
  },
});

/** The panel's "add obstacle" button (the GM, before anything is played): the obstacle form. */
export const challengeObstacleForm = defineUseCase({
  schema: bhIntents["challenge.obstacleform"],
  systems: SYSTEMS,
  table: "required",
  access: "gm",
  mutates: false,
  ephemeral: true,
  async run(ctx) {
    const table = ctx.table;
    const flow = await loadFlow(ctx, table, ctx.intent.flowId);
    if (!nothingPlayedYet(flow.state.challenge)) refuse("errors.bh.obstacleAfterPlay");
    const lang = ctx.userLang;
    const input = (field: "traits" | "resources" | "initiative" | "boxes") => ({
      field,
      label: t(lang, `bh.form.${field}`),
      style: "short" as const,
      required: false,
      maxLength: field === "boxes" ? 30 : field === "initiative" ? 2 : 300,
      placeholder: t(lang, `bh.form.${field}Placeholder`),
    });
    return {
      modal: {
        title: t(lang, "bh.form.obstacleTitle"),
        intent: { type: "challenge.obstacle", flowId: flow.id, guided: true },
        inputs: [
          { field: "name", label: t(lang, "bh.form.name"), style: "short", maxLength: 64 },
          input("traits"),
          input("resources"),
          input("initiative"),
          input("boxes"),
        ],
      },
    };
  },
});

export const challengeShow = defineUseCase({
  schema: bhIntents["challenge.show"],
  systems: SYSTEMS,
  table: "required",
  mutates: false,
  ephemeral: false,
  async run(ctx) {
    const table = ctx.table;
    const flow =
      ctx.intent.flowId !== undefined
        ? await requireFlow(ctx.tx, challengeFlow, table.id, ctx.intent.flowId, {
            open: false,
          })
        : await loadFlow(ctx, table, undefined);
    const panel = challengePanel(ctx.publicLang, flow.id, flow.state);
    if (isFromPanel(ctx, flow)) return { replyMode: "update", reply: panel };
    // A fresh panel further down the channel: later actions edit this one. The old message says
    // where the live panel went and keeps no live buttons.
    const moved =
      flow.status === "open" && flow.panelMessageId ? [panelEdit(flow, movedPanel(ctx, panel))] : [];
    return { reply: panel, replyIsPanelOf: flow.id, effects: moved };
  },
});
