import { defineCommand } from "./command.js";

export const roll = defineCommand({
  spec: {
    name: "roll",
    options: [
      { name: "expression", type: "string", required: true, maxLength: 200 },
      { name: "secret", type: "boolean" },
      { name: "reason", type: "string", maxLength: 200 },
      { name: "gm-copy", type: "boolean" },
    ],
  },
});
