import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allCommandJson } from "../../commands/index.js";
import { componentId } from "./components.js";
import { type E2E, startE2E } from "./harness.js";

interface Node {
  name: string;
  name_localizations?: Record<string, string>;
  type?: number;
  options?: Node[];
}

/**
 * The command a refusal suggests, read back from the text as the user's client shows it
 * (`/испытание завершить уступить:true`), as the command, subcommand path and options to type.
 */
function suggestion(text: string, lang: "en" | "ru") {
  const shown = /`(\/[^`]+)`/.exec(text)?.[1];
  if (!shown) throw new Error(`no command suggested in: ${text}`);
  const named = (node: Node, word: string) =>
    (lang === "ru" ? node.name_localizations?.ru : node.name) === word;
  const [first, ...rest] = shown.slice(1).split(/\s+/);
  let node = (allCommandJson() as Node[]).find((c) => named(c, first!))!;
  const command = node.name;
  const path: string[] = [];
  const options: Record<string, string | number | boolean> = {};
  for (const word of rest) {
    const [name, value] = word.split(":");
    const child = (node.options ?? []).find((o) => named(o, name!));
    if (!child) throw new Error(`${shown}: no ${word}`);
    if (child.type === 1 || child.type === 2) {
      path.push(child.name);
      node = child;
    } else options[child.name] = value === "true" ? true : value === "false" ? false : value!;
  }
  return { command, path, options };
}

describe("e2e: every refusal's suggestion works for that user in that state", () => {
  let e2e: E2E;
  let gm: string;
  let hunter: string;
  let fateChannel: string;
  let player: string;

  const slash = (
    user: string,
    command: string,
    path: string[],
    options: Record<string, string | number | boolean> = {},
    channel = e2e.channelId,
  ) => e2e.double.slash(user, channel, command, path, options);
  const challengeStatus = async () =>
    (
      await e2e.database.query<{ status: string; s: string }>(
        "SELECT status, state->'challenge'->>'status' AS s FROM flow WHERE kind = 'bh.challenge' ORDER BY id DESC LIMIT 1",
      )
    )[0];
  const reserve = async () =>
    (await e2e.database.query<{ total: number; spent: number }>("SELECT total, spent FROM reserve_pool"))[0]!;

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    hunter = e2e.double.addUser({ username: "pavel", locale: "ru" });
    player = e2e.double.addUser({ username: "olga", locale: "ru" });
    await slash(gm, "table", ["setup"], { system: "beast-hunters" }).settled();
    await slash(hunter, "character", ["create"], { name: "Якхара" }).settled();
    await slash(hunter, "character", ["trait", "replace"], {
      traits: "Мама будет мной гордиться:Ф4 Проницательность:С3 Майхара_—_мой_враг:Ф2 Знания:М2",
    }).settled();
    await slash(hunter, "character", ["resource", "replace"], {
      resources: "Мамин старый топор:ФА4 Личные связи:СЗ3 Щит Майхары:ФЗ2 Предназначение:МА2",
    }).settled();
    await slash(hunter, "character", ["initiative"], { physical: 3, social: 2, mental: 2 }).settled();
    await slash(hunter, "character", ["boxes"], {
      physical: "3/3/1/1/1",
      social: "2/1/1/1/1",
      mental: "2/1/1/1/1",
    }).settled();
    await slash(hunter, "reserve", ["set"], { total: 15, ceiling: 8 }).settled();
  });
  afterAll(async () => e2e?.stop());

  it("the GM's /reserve concede during a challenge points to /challenge end concede:true, which concedes it", async () => {
    await slash(gm, "challenge", ["start"], { sphere: "social", phase: 3, traits: "Упрямый:2" }).settled();
    const refused = await slash(gm, "reserve", ["concede"], { phase: 2 }).response();
    expect(refused.ephemeral).toBe(true);
    expect(refused.message?.text).toContain("`/challenge end concede:true`");
    // The old way out (/challenge end without conceding) is refused while the challenge is played.
    const plainEnd = await slash(gm, "challenge", ["end"]).response();
    expect(plainEnd.message?.text).toContain("`/challenge end concede:true`");
    const next = suggestion(refused.message!.text, "en");
    expect(next).toEqual({ command: "challenge", path: ["end"], options: { concede: true } });
    const conceded = await slash(gm, next.command, next.path, next.options).settled();
    expect(conceded.original?.ephemeral).toBe(false);
    expect((await challengeStatus())?.s).not.toBe("active");
  });

  it("a hunter's /reserve set during a challenge asks to wait for the GM, not to run a GM command; then it works", async () => {
    await slash(gm, "challenge", ["start"], { sphere: "social", phase: 3, traits: "Упрямый:2" }).settled();
    const refused = await slash(hunter, "reserve", ["set"], { total: 20, ceiling: 6 }).response();
    expect(refused.ephemeral).toBe(true);
    // In the hunter's own language, naming no command only the GM may run.
    expect(refused.message?.text).toContain("ведущий его не закроет");
    expect(refused.message?.text).not.toContain("`/");
    // The GM hears the way out that works for the GM.
    const gmRefused = await slash(gm, "reserve", ["set"], { total: 20, ceiling: 6 }).response();
    const next = suggestion(gmRefused.message!.text, "en");
    expect(next).toEqual({ command: "challenge", path: ["end"], options: { concede: true } });
    await slash(gm, next.command, next.path, next.options).settled();
    expect((await challengeStatus())?.status).toBe("closed");
    // The conceded challenge is part of a running adventure: a new one is asked for on a button first.
    const asked = (await slash(hunter, "reserve", ["set"], { total: 20, ceiling: 6 }).settled()).original!;
    expect(asked.ephemeral).toBe(true);
    expect(asked.text).not.toContain("`/challenge");
    const set = await e2e.double.click(hunter, asked, componentId(asked, "reserve.set")).settled();
    expect(set.original?.ephemeral).toBe(false);
    expect(await reserve()).toEqual({ total: 20, spent: 0 });
  });

  it("/reserve spend over what is left says how much is left (not the price of dice), and spending that works", async () => {
    await slash(gm, "reserve", ["spend"], { amount: 8, reason: "ambush" }).settled();
    const refused = await slash(gm, "reserve", ["spend"], { amount: 20, reason: "more" }).response();
    expect(refused.ephemeral).toBe(true);
    expect(refused.message?.text).toContain(
      "Only 12 points are left in the reserve, not 20: spend at most 12.",
    );
    expect(refused.message?.text).not.toMatch(/dice/i);
    await slash(gm, "reserve", ["spend"], { amount: 12, reason: "the rest" }).settled();
    expect(await reserve()).toEqual({ total: 20, spent: 20 });
  });

  it("the GM's Concede button on a Fate conflict concedes for the GM's character, or asks which one", async () => {
    fateChannel = e2e.double.addChannel({ guildId: e2e.guildId, name: "fate" });
    await slash(gm, "table", ["setup"], { system: "fate" }, fateChannel).settled();
    await slash(player, "character", ["create"], { name: "Grukh" }, fateChannel).settled();
    await slash(gm, "character", ["create"], { name: "Bandit", kind: "npc" }, fateChannel).settled();
    const panel = (await slash(gm, "conflict", ["start"], { title: "Ambush" }, fateChannel).settled())
      .original!;
    const conceded = await e2e.double.click(gm, panel, componentId(panel, "conflict.concede")).settled();
    expect(conceded.original?.ephemeral).toBe(false);
    expect(conceded.original?.text).toContain("Bandit concedes");

    // With two of the GM's characters in it, the button asks the GM (privately) which one.
    await slash(gm, "character", ["create"], { name: "Thug", kind: "npc" }, fateChannel).settled();
    const second = (await slash(gm, "conflict", ["start"], { title: "Alley" }, fateChannel).settled())
      .original!;
    const asked = await e2e.double.click(gm, second, componentId(second, "conflict.concede")).settled();
    const menu = asked.original!;
    expect(menu.ephemeral).toBe(true);
    expect(menu.text).toContain("Which of your characters concedes?");
    const picked = await e2e.double
      .select(gm, menu, componentId(menu, "conflict.concede"), ["Thug"])
      .settled();
    expect(picked.original?.text).toContain("Thug concedes");
  });
});
