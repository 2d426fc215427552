/**
 * The Mountain Witch at the app layer: what a whole session through the double found — a trade
 * costs its declarer, the trust round waits for everyone, and panels that hold any number of
 * pairings. Each test is named after the seed's words it checks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Intent } from "../../src/app/intent.js";
import { ownCharacters } from "../../src/app/mountain-witch/autocomplete.js";
import type { MessageView, SelectView } from "../../src/app/views.js";
import { scriptedDice, seededDice } from "../../src/rules/dice.js";
import type { ConflictState } from "../../src/rules/mountain-witch/index.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "520000000000000001", name: "Gail" };
const AKI = { id: "520000000000000011", name: "Ann" };
const BO = { id: "520000000000000012", name: "Boris", locale: "ru" };
const CHO = { id: "520000000000000013", name: "Chloe" };
const DAI = { id: "520000000000000014", name: "Dan", locale: "en-GB" };
const ERI = { id: "520000000000000015", name: "Erin" };
const FUMI = { id: "520000000000000016", name: "Fay", locale: "ru" };
const CHANNEL = "620000000000000001";
const DM = { guildId: null, channelId: "620000000000000099" };

function viewText(view: MessageView | undefined): string {
  return [
    view?.content ?? "",
    ...(view?.embeds ?? []).flatMap((e) => [
      e.title ?? "",
      e.description ?? "",
      ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
      e.footer ?? "",
    ]),
  ].join("\n");
}

function selects(view: MessageView | undefined): SelectView[] {
  return (view?.rows ?? []).flat().filter((c): c is SelectView => c.kind === "select");
}

describe("Mountain Witch table fixes (app)", () => {
  let app: AppHarness;
  const run = (user: { id: string }, intent: Intent) => app.run(user, intent, { channelId: CHANNEL });
  const refused = (user: { id: string }, intent: Intent) => app.refused(user, intent, { channelId: CHANNEL });
  const character = (name: string) => app.db.character.findFirstOrThrow({ where: { name } });
  const points = async (giver: string, holder: string) =>
    (
      await app.database.query<{ value: number; points: number }>(
        `SELECT value, points FROM trust_link l JOIN character g ON g.id = l.giver_id JOIN character h ON h.id = l.holder_id WHERE g.name = $1 AND h.name = $2`,
        [giver, holder],
      )
    )[0];
  const activeDamage = async (name: string) =>
    app.db.damageEntry.findMany({ where: { characterId: (await character(name)).id, clearedAt: null } });

  beforeAll(async () => {
    app = await createAppHarness();
    await run(GM, { type: "table.setup", system: "mountain-witch" });
    await run(AKI, { type: "character.create", name: "Aki", zodiac: "rat" });
    await run(BO, { type: "character.create", name: "Bo", zodiac: "dragon" });
    await run(CHO, { type: "character.create", name: "Cho", zodiac: "monkey" });
    await run(DAI, { type: "character.create", name: "Dai", zodiac: "ox" });
    await run(GM, { type: "character.create", name: "Raiders", kind: "npc", strength: "strong" });
    await run(GM, { type: "character.create", name: "Guards", kind: "npc", strength: "strong" });
    await run(GM, { type: "chapter.next" });
  });
  afterAll(async () => app?.close());

  it("1. «Ущерб причиняется тому, кто объявил размен»: a group trade lands on its declarer at the quality traded", async () => {
    await run(GM, { type: "conflict.start", opponent: "Raiders" });
    await run(AKI, { type: "conflict.join" });
    await run(BO, { type: "conflict.join" });
    app.useDice(scriptedDice([3, 3, 3]));
    await run(GM, { type: "conflict.roll" });
    const traded = await run(BO, { type: "conflict.trade", level: "critical" });
    // «Успех с Ущербом такого качества, какое выбрал игрок для взаимного Успеха»: 1½ on Bo, permanent.
    const bo = await activeDamage("Bo");
    expect(bo.map((d) => d.duration)).toEqual(["permanent"]);
    const shown = await run(GM, { type: "conflict.show" });
    expect(replyText(shown)).toContain("Successes left — Players: **1½** · GM: **0**");
    expect(replyText(shown)).toContain("🩸 Bo: 1½ successes (critical), −1 permanent (the trade's cost)");
    // Bo's half is his to spend on the Raiders; nobody can put the GM's half anywhere else.
    const [menu] = selects(
      traded.result.effects?.find((e) => e.kind === "editPanel")?.view ?? shown.result.reply,
    ).filter((s) => s.intent.type === "conflict.damage");
    expect(menu!.options.every((o) => o.value.startsWith("a:"))).toBe(true);
    expect((await refused(GM, { type: "conflict.damage", target: "Bo", quality: "partial" })).code).toBe(
      "errors.mw.notEnoughSuccesses",
    );
    await run(BO, { type: "conflict.damage", target: "Raiders", quality: "critical" });
    await run(GM, { type: "conflict.end" });
    const list = replyText(await run(GM, { type: "damage.list" }));
    expect(list).toContain("Bo");
    expect(list).not.toContain("Nobody carries damage");
  });

  it("1. «тогда и он и его противник получают одинаковый Успех»: a double trade before the roll takes its declarer out", async () => {
    await run(GM, { type: "conflict.start", opponent: "Raiders" });
    await run(CHO, { type: "conflict.join" });
    await run(DAI, { type: "conflict.join" });
    await run(DAI, { type: "conflict.trade", level: "double" });
    expect((await character("Dai")).status).toBe("incapacitated");
    await run(GM, { type: "conflict.end" });
    await run(GM, { type: "character.status", name: "Dai", status: "active" });
  });

  it("1. «размен описывается как Успех с Ущербом»: one on one, the GM applies the opponents' half to the declarer or leaves it", async () => {
    await run(GM, { type: "conflict.start", opponent: "Guards" });
    await run(CHO, { type: "conflict.join" });
    app.useDice(scriptedDice([4, 4]));
    await run(GM, { type: "conflict.roll" });
    const traded = await run(CHO, { type: "conflict.trade", level: "normal" });
    expect(replyText(traded)).toContain("Cho declares a trade");
    const shown = await run(GM, { type: "conflict.show" });
    expect(replyText(shown)).toContain("the GM may apply 1 success (normal) to Cho");
    const menu = selects(shown.result.reply).find((s) => s.intent.type === "conflict.damage")!;
    const gmHalf = menu.options.find((o) => o.value.startsWith("b:"))!;
    expect(gmHalf.label).toContain("Cho");
    // The declarer spends her own half, not the GM's.
    expect((await refused(CHO, { ...menu.intent, choice: gmHalf.value })).code).toBe("errors.mw.notNarrator");
    await run(GM, { ...menu.intent, choice: gmHalf.value });
    expect((await activeDamage("Cho")).map((d) => d.duration)).toEqual(["chapter"]);
    await run(CHO, { type: "conflict.damage", target: "Guards", quality: "normal" });
    await run(GM, { type: "conflict.end" });
  });

  it("3. «В начале каждой главы очки доверия пересчитываются»: points refill when the chapter begins, and the GM is warned the round is open", async () => {
    await run(GM, { type: "conflict.start", opponent: "Guards" });
    await run(BO, { type: "conflict.join" });
    await run(AKI, { type: "conflict.assist", target: "Bo" });
    app.useDice(scriptedDice([2, 2, 2]));
    await run(GM, { type: "conflict.roll" });
    await run(GM, { type: "conflict.end" });
    expect(await points("Bo", "Aki")).toEqual({ value: 3, points: 2 });
    await run(GM, { type: "chapter.next" });
    // Refilled for everyone at once, whatever the round's state.
    expect(await points("Bo", "Aki")).toEqual({ value: 3, points: 3 });
    const started = await run(GM, { type: "conflict.start", opponent: "Guards" });
    const warning = (started.result.effects ?? []).find((e) => e.kind === "followup");
    expect(warning?.kind === "followup" && warning.view.ephemeral).toBe(true);
    const text = warning?.kind === "followup" ? (warning.view.embeds?.[0]?.description ?? "") : "";
    expect(text).toContain("trust round for chapter 2 is still open (waiting for Aki, Bo, Cho, Dai)");
    // A player starting a conflict is not told the GM's business.
    await run(GM, { type: "conflict.end" });
    const byPlayer = await run(CHO, { type: "conflict.start", opponent: "Guards" });
    expect((byPlayer.result.effects ?? []).some((e) => e.kind === "followup")).toBe(false);
    await run(GM, { type: "conflict.end" });
  });

  it("2. «а потом все одновременно показывают»: “Reveal now” applies submitted values only, and the GM sees what it will do", async () => {
    // Bo sets a value in his DM and never submits; Cho submits a change.
    await app.run(BO, { type: "trust.set", target: "Aki", value: 0 }, DM);
    await app.run(CHO, { type: "trust.set", target: "Aki", value: 1 }, DM);
    const submitted = await app.run(CHO, { type: "trust.submit" }, DM);
    const panel = (submitted.result.effects ?? []).find((e) => e.kind === "editPanel");
    const panelText = panel?.kind === "editPanel" ? viewText(panel.view) : "";
    expect(panelText).toContain("“Reveal now” would");
    expect(panelText).toContain("Aki, Bo, Dai keep every value");
    const revealed = await run(GM, { type: "trust.reveal" });
    const post = (revealed.result.effects ?? []).find((e) => e.kind === "post");
    const postText = post?.kind === "post" ? viewText(post.view) : "";
    expect(postText).toContain("Cho → Aki: 3 → **1**");
    expect(postText).not.toContain("Bo → Aki");
    expect(postText).toContain("Not submitted — every value kept\nAki, Bo, Dai");
    expect(await points("Bo", "Aki")).toEqual({ value: 3, points: 3 });
    expect(await points("Cho", "Aki")).toEqual({ value: 1, points: 1 });
  });

  it("4. «бонус против “преданного” персонажа»: a betrayal that adds nothing says so", async () => {
    await run(GM, { type: "conflict.start", opponent: "Guards" });
    await run(AKI, { type: "conflict.join" });
    await run(CHO, { type: "conflict.join" });
    await run(DAI, { type: "conflict.join", against: "Aki" });
    const betrayed = await run(DAI, { type: "conflict.betray", target: "Cho", points: 1 });
    expect(replyText(betrayed)).toContain(
      "counted only if Cho’s roll is the one their side is compared with",
    );
    // Guards 3, Aki 5, Cho 2, Dai 1: the players' side is compared through Aki, not Cho.
    app.useDice(scriptedDice([3, 5, 2, 1]));
    const rolled = await run(GM, { type: "conflict.roll" });
    const text = replyText(rolled);
    expect(text).toContain("Dai betrays Cho: +1 (adds 0: Cho’s roll was not the one compared)");
    expect(text).not.toContain("(betrayal)");
    await run(GM, { type: "conflict.end" });
  });

  it("6. «каждый игрок бросить свой кубик, сравнивая значения индивидуально»: six players' common danger is spent entirely from the panel", async () => {
    await run(ERI, { type: "character.create", name: "Eri", zodiac: "tiger" });
    await run(FUMI, { type: "character.create", name: "Fumi", zodiac: "rabbit" });
    await run(GM, { type: "character.create", name: "Avalanche", kind: "npc", strength: "strong" });
    await run(GM, { type: "conflict.start", opponent: "Avalanche", mode: "common-danger" });
    const players = [AKI, BO, CHO, DAI, ERI, FUMI];
    for (const p of players) await run(p, { type: "conflict.join" });
    // The danger 1; the players 3, 4, 5, 6, 3, 4: six pairings, two of them mixed (½ for the danger).
    app.useDice(scriptedDice([1, 3, 4, 5, 6, 3, 4]));
    const rolled = await run(GM, { type: "conflict.roll" });
    const rows = rolled.result.reply?.rows ?? [];
    expect(rows.length).toBeLessThanOrEqual(5);
    const ownerOf = new Map<number, (typeof players)[number]>();
    for (const [i, name] of ["Aki", "Bo", "Cho", "Dai", "Eri", "Fumi"].entries())
      ownerOf.set((await character(name)).id, players[i]!);
    let spent = 0;
    let usedChooser = false;
    for (let i = 0; i < 40; i++) {
      const panel = (await run(GM, { type: "conflict.show" })).result.reply;
      // Buying narration stays on the panel while nobody spent anything (and only then).
      if (spent === 0) expect(selects(panel).some((s) => s.intent.type === "conflict.narrate")).toBe(true);
      // Many pairings: one chooser (pairing → its menu); few: each pairing's own menu.
      const chooser = selects(panel).find((s) => s.intent.type === "conflict.pairing");
      let damage = selects(panel).find((s) => s.intent.type === "conflict.damage");
      if (chooser) {
        usedChooser = true;
        const menu = await run(GM, {
          ...chooser.intent,
          pairingId: Number(chooser.options[0]!.value),
        } as Intent);
        expect(menu.result.reply?.ephemeral).toBe(true);
        damage = selects(menu.result.reply).find((s) => s.intent.type === "conflict.damage");
      }
      if (!damage) break;
      const pairingId = Number((damage.intent as { pairingId?: number }).pairingId);
      const option = damage.options[0]!;
      // Every pairing's successes are its narrator's — the danger's ½ of a mixed success too.
      const spender = ownerOf.get(pairingId)!;
      await run(spender, { ...damage.intent, [damage.field]: option.value } as Intent);
      spent += 1;
    }
    const flow = await app.db.flow.findFirstOrThrow({ where: { kind: "mw.conflict", status: "open" } });
    const state = flow.state as unknown as ConflictState;
    expect(state.pairings).toHaveLength(6);
    expect(state.pairings.map((p) => [p.id, p.remaining])).toEqual(
      state.pairings.map((p) => [p.id, { a: [], b: [] }]),
    );
    expect(spent).toBeGreaterThanOrEqual(8);
    expect(usedChooser).toBe(true);
    await run(GM, { type: "conflict.end" });
  });

  it("7. «преданному персонажу запрещено тратить Доверие в этом конфликте»: the betray form is refused at the click", async () => {
    await run(GM, { type: "conflict.start", opponent: "Guards" });
    await run(AKI, { type: "conflict.join" });
    await run(BO, { type: "conflict.join", against: "Aki" });
    await run(BO, { type: "conflict.betray", target: "Aki", points: 1 });
    const bo = await character("Bo");
    // Aki, betrayed, clicks "Betray someone…" on Bo: refused before any form opens.
    expect((await refused(AKI, { type: "conflict.betray-form", targetId: bo.id })).code).toBe(
      "errors.mw.betrayedCannotSpend",
    );
    // Cho is not in the conflict: also refused at the click.
    expect(
      (await refused(CHO, { type: "conflict.betray-form", targetId: (await character("Aki")).id })).code,
    ).toBe("errors.mw.betrayerNotInConflict");
    const form = await run(BO, { type: "conflict.betray-form", targetId: (await character("Aki")).id });
    expect(form.result.modal?.intent.type).toBe("conflict.betray");
    await run(GM, { type: "conflict.end" });
  });

  it("8. «мертвые персонажи могут свободно тратить очки доверия»: the dead help and betray in a duel from its panel, and the panel says who did what to whom", async () => {
    await run(GM, { type: "character.status", name: "Dai", status: "dead" });
    app.useDice(scriptedDice([4, 3, 5, 2, 6, 1]));
    await run(AKI, { type: "duel.challenge", opponent: "Bo", lethal: false });
    const accepted = await run(BO, { type: "duel.accept" });
    const views = (e: typeof accepted) => [
      e.result.reply,
      ...(e.result.effects ?? []).flatMap((x) =>
        x.kind === "editPanel" || x.kind === "postPanel" ? [x.view] : [],
      ),
    ];
    const menu = views(accepted)
      .flatMap((v) => selects(v))
      .find((x) => x.intent.type === "duel.trust-pick")!;
    expect(menu.options.map((o) => o.label)).toEqual([
      "Help Aki (1 trust)",
      "Help Bo (1 trust)",
      "Betray Aki (+1, 1 trust)",
      "Betray Bo (+1, 1 trust)",
    ]);
    const pick = (label: string) =>
      ({ ...menu.intent, choice: menu.options.find((o) => o.label === label)!.value }) as Intent;
    // A living player is refused at the click.
    expect((await refused(CHO, pick("Help Aki (1 trust)"))).code).toBe("errors.mw.duelTrustOnlyDead");
    await run(DAI, pick("Help Aki (1 trust)"));
    const betrayed = await run(DAI, pick("Betray Bo (+1, 1 trust)"));
    const panel = views(betrayed)
      .map((v) => viewText(v))
      .join("\n");
    expect(panel).toContain("Dai → Aki: 1 point");
    expect(panel).toContain("Dai betrays Bo: 1 point");
    await run(GM, { type: "duel.end" });
    await run(GM, { type: "character.status", name: "Dai", status: "active" });
  });

  it("9. «Дуэль … между персонажами игроков»: a bystander who challenges a duellist is told to wait, not to end someone else's duel", async () => {
    app.useDice(scriptedDice([4, 3, 5, 2]));
    await run(AKI, { type: "duel.challenge", opponent: "Bo", lethal: false });
    await run(BO, { type: "duel.accept" });
    const refusal = await refused(CHO, { type: "duel.challenge", opponent: "Bo" });
    expect(refusal).toEqual({ code: "errors.mw.opponentDuelling", params: { name: "Bo" } });
    // The duellist themself is told how to finish their own.
    expect((await refused(AKI, { type: "duel.challenge", opponent: "Cho" })).code).toBe(
      "errors.mw.alreadyDuelling",
    );
    await run(GM, { type: "duel.end" });
  });

  it("10. «В начале каждой главы каждый игрок может»: a player's trust change outside a round names no GM step", async () => {
    const refusal = await app.refused(AKI, { type: "trust.set", target: "Bo", value: 2 }, DM);
    expect(refusal.code).toBe("errors.mw.noTrustRoundPlayer");
    expect((await app.refused(AKI, { type: "trust.submit" }, DM)).code).toBe("errors.mw.noTrustRoundPlayer");
  });

  it("11. «препятствие»: the GM pressing Join is told how the GM's side grows, `/conflict add` included", async () => {
    await run(GM, { type: "conflict.start", opponent: "Guards" });
    expect((await refused(GM, { type: "conflict.join" })).code).toBe("errors.mw.gmJoinHow");
    await run(GM, { type: "conflict.join", character: "Raiders" });
    await run(GM, { type: "conflict.end" });
  });

  it("12. «тёмная судьба»: with closed DMs the fate note carries a button that shows the clicker's own fate", async () => {
    app.useDice(seededDice(7));
    const dealt = await run(GM, { type: "darkfate.deal" });
    const dm = (dealt.result.effects ?? []).find((e) => e.kind === "dm" && e.userId === AKI.id);
    const note = dm?.kind === "dm" ? dm.ifClosed?.view : undefined;
    const button = (note?.rows ?? []).flat().find((c) => c.kind === "button");
    expect(button?.kind === "button" && button.intent.type).toBe("darkfate.show");
    const shown = await run(AKI, button!.intent as Intent);
    expect(shown.result.reply?.ephemeral).toBe(true);
    expect(replyText(shown)).toContain("Aki");
  });

  it("13. the setup reply's help names the topic as it can be chosen", async () => {
    const setup = await app.run(
      GM,
      { type: "table.setup", system: "mountain-witch" },
      { channelId: "620000000000000002" },
    );
    const text = replyText(setup);
    expect(text).toContain("`/help topic:…` → “The Mountain Witch”");
    expect(text).not.toContain("topic:The Mountain Witch");
  });

  it("`/darkfate reveal character:` offers a player their own characters only (the GM: every player character)", async () => {
    const table = await app.db.gameTable.findFirstOrThrow({ where: { channelId: CHANNEL } });
    const offered = async (user: { id: string }) =>
      (
        await ownCharacters.choices({
          db: app.db,
          table,
          actor: { userId: user.id, displayName: "x", locale: "en-US", canManageGuild: false },
          guildId: "200000000000000001",
          userLang: "en",
          query: "",
          options: {},
        })
      ).map((c) => c.value);
    expect(await offered(AKI)).toEqual(["Aki"]);
    expect(await offered(GM)).toEqual(["Aki", "Bo", "Cho", "Dai", "Eri", "Fumi"]);
  });

  it("«отрицательное значение броска»: negative results use a minus sign, and ability damage says −1 once", async () => {
    const guards = await character("Guards");
    for (let i = 0; i < 3; i++)
      await app.database.query(
        "INSERT INTO damage_entry (table_id, character_id, duration, created_at) VALUES ($1, $2, 'permanent', now())",
        [guards.tableId, guards.id],
      );
    await run(GM, { type: "conflict.start", opponent: "Guards" });
    await run(AKI, { type: "conflict.join" });
    // Guards 1 − 3 = −2; Aki 5: a double success.
    app.useDice(scriptedDice([1, 5]));
    const rolled = replyText(await run(GM, { type: "conflict.roll" }));
    expect(rolled).toContain("🎲 1 − 3 = −2");
    expect(rolled).toContain("**−2**");
    expect(rolled).not.toContain("-2");
    const hit = await run(AKI, {
      type: "conflict.damage",
      target: "Guards",
      quality: "partial",
      ability: "Longbow",
    });
    const shown = replyText(await run(GM, { type: "conflict.show" }));
    expect(hit).toBeDefined();
    expect(shown).toContain(
      "Guards: ½ success (partial), ability “Longbow” unusable (wound: until the next roll)",
    );
    expect(shown.match(/−1/g) ?? []).toHaveLength(0);
    await run(GM, { type: "conflict.end" });
    await app.database.query("UPDATE damage_entry SET cleared_at = now() WHERE character_id = $1", [
      guards.id,
    ]);
  });

  it("«краткое описание, которое может помочь при создании образа»: the sheet shows the sign's sketch, in the table's language", async () => {
    const sheet = replyText(await run(AKI, { type: "character.show", name: "Aki" }));
    expect(sheet).toContain("The sign, in brief");
    expect(sheet).toContain("Charming, creative and ambitious.");
  });

  it("a duel's last reveal loses “Another round | Stop” when the next round begins", async () => {
    app.useDice(scriptedDice([4, 3, 5, 2]));
    await run(AKI, { type: "duel.challenge", opponent: "Bo", lethal: false });
    await run(BO, { type: "duel.accept" });
    await run(AKI, { type: "duel.strike" });
    // The reveal was posted as the duel's panel (Discord gives its message id).
    await app.database.query(
      "UPDATE flow SET panel_channel_id = $1, panel_message_id = '720000000000000001' WHERE kind = 'mw.duel' AND status = 'open'",
      [CHANNEL],
    );
    const next = await run(BO, { type: "duel.round" });
    const old = (next.result.effects ?? []).find((e) => e.kind === "editPanel");
    expect(old?.kind === "editPanel" && old.view.rows).toEqual([]);
    expect(next.result.replyIsPanelOf).toBeDefined();
    expect((next.result.reply?.rows ?? []).flat().some((c) => c.kind === "button")).toBe(true);
    await run(GM, { type: "duel.end" });
  });
});
