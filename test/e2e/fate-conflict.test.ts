import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageView } from "../../src/double/index.js";
import { componentId } from "./components.js";
import { type E2E, startE2E } from "./harness.js";

/** The options of the first select on a message. */
function options(view: MessageView | null | undefined): { label: string; value: string }[] {
  for (const row of (view?.components ?? []) as Array<{
    components?: Array<{ options?: Array<{ label: string; value: string }> }>;
  }>) {
    for (const c of row.components ?? []) if (c.options) return c.options;
  }
  throw new Error(`no select on message: ${view?.text ?? "(none)"}`);
}

describe("e2e: Fate conflicts, hits and invokes", () => {
  let e2e: E2E;
  let gm: string;
  let wrenPlayer: string;
  let ilsaPlayer: string;
  let latePlayer: string;

  const slash = (
    user: string,
    command: string,
    path: string[],
    opts: Record<string, string | number | boolean> = {},
  ) => e2e.double.slash(user, e2e.channelId, command, path, opts);
  const eventually = (id: string, expected: string | RegExp) =>
    e2e.double.waitFor(
      () => {
        const m = e2e.double.message(id);
        return (typeof expected === "string" ? m.text.includes(expected) : expected.test(m.text)) ? m : null;
      },
      { timeoutMs: 5000, what: () => `message ${id} to show ${expected}: ${e2e.double.message(id).text}` },
    );
  const channelText = () =>
    e2e.double
      .channelMessages(e2e.channelId)
      .map((m) => m.text)
      .join("\n");
  const fp = async (name: string) =>
    (
      await e2e.database.query<{ fate_points: number }>("SELECT fate_points FROM character WHERE name = $1", [
        name,
      ])
    )[0]!.fate_points;
  /** Waits until the bot has recorded `messageId` as a flow's panel (it does so just after answering). */
  const panelRecorded = async (messageId: string) => {
    for (let i = 0; i < 100; i += 1) {
      const rows = await e2e.database.query("SELECT id FROM flow WHERE panel_message_id = $1", [messageId]);
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`panel ${messageId} never recorded`);
  };

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    wrenPlayer = e2e.double.addUser({ username: "wendy", locale: "en-US" });
    ilsaPlayer = e2e.double.addUser({ username: "ivan", locale: "ru" });
    latePlayer = e2e.double.addUser({ username: "lena", locale: "en-US" });
    await slash(gm, "table", ["setup"], { system: "fate" }).settled();
    await slash(wrenPlayer, "character", ["create"], { name: "Wren" }).settled();
    await slash(ilsaPlayer, "character", ["create"], { name: "Ilsa" }).settled();
    await slash(gm, "character", ["create"], { name: "Captain", kind: "npc" }).settled();
    await slash(ilsaPlayer, "character", ["skill"], { skill: "notice", value: 2 }).settled();
  });
  afterAll(async () => e2e?.stop());

  it("a conflict with turns, a late joiner and a leaver, across a restart", async () => {
    const panel = (await slash(gm, "conflict", ["start"], { title: "Harbour" }).settled()).original!;
    expect(panel.text).toContain("Exchange 1 · ▶ **Ilsa**'s turn");
    const ping = await e2e.double.waitFor(
      () =>
        e2e.double.channelMessages(e2e.channelId).find((m) => m.text.includes("Exchange 1: **Ilsa**")) ??
        null,
      { timeoutMs: 5000, what: () => `the turn ping in: ${channelText()}` },
    );
    expect(ping.mentions.users).toEqual([ilsaPlayer]);
    // Not Wren's turn: her player may not pass it on.
    const early = await e2e.double.click(wrenPlayer, panel, componentId(panel, "conflict.next")).response();
    expect(early.ephemeral).toBe(true);
    expect(early.message?.text).toContain("It is Ilsa's turn");
    await e2e.double.click(ilsaPlayer, panel, componentId(panel, "conflict.next")).settled();
    await eventually(panel.id, "▶ **Wren**");
    await e2e.restart("kill");
    // A character created later joins mid-conflict from the panel's button, last in the order.
    await slash(latePlayer, "character", ["create"], { name: "Lark" }).settled();
    const joined = await e2e.double
      .click(
        latePlayer,
        e2e.double.message(panel.id),
        componentId(e2e.double.message(panel.id), "conflict.join"),
      )
      .settled();
    expect(joined.original?.text).toContain("Lark joins the conflict on the players side (exchange 1)");
    await eventually(panel.id, /• \*\*Lark\*\* — players · in the fight$/m);
    await slash(wrenPlayer, "conflict", ["next"]).settled();
    await eventually(panel.id, "▶ **Captain**");
    await slash(gm, "conflict", ["next"]).settled();
    await eventually(panel.id, "▶ **Lark**");
    const left = await slash(latePlayer, "conflict", ["leave"]).settled();
    expect(left.original?.text).toContain("Lark leaves the conflict");
    // Lark's turn passes to the first of exchange 2.
    await eventually(panel.id, "Exchange 2 · ▶ **Ilsa**'s turn");
    await eventually(panel.id, "**Lark** — players · left");
    // The GM reorders the exchange.
    await slash(gm, "conflict", ["order"], { order: "Captain, Wren" }).settled();
    await eventually(panel.id, "Exchange 2 · ▶ **Captain**'s turn");
  });

  it("an attack whose target chooses between the ways to absorb it; the attacker sees who must choose; a restart in the middle", async () => {
    // Captain +6 against a difficulty of 0: 2 to 10 shifts, always at least two ways to take it.
    const attackPanel = (
      await slash(gm, "check", [], {
        skill: "fight",
        action: "attack",
        target: "Wren",
        character: "Captain",
        bonus: 6,
        vs: 0,
      }).settled()
    ).original!;
    expect(attackPanel.text).toContain(
      "Wren's player (or the GM) applies the hit and chooses how to take it.",
    );
    // The attacker's side may not apply it for Wren... the GM may; Wren's player does here.
    const intruder = await e2e.double
      .click(ilsaPlayer, attackPanel, componentId(attackPanel, "fate.apply-hit"))
      .response();
    expect(intruder.ephemeral).toBe(true);
    await panelRecorded(attackPanel.id);
    await e2e.restart("kill");
    const applied = (
      await e2e.double
        .click(wrenPlayer, attackPanel, componentId(e2e.double.message(attackPanel.id), "fate.apply-hit"))
        .settled()
    ).original!;
    expect(applied.text).toMatch(/A hit of \d+ shifts on Wren from Captain/);
    expect(applied.mentions.users).toEqual([wrenPlayer]);
    const ways = options(applied);
    expect(ways.length).toBeGreaterThanOrEqual(2);
    // Someone else cannot choose for Wren.
    const stranger = await e2e.double
      .select(ilsaPlayer, applied, componentId(applied, "fate.absorb"), [ways[1]!.value])
      .response();
    expect(stranger.ephemeral).toBe(true);
    await panelRecorded(applied.id);
    await e2e.restart("kill");
    await e2e.double
      .select(wrenPlayer, applied, componentId(applied, "fate.absorb"), [ways[1]!.value])
      .settled();
    await eventually(applied.id, `Wren takes a hit of`);
    expect(e2e.double.message(applied.id).text).toContain(ways[1]!.label.replace(/ \+ /g, ", "));
    // Applied exactly once: the attack's Apply is gone, and one hit is in the log.
    expect(e2e.double.message(attackPanel.id).components).toEqual([]);
    const hits = await e2e.database.query("SELECT id FROM log_entry WHERE action = 'fate.hit'");
    expect(hits).toHaveLength(1);
  });

  it("a concession refused until the rolled hit is settled, across a restart", async () => {
    const attack = (
      await slash(gm, "check", [], {
        skill: "fight",
        action: "attack",
        target: "Ilsa",
        character: "Captain",
        bonus: 6,
      }).settled()
    ).original!;
    const before = await fp("Ilsa");
    const refused = await slash(ilsaPlayer, "conflict", ["concede"]).response();
    expect(refused.ephemeral).toBe(true);
    expect(refused.message?.text).toContain("уже брошены");
    await panelRecorded(attack.id);
    await e2e.restart("kill");
    const defended = await e2e.double
      .select(ilsaPlayer, attack, componentId(e2e.double.message(attack.id), "fate.defend"), ["athletics"])
      .settled();
    // A defence that wins or ties settles the attack itself; a hit waits to be applied.
    if (!defended.original?.text.includes("is settled")) {
      const again = await slash(ilsaPlayer, "conflict", ["concede"]).response();
      expect(again.ephemeral).toBe(true);
      expect(await fp("Ilsa")).toBe(before);
      const current = await eventually(attack.id, /Apply the hit/);
      const applied = (await e2e.double.click(gm, current, componentId(current, "fate.apply-hit")).settled())
        .original!;
      if (applied.components.length > 0) {
        await e2e.double
          .select(ilsaPlayer, applied, componentId(applied, "fate.absorb"), [options(applied)[0]!.value])
          .settled();
      }
    }
    const conceded = await slash(ilsaPlayer, "conflict", ["concede"]).settled();
    expect(conceded.original?.text).toMatch(/Ilsa concedes and gets \d fate points?/);
    expect(await fp("Ilsa")).toBeGreaterThan(before);
    // Out of the fight: no more attacks on her.
    const noMore = await slash(gm, "check", [], {
      skill: "fight",
      action: "attack",
      target: "Ilsa",
      character: "Captain",
    }).response();
    expect(noMore.ephemeral).toBe(true);
    expect(noMore.message?.text).toContain("takes no more hits");
  });

  it("a free invoke refused to the other side, across a restart", async () => {
    // Wren creates an advantage on the Captain: +8 against 0 always succeeds, so the free invoke is hers.
    const advantage = (
      await slash(wrenPlayer, "check", [], {
        skill: "athletics",
        action: "advantage",
        target: "Captain",
        aspect: "Pinned down",
        bonus: 8,
        vs: 0,
      }).settled()
    ).original!;
    await e2e.double.click(wrenPlayer, advantage, componentId(advantage, "fate.claim-advantage")).settled();
    await e2e.restart("kill");
    await slash(gm, "check", [], { skill: "fight", character: "Captain", vs: 2 }).settled();
    const captainFp = await fp("Captain");
    const refused = await slash(gm, "invoke", [], { aspect: "Pinned down", pay: "free-invoke" }).response();
    expect(refused.ephemeral).toBe(true);
    expect(refused.message?.text).toContain("belong to another side");
    expect(await fp("Captain")).toBe(captainFp);
    const rows = await e2e.database.query<{ free_invokes: number }>(
      "SELECT free_invokes FROM aspect WHERE name = 'Pinned down'",
    );
    expect(rows[0]?.free_invokes).toBeGreaterThanOrEqual(1);
    // Wren's side spends it.
    await slash(wrenPlayer, "check", [], { skill: "athletics", vs: 3 }).settled();
    const used = await slash(wrenPlayer, "invoke", [], {
      aspect: "Pinned down",
      pay: "free-invoke",
    }).settled();
    expect(used.original?.text).toContain("free invoke");
  });

  it("a style attack traded for a boost, across a restart", async () => {
    // +7 against 0: 3 to 11 shifts, always with style.
    const attack = (
      await slash(wrenPlayer, "check", [], {
        skill: "fight",
        action: "attack",
        target: "Captain",
        bonus: 7,
        vs: 0,
      }).settled()
    ).original!;
    const tradeId = componentId(attack, "fate.trade-boost");
    await panelRecorded(attack.id);
    await e2e.restart("kill");
    // The boost is named by its owner: the button opens a form with the default name filled in.
    const form = await e2e.double.click(wrenPlayer, attack, tradeId).response();
    expect(form.type).toBe(9);
    const modalId = String((form.modal as { custom_id: string }).custom_id);
    expect(modalId.startsWith("i1|fate.trade-boost|")).toBe(true);
    const traded = await e2e.double.submitModal(wrenPlayer, modalId, { name: "Off balance" }).settled();
    expect(traded.original?.text).toMatch(
      /Wren trades a shift for a boost «Off balance»: the hit on Captain is now \d+ shifts?/,
    );
    const boost = await e2e.database.query<{ kind: string; free_invokes: number }>(
      "SELECT kind, free_invokes FROM aspect WHERE name = 'Off balance'",
    );
    expect(boost[0]).toEqual({ kind: "boost", free_invokes: 1 });
    const panel = await eventually(attack.id, "The attacker took a boost for one shift of the hit");
    expect(() => componentId(panel, "fate.trade-boost")).toThrow();
    const applied = (await e2e.double.click(gm, panel, componentId(panel, "fate.apply-hit")).settled())
      .original!;
    const dealt = Number(
      /A hit of (\d+) shifts? on Captain|Captain takes a hit of (\d+)/
        .exec(applied.text)
        ?.slice(1)
        .find(Boolean),
    );
    expect(dealt).toBeGreaterThanOrEqual(2);
    // The end of the conflict: announced with its outcome in a new message.
    await slash(gm, "conflict", ["end"]).settled();
    await e2e.double.waitFor(
      () => (channelText().includes("🏁 The conflict «Harbour» is over") ? true : null),
      {
        timeoutMs: 5000,
        what: () => "the end announcement",
      },
    );
    expect(channelText()).toContain("**Ilsa** — conceded");
    expect(latePlayer).toBeDefined();
  });
});
