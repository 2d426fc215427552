import { loadImage } from "@napi-rs/canvas";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { beforeAfter, diceText } from "../../src/app/common/log-export.js";
import { CHART_PANEL_HEIGHT, CHART_WIDTH } from "../../src/app/common/stats-chart.js";
import type { MessageView } from "../../src/app/views.js";
import { scriptedDice } from "../../src/rules/dice.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The size of a PNG, after checking its signature and decoding it whole (a broken file throws). */
async function pngSize(data: Uint8Array) {
  expect([...data.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  const image = await loadImage(Buffer.from(data));
  return { width: image.width, height: image.height };
}

const GM = { id: "410000000000000001", name: "Gail" };
const PLAYER = { id: "410000000000000002", name: "Pavel", locale: "ru" };
const OTHER = { id: "410000000000000003", name: "Olga" };

/** Every face of a d6 `times` times: a perfectly fair run. */
const evenD6 = (times: number) => Array.from({ length: 6 * times }, (_, i) => (i % 6) + 1);

const fileText = (view: MessageView | undefined, index = 0) =>
  new TextDecoder().decode(view?.files?.[index]?.data ?? new Uint8Array());

describe("/table stats and /table log files", () => {
  let app: AppHarness;
  let tableId: number;
  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "fate" });
    tableId = (await app.db.gameTable.findFirstOrThrow()).id;
    // Pavel: 30d6, every face five times (fair); Olga: 30 sixes (loaded); Pavel: a secret 2d20.
    app.useDice(scriptedDice(evenD6(5)));
    await app.run(PLAYER, { type: "roll", expression: "30d6" });
    app.useDice(scriptedDice(new Array(30).fill(6)));
    await app.run(OTHER, { type: "roll", expression: "30d6" });
    app.useDice(scriptedDice([20, 19]));
    await app.run(PLAYER, { type: "roll", expression: "2d20", secret: true });
  });
  afterAll(async () => app.close());

  it("counts every die by size and player against a fair die, with a χ² verdict and a chart", async () => {
    const shown = await app.run(GM, { type: "table.stats" });
    const reply = shown.result.reply;
    expect(reply?.ephemeral).toBe(true);
    const text = replyText(shown);
    // 60 d6: 5 of each face from Pavel plus 30 sixes from Olga → 35 sixes; no d20 (Pavel's were secret).
    expect(text).toContain("60 dice rolled by 2 players");
    expect(text).toContain("d6: 60 dice");
    expect(text).toContain("average **4.75** (a fair die: 3.50)");
    expect(text).toContain("these dice look off");
    expect(text).not.toContain("d20");
    expect(text).toContain(`<@${PLAYER.id}>: d6 ×30, average 3.50 (3.50)`);
    expect(text).toContain(`<@${OTHER.id}>: d6 ×30, average 6.00 (3.50)`);
    expect(reply?.embeds?.[0]?.image).toBe("dice-stats.png");
    const chart = reply?.files?.[0];
    expect(chart?.name).toBe("dice-stats.png");
    expect(await pngSize(chart!.data)).toEqual({ width: CHART_WIDTH, height: CHART_PANEL_HEIGHT });
  });

  it("a player's own statistics hold their secret roll; «these dice look fair» for an even run", async () => {
    const own = await app.run(PLAYER, { type: "table.stats", user: PLAYER.id });
    const text = replyText(own);
    expect(own.result.reply?.ephemeral).toBe(true);
    expect(text).toContain("32 куба брошено игроком");
    expect(text).toContain("кубы выглядят честными (χ² p = 1)");
    expect(text).toContain("d20: 2 куба");
    expect(text).toContain("проверке нужно 100 d20");
    // Two die sizes, two panels.
    expect(await pngSize(own.result.reply!.files![0]!.data)).toEqual({
      width: CHART_WIDTH,
      height: 2 * CHART_PANEL_HEIGHT,
    });
  });

  it("public:true posts to the table in its language and leaves every secret roll out", async () => {
    const posted = await app.run(PLAYER, { type: "table.stats", public: true });
    expect(posted.result.reply?.ephemeral).toBe(false);
    const text = replyText(posted);
    expect(text).toContain("60 dice rolled by 2 players");
    expect(text).not.toContain("d20");
  });

  it("a period leaves out older dice; an empty one says so and has no chart", async () => {
    await app.database.query(
      `INSERT INTO dice_rolled (table_id, user_id, at, visible_to, sides, faces)
       VALUES ($1, $2, now() - interval '40 days', NULL, '{8,8}', '{1,2}')`,
      [tableId, OTHER.id],
    );
    expect(replyText(await app.run(GM, { type: "table.stats", period: "all" }))).toContain("d8: 2 dice");
    expect(replyText(await app.run(GM, { type: "table.stats", period: "month" }))).not.toContain("d8");
    const nobody = await app.run(GM, { type: "table.stats", user: "410000000000000099" });
    expect(replyText(nobody)).toContain("No dice rolled here");
    expect(nobody.result.reply?.files).toBeUndefined();
  });

  it("/table log format:markdown is the journal in the reader's language (a private answer); a secret entry only in its owner's copy", async () => {
    const gmCopy = await app.run(GM, { type: "table.log", format: "markdown" });
    expect(gmCopy.result.reply?.ephemeral).toBe(true);
    const gmFile = gmCopy.result.reply?.files?.[0];
    expect(gmFile?.name).toMatch(/^table-log-\d{4}-\d{2}-\d{2}\.md$/);
    const gmText = fileText(gmCopy.result.reply);
    expect(gmText).toContain("# Fate of Panavea (4d3): table log");
    expect(gmText).toMatch(/## \d{4}-\d{2}-\d{2}/);
    expect(gmText).toContain(`<@${OTHER.id}>: rolled 30d6`);
    expect(gmText).toContain(`🎲 ${new Array(30).fill(6).join(" ")}`);
    expect(gmText).not.toContain("2d20");
    expect(replyText(gmCopy)).toContain("3 entries");

    const playerCopy = await app.run(PLAYER, { type: "table.log", format: "markdown" });
    const playerText = fileText(playerCopy.result.reply);
    expect(playerText).toContain("2d20");
    // Pavel reads Russian: his copy is in his language.
    expect(playerText).toContain("🔒 тайное: только в вашей копии");
    expect(playerText).toContain("журнал стола");
  });

  it("/table log format:json is for tools: raw values, each entry's text, secrets only for their owner", async () => {
    const gm = JSON.parse(fileText((await app.run(GM, { type: "table.log", format: "json" })).result.reply));
    expect(gm).toMatchObject({ format: "table-log", version: 1, table: { system: "fate" } });
    expect(gm.entries.map((e: { action: string }) => e.action)).toEqual(["table.setup", "roll", "roll"]);
    expect(gm.entries[1]).toMatchObject({ actorUserId: PLAYER.id, secret: false });
    expect(gm.entries[1].dice).not.toBeNull();
    const player = JSON.parse(
      fileText((await app.run(PLAYER, { type: "table.log", format: "json" })).result.reply),
    );
    expect(player.entries.at(-1)).toMatchObject({ action: "roll.secret", secret: true });
  });

  it("from/to take a range; a bad date or an empty range is refused with the forms that work", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const inRange = JSON.parse(
      fileText(
        (await app.run(GM, { type: "table.log", format: "json", from: today, to: today })).result.reply,
      ),
    );
    expect(inRange.entries).toHaveLength(3);
    const before = JSON.parse(
      fileText((await app.run(GM, { type: "table.log", format: "json", to: "2000-01-01" })).result.reply),
    );
    expect(before.entries).toEqual([]);
    expect(await app.refused(GM, { type: "table.log", format: "json", from: "yesterday" })).toEqual({
      code: "errors.log.badDate",
      params: { value: "yesterday" },
    });
    expect((await app.refused(GM, { type: "table.log", from: "2026-02-30" })).code).toBe(
      "errors.log.badDate",
    );
    expect((await app.refused(GM, { type: "table.log", from: "2026-12-02", to: "2026-12-01" })).code).toBe(
      "errors.log.emptyRange",
    );
  });

  it("the journal shows dice as rolled and each change as before → after", () => {
    const fate = [1, 2, 3, 3].map((face, i) => ({ face, kept: true, fateSymbol: ["+", "−", "0", "0"][i] }));
    expect(diceText({ rolls: [{ terms: [{ dice: fate }] }] })).toBe("+ − 0 0");
    expect(diceText({ dice: [{ face: 6 }, { face: 1, kept: false }] })).toBe("6 ~~1~~");
    expect(diceText([5, 2])).toBe("5 2");
    expect(beforeAfter({ fatePoints: 3, refresh: 3 }, { fatePoints: 5, refresh: 3 })).toBe(
      "fatePoints: 3 → 5",
    );
    expect(beforeAfter(null, { gm: "1", zodiac: null })).toBe("gm: 1, zodiac: —");
    expect(beforeAfter(null, null)).toBeNull();
  });
  it("a /roll delivered twice counts its dice once (they are stored with its log entry, in one statement)", async () => {
    const before = await app.db.diceRolled.count({ where: { tableId } });
    app.useDice(scriptedDice([3, 4]));
    await app.run(PLAYER, { type: "roll", expression: "2d8" }, { interactionId: "stats-redelivered" });
    app.useDice(scriptedDice([3, 4]));
    await expect(
      app.run(PLAYER, { type: "roll", expression: "2d8" }, { interactionId: "stats-redelivered" }),
    ).rejects.toThrow(/already processed/);
    const rows = await app.db.diceRolled.findMany({
      where: { tableId },
      orderBy: { id: "asc" },
      skip: before,
    });
    expect(rows.map((r) => [r.sides, r.faces])).toEqual([
      [
        [8, 8],
        [3, 4],
      ],
    ]);
  });
});
