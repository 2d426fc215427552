import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { componentId } from "./components.js";
import { type E2E, startE2E } from "./harness.js";

interface Participant {
  id: string;
  name: string;
  damage: Record<string, number>;
  status: string;
}
interface Challenge {
  turn: string;
  status: string;
  rating: number;
  cost: number;
  advantage: Record<string, Record<string, number>>;
  participants: Participant[];
  pendingBonus: { actor: string } | null;
  outcome: { winner: string; reason: string; refund: number; vp: Record<string, number> } | null;
}

const STAGES = ["light", "medium", "heavy", "knockout", "fatal"] as const;
/** docs/rules/beast-hunters.md §2.5's stage table (tested in the rules core; here to check what the bot showed). */
const stageOf = (total: number) =>
  total <= 0 ? null : total <= 5 ? 0 : total <= 9 ? 1 : total <= 13 ? 2 : total <= 17 ? 3 : 4;

describe("e2e: Beast Hunters", () => {
  let e2e: E2E;
  let gm: string;
  let hunter: string;
  let bystander: string;
  let yakhara: string;

  const slash = (
    user: string,
    command: string,
    path: string[],
    options: Record<string, string | number | boolean> = {},
  ) => e2e.double.slash(user, e2e.channelId, command, path, options);
  const reserve = async () =>
    (
      await e2e.database.query<{ total: number; ceiling: number; spent: number }>(
        "SELECT total, ceiling, spent FROM reserve_pool",
      )
    )[0]!;
  const challenge = async () =>
    (
      await e2e.database.query<{ state: { challenge: Challenge }; status: string; id: number }>(
        "SELECT id, status, state FROM flow WHERE kind = 'bh.challenge' ORDER BY id DESC LIMIT 1",
      )
    )[0]!;
  const vp = async () =>
    (
      await e2e.database.query<{ victory_points: number }>(
        "SELECT victory_points FROM character WHERE id = $1",
        [Number(yakhara)],
      )
    )[0]!.victory_points;
  const snapshot = () =>
    e2e.database.query(
      "SELECT (SELECT row_to_json(r) FROM reserve_pool r) AS reserve, (SELECT json_agg(f.state ORDER BY f.id) FROM flow f) AS flows, (SELECT json_agg(c.sheet ORDER BY c.id) FROM character c) AS sheets, (SELECT count(*) FROM log_entry) AS log",
    );
  /** The panel once it carries a component of this type (panels are edited after the answer). */
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
  const eventually = (id: string, expected: string) =>
    e2e.double.waitFor(
      () => (e2e.double.message(id).text.includes(expected) ? e2e.double.message(id) : null),
      {
        timeoutMs: 5000,
        what: () => `message ${id} to show ${expected}: ${e2e.double.message(id).text}`,
      },
    );

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    hunter = e2e.double.addUser({ username: "pavel", locale: "ru" });
    bystander = e2e.double.addUser({ username: "lena", locale: "en-US" });
    await slash(gm, "table", ["setup"], { system: "beast-hunters" }).settled();
  });
  afterAll(async () => e2e?.stop());

  it("enters Yakhara's sheet in a few commands", async () => {
    await slash(hunter, "character", ["create"], { name: "Якхара" }).settled();
    yakhara = String(
      (await e2e.database.query<{ id: number }>("SELECT id FROM character WHERE name = 'Якхара'"))[0]!.id,
    );
    await slash(hunter, "character", ["trait", "replace"], {
      traits: "Мама будет мной гордиться:Ф4 Проницательность:С3 Майхара_—_мой_враг:Ф2 Знания:М2",
    }).settled();
    await slash(hunter, "character", ["resource", "replace"], {
      resources: "Мамин старый топор:ФА4 Личные связи:СЗ3 Щит Майхары:ФЗ2 Предназначение:МА2",
    }).settled();
    await slash(hunter, "character", ["initiative"], { physical: 3, social: 2, mental: 2 }).settled();
    const boxes = await slash(hunter, "character", ["boxes"], {
      physical: "3/3/1/1/1",
      social: "2/1/1/1/1",
      mental: "2/1/1/1/1",
    }).settled();
    expect(boxes.original?.text).toContain("Creation check: everything matches the creation steps.");
    const shown = await slash(bystander, "character", ["show"], { name: "Якхара" }).settled();
    expect(shown.original?.text).toContain("PA+4 Мамин старый топор");
  });

  it("from /reserve set through negotiation to a knockout, with reserve, AP, boxes and VP right at every step", async () => {
    const set = await slash(hunter, "reserve", ["set"], { total: 30, ceiling: 8 }).settled();
    expect(set.original?.text).toContain("New adventure: reserve 30, ceiling 8.");
    expect(await reserve()).toEqual({ total: 30, ceiling: 8, spent: 0 });

    // A player may not spend the GM's reserve.
    const before = await snapshot();
    const refused = await slash(hunter, "reserve", ["spend"], { amount: 3, reason: "хочу" }).response();
    expect(refused.ephemeral).toBe(true);
    expect(refused.message?.text).toContain("только ведущий");
    expect(await snapshot()).toEqual(before);

    // Negotiation, phase 2: the GM goes to dice and buys the bandits. Bad input first.
    const bad = await slash(gm, "challenge", ["start"], {
      sphere: "physical",
      phase: 2,
      traits: "Hungry 4",
    }).response();
    expect(bad.ephemeral).toBe(true);
    expect(bad.message?.text).toContain("“Hungry 4”");
    const odd = await slash(gm, "challenge", ["start"], {
      sphere: "physical",
      phase: 2,
      initiative: 3,
    }).response();
    expect(odd.message?.text).toContain("Initiative 3: bought initiative must be even");
    expect(await snapshot()).toEqual(before);

    const started = await slash(gm, "challenge", ["start"], {
      sphere: "physical",
      phase: 2,
      name: "Разбойники",
      traits: "Голодные и отчаянные:4 Окружаем:2",
      resources: "Кожаная броня:D2 Ржавые мечи:A2 Охотничьи ножи:A2",
    }).settled();
    const panel = started.original!;
    expect(panel.ephemeral).toBe(false);
    expect(panel.text).toContain("rating 7 (ceiling 8)");
    expect(panel.text).toContain("Trait Окружаем +2: 1 point");
    expect(await reserve()).toEqual({ total: 30, ceiling: 8, spent: 7 });
    let state = (await challenge()).state.challenge;
    expect(state.turn).toBe(yakhara);

    // Acting out of turn is refused, specifically and privately.
    const early = await slash(gm, "challenge", ["activate"], { trait: "Окружаем", as: "defense" }).response();
    expect(early.ephemeral).toBe(true);
    expect(early.message?.text).toContain("It is Якхара's turn now.");

    await slash(hunter, "challenge", ["activate"], {
      trait: "Мама будет мной гордиться",
      as: "attack",
    }).settled();
    await slash(gm, "challenge", ["activate"], { trait: "Окружаем", as: "defense" }).settled();

    // The GM offers AP from the panel's menu; the hunter accepts on the panel.
    const menu = await panelWith(panel.id, "challenge.offer");
    await e2e.double.select(gm, menu.panel, menu.id, ["10"]).settled();
    const offered = await eventually(panel.id, "Accept");
    const accepted = await e2e.double
      .click(hunter, offered, componentId(offered, "challenge.accept"))
      .settled();
    expect(accepted.ack?.type).toBe(7);
    state = (await challenge()).state.challenge;
    expect(state.advantage[yakhara]).toEqual({ obstacle: 10 });
    expect(state.turn).toBe("obstacle");
    // The panel shows the accepted offer before the crash (a kill right after an action may lose
    // that action's redraw: the state is kept, the old panel stays until the next action).
    await e2e.double.waitFor(
      () => {
        try {
          componentId(e2e.double.message(panel.id), "challenge.accept");
          return null;
        } catch {
          return true;
        }
      },
      {
        timeoutMs: 5000,
        what: () => `the panel to drop the accepted offer: ${e2e.double.message(panel.id).text}`,
      },
    );

    // A crash mid-challenge: nothing is lost, the panel keeps working.
    await e2e.restart("kill");
    state = (await challenge()).state.challenge;
    expect(state.advantage[yakhara]).toEqual({ obstacle: 10 });
    const maneuver = await panelWith(panel.id, "challenge.maneuver");
    const gmMove = await e2e.double.click(gm, maneuver.panel, maneuver.id).settled();
    expect(gmMove.ack?.type).toBe(7);
    state = (await challenge()).state.challenge;
    // A maneuver of 12+ grants the bandits a free action first (the dice decide): the GM lets it go.
    if (state.pendingBonus) {
      expect(state.turn).toBe("obstacle");
      await slash(gm, "challenge", ["skip"]).settled();
      state = (await challenge()).state.challenge;
    }
    expect(state.turn).toBe(yakhara);

    // Yakhara presses on: each GM turn is a maneuver; each of hers takes 12 AP from the GM and strikes for free.
    let strikes = 0;
    for (let turns = 0; (await challenge()).status === "open" && turns < 40; turns++) {
      const flow = (await challenge()).state.challenge;
      if (flow.turn === "obstacle") {
        // A lucky GM maneuver (12+) grants the bandits a free action: the GM lets it go.
        if (flow.pendingBonus) await slash(gm, "challenge", ["skip"]).settled();
        else await slash(gm, "challenge", ["maneuver"]).settled();
        continue;
      }
      await slash(gm, "challenge", ["offer"], { points: 12 }).settled();
      await slash(hunter, "challenge", ["accept"]).settled();
      const apBefore = (await challenge()).state.challenge.advantage[yakhara]!.obstacle!;
      const damageBefore = (await challenge()).state.challenge.participants.find(
        (p) => p.id === "obstacle",
      )!.damage;
      const strikeLines = () =>
        e2e.double.channelMessages(e2e.channelId).filter((m) => m.text.includes("Free strike"));
      const seen = strikeLines().length;
      await eventually(panel.id, "Якхара may strike or make an achievement right now");
      const button = await panelWith(panel.id, "challenge.strike", '"dice":3');
      const hit = await e2e.double.click(hunter, button.panel, button.id).settled();
      expect(hit.ack?.type).toBe(7);
      strikes += 1;
      // The panel is updated in place; what happened is posted right after.
      const line = await e2e.double.waitFor(
        () => (strikeLines().length > seen ? strikeLines().at(-1)! : null),
        {
          timeoutMs: 5000,
          what: () => "the strike's dice in the channel",
        },
      );
      const match = /\[(\d), (\d), (\d)\] = (\d+) \+ 4 − 2 = \*\*(-?\d+)\*\*/.exec(line.text)!;
      const faces = [Number(match[1]), Number(match[2]), Number(match[3])];
      const total = faces[0]! + faces[1]! + faces[2]! + 4 - 2;
      expect(Number(match[5])).toBe(total);
      const after = (await challenge()).state.challenge;
      expect(after.advantage[yakhara]!.obstacle).toBe(apBefore - 12);
      // The box of the shown stage (or the next free one up) is filled.
      const stage = stageOf(total)!;
      let at = stage;
      while (at < 5 && damageBefore[STAGES[at]!]! >= 1) at += 1;
      const damageAfter = after.participants.find((p) => p.id === "obstacle")!.damage;
      expect(damageAfter[STAGES[at]!]).toBe(1);
      // A knockout or fatal hit beats the bandits; lighter ones leave them standing.
      if (at >= 3) expect(after.outcome).toMatchObject({ winner: "hunters", vp: { [yakhara]: 7 } });
      else expect(after.outcome).toBeNull();
    }
    const ended = await challenge();
    expect(ended.status).toBe("closed");
    // Every hit fills one of the five boxes, so at most five strikes end it.
    expect(strikes).toBeLessThanOrEqual(5);
    expect(await vp()).toBe(7);
    expect(await reserve()).toEqual({ total: 30, ceiling: 8, spent: 7 });
    // The panel speaks the table's language (its GM's, English), whoever acted last.
    await eventually(panel.id, "The hunters win");
  });

  it("the hunter gives up the next challenge and the GM gets the points back", async () => {
    const started = await slash(gm, "challenge", ["start"], {
      sphere: "social",
      phase: 3,
      traits: "Упрямый:2",
    }).settled();
    // Rating 2 at phase 3 costs 3.
    expect(await reserve()).toEqual({ total: 30, ceiling: 8, spent: 10 });
    const panel = started.original!;
    const gaveUp = await e2e.double.click(hunter, panel, componentId(panel, "challenge.giveup")).settled();
    expect(gaveUp.ack?.type).toBe(7);
    expect(await reserve()).toEqual({ total: 30, ceiling: 8, spent: 7 });
    await eventually(panel.id, "The GM wins");
    const log = await e2e.database.query<{ action: string }>(
      "SELECT action FROM log_entry WHERE action LIKE 'reserve.%' OR action IN ('challenge.start', 'challenge.refund') ORDER BY id",
    );
    expect(log.map((l) => l.action)).toEqual([
      "reserve.set",
      "challenge.start",
      "challenge.start",
      "challenge.refund",
    ]);
    expect(e2e.double.failedInteractions()).toEqual([]);
    // The only pings: the turn line, mentioning just the player who must act now.
    for (const m of e2e.double.pingedMessages()) {
      expect(m.mentions.everyone).toBe(false);
      expect(m.mentions.roles).toEqual([]);
      expect(m.mentions.users).toHaveLength(1);
    }
  });
});
