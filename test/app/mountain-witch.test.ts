import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Executed } from "../../src/app/execute.js";
import type { Intent } from "../../src/app/intent.js";
import { activeDamage, activeDamageRead } from "../../src/app/mountain-witch/shared.js";
import type { Effect } from "../../src/app/use-case.js";
import type { MessageView } from "../../src/app/views.js";
import { scriptedDice } from "../../src/rules/dice.js";
import { inTransaction } from "../../src/store/db.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";
import { recordSentStatements } from "../support/sent-statements.js";

const GM = { id: "500000000000000001", name: "Gail" };
const P1 = { id: "500000000000000011", name: "Pia" };
const P2 = { id: "500000000000000012", name: "Pavel", locale: "ru" };
const P3 = { id: "500000000000000013", name: "Pat" };
const P4 = { id: "500000000000000014", name: "Poe" };
const CHANNEL = "600000000000000001";
const DM = { guildId: null, channelId: "600000000000000099" };

function viewText(view: MessageView | undefined): string {
  if (!view) return "";
  return [
    view.content ?? "",
    ...(view.embeds ?? []).flatMap((e) => [
      e.title ?? "",
      e.description ?? "",
      ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
      e.footer ?? "",
    ]),
  ].join("\n");
}

function effects(executed: Executed, kind?: Effect["kind"]): Effect[] {
  return (executed.result.effects ?? []).filter((e) => !kind || e.kind === kind);
}

function button(view: MessageView | undefined, type: string): Intent {
  for (const row of view?.rows ?? [])
    for (const c of row) if (c.kind === "button" && c.intent.type === type) return c.intent;
  throw new Error(`no ${type} button`);
}

describe("The Mountain Witch use cases", () => {
  let app: AppHarness;
  const trust = async (giver: string, holder: string) => {
    const rows = await app.database.query<{ value: number; points: number }>(
      `SELECT value, points FROM trust_link l JOIN character g ON g.id = l.giver_id JOIN character h ON h.id = l.holder_id WHERE g.name = $1 AND h.name = $2`,
      [giver, holder],
    );
    return rows[0];
  };
  const snapshot = () =>
    app.database.query(
      "SELECT (SELECT json_agg(t ORDER BY giver_id, holder_id) FROM trust_link t) AS trust, (SELECT json_agg(f ORDER BY id) FROM (SELECT id, status, state FROM flow) f) AS flows, (SELECT count(*) FROM damage_entry) AS damage",
    );

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "mountain-witch" }, { channelId: CHANNEL });
    await app.run(P1, { type: "character.create", name: "Akio", zodiac: "rat" }, { channelId: CHANNEL });
    await app.run(P2, { type: "character.create", name: "Bo", zodiac: "dragon" }, { channelId: CHANNEL });
    await app.run(P3, { type: "character.create", name: "Chi", zodiac: "monkey" }, { channelId: CHANNEL });
    await app.run(P4, { type: "character.create", name: "Dai", zodiac: "snake" }, { channelId: CHANNEL });
    await app.run(
      GM,
      { type: "character.create", name: "Oni", kind: "npc", strength: "strong" },
      { channelId: CHANNEL },
    );
  });
  afterAll(async () => app.close());

  const run = (user: { id: string }, intent: Intent) => app.run(user, intent, { channelId: CHANNEL });
  const refused = (user: { id: string }, intent: Intent) => app.refused(user, intent, { channelId: CHANNEL });

  it("seeds the starting trust from the zodiac (allied 3, neutral 2); «Начальное доверие выбирается на основе знаков Зодиака»", async () => {
    expect(await trust("Akio", "Bo")).toEqual({ value: 3, points: 3 });
    expect(await trust("Chi", "Akio")).toEqual({ value: 3, points: 3 });
    expect(await trust("Akio", "Dai")).toEqual({ value: 2, points: 2 });
    expect(await trust("Bo", "Dai")).toEqual({ value: 2, points: 2 });
    // Before chapter 1: +1 at most per character, or lower; `Akio gives Dai 20` is refused with the limits.
    expect(await refused(P1, { type: "trust.set", target: "Dai", value: 20 })).toEqual({
      code: "errors.mw.startingTrustTooHigh",
      params: { zodiac: 2, max: 3 },
    });
    // Secret mode: the edit is the giver's alone until chapter 1; setting the zodiac value back drops it.
    const set = await app.run(P1, { type: "trust.set", target: "Dai", value: 3 }, { channelId: CHANNEL });
    expect(set.result.reply?.ephemeral).toBe(true);
    expect(await trust("Akio", "Dai")).toEqual({ value: 2, points: 2 });
    expect(viewText((await run(P1, { type: "trust.show" })).result.reply)).toContain("Dai: **2** → **3**");
    expect(viewText((await run(P4, { type: "trust.matrix" })).result.reply)).not.toContain("Dai **3**");
    await app.run(P1, { type: "trust.set", target: "Dai", value: 2 }, { channelId: CHANNEL });
    expect(viewText((await run(P1, { type: "trust.show" })).result.reply)).not.toContain("→ **3**");
    // Bo lowers what he gives Chi: it stays secret until play begins (the next test's first conflict).
    await app.run(P2, { type: "trust.set", target: "Chi", value: 1 }, { channelId: CHANNEL });
    expect(await trust("Bo", "Chi")).toEqual({ value: 3, points: 3 });
  });

  it("sheets: abilities, background, zodiac; the sheet shows no secret", async () => {
    await run(P1, { type: "character.abilities", first: "Spider climb", second: "Speak with the dead" });
    await run(P1, { type: "character.background", text: "Lost his lord at Sekigahara." });
    const shown = await run(P3, { type: "character.show", name: "Akio" });
    expect(replyText(shown)).toContain("Spider climb");
    expect(replyText(shown)).toContain("Sekigahara");
    expect((await refused(P2, { type: "character.abilities", name: "Akio", first: "X" })).code).toBe(
      "errors.notYourCharacter",
    );
    // The two questions of character creation, and props (colour only).
    await run(P1, {
      type: "character.background",
      ronin: "His lord fell and he would not follow him in death.",
      money: "To buy back his family's name.",
    });
    await run(P1, { type: "character.props", text: "A straw hat and a broken fan" });
    expect((await refused(P1, { type: "character.background" })).code).toBe("errors.mw.backgroundNeeded");
    const full = replyText(await run(P3, { type: "character.show", name: "Akio" }));
    expect(full).toContain("Why and how a ronin");
    expect(full).toContain("would not follow him in death");
    expect(full).toContain("Why the money");
    expect(full).toContain("family's name");
    expect(full).toContain("Props");
    expect(full).toContain("straw hat");
    // Notes set before stay: each answer changes only its own field.
    expect(full).toContain("Sekigahara");
    // The zodiac sign with its allies and its enemy.
    expect(full).toContain("Rat · allies: Dragon, Monkey · enemy: Horse");
  });

  it("a group conflict: three players, one GM opponent, an assist, a betrayal and a bought narration", async () => {
    const started = await run(GM, { type: "conflict.start", opponent: "Oni", title: "The bridge" });
    expect(started.result.replyIsPanelOf).toBeGreaterThan(0);
    // Play begins: the starting edits are revealed, a lowered value with its points.
    expect(await trust("Bo", "Chi")).toEqual({ value: 1, points: 1 });
    await run(P1, { type: "conflict.join" });
    await run(P2, { type: "conflict.join" });
    await run(P3, { type: "conflict.join", against: "Akio" });
    // Refusals change nothing.
    const before = await snapshot();
    expect((await refused(P2, { type: "conflict.join", character: "Akio" })).code).toBe(
      "errors.notYourCharacter",
    );
    expect((await refused(P2, { type: "conflict.assist", target: "Nobody" })).code).toBe(
      "errors.character.notFound",
    );
    expect((await refused(GM, { type: "conflict.trade", level: "normal" })).code).toBe(
      "errors.mw.gmCannotTrade",
    );
    expect((await refused(P3, { type: "conflict.betray", target: "Akio", points: 5 })).code).toBe(
      "errors.mw.notEnoughTrust",
    );
    expect((await refused(P1, { type: "conflict.roll" })).code).toBe("errors.gmOnly");
    expect(await snapshot()).toEqual(before);

    const assisted = await run(P2, { type: "conflict.assist", target: "Akio" });
    expect(viewText(assisted.result.reply)).toContain("Bo");
    expect(await trust("Akio", "Bo")).toEqual({ value: 3, points: 2 });
    await run(P3, { type: "conflict.betray", target: "Akio", points: 2 });
    expect(await trust("Akio", "Chi")).toEqual({ value: 3, points: 1 });
    // Betrayed: Akio may not spend trust in this conflict.
    const again = await snapshot();
    expect((await refused(P1, { type: "conflict.betray", target: "Chi", points: 1 })).code).toBe(
      "errors.mw.betrayedCannotSpend",
    );
    expect(await snapshot()).toEqual(again);

    // Oni 4; Akio 5 + Bo 2 = 7; Chi 3 + 2 (betrayal) = 5; the GM side's best is 5: mixed success.
    app.useDice(scriptedDice([4, 5, 2, 3]));
    const rolled = await run(GM, { type: "conflict.roll" });
    const text = viewText(rolled.result.reply);
    expect(text).toContain("🎲 5");
    expect(text).toContain("🎲 2");
    expect(text).toContain("Mixed success");
    expect(text).toContain("Akio narrates");
    expect((await refused(P1, { type: "conflict.narrate", character: "Akio" })).code).toBe(
      "errors.mw.betrayedCannotSpend",
    );

    await run(P4, { type: "conflict.narrate", character: "Akio" });
    expect(await trust("Akio", "Dai")).toEqual({ value: 2, points: 1 });
    expect((await refused(P1, { type: "conflict.damage", target: "Oni", quality: "normal" })).code).toBe(
      "errors.mw.notNarrator",
    );
    const hit = await run(P4, { type: "conflict.damage", target: "Oni", quality: "normal" });
    expect(viewText(hit.result.reply)).toContain("Oni");
    const oni = await app.db.character.findFirstOrThrow({ where: { name: "Oni" } });
    expect(await app.db.damageEntry.findMany({ where: { characterId: oni.id } })).toMatchObject([
      { duration: "chapter" },
    ]);
    expect((await refused(P4, { type: "conflict.damage", target: "Oni", quality: "normal" })).code).toBe(
      "errors.mw.notEnoughSuccesses",
    );
    await run(GM, { type: "conflict.end" });
    const spends = await app.db.logEntry.findMany({
      where: { action: { startsWith: "trust." } },
      orderBy: { id: "asc" },
    });
    expect(spends.map((s) => s.action)).toEqual([
      // The secret starting edits (each logged for its giver only): Akio's two, Bo's one;
      // then Bo's, revealed when play began.
      "trust.value",
      "trust.value",
      "trust.value",
      "trust.value",
      "trust.help",
      "trust.betray",
      "trust.narration",
    ]);
  });

  it("a join from the panel reads its conflict and the damage its panel shows with the table's lock: two round trips", async () => {
    const started = await run(GM, { type: "conflict.start", opponent: "Kappa" });
    const flowId = started.result.replyIsPanelOf!;
    const recording = recordSentStatements();
    let joined: Executed;
    try {
      joined = await run(P1, { type: "conflict.join", flowId });
    } finally {
      recording.stop();
    }
    expect(viewText(joined.result.reply)).toContain("Akio");
    const trips = recording.sent.filter((text) => !text.includes("INSERT INTO user_language"));
    // The lock with the conflict, the table's characters and its damage; the COMMIT with the
    // conflict's new state and the log.
    expect(trips[0]?.startsWith("BEGIN;")).toBe(true);
    expect(trips.slice(1).filter((text) => /\bFROM (flow|damage_entry)\b/.test(text))).toEqual([]);
    expect(trips).toHaveLength(2);
    const stored = await app.db.flow.findUniqueOrThrow({ where: { id: flowId } });
    expect(JSON.stringify(stored.state)).toContain(
      `"id":${(await app.db.character.findFirstOrThrow({ where: { name: "Akio" } })).id}`,
    );
    await run(GM, { type: "conflict.end", flowId });
  });

  it("the damage in effect read with the opening is what its query finds, for the characters asked about", async () => {
    const table = await app.db.gameTable.findFirstOrThrow({ where: { channelId: CHANNEL } });
    const akio = await app.db.character.findFirstOrThrow({ where: { name: "Akio" } });
    const bo = await app.db.character.findFirstOrThrow({ where: { name: "Bo" } });
    const chi = await app.db.character.findFirstOrThrow({ where: { name: "Chi" } });
    const at = { tableId: table.id, userId: GM.id };
    const seen = await inTransaction(app.db, async (tx) => {
      const add = (characterId: number, duration: string, cleared: boolean) =>
        tx.sql().run`
            INSERT INTO damage_entry (table_id, character_id, duration, cleared_at, created_at)
            VALUES (${table.id}, ${characterId}, ${duration}, ${cleared ? new Date() : null}, ${new Date()})`;
      // In effect, cleared, taken out (never a penalty), in effect, one not asked about; then what
      // a query finds, and what the opening's statement read now hands out.
      await add(akio.id, "chapter", false);
      await add(akio.id, "chapter", true);
      await add(bo.id, "taken-out", false);
      await add(bo.id, "scene", false);
      await add(chi.id, "chapter", false);
      const queried = await activeDamage(tx, table.id, [akio.id, bo.id, -1]);
      const [opened = []] = await tx.batch([activeDamageRead.statement(at)]);
      tx.noteOpened(activeDamageRead, activeDamageRead.scope(at), opened);
      const recording = recordSentStatements();
      const fromOpening = await activeDamage(tx, table.id, [akio.id, bo.id, -1]).finally(() =>
        recording.stop(),
      );
      throw Object.assign(new Error("roll back"), { seen: { queried, fromOpening, sent: recording.sent } });
    }).catch((error: { seen?: unknown }) => error.seen as Record<string, unknown>);
    expect(seen.sent).toEqual([]);
    expect(seen.fromOpening).toEqual(seen.queried);
    expect(
      Object.values(seen.queried as Record<number, { duration: string }[]>)
        .flat()
        .map((d) => d.duration)
        .sort(),
    ).toEqual(["chapter", "scene"]);
  });

  it("two clicks on 'assist' with the last trust point at the same moment: exactly one spend", async () => {
    // Two open conflicts, each with a character Dai could help with the one point Akio gave him.
    await run(GM, { type: "conflict.start", opponent: "Oni" });
    await run(P1, { type: "conflict.join" });
    const flowA = (
      await app.db.flow.findFirstOrThrow({
        where: { kind: "mw.conflict", status: "open" },
        orderBy: { id: "desc" },
      })
    ).id;
    const results = await Promise.allSettled([
      run(P4, {
        type: "conflict.assist",
        flowId: flowA,
        targetId: (await app.db.character.findFirstOrThrow({ where: { name: "Akio" } })).id,
      }),
      run(P4, { type: "conflict.assist", flowId: flowA, target: "Akio" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await trust("Akio", "Dai")).toEqual({ value: 2, points: 0 });
    expect(
      await app.db.logEntry.count({
        where: {
          action: "trust.help",
          characterId: (await app.db.character.findFirstOrThrow({ where: { name: "Dai" } })).id,
        },
      }),
    ).toBe(1);
    await run(GM, { type: "conflict.end", flowId: flowA });
  });

  it("a duel: only the duellists see their own dice, and only their own, until the reveal", async () => {
    const challenged = await run(P1, { type: "duel.challenge", opponent: "Bo" });
    const panel = challenged.result.reply;
    expect((await refused(P3, button(panel, "duel.accept"))).code).toBe("errors.notYourCharacter");
    app.useDice(scriptedDice([3, 4]));
    const accepted = await run(P2, button(panel, "duel.accept"));
    expect(viewText(accepted.result.reply)).not.toMatch(/🎲 \d/);
    const peekA = await run(P1, { type: "duel.peek" });
    expect(peekA.result.reply?.ephemeral).toBe(true);
    expect(viewText(peekA.result.reply)).toContain("🎲 3");
    expect(viewText(peekA.result.reply)).not.toContain("🎲 4");
    expect((await refused(P3, { type: "duel.peek" })).code).toBe("errors.mw.notDuellist");
    // Trust is refused to living duellists (and to the living outside it).
    expect((await refused(P1, { type: "duel.trust", use: "betray", target: "Bo", points: 1 })).code).toBe(
      "errors.mw.duellistCannotUseTrust",
    );
    expect((await refused(P3, { type: "duel.trust", use: "help", target: "Bo" })).code).toBe(
      "errors.mw.duelTrustOnlyDead",
    );

    await run(P1, { type: "duel.next" });
    app.useDice(scriptedDice([5, 1]));
    const both = await run(P2, { type: "duel.next" });
    // Bo's own view shows Bo's dice; the edit of Akio's secret message shows Akio's.
    expect(viewText(both.result.reply)).toContain("🎲 4 🎲 1");
    const edits = effects(both, "editInteractionReply") as Extract<
      Effect,
      { kind: "editInteractionReply" }
    >[];
    expect(edits).toHaveLength(1);
    expect(viewText(edits[0]!.view)).toContain("🎲 3 🎲 5");
    const panels = effects(both, "editPanel") as Extract<Effect, { kind: "editPanel" }>[];
    expect(viewText(panels[0]!.view)).not.toMatch(/🎲 \d/);
    // No log entry readable by others carries a die.
    const visible = await app.db.logEntry.findMany({ where: { action: "duel.dice", visibleTo: null } });
    expect(visible).toEqual([]);

    const struck = await run(P1, { type: "duel.strike" });
    // The reveal is a new message, which becomes the duel's panel.
    const reveal = effects(struck, "postPanel") as Extract<Effect, { kind: "postPanel" }>[];
    expect(viewText(reveal[0]!.view)).toContain("🎲 3 🎲 5 = **8**");
    expect(viewText(reveal[0]!.view)).toContain("🎲 4 🎲 1 = **5**");
    expect(viewText(reveal[0]!.view)).toContain("Normal success");
    await run(P1, { type: "duel.damage", quality: "normal" });
    const bo = await app.db.character.findFirstOrThrow({ where: { name: "Bo" } });
    expect(
      await app.db.damageEntry.count({ where: { characterId: bo.id, duration: "chapter", clearedAt: null } }),
    ).toBe(1);
    await run(P2, { type: "duel.end" });
  });

  it("damage: listed publicly, cleared by the GM only; chapter damage ends with the chapter", async () => {
    const list = await run(P3, { type: "damage.list" });
    expect(viewText(list.result.reply)).toContain("Bo");
    const bo = await app.db.character.findFirstOrThrow({ where: { name: "Bo" } });
    const entry = await app.db.damageEntry.findFirstOrThrow({
      where: { characterId: bo.id, clearedAt: null },
    });
    expect((await refused(P2, { type: "damage.clear", character: "Bo", entry: String(entry.id) })).code).toBe(
      "errors.gmOnly",
    );
    await run(GM, { type: "damage.clear", character: "Bo", entry: String(entry.id) });
    expect(await app.db.damageEntry.count({ where: { characterId: bo.id, clearedAt: null } })).toBe(0);
  });

  it("a secret trust round: DMs (one closed: submits in the channel), nothing shown before one reveal", async () => {
    const opened = await run(GM, { type: "chapter.next" });
    // The first /chapter next only begins chapter 1 (the starting matrix becomes final): here play had begun.
    const dms = effects(opened, "dm") as Extract<Effect, { kind: "dm" }>[];
    expect(dms.map((d) => d.userId).sort()).toEqual([P1.id, P2.id, P3.id, P4.id].sort());
    expect(viewText(dms[0]!.view)).toContain(": **");
    const flowId = (await app.db.flow.findFirstOrThrow({ where: { kind: "mw.trust-round", status: "open" } }))
      .id;
    // P4's DMs are closed: the router runs the ifClosed intent as the GM.
    const closed = dms.find((d) => d.userId === P4.id)!;
    expect(viewText(closed.ifClosed!.view)).toContain("/trust set");
    await run(GM, closed.ifClosed!.intent!);
    const table = await app.db.gameTable.findFirstOrThrow({ where: { channelId: CHANNEL } });
    expect(table.chapter).toBe(2);

    const recording = recordSentStatements();
    let p1: Executed;
    try {
      p1 = await app.run(P1, { type: "trust.set", target: "Bo", value: 4 }, DM);
    } finally {
      recording.stop();
    }
    expect(viewText(p1.result.reply)).toContain("Bo: **4** (3 → 4)");
    // In a DM the action finds its table itself, and locks it together with what the game's
    // actions read first (the player's characters, the open round): no statement of its own reads
    // them again. (Batched statements go as EXECUTE; every other one shows its text.)
    const ownStatements = recording.sent.filter((text) => !/^(BEGIN|EXECUTE|PREPARE)/.test(text.trim()));
    expect(ownStatements.length).toBeGreaterThan(0);
    expect(ownStatements.filter((text) => /\bFROM flow\b|owner_user_id = \$2/.test(text))).toEqual([]);
    expect((await app.refused(P1, { type: "trust.set", target: "Chi", value: 5 }, DM)).code).toBe(
      "errors.mw.trustRaiseTooHigh",
    );
    expect((await app.refused(P1, { type: "trust.set", target: "Chi", value: -1 }, DM)).code).toBe(
      "errors.mw.trustNegative",
    );
    await app.run(P1, { type: "trust.submit" }, DM);
    // The panel the GM sees: who submitted, never what.
    const panelEdit = (
      await app.run(P2, { type: "trust.set", target: "Akio", value: 0 }, DM)
    ).result.effects!.find((e) => e.kind === "editPanel") as Extract<Effect, { kind: "editPanel" }>;
    expect(viewText(panelEdit.view)).toContain("Akio");
    expect(viewText(panelEdit.view)).not.toMatch(/\b4\b|→/);
    await app.run(
      P2,
      {
        type: "trust.submit",
        flowId,
        characterId: (await app.db.character.findFirstOrThrow({ where: { name: "Bo" } })).id,
      },
      DM,
    );
    await app.run(P3, { type: "trust.submit" }, DM);
    // Nothing is revealed before the last submission; the points refilled when the chapter began.
    expect(await trust("Akio", "Bo")).toEqual({ value: 3, points: 3 });
    const inChannel = await run(P4, { type: "trust.set", target: "Chi", value: 3 });
    expect(inChannel.result.reply?.ephemeral).toBe(true);
    const last = await run(P4, { type: "trust.submit" });
    const posts = effects(last, "post") as Extract<Effect, { kind: "post" }>[];
    expect(posts).toHaveLength(1);
    const revealed = viewText(posts[0]!.view);
    expect(revealed).toContain("Akio → Bo: 3 → **4**");
    expect(revealed).toContain("Bo → Akio: 3 → **0**");
    expect(revealed).toContain("Dai → Chi: 2 → **3**");
    expect(await trust("Akio", "Bo")).toEqual({ value: 4, points: 4 });
    expect(await trust("Akio", "Dai")).toEqual({ value: 2, points: 2 });
    // Secret submissions are logged for their authors only.
    const proposals = await app.db.logEntry.findMany({ where: { action: "trust.propose" } });
    expect(proposals.every((p) => p.visibleTo !== null)).toBe(true);
  });

  it("dark fates: dealt by DM without repeats, one redraw from the rest, then the undealt are shown", async () => {
    app.useDice(scriptedDice([1, 1, 1, 1]));
    const dealt = await run(GM, { type: "darkfate.deal" });
    const dms = effects(dealt, "dm") as Extract<Effect, { kind: "dm" }>[];
    expect(dms).toHaveLength(4);
    expect(viewText(dms[0]!.view)).toContain("Tragic love");
    // The owner reads what the fate means; nobody else does.
    expect(viewText(dms[0]!.view)).toContain("A love that cannot end well");
    expect(viewText(dealt.result.reply)).not.toContain("Tragic");
    expect(viewText(dealt.result.reply)).not.toContain("cannot end well");
    const gmView = await run(GM, { type: "darkfate.show" });
    expect(viewText(gmView.result.reply)).not.toMatch(/Tragic|Oaths|Revenge|True motives/);
    app.useDice(scriptedDice([1]));
    const redrawn = await app.run(
      P1,
      button(dms.find((d) => d.userId === P1.id)!.view, "darkfate.redraw"),
      DM,
    );
    expect(viewText(redrawn.result.reply)).toContain("Unholy pact");
    await app.run(P2, button(dms.find((d) => d.userId === P2.id)!.view, "darkfate.keep"), DM);
    await run(P3, { type: "darkfate.keep" });
    const lastKeep = await run(P4, { type: "darkfate.keep" });
    const post = effects(lastKeep, "post") as Extract<Effect, { kind: "post" }>[];
    expect(viewText(post[0]!.view)).toContain("Tragic love");
    expect(viewText(post[0]!.view)).toContain("Worst fear");
    // Shown by the deal, not by the last player who kept: the log credits the GM who dealt.
    const undealt = await app.db.logEntry.findFirstOrThrow({ where: { action: "darkfate.undealt" } });
    expect(undealt.actorUserId).toBe(GM.id);
    const revealed = await run(P1, { type: "darkfate.reveal" });
    expect(viewText(revealed.result.reply)).toContain("Unholy pact");
    expect(replyText(await run(P3, { type: "character.show", name: "Akio" }))).toContain("Unholy pact");
    expect(replyText(await run(P1, { type: "character.show", name: "Bo" }))).not.toContain("Oaths");
    expect(replyText(await run(P1, { type: "character.show", name: "Bo" }))).not.toContain("swore loyalty");
    expect(replyText(await run(P3, { type: "character.show", name: "Akio" }))).toContain(
      "She keeps her side exactly as long as you keep yours",
    );
  });

  it("taken out, then a recovery attempt from the next chapter on", async () => {
    await run(GM, { type: "character.create", name: "Ashigaru", kind: "npc", strength: "weak" });
    await run(GM, { type: "conflict.start", opponent: "Ashigaru" });
    await run(P3, { type: "conflict.join" });
    app.useDice(scriptedDice([6, 1]));
    await run(GM, { type: "conflict.roll" });
    await run(GM, { type: "conflict.damage", target: "Chi", quality: "double" });
    await run(GM, { type: "conflict.end" });
    expect((await app.db.character.findFirstOrThrow({ where: { name: "Chi" } })).status).toBe(
      "incapacitated",
    );
    expect((await refused(P3, { type: "character.recover" })).code).toBe("errors.mw.recoveryNotYet");
    expect((await refused(P3, { type: "conflict.join" })).code).toBe("errors.mw.noConflict");
    await run(GM, { type: "chapter.next" });
    await run(GM, { type: "trust.reveal" });
    await run(P3, { type: "character.recover" });
    app.useDice(scriptedDice([5, 2]));
    await run(GM, { type: "conflict.roll" });
    const done = await run(P3, { type: "conflict.damage", target: "Incapacity", quality: "normal" });
    expect(viewText(done.result.reply)).toContain("recovers");
    // The panel says incapacity is overcome, not "Incapacity is taken out: incapacitated".
    const panel = effects(done, "editPanel")[0];
    const panelText = panel?.kind === "editPanel" ? viewText(panel.view) : "";
    expect(panelText).toContain("Chi overcomes incapacity");
    expect(panelText).not.toContain("taken out");
    const chi = await app.db.character.findFirstOrThrow({ where: { name: "Chi" } });
    expect(chi.status).toBe("active");
    expect(
      await app.db.damageEntry.count({
        where: { characterId: chi.id, duration: "permanent", clearedAt: null },
      }),
    ).toBe(1);
    expect((await refused(P3, { type: "character.recover" })).code).toBe("errors.mw.notIncapacitated");
  });
});
