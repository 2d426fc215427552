import type { AutocompleteSource, SystemHooks, UseCase } from "../use-case.js";
import { aspectAdd, aspectCompel, aspectList, aspectRemove } from "./aspect.js";
import { applyAttackHit, defend, resolveAttack, tradeHitForBoost } from "./attack.js";
import { aspectSource, factionSource, skillSource } from "./autocomplete.js";
import { check, claimAdvantage, setDifficulty } from "./check.js";
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
import { contestEnd, contestResolve, contestRoll, contestShow, contestStart } from "./contest.js";
import {
  factionClear,
  factionCreate,
  factionDelete,
  factionFp,
  factionScene,
  factionShow,
} from "./faction.js";
import { factionCheck, factionInvokeAspect, factionInvokeMenu } from "./faction-check.js";
import {
  factionHit,
  factionHitWay,
  factionNameConsequence,
  factionNameConsequenceForm,
} from "./faction-hit.js";
import {
  fateChallengeEnd,
  fateChallengeInvoke,
  fateChallengeInvokeMenu,
  fateChallengeRoll,
  fateChallengeShow,
  fateChallengeStart,
} from "./fate-challenge.js";
import { fpGive, fpRefresh, fpShow, fpSpend, fpSpendForm } from "./fp.js";
import { absorbChoice } from "./harm.js";
import { checkSource, invoke, invokeMenu } from "./invoke.js";
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
  contestEnd,
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
  factionClear,
  factionHitWay,
  factionNameConsequence,
  factionNameConsequenceForm,
  factionScene,
  factionInvokeMenu,
  factionInvokeAspect,
  fpSpend,
  fpSpendForm,
  compelGmAgree,
  compelGmDecline,
  fateChallengeStart,
  fateChallengeRoll,
  fateChallengeShow,
  fateChallengeEnd,
  fateChallengeInvokeMenu,
  fateChallengeInvoke,
];
export const autocompleteSources: AutocompleteSource[] = [
  skillSource,
  aspectSource,
  checkSource,
  factionSource,
];
export const hooks: SystemHooks = sheetHooks;
