import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageView } from "../../src/double/index.js";
import { componentId, components } from "./components.js";
import { type E2E, startE2E } from "./harness.js";

/** The custom_id of the select offering `value`. */
function selectOffering(view: MessageView | null | undefined, value: string): string {
  const found = components(view).find((c) => c.options?.some((o) => o.value === value));
  if (!found?.custom_id) {
    const offered = components(view).flatMap((c) => (c.options ?? []).map((o) => o.value));
    throw new Error(`no select offers ${value}; offered: ${offered.join(" | ")}`);
  }
  return found.custom_id;
}

interface Challenge {
  turn: string;
  status: string;
  advantage: Record<string, Record<string, number>>;
  pendingBonus: { actor: string } | null;
  tasks: Array<{ name: string; difficulty: number; proposedBy: string | null }>;
}

describe("e2e: Beast Hunters panel with two hunters", () => {
  let e2e: E2E;
  let gm: string;
  let adaUser: string;
  let boUser: string;
  let ada: string;
  let bo: string;

  const slash = (
    user: string,
    command: string,
    path: string[],
    options: Record<string, string | number | boolean> = {},
  ) => e2e.double.slash(user, e2e.channelId, command, path, options);
  const challenge = async () =>
    (
      await e2e.database.query<{ state: { challenge: Challenge } }>(
        "SELECT state FROM flow WHERE kind = 'bh.challenge' ORDER BY id DESC LIMIT 1",
      )
    )[0]!.state.challenge;
  const ap = (state: Challenge, actor: string, target: string) => state.advantage[actor]?.[target] ?? 0;
  const snapshot = () =>
    e2e.database.query(
      "SELECT (SELECT json_agg(f.state ORDER BY f.id) FROM flow f) AS flows, (SELECT json_agg(c.sheet ORDER BY c.id) FROM character c) AS sheets, (SELECT count(*) FROM log_entry) AS log",
    );
  /** The panel once it carries this component (the panel is edited after each answer). */
  const panelWith = (panelId: string, type: string, contains = "") =>
    e2e.double.waitFor(
      () => {
        const panel = e2e.double.message(panelId);
        try {
          return { panel, id: componentId(panel, type, contains) };
        } catch {
          return null;
        }
      },
      {
        timeoutMs: 5000,
        what: () => `the panel to offer ${type} ${contains}: ${e2e.double.message(panelId).text}`,
      },
    );
  /** The panel once it shows the state after the last action (whose turn it is). */
  const panelAtTurn = async (panelId: string, name: string) =>
    e2e.double.waitFor(
      () => {
        const panel = e2e.double.message(panelId);
        return panel.text.includes(`▶ ${name}`) ? panel : null;
      },
      {
        timeoutMs: 5000,
        what: () => `the panel to show ${name}'s turn: ${e2e.double.message(panelId).text}`,
      },
    );
  const nameOf = (id: string) => (id === "obstacle" ? "Волки" : id === ada ? "Ада" : "Бо");
  const userOf = (id: string) => (id === "obstacle" ? gm : id === ada ? adaUser : boUser);

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    adaUser = e2e.double.addUser({ username: "ada", locale: "ru" });
    boUser = e2e.double.addUser({ username: "bo", locale: "en-US" });
    await slash(gm, "table", ["setup"], { system: "beast-hunters" }).settled();
  });
  afterAll(async () => e2e?.stop());

  it("switches and passes AP from the panel's team menu and sets up a task through the panel's form", async () => {
    for (const [user, name, initiative] of [
      [adaUser, "Ада", 3],
      [boUser, "Бо", 2],
    ] as const) {
      await slash(user, "character", ["create"], { name }).settled();
      await slash(user, "character", ["trait", "replace"], { traits: "Сила:Ф4 Хитрость:Ф2" }).settled();
      await slash(user, "character", ["initiative"], { physical: initiative }).settled();
    }
    const ids = await e2e.database.query<{ id: number; name: string }>("SELECT id, name FROM character");
    ada = String(ids.find((c) => c.name === "Ада")!.id);
    bo = String(ids.find((c) => c.name === "Бо")!.id);
    await slash(adaUser, "reserve", ["set"], { total: 30, ceiling: 8 }).settled();
    const started = await slash(gm, "challenge", ["start"], {
      sphere: "physical",
      phase: 2,
      name: "Волки",
      traits: "Стая:6",
    }).settled();
    const panelId = started.original!.id;
    expect((await challenge()).turn).toBe(ada);

    // Two hunters: the panel has the team button; the wolves' strikes and maneuvers name their target.
    let panel = (await panelWith(panelId, "challenge.team")).panel;
    for (const c of components(panel)) expect(c.custom_id!.length).toBeLessThanOrEqual(100);
    expect(panel.components.length).toBeLessThanOrEqual(5);

    // Ada's turn: the GM offers 10 AP from the panel, she accepts on the panel.
    await e2e.double.select(gm, panel, selectOffering(panel, "10"), ["10"]).settled();
    panel = (await panelWith(panelId, "challenge.accept")).panel;
    await e2e.double.click(adaUser, panel, componentId(panel, "challenge.accept")).settled();
    expect(ap(await challenge(), ada, "obstacle")).toBe(10);

    // The wolves activate "Стая" for attack from the panel's menu; Bo activates "Сила".
    panel = await panelAtTurn(panelId, "Волки");
    await e2e.double.select(gm, panel, selectOffering(panel, "attack:Стая"), ["attack:Стая"]).settled();
    panel = await panelAtTurn(panelId, "Бо");
    await e2e.double.select(boUser, panel, selectOffering(panel, "attack:Сила"), ["attack:Сила"]).settled();

    // Until the wolves hold AP against Ada on their turn (after Ada's pass): they maneuver at her
    // from her button (letting any free strike go); the hunters pass or maneuver in between.
    let passed = false;
    for (let turns = 0; turns < 30; turns++) {
      const state = await challenge();
      if (state.pendingBonus) {
        const skip = await panelWith(panelId, "challenge.skip");
        await e2e.double.click(userOf(state.pendingBonus.actor), skip.panel, skip.id).settled();
        continue;
      }
      panel = await panelAtTurn(panelId, nameOf(state.turn));
      if (state.turn === "obstacle") {
        if (passed && ap(state, "obstacle", ada) > 0) break;
        await e2e.double.click(gm, panel, componentId(panel, "challenge.menu", `m:${ada}`)).settled();
        continue;
      }
      if (state.turn === ada && !passed) {
        // Ada passes her AP against the wolves to Bo: her team button, then the menu it opens for her.
        const opened = await e2e.double.click(adaUser, panel, componentId(panel, "challenge.team")).settled();
        const menu = opened.original!;
        expect(menu.ephemeral).toBe(true);
        expect(menu.visibleTo).toBe(adaUser);
        const before = await challenge();
        const pick = `p:${bo}:obstacle`;
        const passing = await e2e.double.select(adaUser, menu, selectOffering(menu, pick), [pick]).settled();
        expect(passing.original?.ephemeral).toBe(false);
        expect(passing.original?.text).toContain(`AP Ада → Волки: ${ap(before, ada, "obstacle")} → 0`);
        const after = await challenge();
        expect(ap(after, ada, "obstacle")).toBe(0);
        expect(ap(after, bo, "obstacle")).toBe(ap(before, bo, "obstacle") + ap(before, ada, "obstacle"));
        expect(after.turn).toBe("obstacle");
        passed = true;
        continue;
      }
      await slash(userOf(state.turn), "challenge", ["maneuver"]).settled();
    }
    expect(passed).toBe(true);

    // The wolves switch their AP from Ada to Bo at 50 %, rounded up, from the GM's team menu.
    const before = await challenge();
    expect(before.turn).toBe("obstacle");
    const held = ap(before, "obstacle", ada);
    expect(held).toBeGreaterThan(0);
    panel = await panelAtTurn(panelId, "Волки");
    // Bo's team button on the wolves' turn: a private refusal, nothing changed.
    const snap = await snapshot();
    const notBo = await e2e.double.click(boUser, panel, componentId(panel, "challenge.team")).response();
    expect(notBo.ephemeral).toBe(true);
    expect(notBo.message?.text).toContain("It is Волки's turn now.");
    expect(await snapshot()).toEqual(snap);
    const opened = await e2e.double.click(gm, panel, componentId(panel, "challenge.team")).settled();
    const gmMenu = opened.original!;
    expect(gmMenu.visibleTo).toBe(gm);
    const pick = `s:${ada}:${bo}`;
    expect(gmMenu.text).toContain(`Ада: ${held} AP → Бо: ${Math.ceil(held / 2)} AP`);
    await e2e.double.select(gm, gmMenu, selectOffering(gmMenu, pick), [pick]).settled();
    const switched = await challenge();
    expect(ap(switched, "obstacle", ada)).toBe(0);
    expect(ap(switched, "obstacle", bo)).toBe(ap(before, "obstacle", bo) + Math.ceil(held / 2));
    expect(switched.turn).not.toBe("obstacle");
    await panelWith(panelId, "challenge.team");

    // A task through the panel's form: not an action, so the turn stays. A bad difficulty first.
    panel = e2e.double.message(panelId);
    const formId = componentId(panel, "challenge.taskform");
    const form = await e2e.double.click(boUser, panel, formId).response();
    expect(form.type).toBe(9);
    const modalId = String((form.modal as { custom_id: string }).custom_id);
    expect(modalId.startsWith("i1|challenge.task|")).toBe(true);
    const snapForm = await snapshot();
    const bad = await e2e.double
      .submitModal(boUser, modalId, { name: "Run them off", difficulty: "x" })
      .response();
    expect(bad.ephemeral).toBe(true);
    expect(bad.message?.text).toContain("Difficulty must be from 1 to 5, not x.");
    expect(await snapshot()).toEqual(snapForm);
    await e2e.double.click(boUser, e2e.double.message(panelId), formId).response();
    const made = await e2e.double
      .submitModal(boUser, modalId, { name: "Run them off", difficulty: "3" })
      .settled();
    expect(made.ack?.type).toBe(7);
    const withTask = await challenge();
    expect(withTask.tasks).toEqual([
      expect.objectContaining({ name: "Run them off", difficulty: 3, proposedBy: bo }),
    ]);
    expect(withTask.turn).toBe(switched.turn);
    await panelWith(panelId, "challenge.taskmenu", "");
    expect(e2e.double.message(panelId).text).toContain("Run them off");

    expect(e2e.double.failedInteractions()).toEqual([]);
    // The only pings: the turn line, mentioning just the player who must act now.
    for (const m of e2e.double.pingedMessages()) {
      expect(m.mentions.everyone).toBe(false);
      expect(m.mentions.roles).toEqual([]);
      expect(m.mentions.users).toHaveLength(1);
    }
  });
});
