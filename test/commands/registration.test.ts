import { describe, expect, it } from "vitest";
import { allCommandJson, GAMES, type Game, gameCommandModules } from "../../commands/index.js";
import { roll } from "../../commands/roll.js";
import { buildCommand } from "../../commands/spec.js";
import { globalCommandJson, guildCommandJson } from "../../src/discord/register.js";

const NAME = /^[-_\p{L}\p{N}]{1,32}$/u;
type Json = Record<string, unknown> & {
  name: string;
  description?: string;
  name_localizations?: Record<string, string>;
  description_localizations?: Record<string, string>;
  options?: Json[];
  choices?: Json[];
  required?: boolean;
  type?: number;
};

/** Discord's own limits for a command (https://discord.com/developers/docs/interactions/application-commands). */
function check(node: Json, path: string, problems: string[]) {
  const where = `${path}${node.name}`;
  if (!NAME.test(node.name) || node.name !== node.name.toLowerCase()) problems.push(`${where}: bad name`);
  const ru = node.name_localizations?.ru;
  if (!ru) problems.push(`${where}: no ru name`);
  else if (!NAME.test(ru) || ru !== ru.toLocaleLowerCase("ru")) problems.push(`${where}: bad ru name ${ru}`);
  for (const [lang, d] of [
    ["en", node.description],
    ["ru", node.description_localizations?.ru],
  ] as const) {
    if (!d || d.length < 1 || d.length > 100)
      problems.push(`${where}: ${lang} description length ${d?.length}`);
  }
  const options = node.options ?? [];
  if (options.length > 25) problems.push(`${where}: ${options.length} options`);
  const names = new Set<string>();
  let seenOptional = false;
  for (const option of options) {
    if (names.has(option.name)) problems.push(`${where}: duplicate option ${option.name}`);
    names.add(option.name);
    if (option.type !== 1 && option.type !== 2) {
      if (!option.required) seenOptional = true;
      else if (seenOptional) problems.push(`${where}: required option ${option.name} after an optional one`);
    }
    const choices = (option.choices ?? []) as Json[];
    if (choices.length > 25) problems.push(`${where}.${option.name}: ${choices.length} choices`);
    for (const choice of choices) {
      const label = choice.name;
      const ruLabel = choice.name_localizations?.ru;
      if (!label || label.length > 100 || !ruLabel || ruLabel.length > 100)
        problems.push(`${where}.${option.name}: choice label`);
    }
    check(option, `${where} `, problems);
  }
  const kinds = new Set(options.map((o) => (o.type === 1 || o.type === 2 ? "sub" : "value")));
  if (kinds.size > 1) problems.push(`${where}: subcommands mixed with options`);
}

function longest(map: Record<string, string> | undefined, base: string | undefined) {
  return Math.max(base?.length ?? 0, ...Object.values(map ?? {}).map((v) => v.length));
}

function characterCount(node: Json): number {
  let total =
    longest(node.name_localizations, node.name) + longest(node.description_localizations, node.description);
  for (const choice of (node.choices ?? []) as Json[]) {
    total += longest(choice.name_localizations, choice.name) + String(choice.value).length;
  }
  for (const option of node.options ?? []) total += characterCount(option);
  return total;
}

describe("registered commands", () => {
  const commands = allCommandJson() as unknown as Json[];

  it("include the fixed command surface", () => {
    const names = commands.map((c) => c.name);
    const surface = [
      ...["help", "table", "character", "roll"],
      ...["conflict", "duel", "trust", "chapter", "darkfate", "damage"],
      ...["reserve", "challenge"],
      ...["check", "invoke", "aspect", "fp", "compel", "stress", "consequence", "contest", "faction"],
    ];
    for (const name of surface) expect(names).toContain(name);
  });

  it("pass Discord's validation: names, localizations, lengths, option counts and order", () => {
    const problems: string[] = [];
    for (const command of commands) check(command, "/", problems);
    expect(problems).toEqual([]);
    expect(new Set(commands.map((c) => c.name)).size).toBe(commands.length);
    expect(commands.length).toBeLessThanOrEqual(100);
  });

  it("are built by @discordjs/builders, which refuses what Discord would refuse", () => {
    const rollSpec = roll.spec;
    expect(() => buildCommand(rollSpec)).not.toThrow();
    // An option longer than Discord allows (6000) or a bound below zero never reaches registration.
    const tooLong = {
      ...rollSpec,
      options: [{ name: "expression", type: "string" as const, maxLength: 7000 }],
    };
    expect(() => buildCommand(tooLong)).toThrow();
    const badBound = {
      ...rollSpec,
      options: [{ name: "expression", type: "string" as const, minLength: -1 }],
    };
    expect(() => buildCommand(badBound)).toThrow();
  });

  it("are built once per set of games, however many guilds have that set (start-up syncs every guild)", () => {
    const fateAndWitch: Game[] = ["fate", "mountain-witch"];
    const first = guildCommandJson(fateAndWitch);
    const again = guildCommandJson(["mountain-witch", "fate"]);
    expect(again).toEqual(first);
    expect(gameCommandModules(fateAndWitch)).toBe(gameCommandModules(["mountain-witch", "fate"]));
    const [character] = gameCommandModules(fateAndWitch);
    expect(character && buildCommand(character.spec)).toBe(character && buildCommand(character.spec));
    expect(Object.isFrozen(buildCommand(roll.spec))).toBe(true);
  });

  it("stay within 8000 characters each, counting the longest localization", () => {
    for (const command of commands) expect(characterCount(command), command.name).toBeLessThanOrEqual(8000);
  });

  it("as registered, global and per guild, pass the same checks; a guild's never clash with a global one shown in guilds", () => {
    const global = globalCommandJson() as unknown as (Json & { contexts?: number[] })[];
    const inGuilds = new Set(global.filter((c) => c.contexts?.includes(0)).map((c) => c.name));
    const sets: Game[][] = [[], ...GAMES.map((g) => [g]), [...GAMES]];
    for (const games of sets) {
      const guild = guildCommandJson(games) as unknown as Json[];
      const problems: string[] = [];
      for (const command of [...global, ...guild]) check(command, "/", problems);
      expect(problems).toEqual([]);
      expect(guild.filter((c) => inGuilds.has(c.name))).toEqual([]);
      expect(guild.length).toBeLessThanOrEqual(100);
      for (const command of guild) expect(command).not.toHaveProperty("contexts");
    }
    expect(guildCommandJson([])).toEqual([]);
  });
});
