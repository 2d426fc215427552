import type { AutocompleteSource, UseCase } from "../use-case.js";
import { characterNames } from "./autocomplete.js";
import {
  characterCreate,
  characterDelete,
  characterDeleteConfirm,
  characterList,
  characterRename,
  characterShow,
} from "./character.js";
import { characterExport, characterImport } from "./character-transfer.js";
import { help } from "./help.js";
import { macroDelete, macroList, macroRoll, macroSave, savedRollNames } from "./macro.js";
import { tablePage } from "./page.js";
import { roll } from "./roll.js";
import { tableSessionEnd } from "./session.js";
import { tableStats } from "./stats.js";
import {
  tableArchive,
  tableArchiveConfirm,
  tableGm,
  tableLanguage,
  tableLog,
  tableSetup,
  tableShow,
} from "./table.js";
import { tableExport, tableImport, tableImportConfirm } from "./table-transfer.js";

// biome-ignore lint/suspicious/noExplicitAny: each use case has its own intent type
export const useCases: UseCase<any>[] = [
  help,
  roll,
  tableSetup,
  tableShow,
  tableGm,
  tableLanguage,
  tableLog,
  tableStats,
  tableExport,
  tableImport,
  tableImportConfirm,
  tablePage,
  tableSessionEnd,
  tableArchive,
  tableArchiveConfirm,
  characterCreate,
  characterShow,
  characterList,
  characterRename,
  characterDelete,
  characterDeleteConfirm,
  characterExport,
  characterImport,
  macroSave,
  macroRoll,
  macroList,
  macroDelete,
];

export const autocompleteSources: AutocompleteSource[] = [characterNames, savedRollNames];
