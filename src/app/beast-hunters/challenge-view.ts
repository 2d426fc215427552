import { type Lang, t } from "../../i18n/index.js";
import {
  advantageOf,
  bestResource,
  type ChallengeEvent,
  type ChallengeState,
  type Participant,
  type PriceLine,
} from "../../rules/beast-hunters/index.js";
import type { LogInput } from "../log.js";
import type { ComponentView, EmbedView, MessageView } from "../views.js";
import { boxesLine } from "./sheets.js";

/** What the `bh.challenge` flow stores: the rules state and how it was priced (to explain it back). */
export interface ChallengeFlowState {
  challenge: ChallengeState;
  price: { lines: PriceLine[]; ceiling: number };
}

type Params = Record<string, string | number>;

/** One event as a message key and its parameters (names and numbers only, so any reader's language works). */
export interface EventMessage {
  key: string;
  params: Params;
  dice?: number[];
  before?: unknown;
  after?: unknown;
}

const list = (dice: readonly number[]) => dice.join(", ");

function nameOf(state: ChallengeState, id: string | null): string {
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
            needed: event.needed,
          },
        },
      ];
    case "taskProposed":
      return [{ key: "bh.event.taskProposed", params: { task: event.task, difficulty: event.difficulty } }];
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
            vp: vpList(state, event.outcome.vp),
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

function priceLineText(lang: Lang, line: PriceLine): string {
  switch (line.item) {
    case "minimalBoxes":
      return t(lang, "bh.price.minimalBoxes", { price: line.price });
    case "trait":
      return t(lang, "bh.price.trait", { name: line.name, value: line.value, price: line.price });
    case "resource":
      return t(lang, "bh.price.resource", {
        name: line.name,
        kind: line.kind,
        value: line.value,
        price: line.price,
      });
    case "initiative":
      return t(lang, "bh.price.initiative", { value: line.value, price: line.price });
    case "extraBoxes":
      return t(lang, "bh.price.extraBoxes", { stage: line.stage, count: line.count, price: line.price });
    case "neutralise":
      return t(lang, "bh.price.neutralise", {
        resource: line.resource,
        value: line.value,
        price: line.price,
      });
  }
}

export function priceText(lang: Lang, lines: readonly PriceLine[]): string {
  return lines.map((line) => `• ${priceLineText(lang, line)}`).join("\n");
}

const MULTIPLIER: Record<number, string> = { 1: "2", 2: "1", 3: "1.5" };

function participantField(lang: Lang, state: ChallengeState, p: Participant) {
  const traits = (["attack", "defence"] as const)
    .map((role) => {
      const active = p.traits.filter((tr) => tr.active === role);
      if (active.length === 0) return null;
      return `${t(lang, `bh.role.short.${role}`)}: ${active.map((tr) => `${tr.name} +${tr.effective}`).join(", ")}`;
    })
    .filter((x) => x !== null);
  const idle = p.traits.filter((tr) => !tr.active).map((tr) => `${tr.name} +${tr.effective}`);
  const inUse = [bestResource(p, "attack"), bestResource(p, "defence")];
  const resources = p.resources.map((r) => {
    const mark = r.neutralised ? ` ⛔${r.neutralised.margin}` : inUse.includes(r) ? " ✓" : "";
    return `${t(lang, `bh.role.short.${r.kind}`)}+${r.value} ${r.name}${mark}`;
  });
  const ap = state.participants
    .filter((o) => o.side !== p.side && advantageOf(state, p.id, o.id) > 0)
    .map((o) => `${o.name}: ${advantageOf(state, p.id, o.id)}`);
  const lines = [
    `${t(lang, "bh.panel.traits")}: ${traits.join(" · ") || "—"}${idle.length > 0 ? ` (${t(lang, "bh.panel.idle")}: ${idle.join(", ")})` : ""}`,
    `${t(lang, "bh.panel.resources")}: ${resources.join(", ") || "—"}`,
    `${t(lang, "bh.panel.boxes")}: ${boxesLine(lang, p.boxes, p.damage)}`,
    `${t(lang, "bh.terms.advantage.short")}: ${ap.join(", ") || "0"}`,
  ];
  const turn = state.status === "active" && state.turn === p.id ? "▶ " : "";
  const status = p.status === "in" ? "" : ` — ${t(lang, `bh.status.${p.status}`)}`;
  return {
    name: `${turn}${p.name} (${t(lang, "bh.terms.initiative")} ${p.initiative})${status}`,
    value: lines.join("\n"),
  };
}

function statusLine(lang: Lang, state: ChallengeState): string {
  const n = (id: string) => nameOf(state, id);
  if (state.status === "fatalChoice")
    return t(lang, "bh.panel.fatalChoice", { name: n(state.pendingFatal!) });
  if (state.outcome) {
    const ended = eventMessages(state, { type: "challengeEnded", outcome: state.outcome })[0]!;
    return t(lang, ended.key, ended.params);
  }
  const lines = [t(lang, "bh.panel.turn", { name: n(state.turn) })];
  if (state.pendingBonus) lines.push(t(lang, "bh.panel.bonus", { name: n(state.pendingBonus.actor) }));
  const offer = state.pendingOffer;
  if (offer) {
    const m = eventMessages(state, { type: "offerMade", offer })[0]!;
    lines.push(t(lang, m.key, m.params));
  }
  return lines.join("\n");
}

/** The challenge panel: whose turn, AP per side and target, active traits, resources in use, boxes, tasks. */
export function challengePanel(lang: Lang, flowId: number, flow: ChallengeFlowState): MessageView {
  const state = flow.challenge;
  const embed: EmbedView = {
    title: t(lang, "bh.panel.title", { name: state.name ?? "—", sphere: state.sphere }),
    description: [
      t(lang, "bh.panel.summary", {
        phase: state.phase,
        rating: state.rating,
        ceiling: flow.price.ceiling,
        cost: state.cost,
        multiplier: MULTIPLIER[state.phase] ?? "1",
      }),
      ...(state.knockoutHasNoEffect ? [t(lang, "bh.panel.knockoutNoEffect")] : []),
      "",
      statusLine(lang, state),
    ].join("\n"),
    fields: [
      ...state.participants.map((p) => participantField(lang, state, p)),
      ...(state.tasks.length > 0
        ? [
            {
              name: t(lang, "bh.panel.tasks"),
              value: state.tasks
                .map((task) =>
                  t(lang, "bh.panel.task", {
                    task: task.name,
                    difficulty: task.difficulty,
                    gm: task.gmDice,
                    hunters: task.hunterDice,
                    result: task.result ? task.result.winner : "open",
                    gmTotal: task.result?.gmTotal ?? 0,
                    hunterTotal: task.result?.hunterTotal ?? 0,
                  }),
                )
                .join("\n"),
            },
          ]
        : []),
      { name: t(lang, "bh.panel.price"), value: priceText(lang, flow.price.lines) },
    ],
    tone: state.outcome ? (state.outcome.winner === "hunters" ? "success" : "failure") : "neutral",
  };
  return { embeds: [embed], rows: panelRows(lang, flowId, state) };
}

function panelRows(lang: Lang, flowId: number, state: ChallengeState): ComponentView[][] {
  if (state.status === "closed") return [];
  if (state.status === "aftermath") {
    return [
      [
        {
          kind: "button",
          label: t(lang, "bh.panel.close"),
          intent: { type: "challenge.end", flowId },
          style: "primary",
        },
      ],
    ];
  }
  if (state.status === "fatalChoice") {
    return [
      [
        {
          kind: "button",
          label: t(lang, "bh.fate.survive"),
          intent: { type: "challenge.fate", flowId, choice: "survive" },
        },
        {
          kind: "button",
          label: t(lang, "bh.fate.retire"),
          intent: { type: "challenge.fate", flowId, choice: "retire" },
          style: "danger",
        },
      ],
    ];
  }
  const actor = state.participants.find((p) => p.id === (state.pendingBonus?.actor ?? state.turn))!;
  const opponents = state.participants.filter((p) => p.side !== actor.side && p.status === "in");
  const soleTarget = opponents.length === 1 ? opponents[0]! : null;
  const ap = soleTarget ? advantageOf(state, actor.id, soleTarget.id) : 0;
  const strikes: ComponentView[] = [];
  for (let dice = 1; dice <= Math.min(3, Math.floor(ap / 4)); dice++) {
    strikes.push({
      kind: "button",
      label: t(lang, "bh.panel.strike", { dice, ap: dice * 4 }),
      intent: { type: "challenge.strike", flowId, dice },
      style: "danger",
    });
  }
  if (state.pendingBonus) {
    return [
      [
        ...strikes,
        { kind: "button", label: t(lang, "bh.panel.skip"), intent: { type: "challenge.skip", flowId } },
      ],
    ];
  }
  const rows: ComponentView[][] = [
    [
      {
        kind: "button",
        label: t(lang, "bh.action.maneuver"),
        intent: { type: "challenge.maneuver", flowId },
        style: "primary",
      },
      ...(state.pendingOffer
        ? [
            {
              kind: "button" as const,
              label: t(lang, "bh.panel.accept"),
              intent: { type: "challenge.accept", flowId },
              style: "success" as const,
            },
          ]
        : []),
      ...strikes,
    ],
  ];
  const menu = [
    ...actor.traits
      .filter((tr) => !tr.active)
      .flatMap((tr) =>
        (["attack", "defence"] as const).map((role) => ({
          label: t(lang, "bh.panel.activateOption", { trait: tr.name, role, value: tr.effective }),
          value: `${role}:${tr.name}`,
        })),
      ),
    ...actor.traits
      .filter((tr) => tr.active)
      .map((tr) => ({
        label: t(lang, "bh.panel.reassignOption", {
          trait: tr.name,
          role: tr.active === "attack" ? "defence" : "attack",
        }),
        value: `flip:${tr.name}`,
      })),
    ...opponents.flatMap((o) =>
      o.resources
        .filter((r) => !r.neutralised)
        .map((r) => ({
          label: t(lang, "bh.panel.neutraliseOption", { owner: o.name, resource: r.name, value: r.value }),
          value: `n:${o.id}:${r.name}`,
        })),
    ),
    ...actor.resources
      .filter((r) => r.neutralised)
      .map((r) => ({
        label: t(lang, "bh.panel.restoreOption", { resource: r.name, margin: r.neutralised!.margin }),
        value: `r:${r.name}`,
      })),
  ].slice(0, 25);
  if (menu.length > 0) {
    rows.push([
      {
        kind: "select",
        intent: { type: "challenge.menu", flowId },
        field: "pick",
        placeholder: t(lang, "bh.panel.menuPlaceholder", { name: actor.name }),
        options: menu,
      },
    ]);
  }
  // The GM's offer to the hunter whose turn it is (a maneuver without dice).
  if (actor.side === "hunters" && !state.pendingOffer) {
    rows.push([
      {
        kind: "select",
        intent: { type: "challenge.offer", flowId },
        field: "points",
        placeholder: t(lang, "bh.panel.offerPlaceholder", { name: actor.name }),
        options: [2, 4, 6, 8, 10, 12, 15, 20].map((points) => ({
          label: t(lang, "bh.panel.offerOption", { points }),
          value: String(points),
        })),
      },
    ]);
  }
  const open = state.tasks.filter((task) => !task.result);
  if (open.length > 0) {
    rows.push([
      {
        kind: "select",
        intent: { type: "challenge.taskmenu", flowId },
        field: "pick",
        placeholder: t(lang, "bh.panel.taskPlaceholder"),
        options: open
          .flatMap((task) => [
            { label: t(lang, "bh.panel.achieveOption", { task: task.name }), value: `a:${task.name}` },
            { label: t(lang, "bh.panel.resolveOption", { task: task.name }), value: `r:${task.name}` },
          ])
          .slice(0, 25),
      },
    ]);
  }
  rows.push([
    { kind: "button", label: t(lang, "bh.panel.refresh"), intent: { type: "challenge.show", flowId } },
    {
      kind: "button",
      label: t(lang, "bh.panel.giveUp"),
      intent: { type: "challenge.giveup", flowId },
      style: "danger",
    },
  ]);
  return rows.slice(0, 5);
}
