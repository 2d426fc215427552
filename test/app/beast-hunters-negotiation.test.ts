import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { negotiationPanel } from "../../src/app/beast-hunters/negotiation-view.js";
import { newNegotiation, type Phase } from "../../src/rules/beast-hunters/index.js";
import { type AppHarness, createAppHarness, replyText } from "../support/app.js";

const GM = { id: "520000000000000001", name: "Gail" };
const ADA = { id: "520000000000000002", name: "Ada", locale: "ru" };
const BO = { id: "520000000000000003", name: "Bo" };

describe("Beast Hunters negotiation tracker", () => {
  let app: AppHarness;
  const sheet = async (name: string) =>
    (await app.db.character.findFirstOrThrow({ where: { name } })).sheet as { preActivated: string[] };
  const flows = (kind: string) =>
    app.database.query<{ id: number; status: string; state: Record<string, unknown> }>(
      "SELECT id, status, state FROM flow WHERE kind = $1 ORDER BY id",
      [kind],
    );
  const spent = async () =>
    (await app.database.query<{ spent: number }>("SELECT spent FROM reserve_pool"))[0]!.spent;

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "beast-hunters" });
    await app.run(ADA, { type: "character.create", name: "Ада" });
    await app.run(BO, { type: "character.create", name: "Bo" });
    await app.run(ADA, { type: "character.trait.set", name: "Проницательность", sphere: "social", value: 3 });
    await app.run(ADA, { type: "character.trait.set", name: "Сила", sphere: "physical", value: 4 });
    await app.run(BO, { type: "character.trait.set", name: "Big", sphere: "physical", value: 4 });
    await app.run(BO, { type: "character.trait.set", name: "Quick", sphere: "social", value: 2 });
    await app.run(ADA, { type: "reserve.set", total: 40, ceiling: 8 });
  });
  afterAll(async () => app.close());

  it("phase 1 refuses pre-activation; phase 2 offers each hunter a select of their own traits and records the pick", async () => {
    const opened = await app.run(GM, { type: "challenge.negotiate", sphere: "physical", name: "Bandits" });
    expect(opened.result.replyIsPanelOf).toBeDefined();
    const flowId = opened.result.replyIsPanelOf!;
    expect(replyText(opened)).toContain("Phase 1");
    expect((await app.refused(ADA, { type: "challenge.activate", trait: "Сила", as: "attack" })).code).toBe(
      "errors.bh.preActivationNotAllowed",
    );

    await app.run(GM, { type: "negotiation.phase", flowId });
    const menu = await app.run(ADA, { type: "negotiation.premenu", flowId });
    const select = menu.result.reply!.rows![0]![0]!;
    expect(select.kind).toBe("select");
    const values = select.kind === "select" ? select.options.map((o) => o.value) : [];
    // Ada's own traits only, for attack or defence; the menu is in her language.
    expect(values).toEqual([
      "attack:Проницательность",
      "defence:Проницательность",
      "attack:Сила",
      "defence:Сила",
    ]);
    expect(replyText(menu)).toContain("пред-активирует");

    const picked = await app.run(ADA, { type: "negotiation.preactivate", flowId, pick: "attack:Сила" });
    expect(replyText(picked)).toContain("Ада pre-activates “Сила” for attack");
    expect((await sheet("Ада")).preActivated).toEqual(["Сила"]);
    // One per hunter in the negotiation.
    expect(
      (await app.refused(ADA, { type: "negotiation.preactivate", flowId, pick: "defence:Проницательность" }))
        .code,
    ).toBe("errors.bh.tooManyPreActivations");
    // The GM's one waits for phase 3.
    expect((await app.refused(GM, { type: "challenge.activate", trait: "Hungry", as: "attack" })).code).toBe(
      "errors.bh.preActivationNotAllowed",
    );
  });

  it("the GM acts for an absent player by naming the hunter (said and logged); the GM's own trait in phase 3", async () => {
    const acted = await app.run(GM, {
      type: "challenge.activate",
      trait: "Big",
      as: "defence",
      character: "Bo",
    });
    expect(replyText(acted)).toContain("The GM acts for Bo.");
    const logged = await app.database.query<{ actor_user_id: string }>(
      "SELECT actor_user_id FROM log_entry WHERE action = 'challenge.gmActedFor'",
    );
    expect(logged.map((l) => l.actor_user_id)).toContain(GM.id);
    await app.run(GM, { type: "challenge.negotiate", phase: 3 });
    const gm = await app.run(GM, { type: "challenge.activate", trait: "Hungry", as: "attack" });
    expect(replyText(gm)).toContain("The GM pre-activates “Hungry”");
  });

  it("a bad field of the guided form is reported alone, nothing is bought, and what was typed is kept", async () => {
    const [negotiation] = await flows("bh.negotiation");
    const form = await app.run(GM, { type: "negotiation.form", flowId: negotiation!.id });
    expect(form.result.modal?.inputs.map((i) => i.field)).toEqual([
      "traits",
      "resources",
      "initiative",
      "boxes",
      "neutralize",
    ]);
    const before = await spent();
    const bad = await app.run(GM, {
      type: "challenge.start",
      negotiation: negotiation!.id,
      guided: true,
      traits: "Hungry:4",
      resources: "Rusty swords:A2",
      initiative: "x",
    });
    const text = replyText(bad);
    expect(bad.result.reply?.ephemeral).toBe(true);
    expect(text).toContain("Initiative");
    expect(text).not.toContain("Traits:");
    expect(await spent()).toBe(before);
    expect(await flows("bh.challenge")).toHaveLength(0);
    const again = await app.run(GM, { type: "negotiation.form", flowId: negotiation!.id });
    expect(again.result.modal?.inputs.find((i) => i.field === "traits")?.value).toBe("Hungry:4");
    expect(again.result.modal?.inputs.find((i) => i.field === "initiative")?.value).toBe("x");
  });

  it("going to dice starts the challenge with the pre-activated traits active and records “dice”", async () => {
    const [negotiation] = await flows("bh.negotiation");
    const started = await app.run(GM, {
      type: "challenge.start",
      negotiation: negotiation!.id,
      guided: true,
      traits: "Hungry:4",
      resources: "Rusty swords:A2",
      initiative: "2",
    });
    expect(started.result.replyIsPanelOf).toBeDefined();
    const [challenge] = await flows("bh.challenge");
    const participants = (
      challenge!.state.challenge as {
        participants: { name: string; traits: { name: string; active: string | null }[] }[];
      }
    ).participants;
    const active = participants.flatMap((p) =>
      p.traits.filter((tr) => tr.active).map((tr) => `${p.name}:${tr.name}:${tr.active}`),
    );
    expect(active.sort()).toEqual(["Ада:Сила:attack", "Bandits:Hungry:attack", "Bo:Big:defence"].sort());
    const [closed] = await flows("bh.negotiation");
    expect(closed!.status).toBe("closed");
    expect(closed!.state.ended).toMatchObject({ how: "dice", phase: 3, challengeFlowId: challenge!.id });
    // Rating 2 (Hungry) + 1 (A2) + 1 (initiative 2) + 1 (boxes) = 5, × 1.5 in phase 3 = 8.
    expect(await spent()).toBe(8);
    await app.run(GM, { type: "challenge.end", concede: true });
  });

  it("«каждая черта может быть пред-активирована лишь один раз за время приключения»: refused the second time", async () => {
    await app.run(GM, { type: "challenge.negotiate", sphere: "physical", phase: 2, name: "River" });
    const refused = await app.refused(ADA, { type: "challenge.activate", trait: "Сила", as: "defense" });
    expect(refused).toEqual({ code: "errors.bh.alreadyPreActivated", params: { trait: "Сила" } });
    // Another trait is fine.
    await app.run(ADA, { type: "challenge.activate", trait: "Проницательность", as: "attack" });
  });

  it("a concession ends the negotiation in its phase, pays its hunters, and is recorded as “concession”", async () => {
    const mismatch = await app.refused(GM, { type: "reserve.concede", phase: 3 });
    expect(mismatch.code).toBe("errors.bh.negotiationPhaseMismatch");
    const conceded = await app.run(GM, { type: "reserve.concede", phase: 2, rating: 2 });
    expect(replyText(conceded)).toContain("rating 2 × 2");
    const all = await flows("bh.negotiation");
    expect(all.at(-1)!.status).toBe("closed");
    expect(all.at(-1)!.state.ended).toMatchObject({ how: "concession", phase: 2 });
    expect(JSON.stringify(conceded.result.effects)).toContain("the GM conceded");
  });

  it("a negotiation saved before the draft field existed still takes a pre-activation", async () => {
    const opened = await app.run(GM, { type: "challenge.negotiate", sphere: "social", phase: 2 });
    const flowId = opened.result.replyIsPanelOf!;
    // As an older bot left it: state version 1, no `draft`.
    await app.database.query("UPDATE flow SET state = state - 'draft', state_version = 1 WHERE id = $1", [
      flowId,
    ]);
    await app.run(BO, { type: "negotiation.preactivate", flowId, pick: "attack:Quick" });
    expect((await sheet("Bo")).preActivated).toEqual(["Big", "Quick"]);
    const [saved] = await app.database.query("SELECT state, state_version FROM flow WHERE id = $1", [flowId]);
    expect(saved).toMatchObject({ state_version: 2, state: { draft: {} } });
  });
  it("a new adventure drops a negotiation left open (recorded as abandoned), with renewal of its pre-activations", async () => {
    const open = (await flows("bh.negotiation")).at(-1)!;
    expect(open.status).toBe("open");
    await app.run(ADA, { type: "reserve.set", total: 20, ceiling: 6, adventure: "new", confirm: true });
    const dropped = (await flows("bh.negotiation")).at(-1)!;
    expect(dropped.status).toBe("closed");
    expect(dropped.state.ended).toMatchObject({ how: "abandoned" });
    expect((await sheet("Bo")).preActivated).toEqual([]);
  });
  it("two pre-activations of the same hunter at the same moment: exactly one is taken", async () => {
    await app.run(BO, { type: "character.trait.set", name: "Calm", sphere: "mental", value: 2 });
    await app.run(BO, { type: "character.trait.set", name: "Sharp", sphere: "mental", value: 2 });
    const opened = await app.run(GM, { type: "challenge.negotiate", sphere: "mental", phase: 2 });
    const flowId = opened.result.replyIsPanelOf!;
    const results = await Promise.allSettled([
      app.run(BO, { type: "negotiation.preactivate", flowId, pick: "attack:Calm" }),
      app.run(BO, { type: "negotiation.preactivate", flowId, pick: "defence:Sharp" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const [negotiation] = (await flows("bh.negotiation")).slice(-1);
    expect((negotiation!.state.pre as unknown[]).length).toBe(1);
    expect((await sheet("Bo")).preActivated).toHaveLength(1);
  });

  it("/challenge start form:true opens the obstacle form (opening the negotiation it belongs to)", async () => {
    await app.run(GM, { type: "reserve.concede", phase: 2, rating: 1 });
    const form = await app.run(GM, { type: "challenge.start", sphere: "social", phase: 3, form: true });
    expect(form.result.modal?.title).toContain("phase 3");
    const [negotiation] = (await flows("bh.negotiation")).slice(-1);
    expect(negotiation).toMatchObject({ status: "open", state: { phase: 3, sphere: "social" } });
  });
  it("naming another sphere on an open negotiation changes it (logged), without moving the phase", async () => {
    const changed = await app.run(GM, { type: "challenge.negotiate", sphere: "mental" });
    expect(replyText(changed)).toContain("The challenge is mental.");
    const [negotiation] = (await flows("bh.negotiation")).slice(-1);
    expect(negotiation).toMatchObject({ status: "open", state: { phase: 3, sphere: "mental" } });
  });
});

describe("the negotiation panel", () => {
  it("the dice button names the phase's multiplier of the rating (×2, ×1, ×1.5)", () => {
    const shown = ([1, 2, 3] as Phase[]).map((phase) => {
      const state = newNegotiation({
        name: "Ford",
        sphere: "physical",
        phase,
        hunters: [{ id: "1", name: "Ada", traits: [] }],
      });
      const labels = (negotiationPanel("en", 1, state).rows ?? [])
        .flat()
        .map((c) => (c.kind === "button" ? c.label : ""));
      return labels.find((l) => l.startsWith("To dice"));
    });
    expect(shown).toEqual(["To dice (×2)", "To dice (×1)", "To dice (×1.5)"]);
  });
});
