import {
  type APIApplicationCommandOption,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  InteractionContextType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from "discord.js";
import { catalogues } from "../src/i18n/index.js";

/**
 * Slash commands as plain data. English names are a fixed contract with the servers that use them; every
 * description and every Russian localization comes from the catalogues by the option's
 * path, so nothing can be left unlocalized: `buildCommand` throws on a missing key.
 *
 * Keys, for a path like `character.create.strength`:
 *   `cmd.character.create.strength.desc`    English description (en catalogue), Russian (ru)
 *   `cmd.character.create.strength.name`    Russian name (ru catalogue only)
 *   `cmd.character.create.strength.choice.weak`   choice label (both)
 */
export type OptionSpec =
  | {
      name: string;
      type: "string";
      required?: boolean;
      choices?: readonly string[];
      /** Name of an autocomplete source (src/app/*\/autocomplete). */
      autocomplete?: string;
      minLength?: number;
      maxLength?: number;
    }
  | {
      name: string;
      type: "integer" | "number";
      required?: boolean;
      choices?: readonly number[];
      min?: number;
      max?: number;
      autocomplete?: string;
    }
  | { name: string; type: "boolean" | "user"; required?: boolean };

export interface SubcommandSpec {
  name: string;
  options?: readonly OptionSpec[];
}

export interface GroupSpec {
  name: string;
  group: true;
  subcommands: readonly SubcommandSpec[];
}

export interface CommandSpec {
  name: string;
  /** Either options, or subcommands (and groups). */
  options?: readonly OptionSpec[];
  subcommands?: readonly (SubcommandSpec | GroupSpec)[];
  /** May be used in the bot's DMs (e.g. secret trust submissions). Default: guild only. */
  inDMs?: boolean;
}

function message(lang: "en" | "ru", key: string): string {
  const value = catalogues[lang][key];
  if (value === undefined) throw new Error(`Missing ${lang} catalogue key ${key}`);
  return value;
}

function localized(path: string) {
  return {
    description: message("en", `cmd.${path}.desc`),
    description_localizations: { ru: message("ru", `cmd.${path}.desc`) },
    name_localizations: { ru: message("ru", `cmd.${path}.name`) },
  };
}

function buildOption(option: OptionSpec, path: string): APIApplicationCommandOption {
  const p = `${path}.${option.name}`;
  const base = { name: option.name, required: option.required ?? false, ...localized(p) };
  switch (option.type) {
    case "string":
      return {
        ...base,
        type: ApplicationCommandOptionType.String,
        ...(option.choices
          ? {
              choices: option.choices.map((value) => ({
                name: message("en", `cmd.${p}.choice.${value}`),
                name_localizations: { ru: message("ru", `cmd.${p}.choice.${value}`) },
                value,
              })),
            }
          : {}),
        ...(option.autocomplete ? { autocomplete: true } : {}),
        ...(option.minLength !== undefined ? { min_length: option.minLength } : {}),
        max_length: option.maxLength ?? 100,
      } as APIApplicationCommandOption;
    case "integer":
    case "number":
      return {
        ...base,
        type:
          option.type === "integer"
            ? ApplicationCommandOptionType.Integer
            : ApplicationCommandOptionType.Number,
        ...(option.choices
          ? {
              choices: option.choices.map((value) => ({
                name: message("en", `cmd.${p}.choice.${value}`),
                name_localizations: { ru: message("ru", `cmd.${p}.choice.${value}`) },
                value,
              })),
            }
          : {}),
        ...(option.autocomplete ? { autocomplete: true } : {}),
        ...(option.min !== undefined ? { min_value: option.min } : {}),
        ...(option.max !== undefined ? { max_value: option.max } : {}),
      } as APIApplicationCommandOption;
    case "boolean":
      return { ...base, type: ApplicationCommandOptionType.Boolean };
    case "user":
      return { ...base, type: ApplicationCommandOptionType.User };
  }
}

/** Required options first, as Discord demands. */
function buildOptions(options: readonly OptionSpec[] | undefined, path: string) {
  const list = options ?? [];
  return [...list.filter((o) => o.required), ...list.filter((o) => !o.required)].map((o) =>
    buildOption(o, path),
  );
}

export function buildCommand(spec: CommandSpec): RESTPostAPIChatInputApplicationCommandsJSONBody {
  const { name_localizations, description, description_localizations } = localized(spec.name);
  const options: APIApplicationCommandOption[] = spec.subcommands
    ? spec.subcommands.map((sub) =>
        "group" in sub
          ? ({
              type: ApplicationCommandOptionType.SubcommandGroup,
              name: sub.name,
              ...localized(`${spec.name}.${sub.name}`),
              options: sub.subcommands.map((s) => ({
                type: ApplicationCommandOptionType.Subcommand,
                name: s.name,
                ...localized(`${spec.name}.${sub.name}.${s.name}`),
                options: buildOptions(s.options, `${spec.name}.${sub.name}.${s.name}`),
              })),
            } as APIApplicationCommandOption)
          : ({
              type: ApplicationCommandOptionType.Subcommand,
              name: sub.name,
              ...localized(`${spec.name}.${sub.name}`),
              options: buildOptions(sub.options, `${spec.name}.${sub.name}`),
            } as APIApplicationCommandOption),
      )
    : buildOptions(spec.options, spec.name);
  return {
    type: ApplicationCommandType.ChatInput,
    name: spec.name,
    name_localizations,
    description,
    description_localizations,
    options,
    contexts: spec.inDMs
      ? [InteractionContextType.Guild, InteractionContextType.BotDM]
      : [InteractionContextType.Guild],
  };
}

/** Finds the option spec at a path like ["character", "show"] + "name" (for autocomplete and parsing). */
export function findOptionSpec(
  spec: CommandSpec,
  subPath: readonly string[],
  optionName: string,
): OptionSpec | undefined {
  if (subPath.length === 0) return spec.options?.find((o) => o.name === optionName);
  const first = spec.subcommands?.find((s) => s.name === subPath[0]);
  if (!first) return undefined;
  if ("group" in first) {
    return first.subcommands.find((s) => s.name === subPath[1])?.options?.find((o) => o.name === optionName);
  }
  return first.options?.find((o) => o.name === optionName);
}
