import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { componentId, optionValue } from "./components.js";
import { type E2E, startE2E } from "./harness.js";

describe("e2e: Fate factions, challenges, self-compels and fate points spent", () => {
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
  const faction = async (name: string) => {
    const rows = await e2e.database.query<{ state: { factions: Array<Record<string, unknown>> } }>(
      "SELECT state FROM game_table",
    );
    return rows[0]!.state.factions.find((f) => f.name === name) as {
      id: string;
      fatePoints: number;
      stress: Record<string, boolean[]>;
      aspects: Array<{ name: string }>;
    };
  };

  /** A kill right after an answer may come before the bot records where the flow's panel is: wait for it. */
  const panelRecorded = async (kind: string) => {
    for (let i = 0; i < 100; i++) {
      const rows = await e2e.database.query<{ panel_message_id: string | null }>(
        "SELECT panel_message_id FROM flow WHERE kind = $1 ORDER BY id DESC LIMIT 1",
        [kind],
      );
      if (rows[0]?.panel_message_id) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the ${kind} panel was never recorded`);
  };

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    player = e2e.double.addUser({ username: "ilsa", locale: "ru" });
    other = e2e.double.addUser({ username: "wren", locale: "en-US" });
    await slash(gm, "table", ["setup"], { system: "fate" }).settled();
    await slash(player, "character", ["create"], { name: "Ilsa" }).settled();
    await slash(other, "character", ["create"], { name: "Wren" }).settled();
    await slash(player, "character", ["skill"], {
      ranks: "Атлетика 4, Скрытность 3, Знания 3, Внимательность 2",
    }).settled();
    await slash(other, "character", ["skill"], { ranks: "fight 4, will 3" }).settled();
    await slash(player, "aspect", ["add"], {
      name: "Never backs down",
      character: "Ilsa",
      kind: "flaw",
    }).settled();
  });
  afterAll(async () => e2e?.stop());

  it("a self-compel waits for the GM across a restart: the player's Accept is refused, the GM's Agree pays once", async () => {
    const offered = await slash(player, "compel", [], {
      target: "Ilsa",
      aspect: "Never backs down",
      points: 2,
    }).settled();
    const panel = offered.original!;
    expect(panel.text).toContain("Waiting for the GM to agree");
    expect(await fp("Ilsa")).toBe(3);
    await panelRecorded("fate.compel");
    await e2e.restart("kill");
    const early = await e2e.double
      .click(player, panel, componentId(e2e.double.message(panel.id), "compel.gm-agree"))
      .response();
    expect(early.ephemeral).toBe(true);
    expect(early.message?.text).toContain("только ведущий");
    expect(await fp("Ilsa")).toBe(3);
    await e2e.double.click(gm, panel, componentId(e2e.double.message(panel.id), "compel.gm-agree")).settled();
    expect(await fp("Ilsa")).toBe(5);
    const closed = await eventually(panel.id, "Ilsa");
    expect(closed.components).toEqual([]);
  });

  it("a player pays a fate point for her stunt with a reason; after a restart the log keeps it and the next spend works", async () => {
    await slash(player, "character", ["stunt"], {
      name: "Shadow step",
      text: "For a fate point, vanish from sight",
    }).settled();
    const spent = await slash(player, "fp", ["spend"], {
      on: "stunt",
      stunt: "Shadow step",
      reason: "slips past the guards",
    }).settled();
    // Public: the table's language (the GM's, English).
    expect(spent.original?.text).toContain(
      "Ilsa spends a fate point on the stunt «Shadow step»: slips past the guards (5 → 4)",
    );
    await e2e.restart("kill");
    const log = await e2e.database.query<{ reason: string }>(
      "SELECT reason FROM log_entry WHERE action = 'fate.fp.spend' ORDER BY id",
    );
    expect(log.map((l) => l.reason)).toEqual(["slips past the guards"]);
    const refused = await slash(player, "fp", ["spend"], {
      on: "stunt",
      stunt: "Flight",
      reason: "x",
    }).response();
    expect(refused.ephemeral).toBe(true);
    expect(await fp("Ilsa")).toBe(4);
    await slash(player, "fp", ["spend"], { on: "detail", reason: "the ferryman owes me" }).settled();
    expect(await fp("Ilsa")).toBe(3);
  });

  it("a three-task challenge: one overcome per task with a different skill, a panel of results, a restart in the middle", async () => {
    const started = await slash(gm, "fate-challenge", ["start"], {
      title: "Escape the burning archive",
      tasks: "Athletics, Stealth 3, Save the scrolls",
    }).settled();
    const panel = started.original!;
    expect(panel.ephemeral).toBe(false);
    expect(panel.text).toContain("1. **Athletics** — difficulty Fair (+2)");
    expect(panel.text).toContain("2. **Stealth** — difficulty Good (+3)");
    await slash(player, "fate-challenge", ["roll"], { task: "1", skill: "athletics" }).settled();
    await eventually(panel.id, /Ilsa, Athletics: `[+−0 ]+` \([123 ]+\) [+−]?\d \+4 = /);
    await e2e.restart("kill");
    const reused = await slash(other, "fate-challenge", ["roll"], {
      task: "2",
      skill: "athletics",
    }).response();
    expect(reused.ephemeral).toBe(true);
    expect(reused.message?.text).toContain("already been used in this challenge");
    await slash(player, "fate-challenge", ["roll"], { task: "Stealth", skill: "stealth" }).settled();
    // The panel's invoke button (rendered before the restart) still works: +2 on Ilsa's latest roll.
    const fpBefore = await fp("Ilsa");
    const menu = await e2e.double
      .click(player, panel, componentId(e2e.double.message(panel.id), "fate-challenge.invoke-menu", "plus2"))
      .settled();
    expect(menu.original?.ephemeral).toBe(true);
    expect(menu.original?.text).toContain("Ilsa призывает аспект на задачу Stealth");
    await e2e.double
      .select(player, menu.original!, componentId(menu.original!, "fate-challenge.invoke"), [
        optionValue(menu.original!, "Never backs down"),
      ])
      .settled();
    expect(await fp("Ilsa")).toBe(fpBefore - 1);
    await eventually(panel.id, "Never backs down (+2 to the result, fate point)");
    await slash(other, "fate-challenge", ["roll"], { task: "3", skill: "will" }).settled();
    const done = await eventually(panel.id, "to roll 0");
    expect(done.text).toContain("Wren, Will");
    const shown = await slash(other, "fate-challenge", ["show"]).settled();
    expect(shown.original?.text).toContain("Every task is rolled");
    const ended = await slash(gm, "fate-challenge", ["end"]).settled();
    expect(ended.original?.text).toContain("The challenge «Escape the burning archive» ends");
    const rows = await e2e.database.query<{ status: string; state: { tasks: Array<{ roll: unknown }> } }>(
      "SELECT status, state FROM flow WHERE kind = 'fate.challenge'",
    );
    expect(rows[0]!.status).toBe("closed");
    expect(rows[0]!.state.tasks.every((t) => t.roll !== null)).toBe(true);
  });

  it("a faction check with 4d3 + Military, its own aspect invoked from the panel after a restart, a hit on its Army track", async () => {
    await slash(gm, "faction", ["create"], {
      name: "Iron Legion",
      abilities: "military 4, resources 3, popularity 2, espionage 1, art 1",
      aspects: "Discipline above all; Old grudges; Too many borders",
    }).settled();
    const names = await e2e.double.autocomplete(
      gm,
      e2e.channelId,
      "faction",
      ["check"],
      { faction: "iro" },
      "faction",
    );
    expect(names.map((c) => c.name)).toEqual(["Iron Legion"]);
    const aspects = await e2e.double.autocomplete(
      player,
      e2e.channelId,
      "invoke",
      [],
      { aspect: "too" },
      "aspect",
    );
    expect(aspects.map((c) => c.name)).toEqual(["Too many borders"]);
    await slash(gm, "faction", ["scene"], { name: "Iron Legion" }).settled();
    expect((await faction("Iron Legion")).fatePoints).toBe(1);
    const rolled = await slash(gm, "faction", ["check"], {
      faction: "Iron Legion",
      ability: "military",
      vs: 4,
    }).settled();
    const panel = rolled.original!;
    expect(panel.text).toMatch(/Iron Legion: Military — Overcome/);
    expect(panel.text).toMatch(/[+−]?\d dice \+4 Military = \*\*/);
    await panelRecorded("fate.faction-check");
    await e2e.restart("kill");
    const menu = await e2e.double
      .click(gm, panel, componentId(e2e.double.message(panel.id), "faction.invoke-menu", "plus2"))
      .settled();
    const select = menu.original!;
    expect(select.ephemeral).toBe(true);
    await e2e.double
      .select(gm, select, componentId(select, "faction.invoke"), [
        optionValue(select, "Discipline above all"),
      ])
      .settled();
    await eventually(panel.id, "Discipline above all (+2 to the result, fate point)");
    expect((await faction("Iron Legion")).fatePoints).toBe(0);

    // A player may invoke a faction's aspect on her own check too, paying her fate point.
    await slash(player, "check", [], { skill: "stealth", vs: 4 }).settled();
    const before = await fp("Ilsa");
    await slash(player, "invoke", [], { aspect: "Too many borders" }).settled();
    expect(await fp("Ilsa")).toBe(before - 1);

    const refused = await slash(player, "faction", ["hit"], {
      name: "Iron Legion",
      shifts: 2,
      track: "army",
    }).response();
    expect(refused.ephemeral).toBe(true);
    const hit = await slash(gm, "faction", ["hit"], {
      name: "Iron Legion",
      shifts: 2,
      track: "army",
    }).settled();
    expect(hit.original?.text).toContain("Iron Legion takes a hit of 2 shifts on Army: Army box 2");
    expect(hit.original?.text).toContain("Army: ☐☒☐");
    expect((await faction("Iron Legion")).stress).toEqual({
      politics: [false, false, false],
      army: [false, true, false],
      economy: [false, false, false],
    });
  });
});
