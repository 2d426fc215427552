/**
 * A Mountain Witch session through the real bot and the Discord double, rule by rule as the
 * rules doc words them (docs/rules/mountain-witch.md): starting trust and its secrecy, a common
 * danger spent pairing by pairing, the dead's trust across pairings and in a duel, duels that
 * deal one damage per round and close themselves, a trust round with one bad field. Each part
 * survives a crash of the bot in its middle.
 *
 * The bot's dice are random; where an outcome must be known, the GM's obstacle or a duellist
 * carries damage enough (a −1 per entry) that the winner is certain whatever the dice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageView } from "../../src/double/index.js";
import { componentId, components } from "./components.js";
import { type E2E, startE2E } from "./harness.js";

function optionsOf(
  view: MessageView | null | undefined,
  customId: string,
): { value: string; label: string }[] {
  return components(view).find((c) => c.custom_id === customId)?.options ?? [];
}

describe("e2e: a Mountain Witch session", () => {
  let e2e: E2E;
  let gm: string;
  let akira: string;
  let boris: string;
  let chie: string;
  let dan: string;
  const ids: Record<string, number> = {};

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
  const trust = async (giver: string, holder: string) =>
    (
      await e2e.database.query<{ points: number; value: number }>(
        "SELECT l.value, l.points FROM trust_link l JOIN character g ON g.id = l.giver_id JOIN character h ON h.id = l.holder_id WHERE g.name = $1 AND h.name = $2",
        [giver, holder],
      )
    )[0];
  /** Damage that lasts: each entry is −1 on that character's dice (docs/rules/mountain-witch.md §1.1). */
  const batter = async (name: string, entries: number) => {
    for (let i = 0; i < entries; i++)
      await e2e.database.query(
        "INSERT INTO damage_entry (table_id, character_id, duration, note, created_at) SELECT table_id, id, 'permanent', 'battered', now() FROM character WHERE name = $1",
        [name],
      );
  };
  const heal = (name: string) =>
    e2e.database.query(
      "UPDATE damage_entry SET cleared_at = now() WHERE cleared_at IS NULL AND character_id = (SELECT id FROM character WHERE name = $1)",
      [name],
    );
  /** Polls the database until `check` holds (the bot records a panel's message after posting it). */
  const until = async (check: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 200; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const newestFlow = async (kind: string) =>
    (
      await e2e.database.query<{ id: number; status: string }>(
        "SELECT id, status FROM flow WHERE kind = $1 ORDER BY id DESC LIMIT 1",
        [kind],
      )
    )[0]!;

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    akira = e2e.double.addUser({ username: "akira", locale: "en-US" });
    boris = e2e.double.addUser({ username: "boris", locale: "ru" });
    chie = e2e.double.addUser({ username: "chie", locale: "en-US" });
    dan = e2e.double.addUser({ username: "dan", locale: "en-US" });
    await slash(gm, "table", ["setup"], { system: "mountain-witch" }).settled();
    const chars: Array<[string, string, string]> = [
      [akira, "Akio", "rat"],
      [boris, "Bo", "dragon"],
      [chie, "Chi", "monkey"],
      [dan, "Dai", "snake"],
    ];
    for (const [user, name, zodiac] of chars)
      await slash(user, "character", ["create"], { name, zodiac }).settled();
    await slash(gm, "character", ["create"], {
      name: "Landslide",
      kind: "npc",
      strength: "strong",
    }).settled();
    for (const row of await e2e.database.query<{ id: number; name: string }>(
      "SELECT id, name FROM character",
    ))
      ids[row.name] = row.id;
  });
  afterAll(async () => e2e?.stop());

  it("starting trust: «Начальное доверие выбирается на основе знаков Зодиака» — limits, and secret until chapter 1, across a restart", async () => {
    // Rat and Dragon are allies: 3. Bo may give Akio 4 at most; 20 is refused with the limits, in Bo's language.
    const tooMuch = await slash(boris, "trust", ["set"], { target: "Akio", value: 20 }).response();
    expect(tooMuch.ephemeral).toBe(true);
    expect(tooMuch.message?.text).toContain("здесь это 3");
    expect(tooMuch.message?.text).toContain("до 4");
    expect(await trust("Bo", "Akio")).toEqual({ value: 3, points: 3 });
    // Secret mode: Akio raises Bo to 4, Bo lowers Akio to 1; only each giver sees their own.
    const akioSet = await slash(akira, "trust", ["set"], { target: "Bo", value: 4 }).settled();
    expect(akioSet.original?.ephemeral).toBe(true);
    await slash(boris, "trust", ["set"], { target: "Akio", value: 1 }).settled();
    await e2e.restart("kill");
    const matrix = await slash(chie, "trust", ["matrix"]).settled();
    expect(matrix.original?.text).toContain("**Akio** → Bo **3**");
    expect(matrix.original?.text).not.toContain("Bo **4**");
    const own = await slash(akira, "trust", ["show"]).settled();
    expect(own.original?.ephemeral).toBe(true);
    expect(own.original?.text).toContain("Bo: **3** → **4**");
    for (const m of e2e.double.channelMessages(e2e.channelId).filter((x) => !x.ephemeral))
      expect([m.text, ...m.history.map((h) => JSON.stringify(h))].join("\n")).not.toMatch(
        /→ \*\*4\*\*|→ \*\*1\*\*/,
      );
    // Chapter 1 begins: one message reveals every change, credited to its player in the log.
    const chapter = await slash(gm, "chapter", ["next"]).settled();
    expect(chapter.original?.text).toContain("Akio → Bo");
    expect(await trust("Akio", "Bo")).toEqual({ value: 4, points: 4 });
    expect(await trust("Bo", "Akio")).toEqual({ value: 1, points: 1 });
    const credits = await e2e.database.query<{ actor_user_id: string }>(
      "SELECT actor_user_id FROM log_entry WHERE action = 'trust.value' AND visible_to IS NULL ORDER BY id",
    );
    expect(credits.map((c) => c.actor_user_id).sort()).toEqual([akira, boris].sort());
  });

  it("a common danger: «наносить и принимать Ущерб» — each winner spends their own pairing from the panel, the dead help and betray across pairings, across restarts", async () => {
    // The landslide is battered (−7): every player's entry beats it whatever the dice.
    await batter("Landslide", 7);
    await slash(gm, "character", ["status"], { name: "Dai", status: "dead" }).settled();
    const started = await slash(gm, "conflict", ["start"], {
      opponent: "Landslide",
      mode: "common-danger",
      title: "The landslide",
    }).settled();
    const panel = started.original!;
    for (const user of [akira, boris, chie])
      await e2e.double
        .click(user, panel, componentId(e2e.double.message(panel.id), "conflict.join"))
        .settled();
    // The danger's penalty is on the panel before anyone decides.
    const joined = await eventually(panel.id, "Chi");
    expect(joined.text).toContain("Landslide −7");
    // Dai is dead: she helps Akio and Bo (two pairings) and betrays Chi, from outside the conflict.
    await slash(dan, "conflict", ["assist"], { target: "Akio" }).settled();
    await slash(dan, "conflict", ["assist"], { target: "Bo" }).settled();
    const form = await e2e.double
      .select(dan, panel, componentId(e2e.double.message(panel.id), "conflict.betray-form"), [
        String(ids.Chi),
      ])
      .response();
    const modalId = String((form.modal as { custom_id: string }).custom_id);
    await e2e.double.submitModal(dan, modalId, { points: "1" }).settled();
    expect(await trust("Akio", "Dai")).toEqual({ value: 2, points: 1 });
    expect(await trust("Bo", "Dai")).toEqual({ value: 2, points: 1 });
    expect(await trust("Chi", "Dai")).toEqual({ value: 2, points: 1 });
    await eventually(panel.id, "Dai betrays Chi");

    await e2e.restart("kill");
    await e2e.double.click(gm, panel, componentId(e2e.double.message(panel.id), "conflict.roll")).settled();
    const rolled = await eventually(panel.id, /🎲 \d/);
    // Dai's two dice are in the roll: one added to Akio's, one to Bo's.
    const flowId = (await newestFlow("mw.conflict")).id;
    const [stored] = await e2e.database.query<{
      state: {
        pairings: { id: number; winner: string; a: { entries: { helpers: { dead?: boolean }[] }[] } }[];
      };
    }>("SELECT state FROM flow WHERE id = $1", [flowId]);
    const pairings = stored!.state.pairings;
    expect(pairings.map((p) => p.winner)).toEqual(["a", "a", "a"]);
    expect(pairings.find((p) => p.id === ids.Akio)!.a.entries[0]!.helpers.filter((h) => h.dead)).toHaveLength(
      1,
    );
    expect(pairings.find((p) => p.id === ids.Bo)!.a.entries[0]!.helpers.filter((h) => h.dead)).toHaveLength(
      1,
    );

    await e2e.restart("kill");
    const akioSelect = componentId(rolled, "conflict.damage", `"pairingId":${ids.Akio}`);
    const boSelect = componentId(rolled, "conflict.damage", `"pairingId":${ids.Bo}`);
    const akioOption = optionsOf(rolled, akioSelect)[0]!;
    const boOption = optionsOf(rolled, boSelect)[0]!;
    expect(akioOption.label).toContain("Landslide");
    // Chi cannot spend Akio's pairing: a private refusal that names its narrator; nothing changes.
    const before = await e2e.database.query(
      "SELECT count(*)::int AS n FROM damage_entry WHERE cleared_at IS NULL",
    );
    const chiTries = await e2e.double.select(chie, panel, akioSelect, [akioOption.value]).response();
    expect(chiTries.ephemeral).toBe(true);
    expect(chiTries.message?.text).toContain("Only Akio, who narrates this pairing, spends its successes.");
    expect(
      await e2e.database.query("SELECT count(*)::int AS n FROM damage_entry WHERE cleared_at IS NULL"),
    ).toEqual(before);
    await e2e.double.select(akira, panel, akioSelect, [akioOption.value]).settled();
    await e2e.double.select(boris, panel, boSelect, [boOption.value]).settled();
    const landslide = await e2e.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM damage_entry WHERE cleared_at IS NULL AND character_id = $1 AND note IS DISTINCT FROM 'battered'",
      [ids.Landslide],
    );
    const takenOut = await e2e.database.query<{ status: string }>(
      "SELECT status FROM character WHERE id = $1",
      [ids.Landslide],
    );
    // Two damage entries on the landslide (or it was taken out by one of them).
    expect(landslide[0]!.n === 2 || takenOut[0]!.status !== "active").toBe(true);
    const log = await e2e.database.query<{ actor_user_id: string }>(
      "SELECT actor_user_id FROM log_entry WHERE action IN ('damage.add', 'character.status') AND character_id = $1 ORDER BY id",
      [ids.Landslide],
    );
    expect(log.map((l) => l.actor_user_id)).toEqual([akira, boris]);
    await slash(gm, "conflict", ["end"]).settled();
    await heal("Landslide");
    await e2e.database.query("UPDATE character SET status = 'active' WHERE id = $1", [ids.Landslide]);
  });

  it("a duel: the winner applies the round's one damage from the panel (the dead help and betray), then both stop, across a restart", async () => {
    // Bo is battered (−9): Akio wins whatever the dice. Dai, dead, helps Akio and betrays Bo.
    await batter("Bo", 9);
    const challenged = await slash(akira, "duel", ["challenge"], { opponent: "Bo", lethal: false }).settled();
    await e2e.double
      .click(boris, challenged.original!, componentId(challenged.original, "duel.accept"))
      .settled();
    await slash(dan, "duel", ["trust"], { use: "help", target: "Akio" }).settled();
    await slash(dan, "duel", ["trust"], { use: "betray", target: "Bo", points: 1 }).settled();
    expect(await trust("Akio", "Dai")).toEqual({ value: 2, points: 0 });
    expect(await trust("Bo", "Dai")).toEqual({ value: 2, points: 0 });
    // Living duellists never spend trust.
    const living = await slash(chie, "duel", ["trust"], { use: "help", target: "Akio" }).response();
    expect(living.message?.text).toContain("Only the players of dead characters");
    await slash(akira, "duel", ["strike"]).settled();
    const reveal = await e2e.double.waitFor(
      () =>
        e2e.double
          .channelMessages(e2e.channelId)
          .find(
            (m) =>
              m.text.includes("wins the round") &&
              m.createdAt >= challenged.original!.createdAt &&
              components(m).some((c) => c.custom_id?.startsWith("i1|duel.damage|")),
          ) ?? null,
      { timeoutMs: 5000, what: () => "the reveal with the winner's damage choice" },
    );
    expect(reveal.text).toContain("Akio wins the round");
    // The reveal message has become the duel's panel before the crash.
    await until(async () => {
      const [row] = await e2e.database.query<{ panel_message_id: string }>(
        "SELECT panel_message_id FROM flow WHERE kind = 'mw.duel' ORDER BY id DESC LIMIT 1",
      );
      return row?.panel_message_id === reveal.id;
    }, "the reveal to be recorded as the duel's panel");
    await e2e.restart("kill");
    const damageId = componentId(reveal, "duel.damage");
    expect(optionsOf(reveal, damageId).map((o) => o.value)).toContain("partial");
    // Only the winner chooses; then once.
    const loser = await e2e.double.select(boris, reveal, damageId, ["partial"]).response();
    expect(loser.ephemeral).toBe(true);
    const boDamage = () =>
      e2e.database.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM damage_entry WHERE cleared_at IS NULL AND character_id = $1",
        [ids.Bo],
      );
    const before = (await boDamage())[0]!.n;
    await e2e.double.select(akira, reveal, damageId, ["partial"]).settled();
    expect((await boDamage())[0]!.n).toBe(before + 1);
    const after = await eventually(reveal.id, "🩸 Bo");
    expect(components(after).some((c) => c.custom_id?.startsWith("i1|duel.damage|"))).toBe(false);
    const again = await slash(akira, "duel", ["damage"], { quality: "partial" }).response();
    expect(again.message?.text).toContain("a duel round deals damage once");
    expect((await boDamage())[0]!.n).toBe(before + 1);
    // Both stop: the duel ends by itself.
    await e2e.double.click(akira, after, componentId(after, "duel.end")).settled();
    expect((await newestFlow("mw.duel")).status).toBe("open");
    await e2e.double.click(boris, after, componentId(e2e.double.message(after.id), "duel.end")).settled();
    expect((await newestFlow("mw.duel")).status).not.toBe("open");
    await heal("Bo");
  });

  it("a lethal duel closes itself when a duellist dies, and the survivor can be challenged again, across a restart", async () => {
    // Bo is battered (−12): Chi's strike is a double success whatever the dice.
    await batter("Bo", 12);
    const challenged = await slash(chie, "duel", ["challenge"], { opponent: "Bo" }).settled();
    await e2e.double
      .click(boris, challenged.original!, componentId(challenged.original, "duel.accept"))
      .settled();
    await e2e.restart("kill");
    await slash(chie, "duel", ["strike"]).settled();
    const reveal = await e2e.double.waitFor(
      () =>
        e2e.double
          .channelMessages(e2e.channelId)
          .find(
            (m) =>
              m.text.includes("wins the round") &&
              m.createdAt >= challenged.original!.createdAt &&
              components(m).some((c) => c.custom_id?.startsWith("i1|duel.damage|")),
          ) ?? null,
      { timeoutMs: 5000, what: () => "the lethal reveal" },
    );
    await e2e.double.select(chie, reveal, componentId(reveal, "duel.damage"), ["double"]).settled();
    await eventually(reveal.id, "Bo is taken out: dead");
    expect((await newestFlow("mw.duel")).status).not.toBe("open");
    const [bo] = await e2e.database.query<{ status: string }>("SELECT status FROM character WHERE id = $1", [
      ids.Bo,
    ]);
    expect(bo!.status).toBe("dead");
    // The survivor is challenged again: no "already in a duel".
    const next = await slash(akira, "duel", ["challenge"], { opponent: "Chi" }).settled();
    expect(next.original?.ephemeral ?? false).toBe(false);
    expect(next.original?.text).toContain("Akio challenges Chi");
    await slash(gm, "duel", ["end"]).settled();
  });

  it("a trust round with one bad field: reported by name, the rest kept; the closed-DM note opens the same private form; across a restart", async () => {
    e2e.double.setDmsClosed(chie);
    const opened = await slash(gm, "chapter", ["next"]).settled();
    expect(opened.original?.text).toContain("Trust for chapter 2");
    const note = await e2e.double.waitFor(
      () =>
        e2e.double.channelMessages(e2e.channelId).find((m) => m.text.includes("your DMs are closed")) ?? null,
      { timeoutMs: 5000, what: () => "the closed-DM note with its button" },
    );
    const formButton = componentId(note, "trust.edit");
    // The other players' private forms arrive by DM (before the crash below).
    const trustDm = (user: string) =>
      e2e.double.waitFor(
        () =>
          e2e.double
            .dmsOf(user)
            .find((m) => components(m).some((c) => c.custom_id?.startsWith("i1|trust.submit|"))) ?? null,
        { timeoutMs: 5000, what: () => `the trust DM of ${user}` },
      );
    const dms = await Promise.all([akira, boris, dan].map(trustDm));
    // Someone else cannot open Chi's form.
    const other = await e2e.double.click(akira, note, formButton).response();
    expect(other.ephemeral).toBe(true);
    expect(other.message?.text).toContain("isn't your character");
    await e2e.restart("kill");
    const form = await e2e.double.click(chie, note, formButton).response();
    const modalId = String((form.modal as { custom_id: string }).custom_id);
    const akioBefore = (await trust("Chi", "Akio"))!.value;
    const daiBefore = (await trust("Chi", "Dai"))!.value;
    const submitted = await e2e.double
      .submitModal(chie, modalId, {
        [`v${ids.Akio}`]: String(akioBefore + 1),
        [`v${ids.Bo}`]: "ab",
        [`v${ids.Dai}`]: String(daiBefore + 5),
      })
      .settled();
    const answer = submitted.original!;
    expect(answer.ephemeral).toBe(true);
    expect(answer.text).toContain("Not saved (the other values are kept)");
    expect(answer.text).toContain("Bo — “ab”: A trust value is a whole number.");
    expect(answer.text).toContain(`Dai — “${daiBefore + 5}”: At a chapter start trust can rise by 1 at most`);
    expect(answer.text).toContain(`Akio: **${akioBefore + 1}**`);
    // The public note did not change: nothing of Chi's form is in the channel.
    expect(e2e.double.message(note.id).text).not.toContain("Akio: **");
    await e2e.restart("kill");
    await e2e.double.click(chie, answer, componentId(answer, "trust.submit")).settled();
    for (const [i, user] of [akira, boris, dan].entries()) {
      const dm = dms[i]!;
      await e2e.double.click(user, dm, componentId(dm, "trust.submit")).settled();
    }
    const revealed = await e2e.double.waitFor(
      () => e2e.double.channelMessages(e2e.channelId).find((m) => m.text.includes("Trust revealed")) ?? null,
      { timeoutMs: 5000, what: () => "the reveal" },
    );
    expect(revealed.text).toContain(`Chi → Akio: ${akioBefore} → **${akioBefore + 1}**`);
    expect(await trust("Chi", "Akio")).toEqual({ value: akioBefore + 1, points: akioBefore + 1 });
    const [credit] = await e2e.database.query<{ actor_user_id: string }>(
      "SELECT actor_user_id FROM log_entry WHERE action = 'trust.value' AND character_id = $1 ORDER BY id DESC LIMIT 1",
      [ids.Chi],
    );
    expect(credit!.actor_user_id).toBe(chie);
  });

  it("/help topic:mountain-witch lists every command of the game", async () => {
    const help = await slash(akira, "help", [], { topic: "mountain-witch" }).settled();
    for (const command of [
      "/conflict leave",
      "/character props",
      "/duel damage",
      "/trust set",
      "/darkfate deal",
    ])
      expect(help.original?.text).toContain(command);
  });

  /** Every player character back in play, without damage (the scenes below need them all). */
  const everyoneBack = async () => {
    await e2e.database.query("UPDATE character SET status = 'active' WHERE kind = 'pc'");
    await e2e.database.query("UPDATE damage_entry SET cleared_at = now() WHERE cleared_at IS NULL");
  };
  const damageOf = async (name: string) =>
    (
      await e2e.database.query<{ duration: string }>(
        "SELECT duration FROM damage_entry WHERE cleared_at IS NULL AND character_id = (SELECT id FROM character WHERE name = $1) ORDER BY id",
        [name],
      )
    ).map((d) => d.duration);
  const statusOf = async (name: string) =>
    (await e2e.database.query<{ status: string }>("SELECT status FROM character WHERE name = $1", [name]))[0]!
      .status;

  it("«Размен в групповом конфликте … Ущерб причиняется тому, кто объявил размен»: a group trade at each level costs its declarer that level, from the panel", async () => {
    await everyoneBack();
    for (const [level, expected] of [
      ["normal", "chapter"],
      ["critical", "permanent"],
      ["double", "incapacitated"],
    ] as const) {
      const started = await slash(gm, "conflict", ["start"], { opponent: "Landslide" }).settled();
      const panel = started.original!;
      for (const user of [akira, boris])
        await e2e.double
          .click(user, panel, componentId(e2e.double.message(panel.id), "conflict.join"))
          .settled();
      await eventually(panel.id, "Bo");
      // Bo trades before the roll from the panel: no dice, and the opponents' half lands on him.
      await e2e.double
        .select(boris, panel, componentId(e2e.double.message(panel.id), "conflict.trade"), [level])
        .settled();
      const traded = await eventually(panel.id, /Bo/);
      if (expected === "incapacitated") {
        expect(await statusOf("Bo")).toBe("incapacitated");
        expect(traded.text).toMatch(/Bo.*(incapacitated|недееспособ)/);
      } else {
        expect(await damageOf("Bo")).toEqual([expected]);
        expect(traded.text).toContain("(the trade's cost)");
      }
      // Bo's own half is his to spend on the landslide, from the panel.
      const damage = componentId(e2e.double.message(panel.id), "conflict.damage");
      const option = optionsOf(e2e.double.message(panel.id), damage).find((o) => o.value.startsWith("a:"))!;
      await e2e.double.select(boris, panel, damage, [option.value]).settled();
      await slash(gm, "conflict", ["end"]).settled();
      await everyoneBack();
    }
  });

  it("«каждый игрок бросить свой кубик, сравнивая значения индивидуально»: a six-player common danger spent entirely from the panel", async () => {
    await everyoneBack();
    const eri = e2e.double.addUser({ username: "eri", locale: "en-US" });
    const fumi = e2e.double.addUser({ username: "fumi", locale: "ru" });
    await slash(eri, "character", ["create"], { name: "Eri", zodiac: "tiger" }).settled();
    await slash(fumi, "character", ["create"], { name: "Fumi", zodiac: "rabbit" }).settled();
    for (const row of await e2e.database.query<{ id: number; name: string }>(
      "SELECT id, name FROM character",
    ))
      ids[row.name] = row.id;
    const players: Record<number, string> = {
      [ids.Akio!]: akira,
      [ids.Bo!]: boris,
      [ids.Chi!]: chie,
      [ids.Dai!]: dan,
      [ids.Eri!]: eri,
      [ids.Fumi!]: fumi,
    };
    // Battered (−7): every player's entry beats the landslide whatever the dice.
    await batter("Landslide", 7);
    const started = await slash(gm, "conflict", ["start"], {
      opponent: "Landslide",
      mode: "common-danger",
    }).settled();
    const panel = started.original!;
    for (const user of Object.values(players))
      await e2e.double
        .click(user, panel, componentId(e2e.double.message(panel.id), "conflict.join"))
        .settled();
    await eventually(panel.id, "Fumi");
    await e2e.double.click(gm, panel, componentId(e2e.double.message(panel.id), "conflict.roll")).settled();
    await eventually(panel.id, /🎲 \d/);
    let spent = 0;
    for (let i = 0; i < 40; i++) {
      const view = e2e.double.message(panel.id);
      const chooser = components(view).find((c) => c.custom_id?.startsWith("i1|conflict.pairing|"));
      let menuView = view;
      if (chooser) {
        // Pairing → its damage menu, privately, for its narrator.
        const pick = chooser.options![0]!.value;
        const answer = await e2e.double
          .select(players[Number(pick)]!, panel, chooser.custom_id!, [pick])
          .settled();
        expect(answer.original?.ephemeral).toBe(true);
        menuView = answer.original!;
      }
      const menu = components(menuView).find((c) => c.custom_id?.startsWith("i1|conflict.damage|"));
      if (!menu) break;
      const pairingId = Number(/"pairingId":(-?\d+)/.exec(menu.custom_id!)![1]);
      const before = e2e.double.message(panel.id).text;
      const answer = await e2e.double
        .select(players[pairingId]!, menuView, menu.custom_id!, [menu.options![0]!.value])
        .settled();
      expect(answer.original?.text ?? "").not.toContain("Only");
      spent += 1;
      // The panel follows the spending before the next choice is read from it.
      await e2e.double.waitFor(() => (e2e.double.message(panel.id).text !== before ? true : null), {
        timeoutMs: 5000,
        what: () => "the panel to follow the damage",
      });
    }
    const flowId = (await newestFlow("mw.conflict")).id;
    const [stored] = await e2e.database.query<{
      state: { pairings: { remaining: { a: string[]; b: string[] } }[] };
    }>("SELECT state FROM flow WHERE id = $1", [flowId]);
    expect(stored!.state.pairings).toHaveLength(6);
    expect(
      stored!.state.pairings.every((p) => p.remaining.a.length === 0 && p.remaining.b.length === 0),
    ).toBe(true);
    expect(spent).toBeGreaterThanOrEqual(6);
    await slash(gm, "conflict", ["end"]).settled();
    await heal("Landslide");
    await everyoneBack();
  });

  it("«каждый записывает изменения на бумажку, а потом все одновременно показывают»: a trust round revealed early leaves an unsubmitted draft unapplied", async () => {
    const opened = await slash(gm, "chapter", ["next"]).settled();
    const roundPanel = opened.original!;
    const akioToBo = (await trust("Akio", "Bo"))!.value;
    const boToAkio = (await trust("Bo", "Akio"))!.value;
    // Akio drafts a change and never submits it; Bo changes a value and submits.
    await slash(akira, "trust", ["set"], { target: "Bo", value: Math.max(0, akioToBo - 1) }).settled();
    await slash(boris, "trust", ["set"], { target: "Akio", value: Math.max(0, boToAkio - 1) }).settled();
    await slash(boris, "trust", ["submit"]).settled();
    const waiting = await eventually(roundPanel.id, "Akio");
    expect(waiting.text).toContain("“Reveal now” would");
    await e2e.double
      .click(gm, roundPanel, componentId(e2e.double.message(roundPanel.id), "trust.reveal"))
      .settled();
    const [{ chapter }] = (await e2e.database.query<{ chapter: number }>(
      "SELECT chapter FROM game_table WHERE channel_id = $1",
      [e2e.channelId],
    )) as [{ chapter: number }];
    const revealed = await e2e.double.waitFor(
      () =>
        e2e.double
          .channelMessages(e2e.channelId)
          .find((m) => m.text.includes(`Trust revealed: chapter ${chapter}`)) ?? null,
      { timeoutMs: 5000, what: () => "the early reveal" },
    );
    expect(revealed.text).toContain("Not submitted — every value kept");
    expect(revealed.text).not.toContain(`Akio → Bo: ${akioToBo} →`);
    expect((await trust("Akio", "Bo"))!.value).toBe(akioToBo);
    if (boToAkio > 0) expect((await trust("Bo", "Akio"))!.value).toBe(boToAkio - 1);
  });

  it("never answered late", () => {
    expect(e2e.double.lateInteractions()).toEqual([]);
  });
});
