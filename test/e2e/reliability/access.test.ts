import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InteractionView } from "../../../src/double/index.js";
import type { MessageKey } from "../../../src/i18n/index.js";
import { t } from "../../../src/i18n/index.js";
import { type E2E, startE2E } from "../harness.js";
import { auditSecret, findSecretLeaks } from "../secrets.js";

/**
 * Who may do what, through Discord: every GM-only and owner-only action of the common commands is
 * refused for everyone else and changes nothing; a Manage Server member can recover a table.
 * And the common secret (a secret roll) reaches only those entitled to it.
 */

type Who = "gm" | "player" | "stranger" | "admin";
type Act = { slash: [string, string[], Record<string, string | number | boolean>] } | { click: () => string };

const answerOf = (view: InteractionView) => view.followups[0] ?? view.original;

describe("e2e reliability: permissions and secrets", () => {
  let e2e: E2E;
  const users = {} as Record<Who, string>;
  let boId: number;
  let tableId: number;

  const snapshot = async () => ({
    tables: await e2e.database.query("SELECT id, status, gm_user_id, language FROM game_table ORDER BY id"),
    characters: await e2e.database.query(
      "SELECT id, name, owner_user_id, kind, deleted_at FROM character ORDER BY id",
    ),
    log: await e2e.database.query("SELECT count(*)::int AS n FROM log_entry"),
  });

  async function buttonMessage(customId: string): Promise<string> {
    const response = await fetch(`${e2e.double.apiBase}/channels/${e2e.channelId}/messages`, {
      method: "POST",
      headers: { authorization: `Bot ${e2e.double.token}`, "content-type": "application/json" },
      body: JSON.stringify({
        content: "panel",
        components: [{ type: 1, components: [{ type: 2, style: 4, label: "Confirm", custom_id: customId }] }],
      }),
    });
    return ((await response.json()) as { id: string }).id;
  }

  async function perform(who: Who, act: Act): Promise<InteractionView> {
    if ("slash" in act) {
      const [command, path, options] = act.slash;
      return e2e.double.slash(users[who], e2e.channelId, command, path, options).settled();
    }
    const customId = act.click();
    return e2e.double.click(users[who], await buttonMessage(customId), customId).settled();
  }

  beforeAll(async () => {
    e2e = await startE2E();
    users.gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    users.player = e2e.double.addUser({ username: "anna", locale: "en-US" });
    users.stranger = e2e.double.addUser({ username: "boris", locale: "en-US" });
    users.admin = e2e.double.addUser({ username: "root", locale: "en-US", manageGuild: true });
    await e2e.double.slash(users.gm, e2e.channelId, "table", ["setup"], { system: "fate" }).settled();
    await e2e.double.slash(users.player, e2e.channelId, "character", ["create"], { name: "Ann" }).settled();
    await e2e.double.slash(users.stranger, e2e.channelId, "character", ["create"], { name: "Bo" }).settled();
    await e2e.double
      .slash(users.gm, e2e.channelId, "character", ["create"], { name: "Oni", kind: "npc" })
      .settled();
    const rows = await e2e.database.query<{ id: number; name: string; table_id: number }>(
      "SELECT id, name, table_id FROM character",
    );
    boId = rows.find((r) => r.name === "Bo")!.id;
    tableId = rows[0]!.table_id;
  });
  afterAll(async () => e2e?.stop());

  it("refuses every GM-only and owner-only action to everyone else, with the reason, changing nothing", async () => {
    // [what, act, refusal key + params, who is refused]
    const cases: Array<[string, Act, string, Record<string, string>, Who[]]> = [
      [
        "/table gm",
        { slash: ["table", ["gm"], { user: users.player }] },
        "errors.gmOrAdminOnly",
        {},
        ["player", "stranger"],
      ],
      [
        "/table language",
        { slash: ["table", ["language"], { lang: "ru" }] },
        "errors.gmOrAdminOnly",
        {},
        ["player", "stranger"],
      ],
      [
        "/table archive",
        { slash: ["table", ["archive"], {}] },
        "errors.gmOrAdminOnly",
        {},
        ["player", "stranger"],
      ],
      [
        "archive confirm button",
        { click: () => `i1|table.archive-confirm|{"tableId":${tableId}}` },
        "errors.gmOrAdminOnly",
        {},
        ["player", "stranger"],
      ],
      [
        "/character create kind:npc",
        { slash: ["character", ["create"], { name: "Ghoul", kind: "npc" }] },
        "errors.character.npcGmOnly",
        {},
        ["player", "stranger", "admin"],
      ],
      [
        "/character create for another player",
        { slash: ["character", ["create"], { name: "Puppet", player: users.stranger }] },
        "errors.character.othersGmOnly",
        {},
        ["player", "admin"],
      ],
      [
        "/character rename someone else's",
        { slash: ["character", ["rename"], { name: "Bo", "new-name": "Bob" }] },
        "errors.notYourCharacter",
        { name: "Bo" },
        ["player", "admin"],
      ],
      [
        "/character rename the GM's NPC",
        { slash: ["character", ["rename"], { name: "Oni", "new-name": "Ogre" }] },
        "errors.notYourCharacter",
        { name: "Oni" },
        ["player", "stranger", "admin"],
      ],
      [
        "/character delete someone else's",
        { slash: ["character", ["delete"], { name: "Bo" }] },
        "errors.notYourCharacter",
        { name: "Bo" },
        ["player", "admin"],
      ],
      [
        "delete confirm button for someone else's",
        { click: () => `i1|character.delete-confirm|{"characterId":${boId}}` },
        "errors.notYourCharacter",
        { name: "Bo" },
        ["player", "admin"],
      ],
    ];
    for (const [what, act, key, params, refused] of cases) {
      for (const who of refused) {
        const before = await snapshot();
        const view = await perform(who, act);
        const answer = answerOf(view);
        expect(answer?.ephemeral, `${what} by ${who}`).toBe(true);
        expect(answer?.text, `${what} by ${who}`).toContain(t("en", key as MessageKey, params));
        expect(await snapshot(), `${what} by ${who} changed something`).toEqual(before);
      }
    }
  });

  it("lets the GM and the owner do those same things (so the refusals above are about who, not what)", async () => {
    const byGm = await perform("gm", { slash: ["character", ["rename"], { name: "Bo", "new-name": "Bob" }] });
    expect(answerOf(byGm)?.text).toContain("Bob");
    const byOwner = await perform("stranger", {
      slash: ["character", ["rename"], { name: "Bob", "new-name": "Bo" }],
    });
    expect(answerOf(byOwner)?.text).toContain("Bo");
    const npc = await perform("gm", { slash: ["character", ["create"], { name: "Ghoul", kind: "npc" }] });
    expect(answerOf(npc)?.text).toContain("Ghoul");
    const rows = await e2e.database.query(
      "SELECT name FROM character WHERE name IN ('Bo', 'Ghoul') ORDER BY name",
    );
    expect(rows).toEqual([{ name: "Bo" }, { name: "Ghoul" }]);
  });

  it("lets a Manage Server member recover a table whose GM is gone, and only then refuses the old GM", async () => {
    const take = await perform("admin", { slash: ["table", ["gm"], { user: users.admin }] });
    expect(answerOf(take)?.ephemeral).toBe(false);
    expect(await e2e.database.query("SELECT gm_user_id FROM game_table")).toEqual([
      { gm_user_id: users.admin },
    ]);
    const oldGm = await perform("gm", { slash: ["character", ["create"], { name: "Wraith", kind: "npc" }] });
    expect(answerOf(oldGm)?.text).toContain(t("en", "errors.character.npcGmOnly"));
    // The new GM hands the table back.
    await perform("admin", { slash: ["table", ["gm"], { user: users.gm }] });
    expect(await e2e.database.query("SELECT gm_user_id FROM game_table")).toEqual([{ gm_user_id: users.gm }]);
  });

  it("keeps a secret roll to the roller (and to the GM when a GM copy was asked for)", async () => {
    const player = users.player;
    const withCopy = await e2e.double
      .slash(player, e2e.channelId, "roll", [], {
        expression: "9d20",
        secret: true,
        reason: "plan kappa 49",
        "gm-copy": true,
      })
      .settled();
    const alone = await e2e.double
      .slash(player, e2e.channelId, "roll", [], {
        expression: "8d20",
        secret: true,
        reason: "omega only anna",
      })
      .settled();
    const diceOf = (view: InteractionView, expression: string) =>
      new RegExp(`${expression} (\\[[\\d, ]+\\])`).exec(answerOf(view)?.text ?? "")?.[1] ?? "";
    const copied = diceOf(withCopy, "9d20");
    const hidden = diceOf(alone, "8d20");
    expect(copied).toMatch(/^\[\d+(, \d+){8}\]$/);
    expect(hidden).toMatch(/^\[\d+(, \d+){7}\]$/);

    // Others poke around: autocomplete, errors, the log, sheets.
    await e2e.double.autocomplete(
      users.stranger,
      e2e.channelId,
      "character",
      ["show"],
      { name: "plan" },
      "name",
    );
    await e2e.double.slash(users.stranger, e2e.channelId, "character", ["show"], { name: "kappa" }).settled();
    await e2e.double.slash(users.gm, e2e.channelId, "table", ["show"]).settled();

    // Positive controls: the entitled did see it (so the scan below is looking for the right thing).
    expect(e2e.double.ephemeralsFor(player).some((m) => m.text.includes(hidden))).toBe(true);
    await e2e.double.waitFor(() => e2e.double.dmsOf(users.gm).some((m) => m.text.includes(copied)));
    const ownLog = await e2e.double.slash(player, e2e.channelId, "table", ["log"], { limit: 50 }).settled();
    expect(answerOf(ownLog)?.text).toContain("omega only anna");
    expect(findSecretLeaks(e2e.double, hidden, [])).not.toEqual([]);

    await auditSecret(e2e, copied, [player, users.gm], { viewers: [users.stranger, users.admin] });
    await auditSecret(e2e, "plan kappa 49", [player, users.gm], { viewers: [users.stranger, users.admin] });
    await auditSecret(e2e, hidden, [player], { viewers: [users.gm, users.stranger, users.admin] });
    await auditSecret(e2e, "omega only anna", [player], { viewers: [users.gm, users.stranger, users.admin] });
    expect(e2e.double.pingedMessages()).toEqual([]);
  });
});
