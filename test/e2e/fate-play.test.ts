import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageView } from "../../src/double/index.js";
import { componentId, components, optionValue } from "./components.js";
import { type E2E, startE2E } from "./harness.js";

describe("e2e: Fate, every flow finishes and one invoke path", () => {
  let e2e: E2E;
  let gm: string;
  let ilsaPlayer: string;
  let wrenPlayer: string;
  let larkPlayer: string;
  /** Interactions sent, by user: what an exchange costs the table. */
  const sent = new Map<string, number>();
  const count = (user: string) => sent.set(user, (sent.get(user) ?? 0) + 1);

  const slash = (
    user: string,
    command: string,
    path: string[],
    opts: Record<string, string | number | boolean> = {},
  ) => {
    count(user);
    return e2e.double.slash(user, e2e.channelId, command, path, opts);
  };
  const click = (user: string, message: MessageView, id: string) => {
    count(user);
    return e2e.double.click(user, message, id);
  };
  const select = (user: string, message: MessageView, id: string, values: string[]) => {
    count(user);
    return e2e.double.select(user, message, id, values);
  };
  const fp = async (name: string) =>
    (
      await e2e.database.query<{ fate_points: number }>("SELECT fate_points FROM character WHERE name = $1", [
        name,
      ])
    )[0]!.fate_points;
  const channelText = () =>
    e2e.double
      .channelMessages(e2e.channelId)
      .map((m) => m.text)
      .join("\n");

  beforeAll(async () => {
    e2e = await startE2E();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    ilsaPlayer = e2e.double.addUser({ username: "ilsa", locale: "ru" });
    wrenPlayer = e2e.double.addUser({ username: "wren", locale: "en-US" });
    larkPlayer = e2e.double.addUser({ username: "lark", locale: "ru" });
    await slash(gm, "table", ["setup"], { system: "fate" }).settled();
    await slash(ilsaPlayer, "character", ["create"], { name: "Ilsa" }).settled();
    await slash(wrenPlayer, "character", ["create"], { name: "Wren" }).settled();
    await slash(larkPlayer, "character", ["create"], { name: "Lark" }).settled();
    await slash(gm, "character", ["create"], { name: "Captain", kind: "npc" }).settled();
    await slash(gm, "character", ["create"], { name: "Guard", kind: "npc" }).settled();
    await slash(ilsaPlayer, "character", ["skill"], { ranks: "athletics 4, notice 3, lore 3" }).settled();
    await slash(wrenPlayer, "character", ["skill"], { ranks: "fight 4, will 3" }).settled();
    await slash(larkPlayer, "character", ["skill"], { ranks: "fight 3, athletics 2" }).settled();
    await slash(gm, "aspect", ["add"], {
      name: "Slow to turn",
      character: "Captain",
      kind: "flaw",
    }).settled();
  });
  afterAll(async () => e2e?.stop());

  it("a stalled contest is ended by the GM: its roll takes no more invokes, and a new contest starts", async () => {
    await slash(gm, "contest", ["start"], { first: "Ilsa", second: "Wren", title: "Debate" }).settled();
    await slash(ilsaPlayer, "contest", ["roll"], { skill: "lore" }).settled();
    const blocked = await slash(gm, "contest", ["start"], { first: "Ilsa", second: "Wren" }).response();
    expect(blocked.ephemeral).toBe(true);
    const ended = await slash(gm, "contest", ["end"]).settled();
    expect(ended.original?.text).toContain("undecided");
    const before = await fp("Ilsa");
    const refused = await slash(ilsaPlayer, "invoke", [], { aspect: "Slow to turn" }).response();
    expect(refused.ephemeral).toBe(true);
    expect(await fp("Ilsa")).toBe(before);
    const again = await slash(gm, "contest", ["start"], { first: "Ilsa", second: "Wren" }).settled();
    expect(again.original?.text).toContain("Contest");
    await slash(gm, "contest", ["end"]).settled();
  });

  it("a hostile invoke pays the owner: Wren invokes the Captain's aspect with a fate point, the Captain gets it", async () => {
    await slash(wrenPlayer, "check", [], { skill: "fight", vs: 2 }).settled();
    const [wren, captain] = [await fp("Wren"), await fp("Captain")];
    await slash(wrenPlayer, "invoke", [], { aspect: "Slow to turn", pay: "fate-point" }).settled();
    expect(await fp("Wren")).toBe(wren - 1);
    expect(await fp("Captain")).toBe(captain + 1);
    await e2e.double.waitFor(
      () => (channelText().includes("gets the fate point paid for it") ? true : null),
      {
        timeoutMs: 5000,
        what: () => "the owner's fate point announced",
      },
    );
  });

  it("a challenge invoke with an ally's free invoke: Wren spends Ilsa's advantage, not a fate point", async () => {
    // +8 against 0: always at least a success, so the free invokes are Ilsa's side's.
    const advantage = (
      await slash(ilsaPlayer, "check", [], {
        skill: "notice",
        action: "advantage",
        aspect: "High ground",
        bonus: 8,
        vs: 0,
      }).settled()
    ).original!;
    await click(ilsaPlayer, advantage, componentId(advantage, "fate.claim-advantage")).settled();
    const started = await slash(gm, "fate-challenge", ["start"], {
      title: "Flood",
      tasks: "Fight, Lore",
    }).settled();
    const panel = started.original!;
    await slash(wrenPlayer, "fate-challenge", ["roll"], { task: "1", skill: "fight" }).settled();
    const before = await fp("Wren");
    const withInvokes = await e2e.double.waitFor(
      () => {
        const m = e2e.double.message(panel.id);
        return components(m).some((c) => c.custom_id?.startsWith("i1|fate-challenge.invoke-menu|"))
          ? m
          : null;
      },
      {
        timeoutMs: 5000,
        what: () => `the challenge panel's invoke buttons: ${e2e.double.message(panel.id).text}`,
      },
    );
    const menu = await click(
      wrenPlayer,
      withInvokes,
      componentId(withInvokes, "fate-challenge.invoke-menu", "plus2"),
    ).settled();
    const invoked = await select(
      wrenPlayer,
      menu.original!,
      componentId(menu.original!, "fate-challenge.invoke"),
      [optionValue(menu.original!, "High ground")],
    ).settled();
    expect(invoked.original?.text).toContain("free invoke");
    expect(await fp("Wren")).toBe(before);
    await slash(gm, "fate-challenge", ["end"]).settled();
  });

  it("an exchange with five combatants, counted: every attack defended, applied and absorbed", async () => {
    await slash(gm, "conflict", ["start"], { title: "Harbour" }).settled();
    for (const [user, name] of [
      [ilsaPlayer, "Ilsa"],
      [wrenPlayer, "Wren"],
      [larkPlayer, "Lark"],
      [gm, "Captain"],
      [gm, "Guard"],
    ] as const)
      await slash(user, "conflict", ["join"], { character: name }).settled();
    sent.clear();
    const controller: Record<string, string> = {
      Ilsa: ilsaPlayer,
      Wren: wrenPlayer,
      Lark: larkPlayer,
      Captain: gm,
      Guard: gm,
    };
    const turns: Array<[string, string, string]> = [
      ["Ilsa", "Captain", "athletics"],
      ["Wren", "Guard", "fight"],
      ["Lark", "Captain", "fight"],
      ["Captain", "Wren", "fight"],
      ["Guard", "Lark", "fight"],
    ];
    const currentTurn = async () => {
      const rows = await e2e.database.query<{
        state: {
          conflict: { order: string[]; turn: number; exchange: number };
          names: Record<string, string>;
        };
      }>("SELECT state FROM flow WHERE kind = 'fate.conflict' AND status = 'open'");
      const c = rows[0]?.state;
      return c ? { name: c.names[c.conflict.order[c.conflict.turn]!]!, exchange: c.conflict.exchange } : null;
    };
    // One exchange: each attacks in turn; the turn passes by itself once the attack is settled.
    for (let i = 0; i < turns.length; i += 1) {
      const now = await currentTurn();
      if (now?.exchange !== 1) break;
      const [attacker, target, skill] = turns.find((t) => t[0] === now.name)!;
      const attack = (
        await slash(controller[attacker]!, "check", [], {
          skill,
          action: "attack",
          target,
          bonus: 2,
          ...(controller[attacker] === gm ? { character: attacker } : {}),
        }).settled()
      ).original!;
      const defended = await select(controller[target]!, attack, componentId(attack, "fate.defend"), [
        "athletics",
      ]).settled();
      if (defended.original?.text.includes("is settled")) continue;
      const current = await e2e.double.waitFor(
        () => {
          const m = e2e.double.message(attack.id);
          return components(m).some((c) => c.custom_id?.startsWith("i1|fate.apply-hit|")) ? m : null;
        },
        { timeoutMs: 5000, what: () => `Apply on the attack: ${e2e.double.message(attack.id).text}` },
      );
      const applied = (
        await click(controller[target]!, current, componentId(current, "fate.apply-hit")).settled()
      ).original!;
      const absorb = components(applied).find((c) => c.custom_id?.startsWith("i1|fate.absorb|"));
      if (absorb?.options?.[0])
        await select(controller[target]!, applied, absorb.custom_id!, [absorb.options[0].value]).settled();
    }
    // Nobody pressed "next turn": the exchange went round by itself.
    const after = await currentTurn();
    if (after) expect(after.exchange).toBe(2);
    const total = [...sent.values()].reduce((a, b) => a + b, 0);
    const byGm = sent.get(gm) ?? 0;
    console.log(`an exchange of five: ${total} interactions, ${byGm} of them the GM's`);
    // Each attack: the roll, the defence, Apply and the way to take it (when there are several).
    expect(total).toBeLessThanOrEqual(20);
    expect(byGm).toBeLessThanOrEqual(11);
  });
});
