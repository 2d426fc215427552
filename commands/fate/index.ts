import type { CommandModule } from "../command.js";
import { defineCommand } from "../command.js";
import type { GroupSpec, OptionSpec, SubcommandSpec } from "../spec.js";

const character: OptionSpec = { name: "character", type: "string", autocomplete: "character", maxLength: 64 };
const skill = (required: boolean): OptionSpec => ({
  name: "skill",
  type: "string",
  required,
  autocomplete: "fate-skill",
  maxLength: 40,
});
const aspect = (name: string, required: boolean): OptionSpec => ({
  name,
  type: "string",
  required,
  autocomplete: "fate-aspect",
  maxLength: 100,
});
const SLOTS = ["mild", "moderate", "severe", "mildPhysical", "mildMental"] as const;

const check = defineCommand({
  spec: {
    name: "check",
    options: [
      skill(true),
      { name: "action", type: "string", choices: ["overcome", "advantage", "attack", "defend"] },
      { name: "vs", type: "integer", min: -20, max: 20 },
      { name: "target", type: "string", autocomplete: "character", maxLength: 64 },
      { name: "bonus", type: "integer", min: -20, max: 20 },
      character,
      aspect("aspect", false),
    ],
  },
});

const invoke = defineCommand({
  spec: {
    name: "invoke",
    options: [
      aspect("aspect", true),
      // +2 to a passive opposition is paid with `/fp spend on:passive` (the check panel's button).
      { name: "mode", type: "string", choices: ["plus2", "reroll"] },
      { name: "pay", type: "string", choices: ["free-invoke", "fate-point"] },
      { name: "check", type: "string", autocomplete: "fate-check", maxLength: 12 },
    ],
  },
});

const aspectCommand = defineCommand({
  spec: {
    name: "aspect",
    subcommands: [
      {
        name: "add",
        options: [
          { name: "name", type: "string", required: true, maxLength: 100 },
          character,
          { name: "invokes", type: "integer", min: 0, max: 5 },
          {
            name: "kind",
            type: "string",
            choices: ["situational", "boost", "ambition", "belief", "connections", "flaw", "talent"],
          },
        ],
      },
      { name: "remove", options: [aspect("name", true), character] },
      { name: "list" },
      { name: "compel", options: [aspect("name", true)] },
    ],
  },
});

const fp = defineCommand({
  spec: {
    name: "fp",
    subcommands: [
      { name: "show", options: [character] },
      {
        name: "give",
        options: [
          { ...character, required: true },
          { name: "amount", type: "integer", required: true, min: -20, max: 20 },
          { name: "reason", type: "string", maxLength: 200 },
        ],
      },
      { name: "refresh" },
      {
        name: "spend",
        options: [
          { name: "on", type: "string", required: true, choices: ["stunt", "detail", "passive"] },
          { name: "reason", type: "string", required: true, maxLength: 200 },
          { name: "stunt", type: "string", maxLength: 100 },
          aspect("aspect", false),
          character,
        ],
      },
    ],
  },
});

const compel = defineCommand({
  spec: {
    name: "compel",
    options: [
      { name: "target", type: "string", required: true, autocomplete: "character", maxLength: 64 },
      aspect("aspect", true),
      { name: "points", type: "integer", required: true, min: 1, max: 5 },
      { name: "by", type: "string", autocomplete: "character", maxLength: 64 },
    ],
  },
});

const stress = defineCommand({
  spec: {
    name: "stress",
    subcommands: [
      {
        name: "hit",
        options: [
          { ...character, required: true },
          { name: "shifts", type: "integer", required: true, min: 0, max: 30 },
          { name: "kind", type: "string", choices: ["physical", "mental"] },
        ],
      },
      { name: "clear", options: [character] },
    ],
  },
});

const consequence = defineCommand({
  spec: {
    name: "consequence",
    subcommands: [
      {
        name: "add",
        options: [
          { ...character, required: true },
          { name: "name", type: "string", required: true, maxLength: 100 },
          { name: "severity", type: "string", choices: SLOTS },
        ],
      },
      {
        name: "clear",
        options: [
          { ...character, required: true },
          { name: "severity", type: "string", required: true, choices: SLOTS },
        ],
      },
    ],
  },
});

const participant = (name: string, required: boolean): OptionSpec => ({
  name,
  type: "string",
  required,
  autocomplete: "character",
  maxLength: 64,
});

const contest = defineCommand({
  spec: {
    name: "contest",
    subcommands: [
      {
        name: "start",
        options: [
          participant("first", true),
          participant("second", true),
          participant("third", false),
          participant("fourth", false),
          { name: "title", type: "string", maxLength: 100 },
          { name: "vs", type: "integer", min: -20, max: 20 },
        ],
      },
      {
        name: "roll",
        options: [
          skill(false),
          character,
          { name: "bonus", type: "integer", min: -20, max: 20 },
          { name: "forfeit", type: "boolean" },
        ],
      },
      { name: "resolve" },
      { name: "show" },
      { name: "end" },
    ],
  },
});

/** `/faction` (docs/rules/fate.md §3.5): the GM's factions with aspects, abilities, stunts, fate points and stress. */
const factionName = {
  name: "name",
  type: "string",
  required: true,
  autocomplete: "fate-faction",
  maxLength: 64,
} as const;
const FACTION_ABILITY_CHOICES = [
  "military",
  "magic",
  "resources",
  "commerce",
  "popularity",
  "espionage",
  "art",
];
const faction = defineCommand({
  spec: {
    name: "faction",
    subcommands: [
      {
        name: "create",
        options: [
          factionName,
          { name: "abilities", type: "string", maxLength: 300 },
          { name: "aspects", type: "string", maxLength: 500 },
          { name: "stunts", type: "string", maxLength: 1000 },
        ],
      },
      { name: "show", options: [{ ...factionName, required: false }] },
      {
        name: "fp",
        options: [factionName, { name: "amount", type: "integer", required: true, min: -20, max: 20 }],
      },
      {
        name: "hit",
        options: [
          factionName,
          { name: "shifts", type: "integer", required: true, min: 0, max: 30 },
          { name: "track", type: "string", required: true, choices: ["politics", "army", "economy"] },
          { name: "consequence", type: "string", maxLength: 100 },
        ],
      },
      {
        name: "consequence",
        options: [
          factionName,
          { name: "consequence", type: "string", required: true, maxLength: 100 },
          { name: "severity", type: "string", choices: ["mild", "moderate", "severe"] },
        ],
      },
      {
        name: "check",
        options: [
          { name: "faction", type: "string", required: true, autocomplete: "fate-faction", maxLength: 64 },
          { name: "ability", type: "string", required: true, choices: FACTION_ABILITY_CHOICES },
          { name: "action", type: "string", choices: ["overcome", "advantage", "attack", "defend"] },
          { name: "vs", type: "integer", min: -20, max: 20 },
          { name: "bonus", type: "integer", min: -20, max: 20 },
        ],
      },
      {
        name: "scene",
        options: [factionName, { name: "from", type: "string", autocomplete: "character", maxLength: 64 }],
      },
      {
        name: "clear",
        options: [
          factionName,
          { name: "severity", type: "string", required: true, choices: ["mild", "moderate", "severe"] },
        ],
      },
      { name: "delete", options: [factionName] },
    ],
  },
});

/** `/fate-challenge` (docs/rules/fate.md §3.4): a series of overcome rolls, one different skill per task. */
const fateChallenge = defineCommand({
  spec: {
    name: "fate-challenge",
    subcommands: [
      {
        name: "start",
        options: [
          { name: "title", type: "string", required: true, maxLength: 100 },
          { name: "tasks", type: "string", required: true, maxLength: 500 },
          { name: "vs", type: "integer", min: -20, max: 20 },
        ],
      },
      {
        name: "roll",
        options: [
          { name: "task", type: "string", required: true, maxLength: 100 },
          skill(true),
          { name: "bonus", type: "integer", min: -20, max: 20 },
          character,
        ],
      },
      { name: "show" },
      { name: "end" },
    ],
  },
});

export const commands: CommandModule[] = [
  check,
  invoke,
  aspectCommand,
  fp,
  compel,
  stress,
  consequence,
  contest,
  faction,
  fateChallenge,
];

/** Subcommands this game adds to `/character` (sheet fields). */
export const characterSubcommands: (SubcommandSpec | GroupSpec)[] = [
  {
    name: "skill",
    options: [
      skill(false),
      { name: "value", type: "integer", min: 0, max: 4 },
      { name: "ranks", type: "string", maxLength: 500 },
      character,
    ],
  },
  {
    name: "stunt",
    options: [
      { name: "name", type: "string", required: true, maxLength: 100 },
      { name: "text", type: "string", maxLength: 1000 },
      { name: "magic", type: "boolean" },
      { name: "ultimate", type: "string", maxLength: 100 },
      { name: "remove", type: "boolean" },
      character,
    ],
  },
  {
    name: "race",
    options: [
      { name: "name", type: "string", required: true, maxLength: 100 },
      { name: "bonuses", type: "string", maxLength: 300 },
      { name: "stunt1", type: "string", maxLength: 1000 },
      { name: "stunt2", type: "string", maxLength: 1000 },
      character,
    ],
  },
  {
    name: "ratings",
    options: [
      { name: "refresh", type: "integer", min: 0, max: 10 },
      { name: "wr", type: "integer", min: 0, max: 10 },
      { name: "ar", type: "integer", min: 0, max: 10 },
      character,
    ],
  },
  {
    name: "ultimate",
    options: [{ name: "stunt", type: "string", required: true, maxLength: 100 }, character],
  },
];

/** Subcommands this game adds to the shared `/conflict` command (Mountain Witch and Fate both have conflicts). */
export const conflictSubcommands: SubcommandSpec[] = [
  { name: "start", options: [{ name: "title", type: "string", maxLength: 100 }] },
  { name: "concede", options: [character] },
  { name: "join", options: [character, { name: "side", type: "string", choices: ["pc", "npc"] }] },
  { name: "leave", options: [character] },
  { name: "order", options: [{ name: "order", type: "string", required: true, maxLength: 500 }] },
  { name: "next" },
  { name: "end" },
  { name: "show" },
];
