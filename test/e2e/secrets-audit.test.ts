import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InteractionView, type MessageView, visibleText } from "../../src/double/index.js";
import type { MessageKey } from "../../src/i18n/index.js";
import { t } from "../../src/i18n/index.js";
import { DARK_FATES, type DarkFate } from "../../src/rules/mountain-witch/index.js";
import { componentId } from "./components.js";
import { type E2E, startE2E } from "./harness.js";
import { auditSecret, findSecretLeaks } from "./secrets.js";

/**
 * The secrets audit of The Mountain Witch (issue 6), through the real bot and the Discord double:
 * duel dice, a secret trust round and dark fates are played the way players play them, others poke
 * around (their own views, the GM's panel, /table log, sheets, autocomplete, refused actions), and
 * every surface is scanned for the secret values: each reaches only the one player it belongs to,
 * until its reveal.
 */

const answerOf = (view: InteractionView) => view.followups[0] ?? view.original;

/** Dice as the bot shows them to their owner ("🎲 4 🎲 2"). */
const faces = (dice: readonly number[]) => dice.map((d) => `🎲 ${d}`).join(" ");

/**
 * One duellist's dice in every format the bot writes dice in: as shown ("🎲 4 🎲 2"), as a list
 * ("[4, 2]", "[4,2]" in JSON), and as the log line ("dice: 4, 2", `"dice": "4, 2"` stored).
 */
const diceSecret = (dice: readonly number[]): RegExp =>
  new RegExp([faces(dice), `\\[${dice.join(", ?")}\\]`, `dice"?: "?${dice.join(", ")}(?!\\d)`].join("|"));

/**
 * A giver's trust changes as the giver sees them in their row ("(3 → 4)"), as revealed ("3 → **4**"),
 * as logged ("Akio → Bo to 4"), and as a value on a giver → holder line ("Akio → Bo: **4**",
 * "**Akio** → Bo **4**" in the matrix' format), and as a `/trust set` intent would be dumped in a log line.
 */
const trustSecret = (
  changes: ReadonlyArray<readonly [giver: string, holder: string, before: number, after: number]>,
) =>
  new RegExp(
    changes
      .flatMap(([giver, holder, before, after]) => [
        `(?<!\\d)${before} → \\**${after}(?!\\d)`,
        `${giver} → ${holder} to ${after}(?!\\d)`,
        `${giver}\\**:? → [^\\n]*?\\b${holder}\\**:? \\**${after}(?!\\d)`,
        `"target": ?"${holder}", ?"value": ?${after}(?!\\d)`,
      ])
      .join("|"),
  );

const fateName = (fate: DarkFate) => t("en", `mw.fate.${fate}`);
/** A dark fate by its name (any case) or its key, as stored in log parameters. */
const fateSecret = (fate: DarkFate): RegExp => new RegExp(`${fateName(fate)}|${fate}`, "i");
const fateByName = (name: string): DarkFate => {
  const fate = DARK_FATES.find((f) => fateName(f) === name);
  if (!fate) throw new Error(`not a dark fate: ${name}`);
  return fate;
};

describe("e2e: secrets audit of The Mountain Witch (duel dice, secret trust, dark fates)", () => {
  let e2e: E2E;
  let gm: string;
  let eve: string; // a bystander in the channel, with no character
  const p: string[] = [];
  const ids: Record<string, number> = {};
  /** Every refusal answered in this file, to check that none carries a secret. */
  const refusals: string[] = [];

  const slash = (
    user: string,
    command: string,
    path: string[],
    options: Record<string, string | number | boolean> = {},
    channelId = e2e.channelId,
  ) => e2e.double.slash(user, channelId, command, path, options);
  const inDm = (
    user: string,
    command: string,
    path: string[],
    options: Record<string, string | number | boolean> = {},
  ) => slash(user, command, path, options, e2e.double.dmChannelOf(user));
  const waitFor = <T>(probe: () => T | null, what: string) =>
    e2e.double.waitFor(probe, { timeoutMs: 5000, what: () => what });
  const eventually = (id: string, expected: string) =>
    waitFor(() => {
      const m = e2e.double.message(id);
      return m.text.includes(expected) ? m : null;
    }, `message ${id} to show ${expected}`);
  const dmWith = (user: string, expected: string) =>
    waitFor(
      () => e2e.double.dmsOf(user).find((m) => m.text.includes(expected)) ?? null,
      `a DM with ${expected}`,
    );

  /** A refused action: ephemeral, with exactly this refusal. Kept for the final check. */
  async function refused(
    action: Promise<InteractionView>,
    key: string,
    params: Record<string, string | number> = {},
  ) {
    const answer = answerOf(await action);
    expect(answer?.ephemeral, `${key}: ${answer?.text}`).toBe(true);
    expect(answer?.text).toContain(t("en", key as MessageKey, params));
    refusals.push(answer?.text ?? "");
    return answer!;
  }

  /** A message in the channel carrying someone else's custom_id (a copied or forged button). */
  async function forgedButton(customId: string): Promise<string> {
    const response = await fetch(`${e2e.double.apiBase}/channels/${e2e.channelId}/messages`, {
      method: "POST",
      headers: { authorization: `Bot ${e2e.double.token}`, "content-type": "application/json" },
      body: JSON.stringify({
        content: "copied button",
        components: [{ type: 1, components: [{ type: 2, style: 1, label: "Go", custom_id: customId }] }],
      }),
    });
    return ((await response.json()) as { id: string }).id;
  }

  /** Others look around: sheets, the table, the matrix, and autocomplete (all scanned afterwards). */
  async function othersPokeAround(users: readonly string[]) {
    for (const user of users) {
      for (const name of ["Akio", "Bo", "Chi", "Dai"])
        await slash(user, "character", ["show"], { name }).settled();
      await slash(user, "table", ["show"]).settled();
      await slash(user, "trust", ["matrix"]).settled();
      await e2e.double.autocomplete(user, e2e.channelId, "character", ["show"], { name: "" }, "name");
      await e2e.double.autocomplete(
        user,
        e2e.channelId,
        "trust",
        ["set"],
        { target: "", value: 1 },
        "target",
      );
      await e2e.double.autocomplete(
        user,
        e2e.channelId,
        "duel",
        ["trust"],
        { use: "help", target: "" },
        "target",
      );
    }
  }

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    for (const name of ["akira", "boris", "chie", "dan"])
      p.push(e2e.double.addUser({ username: name, locale: "en-US" }));
    eve = e2e.double.addUser({ username: "eve", locale: "en-US" });
    await slash(gm, "table", ["setup"], { system: "mountain-witch", trust: "secret" }).settled();
    const chars: Array<[number, string, string]> = [
      [0, "Akio", "rat"],
      [1, "Bo", "dragon"],
      [2, "Chi", "monkey"],
      [3, "Dai", "horse"],
    ];
    for (const [i, name, zodiac] of chars)
      await slash(p[i]!, "character", ["create"], { name, zodiac }).settled();
    for (const row of await e2e.database.query<{ id: number; name: string }>(
      "SELECT id, name FROM character",
    ))
      ids[row.name] = row.id;
    // Dan never gets DMs: he plays everything in the channel, ephemerally.
    e2e.double.setDmsClosed(p[3]!);
  });
  afterAll(async () => e2e?.stop());

  it("duel dice: each duellist's dice reach only that duellist until the reveal, then everyone", async () => {
    const [akio, bo, chi, dai] = p as [string, string, string, string];
    const challenged = await slash(akio, "duel", ["challenge"], { opponent: "Bo" }).settled();
    const panel = challenged.original!;
    await e2e.double.click(bo, panel, componentId(panel, "duel.accept")).settled();
    const rolling = await eventually(panel.id, "Round 1");
    const akioSecret = (await e2e.double.click(akio, panel, componentId(rolling, "duel.peek")).settled())
      .original!;
    expect(akioSecret.ephemeral).toBe(true);
    await slash(bo, "duel", ["peek"]).settled();
    // Both roll on: Bo from the panel, Akio from his own secret message; each now has two secret dice.
    await e2e.double.click(bo, panel, componentId(e2e.double.message(panel.id), "duel.next")).settled();
    await e2e.double
      .click(akio, akioSecret, componentId(e2e.double.message(akioSecret.id), "duel.next"))
      .settled();

    // Each duellist's dice, read from their own secret message (the bot edits Bo's when Akio's click rolls).
    const ownDice = (user: string) =>
      waitFor(() => {
        for (const m of e2e.double.ephemeralsFor(user).reverse()) {
          const shown = /Your dice: (🎲 \d(?: 🎲 \d)*) = \*\*/.exec(m.text)?.[1];
          if (shown && shown.split("🎲").length === 3) return shown.match(/\d/g)!.map(Number);
        }
        return null;
      }, `two dice in a secret message of ${user}`);
    const akioDice = await ownDice(akio);
    const boDice = await ownDice(bo);
    const [flow] = await e2e.database.query<{
      state: { duel: { a: { dice: number[] }; b: { dice: number[] } } };
    }>("SELECT state FROM flow WHERE kind = 'mw.duel' AND status = 'open'");
    expect([akioDice, boDice]).toEqual([flow!.state.duel.a.dice, flow!.state.duel.b.dice]);

    // Trying to see someone else's duel, or to act in it: refused, and the refusal names no die.
    await refused(
      e2e.double.click(chi, panel, componentId(e2e.double.message(panel.id), "duel.peek")).settled(),
      "errors.mw.notDuellist",
    );
    await refused(slash(gm, "duel", ["peek"]).settled(), "errors.mw.notDuellist");
    await refused(slash(eve, "duel", ["peek"]).settled(), "errors.mw.notDuellist");
    await refused(slash(chi, "duel", ["next"]).settled(), "errors.mw.notDuellist");
    await refused(
      e2e.double.click(gm, panel, componentId(e2e.double.message(panel.id), "duel.strike")).settled(),
      "errors.mw.notDuellist",
    );
    await refused(
      e2e.double
        .click(
          chi,
          await forgedButton(componentId(e2e.double.message(akioSecret.id), "duel.strike")),
          componentId(e2e.double.message(akioSecret.id), "duel.strike"),
        )
        .settled(),
      "errors.mw.notDuellist",
    );
    await refused(
      slash(akio, "duel", ["trust"], { use: "help", target: "Bo" }).settled(),
      "errors.mw.duellistCannotUseTrust",
    );
    await refused(
      slash(dai, "duel", ["trust"], { use: "betray", target: "Akio", points: 1 }).settled(),
      "errors.mw.duelTrustOnlyDead",
    );
    await othersPokeAround([gm, chi, eve]);
    expect(
      await e2e.database.query("SELECT id FROM flow WHERE kind = 'mw.duel' AND status = 'open'"),
    ).toHaveLength(1);

    // Positive controls: each duellist did see their dice, in the format searched for, and in their own log.
    expect(findSecretLeaks(e2e.double, diceSecret(akioDice), [])).not.toEqual([]);
    const akioLog = answerOf(await slash(akio, "table", ["log"], { limit: 50 }).settled());
    expect(akioLog?.text).toContain(`Akio's secret duel dice: ${akioDice.join(", ")}`);

    // Before the reveal: no die face at all reached anyone but the two duellists (any message, any version).
    expect(
      findSecretLeaks(e2e.double, /🎲 \d/, [akio, bo], { botOutput: await e2e.bot.writtenOutput() }),
    ).toEqual([]);
    // Every stored entry with dice is the owner's own.
    const withDice = await e2e.database.query<{
      action: string;
      visible_to: string | null;
      character_id: number;
    }>("SELECT action, visible_to, character_id FROM log_entry WHERE dice IS NOT NULL ORDER BY id");
    expect(withDice.length).toBeGreaterThanOrEqual(4);
    for (const row of withDice) {
      expect(row.action).toBe("duel.dice");
      expect(row.visible_to).toBe(row.character_id === ids.Akio ? akio : bo);
    }
    // Each side's exact dice: nowhere but with their owner (the other duellist, the GM, bystanders,
    // the channel, the panel, the log and the bot's output included). Two duellists with the very same
    // dice are a coincidence (1 in 36), not a leak: then the other duellist's own line is set aside below.
    const same = faces(akioDice) === faces(boDice);
    const bystanders = [gm, chi, dai, eve];
    await auditSecret(e2e, diceSecret(akioDice), same ? [akio, bo] : [akio], {
      viewers: same ? bystanders : [bo, ...bystanders],
    });
    await auditSecret(e2e, diceSecret(boDice), same ? [akio, bo] : [bo], {
      viewers: same ? bystanders : [akio, ...bystanders],
    });
    for (const [viewer, own, other] of [
      [bo, boDice, akioDice],
      [akio, akioDice, boDice],
    ] as const) {
      for (const m of e2e.double.messagesVisibleTo(viewer).filter((x) => x.visibleTo === viewer)) {
        for (const version of m.history) {
          const text = visibleText(version)
            .replaceAll(`Your dice: ${faces(own)}`, "")
            .replaceAll(`dice: ${own.join(", ")}`, "");
          expect(text, `${viewer} saw the other duellist's dice`).not.toMatch(diceSecret(other));
        }
      }
    }

    // The reveal: Akio strikes from his secret message; now the dice are public, on the panel and in the channel.
    await e2e.double
      .click(akio, akioSecret, componentId(e2e.double.message(akioSecret.id), "duel.strike"))
      .settled();
    const reveal = await waitFor(
      () =>
        e2e.double
          .channelMessages(e2e.channelId)
          .find(
            (m) =>
              m.id !== panel.id &&
              m.text.includes("Duel: Akio vs Bo") &&
              m.text.includes(faces(akioDice)) &&
              m.text.includes(faces(boDice)),
          ) ?? null,
      "the public reveal with every die",
    );
    expect(reveal.visibleTo).toBeNull();
    expect(reveal.text).toMatch(/Tie|Partial|Mixed|Normal|Critical|Double/);
    const revealedPanel = await eventually(panel.id, faces(akioDice));
    expect(revealedPanel.text).toContain(faces(boDice));
    for (const dice of [akioDice, boDice]) {
      const publicNow = findSecretLeaks(e2e.double, diceSecret(dice), []);
      expect(publicNow.some((l) => l.startsWith(`message ${reveal.id} `) && l.includes("everyone"))).toBe(
        true,
      );
    }
    const [stored] = await e2e.database.query<{ visible_to: string | null; dice: unknown }>(
      "SELECT visible_to, dice FROM log_entry WHERE action = 'duel.reveal'",
    );
    expect(stored).toMatchObject({ visible_to: null, dice: { a: { dice: akioDice }, b: { dice: boDice } } });
    expect((await eventually(akioSecret.id, "revealed")).text).toContain(
      t("en", "mw.duel.revealedSeeChannel"),
    );
    await slash(gm, "duel", ["end"]).settled();
  });

  it("secret trust round: submissions reach only their submitter until the one reveal message", async () => {
    const [akio, bo, chi, dai] = p as [string, string, string, string];
    const value = async (giver: string, holder: string) =>
      (
        await e2e.database.query<{ value: number }>(
          "SELECT l.value FROM trust_link l JOIN character g ON g.id = l.giver_id JOIN character h ON h.id = l.holder_id WHERE g.name = $1 AND h.name = $2",
          [giver, holder],
        )
      )[0]?.value;
    // Starting trust from the zodiac (rat, dragon, monkey, horse). The changes below are chosen so that
    // no two givers' "before → after" coincide: each pattern belongs to one giver.
    const changes = {
      Akio: [
        ["Akio", "Bo", 3, 4],
        ["Akio", "Dai", 0, 1],
      ],
      Bo: [["Bo", "Akio", 3, 1]],
      Chi: [["Chi", "Dai", 2, 0]],
      Dai: [["Dai", "Chi", 2, 3]],
    } as const satisfies Record<string, ReadonlyArray<readonly [string, string, number, number]>>;
    for (const list of Object.values(changes))
      for (const [giver, holder, before] of list) expect(await value(giver, holder)).toBe(before);
    const secretOf = (giver: keyof typeof changes) => trustSecret(changes[giver]);
    const matrixBefore = answerOf(await slash(chi, "trust", ["matrix"]).settled())?.embeds;
    const boTrustBefore = answerOf(await slash(bo, "trust", ["show"]).settled())?.text;
    expect(boTrustBefore).toContain("from Akio: **3** / 3");

    const opened = await slash(gm, "chapter", ["next"]).settled();
    const panel = opened.original!;
    expect(panel.text).toContain("Trust for chapter 2");
    await eventually(panel.id, "DMs closed");
    expect(
      e2e.double.channelMessages(e2e.channelId).some((m) => m.text.includes("your DMs are closed")),
    ).toBe(true);

    // Akio: the DM's button opens a form.
    const akioDm = await dmWith(akio, "your trust for chapter 2");
    const editId = componentId(akioDm, "trust.edit");
    const form = await e2e.double.click(akio, akioDm, editId).response();
    const modalId = String((form.modal as { custom_id: string }).custom_id);
    await e2e.double
      .submitModal(akio, modalId, { [`v${ids.Bo}`]: "4", [`v${ids.Chi}`]: "3", [`v${ids.Dai}`]: "1" })
      .settled();
    await eventually(akioDm.id, "(0 → 1)");
    await e2e.double
      .click(akio, akioDm, componentId(e2e.double.message(akioDm.id), "trust.submit"))
      .settled();
    // Bo: /trust set and /trust submit in his DMs.
    await dmWith(bo, "your trust for chapter 2");
    const boSet = await inDm(bo, "trust", ["set"], { target: "Akio", value: 1 }).settled();
    expect(boSet.original?.text).toContain("Akio: **1** (3 → 1)");
    expect(boSet.original?.visibleTo).toBe(bo);
    await inDm(bo, "trust", ["submit"]).settled();
    // Chi: /trust set in DMs, then the DM's submit button.
    const chiDm = await dmWith(chi, "your trust for chapter 2");
    await inDm(chi, "trust", ["set"], { target: "Dai", value: 0 }).settled();
    await e2e.double.click(chi, chiDm, componentId(chiDm, "trust.submit")).settled();

    // Others try to look: the GM's panel says who, never what; the matrix and held trust are unchanged.
    const current = await eventually(panel.id, "Chi");
    for (const version of e2e.double.message(current.id).history) {
      const fields = (version.embeds as Array<{ fields?: Array<{ value: string }> }>).flatMap(
        (e) => e.fields ?? [],
      );
      for (const f of fields) expect(f.value, "the GM's panel shows only names").toMatch(/^[A-Za-z, —]+$/);
    }
    for (const viewer of [gm, dai, eve])
      expect(
        answerOf(await slash(viewer, "trust", ["matrix"]).settled())?.embeds.map(
          (e) => (e as { description?: string }).description,
        ),
      ).toEqual(matrixBefore?.map((e) => (e as { description?: string }).description));
    expect(answerOf(await slash(bo, "trust", ["show"]).settled())?.text).toBe(boTrustBefore);
    // Refusals, including someone else's copied "change my trust" button: no form, no values.
    for (const user of [chi, eve]) {
      const copied = await e2e.double.click(user, await forgedButton(editId), editId).settled();
      expect(copied.modal).toBeNull();
      await refused(Promise.resolve(copied), "errors.notYourCharacter", { name: "Akio" });
    }
    await refused(
      inDm(akio, "trust", ["set"], { target: "Bo", value: 2 }).settled(),
      "errors.mw.trustAlreadySubmitted",
    );
    await refused(slash(gm, "trust", ["submit"]).settled(), "errors.character.noneOwned");
    await refused(slash(gm, "trust", ["show"]).settled(), "errors.character.noneOwned");
    await refused(
      slash(dai, "trust", ["set"], { target: "Chi", value: 4 }).settled(),
      "errors.mw.trustRaiseTooHigh",
      { max: 3 },
    );
    await othersPokeAround([gm, dai, eve]);

    // Dai, whose DMs are closed, adjusts in the channel: only he sees his answer.
    const daiSet = answerOf(await slash(dai, "trust", ["set"], { target: "Chi", value: 3 }).settled());
    expect(daiSet?.ephemeral).toBe(true);
    expect(daiSet?.text).toContain("Chi: **3** (2 → 3)");

    // Positive control, then the audit of every submission before the reveal.
    expect(findSecretLeaks(e2e.double, secretOf("Akio"), [])).not.toEqual([]);
    const proposals = await e2e.database.query<{ visible_to: string | null; character_id: number }>(
      "SELECT visible_to, character_id FROM log_entry WHERE action = 'trust.propose'",
    );
    expect(proposals.length).toBeGreaterThanOrEqual(4);
    const playerOf: Record<number, string> = {
      [ids.Akio!]: akio,
      [ids.Bo!]: bo,
      [ids.Chi!]: chi,
      [ids.Dai!]: dai,
    };
    for (const row of proposals) expect(row.visible_to).toBe(playerOf[row.character_id]);
    const players = { Akio: akio, Bo: bo, Chi: chi, Dai: dai };
    for (const [giver, user] of Object.entries(players) as Array<[keyof typeof changes, string]>) {
      await auditSecret(e2e, secretOf(giver), [user], { viewers: [gm, eve, ...p.filter((u) => u !== user)] });
    }
    expect(e2e.double.channelMessages(e2e.channelId).some((m) => m.text.includes("Trust revealed"))).toBe(
      false,
    );

    // The last submission reveals everything, in one message.
    await slash(dai, "trust", ["submit"]).settled();
    const reveals = await waitFor(() => {
      const found = e2e.double
        .channelMessages(e2e.channelId)
        .filter((m) => m.text.includes("Trust revealed"));
      return found.length > 0 ? found : null;
    }, "the reveal");
    await eventually(panel.id, "The round is over");
    expect(reveals).toHaveLength(1);
    const reveal = reveals[0]!;
    for (const list of Object.values(changes))
      for (const [giver, holder, before, after] of list)
        expect(reveal.text).toContain(`${giver} → ${holder}: ${before} → **${after}**`);
    // Revealed: in that one public message and nowhere else public (the panel only says the round is over).
    for (const [giver, user] of Object.entries(players) as Array<[keyof typeof changes, string]>) {
      const leaks = findSecretLeaks(e2e.double, secretOf(giver), [user], {
        botOutput: await e2e.bot.writtenOutput(),
      });
      expect(leaks.length).toBeGreaterThan(0);
      for (const leak of leaks) expect(leak).toMatch(new RegExp(`^message ${reveal.id} `));
    }
    expect(await value("Akio", "Bo")).toBe(4);
  });

  it("dark fates: each is seen by its owner only (not the GM) until revealed; the undealt once all are final", async () => {
    const [akio, bo, chi, dai] = p as [string, string, string, string];
    const players = { Akio: akio, Bo: bo, Chi: chi, Dai: dai };
    const dealt = await slash(gm, "darkfate", ["deal"]).settled();
    expect(answerOf(dealt)?.text).toContain("Dark fates dealt to 4 players");
    const shownFate = (m: MessageView, name: string) => {
      const found = new RegExp(`${name}: \\*\\*(.+?)\\*\\*`).exec(m.text)?.[1];
      return found ? fateByName(found) : null;
    };
    const dms = {
      Akio: await dmWith(akio, "Your dark fate"),
      Bo: await dmWith(bo, "Your dark fate"),
      Chi: await dmWith(chi, "Your dark fate"),
    };
    await waitFor(
      () =>
        e2e.double
          .channelMessages(e2e.channelId)
          .find((m) => m.text.includes("see your dark fate with the button below")) ?? null,
      "Dan told in the channel that his DMs are closed",
    );
    // Dai reads his in the channel: only he sees it, and everyone else's is "secret" to him.
    const daiShow = answerOf(await slash(dai, "darkfate", ["show"]).settled())!;
    expect(daiShow.ephemeral).toBe(true);
    const fates: Record<string, DarkFate> = {
      Akio: shownFate(dms.Akio, "Akio")!,
      Bo: shownFate(dms.Bo, "Bo")!,
      Chi: shownFate(dms.Chi, "Chi")!,
      Dai: fateByName(/\*\*Dai\*\*: (.+?) \(only you see this\)/.exec(daiShow.text)![1]!),
    };
    for (const name of ["Akio", "Bo", "Chi"]) expect(daiShow.text).toContain(`**${name}**: secret`);
    const stateFates = async () => {
      const [row] = await e2e.database.query<{
        state: { mw: { fates: { hands: Array<{ characterId: number; fate: DarkFate }> } } };
      }>("SELECT state FROM game_table");
      return Object.fromEntries(
        Object.keys(players).map((n) => [
          n,
          row!.state.mw.fates.hands.find((h) => h.characterId === ids[n])!.fate,
        ]),
      );
    };
    expect(await stateFates()).toEqual(fates);
    expect(new Set(Object.values(fates)).size).toBe(4);
    for (const [name, user] of Object.entries(players))
      await auditSecret(e2e, fateSecret(fates[name]!), [user], {
        viewers: [gm, eve, ...p.filter((u) => u !== user)],
      });

    // Akio keeps from his DM, Bo puts his back and redraws, Chi keeps with the command.
    await e2e.double.click(akio, dms.Akio, componentId(dms.Akio, "darkfate.keep")).settled();
    await e2e.double.click(bo, dms.Bo, componentId(dms.Bo, "darkfate.redraw")).settled();
    const putBack = fates.Bo!;
    const boNow = await waitFor(() => {
      const m = e2e.double.message(dms.Bo.id);
      return m.text.includes("Final") ? m : null;
    }, "Bo's redrawn fate");
    fates.Bo = shownFate(boNow, "Bo")!;
    expect(fates.Bo).not.toBe(putBack);
    expect(answerOf(await slash(chi, "darkfate", ["keep"]).settled())?.ephemeral).toBe(true);
    expect(await stateFates()).toEqual(fates);

    // Others try: the GM sees nothing, nobody acts on someone else's fate, errors name no fate.
    const gmShow = answerOf(await slash(gm, "darkfate", ["show"]).settled())!;
    for (const name of Object.keys(players)) expect(gmShow.text).toContain(`**${name}**: secret`);
    await refused(slash(gm, "darkfate", ["reveal"]).settled(), "errors.character.noneOwned");
    await refused(
      slash(gm, "darkfate", ["keep"], { character: "Akio" }).settled(),
      "errors.notYourCharacter",
      { name: "Akio" },
    );
    await refused(
      slash(chi, "darkfate", ["reveal"], { character: "Akio" }).settled(),
      "errors.notYourCharacter",
      { name: "Akio" },
    );
    await refused(slash(eve, "darkfate", ["keep"]).settled(), "errors.character.noneOwned");
    await refused(slash(bo, "darkfate", ["redraw"]).settled(), "errors.mw.fateAlreadyRedrawn");
    await refused(slash(akio, "darkfate", ["redraw"]).settled(), "errors.mw.fateFinal");
    const daiRedraw = componentId(daiShow, "darkfate.redraw");
    await refused(
      e2e.double.click(chi, await forgedButton(daiRedraw), daiRedraw).settled(),
      "errors.notYourCharacter",
      { name: "Dai" },
    );
    await refused(
      e2e.double.click(gm, await forgedButton(daiRedraw), daiRedraw).settled(),
      "errors.notYourCharacter",
      { name: "Dai" },
    );
    await othersPokeAround([gm, chi, eve]);

    // Not every fate is final yet (Dai's is not): the undealt ones stay hidden, Bo's put-back one too.
    expect(e2e.double.allMessages().some((m) => m.text.includes("Fates not in play"))).toBe(false);
    await auditSecret(e2e, fateSecret(putBack), [bo], { viewers: [gm, eve, akio, chi, dai] });
    for (const [name, user] of Object.entries(players))
      await auditSecret(e2e, fateSecret(fates[name]!), [user], {
        viewers: [gm, eve, ...p.filter((u) => u !== user)],
      });

    // Dai keeps from his ephemeral answer: every fate is final, so the undealt are shown, once.
    await e2e.double.click(dai, daiShow, componentId(daiShow, "darkfate.keep")).settled();
    const undealt = await waitFor(() => {
      const found = e2e.double
        .channelMessages(e2e.channelId)
        .filter((m) => m.text.includes("Fates not in play"));
      return found.length > 0 ? found : null;
    }, "the undealt fates");
    expect(undealt).toHaveLength(1);
    const notInPlay = DARK_FATES.filter((f) => !Object.values(fates).includes(f));
    expect(notInPlay).toContain(putBack);
    for (const f of DARK_FATES) {
      if (notInPlay.includes(f)) expect(undealt[0]!.text).toContain(fateName(f));
      else expect(undealt[0]!.text).not.toContain(fateName(f));
    }
    await othersPokeAround([bo, eve]);
    for (const [name, user] of Object.entries(players))
      await auditSecret(e2e, fateSecret(fates[name]!), [user], {
        viewers: [gm, eve, ...p.filter((u) => u !== user)],
      });

    // Akio reveals his: now it is public (on his sheet too); the others' stay theirs.
    const revealed = answerOf(await slash(akio, "darkfate", ["reveal"]).settled())!;
    expect(revealed.visibleTo).toBeNull();
    expect(revealed.text).toContain(fateName(fates.Akio!));
    expect(answerOf(await slash(bo, "character", ["show"], { name: "Akio" }).settled())?.text).toContain(
      fateName(fates.Akio!),
    );
    expect(findSecretLeaks(e2e.double, fateSecret(fates.Akio!), [akio])).not.toEqual([]);
    await othersPokeAround([gm, akio]);
    for (const name of ["Bo", "Chi", "Dai"] as const) {
      const user = players[name];
      await auditSecret(e2e, fateSecret(fates[name]!), [user], {
        viewers: [gm, eve, ...p.filter((u) => u !== user)],
      });
    }
  });

  it("no refusal carried a secret, nobody was pinged unasked, nothing was answered late", () => {
    expect(refusals.length).toBeGreaterThanOrEqual(20);
    for (const text of refusals) {
      expect(text).not.toMatch(/🎲 \d|→/);
      for (const f of DARK_FATES) expect(text).not.toMatch(fateSecret(f));
    }
    for (const m of e2e.double.pingedMessages()) {
      expect(m.mentions.everyone).toBe(false);
      expect(m.mentions.roles).toEqual([]);
    }
    expect(e2e.double.lateInteractions()).toEqual([]);
  });
});
