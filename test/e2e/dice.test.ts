import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2E, startE2E } from "./harness.js";

describe("e2e: richer /roll, macros, dice statistics and files", () => {
  let e2e: E2E;
  let gm: string;
  let player: string;

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    player = e2e.double.addUser({ username: "pavel", locale: "ru" });
    await e2e.double.slash(gm, e2e.channelId, "table", ["setup"], { system: "fate" }).settled();
  });
  afterAll(async () => e2e?.stop());

  it("/roll takes exploding dice, rerolls, successes, parentheses and a label", async () => {
    const labelled = await e2e.double
      .slash(player, e2e.channelId, "roll", [], { expression: "(1d6+2)*2 # атака" })
      .response();
    expect(labelled.ephemeral).toBe(false);
    expect(labelled.message?.text).toContain("атака");
    expect(labelled.message?.text).toMatch(/\(1d6 \[\d\] \+ 2\) × 2 = \*\*\d+\*\*/);
    const successes = await e2e.double
      .slash(player, e2e.channelId, "roll", [], { expression: "10к10>=7ф1" })
      .response();
    expect(successes.message?.text).toContain("10d10>=7f1");
    const exploding = await e2e.double
      .slash(player, e2e.channelId, "roll", [], { expression: "4d6!r1" })
      .response();
    expect(exploding.message?.text).toContain("4d6!r1");
    const refused = await e2e.double
      .slash(player, e2e.channelId, "roll", [], { expression: "1d6/(1d2-1)" })
      .response();
    expect(refused.ephemeral).toBe(true);
    expect(refused.message?.text).toContain("на ноль делить нельзя");
    const logged = await e2e.database.query<{ reason: string | null }>(
      "SELECT reason FROM log_entry WHERE action = 'roll' ORDER BY id",
    );
    expect(logged[0]?.reason).toBe("атака");
  });

  it("/roll reads other dice bots' notations with their meaning and says how it read them", async () => {
    const roll = (expression: string) =>
      e2e.double.slash(player, e2e.channelId, "roll", [], { expression }).response();
    // The table speaks its GM's English in public.
    const once = await roll("4d10r<=3");
    expect(once.message?.text).toContain("`4d10r3`: rerolled once on 3 or less");
    const advantage = await roll("+d20+5");
    expect(advantage.message?.text).toContain("advantage: 2d20, keep highest");
    expect(advantage.message?.text).toMatch(/\+d20 \[(~~)?\d+(~~)?, (~~)?\d+(~~)?\] \+ 5 = \*\*\d+\*\*/);
    const comment = await roll("3d6 ! Fire damage");
    expect(comment.message?.text).toContain("Fire damage");
    expect(comment.message?.text).not.toContain("3d6!");
    const threshold = await roll("4d6!>4");
    expect(threshold.message?.text).toContain("explodes on 5+");
    // A peer's named roll is refused privately, in the player's Russian, with our spelling.
    const alias = await roll("4cod");
    expect(alias.ephemeral).toBe(true);
    expect(alias.message?.text).toContain("`4d10!t8`");
    // Too many dice to show: the dice are summed up per term, and every total stays in the message.
    const huge = await roll("10x 100d6!");
    const text = huge.message?.text ?? "";
    expect(text).toContain("#10: 100d6! […");
    expect(text.length).toBeLessThan(4096);
    expect(e2e.double.failedInteractions()).toEqual([]);
  });

  it("/macro saves a roll per user, fills in sheet numbers at roll time, keeps secret rolls secret", async () => {
    const d = e2e.double;
    await d.slash(player, e2e.channelId, "character", ["create"], { name: "Мира" }).settled();
    await d.slash(player, e2e.channelId, "character", ["skill"], { ranks: "fight 3, lore 1" }).settled();
    const saved = await d
      .slash(player, e2e.channelId, "macro", ["save"], { name: "удар", expression: "4dF+{драка} # удар" })
      .response();
    expect(saved.ephemeral).toBe(true);
    expect(saved.message?.text).toContain("Сохранён бросок **удар**");
    const choices = await d.autocomplete(player, e2e.channelId, "macro", ["roll"], { name: "уд" }, "name");
    expect(choices.map((c) => c.value)).toEqual(["удар"]);
    expect(await d.autocomplete(gm, e2e.channelId, "macro", ["roll"], { name: "" }, "name")).toEqual([]);

    const rolled = await d.slash(player, e2e.channelId, "macro", ["roll"], { name: "УДАР" }).response();
    expect(rolled.ephemeral).toBe(false);
    expect(rolled.message?.text).toMatch(/4dF\+3/);

    const secret = await d
      .slash(player, e2e.channelId, "macro", ["roll"], { name: "удар", secret: true })
      .response();
    expect(secret.ephemeral).toBe(true);
    const entries = await e2e.database.query<{ action: string; visible_to: string | null }>(
      "SELECT action, visible_to FROM log_entry WHERE action LIKE 'roll%' ORDER BY id DESC LIMIT 1",
    );
    expect(entries).toEqual([{ action: "roll.secret", visible_to: player }]);

    await d
      .slash(player, e2e.channelId, "macro", ["save"], { name: "typo", expression: "4dF+{fihgt}" })
      .response();
    const unknown = await d.slash(player, e2e.channelId, "macro", ["roll"], { name: "typo" }).response();
    expect(unknown.ephemeral).toBe(true);
    expect(unknown.message?.text).toContain("нет числа `fihgt`");
    const bad = await d
      .slash(player, e2e.channelId, "macro", ["save"], { name: "bad", expression: "4d6r6" })
      .response();
    expect(bad.message?.text).toContain("перебрасывается любая грань");

    const list = await d.slash(player, e2e.channelId, "macro", ["list"]).response();
    expect(list.message?.text).toContain("(2 из 50)");
    const gmList = await d.slash(gm, e2e.channelId, "macro", ["list"]).response();
    expect(gmList.message?.text).toContain("None yet");
    const deleted = await d.slash(player, e2e.channelId, "macro", ["delete"], { name: "typo" }).response();
    expect(deleted.message?.text).toContain("удалён");
    const missing = await d.slash(gm, e2e.channelId, "macro", ["roll"], { name: "удар" }).response();
    expect(missing.message?.text).toContain("no saved roll called **удар**");
    expect(d.failedInteractions()).toEqual([]);
  });

  it("keeps every die rolled at the table for its statistics, a secret roll's only for the roller", async () => {
    const rows = await e2e.database.query<{ user_id: string; visible_to: string | null; n: number }>(
      "SELECT user_id, visible_to, cardinality(faces)::int AS n FROM dice_rolled ORDER BY id",
    );
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.every((r) => r.user_id === player)).toBe(true);
    // The secret macro roll: 4 Fate dice, counted only in the roller's own statistics.
    expect(rows.filter((r) => r.visible_to === player)).toEqual([
      { user_id: player, visible_to: player, n: 4 },
    ]);
    const faces = await e2e.database.query<{ ok: boolean }>(
      "SELECT bool_and(f BETWEEN 1 AND s) AS ok FROM dice_rolled, unnest(sides, faces) AS u(s, f)",
    );
    expect(faces).toEqual([{ ok: true }]);
  });
});
