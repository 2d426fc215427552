/**
 * A model-based test of a whole Beast Hunters table (fast-check `commands`, the app layer, the
 * real database): a GM and three hunters do random actions — valid and invalid, by command and
 * from the panels' own controls — and hunters go absent (the GM acts for them). After every step:
 * no internal error; the reserve, AP and VP books balance; a refusal's suggested step works for the
 * user it is meant for. After every sequence (liveness): the table is brought back to "nothing in
 * progress" by steps the bot offers.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { challengePanel } from "../../src/app/beast-hunters/challenge-view.js";
import type { ChallengeFlowState } from "../../src/app/beast-hunters/flow-states.js";
import { negotiationPanel } from "../../src/app/beast-hunters/negotiation-view.js";
import type { Executed } from "../../src/app/execute.js";
import type { Intent } from "../../src/app/intent.js";
import type { MessageView } from "../../src/app/views.js";
import type { NegotiationState } from "../../src/rules/beast-hunters/index.js";
import { seededDice } from "../../src/rules/dice.js";
import { DomainError } from "../../src/rules/errors.js";
import { type AppHarness, createAppHarness, type TestUser } from "../support/app.js";

const GM: TestUser = { id: "580000000000000001", name: "Gail" };
const HUNTERS = [
  { user: { id: "580000000000000002", name: "Ada" }, name: "Ada" },
  { user: { id: "580000000000000003", name: "Bo", locale: "ru" }, name: "Бо" },
  { user: { id: "580000000000000004", name: "Cy" }, name: "Cy" },
] as const;
const SPHERES = ["physical", "social", "mental"] as const;

interface Model {
  /** Hunters (by index) whose players are away: the GM acts for them. */
  absent: Set<number>;
  /** Refusal codes whose suggested step this sequence already followed. */
  followed: Set<string>;
}

interface Table {
  negotiation: { id: number; state: NegotiationState } | null;
  challenge: { id: number; state: ChallengeFlowState } | null;
  ended: boolean;
}

type Outcome =
  | { ok: true; executed: Executed }
  | { ok: false; code: string; params: Record<string, unknown> };

describe("Beast Hunters model: every flow finishes", () => {
  let app: AppHarness;
  let clicks = 0;
  let steps = 0;
  let refusals = 0;
  /** What the runs did and were refused, by intent type and code (printed with the totals). */
  const done = new Map<string, number>();
  const refused = new Map<string, number>();
  const ids: Record<string, string> = {};

  async function table(): Promise<Table> {
    const open = await app.database.query<{ id: number; kind: string; state: unknown }>(
      "SELECT id, kind, state FROM flow WHERE kind LIKE 'bh.%' AND status = 'open' ORDER BY id",
    );
    const pool = (
      await app.database.query<{ adventure: { ended: unknown } }>("SELECT adventure FROM reserve_pool")
    )[0];
    const n = open.find((f) => f.kind === "bh.negotiation");
    const c = open.find((f) => f.kind === "bh.challenge");
    return {
      negotiation: n ? { id: n.id, state: n.state as NegotiationState } : null,
      challenge: c ? { id: c.id, state: c.state as ChallengeFlowState } : null,
      ended: Boolean(pool?.adventure?.ended),
    };
  }

  /** Runs an intent; a refusal is an outcome, anything else thrown is an internal error and fails. */
  async function attempt(user: TestUser, intent: Intent, click = false): Promise<Outcome> {
    steps += 1;
    try {
      const options = click
        ? { source: { messageId: `9${String(++clicks).padStart(17, "0")}`, public: true } }
        : {};
      const executed = await app.run(user, intent, options);
      done.set(intent.type, (done.get(intent.type) ?? 0) + 1);
      return { ok: true, executed };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      refusals += 1;
      refused.set(error.code, (refused.get(error.code) ?? 0) + 1);
      return { ok: false, code: error.code, params: error.params };
    }
  }

  /** Who controls a hunter now: their player, or the GM naming the hunter when the player is away. */
  function controller(model: Model, index: number): { user: TestUser; character?: string } {
    const hunter = HUNTERS[index]!;
    return model.absent.has(index) ? { user: GM, character: hunter.name } : { user: hunter.user };
  }

  function hunterIndexOf(participantId: string): number {
    return HUNTERS.findIndex((h) => ids[h.name] === participantId);
  }

  /** The participant who must act now, as the one who would act for them. */
  function dueActor(model: Model, state: ChallengeFlowState): { user: TestUser; character?: string } {
    const c = state.challenge;
    const due = c.status === "fatalChoice" ? c.pendingFatal! : (c.pendingBonus?.actor ?? c.turn);
    const index = hunterIndexOf(due);
    return index >= 0 ? controller(model, index) : { user: GM };
  }

  /** The books: reserve, AP and VP as logged step by step, against what is stored. */
  async function checkBooks(): Promise<void> {
    const pool = (
      await app.database.query<{ total: number; spent: number }>("SELECT total, spent FROM reserve_pool")
    )[0]!;
    expect(pool.spent).toBeGreaterThanOrEqual(0);
    expect(pool.spent).toBeLessThanOrEqual(pool.total);
    const reserveLog = await app.database.query<{
      before: { left: number } | null;
      after: { spent: number; left: number; total: number };
    }>("SELECT before, after FROM log_entry WHERE after ? 'spent' AND after ? 'left' ORDER BY id");
    const last = reserveLog.at(-1)!;
    expect(last.after.spent, "the reserve is what its last logged change left").toBe(pool.spent);
    for (let i = 1; i < reserveLog.length; i++) {
      const entry = reserveLog[i]!;
      if (entry.before && entry.after.total === reserveLog[i - 1]!.after.total && "left" in entry.before)
        expect(entry.before.left, "each reserve change starts where the last one ended").toBe(
          reserveLog[i - 1]!.after.left,
        );
    }
    // VP: every point on a sheet was logged as awarded.
    const vp = await app.database.query<{ id: number; victory_points: number; logged: number }>(
      `SELECT c.id, c.victory_points, COALESCE(SUM((l.after->>'vp')::int - (l.before->>'vp')::int), 0)::int AS logged
       FROM character c LEFT JOIN log_entry l ON l.character_id = c.id AND l.action = 'character.vp'
       GROUP BY c.id, c.victory_points`,
    );
    for (const c of vp) expect(c.victory_points, `VP of character ${c.id}`).toBe(c.logged);
    // AP: in the open challenge every AP is ≥ 0 and what its logged changes add up to.
    const { challenge } = await table();
    if (!challenge) return;
    const started = await app.database.query<{ id: string }>(
      "SELECT max(id)::text AS id FROM log_entry WHERE action = 'challenge.challengeStarted'",
    );
    const changes = await app.database.query<{
      summary: { params: { actor: string; target: string; before: number; after: number } };
    }>("SELECT summary FROM log_entry WHERE action = 'challenge.advantageChanged' AND id > $1 ORDER BY id", [
      started[0]!.id,
    ]);
    const books = new Map<string, number>();
    for (const { summary } of changes) {
      const key = `${summary.params.actor}→${summary.params.target}`;
      expect(summary.params.before, `AP ${key} continue from the last change`).toBe(books.get(key) ?? 0);
      books.set(key, summary.params.after);
    }
    const state = challenge.state.challenge;
    const name = (id: string) => state.participants.find((p) => p.id === id)!.name;
    for (const [actor, byTarget] of Object.entries(state.advantage))
      for (const [target, ap] of Object.entries(byTarget)) {
        expect(ap).toBeGreaterThanOrEqual(0);
        expect(ap, `AP ${name(actor)}→${name(target)}`).toBe(
          books.get(`${name(actor)}→${name(target)}`) ?? 0,
        );
      }
  }

  /**
   * A refusal names a step; that step must work for the user it is meant for. Returns the step's
   * own outcome (so a chain is followed once).
   */
  async function followSuggestion(model: Model, refusal: Outcome): Promise<void> {
    if (refusal.ok) return;
    // Each refusal's step is checked once a sequence, so following them does not steer the walk.
    if (model.followed.has(refusal.code)) return;
    model.followed.add(refusal.code);
    const now = await table();
    let step: { user: TestUser; intent: Intent; click?: boolean } | null = null;
    switch (refusal.code) {
      case "errors.bh.notYourTurn":
      case "errors.bh.bonusPending": {
        if (!now.challenge) break;
        const due = dueActor(model, now.challenge.state);
        step = { user: due.user, intent: { type: "challenge.skip", character: due.character } };
        break;
      }
      case "errors.bh.fatalChoicePending": {
        if (!now.challenge) break;
        // The GM's click on the fate button acts for the hunter who must choose.
        const due = dueActor(model, now.challenge.state);
        step = {
          user: due.user,
          intent: { type: "challenge.fate", flowId: now.challenge.id, choice: "survive" },
          click: true,
        };
        break;
      }
      case "errors.bh.noChallenge":
      case "errors.bh.noNegotiation":
        step = { user: GM, intent: { type: "challenge.negotiate", sphere: "physical" } };
        break;
      case "errors.bh.inNegotiation":
      case "errors.bh.gmGivesUpNegotiation":
        step = { user: GM, intent: { type: "challenge.end" } };
        break;
      // "errors.bh.challengeOpen" names `/challenge end concede:true`: the drain takes that very
      // step at the end of every sequence (following it here would end every challenge early).
      case "errors.bh.challengeToClose":
        step = { user: GM, intent: { type: "challenge.end" } };
        break;
      case "errors.bh.adventureOver":
        step = {
          user: controller(model, 0).user === GM ? GM : HUNTERS[0].user,
          intent: { type: "reserve.set", total: 60, ceiling: 8, adventure: "new", confirm: true },
        };
        break;
    }
    if (!step) return;
    const followed = await attempt(step.user, step.intent, step.click ?? false);
    expect(
      followed.ok ? "ok" : followed.code,
      `${refusal.code} suggests ${JSON.stringify(step.intent)} for ${step.user.name}`,
    ).toBe("ok");
    await checkBooks();
  }

  async function act(model: Model, user: TestUser, intent: Intent, click = false): Promise<void> {
    const outcome = await attempt(user, intent, click);
    await checkBooks();
    await followSuggestion(model, outcome);
  }

  /** The controls of the live panel (negotiation or challenge), as the bot renders them now. */
  async function panelControls(): Promise<{ view: MessageView; flowId: number } | null> {
    const now = await table();
    if (now.challenge)
      return { view: challengePanel("en", now.challenge.id, now.challenge.state), flowId: now.challenge.id };
    if (now.negotiation)
      return {
        view: negotiationPanel("en", now.negotiation.id, now.negotiation.state),
        flowId: now.negotiation.id,
      };
    return null;
  }

  // ---- the commands -------------------------------------------------------------------------

  type Cmd = fc.AsyncCommand<Model, AppHarness>;
  const cmd = (label: string, run: (model: Model) => Promise<void>): Cmd => ({
    check: () => true,
    run: async (model) => run(model),
    toString: () => label,
  });

  const who = fc.integer({ min: -1, max: 2 }); // -1: the GM
  const userOf = (model: Model, index: number) => (index < 0 ? { user: GM } : controller(model, index));

  const negotiateCmd = fc
    .record({
      sphere: fc.constantFrom(...SPHERES),
      phase: fc.option(fc.constantFrom(1, 2, 3) as fc.Arbitrary<1 | 2 | 3>, { nil: undefined }),
    })
    .map(({ sphere, phase }) =>
      cmd(`negotiate ${sphere} ${phase}`, (m) => act(m, GM, { type: "challenge.negotiate", sphere, phase })),
    );
  const clickCmd = fc
    .record({ i: who, control: fc.nat(30), option: fc.nat(30) })
    .map(({ i, control, option }) =>
      cmd(`click ${i} #${control}/${option}`, async (m) => {
        const panel = await panelControls();
        const controls = (panel?.view.rows ?? []).flat();
        if (controls.length === 0) return;
        const c = controls[control % controls.length]!;
        const { user } = userOf(m, i);
        // A click never names a hunter: the GM's click stands for whoever must act.
        const intent: Intent =
          c.kind === "select"
            ? { ...c.intent, [c.field]: c.options[option % c.options.length]!.value }
            : c.intent;
        await act(m, user, intent, true);
      }),
    );
  const turnCmd = fc
    .record({
      i: who,
      kind: fc.constantFrom(
        ...([
          "maneuver",
          "maneuver",
          "maneuver",
          "maneuver",
          "strike",
          "strike",
          "strike",
          "activate",
          "activate",
        ] as const),
        ...(["skip", "accept", "offer", "offer", "giveup", "fate", "achieve", "help"] as const),
      ),
      n: fc.integer({ min: 1, max: 6 }),
      target: fc.nat(3),
    })
    .map(({ i, kind, n, target }) =>
      cmd(`${kind} by ${i} (${n}, ${target})`, async (m) => {
        const now = await table();
        // No challenge yet: mostly the table's next step towards one (a few stray actions stay).
        if (!now.challenge && n > 1) {
          if (now.ended) return;
          if (!now.negotiation) return act(m, GM, { type: "challenge.negotiate", sphere: SPHERES[n % 3]! });
          const talks = now.negotiation.state;
          return act(m, GM, {
            type: "challenge.start",
            sphere: talks.sphere,
            phase: talks.phase,
            traits: "Hungry:2",
            resources: n > 4 ? "Claws:A4 Hide:D2" : "Claws:A2",
            initiative: 2 * (target % 2),
          });
        }
        // Mostly the one who must act; sometimes whoever `i` is (out of turn, or not in it).
        const due = now.challenge && n % 3 !== 0 ? dueActor(m, now.challenge.state) : userOf(m, i);
        const c = now.challenge?.state.challenge;
        const participants = c?.participants ?? [];
        // Mostly an opponent of the one due (standing); sometimes anyone.
        const dueSide = c
          ? participants.find((p) => p.id === (c.pendingBonus?.actor ?? c.turn))?.side
          : undefined;
        const opponents = participants.filter((p) => p.side !== dueSide && p.status === "in");
        const pool = n % 3 === 0 || opponents.length === 0 ? participants : opponents;
        const targetName = pool[target % Math.max(1, pool.length)]?.name;
        const character = due.character;
        const intents: Record<typeof kind, Intent> = {
          maneuver: { type: "challenge.maneuver", target: target === 3 ? undefined : targetName, character },
          strike: {
            type: "challenge.strike",
            dice: n,
            target: target === 3 ? undefined : targetName,
            character,
          },
          activate: {
            type: "challenge.activate",
            trait: ["Strong", "Sly", "Hungry"][n % 3]!,
            as: n % 2 ? "attack" : "defense",
            character,
          },
          skip: { type: "challenge.skip", character },
          accept: { type: "challenge.accept", character },
          offer: { type: "challenge.offer", points: n * 2 },
          giveup: { type: "challenge.giveup", character },
          fate: { type: "challenge.fate", choice: n % 2 ? "survive" : "retire", character },
          achieve: { type: "challenge.achieve", task: "Fame", dice: n % 3 || 1, character },
          help: { type: "challenge.help", hunter: targetName ?? "Ada", trait: "Strong", character },
        };
        await act(m, due.user, intents[kind]);
      }),
    );
  const otherCmds = [
    fc
      .record({ i: who, d: fc.integer({ min: 1, max: 4 }) })
      .map(({ i, d }) =>
        cmd(`task by ${i} d${d}`, (m) =>
          act(m, userOf(m, i).user, { type: "challenge.task", name: "Fame", difficulty: d }),
        ),
      ),
    fc
      .record({ i: who })
      .map(({ i }) =>
        cmd(`resolve by ${i}`, (m) => act(m, userOf(m, i).user, { type: "challenge.resolve", task: "Fame" })),
      ),
    fc
      .record({
        sphere: fc.constantFrom(...SPHERES),
        phase: fc.constantFrom(1, 2, 3) as fc.Arbitrary<1 | 2 | 3>,
        rating: fc.nat(3),
      })
      .map(({ sphere, phase, rating }) =>
        cmd(`start ${sphere} ${phase} ${rating}`, async (m) => {
          const now = await table();
          const talks = now.negotiation?.state;
          await act(m, GM, {
            type: "challenge.start",
            sphere: talks && rating > 0 ? talks.sphere : sphere,
            phase: talks && rating > 0 ? talks.phase : phase,
            name: "Bandits",
            traits: rating > 1 ? "Hungry:4 Sly:2" : "Hungry:2",
            resources: rating > 2 ? "Claws:A4 Hide:D2" : "Claws:A2",
            initiative: 2 * (rating % 2),
          });
        }),
      ),
    fc
      .record({
        phase: fc.constantFrom(1, 2, 3) as fc.Arbitrary<1 | 2 | 3>,
        rating: fc.option(fc.integer({ min: 1, max: 9 }), { nil: undefined }),
      })
      .map(({ phase, rating }) =>
        cmd(`concede ${phase} ${rating}`, async (m) => {
          const now = await table();
          await act(m, GM, {
            type: "reserve.concede",
            phase: now.negotiation && !rating ? now.negotiation.state.phase : phase,
            rating,
          });
        }),
      ),
    fc
      .record({ i: who, end: fc.boolean() })
      .map(({ i, end }) =>
        cmd(`end by ${i} ${end}`, (m) => act(m, userOf(m, i).user, { type: "challenge.end", concede: end })),
      ),
    fc.record({ i: who, pick: fc.nat(7) }).map(({ i, pick }) =>
      cmd(`preactivate by ${i} #${pick}`, async (m) => {
        const now = await table();
        if (!now.negotiation)
          return act(m, userOf(m, i).user, { type: "challenge.activate", trait: "Strong", as: "attack" });
        const { user, character } = userOf(m, i);
        await act(m, user, {
          type: "challenge.activate",
          trait: ["Strong", "Sly", "Keen", "Hungry"][pick % 4]!,
          as: pick > 3 ? "defense" : "attack",
          character,
        });
      }),
    ),
    fc.nat(2).map((i) =>
      cmd(`absent ${i}`, async (m) => {
        if (m.absent.has(i)) m.absent.delete(i);
        else m.absent.add(i);
      }),
    ),
    fc.constant(cmd("show", (m) => act(m, GM, { type: "challenge.show" }))),
    negotiateCmd,
    fc.constant(
      cmd("new adventure", (m) =>
        act(m, HUNTERS[0].user, {
          type: "reserve.set",
          total: 60,
          ceiling: 8,
          adventure: "new",
          confirm: true,
        }),
      ),
    ),
  ];
  // The turn's actions and the panels' clicks are what a table mostly does.
  const commands = [
    ...otherCmds,
    turnCmd,
    turnCmd,
    turnCmd,
    turnCmd,
    turnCmd,
    turnCmd,
    clickCmd,
    clickCmd,
    clickCmd,
    clickCmd,
  ];

  /**
   * Liveness: the table is brought back to nothing in progress by steps the bot offers — the
   * fatal choice (the GM's click for an absent player), the GM's concession and close of a
   * challenge, the negotiation panel's Drop.
   */
  async function drain(model: Model): Promise<void> {
    for (let i = 0; i < 40; i++) {
      const now = await table();
      if (!now.challenge && !now.negotiation) return;
      let step: { user: TestUser; intent: Intent; click: boolean };
      if (now.challenge) {
        const c = now.challenge.state.challenge;
        const view = challengePanel("en", now.challenge.id, now.challenge.state);
        const offered = (type: string) =>
          (view.rows ?? []).flat().find((x) => x.intent.type === type)?.intent;
        if (c.status === "fatalChoice") {
          const fate = offered("challenge.fate");
          expect(fate, "the panel offers the fatal choice").toBeDefined();
          step = { user: dueActor(model, now.challenge.state).user, intent: fate!, click: true };
        } else if (c.status === "active") {
          step = { user: GM, intent: { type: "challenge.end", concede: true }, click: false };
        } else {
          const close = offered("challenge.end");
          expect(close, "the panel offers closing the challenge").toBeDefined();
          step = { user: GM, intent: close!, click: true };
        }
      } else {
        const view = negotiationPanel("en", now.negotiation!.id, now.negotiation!.state);
        const drop = (view.rows ?? []).flat().find((x) => x.intent.type === "negotiation.drop")?.intent;
        expect(drop, "the negotiation panel offers the drop").toBeDefined();
        step = { user: GM, intent: drop!, click: true };
      }
      const outcome = await attempt(step.user, step.intent, step.click);
      expect(outcome.ok ? "ok" : outcome.code, `drain: ${JSON.stringify(step.intent)}`).toBe("ok");
      await checkBooks();
    }
    throw new Error("the table could not be brought back to nothing in progress");
  }

  beforeAll(async () => {
    app = await createAppHarness();
    await app.run(GM, { type: "table.setup", system: "beast-hunters" });
    for (const [i, h] of HUNTERS.entries()) {
      await app.run(h.user, { type: "character.create", name: h.name });
      await app.run(h.user, {
        type: "character.trait.set",
        name: "Strong",
        sphere: "physical",
        value: 4 - i,
      });
      await app.run(h.user, { type: "character.trait.set", name: "Sly", sphere: "social", value: 2 + i });
      await app.run(h.user, { type: "character.resource.set", name: "Spear", category: "PA", value: 2 });
    }
    const characters = await app.db.character.findMany();
    for (const c of characters) ids[c.name] = String(c.id);
    await app.run(HUNTERS[0].user, { type: "reserve.set", total: 60, ceiling: 8 });
  }, 60_000);
  afterAll(async () => app.close());

  it("«every flow finishes»: random valid and invalid actions never break the books, and the table always comes back to nothing in progress", async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(
        fc.commands(commands, { maxCommands: 60, size: "max" }),
        fc.integer(),
        async (sequence, seed) => {
          app.useDice(seededDice(seed));
          const model: Model = { absent: new Set(), followed: new Set() };
          await fc.asyncModelRun(() => ({ model, real: app }), sequence);
          await drain(model);
          // Nothing in progress: a new adventure (or the next negotiation) can begin.
          if ((await table()).ended)
            await act(model, HUNTERS[1].user, {
              type: "reserve.set",
              total: 60,
              ceiling: 8,
              adventure: "new",
              confirm: true,
            });
        },
      ),
      { numRuns: 30, endOnFailure: true },
    );
    // What it exercised, for the record.
    console.info(
      `model: ${steps} steps, ${refusals} refusals, ${Date.now() - started} ms`,
      Object.fromEntries(done),
      Object.fromEntries(refused),
    );
    expect(steps).toBeGreaterThan(400);
  }, 120_000);
});
