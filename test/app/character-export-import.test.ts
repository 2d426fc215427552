import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Executed } from "../../src/app/execute.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "430000000000000001", name: "Gail" };
const PLAYER = { id: "430000000000000002", name: "Pavel", locale: "ru" };
const OTHER = { id: "430000000000000003", name: "Olga" };

const CH = {
  fate: "330000000000000001",
  fate2: "330000000000000002",
  witch: "330000000000000003",
  witch2: "330000000000000004",
  hunters: "330000000000000005",
  hunters2: "330000000000000006",
};

const fileOf = (executed: Executed) => new TextDecoder().decode(executed.result.reply?.files?.[0]?.data);
const upload = (text: string) => ({ name: "sheet.json", size: text.length, text });

describe("/character export and /character import", () => {
  let app: AppHarness;
  const on = (channelId: string) => ({ channelId });
  beforeAll(async () => {
    app = await createAppHarness();
    for (const [channel, system] of [
      [CH.fate, "fate"],
      [CH.fate2, "fate"],
      [CH.witch, "mountain-witch"],
      [CH.witch2, "mountain-witch"],
      [CH.hunters, "beast-hunters"],
      [CH.hunters2, "beast-hunters"],
    ] as const) {
      await app.run(GM, { type: "table.setup", system }, on(channel));
    }
  });
  afterAll(async () => app.close());

  async function roundTrip(from: string, to: string, name: string) {
    const first = fileOf(await app.run(PLAYER, { type: "character.export", name }, on(from)));
    const imported = await app.run(OTHER, { type: "character.import", file: upload(first) }, on(to));
    expect(imported.result.reply?.ephemeral).toBeFalsy();
    const again = fileOf(await app.run(OTHER, { type: "character.export", name }, on(to)));
    expect(JSON.parse(again)).toEqual(JSON.parse(first));
    return JSON.parse(first);
  }

  it("Fate: skills, a stunt and ratings travel to another table and come back the same", async () => {
    await app.run(PLAYER, { type: "character.create", name: "Мира" }, on(CH.fate));
    await app.run(PLAYER, { type: "character.skill", ranks: "fight 3, lore 2, athletics 1" }, on(CH.fate));
    await app.run(
      PLAYER,
      { type: "character.stunt", name: "Riposte", text: "+2 to defend with Fight" },
      on(CH.fate),
    );
    await app.run(PLAYER, { type: "character.ratings", wr: 1, ar: 1 }, on(CH.fate));
    const file = await roundTrip(CH.fate, CH.fate2, "Мира");
    expect(file).toMatchObject({ format: "character", version: 1, system: "fate", name: "Мира", kind: "pc" });
    expect(file.sheet.skills).toEqual({ fight: 3, lore: 2, athletics: 1 });
    expect(file.sheet.stunts).toEqual([
      { name: "Riposte", text: "+2 to defend with Fight", magic: false, ultimate: null },
    ]);
    const copy = await app.db.character.findFirstOrThrow({
      where: { name: "Мира", table: { activeChannelId: CH.fate2 } },
    });
    expect(copy.ownerUserId).toBe(OTHER.id);
  });

  it("The Mountain Witch: abilities, background and props; Beast Hunters: traits and resources", async () => {
    await app.run(PLAYER, { type: "character.create", name: "Akio", zodiac: "rat" }, on(CH.witch));
    await app.run(
      PLAYER,
      { type: "character.abilities", first: "Sword", second: "Calm", third: "Stealth" },
      on(CH.witch),
    );
    await app.run(PLAYER, { type: "character.background", ronin: "His lord fell" }, on(CH.witch));
    await app.run(PLAYER, { type: "character.props", text: "A chipped blade" }, on(CH.witch));
    const witch = await roundTrip(CH.witch, CH.witch2, "Akio");
    expect(witch).toMatchObject({
      zodiac: "rat",
      sheet: { abilities: ["Sword", "Calm", "Stealth"], props: "A chipped blade" },
    });

    await app.run(PLAYER, { type: "character.create", name: "Bo" }, on(CH.hunters));
    await app.run(
      PLAYER,
      { type: "character.trait.set", name: "Strong", sphere: "physical", value: 3 },
      on(CH.hunters),
    );
    await app.run(
      PLAYER,
      { type: "character.resource.set", name: "Axe", category: "PA", value: 2 },
      on(CH.hunters),
    );
    const hunter = await roundTrip(CH.hunters, CH.hunters2, "Bo");
    expect(hunter.sheet.traits).toContainEqual({ name: "Strong", sphere: "physical", value: 3 });
    expect(hunter.sheet.resources).toContainEqual({
      name: "Axe",
      sphere: "physical",
      kind: "attack",
      value: 2,
    });
  });

  it("pasted as text works the same; a sheet of another game is refused", async () => {
    const text = fileOf(await app.run(PLAYER, { type: "character.export", name: "Мира" }, on(CH.fate)));
    const renamed = JSON.stringify({ ...JSON.parse(text), name: "Мира вторая" });
    const pasted = await app.run(PLAYER, { type: "character.import", text: renamed }, on(CH.fate));
    expect(replyText(pasted)).toContain("Мира вторая");
    expect(await app.refused(PLAYER, { type: "character.import", text }, on(CH.witch))).toMatchObject({
      code: "errors.characterImport.otherGame",
    });
    expect((await app.refused(PLAYER, { type: "character.import" }, on(CH.fate))).code).toBe(
      "errors.characterImport.fileOrText",
    );
  });

  it("every problem is listed at once, in the sheet commands' own words, and nothing is saved", async () => {
    const good = JSON.parse(
      fileOf(await app.run(PLAYER, { type: "character.export", name: "Мира" }, on(CH.fate))),
    );
    const bad = {
      ...good,
      name: "Broken",
      sheet: {
        ...good.sheet,
        skills: { flying: 2, fight: 3 },
        stunts: [{ name: "", text: "x", magic: false, ultimate: null }],
        wr: 99,
      },
    };
    const before = await app.db.character.count();
    const logBefore = await app.db.logEntry.count();
    const refusal = await app.refused(
      PLAYER,
      { type: "character.import", text: JSON.stringify(bad) },
      on(CH.fate),
    );
    expect(refusal.code).toBe("errors.characterImport.invalid");
    const problems = String(refusal.params?.problems).split("\n");
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^skills: .*flying/);
    expect(problems[1]).toMatch(/^stunts\.0/);
    expect(problems[2]).toMatch(/^ratings\.wr/);
    expect(await app.db.character.count()).toBe(before);
    expect(await app.db.logEntry.count()).toBe(logBefore);
    const taken = await app.refused(
      PLAYER,
      { type: "character.import", text: JSON.stringify(good) },
      on(CH.fate),
    );
    expect(String(taken.params?.problems)).toMatch(/^name: За этим столом уже есть персонаж.*Мира/);
    const notJson = await app.refused(PLAYER, { type: "character.import", text: "{ nope" }, on(CH.fate));
    expect(notJson).toEqual({ code: "errors.characterImport.invalid", params: { problems: "not JSON" } });
  });
});
