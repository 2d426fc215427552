/** A challenge's events as messages: the lines a reply shows and the entries the log keeps, in any reader's language. */
import { type Lang, type MessageKey, t } from "../../i18n/index.js";
import type { ChallengeEvent, ChallengeState } from "../../rules/beast-hunters/index.js";
import type { LogInput } from "../log.js";

type Params = Record<string, string | number>;

/** One event as a message key and its parameters (names and numbers only, so any reader's language works). */
export interface EventMessage {
  key: MessageKey;
  params: Params;
  dice?: number[];
  before?: unknown;
  after?: unknown;
}

const list = (dice: readonly number[]) => dice.join(", ");

/** A participant's name by id ("—" for none). */
export function nameOf(state: ChallengeState, id: string | null): string {
  if (id === null) return "—";
  return state.participants.find((p) => p.id === id)?.name ?? id;
}

export function eventMessages(state: ChallengeState, event: ChallengeEvent): EventMessage[] {
  const n = (id: string | null) => nameOf(state, id);
  switch (event.type) {
    case "challengeStarted":
      return [
        {
          key: "bh.event.started",
          params: {
            rating: event.rating,
            cost: event.cost,
            before: event.reserveBefore,
            after: event.reserveAfter,
            first: n(event.first),
          },
          before: { reserve: event.reserveBefore },
          after: { reserve: event.reserveAfter },
        },
      ];
    case "obstacleAdded":
      return [
        {
          key: "bh.event.obstacleAdded",
          params: {
            name: n(event.obstacle),
            rating: event.rating,
            extra: event.extraCost,
            before: event.reserveBefore,
            after: event.reserveAfter,
            first: n(event.first),
          },
          before: { reserve: event.reserveBefore },
          after: { reserve: event.reserveAfter },
        },
      ];
    case "traitActivated":
      return [
        {
          key: "bh.event.traitActivated",
          params: {
            actor: n(event.actor),
            trait: event.trait,
            role: event.as,
            value: event.value,
            pre: event.preActivated ? "yes" : "no",
          },
        },
      ];
    case "traitsReassigned":
      return event.changes.map((c) => ({
        key: "bh.event.traitReassigned",
        params: { actor: n(event.actor), trait: c.trait, role: c.to },
      }));
    case "offerMade":
    case "offerAccepted": {
      const o = event.offer;
      const accepted = event.type === "offerAccepted" ? "yes" : "no";
      if (o.kind === "advantage") {
        return [
          {
            key: "bh.event.offerAdvantage",
            params: { hunter: n(o.hunter), points: o.points, target: n(o.target), accepted },
          },
        ];
      }
      if (o.kind === "neutralise") {
        return [
          {
            key: "bh.event.offerNeutralise",
            params: {
              hunter: n(o.hunter),
              resource: o.resource,
              target: n(o.target),
              margin: o.margin,
              accepted,
            },
          },
        ];
      }
      return [
        { key: "bh.event.offerRestore", params: { hunter: n(o.hunter), resource: o.resource, accepted } },
      ];
    }
    case "opposedRoll":
      return [
        {
          key: "bh.event.opposedRoll",
          params: {
            purpose: event.purpose,
            actor: n(event.actor),
            actorDice: list(event.actorRoll.dice),
            actorBonus: event.actorRoll.bonus,
            actorTotal: event.actorRoll.total,
            opponent: n(event.opponent),
            opponentDice: list(event.opponentRoll.dice),
            opponentBonus: event.opponentRoll.bonus,
            opponentTotal: event.opponentRoll.total,
            margin: event.margin,
            help: event.help.reduce((sum, h) => sum + h.value, 0),
          },
          dice: [...event.actorRoll.dice, ...event.opponentRoll.dice],
        },
      ];
    case "advantageChanged":
      return [
        {
          key: "bh.event.advantage",
          params: {
            actor: n(event.actor),
            target: n(event.target),
            before: event.before,
            after: event.after,
          },
          before: { ap: event.before },
          after: { ap: event.after },
        },
      ];
    case "bonusActionGranted":
      return [{ key: "bh.event.bonus", params: { actor: n(event.actor), gained: event.gained } }];
    case "turnSkipped":
      return [{ key: "bh.event.turnSkipped", params: { actor: n(event.actor) } }];
    case "bonusActionDeclined":
      return [{ key: "bh.event.bonusDeclined", params: { actor: n(event.actor) } }];
    case "strikeRolled":
      return [
        {
          key: "bh.event.strike",
          params: {
            actor: n(event.actor),
            target: n(event.target),
            count: event.dice.length,
            ap: event.apSpent,
            dice: list(event.dice),
            sum: event.dice.reduce((s, d) => s + d, 0),
            attack: event.attackResource?.value ?? 0,
            defence: event.defenceResource?.value ?? 0,
            total: event.total,
            stage: event.stage ?? "none",
            free: event.free ? "yes" : "no",
          },
          dice: event.dice,
        },
      ];
    case "damageMarked":
      if (event.stage === null)
        return [{ key: "bh.event.damageNoBox", params: { participant: n(event.participant) } }];
      return [
        {
          key: "bh.event.damage",
          params: {
            participant: n(event.participant),
            stage: event.stage,
            struck: event.struck,
            moved: event.stage === event.struck ? "no" : "yes",
            before: event.before,
            after: event.after,
          },
          before: { [event.stage]: event.before },
          after: { [event.stage]: event.after },
        },
      ];
    case "knockedOut":
      return [{ key: "bh.event.knockedOut", params: { participant: n(event.participant) } }];
    case "knockoutIgnored":
      return [{ key: "bh.event.knockoutIgnored", params: { participant: n(event.participant) } }];
    case "fatalDamage":
      return [{ key: "bh.event.fatal", params: { participant: n(event.participant) } }];
    case "fateChosen":
      return [
        { key: "bh.event.fateChosen", params: { participant: n(event.participant), choice: event.choice } },
      ];
    case "resourceNeutralised":
      return [
        {
          key: "bh.event.neutralised",
          params: {
            owner: n(event.owner),
            resource: event.resource,
            margin: event.margin,
            granted: event.granted ? "yes" : "no",
          },
        },
      ];
    case "neutraliseFailed":
      return [
        { key: "bh.event.neutraliseFailed", params: { owner: n(event.owner), resource: event.resource } },
      ];
    case "resourceRestored":
      return [{ key: "bh.event.restored", params: { owner: n(event.owner), resource: event.resource } }];
    case "restoreFailed":
      return [
        {
          key: "bh.event.restoreFailed",
          params: {
            owner: n(event.owner),
            resource: event.resource,
            margin: event.margin,
            // A lost roll has no margin to show («перевес -5» reads as nonsense).
            beaten: event.margin <= 0 ? "yes" : "no",
            needed: event.needed,
          },
        },
      ];
    case "taskProposed":
      return [
        {
          key: "bh.event.taskProposed",
          params: {
            task: event.task,
            difficulty: event.difficulty,
            by: n(event.by),
            // The GM proposes for their side, not as one of its obstacles.
            side: state.participants.find((p) => p.id === event.by)?.side ?? "hunters",
          },
        },
      ];
    case "taskAgreed":
      return [
        {
          key: "bh.event.taskAgreed",
          params: {
            task: event.task,
            difficulty: event.difficulty,
            side: event.side,
            settled: event.settled ? "yes" : "no",
          },
        },
      ];
    case "taskReady":
      return [{ key: "bh.event.taskReady", params: { task: event.task, side: event.side } }];
    case "taskDropped":
      return [{ key: "bh.event.taskDropped", params: { task: event.task } }];
    case "taskDiceBought":
      return [
        {
          key: "bh.event.taskDice",
          params: {
            task: event.task,
            side: event.side,
            who: event.contributions.map((c) => n(c.hunter)).join(", "),
            dice: event.dice,
            ap: event.dice * event.apPerDie,
            total: event.totalDice,
          },
        },
      ];
    case "taskResolved":
      return [
        {
          key: "bh.event.taskResolved",
          params: {
            task: event.task,
            gmDice: list(event.gmDice) || "—",
            gmTotal: event.gmTotal,
            hunterDice: list(event.hunterDice) || "—",
            hunterTotal: event.hunterTotal,
            winner: event.winner,
            vp: vpList(state, event.vp),
          },
          dice: [...event.gmDice, ...event.hunterDice],
        },
      ];
    case "helpGiven":
      return [
        {
          key: "bh.event.help",
          params: { actor: n(event.actor), helped: n(event.helped), trait: event.trait, value: event.value },
        },
      ];
    case "gaveUp":
      return [{ key: "bh.event.gaveUp", params: { participant: n(event.participant) } }];
    case "gmConceded":
      return [{ key: "bh.event.gmConceded", params: {} }];
    case "turnPassed":
      return [{ key: "bh.event.turn", params: { name: n(event.to) } }];
    case "challengeEnded":
      return [
        {
          key: "bh.event.ended",
          params: {
            winner: event.outcome.winner,
            reason: event.outcome.reason,
            refund: event.outcome.refund,
            rating: state.rating,
            vp: vpList(state, event.outcome.vp),
            shared: Object.keys(event.outcome.vp).length > 0 ? "yes" : "no",
            remainder: event.outcome.remainder?.points ?? 0,
            remainderTo: event.outcome.remainder ? n(event.outcome.remainder.to) : "",
          },
        },
      ];
  }
}

function vpList(state: ChallengeState, vp: Record<string, number>): string {
  const entries = Object.entries(vp);
  return entries.length === 0
    ? "—"
    : entries.map(([id, points]) => `${nameOf(state, id)} +${points}`).join(", ");
}

/** The events as lines for a reply (turn changes included, they are not logged). */
export function eventLines(lang: Lang, state: ChallengeState, events: readonly ChallengeEvent[]): string[] {
  return events.flatMap((e) => eventMessages(state, e)).map((m) => t(lang, m.key, m.params));
}

/** The events as log entries: every roll and every changed number, turn changes left out. */
export function eventLogEntries(state: ChallengeState, events: readonly ChallengeEvent[]): LogInput[] {
  return events
    .filter((e) => e.type !== "turnPassed")
    .flatMap((e) =>
      eventMessages(state, e).map((m) => ({
        action: `challenge.${e.type}`,
        summary: { key: m.key, params: m.params },
        dice: m.dice,
        before: m.before,
        after: m.after,
      })),
    );
}
