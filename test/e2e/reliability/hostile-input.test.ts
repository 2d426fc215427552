import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InteractionView, MessageView } from "../../../src/double/index.js";
import { type E2E, startE2E } from "../harness.js";

/**
 * Property-based fuzzing of the common commands' options and of component custom_ids, through the
 * Discord double and the real bot process: hostile text (mentions, markdown, zero-width and
 * bidirectional characters, over-long strings), out-of-range numbers, forged and stale custom_ids,
 * another user's buttons. Each case must get a clear answer in time, never an internal error, never
 * a ping, and a refusal must change nothing.
 */

const RUNS = 40;

const FRAGMENTS = [
  "@everyone",
  "@here",
  "<@&123456789012345678>",
  "<@123456789012345678>",
  "<@!123456789012345678>",
  "<#123456789012345678>",
  "</table setup:123456789012345678>",
  "\u200b",
  "\u200d",
  "\u2060",
  "\ufeff",
  "\u202e",
  "\u0000",
  "\u0007",
  "**",
  "__",
  "~~",
  "||",
  "`",
  "```",
  "> ",
  "# ",
  "\n",
  "[link](https://example.com)",
  "https://discord.gg/abc",
  "Akio",
  "akio",
  "Ｏｎｉ",
  "i1|table.archive-confirm|{}",
  "-1",
  "9".repeat(30),
  "🎲",
  "é",
];

/** Text a hostile user might type: fragments and noise, sometimes far over any limit. */
const hostileText = fc.oneof(
  fc
    .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 8 })), {
      minLength: 1,
      maxLength: 8,
    })
    .map((parts) => parts.join("")),
  fc.string({ minLength: 1, maxLength: 80 }),
  fc.string({ unit: "grapheme", minLength: 65, maxLength: 400 }),
  fc.constantFrom(...FRAGMENTS),
);

const hugeNumber = fc.oneof(
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
  fc.constantFrom(
    -1,
    0,
    51,
    2 ** 31,
    2 ** 31 - 1,
    -(2 ** 31) - 1,
    2 ** 53 - 1,
    -(2 ** 53) + 1,
    Number.MAX_SAFE_INTEGER,
  ),
);

const INTERNAL = /went wrong|что-то сломалось/i;

function answerOf(view: InteractionView): MessageView | null {
  return view.followups[0] ?? view.original;
}

describe("e2e reliability: hostile input", () => {
  let e2e: E2E;
  let gm: string;
  let player: string;
  let mallory: string;
  let tableId: number;
  let akioId: number;
  let oniId: number;

  /** Everything a refusal must leave untouched. */
  const snapshot = async () => ({
    tables: await e2e.database.query(
      "SELECT id, status, gm_user_id, language, state FROM game_table ORDER BY id",
    ),
    characters: await e2e.database.query(
      "SELECT id, name, name_key, owner_user_id, kind, deleted_at, sheet FROM character ORDER BY id",
    ),
    log: await e2e.database.query("SELECT count(*)::int AS n FROM log_entry"),
    flows: await e2e.database.query("SELECT id, status, state FROM flow ORDER BY id"),
  });

  /** Posts a bot message with one button carrying `customId`, as a panel would (or a forged client claims). */
  async function buttonMessage(customId: string): Promise<string> {
    const response = await fetch(`${e2e.double.apiBase}/channels/${e2e.channelId}/messages`, {
      method: "POST",
      headers: { authorization: `Bot ${e2e.double.token}`, "content-type": "application/json" },
      body: JSON.stringify({
        content: "panel",
        components: [{ type: 1, components: [{ type: 2, style: 1, label: "Go", custom_id: customId }] }],
      }),
    });
    if (!response.ok)
      throw new Error(`could not post the test panel: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { id: string }).id;
  }

  /** The common checks for any answer: in time, clear, never an internal error, nobody pinged. */
  function expectClearAnswer(view: InteractionView, label: string) {
    expect(view.late, label).toBe(false);
    expect(view.rejected, label).toEqual([]);
    const answer = answerOf(view);
    expect(answer?.text ?? "", label).not.toBe("");
    expect(answer?.text ?? "", label).not.toMatch(INTERNAL);
    expect(e2e.double.pingedMessages(), label).toEqual([]);
  }

  const refusedText = (view: InteractionView) => {
    const answer = answerOf(view);
    return Boolean(answer?.ephemeral && answer.text.startsWith("⚠️"));
  };

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail" });
    player = e2e.double.addUser({ username: "pavel" });
    mallory = e2e.double.addUser({ username: "mallory" });
    await e2e.double.slash(gm, e2e.channelId, "table", ["setup"], { system: "fate" }).settled();
    await e2e.double.slash(player, e2e.channelId, "character", ["create"], { name: "Akio" }).settled();
    await e2e.double
      .slash(gm, e2e.channelId, "character", ["create"], { name: "Oni", kind: "npc" })
      .settled();
    const rows = await e2e.database.query<{ id: number; name: string; table_id: number }>(
      "SELECT id, name, table_id FROM character",
    );
    akioId = rows.find((r) => r.name === "Akio")!.id;
    oniId = rows.find((r) => r.name === "Oni")!.id;
    tableId = rows[0]!.table_id;
  });
  afterAll(async () => e2e?.stop());

  it("answers hostile character names and options clearly; a refusal changes nothing; what is stored is clean", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("create", "show", "rename", "delete"),
        hostileText,
        hostileText,
        async (sub, text, other) => {
          const options: Record<string, string> =
            sub === "rename" ? { name: text, "new-name": other } : { name: text };
          const before = await snapshot();
          const view = await e2e.double
            .slash(mallory, e2e.channelId, "character", [sub], options, { force: true })
            .settled();
          const label = `/character ${sub} ${JSON.stringify(options)}`;
          expectClearAnswer(view, label);
          if (refusedText(view)) expect(await snapshot(), label).toEqual(before);
          const names = await e2e.database.query<{ name: string }>("SELECT name FROM character");
          for (const { name } of names) {
            // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
            expect(name, label).not.toMatch(/[\u0000-\u001f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/);
            expect(name, label).not.toMatch(/@(everyone|here)|<[@#][!&]?\d+>/);
            expect(name.length, label).toBeLessThanOrEqual(64);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("rolls or refuses hostile expressions and reasons without pinging anyone or failing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          hostileText,
          fc.constantFrom("1d6", "2d6+3", "4dF", "d%", "999999d999999", "1d6".repeat(80)),
        ),
        fc.option(hostileText, { nil: undefined }),
        fc.boolean(),
        async (expression, reason, secret) => {
          const before = await snapshot();
          const options = { expression, secret, ...(reason === undefined ? {} : { reason }) };
          const view = await e2e.double
            .slash(mallory, e2e.channelId, "roll", [], options, { force: true })
            .settled();
          const label = `/roll ${JSON.stringify(options)}`;
          expectClearAnswer(view, label);
          if (refusedText(view)) expect(await snapshot(), label).toEqual(before);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("refuses out-of-range numbers with a clear message", async () => {
    await fc.assert(
      fc.asyncProperty(hugeNumber, async (limit) => {
        const view = await e2e.double
          .slash(mallory, e2e.channelId, "table", ["log"], { limit }, { force: true })
          .settled();
        const label = `/table log limit:${limit}`;
        expectClearAnswer(view, label);
        expect(refusedText(view), label).toBe(limit < 1 || limit > 50);
      }),
      { numRuns: RUNS },
    );
  });

  it("refuses forged, stale and other people's buttons clearly and changes nothing", async () => {
    const value = fc.oneof(
      hugeNumber,
      fc.double(),
      fc.string({ maxLength: 12 }),
      fc.constantFrom(null, true, false, akioId, oniId, tableId, tableId + 1, -akioId),
      fc.array(fc.integer(), { maxLength: 3 }),
    );
    const forgedIntent = fc
      .record({
        type: fc.constantFrom(
          "table.archive-confirm",
          "character.delete-confirm",
          "table.gm",
          "table.language",
          "table.setup",
          "conflict.end",
          "no.such-thing",
          "__proto__",
          "constructor",
        ),
        fields: fc.dictionary(
          fc.constantFrom("tableId", "characterId", "user", "lang", "system", "flowId", "__proto__", "type"),
          value,
          { maxKeys: 3 },
        ),
      })
      .map(({ type, fields }) => `i1|${type}|${JSON.stringify(fields)}`.slice(0, 100));
    const customId = fc.oneof(
      forgedIntent,
      fc.string({ minLength: 1, maxLength: 100 }),
      fc.constantFrom(
        "i1|",
        "i1||",
        "i1|table.archive-confirm|",
        "i1|table.archive-confirm|{",
        "i1|table.archive-confirm|[1]",
        "i1|table.archive-confirm|null",
        `i1|table.archive-confirm|{"tableId":${tableId}}`,
        `i1|character.delete-confirm|{"characterId":${akioId}}`,
        `i1|character.delete-confirm|{"characterId":${oniId}}`,
        'i1|character.delete-confirm|{"characterId":2147483648}',
        'i1|character.delete-confirm|{"characterId":9007199254740991}',
        'i1|character.delete-confirm|{"characterId":-9007199254740991}',
        'i1|table.archive-confirm|{"tableId":1e300}',
        'i1|table.archive-confirm|{"tableId":2147483648}',
        `i1|table.gm|{"user":"${mallory}"}`,
        'i1|table.language|{"lang":"en"}',
        "i0|table.show|",
        "x".repeat(100),
      ),
    );
    await fc.assert(
      fc.asyncProperty(customId, async (id) => {
        const message = await buttonMessage(id);
        const before = await snapshot();
        const view = await e2e.double.click(mallory, message, id).settled();
        expectClearAnswer(view, `click ${id}`);
        expect(refusedText(view), `click ${id}`).toBe(true);
        expect(await snapshot(), `click ${id}`).toEqual(before);
      }),
      { numRuns: RUNS },
    );
  });

  it("offers only real character names to hostile autocomplete queries", async () => {
    await fc.assert(
      fc.asyncProperty(hostileText, async (query) => {
        const choices = await e2e.double.autocomplete(
          mallory,
          e2e.channelId,
          "character",
          ["show"],
          { name: query },
          "name",
          { force: true },
        );
        const names = (await e2e.database.query<{ name: string }>("SELECT name FROM character")).map(
          (r) => r.name,
        );
        expect(choices.length).toBeLessThanOrEqual(25);
        for (const c of choices) expect(names).toContain(c.name);
      }),
      { numRuns: RUNS },
    );
  });

  it("is still up and answering, never answered late, and never pinged anyone", async () => {
    expect(e2e.bot.alive()).toBe(true);
    const show = await e2e.double
      .slash(player, e2e.channelId, "character", ["show"], { name: "Akio" })
      .settled();
    expect(answerOf(show)?.text).toContain("Akio");
    expect(e2e.double.lateInteractions()).toEqual([]);
    expect(e2e.double.pingedMessages()).toEqual([]);
    const logs = await e2e.bot.writtenLogs();
    expect(logs.filter((l) => l.msg === "interaction failed")).toEqual([]);
    expect(logs.filter((l) => l.msg === "interaction handler crashed")).toEqual([]);
  });
});
