import type { AutocompleteSource, SystemHooks, UseCase } from "../use-case.js";
import { aspectAdd, aspectCompel, aspectList, aspectRemove } from "./aspect.js";
import { aspectSource, skillSource } from "./autocomplete.js";
import { applyAttackHit, check, claimAdvantage, defend, invoke, invokeMenu } from "./check.js";
import { compel, compelAccept, compelBuyOff } from "./compel.js";
import { conflictConcede, conflictEnd, conflictShow, conflictStart } from "./conflict.js";
import { contestResolve, contestRoll, contestShow, contestStart } from "./contest.js";
import { factionCreate, factionDelete, factionFp, factionHit, factionShow } from "./faction.js";
import { fpGive, fpRefresh, fpShow } from "./fp.js";
import {
  characterRace,
  characterRatings,
  characterSkill,
  characterStunt,
  characterUltimate,
  hooks as sheetHooks,
} from "./sheet.js";
import { consequenceAdd, consequenceClear, stressClear, stressHit } from "./stress.js";

// biome-ignore lint/suspicious/noExplicitAny: each use case has its own intent type
export const useCases: UseCase<any>[] = [
  check,
  invoke,
  invokeMenu,
  defend,
  applyAttackHit,
  claimAdvantage,
  aspectAdd,
  aspectRemove,
  aspectList,
  aspectCompel,
  fpShow,
  fpGive,
  fpRefresh,
  compel,
  compelAccept,
  compelBuyOff,
  stressHit,
  stressClear,
  consequenceAdd,
  consequenceClear,
  conflictStart,
  conflictConcede,
  conflictEnd,
  conflictShow,
  contestStart,
  contestRoll,
  contestResolve,
  contestShow,
  characterSkill,
  characterStunt,
  characterRace,
  characterRatings,
  characterUltimate,
  factionCreate,
  factionShow,
  factionFp,
  factionHit,
  factionDelete,
];
export const autocompleteSources: AutocompleteSource[] = [skillSource, aspectSource];
export const hooks: SystemHooks = sheetHooks;
