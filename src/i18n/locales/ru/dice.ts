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
  "errors.dice.unclosedParenthesis":
    "Скобка на позиции {position} не закрыта. Закройте её, например: `(1к6+2)*2`.",
  "errors.dice.unopenedParenthesis":
    "Скобка `)` на позиции {position} ничего не закрывает. Сначала откройте её, например: `(1к6+2)*2`.",
  "errors.dice.divisionByZero":
    "`{near}` может дать ноль, а на ноль делить нельзя. Делите на число или кубики, которые никогда не дают 0, например: `2к20kh1/2`.",
  "errors.dice.totalTooBig":
    "Такое выражение может дать больше {max}. Умножайте на меньшее, например: `(1к6+2)*2`.",
  "errors.dice.modifierNeedsNumber":
    "`{term}`: после модификатора нужно число, например: `4к6п1`, `10к10>=7` или `10к10>=7ф1`.",
  "errors.dice.twoModifiers":
    "`{term}`: каждый модификатор — не больше одного раза на слагаемое, например: `4к6!`, `4к6п1` или `10к10>=7ф1`.",
  "errors.dice.fateDiceModifier":
    "`{term}`: кубики Fate показывают +, − или 0, поэтому они не взрываются, не перебрасываются по числу и не считают успехи. Возьмите обычные кубики, например: `10к10>=7`.",
  "errors.dice.failureWithoutTarget":
    "`{term}`: провалы считаются вместе с успехами — сначала укажите порог успеха, например: `10к10>=7ф1`.",
  "errors.dice.testBeyondSides":
    "`{term}`: на к{sides} такого числа не выпадает. Возьмите число от 1 до {sides}, например: `10к10>=7`.",
  "errors.dice.rerollEveryFace":
    "`{term}`: так перебрасывается любая грань, и ничего не меняется. Перебрасывайте только низкие результаты, например: `4к6п1`.",
  "errors.macro.tooMany":
    "У вас здесь уже {max} сохранённых бросков. Сначала удалите один через {/macro delete} или перезапишите существующий, сохранив под тем же именем.",
  "errors.macro.notFound":
    "У вас здесь нет сохранённого броска **{name}**. Ваши броски покажет {/macro list}.",
  "errors.macro.needsTable":
    "**{name}** берёт числа из листа персонажа, поэтому его можно бросить только в канале стола.",
  "errors.macro.noSheetNumbers":
    "**{name}** подставляет числа из листа вроде `'{'драка'}'`, но в игре этого стола таких чисел нет. Сохраните бросок без фигурных скобок, например `2к6+1`.",
  "errors.macro.unknownValue":
    "В листе персонажа **{character}** нет числа `{value}`. Укажите ключ или название навыка, например `4dF+'{'драка'}'` или `4dF+'{'fight'}'`.",
  "macro.saved": "Сохранён бросок **{name}**: `{expression}`. Бросить: {/macro roll}.",
  "macro.replaced": "Теперь **{name}** бросает `{expression}`.",
  "macro.deleted": "Сохранённый бросок **{name}** удалён.",
  "macro.list.title": "Ваши сохранённые броски ({count} из {max})",
  "macro.list.empty": "Пока ни одного. Сохраните бросок: {/macro save name:attack expression:1d20+5}.",
  "cmd.macro.name": "макрос",
  "cmd.macro.desc": "Сохранённые броски: сохранить, бросить, список, удалить",
  "cmd.macro.save.name": "сохранить",
  "cmd.macro.save.desc": "Сохранить бросок под именем (то же имя ещё раз — замена)",
  "cmd.macro.save.name.name": "имя",
  "cmd.macro.save.name.desc": "Короткое имя, например атака",
  "cmd.macro.save.expression.name": "выражение",
  "cmd.macro.save.expression.desc":
    "Что бросать, например 1d20+5; навык в фигурных скобках берёт ранг из вашего листа",
  "cmd.macro.roll.name": "бросить",
  "cmd.macro.roll.desc": "Бросить один из сохранённых бросков",
  "cmd.macro.roll.name.name": "имя",
  "cmd.macro.roll.name.desc": "Какой бросок",
  "cmd.macro.roll.character.name": "персонаж",
  "cmd.macro.roll.character.desc": "Чей лист подставить в скобки (по умолчанию ваш персонаж)",
  "cmd.macro.roll.secret.name": "тайно",
  "cmd.macro.roll.secret.desc": "Результат увидите только вы",
  "cmd.macro.roll.gm-copy.name": "копия-ведущему",
  "cmd.macro.roll.gm-copy.desc": "Вместе с secret: отправить результат ведущему в личку",
  "cmd.macro.list.name": "список",
  "cmd.macro.list.desc": "Ваши сохранённые броски на этом сервере",
  "cmd.macro.delete.name": "удалить",
  "cmd.macro.delete.desc": "Удалить сохранённый бросок",
  "cmd.macro.delete.name.name": "имя",
  "cmd.macro.delete.name.desc": "Какой бросок",
} satisfies Messages;
