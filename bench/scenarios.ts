/**
 * The benchmark's mix, as data: one entry per thing people do at a table. Adding a scenario is
 * adding an entry here. A scenario whose slash commands the bot does not register (yet) is
 * skipped, and the run says so.
 *
 * Steps:
 * - `{ as, slash: "conflict assist", options }` runs a slash command (`dm: true`: in the actor's DMs);
 * - `{ as, click: "conflict.join", on: "reply" | "channel" | "dm", else }` clicks the button whose
 *   custom_id carries that intent type, on the message remembered as `on` (or the newest channel/DM
 *   message with such a button); without one it runs `else` (a slash step) instead;
 * - `{ as, autocomplete: "character show", options, focused }` types into an autocompleted option;
 * - `{ parallel: [...] }` runs steps at once (players clicking together, contending for the table).
 * `as` is "gm", "player" (a random player of the table) or "p0".."p2".
 */
import type { OptionValue } from "../src/double/index.js";

export type System = "mountain-witch" | "beast-hunters" | "fate";
export type Role = "gm" | "player" | "p0" | "p1" | "p2";
export type Options = Record<string, OptionValue>;

/** One table of the benchmark world: its channel, its GM, three players and their characters. */
export interface TableWorld {
  index: number;
  system: System;
  guildId: string;
  channelId: string;
  gm: string;
  players: string[];
  /** The players' characters' names, in `players` order. */
  characters: string[];
  /** Message ids remembered by `remember` (e.g. a panel to click on later). */
  remembered: Record<string, string>;
}

export interface StepContext {
  table: TableWorld;
  /** User id of the actor, and its index among the players (-1 for the GM). */
  actor: string;
  playerIndex: number;
  random: () => number;
}

type Dynamic<T> = T | ((ctx: StepContext) => T);

export interface SlashStep {
  as: Role;
  slash: string;
  options?: Dynamic<Options>;
  dm?: boolean;
  /** Remember the reply's message id under this key. */
  remember?: string;
}
export interface ClickStep {
  as: Role;
  click: string;
  on: string;
  else?: SlashStep;
}
export interface AutocompleteStep {
  as: Role;
  autocomplete: string;
  options: Dynamic<Options>;
  focused: string;
}
export interface ParallelStep {
  parallel: Step[];
}
export type Step = SlashStep | ClickStep | AutocompleteStep | ParallelStep;

export interface Scenario {
  name: string;
  /** Relative frequency among the scenarios a table's system allows. */
  weight: number;
  /** Systems whose tables run it (default: all). */
  systems?: System[];
  /** Run once per table before measuring (sheets, reserve, …). */
  prepare?: Step[];
  steps: Step[];
}

/** The actor's own character. */
const mine = (c: StepContext) => c.table.characters[Math.max(0, c.playerIndex)] as string;
const pick = <T>(c: StepContext, list: readonly T[]) => list[Math.floor(c.random() * list.length)] as T;

const ROLLS = ["2d6+3", "4d6kh3", "2d10", "1d20+5", "3d6", "d6", "2d6"];

export const SCENARIOS: Scenario[] = [
  // ---- common ---------------------------------------------------------------------------------
  {
    name: "roll",
    weight: 40,
    steps: [
      { as: "player", slash: "roll", options: (c) => ({ expression: pick(c, ROLLS), reason: "bench" }) },
    ],
  },
  {
    name: "roll 4d3 (Fate dice)",
    weight: 10,
    systems: ["fate"],
    steps: [{ as: "player", slash: "roll", options: { expression: "4d3+2" } }],
  },
  {
    name: "secret roll with a copy to the GM (DM)",
    weight: 3,
    steps: [{ as: "player", slash: "roll", options: { expression: "1d20", secret: true, "gm-copy": true } }],
  },
  { name: "table show", weight: 6, steps: [{ as: "player", slash: "table show" }] },
  {
    name: "character show",
    weight: 6,
    steps: [{ as: "player", slash: "character show", options: (c) => ({ name: mine(c) }) }],
  },
  { name: "character list", weight: 3, steps: [{ as: "player", slash: "character list" }] },
  { name: "table log", weight: 2, steps: [{ as: "gm", slash: "table log", options: { limit: 10 } }] },
  {
    name: "autocomplete a character name",
    weight: 4,
    steps: [
      {
        as: "player",
        autocomplete: "character show",
        options: (c) => ({ name: mine(c).slice(0, 2) }),
        focused: "name",
      },
    ],
  },
  { name: "help", weight: 1, steps: [{ as: "player", slash: "help" }] },

  // ---- Fate -------------------------------------------------------------------------------------
  {
    name: "fate check",
    weight: 20,
    systems: ["fate"],
    steps: [
      {
        as: "player",
        slash: "check",
        options: (c) => ({ skill: pick(c, ["athletics", "fight", "notice", "will"]) }),
        remember: "check",
      },
    ],
  },
  {
    name: "fate check against opposition",
    weight: 8,
    systems: ["fate"],
    steps: [
      {
        as: "player",
        slash: "check",
        options: (c) => ({ skill: "fight", action: "overcome", vs: Math.floor(c.random() * 4) }),
      },
    ],
  },

  // A player invokes their own character's aspect on the check they just rolled, paying a fate point
  // (docs/rules/fate.md §3.2): one scenario per player, as an invoke applies to the invoker's latest check.
  ...([0, 1, 2] as const).map(
    (i): Scenario => ({
      name: `fate check with an invoke (p${i})`,
      weight: 2,
      systems: ["fate"],
      prepare: [
        {
          as: `p${i}`,
          slash: "aspect add",
          options: (c) => ({ name: "Steady hands", character: mine(c), kind: "talent" }),
        },
        {
          as: "gm",
          slash: "fp give",
          options: (c) => ({ character: c.table.characters[i] as string, amount: 20 }),
        },
      ],
      steps: [
        {
          as: `p${i}`,
          slash: "check",
          options: (c) => ({ skill: pick(c, ["athletics", "fight", "notice"]) }),
        },
        { as: `p${i}`, slash: "invoke", options: { aspect: "Steady hands", pay: "fate-point" } },
      ],
    }),
  ),

  // ---- The Mountain Witch -------------------------------------------------------------------------
  {
    name: "mw conflict round with assists",
    weight: 8,
    systems: ["mountain-witch"],
    prepare: [
      { as: "gm", slash: "character create", options: { name: "Oni", kind: "npc", strength: "medium" } },
      // The starting matrix (before chapter 1): the zodiac gives Akio→Bara 2 (rat–ox); a player may
      // raise it by 1 at most, so Bara can assist Akio three times before the points run out.
      { as: "p0", slash: "trust set", options: { target: "Bara", value: 3 } },
    ],
    steps: [
      { as: "gm", slash: "conflict start", options: { opponent: "Oni" }, remember: "panel" },
      {
        parallel: [
          { as: "p0", click: "conflict.join", on: "panel", else: { as: "p0", slash: "conflict join" } },
          { as: "p1", click: "conflict.join", on: "panel", else: { as: "p1", slash: "conflict join" } },
          { as: "p2", click: "conflict.join", on: "panel", else: { as: "p2", slash: "conflict join" } },
        ],
      },
      { as: "p1", slash: "conflict assist", options: (c) => ({ target: c.table.characters[0] as string }) },
      { as: "gm", click: "conflict.roll", on: "panel", else: { as: "gm", slash: "conflict roll" } },
      { as: "gm", slash: "conflict show" },
      { as: "gm", slash: "conflict end" },
    ],
  },
  {
    name: "mw trust show",
    weight: 4,
    systems: ["mountain-witch"],
    steps: [{ as: "player", slash: "trust show" }],
  },
  {
    name: "mw secret trust round (DM submissions)",
    weight: 1,
    systems: ["mountain-witch"],
    // The first /chapter next starts chapter 1 (the starting matrix becomes final); later ones open rounds.
    prepare: [{ as: "gm", slash: "chapter next" }],
    steps: [
      { as: "gm", slash: "chapter next" },
      {
        parallel: [0, 1, 2].map((i) => ({
          as: `p${i}` as Role,
          slash: "trust set",
          dm: true,
          // Never Akio↔Bara (their trust feeds the conflicts' assists); 1 is always allowed at a
          // chapter start (a raise by at most 1, or a lowering).
          options: (c: StepContext) => ({ target: c.playerIndex === 2 ? "Akio" : "Chen", value: 1 }),
        })),
      },
      {
        parallel: [0, 1, 2].map((i) => ({
          as: `p${i}` as Role,
          click: "trust.submit",
          on: "dm",
          else: { as: `p${i}` as Role, slash: "trust submit", dm: true },
        })),
      },
    ],
  },

  // ---- Beast Hunters ------------------------------------------------------------------------------
  {
    name: "bh challenge: maneuvers and strikes",
    weight: 8,
    systems: ["beast-hunters"],
    prepare: [
      { as: "p0", slash: "reserve set", options: { total: 10000, ceiling: 40 } },
      // With initiative the hunter acts first.
      { as: "p0", slash: "character initiative", options: { physical: 3, social: 2, mental: 2 } },
    ],
    steps: [
      {
        as: "gm",
        slash: "challenge start",
        options: { sphere: "physical", phase: 1, name: "Wolf", traits: "Hungry:2", resources: "Fangs:A2" },
        remember: "panel",
      },
      // Akio's turn, as in the rules' worked example: the GM offers AP, Akio accepts and strikes for free.
      { as: "gm", slash: "challenge offer", options: { points: 12 } },
      { as: "p0", click: "challenge.accept", on: "panel", else: { as: "p0", slash: "challenge accept" } },
      { as: "p0", slash: "challenge strike", options: { dice: 3 } },
      // The Wolf's turn: the GM's maneuver (2d10) against Akio.
      { as: "gm", slash: "challenge maneuver", options: { target: "Akio" } },
      { as: "player", slash: "challenge show" },
      // Everyone gives up (the GM gets the points back), so the next challenge can start.
      {
        parallel: (["p0", "p1", "p2"] as const).map((as) => ({
          as,
          click: "challenge.giveup",
          on: "panel",
          else: { as, slash: "challenge giveup" },
        })),
      },
    ],
  },
  {
    // The GM spends from the hunters' reserve (docs/rules/beast-hunters.md §2.2), one point at a time
    // out of the 10,000 the challenge's preparation set (set here too, for a run of this one alone).
    name: "bh reserve spend",
    weight: 3,
    systems: ["beast-hunters"],
    prepare: [{ as: "p0", slash: "reserve set", options: { total: 10000, ceiling: 40 } }],
    steps: [{ as: "gm", slash: "reserve spend", options: { amount: 1, reason: "bench" } }],
  },
  {
    name: "bh reserve show",
    weight: 4,
    systems: ["beast-hunters"],
    steps: [{ as: "player", slash: "reserve show" }],
  },
];

/** What the floor bot is driven with: single slash commands it answers with a fixed reply. */
export const FLOOR_SCENARIOS: Scenario[] = [
  {
    name: "roll",
    weight: 1,
    steps: [{ as: "player", slash: "roll", options: (c) => ({ expression: pick(c, ROLLS) }) }],
  },
  { name: "table show", weight: 1, steps: [{ as: "player", slash: "table show" }] },
];

/**
 * The command classes of the cost-per-interaction table: each is measured on its own, in its own
 * window, driving only its scenarios. `goal` says which ratio goal applies: `/roll`'s or a game
 * action's.
 */
export interface CommandClass {
  /** What `--ratio-classes` matches (as does the name). */
  key: string;
  name: string;
  goal: "roll" | "game";
  scenarios: Scenario[];
}

const scenariosNamed = (pattern: RegExp): Scenario[] => {
  const found = SCENARIOS.filter((s) => pattern.test(s.name));
  if (found.length === 0) throw new Error(`no scenario matches ${pattern}`);
  return found;
};

export const COMMAND_CLASSES: CommandClass[] = [
  {
    key: "roll",
    name: "/roll 2d6+1",
    goal: "roll",
    scenarios: [
      {
        name: "roll 2d6+1",
        weight: 1,
        steps: [{ as: "player", slash: "roll", options: { expression: "2d6+1" } }],
      },
    ],
  },
  { key: "reserve", name: "/reserve spend", goal: "game", scenarios: scenariosNamed(/^bh reserve spend$/) },
  {
    key: "fate check",
    name: "Fate /check",
    goal: "game",
    scenarios: scenariosNamed(/^fate check( against opposition)?$/),
  },
  // Each run is a check and then an invoke on it: the class's cost is theirs together.
  {
    key: "fate invoke",
    name: "Fate /check + /invoke",
    goal: "game",
    scenarios: scenariosNamed(/^fate check with an invoke/),
  },
  {
    key: "mw conflict",
    name: "MW conflict round",
    goal: "game",
    scenarios: scenariosNamed(/^mw conflict round/),
  },
  {
    key: "mw trust",
    name: "MW trust (show, secret round)",
    goal: "game",
    scenarios: scenariosNamed(/^mw (trust show|secret trust)/),
  },
  { key: "bh challenge", name: "BH challenge", goal: "game", scenarios: scenariosNamed(/^bh challenge/) },
];

/** Every slash command path (e.g. "conflict assist") a scenario cannot run without. */
export function requiredCommands(scenario: Scenario): string[] {
  const out = new Set<string>();
  const walk = (step: Step, optional: boolean) => {
    if ("parallel" in step) for (const s of step.parallel) walk(s, optional);
    else if ("slash" in step) {
      if (!optional) out.add(step.slash);
    } else if ("autocomplete" in step) out.add(step.autocomplete);
    else if ("click" in step && step.else) walk(step.else, false);
  };
  for (const step of [...(scenario.prepare ?? []), ...scenario.steps]) walk(step, false);
  return [...out];
}
