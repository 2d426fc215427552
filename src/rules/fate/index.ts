/** Fate of Panavea (docs/rules/fate.md §3): the pure rules core. */
export * from "./aspects.js";
export * from "./challenge.js";
export * from "./character.js";
export * from "./check.js";
export * from "./compel.js";
export * from "./conflict.js";
export * from "./contest.js";
export * from "./dice.js";
export * from "./faction.js";
export * from "./fate-points.js";
export * from "./ladder.js";
export * from "./outcomes.js";
export * from "./skills.js";
export * from "./stress.js";
