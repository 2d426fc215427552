import { DARK_FATES } from "../../src/rules/mountain-witch/dark-fates.js";
import { ZODIAC_SIGNS } from "../../src/rules/mountain-witch/zodiac.js";
import type { CommandModule } from "../command.js";
import { defineCommand } from "../command.js";
import type { GroupSpec, OptionSpec, SubcommandSpec } from "../spec.js";

const QUALITIES = ["partial", "normal", "critical", "double"] as const;
const STRENGTHS = ["weak", "medium", "strong"] as const;

const character = (optionName = "character"): OptionSpec => ({
  name: optionName,
  type: "string",
  autocomplete: "character",
  maxLength: 64,
});
const participant = (optionName: string, required = true): OptionSpec => ({
  name: optionName,
  type: "string",
  required,
  autocomplete: "mw-participant",
  maxLength: 64,
});

const trust = defineCommand({
  spec: {
    name: "trust",
    inDMs: true,
    subcommands: [
      { name: "show", options: [{ name: "table", type: "string", autocomplete: "mw-table" }, character()] },
      { name: "matrix" },
      {
        name: "set",
        options: [
          { name: "target", type: "string", required: true, autocomplete: "mw-trust-target", maxLength: 64 },
          { name: "value", type: "integer", required: true, min: 0, max: 20 },
          { name: "table", type: "string", autocomplete: "mw-table" },
          character(),
        ],
      },
      { name: "submit", options: [{ name: "table", type: "string", autocomplete: "mw-table" }, character()] },
      { name: "reveal" },
    ],
  },
});

const chapter = defineCommand({ spec: { name: "chapter", subcommands: [{ name: "next" }] } });

const duel = defineCommand({
  spec: {
    name: "duel",
    subcommands: [
      {
        name: "challenge",
        options: [
          { name: "opponent", type: "string", required: true, autocomplete: "character", maxLength: 64 },
          { name: "lethal", type: "boolean" },
          character(),
        ],
      },
      { name: "next" },
      { name: "strike" },
      { name: "peek" },
      {
        name: "damage",
        options: [
          { name: "quality", type: "string", required: true, choices: QUALITIES },
          { name: "condition", type: "string", maxLength: 100 },
          { name: "kill", type: "boolean" },
        ],
      },
      { name: "round" },
      { name: "end" },
      {
        name: "trust",
        options: [
          { name: "use", type: "string", required: true, choices: ["help", "betray", "narration"] },
          { name: "target", type: "string", required: true, autocomplete: "character", maxLength: 64 },
          { name: "points", type: "integer", min: 1, max: 20 },
          character(),
        ],
      },
    ],
  },
});

const darkfate = defineCommand({
  spec: {
    name: "darkfate",
    subcommands: [
      { name: "deal", options: [{ name: "mode", type: "string", choices: ["deal", "choose"] }] },
      { name: "redraw", options: [character()] },
      { name: "keep", options: [character()] },
      {
        name: "reveal",
        // Only one's own characters (the GM: every player character): never another's fate.
        options: [{ name: "character", type: "string", autocomplete: "mw-own-character", maxLength: 64 }],
      },
      { name: "show" },
      {
        name: "choose",
        options: [{ name: "fate", type: "string", required: true, choices: DARK_FATES }, character()],
      },
    ],
  },
});

const damage = defineCommand({
  spec: {
    name: "damage",
    subcommands: [
      { name: "list", options: [character()] },
      {
        name: "clear",
        options: [
          { ...character(), required: true },
          { name: "entry", type: "string", required: true, autocomplete: "mw-damage-entry", maxLength: 20 },
        ],
      },
    ],
  },
});

/** This game's own slash commands. */
export const commands: CommandModule[] = [trust, chapter, duel, darkfate, damage];

/** Subcommands this game adds to `/character` (sheet fields). */
export const characterSubcommands: (SubcommandSpec | GroupSpec)[] = [
  {
    name: "abilities",
    options: [
      character("name"),
      { name: "first", type: "string", maxLength: 100 },
      { name: "second", type: "string", maxLength: 100 },
      { name: "third", type: "string", maxLength: 100 },
    ],
  },
  {
    name: "background",
    options: [
      { name: "ronin", type: "string", maxLength: 1000 },
      { name: "money", type: "string", maxLength: 1000 },
      { name: "text", type: "string", maxLength: 1000 },
      character("name"),
    ],
  },
  {
    name: "props",
    options: [{ name: "text", type: "string", required: true, maxLength: 1000 }, character("name")],
  },
  {
    name: "zodiac",
    options: [{ name: "sign", type: "string", required: true, choices: ZODIAC_SIGNS }, character("name")],
  },
  {
    name: "status",
    options: [
      { ...character("name"), required: true },
      { name: "status", type: "string", required: true, choices: ["active", "incapacitated", "dead"] },
    ],
  },
  { name: "recover", options: [character("name")] },
];

/** Subcommands this game adds to the shared `/conflict` command. */
export const conflictSubcommands: SubcommandSpec[] = [
  {
    name: "start",
    options: [
      { name: "opponent", type: "string", autocomplete: "character", maxLength: 64 },
      { name: "strength", type: "string", choices: STRENGTHS },
      { name: "title", type: "string", maxLength: 100 },
      { name: "mode", type: "string", choices: ["opposed", "common-danger"] },
    ],
  },
  {
    name: "add",
    options: [
      { name: "name", type: "string", required: true, autocomplete: "character", maxLength: 64 },
      { name: "strength", type: "string", choices: STRENGTHS },
    ],
  },
  { name: "join", options: [character(), participant("against", false)] },
  { name: "leave", options: [participant("character", false)] },
  { name: "assist", options: [participant("target"), character()] },
  {
    name: "betray",
    options: [
      participant("target"),
      { name: "points", type: "integer", required: true, min: 1, max: 20 },
      character(),
    ],
  },
  {
    name: "trade",
    options: [{ name: "level", type: "string", choices: ["normal", "critical", "double"] }, character()],
  },
  { name: "kill", options: [participant("target"), participant("character", false)] },
  { name: "roll", options: [{ name: "all", type: "boolean" }] },
  { name: "narrate", options: [participant("character"), { ...character("buyer") }] },
  {
    name: "damage",
    options: [
      participant("target", false),
      { name: "quality", type: "string", choices: QUALITIES },
      participant("character", false),
      { name: "ability", type: "string", maxLength: 100 },
      { name: "condition", type: "string", maxLength: 100 },
      { name: "kill", type: "boolean" },
    ],
  },
  { name: "show" },
  { name: "end" },
];
