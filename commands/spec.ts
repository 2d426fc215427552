import {
  SlashCommandBuilder,
  type SlashCommandIntegerOption,
  type SlashCommandNumberOption,
  SlashCommandSubcommandBuilder,
} from "@discordjs/builders";
import { InteractionContextType, type RESTPostAPIChatInputApplicationCommandsJSONBody } from "discord.js";
import { catalogues } from "../src/i18n/index.js";

/**
 * Slash commands as plain data. English names are a fixed contract with the servers that use them; every
 * description and every Russian localization comes from the catalogues by the option's
 * path, so nothing can be left unlocalized: `buildCommand` throws on a missing key, and
 * @discordjs/builders checks Discord's own rules for every name, description and option.
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
  | { name: string; type: "boolean" | "user" | "attachment"; required?: boolean };

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

/** Anything the builders let us name and describe: a command, a group, a subcommand or an option. */
interface Describable {
  setName(name: string): unknown;
  setNameLocalizations(map: { ru: string }): unknown;
  setDescription(text: string): unknown;
  setDescriptionLocalizations(map: { ru: string }): unknown;
}

/** The English name, the Russian name and both descriptions of the thing at `path`, from the catalogues. */
function named<T extends Describable>(builder: T, name: string, path: string): T {
  builder.setName(name);
  builder.setNameLocalizations({ ru: message("ru", `cmd.${path}.name`) });
  builder.setDescription(message("en", `cmd.${path}.desc`));
  builder.setDescriptionLocalizations({ ru: message("ru", `cmd.${path}.desc`) });
  return builder;
}

function choicesOf<V extends string | number>(values: readonly V[], path: string) {
  return values.map((value) => ({
    name: message("en", `cmd.${path}.choice.${value}`),
    name_localizations: { ru: message("ru", `cmd.${path}.choice.${value}`) },
    value,
  }));
}

/**
 * Adds the options at `path` to a command or subcommand, required ones first as Discord demands.
 * The builders check Discord's rules (names, lengths, limits) as each option is added.
 */
function addOptions(
  target: SlashCommandBuilder | SlashCommandSubcommandBuilder,
  options: readonly OptionSpec[] | undefined,
  path: string,
): void {
  const list = options ?? [];
  for (const option of [...list.filter((o) => o.required), ...list.filter((o) => !o.required)]) {
    const p = `${path}.${option.name}`;
    const required = option.required ?? false;
    switch (option.type) {
      case "string":
        target.addStringOption((o) => {
          named(o, option.name, p)
            .setRequired(required)
            .setMaxLength(option.maxLength ?? 100);
          if (option.choices) o.addChoices(...choicesOf(option.choices, p));
          if (option.autocomplete) o.setAutocomplete(true);
          if (option.minLength !== undefined) o.setMinLength(option.minLength);
          return o;
        });
        break;
      case "integer":
      case "number": {
        const numeric = <O extends SlashCommandIntegerOption | SlashCommandNumberOption>(o: O): O => {
          named(o, option.name, p).setRequired(required);
          if (option.choices) o.addChoices(...choicesOf(option.choices, p));
          if (option.autocomplete) o.setAutocomplete(true);
          if (option.min !== undefined) o.setMinValue(option.min);
          if (option.max !== undefined) o.setMaxValue(option.max);
          return o;
        };
        if (option.type === "integer") target.addIntegerOption(numeric);
        else target.addNumberOption(numeric);
        break;
      }
      case "boolean":
        target.addBooleanOption((o) => named(o, option.name, p).setRequired(required));
        break;
      case "user":
        target.addUserOption((o) => named(o, option.name, p).setRequired(required));
        break;
      case "attachment":
        target.addAttachmentOption((o) => named(o, option.name, p).setRequired(required));
        break;
    }
  }
}

function subcommand(spec: SubcommandSpec, path: string) {
  const builder = named(new SlashCommandSubcommandBuilder(), spec.name, path);
  addOptions(builder, spec.options, path);
  return builder;
}

type CommandJson = RESTPostAPIChatInputApplicationCommandsJSONBody;

/**
 * Built once per spec: the builders' checks cost about 15 ms per game's set, and a guild's set is
 * built again at every start-up (for each guild with tables) and whenever its games change.
 */
const builtCommands = new WeakMap<CommandSpec, Readonly<CommandJson>>();

/** A command's registration JSON, built and checked by @discordjs/builders (shared: copy before changing it). */
export function buildCommand(spec: CommandSpec): Readonly<CommandJson> {
  let json = builtCommands.get(spec);
  if (!json) {
    json = Object.freeze(buildCommandJson(spec));
    builtCommands.set(spec, json);
  }
  return json;
}

function buildCommandJson(spec: CommandSpec): CommandJson {
  const command = named(new SlashCommandBuilder(), spec.name, spec.name);
  command.setContexts(
    ...(spec.inDMs
      ? [InteractionContextType.Guild, InteractionContextType.BotDM]
      : [InteractionContextType.Guild]),
  );
  if (!spec.subcommands) addOptions(command, spec.options, spec.name);
  for (const sub of spec.subcommands ?? []) {
    const path = `${spec.name}.${sub.name}`;
    if ("group" in sub) {
      command.addSubcommandGroup((group) => {
        named(group, sub.name, path);
        for (const s of sub.subcommands) group.addSubcommand(subcommand(s, `${path}.${s.name}`));
        return group;
      });
    } else command.addSubcommand(subcommand(sub, path));
  }
  return command.toJSON();
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
