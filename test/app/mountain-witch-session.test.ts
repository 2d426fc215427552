/**
 * The Mountain Witch at the app layer, rule by rule as the seed words them
 * (docs/rules/mountain-witch.md): common dangers spent pairing by pairing, narration per
 * pairing, the dead's trust, one damage per duel round, the duel that closes itself.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Intent } from "../../src/app/intent.js";
import { duelFlow } from "../../src/app/mountain-witch/flow-states.js";
import type { MessageView, SelectView } from "../../src/app/views.js";
import { scriptedDice } from "../../src/rules/dice.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "510000000000000001", name: "Gail" };
const HAMADA = { id: "510000000000000011", name: "Hana" };
const KENJI = { id: "510000000000000012", name: "Kolya", locale: "ru" };
const AKI = { id: "510000000000000013", name: "Ann" };
const YANAGI = { id: "510000000000000014", name: "Yana", locale: "ru" };
const CHANNEL = "610000000000000001";

function selects(view: MessageView | undefined): SelectView[] {
  return (view?.rows ?? []).flat().filter((c): c is SelectView => c.kind === "select");
}

describe("Mountain Witch session rules (app)", () => {
  let app: AppHarness;
  const run = (user: { id: string }, intent: Intent) => app.run(user, intent, { channelId: CHANNEL });
  const refused = (user: { id: string }, intent: Intent) => app.refused(user, intent, { channelId: CHANNEL });
  const points = async (giver: string, holder: string) =>
    (
      await app.database.query<{ points: number }>(
        `SELECT points FROM trust_link l JOIN character g ON g.id = l.giver_id JOIN character h ON h.id = l.holder_id WHERE g.name = $1 AND h.name = $2`,
        [giver, holder],
      )
    )[0]?.points;

  beforeAll(async () => {
    app = await createAppHarness();
    await run(GM, { type: "table.setup", system: "mountain-witch" });
    await run(HAMADA, { type: "character.create", name: "Hamada", zodiac: "rat" });
    await run(KENJI, { type: "character.create", name: "Kenji", zodiac: "dragon" });
    await run(AKI, { type: "character.create", name: "Aki", zodiac: "monkey" });
    await run(YANAGI, { type: "character.create", name: "Yanagi", zodiac: "ox" });
    await run(GM, { type: "character.create", name: "Landslide", kind: "npc", strength: "strong" });
    await run(GM, { type: "chapter.next" });
  });
  afterAll(async () => app?.close());

  it("«наносить и принимать Ущерб»: each winner of a common danger spends their own pairing from the panel", async () => {
    await run(GM, { type: "conflict.start", opponent: "Landslide", mode: "common-danger" });
    await run(HAMADA, { type: "conflict.join" });
    await run(KENJI, { type: "conflict.join" });
    await run(AKI, { type: "conflict.join" });
    // Landslide 3; Hamada 6 (normal), Kenji 5 (mixed), Aki 1 (mixed for the danger).
    app.useDice(scriptedDice([3, 6, 5, 1]));
    const rolled = await run(GM, { type: "conflict.roll" });
    const damage = selects(rolled.result.reply).filter((s) => s.intent.type === "conflict.damage");
    expect(damage).toHaveLength(3);
    const [hamadaPairing, kenjiPairing, akiPairing] = damage;
    // Each option says what it does to whom.
    expect(hamadaPairing!.options.map((o) => `${o.label} — ${o.description}`)).toEqual([
      "Landslide: ½ success (partial) — −1 wound: until the next roll",
      "Landslide: 1 success (normal) — −1 until the end of the chapter",
    ]);
    const choose = (select: SelectView, value: string): Intent => ({
      ...select.intent,
      [select.field]: value,
    });
    // Hamada cannot spend Kenji's pairing, nor the GM's.
    const kenjiOnDanger = kenjiPairing!.options.find((o) => o.value.startsWith("a:"))!.value;
    expect((await refused(HAMADA, choose(kenjiPairing!, kenjiOnDanger))).code).toBe("errors.mw.notNarrator");
    expect((await refused(AKI, choose(akiPairing!, akiPairing!.options[0]!.value))).code).toBe(
      "errors.mw.notNarrator",
    );
    await run(HAMADA, choose(hamadaPairing!, hamadaPairing!.options[1]!.value));
    await run(KENJI, choose(kenjiPairing!, kenjiOnDanger));
    // The slash command finds the narrator's own pairing; the GM spends the danger's win on Aki.
    expect((await refused(HAMADA, { type: "conflict.damage", quality: "partial" })).code).toBe(
      "errors.mw.notEnoughSuccesses",
    );
    const gm = await run(GM, { type: "conflict.damage", character: "Aki", quality: "normal" });
    expect(replyText(gm)).toContain("Aki");
    const landslide = await app.db.character.findFirstOrThrow({ where: { name: "Landslide" } });
    const aki = await app.db.character.findFirstOrThrow({ where: { name: "Aki" } });
    expect(await app.db.damageEntry.count({ where: { characterId: landslide.id } })).toBe(2);
    expect(await app.db.damageEntry.count({ where: { characterId: aki.id } })).toBe(1);
    await run(GM, { type: "conflict.end" });
  });

  it("«мертвые персонажи могут свободно тратить очки доверия»: a dead character helps across pairings and betrays", async () => {
    await run(GM, { type: "character.status", name: "Yanagi", status: "dead" });
    await run(GM, { type: "conflict.start", opponent: "Landslide", mode: "common-danger" });
    await run(HAMADA, { type: "conflict.join" });
    await run(KENJI, { type: "conflict.join" });
    const beforeHamada = await points("Hamada", "Yanagi");
    await run(YANAGI, { type: "conflict.assist", target: "Hamada" });
    await run(YANAGI, { type: "conflict.assist", target: "Kenji" });
    await run(YANAGI, { type: "conflict.betray", target: "Kenji", points: 1 });
    expect(await points("Hamada", "Yanagi")).toBe(beforeHamada! - 1);
    // Landslide 4; Hamada 1, Kenji 2; Yanagi's dice 6 (for Hamada) and 3 (for Kenji).
    app.useDice(scriptedDice([4, 1, 2, 6, 3]));
    const rolled = await run(GM, { type: "conflict.roll" });
    const text = replyText(rolled);
    expect(text).toContain("Yanagi");
    await run(GM, { type: "conflict.end" });
  });

  it("«Любой Ущерб за один раунд дуэли наносится только один раз»: the reveal offers the winner one damage on the panel", async () => {
    // Hamada 6, Aki 2 − 1 (her chapter damage from the common danger): a double success for Hamada.
    app.useDice(scriptedDice([6, 2]));
    await run(HAMADA, { type: "duel.challenge", opponent: "Aki", lethal: false });
    await run(AKI, { type: "duel.accept" });
    const struck = await run(HAMADA, { type: "duel.strike" });
    const panel = (struck.result.effects ?? []).find((e) => e.kind === "postPanel");
    expect(panel?.kind).toBe("postPanel");
    const view = panel?.kind === "postPanel" ? panel.view : undefined;
    const [damage] = selects(view).filter((s) => s.intent.type === "duel.damage");
    expect(damage!.placeholder).toContain("Hamada");
    expect(damage!.options.map((o) => `${o.label} — ${o.description}`)).toEqual([
      "Aki: ½ success (partial) — −1 wound: until the next roll",
      "Aki: 1 success (normal) — −1 until the end of the chapter",
      "Aki: 1½ successes (critical) — −1 permanent",
      "Aki: 2 successes (double) — Aki is taken out: incapacitated",
    ]);
    // Only the winner chooses.
    expect((await refused(AKI, { ...damage!.intent, quality: "partial" })).code).toBe(
      "errors.mw.duelDamageWinnerOnly",
    );
    const aki = await app.db.character.findFirstOrThrow({ where: { name: "Aki" } });
    const akiDamage = () => app.db.damageEntry.count({ where: { characterId: aki.id, clearedAt: null } });
    const before = await akiDamage();
    const chosen = await run(HAMADA, { ...damage!.intent, quality: "normal" });
    expect(selects(chosen.result.reply).filter((s) => s.intent.type === "duel.damage")).toHaveLength(0);
    expect((await refused(HAMADA, { ...damage!.intent, quality: "partial" })).code).toBe(
      "errors.mw.duelDamageOnce",
    );
    expect(await akiDamage()).toBe(before + 1);
    // Both stop: the duel ends by itself.
    await run(HAMADA, { type: "duel.end" });
    expect(await app.db.flow.count({ where: { kind: "mw.duel", status: "open" } })).toBe(1);
    const stopped = await run(AKI, { type: "duel.end" });
    expect(replyText(stopped)).toContain("The duel is over");
    expect(await app.db.flow.count({ where: { kind: "mw.duel", status: "open" } })).toBe(0);
  });

  it("a lethal duel closes itself when a duellist dies, and the survivor can be challenged again", async () => {
    await run(GM, { type: "character.status", name: "Aki", status: "active" });
    // Hamada 6, Kenji 1 (penalty-free): a double success, lethal.
    app.useDice(scriptedDice([6, 1]));
    await run(HAMADA, { type: "duel.challenge", opponent: "Kenji" });
    await run(KENJI, { type: "duel.accept" });
    await run(KENJI, { type: "duel.strike" });
    const killed = await run(HAMADA, { type: "duel.damage", quality: "double" });
    expect(replyText(killed)).toContain("Kenji is taken out: dead");
    expect(await app.db.flow.count({ where: { kind: "mw.duel", status: "open" } })).toBe(0);
    const kenji = await app.db.character.findFirstOrThrow({ where: { name: "Kenji" } });
    expect(kenji.status).toBe("dead");
    // A new challenge of the survivor is not blocked by the finished duel.
    await run(AKI, { type: "duel.challenge", opponent: "Hamada" });
    // A revealed round does not block either: the next challenge closes it.
    app.useDice(scriptedDice([3, 3]));
    await run(HAMADA, { type: "duel.accept" });
    await run(AKI, { type: "duel.strike" });
    expect((await refused(AKI, { type: "duel.next" })).code).toBe("errors.mw.duelAlreadyRevealed");
    await run(HAMADA, { type: "duel.challenge", opponent: "Aki" });
    const open = await app.db.flow.findMany({ where: { kind: "mw.duel", status: "open" } });
    expect(open).toHaveLength(1);
    // One still being fought blocks, and says who.
    expect((await refused(AKI, { type: "duel.challenge", opponent: "Hamada" })).params).toMatchObject({
      name: "Hamada",
    });
    await run(GM, { type: "duel.end" });
  });

  it("every action on the conflict panel: wounds shown before the roll, betray by a short form, kill intent, leaving returns the trust, buying narration", async () => {
    const started = await run(GM, { type: "conflict.start", opponent: "Landslide" });
    await run(HAMADA, { type: "conflict.join" });
    const joined = await run(AKI, { type: "conflict.join" });
    const panelOf = (executed: typeof joined) =>
      executed.result.replyMode === "update"
        ? executed.result.reply
        : (executed.result.effects ?? []).flatMap((e) => (e.kind === "editPanel" ? [e.view] : []))[0];
    // Aki carries her damage: the panel says so before anyone decides to help or betray.
    const aki = await app.db.character.findFirstOrThrow({ where: { name: "Aki" } });
    const akiPenalty = await app.db.damageEntry.count({
      where: { characterId: aki.id, clearedAt: null, ability: null, NOT: { duration: "taken-out" } },
    });
    expect(akiPenalty).toBeGreaterThan(0);
    const openPanel = panelOf(joined);
    expect(JSON.stringify(openPanel?.embeds)).toContain(`Aki −${akiPenalty}`);
    const types = selects(openPanel).map((s) => s.intent.type);
    expect(types).toEqual(["conflict.assist", "conflict.betray-form", "conflict.kill", "conflict.trade"]);
    expect(started.result.replyIsPanelOf).toBeDefined();

    // Betray from the panel: choose Aki, then a short form asks how many points.
    const betraySelect = selects(openPanel).find((s) => s.intent.type === "conflict.betray-form")!;
    // Yanagi is dead: she betrays from outside the conflict (docs/rules/mountain-witch.md §1.2).
    const form = await run(YANAGI, { ...betraySelect.intent, targetId: String(aki.id) });
    expect(form.result.modal?.intent).toMatchObject({ type: "conflict.betray", targetId: aki.id });
    const before = await points("Aki", "Yanagi");
    expect((await refused(YANAGI, { ...form.result.modal!.intent, points: "many" })).code).toBe(
      "errors.mw.trustAmountInvalid",
    );
    await run(YANAGI, { ...form.result.modal!.intent, points: "1" });
    expect(await points("Aki", "Yanagi")).toBe(before! - 1);

    // Hamada helps Aki, then Aki leaves before the roll: the help and the betrayal come back.
    const hamadaBefore = await points("Aki", "Hamada");
    await run(HAMADA, { type: "conflict.assist", target: "Aki" });
    expect(await points("Aki", "Hamada")).toBe(hamadaBefore! - 1);
    const left = await run(AKI, { type: "conflict.leave" });
    expect(replyText(left)).toContain("Aki leaves the conflict before the roll: 2 trust points come back.");
    expect(await points("Aki", "Hamada")).toBe(hamadaBefore);
    expect(await points("Aki", "Yanagi")).toBe(before);
    const refunds = await app.db.logEntry.findMany({ where: { action: "trust.refund" } });
    expect(refunds).toHaveLength(2);

    // Kill intent from the panel's select, by the GM's side.
    const hamada = await app.db.character.findFirstOrThrow({ where: { name: "Hamada" } });
    const kill = selects(panelOf(left)).find((s) => s.intent.type === "conflict.kill")!;
    const killed = await run(GM, { ...kill.intent, targetId: String(hamada.id) });
    expect(replyText(killed)).toContain("Hamada");
    // Roll, then buy narration from the panel's select.
    app.useDice(scriptedDice([2, 5, 1]));
    const rolled = await run(GM, { type: "conflict.roll" });
    const rolledPanel =
      rolled.result.reply && selects(rolled.result.reply).length ? rolled.result.reply : panelOf(rolled);
    const narrate = selects(rolledPanel).find((s) => s.intent.type === "conflict.narrate")!;
    expect(narrate.options.map((o) => o.label)).toEqual(["Hamada"]);
    const yanagiHamada = await points("Hamada", "Yanagi");
    const bought = await run(YANAGI, { ...narrate.intent, ofId: String(hamada.id) });
    expect(replyText(bought)).toContain("Yanagi");
    expect(await points("Hamada", "Yanagi")).toBe(yanagiHamada! - 1);
    // The short form: damage on an ability, typed as the table says it ("1" for a normal success).
    const formButton = (panelOf(bought)?.rows ?? [])
      .flat()
      .find((c) => c.kind === "button" && c.intent.type === "conflict.damage-form");
    expect(formButton).toBeDefined();
    expect((await refused(HAMADA, formButton!.intent)).code).toBe("errors.mw.noSuccesses");
    const damageForm = await run(YANAGI, formButton!.intent);
    expect(damageForm.result.modal?.inputs.map((i) => i.field)).toEqual([
      "target",
      "quality",
      "ability",
      "condition",
    ]);
    expect(damageForm.result.modal?.inputs[0]?.value).toBe("Landslide");
    const submit = (fields: Record<string, string>) => ({ ...damageForm.result.modal!.intent, ...fields });
    expect(
      (await refused(YANAGI, submit({ target: "Landslide", quality: "lots", ability: "", condition: "" })))
        .code,
    ).toBe("errors.mw.qualityUnknown");
    await run(YANAGI, submit({ target: "Landslide", quality: "1", ability: "Rockfall", condition: "" }));
    const landslide = await app.db.character.findFirstOrThrow({ where: { name: "Landslide" } });
    expect(
      await app.db.damageEntry.count({
        where: { characterId: landslide.id, ability: "Rockfall", clearedAt: null },
      }),
    ).toBe(1);
    await run(GM, { type: "conflict.end" });
  });

  it("a trust round: one bad value in the form is reported by name and the rest kept; the closed-DM note opens the same form; the log credits each change to its player", async () => {
    const value = async (giver: string, holder: string) =>
      (
        await app.database.query<{ value: number }>(
          `SELECT value FROM trust_link l JOIN character g ON g.id = l.giver_id JOIN character h ON h.id = l.holder_id WHERE g.name = $1 AND h.name = $2`,
          [giver, holder],
        )
      )[0]!.value;
    const opened = await run(GM, { type: "chapter.next" });
    const dm = (opened.result.effects ?? []).find((e) => e.kind === "dm" && e.userId === AKI.id);
    if (dm?.kind !== "dm") throw new Error("no DM to Aki");
    // Aki's DMs are closed: the note in the channel carries a button to her private form.
    const note = dm.ifClosed!.view!;
    const formButton = (note.rows ?? []).flat().find((c) => c.kind === "button")!;
    expect(formButton.intent.type).toBe("trust.edit");
    expect((await refused(HAMADA, formButton.intent)).code).toBe("errors.notYourCharacter");
    const form = await run(AKI, formButton.intent);
    const inputs = form.result.modal!.inputs;
    const field = async (name: string) => {
      const c = await app.db.character.findFirstOrThrow({ where: { name } });
      return `v${c.id}`;
    };
    expect(inputs.map((x) => x.label).sort()).toEqual(["Hamada", "Kenji", "Yanagi"]);
    const kenjiBefore = await value("Aki", "Kenji");
    const yanagiBefore = await value("Aki", "Yanagi");
    const submitted = await run(AKI, {
      ...form.result.modal!.intent,
      [await field("Hamada")]: "lots",
      [await field("Kenji")]: String(kenjiBefore + 1),
      [await field("Yanagi")]: String(yanagiBefore + 3),
    });
    expect(submitted.result.reply?.ephemeral).toBe(true);
    expect(submitted.result.replyMode).toBeUndefined();
    const text = replyText(submitted);
    expect(text).toContain("Not saved (the other values are kept)");
    expect(text).toContain("Hamada — “lots”: A trust value is a whole number.");
    expect(text).toContain(`Yanagi — “${yanagiBefore + 3}”: At a chapter start trust can rise by 1 at most`);
    expect(text).toContain(`Kenji: **${kenjiBefore + 1}**`);
    // Everyone submits; the last submitter is Yanagi's player, yet Aki's change is credited to Aki's.
    await run(AKI, { type: "trust.submit" });
    await run(HAMADA, { type: "trust.set", target: "Aki", value: 0 });
    await run(HAMADA, { type: "trust.submit" });
    await run(KENJI, { type: "trust.submit" });
    await run(YANAGI, { type: "trust.submit" });
    expect(await value("Aki", "Kenji")).toBe(kenjiBefore + 1);
    const credits = await app.database.query<{ actor: string; giver: string }>(
      `SELECT l.actor_user_id AS actor, c.name AS giver FROM log_entry l JOIN character c ON c.id = l.character_id WHERE l.action = 'trust.value' ORDER BY l.id`,
    );
    expect(credits).toEqual([
      { actor: AKI.id, giver: "Aki" },
      { actor: HAMADA.id, giver: "Hamada" },
    ]);
  });

  it("«конфликт может разделиться на несколько конфликтов, происходящих одновременно»: the GM rolls every split conflict from one panel", async () => {
    const first = await run(GM, { type: "conflict.start", opponent: "Landslide", title: "The wall" });
    await run(HAMADA, { type: "conflict.join" });
    await run(GM, { type: "conflict.start", title: "The tengu" });
    await run(GM, { type: "conflict.add", name: "Tengu", strength: "medium" });
    await run(AKI, { type: "conflict.join" });
    await run(GM, { type: "conflict.start", title: "Nobody yet" });
    const rollAll = ((first.result.reply?.rows ?? [])
      .flat()
      .find((c) => c.kind === "button" && c.intent.type === "conflict.roll-all") as
      | { intent: Intent }
      | undefined)!;
    expect((await refused(HAMADA, rollAll.intent)).code).toBe("errors.gmOnly");
    app.useDice(scriptedDice([4, 2, 5, 3]));
    const rolled = await run(GM, rollAll.intent);
    const text = replyText(rolled);
    expect(text).toContain("🎲 The wall: rolled");
    expect(text).toContain("🎲 The tengu: rolled");
    expect(text).toContain("⏸️ Nobody yet: not rolled");
    const flows = await app.db.flow.findMany({
      where: { kind: "mw.conflict", status: "open" },
      orderBy: { id: "asc" },
    });
    expect(flows.map((f) => (f.state as { phase: string }).phase)).toEqual(["rolled", "rolled", "open"]);
    expect((rolled.result.effects ?? []).filter((e) => e.kind === "editPanel")).toHaveLength(2);
    for (const f of flows) await run(GM, { type: "conflict.end", flowId: f.id });
  });

  it("a duel saved by the previous version (no stop votes in its state) still ends when both duellists stop", async () => {
    app.useDice(scriptedDice([5, 2]));
    await run(HAMADA, { type: "duel.challenge", opponent: "Aki", lethal: false });
    await run(AKI, { type: "duel.accept" });
    await run(AKI, { type: "duel.strike" });
    const flow = await app.db.flow.findFirstOrThrow({ where: { kind: "mw.duel", status: "open" } });
    // The previous shape (state version 1): { duel, secret } only.
    await app.database.query("UPDATE flow SET state = state - 'stopped', state_version = 1 WHERE id = $1", [
      flow.id,
    ]);
    const old = (await app.db.flow.findUniqueOrThrow({ where: { id: flow.id } })).state as Record<
      string,
      unknown
    >;
    expect(Object.keys(old).sort()).toEqual(["duel", "secret"]);
    const first = await run(AKI, { type: "duel.end", flowId: flow.id });
    expect(replyText(first)).toContain("Aki stops here.");
    expect((await app.db.flow.findUniqueOrThrow({ where: { id: flow.id } })).status).toBe("open");
    await run(HAMADA, { type: "duel.end", flowId: flow.id });
    const closed = await app.db.flow.findUniqueOrThrow({ where: { id: flow.id } });
    expect(closed.status).not.toBe("open");
    // Saved in the current shape: both stops recorded, at the current state version.
    expect(closed.stateVersion).toBe(duelFlow.version);
    expect((closed.state as { stopped: string[] }).stopped.sort()).toEqual(["a", "b"]);
  });

  it("«Покупка (перехват) повествования»: a dead character who buys a duel's narration chooses its one damage, not the winner", async () => {
    // Hamada 6, Aki 1: Hamada wins; Yanagi (dead) buys the narration and turns it into a wound only.
    app.useDice(scriptedDice([6, 1]));
    await run(HAMADA, { type: "duel.challenge", opponent: "Aki", lethal: false });
    await run(AKI, { type: "duel.accept" });
    await run(HAMADA, { type: "duel.strike" });
    await run(YANAGI, { type: "duel.trust", use: "narration", target: "Hamada" });
    expect(await refused(HAMADA, { type: "duel.damage", quality: "double" })).toMatchObject({
      code: "errors.mw.duelNarrationBought",
      params: { name: "Yanagi" },
    });
    const aki = await app.db.character.findFirstOrThrow({ where: { name: "Aki" } });
    const before = await app.db.damageEntry.count({ where: { characterId: aki.id, clearedAt: null } });
    await run(YANAGI, { type: "duel.damage", quality: "partial" });
    expect(await app.db.damageEntry.count({ where: { characterId: aki.id, clearedAt: null } })).toBe(
      before + 1,
    );
    expect((await app.db.character.findFirstOrThrow({ where: { name: "Aki" } })).status).toBe("active");
    await run(GM, { type: "duel.end" });
  });
});
