import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { componentId } from "./components.js";
import { type E2E, startE2E } from "./harness.js";

describe("e2e: one language per table, each user's own in private", () => {
  let e2e: E2E;
  let gm: string;
  let ru: string;
  let en: string;

  const slash = (
    user: string,
    channel: string,
    command: string,
    path: string[],
    options: Record<string, string | number | boolean> = {},
  ) => e2e.double.slash(user, channel, command, path, options);

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    ru = e2e.double.addUser({ username: "pavel", locale: "ru" });
    en = e2e.double.addUser({ username: "olga", locale: "en-GB" });
  });
  afterAll(async () => e2e?.stop());

  it("a panel clicked in turn by Russian and English players stays in the table's language; each one's private answers come in their own", async () => {
    const channel = e2e.channelId;
    await slash(gm, channel, "table", ["setup"], { system: "fate" }).settled();
    // The English GM's table speaks Russian from now on, and says so in Russian.
    const switched = await slash(gm, channel, "table", ["language"], { lang: "ru" }).settled();
    expect(switched.original?.text).toContain("Язык стола теперь — русский");
    await slash(ru, channel, "character", ["create"], { name: "Grukh" }).settled();
    await slash(en, channel, "character", ["create"], { name: "Elf" }).settled();
    const panel = (
      await slash(gm, channel, "contest", ["start"], {
        first: "Grukh",
        second: "Elf",
        title: "Race",
      }).settled()
    ).original!;
    expect(panel.text).toContain("Состязание: Race");

    await e2e.double.select(en, panel, componentId(panel, "contest.roll"), ["athletics"]).settled();
    expect(e2e.double.message(panel.id).text).toContain("Состязание: Race");
    expect(e2e.double.message(panel.id).text).not.toContain("Contest");
    const againEn = await e2e.double
      .select(en, e2e.double.message(panel.id), componentId(panel, "contest.roll"), ["athletics"])
      .response();
    expect(againEn.ephemeral).toBe(true);
    expect(againEn.message?.text).toContain("Elf has already rolled in this exchange.");

    await e2e.double
      .select(ru, e2e.double.message(panel.id), componentId(panel, "contest.roll"), ["athletics"])
      .settled();
    expect(e2e.double.message(panel.id).text).toContain("Состязание: Race");
    const againRu = await e2e.double
      .select(ru, e2e.double.message(panel.id), componentId(panel, "contest.roll"), ["athletics"])
      .response();
    expect(againRu.ephemeral).toBe(true);
    expect(againRu.message?.text).toContain("Grukh уже бросал в этом обмене.");
    // The English player's private help is English on the Russian table.
    const help = await slash(en, channel, "help", [], { topic: "dice" }).response();
    expect(help.message?.text).toContain("Dice");
  });

  it("dark-fate DMs come in each recipient's own language, whoever deals them", async () => {
    const channel = e2e.double.addChannel({ guildId: e2e.guildId, name: "witch" });
    await slash(gm, channel, "table", ["setup"], { system: "mountain-witch" }).settled();
    await slash(ru, channel, "character", ["create"], { name: "Акио", zodiac: "rat" }).settled();
    await slash(en, channel, "character", ["create"], { name: "Bo", zodiac: "horse" }).settled();
    const dealt = await slash(gm, channel, "darkfate", ["deal"]).settled();
    expect(dealt.original?.ephemeral).toBe(false);
    const dmOf = (user: string, text: string) =>
      e2e.double.waitFor(() => e2e.double.dmsOf(user).find((m) => m.text.includes(text)) ?? null, {
        timeoutMs: 5000,
        what: () => `a DM to ${user} with ${text}`,
      });
    const ruDm = await dmOf(ru, "Ваша тёмная судьба");
    const enDm = await dmOf(en, "Your dark fate");
    expect(ruDm.text).not.toContain("Your dark fate");
    expect(enDm.text).not.toContain("Ваша тёмная судьба");
  });
});
