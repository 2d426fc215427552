import { type ErrorPath, FormErrors } from "./errors.js";

/** Locales Discord accepts as keys of `name_localizations` / `description_localizations`. */
export const DISCORD_LOCALES: readonly string[] = [
  "id",
  "da",
  "de",
  "en-GB",
  "en-US",
  "es-ES",
  "es-419",
  "fr",
  "hr",
  "it",
  "lt",
  "hu",
  "nl",
  "no",
  "pl",
  "pt-BR",
  "ro",
  "fi",
  "sv-SE",
  "vi",
  "tr",
  "cs",
  "el",
  "bg",
  "ru",
  "uk",
  "hi",
  "th",
  "zh-CN",
  "ja",
  "zh-TW",
  "ko",
];

export const OptionType = {
  Subcommand: 1,
  SubcommandGroup: 2,
  String: 3,
  Integer: 4,
  Boolean: 5,
  User: 6,
  Channel: 7,
  Role: 8,
  Mentionable: 9,
  Number: 10,
  Attachment: 11,
} as const;

const CHAT_INPUT = 1;
const NAME_PATTERN = /^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const MAX_COMMAND_CHARS = 8000;

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const codePoints = (s: string): number => [...s].length;

/** Discord's rule for CHAT_INPUT names and their localizations. */
export function isValidChatInputName(name: unknown): boolean {
  return typeof name === "string" && NAME_PATTERN.test(name) && name === name.toLowerCase();
}

function checkName(errors: FormErrors, path: ErrorPath, name: unknown, chatInput: boolean): void {
  if (typeof name !== "string") {
    errors.add(path, "BASE_TYPE_REQUIRED", "This field is required");
    return;
  }
  if (chatInput) {
    if (!isValidChatInputName(name)) {
      errors.add(path, "APPLICATION_COMMAND_INVALID_NAME", `Command name is invalid: "${name}"`);
    }
  } else if (codePoints(name) < 1 || codePoints(name) > 32) {
    errors.add(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.");
  }
}

function checkDescription(errors: FormErrors, path: ErrorPath, description: unknown): void {
  if (typeof description !== "string") {
    errors.add(path, "BASE_TYPE_REQUIRED", "This field is required");
    return;
  }
  const n = codePoints(description);
  if (n < 1 || n > 100) errors.add(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.");
}

/** Validates a localization map; returns the longest localized value (for the 8000 budget). */
function checkLocalizations(
  errors: FormErrors,
  path: ErrorPath,
  map: unknown,
  checkValue: (valuePath: ErrorPath, value: unknown) => void,
): number {
  if (map === undefined || map === null) return 0;
  if (!isObj(map)) {
    errors.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType");
    return 0;
  }
  let longest = 0;
  for (const [locale, value] of Object.entries(map)) {
    if (!DISCORD_LOCALES.includes(locale)) {
      errors.add([...path, locale], "ENUM_TYPE_COERCE", `Value "${locale}" is not a valid enum value.`);
      continue;
    }
    if (value === null) continue;
    checkValue([...path, locale], value);
    if (typeof value === "string") longest = Math.max(longest, codePoints(value));
  }
  return longest;
}

function lengthWithLocalizations(base: unknown, localized: number): number {
  return Math.max(typeof base === "string" ? codePoints(base) : 0, localized);
}

/** Validates one level of options; returns characters counted toward the 8000 budget. */
function checkOptions(errors: FormErrors, path: ErrorPath, options: unknown, depth: number): number {
  if (options === undefined || options === null) return 0;
  if (!Array.isArray(options)) {
    errors.add(path, "BASE_TYPE_ARRAY", "Must be an array.");
    return 0;
  }
  if (options.length > 25) errors.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.");

  const types = options.map((o) => (isObj(o) ? o.type : undefined));
  const nesting = types.filter((t) => t === OptionType.Subcommand || t === OptionType.SubcommandGroup).length;
  if (nesting > 0 && nesting < options.length) {
    errors.add(
      path,
      "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
      "Sub-commands and sub-command groups cannot be mixed with other option types",
    );
  }

  let chars = 0;
  let sawOptional = false;
  const names = new Set<string>();
  options.forEach((option, index) => {
    const p = [...path, index];
    if (!isObj(option)) {
      errors.add(p, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
      return;
    }
    const type = option.type;
    if (typeof type !== "number" || type < 1 || type > 11 || !Number.isInteger(type)) {
      errors.add([...p, "type"], "BASE_TYPE_CHOICES", `Value must be one of (1..11).`);
      return;
    }
    checkName(errors, [...p, "name"], option.name, true);
    checkDescription(errors, [...p, "description"], option.description);
    if (typeof option.name === "string") {
      if (names.has(option.name)) {
        errors.add(
          [...p, "name"],
          "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
          "Option names must be unique",
        );
      }
      names.add(option.name);
    }
    const longestName = checkLocalizations(
      errors,
      [...p, "name_localizations"],
      option.name_localizations,
      (vp, v) => checkName(errors, vp, v, true),
    );
    const longestDescription = checkLocalizations(
      errors,
      [...p, "description_localizations"],
      option.description_localizations,
      (vp, v) => checkDescription(errors, vp, v),
    );
    chars += lengthWithLocalizations(option.name, longestName);
    chars += lengthWithLocalizations(option.description, longestDescription);

    const isNesting = type === OptionType.Subcommand || type === OptionType.SubcommandGroup;
    if (isNesting) {
      if (depth === 0 && type === OptionType.Subcommand) {
        chars += checkOptions(errors, [...p, "options"], option.options, 2);
      } else if (depth === 0 && type === OptionType.SubcommandGroup) {
        const inner = option.options;
        if (!Array.isArray(inner) || inner.length === 0) {
          errors.add(
            [...p, "options"],
            "BASE_TYPE_BAD_LENGTH",
            "Sub-command groups must contain sub-commands",
          );
        } else {
          inner.forEach((sub, i) => {
            if (!isObj(sub) || sub.type !== OptionType.Subcommand) {
              errors.add(
                [...p, "options", i, "type"],
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Sub-command groups may only contain sub-commands",
              );
            }
          });
        }
        chars += checkOptions(errors, [...p, "options"], inner, 1);
      } else if (depth === 1 && type === OptionType.Subcommand) {
        chars += checkOptions(errors, [...p, "options"], option.options, 2);
      } else {
        errors.add(
          [...p, "type"],
          "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
          "Sub-commands and groups cannot be nested this deep",
        );
      }
      return;
    }

    const required = option.required === true;
    if (option.required !== undefined && typeof option.required !== "boolean") {
      errors.add([...p, "required"], "BASE_TYPE_BOOLEAN", "Must be either true or false.");
    }
    if (required && sawOptional) {
      errors.add(
        [...p, "required"],
        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID_ORDER",
        "Required options must be placed before non-required options",
      );
    }
    if (!required) sawOptional = true;

    const choosable = type === OptionType.String || type === OptionType.Integer || type === OptionType.Number;
    if (option.choices !== undefined && option.choices !== null) {
      if (!choosable) {
        errors.add(
          [...p, "choices"],
          "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
          "Choices are not allowed here",
        );
      } else {
        chars += checkChoices(errors, [...p, "choices"], option.choices, type);
      }
      if (option.autocomplete === true) {
        errors.add(
          [...p, "autocomplete"],
          "APPLICATION_COMMAND_AUTOCOMPLETE_WITH_CHOICES",
          "Autocomplete cannot be enabled on an option with choices",
        );
      }
    }
    if (option.autocomplete === true && !choosable) {
      errors.add(
        [...p, "autocomplete"],
        "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
        "Autocomplete not allowed here",
      );
    }
    const numeric = type === OptionType.Integer || type === OptionType.Number;
    for (const key of ["min_value", "max_value"] as const) {
      const v = option[key];
      if (v === undefined || v === null) continue;
      if (!numeric) errors.add([...p, key], "BASE_TYPE_INVALID", `${key} is only allowed on numeric options`);
      else if (typeof v !== "number" || (type === OptionType.Integer && !Number.isInteger(v))) {
        errors.add([...p, key], "NUMBER_TYPE_COERCE", `Value "${String(v)}" is not a valid number.`);
      }
    }
    if (typeof option.min_value === "number" && typeof option.max_value === "number") {
      if (option.min_value > option.max_value) {
        errors.add([...p, "min_value"], "BASE_TYPE_INVALID", "min_value must not exceed max_value");
      }
    }
    for (const [key, lo, hi] of [
      ["min_length", 0, 6000],
      ["max_length", 1, 6000],
    ] as const) {
      const v = option[key];
      if (v === undefined || v === null) continue;
      if (type !== OptionType.String)
        errors.add([...p, key], "BASE_TYPE_INVALID", `${key} is only allowed on strings`);
      else if (typeof v !== "number" || !Number.isInteger(v) || v < lo || v > hi) {
        errors.add([...p, key], "NUMBER_TYPE_MIN_MAX", `Int value should be between ${lo} and ${hi}.`);
      }
    }
    if (option.channel_types !== undefined && type !== OptionType.Channel) {
      errors.add(
        [...p, "channel_types"],
        "BASE_TYPE_INVALID",
        "channel_types is only allowed on channel options",
      );
    }
  });
  return chars;
}

function checkChoices(errors: FormErrors, path: ErrorPath, choices: unknown, type: number): number {
  if (!Array.isArray(choices)) {
    errors.add(path, "BASE_TYPE_ARRAY", "Must be an array.");
    return 0;
  }
  if (choices.length > 25) errors.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.");
  let chars = 0;
  choices.forEach((choice, i) => {
    const p = [...path, i];
    if (!isObj(choice)) {
      errors.add(p, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
      return;
    }
    const name = choice.name;
    if (typeof name !== "string" || codePoints(name) < 1 || codePoints(name) > 100) {
      errors.add([...p, "name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.");
    }
    const longest = checkLocalizations(
      errors,
      [...p, "name_localizations"],
      choice.name_localizations,
      (vp, v) => {
        if (typeof v !== "string" || codePoints(v) < 1 || codePoints(v) > 100) {
          errors.add(vp, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.");
        }
      },
    );
    chars += lengthWithLocalizations(name, longest);
    const value = choice.value;
    if (type === OptionType.String) {
      if (typeof value !== "string" || codePoints(value) < 1 || codePoints(value) > 100) {
        errors.add([...p, "value"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.");
      }
    } else if (typeof value !== "number" || (type === OptionType.Integer && !Number.isInteger(value))) {
      errors.add([...p, "value"], "NUMBER_TYPE_COERCE", `Value "${String(value)}" is not a valid number.`);
    }
    chars += String(value ?? "").length;
  });
  return chars;
}

/**
 * Validates a bulk-overwrite body the way Discord does and throws ApiError(400, 50035) on any problem.
 * Returns the commands as plain objects (still without ids).
 */
export function validateCommandList(body: unknown): Obj[] {
  const errors = new FormErrors();
  if (!Array.isArray(body)) {
    errors.add([], "BASE_TYPE_ARRAY", "Must be an array.");
    errors.throwIfAny();
    return [];
  }
  const seen = new Map<string, number>();
  body.forEach((command, index) => {
    validateOneCommand(errors, [index], command);
    if (isObj(command) && typeof command.name === "string") {
      const key = `${command.type ?? CHAT_INPUT}:${command.name}`;
      if (seen.has(key)) {
        errors.add(
          [index, "name"],
          "APPLICATION_COMMANDS_DUPLICATE_NAME",
          `Application command names must be unique`,
        );
      }
      seen.set(key, index);
    }
  });
  const chatInput = body.filter((c) => isObj(c) && (c.type ?? CHAT_INPUT) === CHAT_INPUT).length;
  if (chatInput > 100) errors.add([], "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer chat input commands.");
  errors.throwIfAny();
  return body as Obj[];
}

/** Validates one command (also used by POST /commands). */
export function validateOneCommand(errors: FormErrors, path: ErrorPath, command: unknown): void {
  if (!isObj(command)) {
    errors.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType");
    return;
  }
  const type = command.type ?? CHAT_INPUT;
  if (type !== 1 && type !== 2 && type !== 3 && type !== 4) {
    errors.add([...path, "type"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.");
    return;
  }
  const chatInput = type === CHAT_INPUT;
  checkName(errors, [...path, "name"], command.name, chatInput);
  const longestName = checkLocalizations(
    errors,
    [...path, "name_localizations"],
    command.name_localizations,
    (vp, v) => checkName(errors, vp, v, chatInput),
  );
  let chars = lengthWithLocalizations(command.name, longestName);
  if (chatInput) {
    checkDescription(errors, [...path, "description"], command.description);
    const longestDescription = checkLocalizations(
      errors,
      [...path, "description_localizations"],
      command.description_localizations,
      (vp, v) => checkDescription(errors, vp, v),
    );
    chars += lengthWithLocalizations(command.description, longestDescription);
    chars += checkOptions(errors, [...path, "options"], command.options, 0);
  } else {
    if (command.description !== undefined && command.description !== "" && command.description !== null) {
      errors.add(
        [...path, "description"],
        "BASE_TYPE_INVALID",
        "Context menu commands cannot have a description",
      );
    }
    if (Array.isArray(command.options) && command.options.length > 0) {
      errors.add([...path, "options"], "BASE_TYPE_INVALID", "Context menu commands cannot have options");
    }
  }
  if (chars > MAX_COMMAND_CHARS) {
    errors.add(
      path,
      "APPLICATION_COMMAND_TOO_LARGE",
      `Command exceeds maximum size (${MAX_COMMAND_CHARS}): ${chars}`,
    );
  }
  const perms = command.default_member_permissions;
  if (perms !== undefined && perms !== null && (typeof perms !== "string" || !/^\d+$/.test(perms))) {
    errors.add(
      [...path, "default_member_permissions"],
      "BASE_TYPE_INVALID",
      "Must be a permission bit string",
    );
  }
  checkEnumList(errors, [...path, "contexts"], command.contexts, [0, 1, 2]);
  checkEnumList(errors, [...path, "integration_types"], command.integration_types, [0, 1]);
}

function checkEnumList(errors: FormErrors, path: ErrorPath, value: unknown, allowed: number[]): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) {
    errors.add(path, "BASE_TYPE_ARRAY", "Must be an array.");
    return;
  }
  value.forEach((v, i) => {
    if (!allowed.includes(v as number)) {
      errors.add([...path, i], "ENUM_TYPE_COERCE", `Value "${String(v)}" is not a valid enum value.`);
    }
  });
}

/** Counts characters toward the 8000 limit without validating (exported for tests and diagnostics). */
export function commandSize(command: unknown): number {
  const errors = new FormErrors();
  let size = 0;
  if (!isObj(command)) return 0;
  const longestName = checkLocalizations(errors, [], command.name_localizations, () => {});
  const longestDescription = checkLocalizations(errors, [], command.description_localizations, () => {});
  size += lengthWithLocalizations(command.name, longestName);
  size += lengthWithLocalizations(command.description, longestDescription);
  size += checkOptions(new FormErrors(), [], command.options, 0);
  return size;
}
