import { defineCommand } from "./command.js";

/** `/macro`: saved rolls, per user and guild. */
export const macro = defineCommand({
  spec: {
    name: "macro",
    subcommands: [
      {
        name: "save",
        options: [
          { name: "name", type: "string", required: true, maxLength: 32 },
          { name: "expression", type: "string", required: true, maxLength: 200 },
        ],
      },
      {
        name: "roll",
        options: [
          { name: "name", type: "string", required: true, autocomplete: "macro", maxLength: 32 },
          { name: "character", type: "string", autocomplete: "character", maxLength: 64 },
          { name: "secret", type: "boolean" },
          { name: "gm-copy", type: "boolean" },
        ],
      },
      { name: "list" },
      {
        name: "delete",
        options: [{ name: "name", type: "string", required: true, autocomplete: "macro", maxLength: 32 }],
      },
    ],
  },
});
