import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { componentId } from "./components.js";
import { type E2E, startE2E } from "./harness.js";

interface Participant {
  id: string;
  name: string;
  side: string;
  status: string;
  traits: { name: string; active: string | null }[];
}
interface Task {
  name: string;
  difficulty: number;
  hunterDice: number;
  agreed?: { hunters: boolean; gm: boolean };
  ready?: { hunters: boolean; gm: boolean };
  result: { winner: string } | null;
}
interface Challenge {
  turn: string;
  status: string;
  rating: number;
  advantage: Record<string, Record<string, number>>;
  participants: Participant[];
  pendingBonus: { actor: string } | null;
  pendingFatal: string | null;
  tasks: Task[];
}

describe("e2e: a Beast Hunters session that is played to its end", () => {
  let e2e: E2E;
  let gm: string;
  let pavel: string;
  let bob: string;
  let yak: string;
  let borak: string;

  const slash = (
    user: string,
    command: string,
    path: string[],
    options: Record<string, string | number | boolean> = {},
  ) => e2e.double.slash(user, e2e.channelId, command, path, options);
  const challenge = async () =>
    (
      await e2e.database.query<{ state: { challenge: Challenge }; status: string; id: number }>(
        "SELECT id, status, state FROM flow WHERE kind = 'bh.challenge' ORDER BY id DESC LIMIT 1",
      )
    )[0]!;
  const negotiation = async () =>
    (
      await e2e.database.query<{
        id: number;
        status: string;
        state: { phase: number; pre: { by: string; trait: string }[]; ended: { how: string } | null };
      }>("SELECT id, status, state FROM flow WHERE kind = 'bh.negotiation' ORDER BY id DESC LIMIT 1")
    )[0]!;
  const pool = async () =>
    (
      await e2e.database.query<{ total: number; spent: number; adventure: { ended: unknown } }>(
        "SELECT total, spent, adventure FROM reserve_pool",
      )
    )[0]!;
  const vp = async (id: string) =>
    (
      await e2e.database.query<{ victory_points: number }>(
        "SELECT victory_points FROM character WHERE id = $1",
        [Number(id)],
      )
    )[0]!.victory_points;
  const waitForMessage = (id: string, text: string) =>
    e2e.double.waitFor(() => (e2e.double.message(id).text.includes(text) ? e2e.double.message(id) : null), {
      timeoutMs: 5000,
      what: () => `message ${id} to show ${text}: ${e2e.double.message(id).text}`,
    });
  const channelText = (text: string) =>
    e2e.double.waitFor(
      () => e2e.double.channelMessages(e2e.channelId).find((m) => m.text.includes(text)) ?? null,
      { timeoutMs: 5000, what: () => `a channel message with ${text}` },
    );

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    pavel = e2e.double.addUser({ username: "pavel", locale: "ru" });
    bob = e2e.double.addUser({ username: "bob", locale: "en-US" });
    await slash(gm, "table", ["setup"], { system: "beast-hunters" }).settled();
    await slash(pavel, "character", ["create"], { name: "Якхара" }).settled();
    await slash(bob, "character", ["create"], { name: "Borak" }).settled();
    await slash(pavel, "character", ["trait", "replace"], { traits: "Сила:Ф4 Ловкость:Ф2" }).settled();
    await slash(bob, "character", ["trait", "replace"], { traits: "Big:P4 Loud:S2" }).settled();
    const ids = await e2e.database.query<{ id: number; name: string }>(
      "SELECT id, name FROM character ORDER BY id",
    );
    yak = String(ids.find((c) => c.name === "Якхара")!.id);
    borak = String(ids.find((c) => c.name === "Borak")!.id);
  });
  afterAll(async () => e2e?.stop());

  it("an adventure with two hunters: pre-activations in negotiation, one loses the adventure, the other wins it", async () => {
    await slash(bob, "reserve", ["set"], { total: 17, ceiling: 10 }).settled();
    // Earlier in this adventure Якхара took every box up to knockout: the next hit is fatal.
    await e2e.database.query(
      `UPDATE character SET sheet = jsonb_set(sheet, '{damage,physical}', '{"light":1,"medium":1,"heavy":1,"knockout":1,"fatal":0}') WHERE id = $1`,
      [Number(yak)],
    );

    // The negotiation: phase 1 → 2 → 3 on its panel's buttons.
    const opened = await slash(gm, "challenge", ["negotiate"], {
      sphere: "physical",
      name: "Ogre",
    }).settled();
    const talks = opened.original!;
    expect(talks.text).toContain("Hunters in the negotiation: Якхара, Borak");
    await e2e.double.click(gm, talks, componentId(talks, "negotiation.phase")).settled();
    const phase2 = await waitForMessage(talks.id, "Phase 2");
    // Borak pre-activates from a select of his own traits.
    const menu = await e2e.double.click(bob, phase2, componentId(phase2, "negotiation.premenu")).settled();
    const select = menu.original!;
    expect(select.ephemeral).toBe(true);
    expect(select.text).not.toContain("Сила");
    await e2e.double
      .select(bob, select, componentId(select, "negotiation.preactivate"), ["attack:Big"])
      .settled();
    await waitForMessage(talks.id, "Borak: Big (attack, phase 2)");
    // A crash in the middle of the negotiation: it is all still there.
    await e2e.restart("kill");
    expect((await negotiation()).state.pre).toEqual([expect.objectContaining({ by: borak, trait: "Big" })]);
    await e2e.double
      .click(gm, e2e.double.message(talks.id), componentId(e2e.double.message(talks.id), "negotiation.phase"))
      .settled();
    await waitForMessage(talks.id, "Phase 3");
    // The GM's one, in phase 3.
    const gmPre = await slash(gm, "challenge", ["activate"], { trait: "Huge", as: "attack" }).settled();
    expect(gmPre.original?.text).toContain("The GM pre-activates “Huge” for attack.");

    // To dice: the guided form. A bad field is reported alone; what was typed is kept.
    const panel3 = e2e.double.message(talks.id);
    const form = await e2e.double.click(gm, panel3, componentId(panel3, "negotiation.form")).response();
    const modalId = String((form.modal as { custom_id: string }).custom_id);
    const before = await pool();
    const bad = await e2e.double
      .submitModal(gm, modalId, {
        traits: "Huge:12",
        resources: "Club:A4",
        initiative: "x",
        boxes: "",
        neutralize: "",
      })
      .response();
    expect(bad.ephemeral).toBe(true);
    expect(bad.message?.text).toContain("Initiative:");
    expect(bad.message?.text).not.toContain("Traits:");
    expect(await pool()).toEqual(before);
    const again = await e2e.double
      .click(gm, bad.message!, componentId(bad.message, "negotiation.form"))
      .response();
    const kept = JSON.stringify(again.modal);
    expect(kept).toContain("Huge:12");
    const started = await e2e.double
      .submitModal(gm, modalId, {
        traits: "Huge:12",
        resources: "Club:A4",
        initiative: "0",
        boxes: "",
        neutralize: "",
      })
      .settled();
    const panel = started.original!;
    // Huge 12 (6) + Club A4 (2) + boxes (1) = 9, × 1.5 in phase 3 = 14.
    expect(panel.text).toContain("rating 9 (ceiling 10)");
    expect((await pool()).spent).toBe(14);
    expect((await negotiation()).state.ended).toMatchObject({ how: "dice" });
    let state = (await challenge()).state.challenge;
    const active = state.participants.flatMap((p) =>
      p.traits.filter((t) => t.active).map((t) => `${p.name}:${t.name}`),
    );
    expect(active.sort()).toEqual(["Borak:Big", "Ogre:Huge"]);

    // Play: the hunters take the GM's offers; the ogre maneuvers and strikes Якхара.
    for (let turns = 0; state.status === "active" && turns < 60; turns++) {
      const apOnYak = state.advantage.obstacle?.[yak] ?? 0;
      if (state.pendingBonus?.actor === "obstacle" || (state.turn === "obstacle" && apOnYak >= 4))
        await slash(gm, "challenge", ["strike"], { dice: 1, target: "Якхара" }).settled();
      else if (state.turn === "obstacle")
        await slash(gm, "challenge", ["maneuver"], { target: "Якхара" }).settled();
      else {
        await slash(gm, "challenge", ["offer"], { points: 2 }).settled();
        await slash(state.turn === yak ? pavel : bob, "challenge", ["accept"]).settled();
      }
      state = (await challenge()).state.challenge;
    }
    expect(state.status).toBe("fatalChoice");
    expect(state.pendingFatal).toBe(yak);
    // The turn line (in the table's language) pinged Якхара's player about her choice, and nobody else.
    const ping = await channelText("took fatal damage and must choose");
    expect(ping.mentions.users).toEqual([pavel]);

    // A crash while the fatal choice waits (once the panel shows it): it is still there, on the panel's button.
    await waitForMessage(panel.id, "Lose the adventure, survive");
    await e2e.restart("kill");
    const fate = await e2e.double.waitFor(
      () => {
        try {
          return componentId(e2e.double.message(panel.id), "challenge.fate", "survive");
        } catch {
          return null;
        }
      },
      {
        timeoutMs: 5000,
        what: () =>
          `the fatal choice on the panel ${panel.id}: ${e2e.double.message(panel.id).text} ${JSON.stringify(e2e.double.message(panel.id).components)}`,
      },
    );
    await e2e.double.click(pavel, e2e.double.message(panel.id), fate).settled();
    const adventure = (await pool()).adventure as unknown as { hunters: Record<string, string> };
    expect(adventure.hunters[yak]).toBe("lost");

    // The GM concedes the challenge in play: the rating goes to the hunter still standing.
    await slash(gm, "challenge", ["end"], { concede: true }).settled();
    expect(await vp(borak)).toBe(9);
    expect(await vp(yak)).toBe(0);

    // The next negotiation leaves Якхара out; Borak's trait was pre-activated already in this adventure.
    const next = await slash(gm, "challenge", ["negotiate"], {
      sphere: "social",
      phase: 2,
      name: "Elders",
    }).settled();
    expect(next.original?.text).toContain("Hunters in the negotiation: Borak");
    expect(next.original?.text).not.toContain("Якхара");
    const twice = await slash(bob, "challenge", ["activate"], { trait: "Big", as: "attack" }).response();
    expect(twice.ephemeral).toBe(true);
    expect(twice.message?.text).toContain("“Big” was already pre-activated in this adventure");
    const out = await slash(pavel, "challenge", ["activate"], { trait: "Сила", as: "attack" }).response();
    expect(out.message?.text).toContain("Якхара не участвует в этих переговорах (выбыл из приключения");

    // The last 3 points buy the last challenge; a crash in it; the GM concedes; the adventure ends.
    const last = await slash(gm, "challenge", ["start"], {
      sphere: "social",
      phase: 2,
      traits: "Wary:4",
    }).settled();
    expect(last.original?.text).toContain("this is the adventure's last challenge");
    expect((await challenge()).state.challenge.participants.map((p) => p.name)).not.toContain("Якхара");
    await e2e.restart("kill");
    await slash(gm, "challenge", ["end"], { concede: true }).settled();
    const summary = await channelText("The adventure is over");
    expect(summary.text).toContain("**Borak** — won the adventure · 12 VP");
    expect(summary.text).toContain("**Якхара** — lost the adventure · 0 VP");
    expect(await vp(borak)).toBe(12);
    expect(await vp(yak)).toBe(0);
    expect((await pool()).adventure.ended).toMatchObject({ reason: "reserve", won: true });
  });

  it("the next adventure: an agreed task rolled only when both are ready, two obstacles and a switch, two traits reassigned in one turn, the GM taking an absent player's turn, /reserve set asking first", async () => {
    const renewed = await slash(bob, "reserve", ["set"], { total: 20, ceiling: 10 }).settled();
    expect(renewed.original?.text).toContain("Якхара");
    await slash(gm, "challenge", ["start"], {
      sphere: "physical",
      phase: 2,
      name: "Ogre",
      traits: "Claws:2 Hide:2 Roar:2",
    }).settled();
    const added = await slash(gm, "challenge", ["obstacle"], {
      name: "Bear",
      traits: "Maul:2 Fur:2 Growl:2",
    }).settled();
    expect(added.original?.text).toContain("Bear joins the challenge: rating now 8");
    expect((await pool()).spent).toBe(8);
    const flowId = (await challenge()).id;
    let state = (await challenge()).state.challenge;
    expect(state.participants.map((p) => p.name)).toEqual(["Якхара", "Borak", "Ogre", "Bear"]);
    const panelId = (
      await e2e.database.query<{ panel_message_id: string }>(
        "SELECT panel_message_id FROM flow WHERE id = $1",
        [flowId],
      )
    )[0]!.panel_message_id;

    // Borak proposes a task; the GM accepts its difficulty on the panel's task menu.
    await slash(bob, "challenge", ["task"], { name: "Scare", difficulty: 2 }).settled();
    let panel = await waitForMessage(panelId, "Scare");
    await e2e.double.select(gm, panel, componentId(panel, "challenge.taskmenu"), ["g:Scare"]).settled();
    state = (await challenge()).state.challenge;
    expect(state.tasks[0]).toMatchObject({ agreed: { hunters: true, gm: true }, result: null });
    await e2e.restart("kill");

    await slash(pavel, "challenge", ["activate"], { trait: "Сила", as: "attack" }).settled();
    await slash(gm, "challenge", ["activate"], { trait: "Claws", as: "attack" }).settled();
    // Borak takes 12 AP against the ogre and buys a die for the task with his free action.
    await slash(gm, "challenge", ["offer"], { points: 12, target: "Ogre" }).settled();
    await slash(bob, "challenge", ["accept"]).settled();
    panel = await waitForMessage(panelId, "Borak may strike or make an achievement right now");
    await e2e.double.select(bob, panel, componentId(panel, "challenge.taskmenu"), ["a:1:Scare"]).settled();
    state = (await challenge()).state.challenge;
    expect(state.tasks[0]).toMatchObject({ hunterDice: 1, result: null });
    // Ready on one side only: not rolled.
    await slash(bob, "challenge", ["resolve"], { task: "Scare" }).settled();
    expect((await challenge()).state.challenge.tasks[0]).toMatchObject({
      ready: { hunters: true, gm: false },
      result: null,
    });
    await slash(gm, "challenge", ["activate"], { trait: "Maul", as: "attack" }).settled();
    await slash(gm, "challenge", ["resolve"], { task: "Scare" }).settled();
    expect((await challenge()).state.challenge.tasks[0]!.result).not.toBeNull();

    await slash(pavel, "challenge", ["activate"], { trait: "Ловкость", as: "defense" }).settled();
    await slash(gm, "challenge", ["activate"], { trait: "Hide", as: "defense" }).settled();
    // Switch target: Borak's 8 AP against the ogre become 4 against the bear.
    await slash(bob, "challenge", ["switch"], { from: "Ogre", to: "Bear" }).settled();
    state = (await challenge()).state.challenge;
    expect(state.advantage[borak]).toEqual({ obstacle: 0, "obstacle-2": 4 });
    await e2e.restart("kill");
    await slash(gm, "challenge", ["activate"], { trait: "Fur", as: "defense" }).settled();

    // Two traits reassigned in one action, one turn.
    expect((await challenge()).state.challenge.turn).toBe(yak);
    await slash(pavel, "challenge", ["reassign"], { trait: "Сила:D, Ловкость:A", as: "attack" }).settled();
    state = (await challenge()).state.challenge;
    const roles = state.participants.find((p) => p.id === yak)!.traits.map((t) => `${t.name}:${t.active}`);
    expect(roles).toEqual(["Сила:defence", "Ловкость:attack"]);
    expect(state.turn).toBe("obstacle");

    await slash(gm, "challenge", ["activate"], { trait: "Roar", as: "attack" }).settled();
    await slash(gm, "challenge", ["offer"], { points: 2, target: "Ogre" }).settled();
    await slash(bob, "challenge", ["accept"]).settled();
    await slash(gm, "challenge", ["activate"], { trait: "Growl", as: "attack" }).settled();
    // Якхара's player is away: the GM takes her turn, says so, and it is logged as the GM's act.
    await slash(gm, "challenge", ["offer"], { points: 2, target: "Ogre" }).settled();
    const forYak = await slash(gm, "challenge", ["accept"], { character: "Якхара" }).settled();
    expect(forYak.original?.text).toContain("The GM acts for Якхара.");
    const logged = await e2e.database.query<{ actor_user_id: string; character_id: number }>(
      "SELECT actor_user_id, character_id FROM log_entry WHERE action = 'challenge.gmActedFor'",
    );
    expect(logged).toContainEqual({ actor_user_id: gm, character_id: Number(yak) });
    expect((await challenge()).state.challenge.advantage[yak]).toEqual({ obstacle: 2 });

    // /challenge show moves the live panel: the old message says so and keeps no live button.
    const moved = await slash(bob, "challenge", ["show"]).settled();
    const old = await waitForMessage(panelId, "This panel has moved");
    const controls = (old.components as Array<{ components: Array<{ disabled?: boolean }> }>).flatMap(
      (r) => r.components,
    );
    expect(controls.length).toBeGreaterThan(0);
    expect(controls.every((c) => c.disabled === true)).toBe(true);
    const newPanel = (
      await e2e.database.query<{ panel_message_id: string }>(
        "SELECT panel_message_id FROM flow WHERE id = $1",
        [flowId],
      )
    )[0]!.panel_message_id;
    expect(newPanel).toBe(moved.original!.id);

    await slash(gm, "challenge", ["end"], { concede: true }).settled();
    // /reserve set mid-adventure asks on a button and says what it would clear; nothing changes yet.
    const spentBefore = (await pool()).spent;
    const asked = await slash(pavel, "reserve", ["set"], { total: 30, ceiling: 10 }).settled();
    expect(asked.original?.ephemeral).toBe(true);
    expect((await pool()).spent).toBe(spentBefore);
    await e2e.restart("kill");
    await e2e.double
      .click(pavel, asked.original!, componentId(asked.original, "reserve.set", '"confirm":true'))
      .settled();
    expect(await pool()).toMatchObject({ total: 30, spent: 0 });

    expect(e2e.double.failedInteractions()).toEqual([]);
    for (const m of e2e.double.pingedMessages()) {
      expect(m.mentions.everyone).toBe(false);
      expect(m.mentions.roles).toEqual([]);
      expect(m.mentions.users).toHaveLength(1);
    }
  });

  it("three hunters, one absent: a negotiation given up, one dropped, and an adventure lost by everyone", async () => {
    const cara = e2e.double.addUser({ username: "cara", locale: "ru" });
    await slash(cara, "character", ["create"], { name: "Кеш" }).settled();
    const kesh = String(
      (await e2e.database.query<{ id: number }>("SELECT id FROM character WHERE name = 'Кеш'"))[0]!.id,
    );
    const spent = (await pool()).spent;

    // «Если охотник не заинтересован, он может в любой момент сдаться»: each hunter gives up the
    // negotiation — Borak by command, Кеш on the panel's button, Якхара (absent) by the GM naming her.
    const ford = (await slash(gm, "challenge", ["negotiate"], { sphere: "physical", name: "Ford" }).settled())
      .original!;
    expect(ford.text).toContain("Якхара, Borak, Кеш");
    const byBorak = await slash(bob, "challenge", ["giveup"]).settled();
    expect(byBorak.original?.text).toContain("Borak gives up and leaves the negotiation");
    await e2e.double
      .click(
        cara,
        e2e.double.message(ford.id),
        componentId(e2e.double.message(ford.id), "negotiation.giveup"),
      )
      .settled();
    await channelText("Кеш gives up and leaves the negotiation");
    const forYak = await slash(gm, "challenge", ["giveup"], { character: "Якхара" }).settled();
    expect(forYak.original?.text).toContain("The GM acts for Якхара.");
    expect(forYak.original?.text).toContain("no hunter is left in the negotiation");
    expect(await negotiation()).toMatchObject({ status: "closed", state: { ended: { how: "givenUp" } } });
    // «Если охотник сдаётся, то ведущий ничего не тратит».
    expect((await pool()).spent).toBe(spent);

    // A negotiation opened by mistake: the GM drops it from its panel, free and logged.
    const oops = (await slash(gm, "challenge", ["negotiate"], { sphere: "mental", name: "Oops" }).settled())
      .original!;
    await e2e.double.click(gm, oops, componentId(oops, "negotiation.drop")).settled();
    await waitForMessage(oops.id, "dropped by the GM");
    expect(await negotiation()).toMatchObject({ status: "closed", state: { ended: { how: "dropped" } } });
    expect((await pool()).spent).toBe(spent);
    const logged = await e2e.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM log_entry WHERE action = 'negotiation.ended' AND summary->'params'->>'how' = 'dropped'",
    );
    expect(logged[0]!.n).toBe(1);

    // The beast: every hunter is one hit from fatal damage, and the beast plays in rounds.
    for (const id of [yak, borak, kesh])
      await e2e.database.query(
        `UPDATE character SET sheet = jsonb_set(sheet, '{damage,physical}', '{"light":1,"medium":1,"heavy":1,"knockout":1,"fatal":0}') WHERE id = $1`,
        [Number(id)],
      );
    const started = await slash(gm, "challenge", ["start"], {
      sphere: "physical",
      phase: 2,
      name: "Spirit",
      traits: "Dread:8",
      resources: "Claws:A2",
    }).settled();
    const panel = started.original!;
    await slash(gm, "challenge", ["activate"], { trait: "Dread", as: "attack" })
      .settled()
      .catch(() => null);
    let state = (await challenge()).state.challenge;
    const players: Record<string, string> = { [borak]: bob, [kesh]: cara };
    /** Clicks a control of the live panel once its edit shows it. */
    const clickPanel = async (user: string, type: string, contains?: string) => {
      const id = await e2e.double.waitFor(
        () => {
          try {
            return componentId(e2e.double.message(panel.id), type, contains);
          } catch {
            return null;
          }
        },
        { timeoutMs: 5000, what: () => `${type} on the panel: ${e2e.double.message(panel.id).text}` },
      );
      await e2e.double.click(user, e2e.double.message(panel.id), id).settled();
    };
    const obstacleTurns: string[] = [];
    for (let steps = 0; state.status !== "aftermath" && state.status !== "closed" && steps < 150; steps++) {
      if (state.status === "fatalChoice") {
        // Each hunter survives and loses the adventure; the GM's click chooses for absent Якхара.
        const who = state.pendingFatal === yak ? gm : players[state.pendingFatal!]!;
        await clickPanel(who, "challenge.fate", "survive");
      } else if (state.pendingBonus?.actor === "obstacle") {
        await slash(gm, "challenge", ["strike"], { dice: 1 }).settled();
      } else if (state.turn === "obstacle") {
        obstacleTurns.push(state.turn);
        const standing = state.participants.filter((p) => p.side === "hunters" && p.status === "in");
        const ready = standing.find((h) => (state.advantage.obstacle?.[h.id] ?? 0) >= 4);
        const target = (ready ?? standing[0]!).name;
        if (ready) await slash(gm, "challenge", ["strike"], { dice: 1, target }).settled();
        else if (!state.participants.find((p) => p.id === "obstacle")!.traits.some((t) => t.active))
          await slash(gm, "challenge", ["activate"], { trait: "Dread", as: "attack" }).settled();
        else await slash(gm, "challenge", ["maneuver"], { target }).settled();
      } else if (state.turn === yak) {
        // Якхара's player is away: the GM's click on the panel's Maneuver takes her turn.
        await clickPanel(gm, "challenge.maneuver");
      } else {
        await slash(players[state.turn]!, "challenge", ["skip"]).settled();
      }
      state = (await challenge()).state.challenge;
    }
    expect(state.participants.filter((p) => p.side === "hunters").map((p) => p.status)).toEqual([
      "fatal",
      "fatal",
      "fatal",
    ]);
    // The adventure ends by itself: lost, with its summary and the renewal button.
    const summary = await channelText("No hunter is still playing: the adventure is lost.");
    expect(summary.text).toContain("Кеш** — lost the adventure");
    const renew = componentId(summary, "reserve.form");
    const form = await e2e.double.click(cara, summary, renew).response();
    expect(form.modal).toBeDefined();
    const adventure = (await pool()).adventure as { ended: { reason: string; won: boolean } | null };
    expect(adventure.ended).toMatchObject({ reason: "nobodyPlaying", won: false });
    expect(e2e.double.failedInteractions()).toEqual([]);
  });
});
