import type { Messages } from "../../types.js";

/** The Mountain Witch: rule names (`mw.*`) and refusals (`errors.mw.*`). */
export default {
  "mw.degree.tie": "Tie",
  "mw.degree.partial": "Partial success",
  "mw.degree.mixed": "Mixed success",
  "mw.degree.normal": "Normal success",
  "mw.degree.critical": "Critical success",
  "mw.degree.double": "Double success",

  "mw.quality.partial": "½ success (partial)",
  "mw.quality.normal": "1 success (normal)",
  "mw.quality.critical": "1½ successes (critical)",
  "mw.quality.double": "2 successes (double)",

  "mw.duration.next-roll": "wound: until the next roll",
  "mw.duration.chapter": "until the end of the chapter",
  "mw.duration.permanent": "permanent",
  "mw.duration.condition": "until {condition}",
  "mw.duration.taken-out": "taken out",

  "mw.takenOut.incapacitated": "{name} is taken out: incapacitated",
  "mw.takenOut.dead": "{name} is taken out: dead",

  "mw.strength.weak": "Weak",
  "mw.strength.medium": "Medium",
  "mw.strength.strong": "Strong",

  "mw.status.active": "Active",
  "mw.status.incapacitated": "Incapacitated",
  "mw.status.dead": "Dead",

  "mw.trustUse.help": "Help",
  "mw.trustUse.betray": "Betrayal",
  "mw.trustUse.narration": "Bought narration",

  "mw.narration.highest": "{name} narrates (highest result)",
  "mw.narration.roll-off": "{name} narrates (won the roll-off)",
  "mw.narration.trade": "{name} narrates (declared the trade)",
  "mw.narration.bought": "{name} narrates (bought the narration)",
  "mw.narration.none": "Stalemate: nobody gets what they wanted",

  "mw.obstacle.incapacity": "Incapacity",

  "mw.fate.tragic-love": "Tragic love",
  "mw.fate.oaths-of-the-past": "Oaths of the past",
  "mw.fate.revenge": "Revenge",
  "mw.fate.true-motives": "True motives",
  "mw.fate.unholy-pact": "Unholy pact",
  "mw.fate.worst-fear": "Worst fear",

  "mw.sign.rat": "Rat",
  "mw.sign.ox": "Ox",
  "mw.sign.tiger": "Tiger",
  "mw.sign.rabbit": "Rabbit",
  "mw.sign.dragon": "Dragon",
  "mw.sign.snake": "Snake",
  "mw.sign.horse": "Horse",
  "mw.sign.ram": "Ram",
  "mw.sign.monkey": "Monkey",
  "mw.sign.rooster": "Rooster",
  "mw.sign.dog": "Dog",
  "mw.sign.boar": "Boar",

  "errors.mw.notEnoughTrust":
    "Not enough trust: you hold {have, plural, one {# point} other {# points}} from that character and need {need}.",
  "errors.mw.trustSelf": "A character cannot give trust to, or spend trust on, themselves.",
  "errors.mw.trustAmountInvalid": "Spend a whole number of trust points, at least 1.",
  "errors.mw.trustNotInteger": "A trust value is a whole number.",
  "errors.mw.trustNegative": "A trust value cannot go below 0.",
  "errors.mw.trustRaiseTooHigh":
    "At a chapter start trust can rise by 1 at most: the highest you can set is {max}.",
  "errors.mw.trustTargetUnknown": "That character is not in this trust round.",
  "errors.mw.trustRoundClosed": "This trust round is already closed.",
  "errors.mw.notInTrustRound": "Your character does not adjust trust in this round.",
  "errors.mw.trustAlreadySubmitted": "You have already submitted your trust for this chapter.",
  "errors.mw.trustRoundIncomplete": "Not every player has submitted their trust yet.",
  "errors.mw.betrayedCannotSpend":
    "Your character has been betrayed in this conflict and cannot spend trust in it.",
  "errors.mw.duellistCannotUseTrust": "Duellists cannot use trust: a duel is a fair fight.",
  "errors.mw.duelTrustOnlyDead": "Only the players of dead characters may spend trust on a duel.",
  "errors.mw.gmCannotTrade": "The GM can never declare a trade; only a player can.",

  "errors.mw.notInConflict": "That character is not in this conflict.",
  "errors.mw.alreadyInConflict": "{name} is already in this conflict.",
  "errors.mw.characterIncapacitated":
    "{name} is incapacitated and cannot act in conflicts until they recover.",
  "errors.mw.characterDead":
    "{name} is dead: their player can still help, betray or buy narration with trust, but not roll for them.",
  "errors.mw.conflictClosed": "This conflict is over.",
  "errors.mw.conflictAlreadyRolled": "The dice have already been rolled in this conflict; a roll is final.",
  "errors.mw.conflictNotRolled": "Roll the conflict first.",
  "errors.mw.conflictNeedsTwoSides": "A conflict needs someone on each side before the roll.",
  "errors.mw.dangerAlreadySet": "A common danger has exactly one die; it is already in the conflict.",
  "errors.mw.dangerMissing": "Add the danger (one GM character or obstacle) before the roll.",
  "errors.mw.dangerMustBeGm": "The common danger is the GM's character or obstacle, not a player character.",
  "errors.mw.cannotLeaveAfterTrust":
    "{name} cannot leave: trust has already been spent by, on or against them.",
  "errors.mw.cannotHelpSelf": "A character cannot help themselves.",
  "errors.mw.helpOnlyPlayerCharacters":
    "Only player characters can help each other: help is paid with trust.",
  "errors.mw.helpChain": "{name} is already part of a helped pair; help the character who rolls instead.",
  "errors.mw.alreadyHelping": "{name} is already helping someone in this conflict.",
  "errors.mw.helperOnOtherSide": "{name} is on the other side of this conflict and cannot help here.",
  "errors.mw.betrayOnlyPlayerCharacters":
    "Only player characters betray each other: betrayal is paid with trust.",
  "errors.mw.betrayTargetNotOpposing":
    "You can only betray {name} while acting against them in this conflict.",
  "errors.mw.betrayerNotInConflict":
    "Join the conflict against that character first: a betrayer acts against them directly.",
  "errors.mw.killIntentAfterRoll": "The intent to kill must be declared before the roll.",
  "errors.mw.killNotDeclared":
    "Nobody declared the intent to kill {name} before the roll: taken out means incapacitated.",
  "errors.mw.targetNotOpponent": "{name} is not on the other side of this conflict.",
  "errors.mw.tradeLevelInvalid": "A trade is a normal, critical or double success, never partial or mixed.",
  "errors.mw.tradeNeedsTie": "After the roll a trade can only be declared on a tie.",
  "errors.mw.alreadyTraded": "A trade has already been declared here.",
  "errors.mw.tradeDamageOnDeclarer":
    "In a group conflict the damage from a trade falls on {name}, who declared it.",
  "errors.mw.pairingNeeded": "Say whose comparison with the danger this is about.",
  "errors.mw.pairingNotFound": "There is no such comparison in this conflict.",
  "errors.mw.narrationStarted": "Narration has already begun; it is too late for that.",
  "errors.mw.narrationAlreadyBought": "The narration of this conflict has already been bought.",
  "errors.mw.alreadyNarrator": "You already narrate this conflict.",
  "errors.mw.narrationOnlyPlayerCharacters":
    "Narration is bought with trust, between player characters only.",
  "errors.mw.notEnoughSuccesses": "That side does not have enough successes left for that damage.",
  "errors.mw.alreadyTakenOut": "{name} has already been taken out.",
  "errors.mw.takenOutNoAbilityOrCondition":
    "That damage takes {name} out; it cannot be ability or conditional damage.",
  "errors.mw.notIncapacitated": "That character is not incapacitated.",
  "errors.mw.notRecoveryConflict": "This conflict is not a recovery attempt.",
  "errors.mw.recoveryNotYet":
    "A recovery can be attempted from the chapter after the character was taken out.",
  "errors.mw.recoveryAlreadyTried": "A recovery has already been attempted this chapter.",
  "errors.mw.opposesSelf": "A character cannot act against themselves.",
  "errors.mw.notTwoSided":
    "These opponents do not form two sides; split them into separate conflicts, each with two sides.",

  "errors.mw.duelSelf": "A character cannot duel themselves.",
  "errors.mw.duelOnlyPlayerCharacters": "A duel is between two player characters.",
  "errors.mw.duelNeedsActive": "{name} cannot duel now.",
  "errors.mw.duelNotChallenged": "This duel is not waiting for an answer.",
  "errors.mw.duelNotStarted": "This duel has not started.",
  "errors.mw.duelAlreadyRevealed": "The dice of this round are already revealed.",
  "errors.mw.duelNotRevealed": "Wait for the strike: the dice are not revealed yet.",
  "errors.mw.duelWaiting": "You have chosen to roll on; waiting for your opponent.",
  "errors.mw.duelOver": "Someone was taken out: this duel is over.",
  "errors.mw.notInDuel": "That character is not in this duel.",

  "errors.mw.fateDeckEmpty": "No dark fates are left in the deck.",
  "errors.mw.fateNotDealt": "That character has no dark fate yet.",
  "errors.mw.fateAlreadyDealt": "That character already has a dark fate.",
  "errors.mw.fateAlreadyRedrawn": "A dark fate can be put back and redrawn only once.",
  "errors.mw.fateFinal": "That dark fate is already final.",
  "errors.mw.fateAlreadyRevealed": "That dark fate is already revealed.",
  "errors.mw.fateUnknown": "There is no such dark fate.",
  "errors.mw.fatesNotFinal": "The undealt fates are shown once every player has kept or redrawn theirs.",
  "errors.mw.fateChooseMode": "At this table players choose their dark fates; there is no deck.",
  "errors.mw.fateDealMode": "At this table dark fates are dealt from the deck, not chosen.",

  "errors.mw.zodiacTaken": "That zodiac sign is already taken at this table.",
} satisfies Messages;
