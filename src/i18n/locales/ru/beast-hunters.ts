import type { Messages } from "../../types.js";

// Stage adjectives in the genitive: «ячеек лёгкого урона».
const stageGen =
  "{stage, select, light {лёгкого} medium {среднего} heavy {тяжёлого} knockout {вырубающего} fatal {фатального} other {{stage}}}";
const previousStageGen =
  "{previousStage, select, light {лёгкого} medium {среднего} heavy {тяжёлого} knockout {вырубающего} fatal {фатального} other {{previousStage}}}";
// Sphere adjectives: genitive («физического урона»), masculine («физический ресурс»), feminine («физическая инициатива»).
const sphereGen =
  "{sphere, select, physical {физического} social {социального} mental {ментального} other {{sphere}}}";
const sphereMasc =
  "{sphere, select, physical {физический} social {социальный} mental {ментальный} other {{sphere}}}";
const sphereFem =
  "{sphere, select, physical {Физическая} social {Социальная} mental {Ментальная} other {{sphere}}}";
const role = "{role, select, attack {атаку} defence {защиту} other {{role}}}";
const price = "{price, plural, one {# очко} few {# очка} many {# очков} other {# очка}}";

export default {
  // Names
  "bh.sphere.physical": "физическая",
  "bh.sphere.social": "социальная",
  "bh.sphere.mental": "ментальная",
  "bh.sphere.short.physical": "Ф",
  "bh.sphere.short.social": "С",
  "bh.sphere.short.mental": "М",
  "bh.stage.light": "лёгкий",
  "bh.stage.medium": "средний",
  "bh.stage.heavy": "тяжёлый",
  "bh.stage.knockout": "вырубающий",
  "bh.stage.fatal": "фатальный",
  "bh.stage.short.light": "Л",
  "bh.stage.short.medium": "С",
  "bh.stage.short.heavy": "Т",
  "bh.stage.short.knockout": "В",
  "bh.stage.short.fatal": "Ф",
  "bh.stage.none": "без урона",
  "bh.role.attack": "атака",
  "bh.role.defence": "защита",
  "bh.category.physical.attack": "физический атакующий",
  "bh.category.physical.defence": "физический защитный",
  "bh.category.social.attack": "социальный атакующий",
  "bh.category.social.defence": "социальный защитный",
  "bh.category.mental.attack": "ментальный атакующий",
  "bh.category.mental.defence": "ментальный защитный",
  "bh.category.short.physical.attack": "ФА",
  "bh.category.short.physical.defence": "ФЗ",
  "bh.category.short.social.attack": "СА",
  "bh.category.short.social.defence": "СЗ",
  "bh.category.short.mental.attack": "МА",
  "bh.category.short.mental.defence": "МЗ",
  "bh.phase.1": "План",
  "bh.phase.2": "Обсуждение",
  "bh.phase.3": "Проблемы",
  "bh.terms.reserve": "резерв",
  "bh.terms.ceiling": "потолок",
  "bh.terms.rating": "рейтинг",
  "bh.terms.advantage": "очки преимущества",
  "bh.terms.advantage.short": "ОП",
  "bh.terms.vp": "победные очки",
  "bh.terms.vp.short": "ПО",
  "bh.terms.trait": "черта",
  "bh.terms.resource": "ресурс",
  "bh.terms.tattoo": "татуировка",
  "bh.terms.initiative": "инициатива",
  "bh.terms.boxes": "ячейки урона",
  "bh.terms.task": "задача",
  "bh.terms.difficulty": "сложность",
  "bh.action.activate": "Активировать черту",
  "bh.action.reassign": "Переназначить черты",
  "bh.action.maneuver": "Манёвр",
  "bh.action.strike": "Удар",
  "bh.action.neutralise": "Нейтрализовать ресурс",
  "bh.action.restore": "Восстановить ресурс",
  "bh.action.achieve": "Достижение",
  "bh.action.help": "Помочь другому охотнику",
  "bh.action.switch": "Переключиться на другую цель",
  "bh.action.pass": "Передать преимущество",
  "bh.fate.survive": "Проиграть приключение, но выжить",
  "bh.fate.retire": "Выиграть испытание и приключение и уйти из игры",
  "bh.outcome.beaten": "препятствие преодолено",
  "bh.outcome.knockout": "вырублен",
  "bh.outcome.fatal": "фатальный урон",
  "bh.outcome.giveUp": "охотники сдались",
  "bh.outcome.gmConceded": "ведущий сдался",
  "bh.outcome.sacrifice": "охотник отдал всё ради победы",

  // Price explanation (one line each)
  "bh.price.minimalBoxes": `Минимальный набор ячеек урона 1/1/1/1/1 (обязательно): ${price}`,
  "bh.price.trait": `Черта «{name}» +{value}: ${price}`,
  "bh.price.resource": `Ресурс «{name}» {kind, select, attack {атакующий} defence {защитный} other {{kind}}} +{value}: ${price}`,
  "bh.price.initiative": `Инициатива {value}: ${price}`,
  "bh.price.extraBoxes": `Дополнительные ячейки {stage, select, light {лёгкого} medium {среднего} heavy {тяжёлого} knockout {вырубающего} fatal {фатального} other {{stage}}} урона ×{count}: ${price}`,
  "bh.price.neutralise": `«{resource}» (+{value}) нейтрализован заранее: ${price}`,
  "bh.price.rating": "Рейтинг {rating} (потолок {ceiling})",
  "bh.price.cost": "Цена: {rating} × {multiplier} = {cost} (фаза {phase}); резерв {before} → {after}",
  "bh.concession":
    "Ведущий сдаётся в фазе {phase}: {cost, plural, one {# очко} few {# очка} many {# очков} other {# очка}} резерва ({before} → {after}); охотники получают {vp} ПО",

  // Creation warnings
  "bh.warn.traitCount": "У нового охотника {expected} черты, а здесь {count}.",
  "bh.warn.traitValues": "Черты нового охотника: {expected}, а здесь {values}.",
  "bh.warn.resourceCount": "У нового охотника {expected} ресурса, а здесь {count}.",
  "bh.warn.resourceValues": "Ресурсы нового охотника: {expected}, а здесь {values}.",
  "bh.warn.initiativeTotal":
    "Сумма инициатив {total}, а у нового охотника {expected} (по 1 в каждой сфере и +1 за каждый шаг создания).",
  "bh.warn.initiativeBelowOne": `${sphereFem} инициатива меньше 1.`,
  "bh.warn.boxTotal": `Всего ячеек ${stageGen} урона {total}, а у нового охотника {expected}.`,
  "bh.warn.boxRule": `Ячейки ${sphereGen} урона нарушают правило: хотя бы одна на стадию и не больше, чем на предыдущей стадии.`,
  "bh.warn.tattoos":
    "Новый охотник начинает без татуировок, а здесь {count, plural, one {# татуировка} few {# татуировки} many {# татуировок} other {# татуировки}}.",
  "bh.warn.damage": "Новый охотник начинает без урона.",

  // Errors
  "errors.bh.badTraits":
    'Не удалось разобрать черты: «{fragment}». Пишите через пробел Название:значение, например Голодные:4 Окружаем:2 (название из нескольких слов: Голодные_и_отчаянные:4 или "Голодные и отчаянные":4).',
  "errors.bh.badResources":
    "Не удалось разобрать ресурсы: «{fragment}». Пишите А<значение> для атакующего и З<значение> для защитного (можно латиницей A и D), при желании с названием: З6 А4 или Ржавые мечи:А2.",
  "errors.bh.badBoxes":
    "Не удалось разобрать ячейки урона: «{fragment}». Нужно пять чисел Л/С/Т/В/Ф, например 2/1/1/1/1.",
  "errors.bh.oddValue":
    "«{name}» +{value}: покупаемые значения должны быть чётными (1 очко даёт +2), например +2, +4, +6.",
  "errors.bh.valueNotPositive": "«{name}»: значение должно быть целым положительным числом, а не {value}.",
  "errors.bh.badInitiative": "Инициатива должна быть целым числом от 0, а не {value}.",
  "errors.bh.oddInitiative": "Инициатива {value}: покупаемая инициатива должна быть чётной (1 очко даёт +2).",
  "errors.bh.duplicateName": "«{name}» встречается дважды — дайте каждому своё название.",
  "errors.bh.emptyName": "Название не может быть пустым.",
  "errors.bh.extraBoxesOnlyInClimax":
    "Дополнительные ячейки урона можно купить только для последнего испытания приключения (кульминации). Укажите 1/1/1/1/1 или отметьте испытание как кульминацию.",
  "errors.bh.boxesAtLeastOne": `На каждой стадии нужна хотя бы одна ячейка, а ячеек ${stageGen} урона {count}.`,
  "errors.bh.boxesIncrease": `Ячеек ${stageGen} урона ({count}) не может быть больше, чем ячеек ${previousStageGen} ({previous}).`,
  "errors.bh.damageOverBoxes": `Ячеек ${stageGen} ${sphereGen} урона отмечено {filled}, а всего их {boxes}.`,
  "errors.bh.overCeiling": "Рейтинг испытания {rating} выше потолка {ceiling}. Купите поменьше.",
  "errors.bh.notEnoughReserve":
    "Переход к кубикам стоит {cost, plural, one {# очко} few {# очка} many {# очков} other {# очка}}, а в резерве осталось {left}.",
  "errors.bh.badPhase": "Фаза переговоров — 1, 2 или 3, а не {phase}.",
  "errors.bh.badRating": "Рейтинг — целое число от 1, а не {rating}.",
  "errors.bh.badAmount": "Нужно целое положительное число, а не {amount}.",
  "errors.bh.badReserve": "Резерв — целое число от 0, а не {value}.",
  "errors.bh.badCeiling": "Потолок — целое число от 1, а не {value}.",
  "errors.bh.notEnoughVp": "Не хватает победных очков: есть {have}, нужно {need}.",
  "errors.bh.badSphere": "Сфера — физическая, социальная или ментальная, а не {sphere}.",
  "errors.bh.noHunters": "В испытании должен участвовать хотя бы один охотник.",
  "errors.bh.noObstacle": "В испытании нужно препятствие.",
  "errors.bh.duplicateParticipant": "{id} участвует дважды.",
  "errors.bh.unknownParticipant": "{id} не участвует в этом испытании.",
  "errors.bh.resourceNotInSphere": `«{resource}» — не ${sphereMasc} ресурс, в этом испытании он не участвует.`,
  "errors.bh.preActivationNotAllowed":
    "{phase, select, 1 {В первой фазе черты не пред-активируются.} 2 {Во второй фазе пред-активировать черту может только охотник.} other {Здесь пред-активация не разрешена.}}",
  "errors.bh.tooManyPreActivations": "{name} может пред-активировать только {max} черту.",
  "errors.bh.alreadyPreActivated":
    "Черта «{trait}» уже пред-активировалась в этом приключении — каждую можно только раз.",
  "errors.bh.notYourTurn": "Сейчас ходит {name}.",
  "errors.bh.bonusPending": "Сначала {name} делает свободный удар или достижение (или отказывается).",
  "errors.bh.noBonus": "Свободного удара или достижения сейчас нет.",
  "errors.bh.challengeOver": "Это испытание уже закончено.",
  "errors.bh.challengeStillActive": "Испытание ещё идёт.",
  "errors.bh.fatalChoicePending":
    "{name} получает фатальный урон и сначала должен выбрать: выжить и проиграть приключение или победить и уйти из игры.",
  "errors.bh.noFatalChoice": "Сейчас никому не нужно делать выбор после фатального урона.",
  "errors.bh.badFateChoice": "Выберите «выжить» или «уйти из игры», а не {choice}.",
  "errors.bh.unknownTrait": "У {name} нет черты «{trait}».",
  "errors.bh.unknownResource": "У {name} нет ресурса «{resource}» в этом испытании.",
  "errors.bh.traitAlreadyActive":
    "Черта «{trait}» уже активна. Чтобы сменить назначение, переназначьте черты.",
  "errors.bh.traitNotActive": "Черта «{trait}» не активна. Сначала активируйте её.",
  "errors.bh.tooManyActive": `На ${role} может быть активно не больше {max} черт. Переназначьте черты или обойдитесь имеющимися.`,
  "errors.bh.nothingToReassign": "Ничего не меняется: укажите активные черты и их новое назначение.",
  "errors.bh.badRole": "Черту активируют на атаку или на защиту, а не {role}.",
  "errors.bh.notAnOpponent": "{name} на вашей стороне.",
  "errors.bh.participantOut": "{name} уже выбыл из испытания.",
  "errors.bh.chooseTarget": "Укажите цель: противников несколько.",
  "errors.bh.offerTooSmall": "Предложить можно не меньше {min} очков преимущества, а не {points}.",
  "errors.bh.offerOnlyOnHuntersTurn": "Ведущий делает предложение только охотнику, который сейчас ходит.",
  "errors.bh.noOffer": "Принимать нечего: предложения нет. Бросайте кубики.",
  "errors.bh.badMargin": "Перевес — целое число от 1, а не {margin}.",
  "errors.bh.notEnoughAdvantage":
    "Не хватает преимущества: нужно {need} ОП, есть {have}. Кубик удара или достижения стоит 4 ОП.",
  "errors.bh.badDiceCount": "Купите хотя бы один кубик (а не {dice}).",
  "errors.bh.resourceAlreadyNeutralised": "Ресурс «{resource}» уже нейтрализован.",
  "errors.bh.resourceNotNeutralised": "Ресурс «{resource}» не нейтрализован.",
  "errors.bh.taskExists": "Задача «{task}» уже есть.",
  "errors.bh.unknownTask": "Задачи «{task}» нет.",
  "errors.bh.taskResolved": "Задача «{task}» уже разрешена.",
  "errors.bh.badDifficulty": "Сложность — от {min} до {max}, а не {difficulty}.",
  "errors.bh.extraDiceOnlyAfterWin":
    "Дополнительные кубики исхода (по 6 ОП) можно купить, только когда охотники выиграли испытание.",
  "errors.bh.poolMismatch": "Нужно сложить ровно {need} ОП (по 6 за кубик), а предложено {offered}.",
  "errors.bh.multiHunterOnly": "Это действие есть только в игре с несколькими охотниками.",
  "errors.bh.notAHunter": "{name} — не охотник.",
  "errors.bh.helpYourself": "Выберите другого охотника.",
  "errors.bh.sameTarget": "Выберите другую цель.",
  "errors.bh.unknownAction": "Неизвестное действие испытания: {action}.",
} satisfies Messages;
