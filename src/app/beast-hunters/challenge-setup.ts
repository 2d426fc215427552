/**
 * A challenge's setup (docs/rules/beast-hunters.md §2.4): the GM buys its obstacle, by the command or
 * the guided form a negotiation opens, and adds more obstacles before anything is played.
 */
import type { GameTable } from "../../generated/prisma/client.js";
import { type Lang, t } from "../../i18n/index.js";
import {
  addObstacle,
  GM_SIDE,
  markPreActivated,
  nothingPlayedYet,
  type ObstacleInput,
  type Phase,
  type PreActivation,
  parseBoxes,
  parseResources,
  parseTraits,
  type Sphere,
  startChallenge,
} from "../../rules/beast-hunters/index.js";
import { DomainError, refuse } from "../../rules/errors.js";
import { requireFlow, saveFlowState, startFlow } from "../flows.js";
import type { KnownIntent } from "../intents.js";
import { appendLog } from "../log.js";
import { cleanName, nameKey } from "../names.js";
import type { ActionContext, ActionResult, Effect } from "../use-case.js";
import type { MessageView, ModalView } from "../views.js";
import { adventureOf, endIfNobodyPlaying } from "./adventure.js";
import { answer, onChallenge, splitList, turnPing } from "./challenge.js";
import { eventLines, eventLogEntries } from "./challenge-events-view.js";
import { challengePanel, priceText } from "./challenge-view.js";
import { type ChallengeFlowState, challengeFlow, negotiationFlow } from "./flow-states.js";
import {
  closeNegotiation,
  findNegotiation,
  type NegotiationFlow,
  openNegotiation,
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
import { defineBhUseCase } from "./use-cases.js";

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

export const challengeStart = defineBhUseCase(
  "challenge.start",
  { access: "gm", mutates: true, ephemeral: false },
  async (ctx, table) => {
    const intent = ctx.intent;
    await refuseIfChallengeOpen(ctx, table);
    let negotiation =
      intent.negotiation !== undefined
        ? await requireNegotiation(ctx, table, intent.negotiation)
        : await findNegotiation(ctx, table.id);
    if (!negotiation) {
      const over = await endIfNobodyPlaying(ctx, table);
      if (over) return { reply: over };
    }
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
);

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
  const flow = await startFlow(ctx, challengeFlow, table.id, state);
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
export const negotiationForm = defineBhUseCase(
  "negotiation.form",
  { access: "gm", mutates: false, ephemeral: true },
  async (ctx, table) => {
    await refuseIfChallengeOpen(ctx, table);
    const negotiation = await requireNegotiation(ctx, table, ctx.intent.flowId);
    return { modal: challengeForm(ctx.userLang, negotiation) };
  },
);

/**
 * `/challenge obstacle`: the GM buys another obstacle for the challenge before anything is
 * played (docs/rules/beast-hunters.md §2.4: ratings add up within the ceiling, the GM pays the
 * difference). From the panel's form (`guided`), every bad field is reported at once.
 */
export const challengeObstacle = onChallenge(
  "challenge.obstacle",
  { access: "gm", mutates: true, ephemeral: false },
  async ({ ctx, table, flow, state: before }) => {
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
);

/** The panel's "add obstacle" button (the GM, before anything is played): the obstacle form. */
export const challengeObstacleForm = onChallenge(
  "challenge.obstacleform",
  { access: "gm", mutates: false, ephemeral: true },
  async ({ ctx, flow }) => {
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
);
