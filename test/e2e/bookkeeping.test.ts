import { loadImage } from "@napi-rs/canvas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AttachmentView } from "../../src/double/index.js";
import { componentId } from "./components.js";
import { type E2E, startE2E } from "./harness.js";

const bytesOf = (file: AttachmentView | undefined) => Buffer.from(file?.base64 ?? "", "base64");

describe("e2e: dice statistics with a chart, log files", () => {
  let e2e: E2E;
  let gm: string;
  let anna: string;
  let boris: string;
  let mwChannel: string;

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    anna = e2e.double.addUser({ username: "anna", locale: "ru" });
    boris = e2e.double.addUser({ username: "boris", locale: "en-US" });
    mwChannel = e2e.double.addChannel({ guildId: e2e.guildId, name: "witch" });
    await e2e.double.slash(gm, e2e.channelId, "table", ["setup"], { system: "fate" }).settled();
    await e2e.double.slash(anna, e2e.channelId, "roll", [], { expression: "20d6" }).settled();
    await e2e.double.slash(boris, e2e.channelId, "roll", [], { expression: "10d6+1d20" }).settled();
    await e2e.double
      .slash(anna, e2e.channelId, "roll", [], { expression: "3d8 # тайна", secret: true })
      .settled();
  });
  afterAll(async () => e2e?.stop());

  it("/table stats answers privately with an embed and its PNG chart attached", async () => {
    const done = await e2e.double.slash(gm, e2e.channelId, "table", ["stats"]).settled();
    const answer = done.original!;
    expect(answer.ephemeral).toBe(true);
    expect(answer.text).toContain("31 dice rolled by 2 players");
    expect(answer.text).toContain("d6: 30 dice");
    expect(answer.text).toMatch(/too few rolls to judge yet: the test needs 100 d20/);
    expect(answer.text).not.toContain("d8");
    const embed = answer.embeds[0] as { image?: { url?: string } };
    expect(embed.image?.url).toBe("attachment://dice-stats.png");
    expect(answer.attachments.map((a) => a.filename)).toEqual(["dice-stats.png"]);
    const png = bytesOf(answer.attachments[0]);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const image = await loadImage(png);
    // Two die sizes (d6, d20): two panels of 800 × 280.
    expect([image.width, image.height]).toEqual([800, 560]);
    // The double serves it where Discord's CDN would.
    const served = Buffer.from(await (await fetch(answer.attachments[0]!.url)).arrayBuffer());
    expect(served.equals(png)).toBe(true);
  });

  it("a player's own statistics count their secret roll; public:true never does", async () => {
    const own = await e2e.double.slash(anna, e2e.channelId, "table", ["stats"], { user: anna }).settled();
    expect(own.original?.ephemeral).toBe(true);
    expect(own.original?.text).toContain("d8: 3 куба");
    const posted = await e2e.double
      .slash(anna, e2e.channelId, "table", ["stats"], { public: true })
      .settled();
    expect(posted.original?.ephemeral).toBe(false);
    expect(posted.original?.text).toContain("31 dice rolled by 2 players");
    expect(posted.original?.text).not.toContain("d8");
    expect(posted.original?.attachments).toHaveLength(1);
    expect(e2e.double.failedInteractions()).toEqual([]);
  });

  it("/table log format:markdown gives the journal as a file; the secret roll only in its roller's copy", async () => {
    const gmLog = await e2e.double
      .slash(gm, e2e.channelId, "table", ["log"], { format: "markdown" })
      .settled();
    expect(gmLog.original?.ephemeral).toBe(true);
    const file = gmLog.original!.attachments[0]!;
    expect(file.filename).toMatch(/^table-log-\d{4}-\d{2}-\d{2}\.md$/);
    const gmText = bytesOf(file).toString("utf8");
    expect(gmText).toContain("# Fate of Panavea (4d3): table log");
    expect(gmText).toContain(`<@${anna}>: rolled 20d6`);
    expect(gmText).not.toContain("3d8");
    expect(gmText).not.toContain("тайна");

    const annaLog = await e2e.double
      .slash(anna, e2e.channelId, "table", ["log"], { format: "markdown" })
      .settled();
    const annaText = bytesOf(annaLog.original!.attachments[0]).toString("utf8");
    // The journal is in the table's language (the GM's English), whoever asks.
    // Anna reads Russian: her private copy is in her language.
    expect(annaText).toContain("журнал стола");
    expect(annaText).toContain("3d8");
    expect(annaText).toContain("🔒");
  });

  it("a bad date is refused privately in the user's language, and no file is sent", async () => {
    const refused = await e2e.double
      .slash(anna, e2e.channelId, "table", ["log"], { format: "json", from: "вчера" })
      .response();
    expect(refused.ephemeral).toBe(true);
    expect(refused.message?.text).toContain("«вчера» — не дата");
    expect(refused.message?.attachments).toEqual([]);
  });

  it("the GM's JSON log of a duel never holds the duellists' dice; each duellist's copy holds only their own", async () => {
    const d = e2e.double;
    await d.slash(gm, mwChannel, "table", ["setup"], { system: "mountain-witch" }).settled();
    await d.slash(anna, mwChannel, "character", ["create"], { name: "Akio", zodiac: "rat" }).settled();
    await d.slash(boris, mwChannel, "character", ["create"], { name: "Bo", zodiac: "dragon" }).settled();
    const challenged = await d.slash(anna, mwChannel, "duel", ["challenge"], { opponent: "Bo" }).settled();
    const panel = challenged.original!;
    await d.click(boris, panel, componentId(panel, "duel.accept")).settled();
    const round = await d.waitFor(
      () => (d.message(panel.id).text.includes("Round 1") ? d.message(panel.id) : null),
      {
        timeoutMs: 5000,
        what: () => "the duel's first round",
      },
    );
    await d.click(anna, panel, componentId(round, "duel.peek")).settled();
    const secrets = await e2e.database.query<{ visible_to: string }>(
      "SELECT visible_to FROM log_entry WHERE action = 'duel.dice' ORDER BY id",
    );
    expect(secrets.map((s) => s.visible_to).sort()).toEqual([anna, boris].sort());

    const entriesOf = async (user: string) => {
      const done = await d.slash(user, mwChannel, "table", ["log"], { format: "json" }).settled();
      const json = JSON.parse(bytesOf(done.original!.attachments[0]).toString("utf8")) as {
        entries: Array<{ action: string; character: string | null; secret: boolean }>;
      };
      return json.entries;
    };
    const gmEntries = await entriesOf(gm);
    expect(gmEntries.some((e) => e.action === "duel.challenge" || e.action.startsWith("duel"))).toBe(true);
    expect(gmEntries.filter((e) => e.action === "duel.dice")).toEqual([]);
    expect(gmEntries.some((e) => e.secret)).toBe(false);
    const annaDice = (await entriesOf(anna)).filter((e) => e.action === "duel.dice");
    expect(annaDice.map((e) => e.character)).toEqual(["Akio"]);
    const borisDice = (await entriesOf(boris)).filter((e) => e.action === "duel.dice");
    expect(borisDice.map((e) => e.character)).toEqual(["Bo"]);
    // The duel's dice are not in the table's statistics either.
    const stats = await d.slash(gm, mwChannel, "table", ["stats"]).settled();
    expect(stats.original?.text).toContain("No dice rolled here");
    expect(d.failedInteractions()).toEqual([]);
  });

  it("/table export gives a JSON file; /table import restores it in another server, exactly; a tampered file is refused", async () => {
    const d = e2e.double;
    const exported = await d.slash(gm, e2e.channelId, "table", ["export"]).settled();
    expect(exported.original?.ephemeral).toBe(true);
    const file = exported.original!.attachments[0]!;
    expect(file.filename).toMatch(/^table-fate-\d{4}-\d{2}-\d{2}\.json$/);
    const text = bytesOf(file).toString("utf8");
    expect(JSON.parse(text)).toMatchObject({ format: "table-backup", version: 1 });
    // The secret roll's dice are sealed: the GM's file does not show them. The sealed part and the
    // signature are base64, which can hold "3d8" by chance, so only the readable part is searched.
    const { sealed, signature: _signature, ...readable } = JSON.parse(text) as Record<string, unknown>;
    expect(typeof sealed).toBe("string");
    expect(JSON.stringify(readable)).not.toContain("3d8");

    const guild = d.addGuild({ name: "Another server" });
    const there = d.addChannel({ guildId: guild, name: "restored" });
    const tampered = text.replace('"language": "en"', '"language": "ru"');
    expect(tampered).not.toBe(text);
    const refused = await d
      .slash(gm, there, "table", ["import"], { file: { filename: "backup.json", content: tampered } })
      .response();
    expect(refused.ephemeral).toBe(true);
    expect(refused.message?.text).toContain("the signature does not match");
    expect(refused.message?.text).toContain("Nothing was changed");
    const none = await d.slash(gm, there, "table", ["show"]).response();
    expect(none.message?.text).toContain("no game table yet");

    const restored = await d
      .slash(gm, there, "table", ["import"], { file: { filename: "backup.json", content: text } })
      .settled();
    expect(restored.original?.ephemeral).toBe(false);
    expect(restored.original?.text).toContain("restored this table from a backup");
    const again = await d.slash(gm, there, "table", ["export"]).settled();
    const second = JSON.parse(bytesOf(again.original!.attachments[0]).toString("utf8"));
    const strip = ({
      exportedAt: _a,
      source: _s,
      sealed: _x,
      signature: _g,
      ...rest
    }: Record<string, unknown>) => rest;
    expect(strip(second)).toEqual(strip(JSON.parse(text)));
    // Anna's secret roll is still hers alone in the restored table's log.
    const annaLog = await d.slash(anna, there, "table", ["log"], { format: "markdown" }).settled();
    expect(bytesOf(annaLog.original!.attachments[0]).toString("utf8")).toContain("3d8");
    const gmLog = await d.slash(gm, there, "table", ["log"], { format: "markdown" }).settled();
    expect(bytesOf(gmLog.original!.attachments[0]).toString("utf8")).not.toContain("3d8");
  });

  it("/table import replace:true asks on a button first; the click puts the backup in place of the table", async () => {
    const d = e2e.double;
    const exported = await d.slash(gm, e2e.channelId, "table", ["export"]).settled();
    const text = bytesOf(exported.original!.attachments[0]).toString("utf8");
    const notEmpty = await d
      .slash(gm, mwChannel, "table", ["import"], { file: { filename: "fate.json", content: text } })
      .response();
    expect(notEmpty.message?.text).toContain("already has a table");
    const asked = await d
      .slash(gm, mwChannel, "table", ["import"], {
        file: { filename: "fate.json", content: text },
        replace: true,
      })
      .settled();
    expect(asked.original?.ephemeral).toBe(true);
    expect(asked.original?.text).toContain("Replace this table (The Mountain Witch)");
    // A restart between the question and the click: the file waits in the database.
    await e2e.restart("kill");
    const clicked = await d
      .click(gm, asked.original!, componentId(asked.original, "table.import-confirm"))
      .settled();
    expect(clicked.ack?.type).toBe(7);
    await d.waitFor(
      () =>
        d.channelMessages(mwChannel).find((m) => m.text.includes("restored this table from a backup")) ??
        null,
      { timeoutMs: 5000, what: () => "the restore announced in the channel" },
    );
    const shown = await d.slash(gm, mwChannel, "table", ["show"]).response();
    expect(shown.message?.text).toContain("Fate of Panavea");
    expect(d.failedInteractions()).toEqual([]);
  });

  it("/character export gives the sheet as a file; /character import takes it (or its text) at another table; a bad sheet lists every problem", async () => {
    const d = e2e.double;
    await d.slash(anna, e2e.channelId, "character", ["create"], { name: "Мира" }).settled();
    await d.slash(anna, e2e.channelId, "character", ["skill"], { ranks: "fight 3, lore 1" }).settled();
    const exported = await d.slash(anna, e2e.channelId, "character", ["export"], { name: "Мира" }).settled();
    expect(exported.original?.ephemeral).toBe(true);
    const file = exported.original!.attachments[0]!;
    expect(file.filename).toBe("character-мира.json");
    const text = bytesOf(file).toString("utf8");
    expect(JSON.parse(text)).toMatchObject({
      format: "character",
      system: "fate",
      sheet: { skills: { fight: 3, lore: 1 } },
    });

    const other = d.addChannel({ guildId: e2e.guildId, name: "second-fate" });
    await d.slash(gm, other, "table", ["setup"], { system: "fate" }).settled();
    const imported = await d
      .slash(boris, other, "character", ["import"], { file: { filename: "mira.json", content: text } })
      .settled();
    expect(imported.original?.ephemeral).toBe(false);
    expect(imported.original?.text).toContain("imported **Мира**");
    const shown = await d.slash(boris, other, "character", ["show"], { name: "Мира" }).settled();
    expect(shown.original?.text).toMatch(/Fight|Драка/);

    const bad = JSON.stringify({
      ...JSON.parse(text),
      name: "Broken",
      sheet: { ...JSON.parse(text).sheet, skills: { flying: 2 }, wr: 99 },
    });
    const refused = await d.slash(boris, other, "character", ["import"], { text: bad }).response();
    expect(refused.ephemeral).toBe(true);
    expect(refused.message?.text).toContain("Nothing was saved");
    expect(refused.message?.text).toContain("skills: ");
    expect(refused.message?.text).toContain("flying");
    expect(refused.message?.text).toContain("ratings.wr: ");
    const list = await d.slash(boris, other, "character", ["list"]).settled();
    expect(list.original?.text).not.toContain("Broken");
    expect(d.failedInteractions()).toEqual([]);
  });
});
