import type { Messages } from "../../types.js";

export default {
  "errors.dice.empty": "The dice expression is empty. Try `2d6+3`, `4dF` or `d20`.",
  "errors.dice.tooLong":
    "That expression is {length} characters long; the limit is {max}. Shorten it, e.g. `6x 4d6kh3`.",
  "errors.dice.unexpected":
    "I can’t read `{near}` (at character {position}). Dice look like `2d6+3`, `4d6kh3`, `4dF` or `6x 4d6kh3`.",
  "errors.dice.unfinished":
    "`{near}` stops too early: finish it with a number or dice, e.g. `2d6+3` or `6x 4d6kh3`.",
  "errors.dice.missingSides": "`{term}`: how many sides? Put a number after the d, e.g. `d6` or `2d10`.",
  "errors.dice.zeroSides": "`{term}`: a die needs at least {min} sides, e.g. `2d6`.",
  "errors.dice.oneSidedDie":
    "`{term}`: a one-sided die always shows 1. Add a number instead (`d6+1`) or roll dice with at least {min} sides.",
  "errors.dice.zeroDice": "`{term}`: roll at least one die, e.g. `1d6` or just `d6`.",
  "errors.dice.tooManyDice":
    "`{term}`: at most {max, plural, one {# die} other {# dice}} in one term, e.g. `100d6`.",
  "errors.dice.tooManySides": "`{term}`: a die can have at most {max} sides, e.g. `d100`.",
  "errors.dice.tooManyDiceTotal":
    "That’s {total} dice in all; one roll may have at most {max}, repeats included. Roll fewer, e.g. `6x 4d6kh3`.",
  "errors.dice.keepMoreThanRolled":
    "`{term}`: you can’t keep {keep} of {count, plural, one {# die} other {# dice}}. Keep at most as many as you roll, e.g. `4d6kh3`.",
  "errors.dice.dropAllDice":
    "`{term}`: dropping {drop} of {count, plural, one {# die} other {# dice}} leaves nothing. Drop fewer, e.g. `4d6dl1`.",
  "errors.dice.keepZero": "`{term}`: keep or drop at least one die, e.g. `2d20kh1` or `4d6dl1`.",
  "errors.dice.twoKeepRules":
    "`{term}`: one keep rule per term, or one drop at each end, e.g. `4d6kh3`, `2d20kl1` or `4d10dh1dl2`.",
  "errors.dice.zeroRepeats": "Repeat the roll at least once, e.g. `6x 4d6kh3`.",
  "errors.dice.tooManyRepeats": "{repeats} repeats is too many: at most {max}. Try e.g. `6x 4d6kh3`.",
  "errors.dice.twoRepeats":
    "Give the number of repeats once, either before (`6x 4d6kh3`) or after (`4d6kh3 x6`).",
  "errors.dice.noDice": "`{near}` has no dice in it. Add some, e.g. `d20+5`.",
  "errors.dice.numberTooBig": "`{near}` is too big a number: at most {max}. Try e.g. `d20+5`.",
  "errors.dice.unclosedParenthesis":
    "The parenthesis at character {position} is never closed. Close it, e.g. `(1d6+2)*2`.",
  "errors.dice.unopenedParenthesis":
    "The `)` at character {position} closes nothing. Open it first, e.g. `(1d6+2)*2`.",
  "errors.dice.divisionByZero":
    "`{near}` can be zero, and nothing can be divided by zero. Divide by a number or dice that never give 0, e.g. `2d20kh1/2`.",
  "errors.dice.totalTooBig": "That expression can reach more than {max}. Multiply by less, e.g. `(1d6+2)*2`.",
  "errors.dice.modifierNeedsNumber":
    "`{term}`: put a number after the modifier, e.g. `4d6r1` (rerolls 1s once), `4d6rr1` (until none is left, like rpg-dice-roller’s bare `r`), `10d10>=7` or `10d10>=7f1`.",
  "errors.dice.twoModifiers": "`{term}`: each modifier once per term, e.g. `4d6!`, `4d6r1` or `10d10>=7f1`.",
  "errors.dice.fateDiceModifier":
    "`{term}`: Fate dice show +, − or 0, so they cannot explode, be rerolled by number or count successes. Use plain dice, e.g. `10d10>=7`.",
  "errors.dice.failureWithoutTarget":
    "`{term}`: failures are counted along with successes; give a target first, e.g. `10d10>=7f1`.",
  "errors.dice.testBeyondSides":
    "`{term}`: a d{sides} never shows that number. Pick one from 1 to {sides}, e.g. `10d10>=7`.",
  "errors.dice.rerollEveryFace":
    "`{term}`: that rerolls every face, so it changes nothing. Reroll only low results, e.g. `4d6r1`.",
  "errors.dice.peerAlias": "`{term}` is a Dice Maiden named roll; here write it out: `{ours}`.",
  "errors.dice.peerModifier":
    "`{term}`: {word, select, adv {`adv` (d20’s advantage) is `+d20` here, or `2d20kh1`} dis {`dis` (d20’s disadvantage) is `-d20` here, or `2d20kl1`} ra {`ra` (d20’s reroll and add) has no spelling here; `r1` rerolls 1s once, `rr1` until they are gone} sa {`sa` (sorting) is not needed here: dice are shown as rolled} sd {`sd` (sorting) is not needed here: dice are shown as rolled} s {`s` (sorting) is not needed here: dice are shown as rolled} cs {`cs` (critical success marks) is not shown here; count them with `>=`, e.g. `4d6>=6`} cf {`cf` (critical failure marks) is not shown here; count them with `f`, e.g. `4d6>=5f1`} other {`b` (Dice Maiden’s botches) is `f` here, counted against the successes, e.g. `4d10t8f1`}}.",
  "errors.dice.keepByValue":
    "`{term}`: here keep and drop take the highest or lowest dice (`4d6kh3`, `4d6dl1`), not dice by value. To count dice above a number, write e.g. `4d6>3`.",
  "errors.dice.explodeCompareNotTarget":
    "`{term}`: right after `!` a comparison is where the dice explode (`4d10!>=8` explodes on 8+), so `f` has no target to go with. To explode on the maximum and count successes, write `{ours}`.",
  "errors.dice.compareTotal":
    "`{near}`: here a comparison counts dice (`10d10>=7`); it does not test a total. Roll the total (e.g. `1d20+5`) and compare it yourself.",
  "errors.dice.clampsCross":
    "`{term}`: the minimum is above the maximum. Give a smaller min, e.g. `4d6min2max5`.",
  "errors.dice.explodeEveryFace":
    "`{term}`: every face would explode, forever. Explode on high results only, e.g. `4d6!` or `4d6!>=5`.",
  "errors.dice.uniqueTooFewFaces":
    "`{term}`: only {faces} different values can come up, so that many dice cannot all differ. Roll at most {faces}, e.g. `4d6u`.",
  "errors.dice.unclosedBrace":
    "The brace at character {position} is never closed. Close it, e.g. `'{'4d6, 4d6'}'k1`.",
  "errors.dice.tooManySetMembers": "`{term}`: at most {max} sums in braces, e.g. `'{'4d6, 4d6'}'k1`.",
  "errors.dice.setOfOne":
    "`{term}`: braces with one sum have nothing to keep among. Put the rule on the dice (`4d6k3`) or list several sums (`'{'4d6, 2d10'}'k1`).",
  "dice.reading.line": "_Read as: {parts}_",
  "dice.reading.test": "{op, select, ge {{value}+} le {{value} or less} ne {not {value}} other {{value}}}",
  "dice.reading.keep":
    "{mode, select, kh {keep highest {count}} kl {keep lowest {count}} dh {drop highest {count}} other {drop lowest {count}}}",
  "dice.reading.explode":
    "{once, select, yes {explodes once on {test} (added dice do not explode)} other {{compound, select, yes {explodes on {test}, added into the one die} other {explodes on {test}}}}}{penetrate, select, yes {, each added die −1} other {}}",
  "dice.reading.reroll": "{until, select, yes {rerolled until {test}} other {rerolled once on {test}}}",
  "dice.reading.success": "counts successes on {test}",
  "dice.reading.failure": "each {test} takes a success away",
  "dice.reading.min": "each die counts at least {value}",
  "dice.reading.max": "each die counts at most {value}",
  "dice.reading.unique": "no value twice (a repeat is rerolled)",
  "dice.reading.advantage":
    "{advantage, select, yes {advantage: 2d20, keep highest} other {disadvantage: 2d20, keep lowest}}",
  "dice.reading.percentile":
    "{bonus, select, yes {bonus die: two tens dice, the lower result kept} other {penalty die: two tens dice, the higher result kept}}",
  "dice.reading.fateDF1": "a d6 read 1 → −, 6 → +, the rest blank",
  "dice.reading.division": "÷ rounds down",
  "dice.reading.remainder": "% is the remainder of division rounded down",
  "dice.reading.precedence": "× and ÷ before + and −",
  "errors.dice.mathFunction":
    "`{term}(…)` is a function of another dice bot; there is none here. `/` already rounds down, e.g. `1d20/3`.",
  "errors.dice.power": "`{near}`: powers are not rolled here. Multiply instead, e.g. `1d6*1d6`.",
  "errors.dice.hashRepeat": "`{near}`: here a roll is repeated with `x`: `{ours}`. After `#` comes a label.",
  "errors.macro.tooMany":
    "You already keep {max} saved rolls here. Delete one first with {/macro delete}, or overwrite one by saving under its name.",
  "errors.macro.notFound": "You have no saved roll called **{name}** here. {/macro list} shows yours.",
  "errors.macro.needsTable":
    "**{name}** fills in numbers from your character sheet, so it can be rolled only in a table's channel.",
  "errors.macro.noSheetNumbers":
    "**{name}** fills in sheet numbers like `'{'fight'}'`, but this table's game keeps no such numbers. Save a roll without braces, e.g. `2d6+1`.",
  "errors.macro.unknownValue":
    "**{character}**'s sheet has no number called `{value}`. Use a skill's key or name, e.g. `4dF+'{'fight'}'` or `4dF+'{'драка'}'`.",
  "macro.saved": "Saved **{name}**: `{expression}`. Roll it with {/macro roll}.",
  "macro.replaced": "**{name}** now rolls `{expression}`.",
  "macro.deleted": "Deleted the saved roll **{name}**.",
  "macro.list.title": "Your saved rolls ({count} of {max})",
  "macro.list.empty": "None yet. Save one with {/macro save name:attack expression:1d20+5}.",
  "cmd.macro.desc": "Saved rolls: save, roll, list, delete",
  "cmd.macro.save.desc": "Save a roll under a name (saving the same name again replaces it)",
  "cmd.macro.save.name.desc": "A short name, e.g. attack",
  "cmd.macro.save.expression.desc":
    "What to roll, e.g. 1d20+5; a skill in curly braces takes its rank from your sheet",
  "cmd.macro.roll.desc": "Roll one of your saved rolls",
  "cmd.macro.roll.name.desc": "Which saved roll",
  "cmd.macro.roll.character.desc": "Whose sheet fills in the braces (default: your character)",
  "cmd.macro.roll.secret.desc": "Only you see the result",
  "cmd.macro.roll.gm-copy.desc": "With secret: also DM the result to the GM",
  "cmd.macro.list.desc": "Your saved rolls on this server",
  "cmd.macro.delete.desc": "Delete one of your saved rolls",
  "cmd.macro.delete.name.desc": "Which saved roll",
} satisfies Messages;
