/**
 * The Mountain Witch at the app layer: what a whole session through the double found — a trade
 * costs its declarer, the trust round waits for everyone, and panels that hold any number of
 * pairings. Each test is named after the seed's words it checks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Intent } from "../../src/app/intent.js";
import type { MessageView, SelectView } from "../../src/app/views.js";
import { scriptedDice } from "../../src/rules/dice.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "520000000000000001", name: "Gail" };
const AKI = { id: "520000000000000011", name: "Ann" };
const BO = { id: "520000000000000012", name: "Boris", locale: "ru" };
const CHO = { id: "520000000000000013", name: "Chloe" };
const DAI = { id: "520000000000000014", name: "Dan", locale: "en-GB" };
const CHANNEL = "620000000000000001";

function selects(view: MessageView | undefined): SelectView[] {
  return (view?.rows ?? []).flat().filter((c): c is SelectView => c.kind === "select");
}

describe("Mountain Witch table fixes (app)", () => {
  let app: AppHarness;
  const run = (user: { id: string }, intent: Intent) => app.run(user, intent, { channelId: CHANNEL });
  const refused = (user: { id: string }, intent: Intent) => app.refused(user, intent, { channelId: CHANNEL });
  const character = (name: string) => app.db.character.findFirstOrThrow({ where: { name } });
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
});
