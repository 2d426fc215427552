import { t } from "../../i18n/index.js";
import { newHunterSheet } from "../../rules/beast-hunters/index.js";
import { liveTableCharactersRead } from "../../store/characters.js";
import { findOpenFlow, openFlowsRead } from "../flows.js";
import type { AutocompleteSource, SystemHooks, UseCase } from "../use-case.js";
import { resourceNames, targetNames, taskNames, traitNames } from "./autocomplete.js";
import { challengeEnd, challengeShow } from "./challenge.js";
import {
  challengeAccept,
  challengeActivate,
  challengeFate,
  challengeGiveUp,
  challengeManeuver,
  challengeMenu,
  challengeNeutralize,
  challengeOffer,
  challengeReassign,
  challengeRestore,
  challengeSkip,
  challengeStrike,
} from "./challenge-actions.js";
import {
  challengeObstacle,
  challengeObstacleForm,
  challengeStart,
  negotiationForm,
} from "./challenge-setup.js";
import {
  challengeAchieve,
  challengeResolve,
  challengeTask,
  challengeTaskForm,
  challengeTaskMenu,
} from "./challenge-tasks.js";
import { challengeHelp, challengePass, challengeSwitch, challengeTeam } from "./challenge-team.js";
import { challengeFlow, negotiationFlow } from "./flow-states.js";
import {
  challengeNegotiate,
  negotiationConcedeMenu,
  negotiationDrop,
  negotiationGiveUp,
  negotiationPhase,
  negotiationPreactivate,
  negotiationPreMenu,
} from "./negotiation.js";
import {
  findReserve,
  reserveConcede,
  reserveForm,
  reserveRead,
  reserveSet,
  reserveShow,
  reserveSpend,
  reserveSummary,
} from "./reserve.js";
import {
  boxesSet,
  initiativeSet,
  resourceRemove,
  resourceReplace,
  resourceSet,
  tattooAdd,
  tattooRemove,
  traitRemove,
  traitReplace,
  traitSet,
  vpAdd,
  vpSpend,
} from "./sheet-commands.js";
import { hunterSheetFields, saveHunterSheet } from "./sheets.js";

// biome-ignore lint/suspicious/noExplicitAny: each use case has its own intent type
export const useCases: UseCase<any>[] = [
  reserveSet,
  reserveShow,
  reserveSpend,
  reserveConcede,
  reserveForm,
  challengeNegotiate,
  negotiationPhase,
  negotiationPreMenu,
  negotiationPreactivate,
  negotiationForm,
  negotiationGiveUp,
  negotiationDrop,
  negotiationConcedeMenu,
  challengeStart,
  challengeObstacle,
  challengeObstacleForm,
  challengeActivate,
  challengeReassign,
  challengeManeuver,
  challengeOffer,
  challengeAccept,
  challengeStrike,
  challengeNeutralize,
  challengeRestore,
  challengeMenu,
  challengeTask,
  challengeTaskForm,
  challengeTaskMenu,
  challengeTeam,
  challengeAchieve,
  challengeResolve,
  challengeGiveUp,
  challengeHelp,
  challengeSwitch,
  challengePass,
  challengeFate,
  challengeSkip,
  challengeEnd,
  challengeShow,
  traitSet,
  traitRemove,
  traitReplace,
  resourceSet,
  resourceRemove,
  resourceReplace,
  tattooAdd,
  tattooRemove,
  initiativeSet,
  boxesSet,
  vpAdd,
  vpSpend,
];

export const autocompleteSources: AutocompleteSource[] = [traitNames, resourceNames, taskNames, targetNames];

export const hooks: SystemHooks = {
  // A challenge's (or a negotiation's) actions load its flow first, and the hunters in it (whose
  // turn it is, the boxes they mark); spends and strikes, the reserve.
  openingReads: [reserveRead, openFlowsRead(challengeFlow, negotiationFlow), liveTableCharactersRead],
  async onCharacterCreated(ctx, character) {
    // Creation starts from initiative 1 and one box per stage in every sphere.
    if (character.kind === "pc") await saveHunterSheet(ctx.tx, character.id, newHunterSheet());
  },
  async sheetFields(ctx, character) {
    if (character.kind !== "pc") return [];
    return hunterSheetFields(ctx.publicLang, character);
  },
  async tableFields(ctx) {
    const table = ctx.table;
    if (!table) return [];
    const pool = await findReserve(ctx.tx, table.id);
    const open = await findOpenFlow(ctx.tx, challengeFlow, table.id);
    return [
      { name: t(ctx.publicLang, "bh.terms.reserve.title"), value: reserveSummary(ctx.publicLang, pool) },
      ...(open
        ? [
            {
              name: t(ctx.publicLang, "bh.table.challenge"),
              value: open.state.challenge.name ?? "—",
              inline: true,
            },
          ]
        : []),
    ];
  },
};
