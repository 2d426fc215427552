import type { Messages } from "../../types.js";

export default {
  "errors.dice.empty": "Выражение для броска пустое. Попробуйте `2к6+3`, `4dF` или `к20`.",
  "errors.dice.tooLong":
    "В выражении {length, plural, one {# символ} few {# символа} many {# символов} other {# символа}}, а можно не больше {max}. Сократите его, например: `6х 4к6kh3`.",
  "errors.dice.unexpected":
    "Не могу разобрать `{near}` (позиция {position}). Кубики записываются так: `2к6+3`, `4d6kh3`, `4dF` или `6x 4d6kh3`.",
  "errors.dice.unfinished":
    "`{near}` обрывается на полуслове: допишите число или кубики, например `2к6+3` или `6х 4к6kh3`.",
  "errors.dice.missingSides":
    "`{term}`: сколько у кубика граней? Поставьте число после «к» или «d», например `к6` или `2d10`.",
  "errors.dice.zeroSides":
    "`{term}`: у кубика должно быть хотя бы {min, plural, one {# грань} few {# грани} many {# граней} other {# грани}}, например `2к6`.",
  "errors.dice.oneSidedDie":
    "`{term}`: на одногранном кубике всегда выпадает 1. Прибавьте число (`к6+1`) или бросайте кубики хотя бы с {min, plural, one {# гранью} other {# гранями}}.",
  "errors.dice.zeroDice": "`{term}`: нужен хотя бы один кубик, например `1к6` или просто `к6`.",
  "errors.dice.tooManyDice":
    "`{term}`: в одном слагаемом не больше {max, plural, one {# кубика} few {# кубиков} many {# кубиков} other {# кубика}}, например `100к6`.",
  "errors.dice.tooManySides":
    "`{term}`: у кубика может быть не больше {max, plural, one {# грани} few {# граней} many {# граней} other {# грани}}, например `к100`.",
  "errors.dice.tooManyDiceTotal":
    "Всего {total, plural, one {# кубик} few {# кубика} many {# кубиков} other {# кубика}}, а за один бросок можно не больше {max}, считая повторы. Бросьте меньше, например `6х 4к6kh3`.",
  "errors.dice.keepMoreThanRolled":
    "`{term}`: нельзя оставить {keep} из {count, plural, one {# кубика} few {# кубиков} many {# кубиков} other {# кубика}}. Оставлять можно не больше, чем бросаете, например `4к6kh3`.",
  "errors.dice.dropAllDice":
    "`{term}`: если отбросить {drop} из {count, plural, one {# кубика} few {# кубиков} many {# кубиков} other {# кубика}}, ничего не останется. Отбросьте меньше, например `4к6dl1`.",
  "errors.dice.keepZero":
    "`{term}`: оставить или отбросить можно хотя бы один кубик, например `2к20kh1` или `4к6dl1`.",
  "errors.dice.twoKeepRules":
    "`{term}`: в одном слагаемом только одно правило «оставить/отбросить», например `4к6kh3` или `2к20kl1`.",
  "errors.dice.zeroRepeats": "Бросок нужно повторить хотя бы раз, например `6х 4к6kh3`.",
  "errors.dice.tooManyRepeats":
    "{repeats, plural, one {# повтор} few {# повтора} many {# повторов} other {# повтора}} — слишком много, можно не больше {max}. Например: `6х 4к6kh3`.",
  "errors.dice.twoRepeats":
    "Число повторов указывается один раз: либо в начале (`6х 4к6kh3`), либо в конце (`4к6kh3 х6`).",
  "errors.dice.noDice": "В `{near}` нет ни одного кубика. Добавьте их, например `к20+5`.",
  "errors.dice.numberTooBig": "`{near}` — слишком большое число, можно не больше {max}. Например: `к20+5`.",
} satisfies Messages;
