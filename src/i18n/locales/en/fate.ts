import type { Messages } from "../../types.js";

const skills: Record<string, string> = {
  physique: "Physique",
  eloquence: "Eloquence",
  athletics: "Athletics",
  notice: "Notice",
  riding: "Riding",
  will: "Will",
  thievery: "Thievery",
  fight: "Fight",
  lore: "Lore",
  contacts: "Contacts",
  deceive: "Deceive",
  provoke: "Provoke",
  investigate: "Investigate",
  crafts: "Crafts",
  resources: "Resources",
  stealth: "Stealth",
  shoot: "Shoot",
  empathy: "Empathy",
};

const factionAbilities: Record<string, string> = {
  military: "Military",
  magic: "Magic",
  resources: "Resources",
  commerce: "Commerce",
  popularity: "Popularity",
  espionage: "Espionage",
  art: "Art",
};

const slots: Record<string, string> = {
  mild: "mild",
  moderate: "moderate",
  severe: "severe",
  mildPhysical: "extra mild (physical)",
  mildMental: "extra mild (mental)",
};

/** `{param, select, key {Name} …}`: a key passed as a parameter, shown by its name. */
const select = (param: string, names: Record<string, string>) =>
  `{${param}, select, ${Object.entries(names)
    .map(([key, name]) => `${key} {${name}}`)
    .join(" ")} other {{${param}}}}`;

const skill = select("skill", skills);
const fp = (param: string) => `{${param}, plural, one {# fate point} other {# fate points}}`;
const shifts = (param: string) => `{${param}, plural, one {# shift} other {# shifts}}`;

export default {
  "fate.ladder.legendary": "Legendary",
  "fate.ladder.epic": "Epic",
  "fate.ladder.fantastic": "Fantastic",
  "fate.ladder.superb": "Superb",
  "fate.ladder.great": "Great",
  "fate.ladder.good": "Good",
  "fate.ladder.fair": "Fair",
  "fate.ladder.average": "Average",
  "fate.ladder.mediocre": "Mediocre",
  "fate.ladder.poor": "Poor",
  "fate.ladder.terrible": "Terrible",

  "fate.outcome.fail": "Fail",
  "fate.outcome.tie": "Tie",
  "fate.outcome.success": "Success",
  "fate.outcome.style": "Success with style",

  "fate.action.overcome": "Overcome",
  "fate.action.advantage": "Create an advantage",
  "fate.action.attack": "Attack",
  "fate.action.defend": "Defend",

  ...Object.fromEntries(Object.entries(skills).map(([key, name]) => [`fate.skill.${key}`, name])),

  "fate.aspectKind.ambition": "Ambition",
  "fate.aspectKind.belief": "Belief",
  "fate.aspectKind.connections": "Connections",
  "fate.aspectKind.flaw": "Flaw",
  "fate.aspectKind.talent": "Talent",
  "fate.aspectKind.situational": "Situational aspect",
  "fate.aspectKind.boost": "Boost",
  "fate.aspectKind.consequence": "Consequence",
  "fate.aspectKind.faction": "Faction aspect",

  "fate.consequence.mild": "Mild consequence",
  "fate.consequence.moderate": "Moderate consequence",
  "fate.consequence.severe": "Severe consequence",
  "fate.consequenceSlot.mild": "Mild (2)",
  "fate.consequenceSlot.moderate": "Moderate (4)",
  "fate.consequenceSlot.severe": "Severe (6)",
  "fate.consequenceSlot.mildPhysical": "Extra mild, physical (2)",
  "fate.consequenceSlot.mildMental": "Extra mild, mental (2)",

  "fate.stress.physical": "Physical stress",
  "fate.stress.mental": "Mental stress",

  "fate.invokeMode.plus2": "+2 to the result",
  "fate.invokeMode.reroll": "Reroll the dice",
  "fate.invokeMode.passive": "+2 to the passive opposition",
  "fate.payment.free-invoke": "free invoke",
  "fate.payment.fate-point": "fate point",

  ...Object.fromEntries(
    Object.entries(factionAbilities).map(([key, name]) => [`fate.factionAbility.${key}`, name]),
  ),

  "fate.effect.overcome.fail":
    "Fail: you don't get what you wanted — or you do, at a serious cost (the GM's call).",
  "fate.effect.overcome.tie": "Tie: you get it, but at a minor cost.",
  "fate.effect.overcome.success": "Success: you get what you wanted.",
  "fate.effect.overcome.style": "Success with style: you get what you wanted, plus a boost.",
  "fate.effect.advantage.new.fail": "Fail: no aspect — or it appears and your opponent gets its free invoke.",
  "fate.effect.advantage.new.tie": "Tie: instead of a situational aspect you get a boost.",
  "fate.effect.advantage.new.success": "Success: a new situational aspect with one free invoke.",
  "fate.effect.advantage.new.style": "Success with style: a new situational aspect with two free invokes.",
  "fate.effect.advantage.existing.fail": "Fail: your opponent gets a free invoke on the aspect.",
  "fate.effect.advantage.existing.tie": "Tie: you or an ally may invoke the aspect once for free.",
  "fate.effect.advantage.existing.success": "Success: you or an ally may invoke the aspect once for free.",
  "fate.effect.advantage.existing.style": "Success with style: the aspect can be invoked twice for free.",
  "fate.effect.attack.fail": "Fail: no harm done.",
  "fate.effect.attack.tie": "Tie: no harm, but you get a boost.",
  "fate.effect.attack.success": `Success: a hit of ${shifts("hit")}.`,
  "fate.effect.attack.style": `Success with style: a hit of ${shifts("hit")} — you may reduce it by one to take a boost.`,
  "fate.effect.defend.fail": "Fail: the attack lands.",
  "fate.effect.defend.tie": "Tie: your opponent gets a boost.",
  "fate.effect.defend.success": "Success: you avoid the attack.",
  "fate.effect.defend.style": "Success with style: you avoid the attack and get a boost.",

  "errors.fate.unknownSkill": "There is no skill “{input}”. Did you mean: {suggestions}?",
  "errors.fate.unknownAspect": "There is no aspect “{name}” here. Check the spelling in /aspect list.",
  "errors.fate.aspectExists": "There is already an aspect “{name}” here.",
  "errors.fate.aspectNameInvalid": "An aspect needs a name of 1 to {max} characters.",
  "errors.fate.freeInvokesInvalid": "An aspect can have from 0 to {max} free invokes.",
  "errors.fate.noFreeInvokes":
    "“{aspect}” has no free invokes left that you can use. Pay with a fate point instead.",
  "errors.fate.cannotInvoke":
    "You have no fate points and “{aspect}” has no free invokes for you, so you cannot invoke it.",
  "errors.fate.notEnoughFatePoints": `You have ${fp("have")} and need ${fp("need")}.`,
  "errors.fate.fatePointsBelowZero": `Cannot take ${fp("change")}: only ${fp("have")} left.`,
  "errors.fate.fatePointsChangeInvalid": "The change in fate points must be a whole number.",
  "errors.fate.aspectAlreadyInvoked":
    "“{aspect}” has already been invoked with a fate point on this roll. Use a free invoke or another aspect.",
  "errors.fate.noPassiveOpposition": "This roll has no passive opposition to raise.",
  "errors.fate.oppositionHasInvokes":
    "Invokes have already raised this passive opposition; it cannot be replaced with another kind.",
  "errors.fate.bonusOutOfRange": "A bonus must be a whole number from −{max} to +{max}.",
  "errors.fate.oppositionOutOfRange": "An opposition must be a whole number from −{max} to +{max}.",
  "errors.fate.cannotTradeHit": "Only an attack that succeeds with style can trade a shift for a boost.",
  "errors.fate.compelPointsInvalid": "A compel is worth from 1 to {max} fate points.",
  "errors.fate.cannotBuyOffCompel": `Buying off this compel costs ${fp("need")} and you have ${fp("have")}: you can only accept it.`,
  "errors.fate.notYourCharacter": "{name} is not your character. Only its player or the GM can act for it.",
  "errors.fate.gmOnly": "Only the GM can do that.",
  "errors.fate.hitInvalid": "A hit must be a whole number of shifts, 0 or more.",
  "errors.fate.hitNotAbsorbed": `Those boxes and consequences absorb ${shifts("absorbed")} of a hit of ${shifts("shifts")}. Choose more, or be taken out.`,
  "errors.fate.noSuchStressBox": "There is no stress box {box}: this track has {count}.",
  "errors.fate.stressBoxChecked": "Stress box {box} is already checked.",
  "errors.fate.noSuchConsequenceSlot": `This character has no ${select("slot", slots)} consequence slot.`,
  "errors.fate.consequenceSlotTaken": `The ${select("slot", slots)} consequence is already taken.`,
  "errors.fate.consequenceSlotFree": `The ${select("slot", slots)} consequence slot is already free.`,
  "errors.fate.consequenceSlotWrongKind": `The ${select("slot", slots)} consequence cannot take this kind of harm.`,
  "errors.fate.skillRankInvalid": `${skill} must be from 0 to +{max} in the pyramid (race bonuses are set with the race).`,
  "errors.fate.pyramidRankFull":
    "The pyramid allows {max, plural, one {one skill} other {# skills}} at +{rank}, and there would be {count}.",
  "errors.fate.pyramidIncomplete":
    "The pyramid needs {need, plural, one {one skill} other {# skills}} at +{rank}; there {count, plural, one {is one} other {are #}}.",
  "errors.fate.raceBonusInvalid": `A race bonus to ${skill} must be from 0 to +{max}.`,
  "errors.fate.raceBonusTotal": "Race bonuses add up to {total}; at most {max} points are allowed.",
  "errors.fate.raceBonusIncomplete": "Race bonuses add up to {total}; a race has {need} points to give.",
  "errors.fate.skillAboveCap": `${skill} would be +{value}; no skill may go above +{max}.`,
  "errors.fate.tooManyStunts": "A character has at most {max} stunts (a magic ability counts as one).",
  "errors.fate.tooManyRaceStunts": "A race has at most {max} stunts.",
  "errors.fate.stuntExists": "There is already a stunt “{name}”.",
  "errors.fate.stuntTextTooLong": "A stunt's text can be at most {max} characters.",
  "errors.fate.unknownStunt": "There is no stunt “{name}” on this character.",
  "errors.fate.raceStuntFixed": "“{name}” is a race stunt; change the race instead.",
  "errors.fate.ultimateNeedsMagic": "Only a magic ability can have an ULTIMATE.",
  "errors.fate.notMagic": "“{name}” is not a magic ability.",
  "errors.fate.noUltimate": "“{name}” has no ULTIMATE.",
  "errors.fate.magicSpent":
    "“{name}” was spent on its ULTIMATE and returns at the start of the next game week.",
  "errors.fate.nameInvalid": "A name must be 1 to {max} characters long.",
  "errors.fate.refreshInvalid": "Refresh must be a whole number from 0 to {max}.",
  "errors.fate.ratingInvalid": "WR and AR must be whole numbers from 0 to {max}.",
  "errors.fate.conflictEnded": "This conflict is over.",
  "errors.fate.notInConflict": "That character is not in this conflict.",
  "errors.fate.alreadyInConflict": "That character is already in this conflict.",
  "errors.fate.outOfConflict": "That character has already conceded or been taken out.",
  "errors.fate.hitPending": "A hit on that character is waiting to be absorbed first.",
  "errors.fate.concedeAfterRoll":
    "The dice are already rolled: take this hit first. You can concede before the next roll.",
  "errors.fate.contestNeedsTwo": "A contest needs at least two participants.",
  "errors.fate.contestEnded": "This contest is over.",
  "errors.fate.notInContest": "That character is not in this contest.",
  "errors.fate.contestRollsMissing":
    "Every participant rolls (or forfeits) in each exchange; {count, plural, one {one is} other {# are}} missing.",
  "errors.fate.challengeEnded": "This challenge is over.",
  "errors.fate.skillUsedInChallenge": `${skill} has already been used in this challenge; each step needs a different skill.`,
  "errors.fate.unknownFactionAbility":
    "There is no faction ability “{input}”. Abilities: Military, Magic, Resources, Commerce, Popularity, Espionage, Art.",
  "errors.fate.factionRatingInvalid": `${select("ability", factionAbilities)} can be +4, +3, +2, +1 or 0, not {value}.`,
  "errors.fate.factionRatingFull":
    "A faction has {max, plural, one {one ability} other {# abilities}} at +{rank}, and there would be {count}.",
  "errors.fate.factionRatingIncomplete":
    "A faction needs {need, plural, one {one ability} other {# abilities}} at +{rank}; there {count, plural, one {is one} other {are #}}.",
  "errors.fate.tooManyFactionAspects": "A faction has at most {max} aspects.",
} satisfies Messages;
