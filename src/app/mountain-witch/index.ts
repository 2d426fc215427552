import type { AutocompleteSource, UseCase } from "../use-case.js";

// biome-ignore lint/suspicious/noExplicitAny: each use case has its own intent type
export const useCases: UseCase<any>[] = [];
export const autocompleteSources: AutocompleteSource[] = [];
export const hooks: import("../use-case.js").SystemHooks = {};
