import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConflictFlowState } from "../../src/app/fate/conflict-state.js";
import type { CheckFlowState } from "../../src/app/fate/state.js";
import type { Effect } from "../../src/app/use-case.js";
import { scriptedDice } from "../../src/rules/dice.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "420000000000000001", name: "Gail" };
const WREN = { id: "420000000000000002", name: "Wendy" };
const ILSA = { id: "420000000000000003", name: "Ivan", locale: "ru" };
const LATE = { id: "420000000000000004", name: "Lena" };

type Executed = Awaited<ReturnType<AppHarness["run"]>>;

/** The options of the first select on an answer (the ways to take a hit). */
function selectOptions(executed: Executed): { label: string; value: string }[] {
  for (const c of (executed.result.reply?.rows ?? []).flat()) if (c.kind === "select") return c.options;
  throw new Error(`no select on: ${replyText(executed)}`);
}

function posts(executed: Executed): { content: string; mentions: string[] }[] {
  return (executed.result.effects ?? [])
    .filter((e): e is Extract<Effect, { kind: "post" }> => e.kind === "post")
    .map((e) => ({ content: e.view.content ?? "", mentions: e.view.mentionUsers ?? [] }));
}

const ZERO = [3, 3, 3, 3];

describe("Fate conflicts, hits and invokes (app layer, real PostgreSQL)", () => {
  let app: AppHarness;
  const fp = async (name: string) =>
    (await app.db.character.findFirstOrThrow({ where: { name } })).fatePoints;
  const sheet = async (name: string) =>
    (await app.db.character.findFirstOrThrow({ where: { name } })).sheet as {
      stress: { physical: { boxes: boolean[] } };
      consequences: { id: string; taken: boolean; aspect: { name: string; freeInvokes: unknown[] } | null }[];
    };
  const conflictState = async () =>
    (await app.db.flow.findFirstOrThrow({ where: { kind: "fate.conflict" }, orderBy: { id: "desc" } }))
      .state as unknown as ConflictFlowState;
  /** Captain (the GM's) attacks `target` with `bonus`; the target defends with +0; all dice blank. */
  const attack = async (attacker: typeof GM, who: string, target: string, bonus: number, defence = 0) => {
    app.useDice(scriptedDice([...ZERO, ...ZERO]));
    const rolled = await app.run(attacker, {
      type: "check",
      skill: "fight",
      action: "attack",
      target,
      character: who,
      bonus,
    });
    const flowId = rolled.result.replyIsPanelOf!;
    return {
      flowId,
      defend: (user: typeof GM) =>
        app.run(user, { type: "fate.defend", flowId, skill: "athletics", bonus: defence }),
    };
  };

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "fate" });
    await app.run(WREN, { type: "character.create", name: "Wren" });
    await app.run(ILSA, { type: "character.create", name: "Ilsa" });
    await app.run(GM, { type: "character.create", name: "Captain", kind: "npc" });
    await app.run(ILSA, { type: "character.skill", skill: "notice", value: 2 });
  });
  afterAll(async () => app.close());

  it("turns: the exchange starts by Notice, whose turn it is shows on the panel and pings that player", async () => {
    const started = await app.run(GM, { type: "conflict.start", title: "Harbour" });
    expect(replyText(started)).toContain("Exchange 1 · ▶ **Ilsa**'s turn");
    expect(posts(started)).toEqual([
      { content: `⚔️ Exchange 1: **Ilsa**, your turn. <@${ILSA.id}>`, mentions: [ILSA.id] },
    ]);
    const state = await conflictState();
    expect(state.conflict.order?.map((id) => state.names[id])).toEqual(["Ilsa", "Wren", "Captain"]);
    expect((await app.refused(WREN, { type: "conflict.next" })).code).toBe("errors.fate.notYourTurn");
    const passed = await app.run(ILSA, { type: "conflict.next" });
    expect(posts(passed)[0]?.mentions).toEqual([WREN.id]);
    await app.run(WREN, { type: "conflict.next" });
    const third = await app.run(GM, { type: "conflict.next" });
    // The GM's character: the GM is pinged. After the last, exchange 2.
    expect(replyText(third)).toContain("Exchange 2: Ilsa's turn");
  });

  it("«если кубики брошены — назад не отмотать»: a concession is refused until the rolled hit is settled", async () => {
    const { flowId, defend } = await attack(GM, "Captain", "Wren", 4);
    const before = await fp("Wren");
    expect(await app.refused(WREN, { type: "conflict.concede" })).toMatchObject({
      code: "errors.fate.concedeActionPending",
      params: { name: "Wren", attacker: "Captain" },
    });
    await defend(WREN);
    expect((await app.refused(WREN, { type: "conflict.concede" })).code).toBe(
      "errors.fate.concedeActionPending",
    );
    // The target's player applies it; the ways to take 4 shifts on two boxes, cheapest first.
    const applied = await app.run(WREN, { type: "fate.apply-hit", flowId });
    expect(selectOptions(applied).map((o) => o.label)).toEqual([
      "stress box 2 + Mild (2)",
      "Moderate (4)",
      "Severe (6)",
    ]);
    expect((await app.refused(WREN, { type: "conflict.concede" })).code).toBe(
      "errors.fate.concedeActionPending",
    );
    const taken = await app.run(WREN, {
      type: "fate.absorb",
      flowId: applied.result.replyIsPanelOf!,
      option: "-|moderate",
    });
    expect(replyText(taken)).toContain("Wren takes a hit of 4 shifts: Moderate (4)");
    expect(await fp("Wren")).toBe(before);
    // The slot the hit took is the one the button names: a form for exactly that slot.
    const wren = await app.db.character.findFirstOrThrow({ where: { name: "Wren" } });
    const form = await app.run(WREN, {
      type: "fate.name-consequence",
      characterId: wren.id,
      slot: "moderate",
    });
    expect(form.result.modal?.intent).toEqual({
      type: "consequence.add",
      characterId: wren.id,
      severity: "moderate",
    });
    await app.run(WREN, { ...form.result.modal!.intent, name: "Cracked rib" } as never);
    // A consequence written down by hand in this conflict counts as well ("however it was recorded").
    await app.run(GM, { type: "consequence.add", character: "Wren", severity: "mild", name: "Bruised" });
    const conceded = await app.run(WREN, { type: "conflict.concede" });
    expect(replyText(conceded)).toContain("Wren concedes and gets 3 fate points");
    expect(await fp("Wren")).toBe(before + 3);
  });

  it("a conceded character takes no further hits: no attack, no /stress hit, and out of the turn order", async () => {
    const rows = await app.db.character.findMany();
    const before = JSON.stringify(rows.map((r) => [r.sheet, r.fatePoints]));
    app.useDice(scriptedDice(ZERO));
    expect(
      (
        await app.refused(GM, {
          type: "check",
          skill: "fight",
          action: "attack",
          target: "Wren",
          character: "Captain",
        })
      ).code,
    ).toBe("errors.fate.targetOutOfConflict");
    expect((await app.refused(GM, { type: "stress.hit", character: "Wren", shifts: 2 })).code).toBe(
      "errors.fate.targetOutOfConflict",
    );
    expect(JSON.stringify((await app.db.character.findMany()).map((r) => [r.sheet, r.fatePoints]))).toBe(
      before,
    );
    const state = await conflictState();
    expect(state.conflict.status).toBe("open");
    const wren = state.conflict.participants.find((p) => state.names[p.characterId] === "Wren");
    expect(wren?.status).toBe("conceded");
  });

  it("«Whoever inflicts a consequence gets a free invoke on it»: the Captain's, refused to the other side", async () => {
    const rib = (await sheet("Wren")).consequences.find((s) => s.id === "moderate")?.aspect;
    expect(rib?.freeInvokes).toHaveLength(1);
    app.useDice(scriptedDice(ZERO));
    await app.run(ILSA, { type: "check", skill: "athletics", vs: 1 });
    const refused = await app.refused(ILSA, { type: "invoke", aspect: "Cracked rib", pay: "free-invoke" });
    expect(refused.code).toBe("errors.fate.freeInvokeNotYours");
    app.useDice(scriptedDice(ZERO));
    await app.run(GM, { type: "check", skill: "fight", character: "Captain", vs: 1 });
    const captainFp = await fp("Captain");
    const used = await app.run(GM, { type: "invoke", aspect: "Cracked rib" });
    expect(replyText(used)).toContain("free invoke");
    expect(await fp("Captain")).toBe(captainFp);
  });

  it("a manual /stress hit settles the attack waiting to be applied: the hit lands exactly once", async () => {
    const { flowId, defend } = await attack(GM, "Captain", "Ilsa", 3);
    await defend(ILSA);
    const manual = await app.run(GM, { type: "stress.hit", character: "Ilsa", shifts: 3 });
    expect(replyText(manual)).toContain("This settles Captain's attack on Ilsa");
    expect((await app.refused(GM, { type: "fate.apply-hit", flowId })).code).toBe("errors.flow.closed");
    await app.run(ILSA, { type: "fate.absorb", flowId: manual.result.replyIsPanelOf!, option: "b0|mild" });
    const hits = await app.db.logEntry.findMany({ where: { action: "fate.hit" } });
    expect(
      hits.filter((h) => (h.summary as { params: { name: string } }).params.name === "Ilsa"),
    ).toHaveLength(1);
    expect((await sheet("Ilsa")).stress.physical.boxes).toEqual([true, false]);
  });

  it("free invokes of an advantage belong to its creator's side; a failed one gives the opponent one", async () => {
    // Create an advantage with no opposition: the GM sets the difficulty after the roll, then it is resolved.
    app.useDice(scriptedDice([1, 3, 3, 3]));
    const rolled = await app.run(ILSA, {
      type: "check",
      skill: "athletics",
      action: "advantage",
      target: "Captain",
      aspect: "Pinned down",
      bonus: 1,
    });
    const advantageId = rolled.result.replyIsPanelOf!;
    expect(
      (await app.refused(ILSA, { type: "fate.set-difficulty", flowId: advantageId, vs: "1" })).code,
    ).toBe("errors.gmOnly");
    await app.run(GM, { type: "fate.set-difficulty", flowId: advantageId, vs: "1" });
    const claimed = await app.run(ILSA, { type: "fate.claim-advantage", flowId: advantageId });
    expect(replyText(claimed)).toContain("«Pinned down»");
    const pinned = await app.db.aspect.findFirstOrThrow({ where: { name: "Pinned down" } });
    const ilsa = await app.db.character.findFirstOrThrow({ where: { name: "Ilsa" } });
    expect(pinned.freeInvokeHolders).toEqual([{ holderId: String(ilsa.id), side: "pc" }]);
    expect(replyText(await app.run(GM, { type: "aspect.list" }))).toContain(
      "Pinned down — Situational aspect · 1 free invoke (Ilsa ×1)",
    );
    // The Captain may invoke the aspect placed on him, but only with his own fate point.
    app.useDice(scriptedDice(ZERO));
    await app.run(GM, { type: "check", skill: "fight", character: "Captain", vs: 2 });
    expect((await app.refused(GM, { type: "invoke", aspect: "Pinned down", pay: "free-invoke" })).code).toBe(
      "errors.fate.freeInvokeNotYours",
    );
    const captainFp = await fp("Captain");
    await app.run(GM, { type: "invoke", aspect: "Pinned down" });
    expect(await fp("Captain")).toBe(captainFp - 1);
    expect((await app.db.aspect.findFirstOrThrow({ where: { name: "Pinned down" } })).freeInvokes).toBe(1);
    // Ilsa's side spends it.
    app.useDice(scriptedDice(ZERO));
    await app.run(ILSA, { type: "check", skill: "athletics", vs: 2 });
    await app.run(ILSA, { type: "invoke", aspect: "Pinned down", pay: "free-invoke" });
    expect((await app.db.aspect.findFirstOrThrow({ where: { name: "Pinned down" } })).freeInvokes).toBe(0);

    // «…или добавляете, но его бесплатно призывает кто-то другой»: a failed advantage, put in play for the opponent.
    app.useDice(scriptedDice(ZERO));
    const failed = await app.run(ILSA, {
      type: "check",
      skill: "athletics",
      action: "advantage",
      target: "Captain",
      aspect: "Loose plank",
      vs: 3,
    });
    await app.run(ILSA, { type: "fate.claim-advantage", flowId: failed.result.replyIsPanelOf! });
    const captain = await app.db.character.findFirstOrThrow({ where: { name: "Captain" } });
    const plank = await app.db.aspect.findFirstOrThrow({ where: { name: "Loose plank" } });
    expect(plank.freeInvokeHolders).toEqual([{ holderId: String(captain.id), side: "npc" }]);
  });

  it("boosts: a tie on attack, and a defence with style, create the boost when the attack is settled", async () => {
    // 12. An attack whose defence wins or ties settles itself, making its boost.
    const tie = await attack(GM, "Captain", "Ilsa", 0);
    const resolved = await tie.defend(ILSA);
    expect(replyText(resolved)).toContain("Captain gets a boost: «Captain's opening»");
    const boost = await app.db.aspect.findFirstOrThrow({ where: { name: "Captain's opening" } });
    expect(boost).toMatchObject({ kind: "boost", freeInvokes: 1 });
    expect((await app.db.flow.findUniqueOrThrow({ where: { id: tie.flowId } })).status).toBe("closed");

    const parried = await attack(GM, "Captain", "Ilsa", 0, 3);
    const settled = await parried.defend(ILSA);
    expect(replyText(settled)).toContain("Ilsa gets a boost: «Ilsa's opening»");
    expect((await app.db.flow.findUniqueOrThrow({ where: { id: parried.flowId } })).status).toBe("closed");
    // Nothing blocks the target: she may concede or leave before the next roll.
    expect(
      await app.db.flow.count({ where: { kind: "fate.check", status: "open", id: parried.flowId } }),
    ).toBe(0);
  });

  it("«можете снизить силу своего удара на один, чтобы дополнительно получить усиление»: a style attack traded for a boost", async () => {
    const style = await attack(ILSA, "Ilsa", "Captain", 4);
    await style.defend(GM);
    const panel = (await app.db.flow.findUniqueOrThrow({ where: { id: style.flowId } }))
      .state as unknown as CheckFlowState;
    expect(panel.tradedForBoost ?? false).toBe(false);
    expect((await app.refused(GM, { type: "fate.trade-boost", flowId: style.flowId })).code).toBe(
      "errors.notYourCharacter",
    );
    const traded = await app.run(ILSA, { type: "fate.trade-boost", flowId: style.flowId });
    expect(replyText(traded)).toContain("the hit on Captain is now 3 shifts");
    expect((await app.refused(ILSA, { type: "fate.trade-boost", flowId: style.flowId })).code).toBe(
      "errors.fate.alreadyTraded",
    );
    const applied = await app.run(GM, { type: "fate.apply-hit", flowId: style.flowId });
    expect(replyText(applied)).toContain("A hit of 3 shifts on Captain from Ilsa");
  });

  it("join and leave mid-conflict; the end is announced with the winner in a new message and closes open checks", async () => {
    await app.run(LATE, { type: "character.create", name: "Lark" });
    const joined = await app.run(LATE, { type: "conflict.join" });
    expect(replyText(joined)).toContain("Lark joins the conflict on the players side");
    let state = await conflictState();
    expect(state.conflict.order?.map((id) => state.names[id]).at(-1)).toBe("Lark");
    const left = await app.run(LATE, { type: "conflict.leave" });
    expect(replyText(left)).toContain("Lark leaves the conflict");
    state = await conflictState();
    expect(state.conflict.participants.find((p) => state.names[p.characterId] === "Lark")?.status).toBe(
      "left",
    );
    app.useDice(scriptedDice(ZERO));
    const open = await app.run(ILSA, { type: "check", skill: "athletics", vs: 0 });
    const ended = await app.run(GM, { type: "conflict.end" });
    const announcement = posts(ended).find((p) => p.content.includes("🏁"));
    expect(announcement?.content).toContain("The conflict «Harbour» is over, with no winner.");
    expect(announcement?.content).toContain("**Wren** — conceded");
    expect(announcement?.content).toContain("**Lark** — left");
    const check = await app.db.flow.findUniqueOrThrow({ where: { id: open.result.replyIsPanelOf! } });
    expect(check.status).toBe("closed");
    // An invoke on a check of the finished conflict is refused; nothing is spent.
    const before = await fp("Ilsa");
    expect(
      (await app.refused(ILSA, { type: "invoke", aspect: "Captain's opening", flowId: check.id })).code,
    ).toBe("errors.flow.closed");
    expect(await fp("Ilsa")).toBe(before);
  });

  it("a conflict stored before turns and join snapshots (the previous shape) plays on", async () => {
    const table = await app.db.gameTable.findFirstOrThrow();
    const ids = (await app.db.character.findMany({ orderBy: { id: "asc" } })).map((c) => String(c.id));
    await app.db.flow.create({
      data: {
        tableId: table.id,
        kind: "fate.conflict",
        status: "open",
        createdByUserId: GM.id,
        state: {
          conflict: {
            title: "Old",
            exchange: 2,
            status: "open",
            participants: ids.slice(0, 3).map((id, i) => ({
              characterId: id,
              side: i === 2 ? "npc" : "pc",
              status: "in",
              consequencesTaken: 0,
              pendingHit: null,
            })),
          },
          names: { [ids[0]!]: "Wren", [ids[1]!]: "Ilsa", [ids[2]!]: "Captain" },
        },
      },
    });
    const shown = await app.run(GM, { type: "conflict.show" });
    expect(replyText(shown)).toContain("Exchange 2 · ▶ **Wren**'s turn");
    const next = await app.run(GM, { type: "conflict.next" });
    expect(replyText(next)).toContain("Exchange 2: Ilsa's turn");
    const conceded = await app.run(ILSA, { type: "conflict.concede" });
    expect(replyText(conceded)).toContain("Ilsa concedes and gets 1 fate point");
    await app.run(GM, { type: "conflict.end" });
  });

  it("two Applies of the same hit at the same moment: it lands exactly once", async () => {
    const { flowId, defend } = await attack(GM, "Captain", "Wren", 1);
    await defend(WREN);
    const hitsBefore = await app.db.logEntry.count({
      where: { action: { in: ["fate.hit", "fate.hit.waiting"] } },
    });
    const results = await Promise.allSettled([
      app.run(GM, { type: "fate.apply-hit", flowId }),
      app.run(WREN, { type: "fate.apply-hit", flowId }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const hitsAfter = await app.db.logEntry.count({
      where: { action: { in: ["fate.hit", "fate.hit.waiting"] } },
    });
    expect(hitsAfter - hitsBefore).toBe(1);
  });

  it("an attack whose skill does not say which track asks the target first, then offers the ways to take it", async () => {
    app.useDice(scriptedDice(ZERO));
    const lore = await app.run(GM, {
      type: "check",
      skill: "lore",
      action: "attack",
      target: "Wren",
      character: "Captain",
      bonus: 2,
      vs: 0,
    });
    const applied = await app.run(GM, { type: "fate.apply-hit", flowId: lore.result.replyIsPanelOf! });
    expect(replyText(applied)).toContain("is the hit physical or mental?");
    const hitId = applied.result.replyIsPanelOf!;
    expect((await app.refused(WREN, { type: "fate.absorb", flowId: hitId, option: "-|mild" })).code).toBe(
      "errors.fate.chooseHitKind",
    );
    const kind = await app.run(WREN, { type: "fate.absorb", flowId: hitId, kind: "mental" });
    expect(replyText(kind)).toContain("Mental stress");
    const ways = selectOptions(kind);
    expect(ways[0]?.label).toBe("stress box 2");
    await app.run(WREN, { type: "fate.absorb", flowId: hitId, option: ways[0]!.value });
    expect(
      (
        (await app.db.character.findFirstOrThrow({ where: { name: "Wren" } })).sheet as {
          stress: { mental: { boxes: boolean[] } };
        }
      ).stress.mental.boxes,
    ).toEqual([false, true]);
  });

  it("the consequence slot to name is the one the hit took: a second mild slot by mistake is refused", async () => {
    await app.run(ILSA, { type: "character.skill", ranks: "physique 4, notice 2" });
    await app.run(ILSA, { type: "character.race", name: "Trolls", bonuses: "physique 1" });
    await app.run(GM, { type: "consequence.clear", character: "Ilsa", severity: "mild" });
    const hit = await app.run(GM, { type: "stress.hit", character: "Ilsa", shifts: 2 });
    const mild = selectOptions(hit).find((o) => o.label === "Mild (2)");
    expect(mild).toBeDefined();
    await app.run(ILSA, { type: "fate.absorb", flowId: hit.result.replyIsPanelOf!, option: mild!.value });
    const refused = await app.refused(ILSA, {
      type: "consequence.add",
      character: "Ilsa",
      severity: "mildPhysical",
      name: "Bruised",
    });
    expect(refused).toMatchObject({ code: "errors.fate.nameTheTakenSlot" });
    await app.run(ILSA, { type: "consequence.add", character: "Ilsa", severity: "mild", name: "Bruised" });
    expect((await sheet("Ilsa")).consequences.find((s) => s.id === "mildPhysical")?.taken).toBe(false);
  });

  it("/invoke check: sends the invoke to the named open check, not the latest one", async () => {
    await app.run(GM, { type: "character.create", name: "Guard", kind: "npc" });
    app.useDice(scriptedDice([...ZERO, ...ZERO]));
    const first = await app.run(GM, { type: "check", skill: "fight", character: "Captain", vs: 3 });
    const second = await app.run(GM, { type: "check", skill: "shoot", character: "Guard", vs: 3 });
    await app.run(GM, { type: "aspect.add", name: "Fog bank", invokes: 2 });
    // Without `check`, the GM's latest open check (the Guard's); with it, the Captain's.
    await app.run(GM, { type: "invoke", aspect: "Fog bank" });
    await app.run(GM, { type: "invoke", aspect: "Fog bank", check: `#${first.result.replyIsPanelOf}` });
    const invokes = async (id: number) =>
      ((await app.db.flow.findUniqueOrThrow({ where: { id } })).state as unknown as CheckFlowState).check
        .invokes;
    expect(await invokes(first.result.replyIsPanelOf!)).toHaveLength(1);
    expect(await invokes(second.result.replyIsPanelOf!)).toHaveLength(1);
  });

  it("a way to take a hit that another hit has used up meanwhile: the panel is redrawn, nothing is taken", async () => {
    await app.run(GM, { type: "stress.clear" });
    const first = await app.run(GM, { type: "stress.hit", character: "Ilsa", shifts: 2 });
    const second = await app.run(GM, { type: "stress.hit", character: "Ilsa", shifts: 2 });
    expect(selectOptions(first)[0]).toEqual(selectOptions(second)[0]);
    const box = selectOptions(first)[0]!;
    expect(box.label).toBe("stress box 2");
    await app.run(ILSA, { type: "fate.absorb", flowId: first.result.replyIsPanelOf!, option: box.value });
    const before = await sheet("Ilsa");
    const stale = await app.run(ILSA, {
      type: "fate.absorb",
      flowId: second.result.replyIsPanelOf!,
      option: box.value,
    });
    expect(stale.result.replyMode).toBe("update");
    expect(selectOptions(stale)[0]?.label).toBe("stress box 3");
    expect(await sheet("Ilsa")).toEqual(before);
    const redo = await app.run(ILSA, {
      type: "fate.absorb",
      flowId: second.result.replyIsPanelOf!,
      option: selectOptions(stale)[0]!.value,
    });
    expect(replyText(redo)).toContain("Ilsa takes a hit of 2 shifts: stress box 3");
  });

  it("an attack whose hit is not settled stays open when its attacker rolls again: the hit is not lost", async () => {
    app.useDice(scriptedDice([...ZERO, ...ZERO]));
    const rolled = await app.run(GM, {
      type: "check",
      skill: "fight",
      action: "attack",
      target: "Wren",
      character: "Captain",
      bonus: 1,
      vs: 0,
    });
    await app.run(GM, { type: "check", skill: "shoot", character: "Captain", vs: 2 });
    const attackFlow = await app.db.flow.findUniqueOrThrow({ where: { id: rolled.result.replyIsPanelOf! } });
    expect(attackFlow.status).toBe("open");
    const applied = await app.run(WREN, { type: "fate.apply-hit", flowId: attackFlow.id });
    expect(replyText(applied)).toContain("A hit of 1 shift on Wren from Captain");
  });
});
