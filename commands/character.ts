import { ZODIAC_SIGNS } from "../src/rules/mountain-witch/zodiac.js";
import { defineCommand } from "./command.js";
import type { GroupSpec, SubcommandSpec } from "./spec.js";

const common: SubcommandSpec[] = [
  {
    name: "create",
    options: [
      { name: "name", type: "string", required: true, maxLength: 64 },
      { name: "player", type: "user" },
      { name: "kind", type: "string", choices: ["pc", "npc"] },
      { name: "strength", type: "string", choices: ["weak", "medium", "strong"] },
      // 12 signs: Discord allows up to 25 choices.
      { name: "zodiac", type: "string", choices: ZODIAC_SIGNS },
    ],
  },
  { name: "show", options: [{ name: "name", type: "string", autocomplete: "character", maxLength: 64 }] },
  { name: "list" },
  {
    name: "rename",
    options: [
      { name: "name", type: "string", required: true, autocomplete: "character", maxLength: 64 },
      { name: "new-name", type: "string", required: true, maxLength: 64 },
    ],
  },
  {
    name: "delete",
    options: [{ name: "name", type: "string", required: true, autocomplete: "character", maxLength: 64 }],
  },
  {
    name: "export",
    options: [{ name: "name", type: "string", required: true, autocomplete: "character", maxLength: 64 }],
  },
  {
    name: "import",
    options: [
      { name: "file", type: "attachment" },
      { name: "text", type: "string", maxLength: 6000 },
    ],
  },
];

/** `/character`: the common subcommands, then the sheet subcommands of the games given. */
export function characterCommand(sheets: readonly (readonly (SubcommandSpec | GroupSpec)[])[]) {
  return defineCommand({ spec: { name: "character", subcommands: [...common, ...sheets.flat()] } });
}
