/** The challenge's JSON state, its actions and events, and read-only queries over it (docs/rules/beast-hunters.md §2.5). */
import { refuse } from "../errors.js";
import type { Phase, ResourceKind, Sphere, Stage, StageCounts, TraitRole } from "./types.js";

export type Side = "hunters" | "gm";

/** At most three traits active for attack and three for defence. */
export const MAX_ACTIVE_PER_ROLE = 3;
/** The GM offers at least this many advantage points. */
export const MIN_OFFER = 2;
/** Gaining this many AP in one maneuver grants a free Strike or Achievement. */
export const BONUS_THRESHOLD = 12;

export interface ChallengeTrait {
  name: string;
  sphere: Sphere;
  value: number;
  /** Value in this challenge: off-sphere traits count half, rounded up. */
  effective: number;
  active: TraitRole | null;
}

export interface ChallengeResource {
  name: string;
  kind: ResourceKind;
  value: number;
  /** Neutralised: the margin a Restore must reach, and who did it (for advance purchases, the obstacle that paid). */
  neutralised: { margin: number; by: string | null } | null;
}

export type ParticipantStatus = "in" | "knockedOut" | "fatal" | "gaveUp" | "beaten" | "retired";

export interface HelpBonus {
  helper: string;
  trait: string;
  value: number;
}

export interface Participant {
  /** Hunters: their characterId; obstacles: an id given by the GM side (default `obstacle`). */
  id: string;
  name: string;
  side: Side;
  initiative: number;
  traits: ChallengeTrait[];
  /** Only resources of the challenge's sphere take part. */
  resources: ChallengeResource[];
  boxes: StageCounts;
  damage: StageCounts;
  status: ParticipantStatus;
  /** Help from other hunters waiting for this hunter's next rolled action. */
  help: HelpBonus[];
}

export type PendingOffer =
  | { kind: "advantage"; hunter: string; target: string; points: number }
  | { kind: "neutralise"; hunter: string; target: string; resource: string; margin: number }
  | { kind: "restore"; hunter: string; resource: string };

export interface TaskResult {
  gmDice: number[];
  hunterDice: number[];
  gmTotal: number;
  hunterTotal: number;
  winner: Side;
  /** VP per hunter (2 × difficulty split among the buyers) when the hunters win. */
  vp: Record<string, number>;
}

export interface Task {
  name: string;
  proposedBy: string | null;
  difficulty: number;
  gmDice: number;
  hunterDice: number;
  /** Hunters who bought dice for this task, in order of first purchase. */
  buyers: string[];
  /** Which sides accepted the difficulty (absent in challenges saved before agreement was kept: both). */
  agreed?: Record<Side, boolean>;
  /** Which sides are ready to roll; the task is rolled when both are. */
  ready?: Record<Side, boolean>;
  result: TaskResult | null;
}

/** Both sides accepted the task's difficulty: dice may be bought for it. */
export function taskAgreed(task: Task): boolean {
  return task.agreed === undefined || (task.agreed.gm && task.agreed.hunters);
}

export function taskReady(task: Task, side: Side): boolean {
  return task.ready?.[side] ?? false;
}

export type EndReason = "beaten" | "knockout" | "fatal" | "giveUp" | "gmConceded" | "sacrifice";

export interface ChallengeOutcome {
  winner: Side;
  reason: EndReason;
  /** Reserve points the GM gets back (the hunters gave up). */
  refund: number;
  /** Challenge VP per hunter: the rating (never multiplied), shared by the hunters still standing. */
  vp: Record<string, number>;
  /** The hunter whose strike defeated the last obstacle (the split's remainder is theirs if still standing: `remainder`). */
  striker?: string | null;
  /** Who got the remainder of the split and how many points (`challengeVpRemainder`); absent when it divided evenly. */
  remainder?: { to: string; points: number };
  /** Hunters who took fatal damage and survived: they lose the adventure. */
  lostAdventure: string[];
  /** Hunters who took fatal damage to win: they win the adventure and retire. */
  retired: string[];
}

export type ChallengeStatus = "active" | "fatalChoice" | "aftermath" | "closed";

export interface ChallengeState {
  version: 1;
  name: string | null;
  sphere: Sphere;
  phase: Phase;
  rating: number;
  /** Reserve the GM paid for this challenge. */
  cost: number;
  climax: boolean;
  knockoutHasNoEffect: boolean;
  /** In turn order. */
  participants: Participant[];
  /** Advantage points: actor id → target id → AP. */
  advantage: Record<string, Record<string, number>>;
  /** Whose action it is. */
  turn: string;
  lastActed: Record<Side, string | null>;
  /**
   * The round ([decision] docs/rules/beast-hunters.md §2.5): its number (from 1) and who has had
   * their turn in it. Absent in a challenge saved before rounds: round 1, nobody yet.
   */
  round?: { number: number; acted: string[] };
  status: ChallengeStatus;
  pendingOffer: PendingOffer | null;
  /** 12+ AP gained: this actor may Strike or Achieve once more before the turn ends. */
  pendingBonus: { actor: string; target: string; gained: number } | null;
  /** A hunter who took fatal damage and must choose. */
  pendingFatal: string | null;
  tasks: Task[];
  outcome: ChallengeOutcome | null;
}

export interface RollDetail {
  dice: number[];
  bonus: number;
  total: number;
}

export type ApReason = "maneuver" | "offer" | "strike" | "achieve" | "switch" | "pass" | "taskDice";

export type ChallengeEvent =
  | {
      type: "challengeStarted";
      rating: number;
      cost: number;
      reserveBefore: number;
      reserveAfter: number;
      order: string[];
      first: string;
    }
  | {
      type: "obstacleAdded";
      obstacle: string;
      rating: number;
      extraCost: number;
      reserveBefore: number;
      reserveAfter: number;
      order: string[];
      first: string;
    }
  | {
      type: "traitActivated";
      actor: string;
      trait: string;
      as: TraitRole;
      value: number;
      preActivated: boolean;
    }
  | { type: "traitsReassigned"; actor: string; changes: { trait: string; from: TraitRole; to: TraitRole }[] }
  | { type: "offerMade"; offer: PendingOffer }
  | { type: "offerAccepted"; offer: PendingOffer }
  | {
      type: "opposedRoll";
      purpose: "maneuver" | "neutralise" | "restore";
      actor: string;
      opponent: string;
      actorRole: TraitRole;
      actorRoll: RollDetail;
      opponentRoll: RollDetail;
      help: HelpBonus[];
      margin: number;
    }
  | {
      type: "advantageChanged";
      actor: string;
      target: string;
      before: number;
      after: number;
      reason: ApReason;
    }
  | { type: "bonusActionGranted"; actor: string; target: string; gained: number }
  | { type: "bonusActionDeclined"; actor: string }
  | { type: "turnSkipped"; actor: string }
  | {
      type: "strikeRolled";
      actor: string;
      target: string;
      apSpent: number;
      dice: number[];
      attackResource: { name: string; value: number } | null;
      defenceResource: { name: string; value: number } | null;
      total: number;
      stage: Stage | null;
      free: boolean;
    }
  | {
      type: "damageMarked";
      participant: string;
      struck: Stage;
      stage: Stage | null;
      before: number;
      after: number;
    }
  | { type: "knockedOut"; participant: string }
  | { type: "knockoutIgnored"; participant: string }
  | { type: "fatalDamage"; participant: string }
  | { type: "fateChosen"; participant: string; choice: FateChoice }
  | {
      type: "resourceNeutralised";
      owner: string;
      resource: string;
      margin: number;
      by: string | null;
      granted: boolean;
    }
  | { type: "neutraliseFailed"; owner: string; resource: string; margin: number }
  | { type: "resourceRestored"; owner: string; resource: string; granted: boolean }
  | { type: "restoreFailed"; owner: string; resource: string; margin: number; needed: number }
  | { type: "taskProposed"; task: string; difficulty: number; by: string | null }
  | { type: "taskAgreed"; task: string; difficulty: number; side: Side; settled: boolean }
  | { type: "taskReady"; task: string; side: Side }
  | { type: "taskDropped"; task: string }
  | {
      type: "taskDiceBought";
      task: string;
      side: Side;
      dice: number;
      apPerDie: number;
      contributions: { hunter: string; points: number }[];
      totalDice: number;
    }
  | ({ type: "taskResolved"; task: string; difficulty: number } & TaskResult)
  | { type: "helpGiven"; actor: string; helped: string; trait: string; value: number }
  | { type: "gaveUp"; participant: string }
  | { type: "gmConceded" }
  | { type: "turnPassed"; from: string; to: string }
  | { type: "challengeEnded"; outcome: ChallengeOutcome };

export type FateChoice = "survive" | "retire";

export type ChallengeAction =
  | { type: "activate"; actor: string; trait: string; as: TraitRole }
  | { type: "reassign"; actor: string; roles: Record<string, TraitRole> }
  | { type: "offerAdvantage"; points: number; target?: string | null }
  | { type: "offerNeutralise"; target: string; resource: string; margin: number }
  | { type: "offerRestore"; resource: string }
  | { type: "accept"; actor: string }
  | { type: "maneuver"; actor: string; target?: string | null }
  | { type: "strike"; actor: string; dice: number; target?: string | null }
  | { type: "declineBonus"; actor: string }
  /** The turn passes without an action. */
  | { type: "passTurn"; actor: string }
  | { type: "neutralise"; actor: string; target: string; resource: string }
  | { type: "restore"; actor: string; resource: string; against?: string | null }
  | { type: "proposeTask"; name: string; difficulty: number; by?: string | null }
  | { type: "achieve"; actor: string; task: string; dice: number; target?: string | null }
  | { type: "agreeTask"; task: string; side: Side }
  /** One side is ready to roll the task; it is rolled when both are. */
  | { type: "resolveTask"; task: string; side: Side }
  | { type: "buyTaskDice"; task: string; dice: number; contributions: { hunter: string; points: number }[] }
  | { type: "help"; actor: string; helped: string; trait: string }
  | { type: "switchTarget"; actor: string; from: string; to: string; points?: number | null }
  | {
      type: "passAdvantage";
      actor: string;
      to: string;
      target: string;
      points?: number | null;
      switchTo?: string | null;
    }
  | { type: "giveUp"; actor: string }
  | { type: "concede" }
  | { type: "chooseFate"; actor: string; choice: FateChoice }
  | { type: "close" };

export interface ActionResult {
  state: ChallengeState;
  events: ChallengeEvent[];
}

// ---------------------------------------------------------------------------------------
// Queries (also for panels)

export function participant(state: ChallengeState, id: string): Participant {
  const found = state.participants.find((p) => p.id === id);
  if (!found) refuse("errors.bh.unknownParticipant", { id });
  return found;
}

export function advantageOf(state: ChallengeState, actor: string, target: string): number {
  return state.advantage[actor]?.[target] ?? 0;
}

/** Sum of the effective values of the traits active in `role`. */
export function activeTraitBonus(p: Participant, role: TraitRole): number {
  return p.traits.reduce((sum, t) => sum + (t.active === role ? t.effective : 0), 0);
}

/** Resources of one category do not stack: only the highest non-neutralised one counts. */
export function bestResource(p: Participant, kind: ResourceKind): ChallengeResource | null {
  let best: ChallengeResource | null = null;
  for (const r of p.resources) {
    if (r.kind === kind && r.neutralised === null && (best === null || r.value > best.value)) best = r;
  }
  return best;
}

/** Victory points each hunter earned in this challenge so far: the challenge's and the tasks'. */
export function victoryPointsEarned(state: ChallengeState): Record<string, number> {
  const total: Record<string, number> = {};
  const add = (vp: Record<string, number>) => {
    for (const [hunter, points] of Object.entries(vp)) total[hunter] = (total[hunter] ?? 0) + points;
  };
  if (state.outcome) add(state.outcome.vp);
  for (const task of state.tasks) if (task.result) add(task.result.vp);
  return total;
}

export function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** A participant's trait by name (case-insensitive). */
export function findTrait(p: Participant, name: string): ChallengeTrait {
  const trait = p.traits.find((t) => sameName(t.name, name));
  if (!trait) refuse("errors.bh.unknownTrait", { name: p.name, trait: name });
  return trait;
}

/** A participant's resource (of this challenge's sphere) by name. */
export function findResource(p: Participant, name: string): ChallengeResource {
  const resource = p.resources.find((r) => sameName(r.name, name));
  if (!resource) refuse("errors.bh.unknownResource", { name: p.name, resource: name });
  return resource;
}
