import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageView } from "../../src/double/index.js";
import { componentId } from "./components.js";
import { type E2E, startE2E } from "./harness.js";

const DIE = /🎲 \d/;

describe("e2e: The Mountain Witch", () => {
  let e2e: E2E;
  let gm: string;
  const p: string[] = [];
  const ids: Record<string, number> = {};

  const slash = (
    user: string,
    command: string,
    path: string[],
    options: Record<string, string | number | boolean> = {},
  ) => e2e.double.slash(user, e2e.channelId, command, path, options);
  /** A message once it shows `expected` (panels and DMs are edited after the interaction's answer). */
  const eventually = (id: string, expected: string | RegExp) =>
    e2e.double.waitFor(
      () => {
        const m = e2e.double.message(id);
        return (typeof expected === "string" ? m.text.includes(expected) : expected.test(m.text)) ? m : null;
      },
      { timeoutMs: 5000, what: () => `message ${id} to show ${expected}: ${e2e.double.message(id).text}` },
    );
  const dmWith = (user: string, expected: string) =>
    e2e.double.waitFor(() => e2e.double.dmsOf(user).find((m) => m.text.includes(expected)) ?? null, {
      timeoutMs: 5000,
      what: () => `a DM to ${user} with ${expected}`,
    });
  const points = async (giver: string, holder: string) =>
    (
      await e2e.database.query<{ points: number; value: number }>(
        "SELECT l.value, l.points FROM trust_link l JOIN character g ON g.id = l.giver_id JOIN character h ON h.id = l.holder_id WHERE g.name = $1 AND h.name = $2",
        [giver, holder],
      )
    )[0];

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    for (const name of ["akira", "boris", "chie", "dan"])
      p.push(e2e.double.addUser({ username: name, locale: "en-US" }));
    await slash(gm, "table", ["setup"], { system: "mountain-witch" }).settled();
    const chars: Array<[number, string, string]> = [
      [0, "Akio", "rat"],
      [1, "Bo", "dragon"],
      [2, "Chi", "monkey"],
      [3, "Dai", "horse"],
    ];
    for (const [i, name, zodiac] of chars)
      await slash(p[i]!, "character", ["create"], { name, zodiac }).settled();
    await slash(gm, "character", ["create"], { name: "Oni", kind: "npc", strength: "strong" }).settled();
    for (const row of await e2e.database.query<{ id: number; name: string }>(
      "SELECT id, name FROM character",
    ))
      ids[row.name] = row.id;
  });
  afterAll(async () => e2e?.stop());

  it("a group conflict with three players, one GM opponent, an assist, a betrayal and a bought narration", async () => {
    const started = await slash(gm, "conflict", ["start"], {
      opponent: "Oni",
      title: "The bridge",
    }).settled();
    const panel = started.original!;
    expect(panel.text).toContain("The bridge");
    await e2e.double.click(p[0]!, panel, componentId(panel, "conflict.join")).settled();
    await slash(p[1]!, "conflict", ["join"]).settled();
    await slash(p[2]!, "conflict", ["join"], { against: "Akio" }).settled();
    const current = await eventually(panel.id, "Chi");
    await e2e.double
      .select(p[1]!, current, componentId(current, "conflict.assist"), [String(ids.Akio)])
      .settled();
    expect(await points("Akio", "Bo")).toEqual({ value: 3, points: 2 });
    const betrayal = await slash(p[2]!, "conflict", ["betray"], { target: "Akio", points: 2 }).settled();
    expect(betrayal.original?.text).toContain("betrays");
    expect(await points("Akio", "Chi")).toEqual({ value: 3, points: 1 });

    // Refusals: specific, localized, ephemeral, and nothing changes.
    const before = await e2e.database.query(
      "SELECT giver_id, holder_id, points FROM trust_link ORDER BY 1, 2",
    );
    const betrayed = await slash(p[0]!, "conflict", ["betray"], { target: "Chi", points: 1 }).response();
    expect(betrayed.ephemeral).toBe(true);
    expect(betrayed.message?.text).toContain("betrayed in this conflict");
    const gmTrade = await slash(gm, "conflict", ["trade"]).response();
    expect(gmTrade.ephemeral).toBe(true);
    expect(gmTrade.message?.text).toContain("GM can never declare a trade");
    const notYours = await slash(p[1]!, "conflict", ["join"], { character: "Akio" }).response();
    expect(notYours.message?.text).toContain("isn't your character");
    const unknown = await slash(p[1]!, "conflict", ["assist"], { target: "Nobody" }).response();
    expect(unknown.ephemeral).toBe(true);
    expect(unknown.message?.text).toContain("Nobody");
    const tooMuch = await slash(p[2]!, "conflict", ["betray"], { target: "Akio", points: 5 }).response();
    expect(tooMuch.message?.text).toContain("Not enough trust");
    expect(
      await e2e.database.query("SELECT giver_id, holder_id, points FROM trust_link ORDER BY 1, 2"),
    ).toEqual(before);

    await eventually(panel.id, "Chi betrays Akio");
    const rolled = await e2e.double
      .click(gm, panel, componentId(e2e.double.message(panel.id), "conflict.roll"))
      .settled();
    expect(rolled.ack?.type).toBe(7);
    const afterRoll = e2e.double.message(panel.id);
    expect(afterRoll.text).toMatch(DIE);
    expect(afterRoll.text).toMatch(/Tie|Partial|Mixed|Normal|Critical|Double/);
    const bought = await slash(p[3]!, "conflict", ["narrate"], { character: "Bo" }).settled();
    expect(bought.original?.text).toContain("buys the narration");
    expect(await points("Bo", "Dai")).toEqual({ value: 2, points: 1 });
    await eventually(panel.id, "Dai narrates");
    const log = await e2e.database.query<{ action: string }>(
      "SELECT action FROM log_entry WHERE action LIKE 'trust.%' ORDER BY id",
    );
    expect(log.map((l) => l.action)).toEqual(["trust.help", "trust.betray", "trust.narration"]);
    await slash(gm, "conflict", ["end"]).settled();
  });

  it("a join sent while the new conflict's panel is still being posted brings that panel up to date once it is there", async () => {
    // Discord takes its time with the answer that posts the panel: the conflict is stored, its
    // panel's message id not yet.
    e2e.double.delayRoute("POST /interactions/:interactionId/:token/callback", 600, 1);
    const start = slash(gm, "conflict", ["start"], { opponent: "Kappa" });
    const openConflicts = () =>
      e2e.database.query("SELECT id FROM flow WHERE kind = 'mw.conflict' AND status = 'open'");
    for (let i = 0; i < 250 && (await openConflicts()).length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await openConflicts()).toHaveLength(1);
    await slash(p[0]!, "conflict", ["join"]).settled();
    const started = await start.settled();
    await eventually(started.original!.id, "Akio");
    await slash(gm, "conflict", ["end"]).settled();
  });

  it("two clicks on 'assist' with the last trust point at the same moment: exactly one spend", async () => {
    const started = await slash(gm, "conflict", ["start"], { opponent: "Oni" }).settled();
    await slash(p[0]!, "conflict", ["join"]).settled();
    const panel = await eventually(started.original!.id, "Akio");
    const select = componentId(panel, "conflict.assist");
    expect(await points("Akio", "Chi")).toEqual({ value: 3, points: 1 });
    const a = e2e.double.select(p[2]!, panel, select, [String(ids.Akio)]);
    const b = e2e.double.select(p[2]!, panel, select, [String(ids.Akio)]);
    await Promise.all([a.response(), b.response()]);
    expect(await points("Akio", "Chi")).toEqual({ value: 3, points: 0 });
    const spends = await e2e.database.query(
      "SELECT id FROM log_entry WHERE action = 'trust.help' AND character_id = $1",
      [ids.Chi],
    );
    expect(spends).toHaveLength(1);
    await slash(gm, "conflict", ["end"]).settled();
  });

  it("a duel to the reveal: no channel message and no other user's view shows a die before it, even across a restart", async () => {
    const challenged = await slash(p[0]!, "duel", ["challenge"], { opponent: "Bo" }).settled();
    const panel = challenged.original!;
    await e2e.double.click(p[1]!, panel, componentId(panel, "duel.accept")).settled();
    const mine = await e2e.double
      .click(p[0]!, panel, componentId(await eventually(panel.id, "Round 1"), "duel.peek"))
      .settled();
    expect(mine.original?.ephemeral).toBe(true);
    await e2e.double.click(p[1]!, panel, componentId(e2e.double.message(panel.id), "duel.next")).settled();
    // Akio chooses to roll on from his own secret message: both roll a second die.
    await e2e.double
      .click(p[0]!, mine.original!, componentId(e2e.double.message(mine.original!.id), "duel.next"))
      .settled();

    const [flow] = await e2e.database.query<{
      state: { duel: { a: { dice: number[] }; b: { dice: number[] } } };
    }>("SELECT state FROM flow WHERE kind = 'mw.duel' AND status = 'open'");
    const akioDice = flow!.state.duel.a.dice;
    const boDice = flow!.state.duel.b.dice;
    expect(akioDice).toHaveLength(2);
    const faces = (dice: number[]) => dice.map((d) => `🎲 ${d}`).join(" ");
    // Each duellist's secret message shows their own dice (the bot edited Akio's when Bo's click rolled).
    const akioView = e2e.double.message(mine.original!.id);
    expect(akioView.text).toContain(`Your dice: ${faces(akioDice)}`);
    await e2e.double.waitFor(
      () =>
        e2e.double.ephemeralsFor(p[1]!).find((m) => m.text.includes(`Your dice: ${faces(boDice)}`)) ?? null,
      { timeoutMs: 5000, what: () => "Bo's secret message to be edited with his second die" },
    );
    // Nobody else saw a die: not in the channel, not in anyone else's ephemerals or DMs, not in any earlier version.
    const everyVersion = (m: MessageView) => [m.text, ...m.history.map((h) => JSON.stringify(h))].join("\n");
    for (const user of [gm, p[2]!, p[3]!]) {
      for (const m of e2e.double.messagesVisibleTo(user).filter((x) => x.createdAt >= panel.createdAt))
        expect(everyVersion(m), m.text).not.toMatch(DIE);
    }
    // Bo never saw Akio's dice (unless the faces happen to be the same).
    if (faces(akioDice) !== faces(boDice)) {
      for (const m of e2e.double.ephemeralsFor(p[1]!))
        expect(everyVersion(m)).not.toContain(`Your dice: ${faces(akioDice)}`);
    }

    // A crash in the middle of the duel: the buttons still work afterwards.
    await e2e.restart("kill");
    const struck = await e2e.double
      .click(p[1]!, panel, componentId(e2e.double.message(panel.id), "duel.strike"))
      .settled();
    expect(struck.original?.ephemeral ?? true).toBe(true);
    const reveal = await e2e.double.waitFor(
      () =>
        e2e.double
          .channelMessages(e2e.channelId)
          .find(
            (m) =>
              m.text.includes("Duel: Akio vs Bo") &&
              m.text.includes(faces(akioDice)) &&
              m.text.includes(faces(boDice)),
          ) ?? null,
      { timeoutMs: 5000, what: () => "the public reveal with every die" },
    );
    expect(reveal.text).toMatch(/Tie|Partial|Mixed|Normal|Critical|Double/);
  });

  it("a secret trust round with four players, one with DMs closed; one reveal message; survives a restart", async () => {
    e2e.double.setDmsClosed(p[3]!);
    const opened = await slash(gm, "chapter", ["next"]).settled();
    expect(opened.original?.text).toContain("Trust for chapter 2");
    // Three rows by DM; Dai is told in the channel, and the GM's panel shows that it happened.
    for (const user of [p[0]!, p[1]!, p[2]!]) await dmWith(user, "your trust for chapter 2");
    await e2e.double.waitFor(
      () =>
        e2e.double.channelMessages(e2e.channelId).some((m) => m.text.includes("your DMs are closed"))
          ? true
          : null,
      {
        timeoutMs: 5000,
        what: () => "the DMs-closed notice",
      },
    );
    await eventually(opened.original!.id, "DMs closed");

    // Akio: the DM button opens a form; Bo: /trust set in DMs; Chi: just submits; Dai: in the channel.
    const akioDm = await dmWith(p[0]!, "your trust for chapter 2");
    const form = await e2e.double.click(p[0]!, akioDm, componentId(akioDm, "trust.edit")).response();
    expect(form.modal).toBeTruthy();
    const modalId = String((form.modal as { custom_id: string }).custom_id);
    await e2e.double
      .submitModal(p[0]!, modalId, { [`v${ids.Bo}`]: "4", [`v${ids.Chi}`]: "3", [`v${ids.Dai}`]: "0" })
      .settled();
    await eventually(akioDm.id, "(3 → 4)");
    await e2e.double
      .click(p[0]!, akioDm, componentId(e2e.double.message(akioDm.id), "trust.submit"))
      .settled();
    const boDm = e2e.double.dmChannelOf(p[1]!);
    const set = await e2e.double.slash(p[1]!, boDm, "trust", ["set"], { target: "Akio", value: 1 }).settled();
    expect(set.original?.text).toContain("Akio: **1** (3 → 1)");
    await e2e.double.slash(p[1]!, boDm, "trust", ["submit"]).settled();

    // A restart in the middle of the round: nothing is lost, the DM buttons still work.
    await e2e.restart("kill");
    const chiDm = await dmWith(p[2]!, "your trust for chapter 2");
    await e2e.double.click(p[2]!, chiDm, componentId(chiDm, "trust.submit")).settled();
    const inChannel = await slash(p[3]!, "trust", ["set"], { target: "Chi", value: 3 }).settled();
    expect(inChannel.original?.ephemeral).toBe(true);
    const publicBefore = e2e.double.channelMessages(e2e.channelId);
    for (const m of publicBefore) {
      const all = [m.text, ...m.history.map((h) => JSON.stringify(h))].join("\n");
      expect(all).not.toMatch(/3 → 4|3 → 1|2 → 3|Trust revealed/);
    }
    await slash(p[3]!, "trust", ["submit"]).settled();
    const reveals = await e2e.double.waitFor(
      () => {
        const found = e2e.double
          .channelMessages(e2e.channelId)
          .filter((m) => m.text.includes("Trust revealed"));
        return found.length > 0 ? found : null;
      },
      { timeoutMs: 5000, what: () => "the reveal" },
    );
    expect(reveals).toHaveLength(1);
    expect(reveals[0]!.text).toContain("Akio → Bo: 3 → **4**");
    expect(reveals[0]!.text).toContain("Bo → Akio: 3 → **1**");
    expect(reveals[0]!.text).toContain("Dai → Chi: 2 → **3**");
    expect(await points("Akio", "Bo")).toEqual({ value: 4, points: 4 });
  });

  it("never pinged anyone unasked and never answered late", () => {
    // The only pings allowed: the challenged duellist, and the player whose DMs were closed.
    for (const m of e2e.double.pingedMessages()) {
      expect(m.mentions.everyone).toBe(false);
      expect(m.mentions.roles).toEqual([]);
    }
    expect(e2e.double.lateInteractions()).toEqual([]);
  });
});
