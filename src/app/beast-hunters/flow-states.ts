/**
 * The flows Beast Hunters stores (docs/ARCHITECTURE.md, "Changing a flow's shape"): each kind's
 * state as a zod schema, checked on every load, with the upgrades from older shapes.
 */
import { z } from "zod";
import {
  asNegotiation,
  type ChallengeState,
  type NegotiationState,
  type PriceLine,
} from "../../rules/beast-hunters/index.js";
import { defineFlowKind } from "../flows.js";

const sphere = z.enum(["physical", "social", "mental"]);
const phase = z.union([z.literal(1), z.literal(2), z.literal(3)]);
const role = z.enum(["attack", "defence"]);
const side = z.enum(["hunters", "gm"]);
const stage = z.enum(["light", "medium", "heavy", "knockout", "fatal"]);
const stageCounts = z.object({
  light: z.number().int(),
  medium: z.number().int(),
  heavy: z.number().int(),
  knockout: z.number().int(),
  fatal: z.number().int(),
});
const perSide = z.object({ hunters: z.boolean(), gm: z.boolean() });
/** Points or VP per participant id. */
const byId = z.record(z.string(), z.number());

const participant = z.object({
  id: z.string(),
  name: z.string(),
  side,
  initiative: z.number(),
  traits: z.array(
    z.object({
      name: z.string(),
      sphere,
      value: z.number(),
      effective: z.number(),
      active: role.nullable(),
    }),
  ),
  resources: z.array(
    z.object({
      name: z.string(),
      kind: role,
      value: z.number(),
      neutralised: z.object({ margin: z.number(), by: z.string().nullable() }).nullable(),
    }),
  ),
  boxes: stageCounts,
  damage: stageCounts,
  status: z.enum(["in", "knockedOut", "fatal", "gaveUp", "beaten", "retired"]),
  help: z.array(z.object({ helper: z.string(), trait: z.string(), value: z.number() })),
});

const pendingOffer = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("advantage"), hunter: z.string(), target: z.string(), points: z.number() }),
  z.object({
    kind: z.literal("neutralise"),
    hunter: z.string(),
    target: z.string(),
    resource: z.string(),
    margin: z.number(),
  }),
  z.object({ kind: z.literal("restore"), hunter: z.string(), resource: z.string() }),
]);

const task = z.object({
  name: z.string(),
  proposedBy: z.string().nullable(),
  difficulty: z.number().int(),
  gmDice: z.number().int(),
  hunterDice: z.number().int(),
  buyers: z.array(z.string()),
  // Both are there since state version 2 (the upgrade fills them in).
  agreed: perSide,
  ready: perSide,
  result: z
    .object({
      gmDice: z.array(z.number().int()),
      hunterDice: z.array(z.number().int()),
      gmTotal: z.number(),
      hunterTotal: z.number(),
      winner: side,
      vp: byId,
    })
    .nullable(),
});

const challengeState: z.ZodType<ChallengeState> = z.object({
  version: z.literal(1),
  name: z.string().nullable(),
  sphere,
  phase,
  rating: z.number(),
  cost: z.number(),
  climax: z.boolean(),
  knockoutHasNoEffect: z.boolean(),
  participants: z.array(participant),
  advantage: z.record(z.string(), byId),
  turn: z.string(),
  lastActed: z.object({ hunters: z.string().nullable(), gm: z.string().nullable() }),
  round: z.object({ number: z.number().int(), acted: z.array(z.string()) }).optional(),
  status: z.enum(["active", "fatalChoice", "aftermath", "closed"]),
  pendingOffer: pendingOffer.nullable(),
  pendingBonus: z.object({ actor: z.string(), target: z.string(), gained: z.number() }).nullable(),
  pendingFatal: z.string().nullable(),
  tasks: z.array(task),
  outcome: z
    .object({
      winner: side,
      reason: z.enum(["beaten", "knockout", "fatal", "giveUp", "gmConceded", "sacrifice"]),
      refund: z.number(),
      vp: byId,
      striker: z.string().nullable().optional(),
      remainder: z.object({ to: z.string(), points: z.number() }).optional(),
      lostAdventure: z.array(z.string()),
      retired: z.array(z.string()),
    })
    .nullable(),
});

const priceLine: z.ZodType<PriceLine> = z.discriminatedUnion("item", [
  z.object({ item: z.literal("minimalBoxes"), price: z.number() }),
  z.object({ item: z.literal("trait"), name: z.string(), value: z.number(), price: z.number() }),
  z.object({
    item: z.literal("resource"),
    name: z.string(),
    kind: role,
    value: z.number(),
    price: z.number(),
  }),
  z.object({ item: z.literal("initiative"), value: z.number(), price: z.number() }),
  z.object({ item: z.literal("extraBoxes"), stage, count: z.number().int(), price: z.number() }),
  z.object({
    item: z.literal("neutralise"),
    hunter: z.string(),
    resource: z.string(),
    value: z.number(),
    price: z.number(),
  }),
]);

/** What the `bh.challenge` flow stores: the rules state and how it was priced (to explain it back). */
export interface ChallengeFlowState {
  challenge: ChallengeState;
  /** `lines`: every obstacle's price lines; `obstacles`: where each obstacle's lines start, to name them on the panel. */
  price: { lines: PriceLine[]; ceiling: number; obstacles: { name: string; from: number }[] };
}

/** A `bh.challenge` state of version 1, as an older bot may have left it. */
interface ChallengeFlowStateV1 {
  challenge: Omit<ChallengeState, "tasks"> & {
    tasks: (Omit<ChallengeState["tasks"][number], "agreed" | "ready"> & {
      agreed?: { hunters: boolean; gm: boolean };
      ready?: { hunters: boolean; gm: boolean };
    })[];
  };
  price: { lines: PriceLine[]; ceiling: number; obstacles?: { name: string; from: number }[] };
}

/**
 * Version 2 writes down what version 1 left implicit: a challenge saved before several obstacles
 * were named had its one obstacle's lines as all the lines; a task saved before agreement was kept
 * was agreed by both sides, and one saved before readiness was kept was ready for neither.
 */
function challengeV1toV2(old: ChallengeFlowStateV1): ChallengeFlowState {
  const first = old.challenge.participants.find((p) => p.side === "gm");
  return {
    challenge: {
      ...old.challenge,
      tasks: old.challenge.tasks.map((t) => ({
        ...t,
        agreed: t.agreed ?? { hunters: true, gm: true },
        ready: t.ready ?? { hunters: false, gm: false },
      })),
    },
    price: { ...old.price, obstacles: old.price.obstacles ?? [{ name: first?.name ?? "—", from: 0 }] },
  };
}

export const challengeFlow = defineFlowKind<ChallengeFlowState>({
  kind: "bh.challenge",
  version: 2,
  schema: z.object({
    challenge: challengeState,
    price: z.object({
      lines: z.array(priceLine),
      ceiling: z.number(),
      obstacles: z.array(z.object({ name: z.string(), from: z.number().int() })),
    }),
  }) as z.ZodType<ChallengeFlowState>,
  upgrades: { 1: challengeV1toV2 },
});

const negotiationHunter = z.object({
  id: z.string(),
  name: z.string(),
  traits: z.array(z.object({ name: z.string(), sphere, value: z.number() })),
});

const negotiationState: z.ZodType<NegotiationState> = z.object({
  version: z.literal(1),
  name: z.string().nullable(),
  sphere,
  phase,
  climax: z.boolean(),
  hunters: z.array(negotiationHunter),
  pre: z.array(z.object({ by: z.string(), trait: z.string(), as: role, phase })),
  ended: z
    .object({
      how: z.enum(["concession", "dice", "abandoned", "givenUp", "dropped"]),
      phase,
      challengeFlowId: z.number().int().nullable(),
    })
    .nullable(),
  draft: z.record(z.string(), z.string()),
  gaveUp: z.array(negotiationHunter).optional(),
});

/**
 * Version 2: `pre`, `draft` and `ended` are always there (version 1 left them out in a
 * negotiation saved before they existed; the rules' `asNegotiation` gives their defaults).
 */
export const negotiationFlow = defineFlowKind<NegotiationState>({
  kind: "bh.negotiation",
  version: 2,
  schema: negotiationState,
  upgrades: { 1: asNegotiation },
});
