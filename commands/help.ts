import { defineCommand } from "./command.js";

export const HELP_TOPICS = ["start", "mountain-witch", "beast-hunters", "fate", "dice"] as const;

export const help = defineCommand({
  spec: {
    name: "help",
    inDMs: true,
    options: [{ name: "topic", type: "string", choices: HELP_TOPICS }],
  },
});
