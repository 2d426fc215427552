import { type CommandModule, defineCommand } from "../command.js";
import type { GroupSpec, OptionSpec, SubcommandSpec } from "../spec.js";

const character: OptionSpec = { name: "character", type: "string", autocomplete: "character", maxLength: 64 };
const target: OptionSpec = { name: "target", type: "string", autocomplete: "bh-target", maxLength: 64 };
const sphere = (required: boolean): OptionSpec => ({
  name: "sphere",
  type: "string",
  required,
  choices: ["physical", "social", "mental"],
});

/** `/reserve`: the hunters set it, the GM spends it (docs/rules/beast-hunters.md §2.2–2.3). */
export const reserve = defineCommand({
  spec: {
    name: "reserve",
    subcommands: [
      {
        name: "set",
        options: [
          { name: "total", type: "integer", required: true, min: 0, max: 10_000 },
          { name: "ceiling", type: "integer", required: true, min: 1, max: 10_000 },
          { name: "adventure", type: "string", choices: ["new", "same"] },
        ],
      },
      { name: "show" },
      {
        name: "spend",
        options: [
          { name: "amount", type: "integer", required: true, min: 1, max: 10_000 },
          { name: "reason", type: "string", required: true, maxLength: 200 },
        ],
      },
      {
        name: "concede",
        options: [
          { name: "phase", type: "integer", required: true, choices: [1, 2, 3] },
          { name: "rating", type: "integer", min: 1, max: 10_000 },
          { name: "hunters", type: "string", maxLength: 300 },
        ],
      },
    ],
  },
});

/** `/challenge`: buy the obstacle and play the conflict (docs/rules/beast-hunters.md §2.4–2.5). */
export const challenge = defineCommand({
  spec: {
    name: "challenge",
    subcommands: [
      {
        name: "negotiate",
        options: [
          sphere(false),
          { name: "phase", type: "integer", choices: [1, 2, 3] },
          { name: "name", type: "string", maxLength: 64 },
          { name: "hunters", type: "string", maxLength: 300 },
          { name: "climax", type: "boolean" },
        ],
      },
      {
        name: "start",
        options: [
          sphere(true),
          { name: "phase", type: "integer", required: true, choices: [1, 2, 3] },
          { name: "name", type: "string", maxLength: 64 },
          { name: "traits", type: "string", maxLength: 300 },
          { name: "resources", type: "string", maxLength: 300 },
          { name: "initiative", type: "integer", min: 0, max: 40 },
          { name: "boxes", type: "string", maxLength: 30 },
          { name: "neutralize", type: "string", maxLength: 200 },
          { name: "climax", type: "boolean" },
          { name: "pre-activate", type: "string", maxLength: 200 },
          { name: "gm-pre-activate", type: "string", maxLength: 100 },
          { name: "first", type: "string", choices: ["hunters", "gm"] },
          { name: "hunters", type: "string", maxLength: 300 },
          { name: "form", type: "boolean" },
        ],
      },
      {
        name: "obstacle",
        options: [
          { name: "name", type: "string", required: true, maxLength: 64 },
          { name: "traits", type: "string", maxLength: 300 },
          { name: "resources", type: "string", maxLength: 300 },
          { name: "initiative", type: "integer", min: 0, max: 40 },
          { name: "boxes", type: "string", maxLength: 30 },
        ],
      },
      {
        name: "activate",
        options: [
          { name: "trait", type: "string", required: true, autocomplete: "bh-trait", maxLength: 64 },
          { name: "as", type: "string", required: true, choices: ["attack", "defense"] },
          character,
        ],
      },
      {
        name: "reassign",
        options: [
          { name: "trait", type: "string", required: true, autocomplete: "bh-trait", maxLength: 300 },
          { name: "as", type: "string", required: true, choices: ["attack", "defense"] },
          character,
        ],
      },
      { name: "maneuver", options: [target, character] },
      {
        name: "offer",
        options: [
          { name: "points", type: "integer", required: true, min: 1, max: 100 },
          target,
          { name: "neutralize", type: "string", autocomplete: "bh-resource", maxLength: 64 },
          { name: "restore", type: "string", autocomplete: "bh-resource", maxLength: 64 },
        ],
      },
      { name: "accept", options: [character] },
      {
        name: "strike",
        options: [{ name: "dice", type: "integer", required: true, min: 1, max: 25 }, target, character],
      },
      {
        name: "neutralize",
        options: [
          { name: "resource", type: "string", required: true, autocomplete: "bh-resource", maxLength: 64 },
          target,
          character,
        ],
      },
      {
        name: "restore",
        options: [
          { name: "resource", type: "string", required: true, autocomplete: "bh-resource", maxLength: 64 },
          character,
        ],
      },
      {
        name: "task",
        options: [
          { name: "name", type: "string", required: true, maxLength: 64 },
          { name: "difficulty", type: "integer", min: 1, max: 13 },
        ],
      },
      {
        name: "achieve",
        options: [
          { name: "task", type: "string", required: true, autocomplete: "bh-task", maxLength: 64 },
          { name: "dice", type: "integer", required: true, min: 1, max: 25 },
          target,
          character,
          { name: "pool", type: "boolean" },
        ],
      },
      {
        name: "resolve",
        options: [{ name: "task", type: "string", required: true, autocomplete: "bh-task", maxLength: 64 }],
      },
      { name: "giveup", options: [character] },
      { name: "show" },
      { name: "end", options: [{ name: "concede", type: "boolean" }] },
      {
        name: "help",
        options: [
          { name: "hunter", type: "string", required: true, autocomplete: "bh-target", maxLength: 64 },
          { name: "trait", type: "string", required: true, autocomplete: "bh-trait", maxLength: 64 },
          character,
        ],
      },
      {
        name: "switch",
        options: [
          { name: "from", type: "string", required: true, autocomplete: "bh-target", maxLength: 64 },
          { name: "to", type: "string", required: true, autocomplete: "bh-target", maxLength: 64 },
          { name: "points", type: "integer", min: 1, max: 1000 },
          character,
        ],
      },
      {
        name: "pass",
        options: [
          { name: "to", type: "string", required: true, autocomplete: "bh-target", maxLength: 64 },
          target,
          { name: "points", type: "integer", min: 1, max: 1000 },
          { name: "switch-to", type: "string", autocomplete: "bh-target", maxLength: 64 },
          character,
        ],
      },
      {
        name: "fate",
        options: [
          { name: "choice", type: "string", required: true, choices: ["survive", "retire"] },
          character,
        ],
      },
      { name: "skip", options: [character] },
    ],
  },
});

/** This game's own slash commands. */
export const commands: CommandModule[] = [reserve, challenge];

const sheetSubcommands: (SubcommandSpec | GroupSpec)[] = [
  {
    name: "trait",
    group: true,
    subcommands: [
      {
        name: "set",
        options: [
          { name: "name", type: "string", required: true, maxLength: 64 },
          sphere(true),
          { name: "value", type: "integer", required: true, min: 1, max: 40 },
          character,
        ],
      },
      {
        name: "remove",
        options: [
          { name: "name", type: "string", required: true, autocomplete: "bh-trait", maxLength: 64 },
          character,
        ],
      },
      {
        name: "replace",
        options: [{ name: "traits", type: "string", required: true, maxLength: 1000 }, character],
      },
    ],
  },
  {
    name: "resource",
    group: true,
    subcommands: [
      {
        name: "set",
        options: [
          { name: "name", type: "string", required: true, maxLength: 64 },
          {
            name: "category",
            type: "string",
            required: true,
            choices: ["PA", "PD", "SA", "SD", "MA", "MD"],
          },
          { name: "value", type: "integer", required: true, min: 1, max: 40 },
          character,
        ],
      },
      {
        name: "remove",
        options: [
          { name: "name", type: "string", required: true, autocomplete: "bh-resource", maxLength: 64 },
          character,
        ],
      },
      {
        name: "replace",
        options: [{ name: "resources", type: "string", required: true, maxLength: 1000 }, character],
      },
    ],
  },
  {
    name: "tattoo",
    group: true,
    subcommands: [
      { name: "add", options: [{ name: "text", type: "string", required: true, maxLength: 200 }, character] },
      {
        name: "remove",
        options: [{ name: "number", type: "integer", required: true, min: 1, max: 50 }, character],
      },
    ],
  },
  {
    name: "initiative",
    options: [
      { name: "physical", type: "integer", min: 0, max: 40 },
      { name: "social", type: "integer", min: 0, max: 40 },
      { name: "mental", type: "integer", min: 0, max: 40 },
      character,
    ],
  },
  {
    name: "boxes",
    options: [
      { name: "physical", type: "string", maxLength: 30 },
      { name: "social", type: "string", maxLength: 30 },
      { name: "mental", type: "string", maxLength: 30 },
      character,
    ],
  },
  {
    name: "vp",
    group: true,
    subcommands: [
      {
        name: "add",
        options: [
          { name: "amount", type: "integer", required: true, min: 1, max: 1000 },
          { name: "reason", type: "string", required: true, maxLength: 200 },
          character,
        ],
      },
      {
        name: "spend",
        options: [
          { name: "amount", type: "integer", required: true, min: 1, max: 1000 },
          { name: "reason", type: "string", required: true, maxLength: 200 },
          character,
        ],
      },
    ],
  },
];

/** Subcommands this game adds to `/character` (sheet fields). */
export const characterSubcommands: (SubcommandSpec | GroupSpec)[] = sheetSubcommands;
/** Subcommands this game adds to the shared `/conflict` command (Mountain Witch and Fate both have conflicts). */
export const conflictSubcommands: SubcommandSpec[] = [];
