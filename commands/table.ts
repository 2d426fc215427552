import { defineCommand } from "./command.js";

export const table = defineCommand({
  spec: {
    name: "table",
    subcommands: [
      {
        name: "setup",
        options: [
          {
            name: "system",
            type: "string",
            required: true,
            choices: ["mountain-witch", "beast-hunters", "fate"],
          },
          { name: "trust", type: "string", choices: ["secret", "open"] },
        ],
      },
      { name: "show" },
      { name: "gm", options: [{ name: "user", type: "user", required: true }] },
      {
        name: "language",
        options: [{ name: "lang", type: "string", required: true, choices: ["en", "ru"] }],
      },
      {
        name: "log",
        options: [
          { name: "limit", type: "integer", min: 1, max: 50 },
          { name: "format", type: "string", choices: ["markdown", "json"] },
          { name: "from", type: "string", maxLength: 40 },
          { name: "to", type: "string", maxLength: 40 },
        ],
      },
      {
        name: "stats",
        options: [
          { name: "user", type: "user" },
          { name: "period", type: "string", choices: ["day", "week", "month", "all"] },
          { name: "public", type: "boolean" },
        ],
      },
      { name: "export" },
      {
        name: "import",
        options: [
          { name: "file", type: "attachment", required: true },
          { name: "replace", type: "boolean" },
        ],
      },
      {
        name: "page",
        options: [
          { name: "public", type: "boolean" },
          { name: "revoke", type: "boolean" },
        ],
      },
      { name: "session", group: true, subcommands: [{ name: "end" }] },
      { name: "archive" },
    ],
  },
});
