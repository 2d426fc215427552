import { type Lang, t } from "../../i18n/index.js";
import {
  advantageOf,
  bestResource,
  type ChallengeState,
  nothingPlayedYet,
  type Participant,
  PHASE_MULTIPLIER,
  type Phase,
  type PriceLine,
  taskAgreed,
  taskReady,
} from "../../rules/beast-hunters/index.js";
import type { KnownIntent, PartialKnownIntent } from "../intents.js";
import type { ComponentView, EmbedView, MessageView } from "../views.js";
import { eventMessages, nameOf } from "./challenge-events-view.js";
import type { ChallengeFlowState } from "./flow-states.js";
import { boxesLine } from "./sheets.js";

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

/** The price field: one block per obstacle when there are several, each under its name. */
function panelPrice(lang: Lang, price: ChallengeFlowState["price"]): string {
  const obstacles = price.obstacles;
  if (obstacles.length < 2) return priceText(lang, price.lines);
  return obstacles
    .map((o, i) => `**${o.name}**\n${priceText(lang, price.lines.slice(o.from, obstacles[i + 1]?.from))}`)
    .join("\n");
}

export function priceText(lang: Lang, lines: readonly PriceLine[]): string {
  return lines.map((line) => `• ${priceLineText(lang, line)}`).join("\n");
}

/** The phase's multiplier of the rating when the GM goes to dice, as the texts show it: 2, 1, 1.5. */
export function phaseMultiplier(phase: Phase): string {
  const [numerator, denominator] = PHASE_MULTIPLIER[phase];
  return String(numerator / denominator);
}

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
        multiplier: phaseMultiplier(state.phase),
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
                    result: task.result ? task.result.winner : taskAgreed(task) ? "open" : "proposed",
                    ready:
                      (["hunters", "gm"] as const).filter((side) => taskReady(task, side)).join(",") ||
                      "none",
                    gmTotal: task.result?.gmTotal ?? 0,
                    hunterTotal: task.result?.hunterTotal ?? 0,
                  }),
                )
                .join("\n"),
            },
          ]
        : []),
      { name: t(lang, "bh.panel.price"), value: panelPrice(lang, flow.price) },
    ],
    tone: state.outcome ? (state.outcome.winner === "hunters" ? "success" : "failure") : "neutral",
  };
  return { embeds: [embed], rows: panelRows(lang, flowId, state) };
}

type Row = ComponentView[];
type Option = { label: string; value: string };

/** Most strike buttons in the panel's first row; more counts go into a select. */
const PANEL_MAX_DICE = 3;
/** Discord's limits: 25 options per select, 100 characters per value. */
const MAX_OPTIONS = 25;
const MAX_VALUE = 100;

const button = (
  label: string,
  intent: KnownIntent,
  style?: "primary" | "secondary" | "success" | "danger",
): ComponentView => ({ kind: "button", label, intent, ...(style ? { style } : {}) });

function select(intent: PartialKnownIntent, field: string, placeholder: string, options: Option[]): Row {
  return [
    {
      kind: "select",
      intent,
      field,
      placeholder,
      // A value Discord would cut would pick the wrong thing: such a choice stays with the slash command.
      options: options.filter((o) => o.value.length <= MAX_VALUE).slice(0, MAX_OPTIONS),
    },
  ];
}

/** Several hunters take part (docs/rules/beast-hunters.md §2.5: help, switch target and pass advantage are for them only). */
export function severalHunters(state: ChallengeState): boolean {
  return state.participants.filter((p) => p.side === "hunters").length >= 2;
}

function standingOpponents(state: ChallengeState, actor: Participant): Participant[] {
  return state.participants.filter((p) => p.side !== actor.side && p.status === "in");
}

/** Every count of dice the actor can afford against `target` in one action: 4 AP per d6. */
function affordableDice(state: ChallengeState, actor: Participant, target: Participant): number[] {
  const most = Math.min(MAX_OPTIONS, Math.floor(advantageOf(state, actor.id, target.id) / 4));
  return Array.from({ length: Math.max(0, most) }, (_, i) => i + 1);
}

/**
 * Strike controls: buttons when there is one target (the rules find it), else a select of
 * target and dice (`x:<target id>:<dice>` for the action menu's use case).
 */
function strikeControls(
  lang: Lang,
  flowId: number,
  state: ChallengeState,
  actor: Participant,
  targets: Participant[],
): { buttons: Row; select: Row | null } {
  if (targets.length === 1) {
    // One target: buttons for the first counts; more dice than that from a select, one action too.
    const counts = affordableDice(state, actor, targets[0]!);
    const buttons = counts
      .slice(0, PANEL_MAX_DICE)
      .map((dice) =>
        button(
          t(lang, "bh.panel.strike", { dice, ap: dice * 4 }),
          { type: "challenge.strike", flowId, dice },
          "danger",
        ),
      );
    const more = counts.slice(PANEL_MAX_DICE).map((dice) => ({
      label: t(lang, "bh.panel.strikeOption", { target: targets[0]!.name, dice, ap: dice * 4 }),
      value: `x:${targets[0]!.id}:${dice}`,
    }));
    return {
      buttons,
      select:
        more.length > 0
          ? select(
              { type: "challenge.menu", flowId, menu: "x" },
              "pick",
              t(lang, "bh.panel.strikePlaceholder"),
              more,
            )
          : null,
    };
  }
  const options = targets.flatMap((target) =>
    affordableDice(state, actor, target).map((dice) => ({
      label: t(lang, "bh.panel.strikeOption", { target: target.name, dice, ap: dice * 4 }),
      value: `x:${target.id}:${dice}`,
    })),
  );
  return {
    buttons: [],
    select:
      options.length > 0
        ? select(
            { type: "challenge.menu", flowId, menu: "x" },
            "pick",
            t(lang, "bh.panel.strikePlaceholder"),
            options,
          )
        : null,
  };
}

/**
 * Open tasks: accept a proposed difficulty; once agreed, buy dice — every count the one who acts
 * can afford in one action, «2 кубика исхода» as one Achievement (`a:<dice>:<task>`) — or say
 * your side is ready to roll.
 */
function taskRow(lang: Lang, flowId: number, state: ChallengeState): Row | null {
  const open = state.tasks.filter((task) => !task.result);
  if (open.length === 0) return null;
  const actor = state.participants.find((p) => p.id === (state.pendingBonus?.actor ?? state.turn));
  const ap = actor
    ? Math.max(0, ...standingOpponents(state, actor).map((o) => advantageOf(state, actor.id, o.id)))
    : 0;
  const counts = Array.from({ length: Math.max(1, Math.min(10, Math.floor(ap / 4))) }, (_, i) => i + 1);
  return select(
    { type: "challenge.taskmenu", flowId },
    "pick",
    t(lang, "bh.panel.taskPlaceholder"),
    open.flatMap((task) =>
      taskAgreed(task)
        ? [
            ...counts.map((dice) => ({
              label: t(lang, "bh.panel.achieveOption", { task: task.name, dice, ap: dice * 4 }),
              value: `a:${dice}:${task.name}`,
            })),
            { label: t(lang, "bh.panel.resolveOption", { task: task.name }), value: `r:${task.name}` },
          ]
        : [
            {
              label: t(lang, "bh.panel.agreeOption", { task: task.name, difficulty: task.difficulty }),
              value: `g:${task.name}`,
            },
          ],
    ),
  );
}

const newTaskButton = (lang: Lang, flowId: number) =>
  button(t(lang, "bh.panel.newTask"), { type: "challenge.taskform", flowId });
const refreshButton = (lang: Lang, flowId: number) =>
  button(t(lang, "bh.panel.refresh"), { type: "challenge.show", flowId });

/**
 * The panel's controls, within Discord's limits: at most 5 rows, each either up to 5 buttons or
 * one select; every custom_id carries ids, never names of participants.
 */
export function panelRows(lang: Lang, flowId: number, state: ChallengeState): Row[] {
  if (state.status === "closed") return [];
  if (state.status === "aftermath") {
    // Open tasks can still be agreed, made ready, or given extra dice (6 AP each, after a win).
    const tasks = taskRow(lang, flowId, state);
    const extra =
      state.outcome?.winner === "hunters"
        ? state.tasks
            .filter((task) => !task.result && taskAgreed(task))
            .slice(0, 4)
            .map((task) =>
              button(t(lang, "bh.panel.extraDie", { task: task.name }), {
                type: "challenge.achieve",
                flowId,
                task: task.name,
                dice: 1,
                pool: true,
              }),
            )
        : [];
    return [
      ...(tasks ? [tasks] : []),
      [...extra, button(t(lang, "bh.panel.close"), { type: "challenge.end", flowId }, "primary")],
    ];
  }
  if (state.status === "fatalChoice") {
    return [
      [
        button(t(lang, "bh.fate.survive"), { type: "challenge.fate", flowId, choice: "survive" }),
        button(t(lang, "bh.fate.retire"), { type: "challenge.fate", flowId, choice: "retire" }, "danger"),
      ],
    ];
  }
  const actor = state.participants.find((p) => p.id === (state.pendingBonus?.actor ?? state.turn))!;
  const opponents = standingOpponents(state, actor);

  if (state.pendingBonus) {
    // The free Strike or Achievement goes against the target of the maneuver that earned it.
    const bonusTarget = opponents.filter((p) => p.id === state.pendingBonus!.target);
    const strikes = strikeControls(lang, flowId, state, actor, bonusTarget);
    const tasks = taskRow(lang, flowId, state);
    return [
      [...strikes.buttons, button(t(lang, "bh.panel.skip"), { type: "challenge.skip", flowId })],
      ...(tasks ? [tasks] : []),
      [refreshButton(lang, flowId), newTaskButton(lang, flowId)],
    ];
  }

  const strikes = strikeControls(lang, flowId, state, actor, opponents);
  // One opponent: the rules find the target. Several: one button per target, by id.
  const maneuvers =
    opponents.length <= 1
      ? [button(t(lang, "bh.action.maneuver"), { type: "challenge.maneuver", flowId }, "primary")]
      : opponents.map((o) =>
          button(
            t(lang, "bh.panel.maneuverAt", { name: o.name }),
            { type: "challenge.menu", flowId, pick: `m:${o.id}` },
            "primary",
          ),
        );
  const accept = state.pendingOffer
    ? [button(t(lang, "bh.panel.accept"), { type: "challenge.accept", flowId }, "success")]
    : [];
  // Five buttons fit a row: a sixth hunter's maneuver stays with `/challenge maneuver target`.
  const first: Row = [...maneuvers, ...accept, ...strikes.buttons].slice(0, 5);

  const menu: Option[] = [
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
  ];
  // Several active traits may be flipped together (one Reassign action); one pick otherwise.
  const flips = actor.traits.filter((tr) => tr.active).length;
  const menuSelect =
    menu.length > 0
      ? select(
          { type: "challenge.menu", flowId },
          "pick",
          t(lang, "bh.panel.menuPlaceholder", { name: actor.name }),
          menu,
        )
      : null;
  const menuRow =
    menuSelect && flips > 1
      ? [
          {
            ...menuSelect[0]!,
            minValues: 1,
            maxValues: Math.min(flips, menuSelect[0]!.kind === "select" ? menuSelect[0]!.options.length : 1),
          } as ComponentView,
        ]
      : menuSelect;
  // The GM's offer to the hunter whose turn it is (a maneuver without dice).
  // With several obstacles standing each option names its target (the menu carries it).
  const offerTargets = state.participants.filter((p) => p.side === "gm" && p.status === "in");
  const offerPoints = [2, 4, 6, 8, 10, 12, 15, 20];
  const offerRow =
    actor.side === "hunters" && !state.pendingOffer
      ? offerTargets.length > 1
        ? select(
            { type: "challenge.offer", flowId },
            "pick",
            t(lang, "bh.panel.offerPlaceholder", { name: actor.name }),
            offerPoints.slice(0, Math.floor(25 / offerTargets.length)).flatMap((points) =>
              offerTargets.map((target) => ({
                label: t(lang, "bh.panel.offerOptionAgainst", { points, target: target.name }),
                value: `${points}:${target.id}`,
              })),
            ),
          )
        : select(
            { type: "challenge.offer", flowId },
            "points",
            t(lang, "bh.panel.offerPlaceholder", { name: actor.name }),
            offerPoints.map((points) => ({
              label: t(lang, "bh.panel.offerOption", { points }),
              value: String(points),
            })),
          )
      : null;
  const tasks = taskRow(lang, flowId, state);
  // Three select rows fit between the buttons. A fourth (strikes against several obstacles on a
  // hunter's turn, while the GM could still offer) is impossible with one obstacle; if it ever
  // happens the offer stays with `/challenge offer`.
  const selects = [menuRow, strikes.select, offerRow, tasks].filter((row) => row !== null);
  const middle = selects.length > 3 ? selects.filter((row) => row !== offerRow) : selects;
  const last: Row = [
    refreshButton(lang, flowId),
    newTaskButton(lang, flowId),
    ...(severalHunters(state) ? [button(t(lang, "bh.panel.team"), { type: "challenge.team", flowId })] : []),
    button(t(lang, "bh.panel.giveUp"), { type: "challenge.giveup", flowId }, "danger"),
    // Before anything is played the GM may still buy another obstacle (docs/rules/beast-hunters.md §2.4).
    ...(nothingPlayedYet(state)
      ? [button(t(lang, "bh.panel.addObstacle"), { type: "challenge.obstacleform", flowId })]
      : []),
  ];
  return [first, ...middle, last];
}

/**
 * The multi-hunter actions for the one who acts (help, switch target, pass advantage), as a
 * private message of selects: `h:<hunter id>:<trait>`, `s:<from id>:<to id>`,
 * `p:<to id>:<target id>[:<switch-to id>]`, all run by the action menu's use case. Switching and
 * passing move all AP against that target (part of them: `/challenge switch|pass points`).
 */
export function teamActionsView(
  lang: Lang,
  flowId: number,
  state: ChallengeState,
  actorId: string,
): MessageView {
  const actor = state.participants.find((p) => p.id === actorId)!;
  // `menu` only keeps the selects' custom_ids apart (Discord refuses duplicates on one message).
  const intent = (menu: "h" | "s" | "p") => ({ type: "challenge.menu" as const, flowId, menu });
  const opponents = state.participants.filter((p) => p.side !== actor.side);
  const standing = opponents.filter((p) => p.status === "in");
  const withAp = opponents.filter((o) => advantageOf(state, actor.id, o.id) > 0);
  const mates =
    actor.side === "hunters"
      ? state.participants.filter((p) => p.side === "hunters" && p.id !== actor.id && p.status === "in")
      : [];
  const half = (ap: number) => Math.ceil(ap / 2);

  const help = mates.flatMap((mate) =>
    actor.traits
      .filter((tr) => tr.active)
      .map((tr) => ({
        label: t(lang, "bh.team.helpOption", { hunter: mate.name, trait: tr.name, value: tr.effective }),
        value: `h:${mate.id}:${tr.name}`,
      })),
  );
  const switches = withAp.flatMap((from) =>
    standing
      .filter((to) => to.id !== from.id)
      .map((to) => {
        const ap = advantageOf(state, actor.id, from.id);
        return {
          label: t(lang, "bh.team.switchOption", { from: from.name, ap, to: to.name, half: half(ap) }),
          value: `s:${from.id}:${to.id}`,
        };
      }),
  );
  const passes = withAp.flatMap((target) => {
    const ap = advantageOf(state, actor.id, target.id);
    return mates.flatMap((mate) => [
      {
        label: t(lang, "bh.team.passOption", { to: mate.name, ap, target: target.name }),
        value: `p:${mate.id}:${target.id}`,
      },
      ...standing
        .filter((other) => other.id !== target.id)
        .map((other) => ({
          label: t(lang, "bh.team.passSwitchOption", {
            to: mate.name,
            ap,
            target: target.name,
            switchTo: other.name,
            half: half(ap),
          }),
          value: `p:${mate.id}:${target.id}:${other.id}`,
        })),
    ]);
  });
  const rows: Row[] = [
    ...(help.length > 0 ? [select(intent("h"), "pick", t(lang, "bh.team.helpPlaceholder"), help)] : []),
    ...(switches.length > 0
      ? [select(intent("s"), "pick", t(lang, "bh.team.switchPlaceholder"), switches)]
      : []),
    ...(passes.length > 0 ? [select(intent("p"), "pick", t(lang, "bh.team.passPlaceholder"), passes)] : []),
  ];
  return {
    ephemeral: true,
    embeds: [
      {
        description: t(lang, rows.length > 0 ? "bh.team.intro" : "bh.team.none", { name: actor.name }),
        tone: "info",
      },
    ],
    rows,
  };
}
