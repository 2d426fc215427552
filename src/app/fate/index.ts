import type { AutocompleteSource, SystemHooks, UseCase } from "../use-case.js";
import { aspectAdd, aspectCompel, aspectList, aspectRemove } from "./aspect.js";
import { aspectSource, skillSource } from "./autocomplete.js";
import {
  applyAttackHit,
  check,
  checkSource,
  claimAdvantage,
  defend,
  invoke,
  invokeMenu,
  resolveAttack,
  setDifficulty,
  tradeHitForBoost,
} from "./check.js";
import { compel, compelAccept, compelBuyOff, compelGmAgree, compelGmDecline } from "./compel.js";
import {
  conflictConcede,
  conflictEnd,
  conflictJoin,
  conflictLeave,
  conflictNext,
  conflictOrder,
  conflictShow,
  conflictStart,
} from "./conflict.js";
import { contestResolve, contestRoll, contestShow, contestStart } from "./contest.js";
import {
  factionCheck,
  factionCreate,
  factionDelete,
  factionFp,
  factionHit,
  factionHitWay,
  factionInvokeAspect,
  factionInvokeMenu,
  factionScene,
  factionShow,
} from "./faction.js";
import {
  fateChallengeEnd,
  fateChallengeRoll,
  fateChallengeShow,
  fateChallengeStart,
} from "./fate-challenge.js";
import { fpGive, fpRefresh, fpShow, fpSpend } from "./fp.js";
import { absorbChoice } from "./harm.js";
import {
  characterRace,
  characterRatings,
  characterSkill,
  characterStunt,
  characterUltimate,
  hooks as sheetHooks,
} from "./sheet.js";
import { consequenceAdd, consequenceClear, nameConsequenceForm, stressClear, stressHit } from "./stress.js";

// biome-ignore lint/suspicious/noExplicitAny: each use case has its own intent type
export const useCases: UseCase<any>[] = [
  check,
  invoke,
  invokeMenu,
  defend,
  applyAttackHit,
  resolveAttack,
  tradeHitForBoost,
  setDifficulty,
  absorbChoice,
  nameConsequenceForm,
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
  conflictJoin,
  conflictLeave,
  conflictOrder,
  conflictNext,
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
  factionCheck,
  factionHitWay,
  factionScene,
  factionInvokeMenu,
  factionInvokeAspect,
  fpSpend,
  compelGmAgree,
  compelGmDecline,
  fateChallengeStart,
  fateChallengeRoll,
  fateChallengeShow,
  fateChallengeEnd,
];
export const autocompleteSources: AutocompleteSource[] = [skillSource, aspectSource, checkSource];
export const hooks: SystemHooks = sheetHooks;
