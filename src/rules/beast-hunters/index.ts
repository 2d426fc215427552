/** Beast Hunters rules core (docs/rules/beast-hunters.md §2): pure, deterministic given a DiceSource. */
export * from "./adventure.js";
export * from "./challenge.js";
export * from "./challenge-start.js";
export * from "./challenge-state.js";
export * from "./damage.js";
export * from "./negotiation.js";
export * from "./parse.js";
export * from "./pricing.js";
export * from "./sheet.js";
export * from "./types.js";
