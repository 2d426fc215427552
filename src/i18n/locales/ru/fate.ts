import type { Messages } from "../../types.js";

const skills: Record<string, string> = {
  physique: "Выносливость",
  eloquence: "Красноречие",
  athletics: "Атлетика",
  notice: "Внимательность",
  riding: "Наездничество",
  will: "Воля",
  thievery: "Воровство",
  fight: "Драка",
  lore: "Знания",
  contacts: "Контакты",
  deceive: "Обман",
  provoke: "Провокация",
  investigate: "Расследование",
  crafts: "Ремесло",
  resources: "Ресурсы",
  stealth: "Скрытность",
  shoot: "Стрельба",
  empathy: "Эмпатия",
};

const factionAbilities: Record<string, string> = {
  military: "Военная сила",
  magic: "Магическая сила",
  resources: "Ресурсы",
  commerce: "Коммерция",
  popularity: "Популярность",
  espionage: "Шпионаж",
  art: "Искусство",
};

const slots: Record<string, string> = {
  mild: "лёгкого",
  moderate: "среднего",
  severe: "серьёзного",
  mildPhysical: "дополнительного лёгкого (физического)",
  mildMental: "дополнительного лёгкого (ментального)",
};

const slotsNominative: Record<string, string> = {
  mild: "Лёгкое",
  moderate: "Среднее",
  severe: "Серьёзное",
  mildPhysical: "Дополнительное лёгкое (физическое)",
  mildMental: "Дополнительное лёгкое (ментальное)",
};

/** `{param, select, key {Название} …}`: a key passed as a parameter, shown by its name. */
const select = (param: string, names: Record<string, string>) =>
  `{${param}, select, ${Object.entries(names)
    .map(([key, name]) => `${key} {${name}}`)
    .join(" ")} other {{${param}}}}`;

const skill = select("skill", skills);
const fp = (param: string) =>
  `{${param}, plural, one {# очко судьбы} few {# очка судьбы} many {# очков судьбы} other {# очка судьбы}}`;
const shifts = (param: string) =>
  `{${param}, plural, one {# сдвиг} few {# сдвига} many {# сдвигов} other {# сдвига}}`;
const skillsCount = (param: string) =>
  `{${param}, plural, one {# навык} few {# навыка} many {# навыков} other {# навыка}}`;
const abilitiesCount = (param: string) =>
  `{${param}, plural, one {# умение} few {# умения} many {# умений} other {# умения}}`;

export default {
  "fate.ladder.legendary": "Легендарно",
  "fate.ladder.epic": "Эпично",
  "fate.ladder.fantastic": "Фантастично",
  "fate.ladder.superb": "Великолепно",
  "fate.ladder.great": "Отлично",
  "fate.ladder.good": "Хорошо",
  "fate.ladder.fair": "Неплохо",
  "fate.ladder.average": "Средне",
  "fate.ladder.mediocre": "Посредственно",
  "fate.ladder.poor": "Плохо",
  "fate.ladder.terrible": "Ужасно",

  "fate.outcome.fail": "Провал",
  "fate.outcome.tie": "Ничья",
  "fate.outcome.success": "Успех",
  "fate.outcome.style": "Стильный успех",

  "fate.action.overcome": "Преодоление",
  "fate.action.advantage": "Создание преимущества",
  "fate.action.attack": "Атака",
  "fate.action.defend": "Защита",

  ...Object.fromEntries(Object.entries(skills).map(([key, name]) => [`fate.skill.${key}`, name])),

  "fate.aspectKind.ambition": "Амбиции",
  "fate.aspectKind.belief": "Убеждения",
  "fate.aspectKind.connections": "Связи",
  "fate.aspectKind.flaw": "Недостаток",
  "fate.aspectKind.talent": "Талант",
  "fate.aspectKind.situational": "Ситуативный аспект",
  "fate.aspectKind.boost": "Усиление",
  "fate.aspectKind.consequence": "Последствие",
  "fate.aspectKind.faction": "Аспект фракции",

  "fate.consequence.mild": "Лёгкое последствие",
  "fate.consequence.moderate": "Среднее последствие",
  "fate.consequence.severe": "Серьёзное последствие",
  ...Object.fromEntries(
    Object.entries(slotsNominative).map(([key, name]) => [
      `fate.consequenceSlot.${key}`,
      `${name} (${key === "moderate" ? 4 : key === "severe" ? 6 : 2})`,
    ]),
  ),

  "fate.stress.physical": "Физический стресс",
  "fate.stress.mental": "Ментальный стресс",

  "fate.invokeMode.plus2": "+2 к результату",
  "fate.invokeMode.reroll": "Переброс кубов",
  "fate.invokeMode.passive": "+2 к пассивному сопротивлению",
  "fate.payment.free-invoke": "бесплатный призыв",
  "fate.payment.fate-point": "очко судьбы",

  ...Object.fromEntries(
    Object.entries(factionAbilities).map(([key, name]) => [`fate.factionAbility.${key}`, name]),
  ),

  "fate.effect.overcome.fail": "Провал: цель не достигнута — или достигнута дорогой ценой (решает ведущий).",
  "fate.effect.overcome.tie": "Ничья: цель достигнута, но за малую цену.",
  "fate.effect.overcome.success": "Успех: вы получаете то, что хотели.",
  "fate.effect.overcome.style": "Стильный успех: вы получаете то, что хотели, и вдобавок усиление.",
  "fate.effect.advantage.new.fail":
    "Провал: аспект не появляется — или появляется, но бесплатный призыв достаётся противнику.",
  "fate.effect.advantage.new.tie": "Ничья: вместо ситуативного аспекта вы получаете усиление.",
  "fate.effect.advantage.new.success": "Успех: новый ситуативный аспект с одним бесплатным призывом.",
  "fate.effect.advantage.new.style":
    "Стильный успех: новый ситуативный аспект с двумя бесплатными призывами.",
  "fate.effect.advantage.existing.fail": "Провал: бесплатный призыв этого аспекта получает противник.",
  "fate.effect.advantage.existing.tie":
    "Ничья: вы или ваши союзники можете один раз призвать аспект бесплатно.",
  "fate.effect.advantage.existing.success":
    "Успех: вы или ваши союзники можете один раз призвать аспект бесплатно.",
  "fate.effect.advantage.existing.style": "Стильный успех: аспект можно дважды призвать бесплатно.",
  "fate.effect.attack.fail": "Провал: цель не получает урона.",
  "fate.effect.attack.tie": "Ничья: урона нет, но вы получаете усиление.",
  "fate.effect.attack.success": `Успех: удар силой ${shifts("hit")}.`,
  "fate.effect.attack.style": `Стильный успех: удар силой ${shifts("hit")} — можно ослабить его на 1 и получить усиление.`,
  "fate.effect.defend.fail": "Провал: атака достигает цели.",
  "fate.effect.defend.tie": "Ничья: противник получает усиление.",
  "fate.effect.defend.success": "Успех: вы избегаете атаки.",
  "fate.effect.defend.style": "Стильный успех: вы избегаете атаки и получаете усиление.",

  "errors.fate.unknownSkill": "Навыка «{input}» нет. Может быть, вы имели в виду: {suggestions}?",
  "errors.fate.unknownAspect": "Аспекта «{name}» здесь нет. Проверьте написание в /aspect list.",
  "errors.fate.aspectExists": "Аспект «{name}» здесь уже есть.",
  "errors.fate.aspectNameInvalid": "Название аспекта — от 1 до {max} символов.",
  "errors.fate.freeInvokesInvalid": "У аспекта может быть от 0 до {max} бесплатных призывов.",
  "errors.fate.noFreeInvokes":
    "У аспекта «{aspect}» не осталось бесплатных призывов, доступных вам. Заплатите очком судьбы.",
  "errors.fate.cannotInvoke":
    "У вас нет очков судьбы, а у аспекта «{aspect}» нет для вас бесплатных призывов — призвать его нельзя.",
  "errors.fate.notEnoughFatePoints": `У вас ${fp("have")}, а нужно ${fp("need")}.`,
  "errors.fate.fatePointsBelowZero": `Нельзя забрать ${fp("change")}: осталось только ${fp("have")}.`,
  "errors.fate.fatePointsChangeInvalid": "Изменение очков судьбы должно быть целым числом.",
  "errors.fate.aspectAlreadyInvoked":
    "Аспект «{aspect}» уже призван за очко судьбы в этой проверке. Используйте бесплатный призыв или другой аспект.",
  "errors.fate.noPassiveOpposition": "У этой проверки нет пассивного сопротивления, которое можно усилить.",
  "errors.fate.oppositionHasInvokes":
    "Это пассивное сопротивление уже усилено призывами — заменить его сопротивлением другого типа нельзя.",
  "errors.fate.bonusOutOfRange": "Бонус — целое число от −{max} до +{max}.",
  "errors.fate.oppositionOutOfRange": "Сопротивление — целое число от −{max} до +{max}.",
  "errors.fate.cannotTradeHit": "Обменять сдвиг удара на усиление можно только при стильном успехе атаки.",
  "errors.fate.compelPointsInvalid": "Навязывание стоит от 1 до {max} очков судьбы.",
  "errors.fate.cannotBuyOffCompel": `Откупиться стоит ${fp("need")}, а у вас ${fp("have")} — остаётся только согласиться.`,
  "errors.fate.notYourCharacter":
    "{name} — не ваш персонаж. Действовать за него может только его игрок или ведущий.",
  "errors.fate.gmOnly": "Это может сделать только ведущий.",
  "errors.fate.hitInvalid": "Сила удара — целое число сдвигов, 0 или больше.",
  "errors.fate.hitNotAbsorbed": `Выбранные ячейки и последствия поглощают ${shifts("absorbed")} из ${shifts("shifts")}. Выберите больше — или персонаж выбывает.`,
  "errors.fate.noSuchStressBox": "Ячейки стресса {box} нет: в этом счётчике их {count}.",
  "errors.fate.stressBoxChecked": "Ячейка стресса {box} уже отмечена.",
  "errors.fate.noSuchConsequenceSlot": `У персонажа нет ${select("slot", slots)} последствия.`,
  "errors.fate.consequenceSlotTaken": `${select("slot", slotsNominative)} последствие уже занято.`,
  "errors.fate.consequenceSlotFree": `${select("slot", slotsNominative)} последствие и так свободно.`,
  "errors.fate.consequenceSlotWrongKind": `${select("slot", slotsNominative)} последствие не подходит для такого урона.`,
  "errors.fate.skillRankInvalid": `Навык «${skill}» в пирамиде может быть от 0 до +{max} (бонусы расы задаются вместе с расой).`,
  "errors.fate.pyramidRankFull": `В пирамиде на уровне +{rank} может быть ${skillsCount("max")}, а получилось бы {count}.`,
  "errors.fate.pyramidIncomplete": `В пирамиде на уровне +{rank} нужно ${skillsCount("need")}, а сейчас {count}.`,
  "errors.fate.raceBonusInvalid": `Расовый бонус к навыку «${skill}» — от 0 до +{max}.`,
  "errors.fate.raceBonusTotal": "Расовые бонусы в сумме дают {total}, а можно не больше {max}.",
  "errors.fate.raceBonusIncomplete": "Расовые бонусы в сумме дают {total}, а у расы {need} очков бонусов.",
  "errors.fate.skillAboveCap": `Навык «${skill}» получился бы +{value}, а выше +{max} навык быть не может.`,
  "errors.fate.tooManyStunts":
    "У персонажа не больше {max} трюков (магическая способность считается за трюк).",
  "errors.fate.tooManyRaceStunts": "У расы не больше {max} трюков.",
  "errors.fate.stuntExists": "Трюк «{name}» уже есть.",
  "errors.fate.stuntTextTooLong": "Описание трюка — не длиннее {max} символов.",
  "errors.fate.unknownStunt": "У этого персонажа нет трюка «{name}».",
  "errors.fate.raceStuntFixed": "«{name}» — расовый трюк; его меняют вместе с расой.",
  "errors.fate.ultimateNeedsMagic": "УЛЬТИМАТИВНЫЙ АД И ИЗРАИЛЬ бывает только у магической способности.",
  "errors.fate.notMagic": "«{name}» — не магическая способность.",
  "errors.fate.noUltimate": "У способности «{name}» нет УЛЬТИМАТИВНОГО АДА И ИЗРАИЛЯ.",
  "errors.fate.magicSpent":
    "Магия «{name}» выжжена УЛЬТИМАТИВНЫМ АДОМ И ИЗРАИЛЕМ и вернётся с началом следующей игровой недели.",
  "errors.fate.nameInvalid": "Название — от 1 до {max} символов.",
  "errors.fate.refreshInvalid": "Обновление — целое число от 0 до {max}.",
  "errors.fate.ratingInvalid": "WR и AR — целые числа от 0 до {max}.",
  "errors.fate.conflictEnded": "Этот конфликт уже закончен.",
  "errors.fate.notInConflict": "Этот персонаж не участвует в конфликте.",
  "errors.fate.alreadyInConflict": "Этот персонаж уже участвует в конфликте.",
  "errors.fate.outOfConflict": "Этот персонаж уже сдался или выбыл из конфликта.",
  "errors.fate.hitPending": "Сначала этот персонаж должен принять уже нанесённый удар.",
  "errors.fate.concedeAfterRoll":
    "Кубики уже брошены — назад не отмотать: сначала примите удар. Сдаться можно перед следующим броском.",
  "errors.fate.contestNeedsTwo": "В состязании нужно хотя бы два участника.",
  "errors.fate.contestEnded": "Это состязание уже закончено.",
  "errors.fate.notInContest": "Этот персонаж не участвует в состязании.",
  "errors.fate.contestRollsMissing":
    "В каждом обмене бросают (или пропускают бросок) все участники; не хватает: {count}.",
  "errors.fate.challengeEnded": "Этот вызов уже закончен.",
  "errors.fate.skillUsedInChallenge": `Навык «${skill}» уже использован в этом вызове; на каждом этапе нужен другой навык.`,
  "errors.fate.unknownFactionAbility":
    "Умения фракции «{input}» нет. Умения: Военная сила, Магическая сила, Ресурсы, Коммерция, Популярность, Шпионаж, Искусство.",
  "errors.fate.factionRatingInvalid": `«${select("ability", factionAbilities)}» может быть +4, +3, +2, +1 или 0, но не {value}.`,
  "errors.fate.factionRatingFull": `У фракции на уровне +{rank} может быть ${abilitiesCount("max")}, а получилось бы {count}.`,
  "errors.fate.factionRatingIncomplete": `У фракции на уровне +{rank} нужно ${abilitiesCount("need")}, а сейчас {count}.`,
  "errors.fate.tooManyFactionAspects": "У фракции не больше {max} аспектов.",
} satisfies Messages;
