import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { componentId, optionValue } from "./components.js";
import { type E2E, startE2E } from "./harness.js";

describe("e2e: Fate of Panavea", () => {
  let e2e: E2E;
  let gm: string;
  let player: string;
  let other: string;

  const slash = (
    user: string,
    command: string,
    path: string[],
    options: Record<string, string | number | boolean> = {},
  ) => e2e.double.slash(user, e2e.channelId, command, path, options);
  const eventually = (id: string, expected: string | RegExp) =>
    e2e.double.waitFor(
      () => {
        const m = e2e.double.message(id);
        return (typeof expected === "string" ? m.text.includes(expected) : expected.test(m.text)) ? m : null;
      },
      { timeoutMs: 5000, what: () => `message ${id} to show ${expected}: ${e2e.double.message(id).text}` },
    );
  const fp = async (name: string) =>
    (
      await e2e.database.query<{ fate_points: number }>("SELECT fate_points FROM character WHERE name = $1", [
        name,
      ])
    )[0]!.fate_points;
  const state = () =>
    e2e.database.query(
      "SELECT name, fate_points, sheet::text AS sheet FROM character UNION ALL SELECT name, free_invokes, coalesce(removed_at::text, '') FROM aspect ORDER BY 1, 2",
    );

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    player = e2e.double.addUser({ username: "pavel", locale: "ru" });
    other = e2e.double.addUser({ username: "olga", locale: "en-US" });
    await slash(gm, "table", ["setup"], { system: "fate" }).settled();
    await slash(player, "character", ["create"], { name: "Grukh" }).settled();
    await slash(other, "character", ["create"], { name: "Elf" }).settled();
    await slash(gm, "character", ["create"], { name: "Bandit", kind: "npc" }).settled();
    await slash(player, "character", ["skill"], {
      ranks:
        "Атлетика 4, Драка 3, Выносливость 3, Внимательность 2, Воля 2, Провокация 2, Скрытность 1, Знания 1, Наездничество 1, Красноречие 1",
    }).settled();
    await slash(other, "character", ["skill"], { skill: "athletics", value: 3 }).settled();
  });
  afterAll(async () => e2e?.stop());

  it("a check shows the faces and the d3 numbers; invokes from its buttons spend a free invoke first, then a fate point", async () => {
    await slash(gm, "aspect", ["add"], { name: "Slippery rocks", invokes: 1 }).settled();
    const rolled = await slash(other, "check", [], { skill: "athletics", vs: 3 }).settled();
    const panel = rolled.original!;
    expect(panel.ephemeral).toBe(false);
    expect(panel.text).toMatch(/Dice: `[+−0] [+−0] [+−0] [+−0]` \([123] [123] [123] [123]\)/);
    expect(panel.text).toMatch(/Against difficulty Good \(\+3\): /);

    // Another player cannot use Elf's buttons.
    const intruder = await e2e.double
      .click(player, panel, componentId(panel, "fate.invoke-menu", "plus2"))
      .response();
    expect(intruder.ephemeral).toBe(true);
    expect(intruder.message?.text).toContain("не ваш персонаж");

    const menu = await e2e.double
      .click(other, panel, componentId(panel, "fate.invoke-menu", "plus2"))
      .settled();
    const select = menu.original!;
    expect(select.ephemeral).toBe(true);
    await e2e.double
      .select(other, select, componentId(select, "invoke"), [optionValue(select, "Slippery rocks")])
      .settled();
    expect(await fp("Elf")).toBe(3);
    await eventually(panel.id, "Slippery rocks (+2 to the result, free invoke)");

    await slash(gm, "aspect", ["add"], { name: "Light feet", character: "Elf", kind: "talent" }).settled();
    const fresh = await e2e.double
      .click(other, panel, componentId(e2e.double.message(panel.id), "fate.invoke-menu", "plus2"))
      .settled();
    expect(fresh.original?.ephemeral).toBe(true);
    await e2e.double
      .select(other, fresh.original!, componentId(fresh.original!, "invoke"), [
        optionValue(fresh.original!, "Light feet"),
      ])
      .settled();
    expect(await fp("Elf")).toBe(2);
    await eventually(panel.id, "Light feet (+2 to the result, fate point)");
    const rocks = await e2e.database.query<{ free_invokes: number }>(
      "SELECT free_invokes FROM aspect WHERE name = 'Slippery rocks'",
    );
    expect(rocks[0]?.free_invokes).toBe(0);
  });

  it("bad input: a specific, localized, ephemeral error and nothing changed", async () => {
    const before = await state();
    const unknownSkill = await slash(player, "check", [], { skill: "плавание" }).response();
    expect(unknownSkill.ephemeral).toBe(true);
    expect(unknownSkill.message?.text).toContain("Навыка «плавание» нет");
    const unknownAspect = await slash(other, "invoke", [], { aspect: "Nothing like it" }).response();
    expect(unknownAspect.ephemeral).toBe(true);
    expect(unknownAspect.message?.text).toContain("There is no aspect “Nothing like it”");
    const notYours = await slash(player, "check", [], { skill: "athletics", character: "Elf" }).response();
    expect(notYours.ephemeral).toBe(true);
    expect(notYours.message?.text).toContain("Elf");
    const gmOnly = await slash(player, "fp", ["give"], { character: "Grukh", amount: 3 }).response();
    expect(gmOnly.ephemeral).toBe(true);
    expect(await state()).toEqual(before);

    // No fate points and no free invokes.
    await slash(gm, "fp", ["give"], { character: "Elf", amount: -2 }).settled();
    await slash(other, "check", [], { skill: "athletics", vs: 1 }).settled();
    const broke = await state();
    const cannot = await slash(other, "invoke", [], { aspect: "Light feet" }).response();
    expect(cannot.ephemeral).toBe(true);
    expect(cannot.message?.text).toContain("no fate points");
    expect(await state()).toEqual(broke);
  });

  it("two invokes on the last fate point at the same moment: exactly one succeeds", async () => {
    await slash(gm, "fp", ["give"], { character: "Elf", amount: 1 }).settled();
    await slash(gm, "aspect", ["add"], { name: "Elven pride", character: "Elf", kind: "belief" }).settled();
    await slash(other, "check", [], { skill: "athletics", vs: 2 }).settled();
    const a = slash(other, "invoke", [], { aspect: "Light feet" });
    const b = slash(other, "invoke", [], { aspect: "Elven pride" });
    const [ra, rb] = await Promise.all([a.response(), b.response()]);
    expect([ra.ephemeral, rb.ephemeral].sort()).toEqual([false, true]);
    expect(await fp("Elf")).toBe(0);
    const spends = await e2e.database.query(
      "SELECT id FROM log_entry WHERE action = 'fate.invoke' AND after->>'fatePoints' = '0' AND before->>'fatePoints' = '1'",
    );
    expect(spends).toHaveLength(1);
  });

  it("a compel accepted, one bought off, and one the target cannot afford to buy off", async () => {
    await slash(player, "aspect", ["add"], {
      name: "Bloodthirsty orc",
      character: "Grukh",
      kind: "flaw",
    }).settled();
    const start = await fp("Grukh");
    const offer = (
      await slash(gm, "compel", [], { target: "Grukh", aspect: "Bloodthirsty orc", points: 2 }).settled()
    ).original!;
    expect(offer.mentions.users).toContain(player);
    const stranger = await e2e.double.click(other, offer, componentId(offer, "compel.accept")).response();
    expect(stranger.ephemeral).toBe(true);
    const accepted = await e2e.double.click(player, offer, componentId(offer, "compel.accept")).settled();
    expect(accepted.ack?.type).toBe(7);
    expect(await fp("Grukh")).toBe(start + 2);
    // The panel stays in the table's language (English) whoever clicks it.
    expect(e2e.double.message(offer.id).text).toContain("Grukh accepts the complication");

    const second = (
      await slash(gm, "compel", [], { target: "Grukh", aspect: "Bloodthirsty orc", points: 1 }).settled()
    ).original!;
    await e2e.double.click(player, second, componentId(second, "compel.buyoff")).settled();
    expect(await fp("Grukh")).toBe(start + 1);

    const big = (
      await slash(gm, "compel", [], { target: "Grukh", aspect: "Bloodthirsty orc", points: 5 }).settled()
    ).original!;
    const before = await state();
    const refused = await e2e.double.click(player, big, componentId(big, "compel.buyoff")).response();
    expect(refused.ephemeral).toBe(true);
    expect(refused.message?.text).toContain("остаётся только согласиться");
    expect(await state()).toEqual(before);
  });

  it("a hit absorbed by stress boxes and a consequence", async () => {
    // Elf's player chooses how Elf takes it: box 2 + mild is the cheapest of three ways.
    const hit = (await slash(gm, "stress", ["hit"], { character: "Elf", shifts: 4 }).settled()).original!;
    await e2e.double
      .select(other, hit, componentId(hit, "fate.absorb"), [optionValue(hit, "stress box 2 + Mild (2)")])
      .settled();
    await eventually(hit.id, "Elf takes a hit of 4 shifts: stress box 2, Mild (2)");
    await slash(other, "consequence", ["add"], {
      character: "Elf",
      severity: "mild",
      name: "Twisted ankle",
    }).settled();
    const sheet = await slash(other, "character", ["show"], { name: "Elf" }).settled();
    expect(sheet.original?.text).toContain("Twisted ankle");
    expect(sheet.original?.text).toContain("☐☒");
  });

  it("a contest played to 3 victories through the panel", async () => {
    const started = (
      await slash(gm, "contest", ["start"], { first: "Grukh", second: "Elf", title: "Race" }).settled()
    ).original!;
    for (let exchange = 0; exchange < 40; exchange += 1) {
      const panel = e2e.double.message(started.id);
      if (panel.text.includes("wins the contest")) break;
      await e2e.double.select(player, panel, componentId(panel, "contest.roll"), ["athletics"]).settled();
      await slash(other, "contest", ["roll"], { skill: "athletics" }).settled();
      const ready = await eventually(started.id, "Resolve the exchange");
      await e2e.double.click(gm, ready, componentId(ready, "contest.resolve")).settled();
    }
    const final = await eventually(started.id, "wins the contest");
    expect(final.components).toEqual([]);
    const rows = await e2e.database.query<{ state: { contest: { victories: Record<string, number> } } }>(
      "SELECT state FROM flow WHERE kind = 'fate.contest'",
    );
    expect(Math.max(...Object.values(rows[0]!.state.contest.victories))).toBeGreaterThanOrEqual(3);
  });

  it("a restart mid-conflict loses nothing: the panel's Concede button still works and pays 1 FP + 1 per consequence", async () => {
    await slash(gm, "stress", ["clear"]).settled();
    const panel = (await slash(gm, "conflict", ["start"], { title: "Ambush" }).settled()).original!;
    expect(panel.text).toContain("Ambush");
    // Grukh: Physique +3 → 4 boxes; a hit of 6 is taken by box 4 and the mild consequence.
    const hit = (await slash(gm, "stress", ["hit"], { character: "Grukh", shifts: 6 }).settled()).original!;
    await e2e.double
      .select(player, hit, componentId(hit, "fate.absorb"), [optionValue(hit, "stress box 4 + Mild (2)")])
      .settled();
    await eventually(hit.id, "stress box 4, Mild (2)");
    const before = await fp("Grukh");
    await e2e.restart("kill");
    const conceded = await e2e.double
      .click(player, panel, componentId(e2e.double.message(panel.id), "conflict.concede"))
      .settled();
    expect(conceded.original?.text).toContain("Grukh concedes and gets 2 fate points");
    expect(await fp("Grukh")).toBe(before + 2);
    // The panel is redrawn in the table's language, whoever clicked.
    await eventually(panel.id, /Grukh\*\* — players · conceded · 1 consequence/);
    await slash(gm, "conflict", ["end"]).settled();
    const sheet = await e2e.database.query<{ sheet: { stress: { physical: { boxes: boolean[] } } } }>(
      "SELECT sheet FROM character WHERE name = 'Grukh'",
    );
    expect(sheet[0]!.sheet.stress.physical.boxes.some(Boolean)).toBe(false);
  });

  it("the week refresh tops fate points up to the refresh and keeps extras", async () => {
    await slash(gm, "fp", ["give"], { character: "Bandit", amount: 4 }).settled();
    const elf = await fp("Elf");
    const refreshed = await slash(gm, "fp", ["refresh"]).settled();
    expect(refreshed.original?.text).toContain("Game week 2 begins");
    expect(await fp("Elf")).toBe(Math.max(elf, 3));
    expect(await fp("Bandit")).toBe(7);
  });
  it("factions: the GM creates one, gives it fate points and hits it; players may not", async () => {
    const created = await slash(gm, "faction", ["create"], {
      name: "Silver Guild",
      abilities: "commerce:4 espionage:3",
      aspects: "Coin opens every door; Old debts",
    }).settled();
    expect(created.original?.text).toContain("Silver Guild");
    const refused = await slash(player, "faction", ["fp"], { name: "Silver Guild", amount: 1 }).response();
    expect(refused.ephemeral).toBe(true);
    const given = await slash(gm, "faction", ["fp"], { name: "Silver Guild", amount: 2 }).settled();
    expect(given.original?.text).toMatch(/2/);
    const hit = await slash(gm, "faction", ["hit"], {
      name: "Silver Guild",
      shifts: 1,
      track: "army",
    }).settled();
    expect(hit.original?.text).toContain("Silver Guild");
    const shown = await slash(player, "faction", ["show"], { name: "Silver Guild" }).settled();
    expect(shown.original?.text).toContain("Coin opens every door");
  });
});
