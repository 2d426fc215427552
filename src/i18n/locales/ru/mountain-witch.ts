import type { Messages } from "../../types.js";

/** Горная ведьма: названия по правилам (`mw.*`) и отказы (`errors.mw.*`). */
export default {
  "mw.degree.tie": "Ничья",
  "mw.degree.partial": "Частичный успех",
  "mw.degree.mixed": "Смешанный успех",
  "mw.degree.normal": "Обычный успех",
  "mw.degree.critical": "Критический успех",
  "mw.degree.double": "Двойной успех",

  "mw.quality.partial": "½ успеха (частичный)",
  "mw.quality.normal": "1 успех (обычный)",
  "mw.quality.critical": "1½ успеха (критический)",
  "mw.quality.double": "2 успеха (двойной)",

  "mw.duration.next-roll": "рана: до следующего броска",
  "mw.duration.chapter": "до конца главы",
  "mw.duration.permanent": "навсегда",
  "mw.duration.condition": "пока не {condition}",
  "mw.duration.taken-out": "вынос",

  "mw.takenOut.incapacitated": "{name} вынесен: выведен из строя",
  "mw.takenOut.dead": "{name} вынесен: погиб",

  "mw.strength.weak": "Слабый",
  "mw.strength.medium": "Средний",
  "mw.strength.strong": "Сильный",

  "mw.status.active": "В строю",
  "mw.status.incapacitated": "Выведен из строя",
  "mw.status.dead": "Погиб",

  "mw.trustUse.help": "Помощь",
  "mw.trustUse.betray": "Предательство",
  "mw.trustUse.narration": "Купленное повествование",

  "mw.narration.highest": "Рассказывает {name} (наибольший результат)",
  "mw.narration.roll-off": "Рассказывает {name} (выиграл переброс)",
  "mw.narration.trade": "Рассказывает {name} (объявил размен)",
  "mw.narration.bought": "Рассказывает {name} (купил повествование)",
  "mw.narration.none": "Тупик: никто не добился своего",

  "mw.obstacle.incapacity": "Недееспособность",

  "mw.fate.tragic-love": "Трагическая любовь",
  "mw.fate.oaths-of-the-past": "Клятвы прошлого",
  "mw.fate.revenge": "Месть",
  "mw.fate.true-motives": "Истинные мотивы",
  "mw.fate.unholy-pact": "Нечестивый пакт",
  "mw.fate.worst-fear": "Худший страх",

  "mw.sign.rat": "Крыса",
  "mw.sign.ox": "Бык",
  "mw.sign.tiger": "Тигр",
  "mw.sign.rabbit": "Кролик",
  "mw.sign.dragon": "Дракон",
  "mw.sign.snake": "Змея",
  "mw.sign.horse": "Конь",
  "mw.sign.ram": "Овен",
  "mw.sign.monkey": "Обезьяна",
  "mw.sign.rooster": "Петух",
  "mw.sign.dog": "Собака",
  "mw.sign.boar": "Кабан",

  "errors.mw.notEnoughTrust":
    "Не хватает доверия: от этого персонажа у вас {have, plural, one {# очко} few {# очка} many {# очков} other {# очка}}, а нужно {need}.",
  "errors.mw.trustSelf": "Нельзя давать доверие самому себе или тратить его на себя.",
  "errors.mw.trustAmountInvalid": "Тратить можно только целое число очков доверия, не меньше 1.",
  "errors.mw.trustNotInteger": "Доверие — целое число.",
  "errors.mw.trustNegative": "Доверие не может быть меньше 0.",
  "errors.mw.trustRaiseTooHigh": "В начале главы доверие можно поднять не больше чем на 1: максимум — {max}.",
  "errors.mw.trustTargetUnknown": "Этого персонажа нет в текущем раунде доверия.",
  "errors.mw.trustRoundClosed": "Этот раунд доверия уже закрыт.",
  "errors.mw.notInTrustRound": "Ваш персонаж не участвует в этом раунде доверия.",
  "errors.mw.trustAlreadySubmitted": "Вы уже отправили своё доверие на эту главу.",
  "errors.mw.trustRoundIncomplete": "Ещё не все игроки отправили своё доверие.",
  "errors.mw.betrayedCannotSpend": "Вашего персонажа предали в этом конфликте: тратить доверие в нём нельзя.",
  "errors.mw.duellistCannotUseTrust": "Дуэлянты не пользуются доверием: дуэль — честный поединок.",
  "errors.mw.duelTrustOnlyDead": "Тратить доверие на дуэль могут только игроки погибших персонажей.",
  "errors.mw.gmCannotTrade": "Ведущий никогда не объявляет размен — только игрок.",

  "errors.mw.notInConflict": "Этого персонажа нет в конфликте.",
  "errors.mw.alreadyInConflict": "{name} уже участвует в этом конфликте.",
  "errors.mw.characterIncapacitated":
    "{name} выведен из строя и не может участвовать в конфликтах, пока не оправится.",
  "errors.mw.characterDead":
    "{name} погиб: его игрок может помогать, предавать и покупать повествование за доверие, но не бросать за него кубик.",
  "errors.mw.conflictClosed": "Этот конфликт уже завершён.",
  "errors.mw.conflictAlreadyRolled": "Кубики в этом конфликте уже брошены, а бросок не переигрывается.",
  "errors.mw.conflictNotRolled": "Сначала бросьте кубики конфликта.",
  "errors.mw.conflictNeedsTwoSides": "Перед броском в конфликте должен быть кто-то с каждой стороны.",
  "errors.mw.dangerAlreadySet": "У общей опасности один кубик, и она уже добавлена в конфликт.",
  "errors.mw.dangerMissing": "Перед броском добавьте опасность — одного персонажа ведущего или преграду.",
  "errors.mw.dangerMustBeGm": "Общая опасность — это персонаж ведущего или преграда, а не персонаж игрока.",
  "errors.mw.cannotLeaveAfterTrust":
    "{name} не может выйти: доверие уже потрачено им, на него или против него.",
  "errors.mw.cannotHelpSelf": "Нельзя помогать самому себе.",
  "errors.mw.helpOnlyPlayerCharacters":
    "Помогать друг другу могут только персонажи игроков: помощь оплачивается доверием.",
  "errors.mw.helpChain": "{name} уже в паре с помощником — помогайте тому, кто бросает кубик.",
  "errors.mw.alreadyHelping": "{name} уже помогает кому-то в этом конфликте.",
  "errors.mw.helperOnOtherSide": "{name} на другой стороне этого конфликта и не может здесь помогать.",
  "errors.mw.betrayOnlyPlayerCharacters":
    "Предают друг друга только персонажи игроков: предательство оплачивается доверием.",
  "errors.mw.betrayTargetNotOpposing":
    "Предать персонажа {name} можно, только действуя против него в этом конфликте.",
  "errors.mw.betrayerNotInConflict":
    "Сначала вступите в конфликт против этого персонажа: предатель действует против него напрямую.",
  "errors.mw.killIntentAfterRoll": "Намерение убить нужно объявлять до броска.",
  "errors.mw.killNotDeclared":
    "Никто не объявил до броска, что хочет убить персонажа {name}: вынос означает потерю дееспособности.",
  "errors.mw.targetNotOpponent": "{name} не на противоположной стороне этого конфликта.",
  "errors.mw.tradeLevelInvalid":
    "Размен — это обычный, критический или двойной успех, но не частичный и не смешанный.",
  "errors.mw.tradeNeedsTie": "После броска размен можно объявить только при ничьей.",
  "errors.mw.alreadyTraded": "Размен здесь уже объявлен.",
  "errors.mw.tradeDamageOnDeclarer":
    "В групповом конфликте ущерб от размена получает тот, кто его объявил: {name}.",
  "errors.mw.pairingNeeded": "Уточните, о чьём столкновении с опасностью идёт речь.",
  "errors.mw.pairingNotFound": "В этом конфликте нет такого столкновения.",
  "errors.mw.narrationStarted": "Повествование уже началось — поздно.",
  "errors.mw.narrationAlreadyBought": "Повествование этого конфликта уже куплено.",
  "errors.mw.alreadyNarrator": "Вы и так рассказываете этот конфликт.",
  "errors.mw.narrationOnlyPlayerCharacters":
    "Повествование покупается за доверие и только между персонажами игроков.",
  "errors.mw.notEnoughSuccesses": "У этой стороны не осталось столько успехов на такой ущерб.",
  "errors.mw.alreadyTakenOut": "{name} уже вынесен.",
  "errors.mw.takenOutNoAbilityOrCondition":
    "Такой ущерб выносит персонажа {name}: он не может быть ущербом способности или условным.",
  "errors.mw.notIncapacitated": "Этот персонаж не выведен из строя.",
  "errors.mw.notRecoveryConflict": "Этот конфликт — не попытка восстановиться.",
  "errors.mw.recoveryNotYet": "Восстановиться можно попробовать начиная со следующей главы после выноса.",
  "errors.mw.recoveryAlreadyTried": "В этой главе попытка восстановиться уже была.",
  "errors.mw.opposesSelf": "Персонаж не может действовать против самого себя.",
  "errors.mw.notTwoSided":
    "Эти противники не делятся на две стороны: разбейте их на отдельные конфликты, в каждом по две стороны.",

  "errors.mw.duelSelf": "Нельзя вызвать на дуэль самого себя.",
  "errors.mw.duelOnlyPlayerCharacters": "Дуэль бывает только между двумя персонажами игроков.",
  "errors.mw.duelNeedsActive": "{name} сейчас не может драться на дуэли.",
  "errors.mw.duelNotChallenged": "Эта дуэль не ждёт ответа на вызов.",
  "errors.mw.duelNotStarted": "Эта дуэль ещё не началась.",
  "errors.mw.duelAlreadyRevealed": "Кубики этого раунда уже вскрыты.",
  "errors.mw.duelNotRevealed": "Дождитесь атаки: кубики ещё не вскрыты.",
  "errors.mw.duelWaiting": "Вы решили бросать дальше — ждём соперника.",
  "errors.mw.duelOver": "Кто-то вынесен: дуэль окончена.",
  "errors.mw.notInDuel": "Этого персонажа нет в дуэли.",

  "errors.mw.fateDeckEmpty": "В колоде не осталось тёмных судеб.",
  "errors.mw.fateNotDealt": "У этого персонажа ещё нет тёмной судьбы.",
  "errors.mw.fateAlreadyDealt": "У этого персонажа уже есть тёмная судьба.",
  "errors.mw.fateAlreadyRedrawn": "Вернуть судьбу и вытянуть другую можно только один раз.",
  "errors.mw.fateFinal": "Эта тёмная судьба уже окончательная.",
  "errors.mw.fateAlreadyRevealed": "Эта тёмная судьба уже раскрыта.",
  "errors.mw.fateUnknown": "Такой тёмной судьбы нет.",
  "errors.mw.fatesNotFinal":
    "Невыпавшие судьбы открываются, когда каждый игрок оставил себе судьбу или вытянул другую.",
  "errors.mw.fateChooseMode": "За этим столом игроки выбирают тёмные судьбы сами — колоды нет.",
  "errors.mw.fateDealMode": "За этим столом тёмные судьбы тянут из колоды, а не выбирают.",

  "errors.mw.zodiacTaken": "Этот знак зодиака уже занят за этим столом.",
} satisfies Messages;
