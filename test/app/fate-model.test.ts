/**
 * A model-based test of the Fate table (app layer, real PostgreSQL): a GM and three players play
 * random sequences of Fate actions — checks, invokes from every panel, compels, contests,
 * conflicts, challenges, faction actions, scene ends, valid and not — and after every step:
 *
 * - no internal error (a refusal is a DomainError, and a refusal changes nothing);
 * - fate points balance with the log (each character's entries, replayed, end at its points);
 *   every change of stress or consequences is logged for that character;
 * - free invokes: an aspect's count matches its holders, and a free invoke is only ever spent by
 *   its side (the invoker, an ally, or an unowned one);
 * - liveness, at the end of every sequence: the table is brought back to nothing in progress by
 *   actions the bot offers (the GM's ends, the scene's end), and a new contest can start.
 *
 * Each sequence plays at its own table (a channel of its own). FATE_MODEL_RUNS raises the count.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Executed } from "../../src/app/execute.js";
import type { Intent } from "../../src/app/intent.js";
import { seededDice } from "../../src/rules/dice.js";
import { DomainError } from "../../src/rules/errors.js";
import { type FreeInvoke, type Invoker, mayUseFreeInvoke } from "../../src/rules/fate/aspects.js";
import { type AppHarness, createAppHarness } from "../support/app.js";

const GM = { id: "440000000000000001", name: "Gail" };
const P1 = { id: "440000000000000002", name: "Pia" };
const P2 = { id: "440000000000000003", name: "Pavel", locale: "ru" };
const P3 = { id: "440000000000000004", name: "Petra" };
const USERS = { GM, P1, P2, P3 } as const;
type Who = keyof typeof USERS;

/** The characters: each player's one, and the GM's two. */
const CHARACTERS = [
  { name: "Aster", owner: "P1" as Who, kind: "pc" },
  { name: "Bryn", owner: "P2" as Who, kind: "pc" },
  { name: "Cato", owner: "P3" as Who, kind: "pc" },
  { name: "Drago", owner: "GM" as Who, kind: "npc" },
  { name: "Eira", owner: "GM" as Who, kind: "npc" },
] as const;
const NAMES = CHARACTERS.map((c) => c.name);
const SKILLS = ["fight", "athletics", "notice", "lore", "will", "provoke", "stealth"];
const ASPECT_NAMES = ["Storm", "High ground", "Loose plank", "Never backs down", "Old grudges", "Smoke"];
const IN_PROGRESS = [
  "fate.check",
  "fate.hit",
  "fate.conflict",
  "fate.contest",
  "fate.challenge",
  "fate.compel",
  "fate.faction-check",
];

interface Real {
  app: AppHarness;
  channelId: string;
  tableId: number;
  /** Character name → id, and the fate points each started with. */
  ids: Record<string, number>;
  initialFp: Record<number, number>;
  /** The options of the latest select the bot offered for a flow (the ways to take a hit). */
  offered: Map<number, string[]>;
  steps: number;
  refusals: number;
}
type Model = Record<string, never>;

interface AspectSeen {
  where: string;
  holders: FreeInvoke[];
}

async function snapshot(r: Real) {
  const db = r.app.db;
  const [characters, aspects, table, flows] = await Promise.all([
    db.character.findMany({ where: { tableId: r.tableId }, orderBy: { id: "asc" } }),
    db.aspect.findMany({ where: { tableId: r.tableId }, orderBy: { id: "asc" } }),
    db.gameTable.findUniqueOrThrow({ where: { id: r.tableId } }),
    db.flow.findMany({ where: { tableId: r.tableId }, orderBy: { id: "asc" } }),
  ]);
  return {
    characters: characters.map((c) => ({ id: c.id, fp: c.fatePoints, sheet: c.sheet, status: c.status })),
    aspects: aspects.map((a) => ({ ...a, updatedAt: undefined })),
    table: table.state,
    flows: flows.map((f) => ({ id: f.id, status: f.status, state: f.state })),
  };
}
type Snapshot = Awaited<ReturnType<typeof snapshot>>;

/** Every free invoke at the table, by aspect: rows, consequences on sheets, faction aspects. */
function freeInvokes(s: Snapshot): Map<string, AspectSeen> {
  const out = new Map<string, AspectSeen>();
  for (const a of s.aspects) {
    if (a.removedAt) continue;
    const holders = Array.isArray(a.freeInvokeHolders)
      ? (a.freeInvokeHolders as unknown as FreeInvoke[])
      : [];
    // The count and the holders agree (rows stored before holders were kept have none: anyone's).
    if (Array.isArray(a.freeInvokeHolders)) expect(holders.length, `aspect ${a.name}`).toBe(a.freeInvokes);
    const list = Array.isArray(a.freeInvokeHolders)
      ? holders
      : Array.from({ length: a.freeInvokes }, () => ({ holderId: null, side: null }));
    out.set(`a${a.id}`, { where: a.name, holders: list });
  }
  for (const c of s.characters) {
    const sheet = c.sheet as {
      consequences?: { id: string; aspect: { freeInvokes: FreeInvoke[] } | null }[];
    };
    for (const slot of sheet.consequences ?? [])
      if (slot.aspect) out.set(`c${c.id}.${slot.id}`, { where: slot.id, holders: slot.aspect.freeInvokes });
  }
  const factions =
    (s.table as { factions?: { id: string; aspects: { name: string; freeInvokes: FreeInvoke[] }[] }[] })
      .factions ?? [];
  for (const f of factions)
    for (const a of f.aspects) out.set(`f${f.id}.${a.name}`, { where: a.name, holders: a.freeInvokes });
  return out;
}

/** Who spends a free invoke on this step, if it is an invoke: the check's roller, the task's, a faction. */
async function invokerFor(r: Real, s: Snapshot, intent: Intent): Promise<Invoker | null> {
  const flowState = (id: unknown) =>
    s.flows.find((f) => f.id === Number(id))?.state as Record<string, unknown>;
  const conflict = s.flows.find(
    (f) => f.status === "open" && (f.state as { conflict?: unknown }).conflict !== undefined,
  );
  const sideOf = (characterId: number) => {
    const participants =
      (conflict?.state as { conflict?: { participants: { characterId: string; side: string }[] } })?.conflict
        ?.participants ?? [];
    const p = participants.find((x) => x.characterId === String(characterId));
    const kind = CHARACTERS.find((c) => r.ids[c.name] === characterId)?.kind ?? "npc";
    return p?.side ?? kind;
  };
  const character = (id: number): Invoker => ({ id: String(id), side: sideOf(id) });
  if (intent.type === "invoke" && intent.check !== undefined) {
    const state = flowState(String(intent.check).replace("#", ""));
    return state ? character(Number(state.rollerId)) : null;
  }
  if (intent.type === "invoke" && intent.flowId !== undefined) {
    const state = flowState(intent.flowId);
    return state ? character(Number(state.rollerId)) : null;
  }
  if (intent.type === "fate-challenge.invoke") {
    const state = flowState(intent.flowId) as { tasks?: { roll?: { characterId: string } }[] };
    const roll = state?.tasks?.[Number(intent.task)]?.roll;
    return roll ? character(Number(roll.characterId)) : null;
  }
  if (intent.type === "faction.invoke") {
    const state = flowState(intent.flowId) as { factionId?: string };
    return state?.factionId ? { id: `faction:${state.factionId}`, side: null } : null;
  }
  return null;
}

/** Fate points replayed from the log: each entry's before is the running count, its after the next. */
async function checkFatePointLedger(r: Real, s: Snapshot) {
  const entries = await r.app.db.logEntry.findMany({
    where: { tableId: r.tableId, characterId: { not: null } },
    orderBy: { id: "asc" },
  });
  for (const c of s.characters) {
    let running = r.initialFp[c.id];
    if (running === undefined) continue;
    for (const e of entries) {
      if (e.characterId !== c.id) continue;
      const before = (e.before as { fatePoints?: unknown } | null)?.fatePoints;
      const after = (e.after as { fatePoints?: unknown } | null)?.fatePoints;
      if (typeof after !== "number") continue;
      if (typeof before === "number")
        expect(before, `${e.action} #${e.id}: fate points before, by the log`).toBe(running);
      running = after;
    }
    expect(running, `the fate points of character ${c.id}, by the log`).toBe(c.fp);
  }
}

/** One action, as the router would run it, and the invariants after it. */
async function act(r: Real, who: Who, intent: Intent): Promise<Executed | null> {
  const before = await snapshot(r);
  const logBefore = await r.app.db.logEntry.count({ where: { tableId: r.tableId } });
  const invoker = await invokerFor(r, before, intent);
  r.steps += 1;
  let executed: Executed;
  try {
    executed = await r.app.run(USERS[who], intent, { channelId: r.channelId });
  } catch (error) {
    if (!(error instanceof DomainError)) {
      throw new Error(`internal error on ${who} ${JSON.stringify(intent)}: ${String(error)}`, {
        cause: error,
      });
    }
    r.refusals += 1;
    if (process.env.FATE_MODEL_DEBUG) console.log(who, intent.type, error.code);
    // A refusal changes nothing.
    expect(await snapshot(r), `refused ${error.code} on ${JSON.stringify(intent)}`).toEqual(before);
    return null;
  }
  if (process.env.FATE_MODEL_DEBUG) console.log(who, intent.type, "ok");
  // Remember what the bot offers for a flow (the ways to take a hit).
  const flowId = executed.result.replyIsPanelOf ?? ("flowId" in intent ? Number(intent.flowId) : undefined);
  for (const c of (executed.result.reply?.rows ?? []).flat())
    if (c.kind === "select" && c.intent.type === "fate.absorb" && flowId)
      r.offered.set(
        Number(c.intent.flowId),
        c.options.map((o) => o.value),
      );
  const after = await snapshot(r);
  await checkFatePointLedger(r, after);
  // Stress and consequences change only with a log entry for that character.
  const logged = new Set(
    (
      await r.app.db.logEntry.findMany({
        where: { tableId: r.tableId },
        orderBy: { id: "asc" },
        skip: logBefore,
      })
    ).map((e) => e.characterId),
  );
  for (const c of after.characters) {
    const old = before.characters.find((x) => x.id === c.id);
    const harm = (sheet: unknown) => {
      const s = sheet as { stress?: unknown; consequences?: { id: string; taken: boolean }[] };
      return JSON.stringify([s.stress, (s.consequences ?? []).map((x) => [x.id, x.taken])]);
    };
    if (old && harm(old.sheet) !== harm(c.sheet))
      expect(logged.has(c.id), `a change of ${c.id}'s stress on ${intent.type} is logged`).toBe(true);
  }
  // Free invokes: only the invoker's side's are ever spent.
  const was = freeInvokes(before);
  const now = freeInvokes(after);
  for (const [key, seen] of was) {
    const left = [...(now.get(key)?.holders ?? [])];
    const spent: FreeInvoke[] = [];
    for (const h of seen.holders) {
      const i = left.findIndex((x) => x.holderId === h.holderId && (x.side ?? null) === (h.side ?? null));
      if (i >= 0) left.splice(i, 1);
      else spent.push(h);
    }
    if (spent.length === 0 || !invoker) continue;
    for (const h of spent)
      expect(
        mayUseFreeInvoke(h, invoker),
        `${intent.type} spent ${JSON.stringify(h)} of «${seen.where}»`,
      ).toBe(true);
  }
  return executed;
}

/** An open flow of a kind, picked by index at run time (null: none open). */
async function pickFlow(r: Real, kind: string, pick: number) {
  const flows = await r.app.db.flow.findMany({
    where: { tableId: r.tableId, kind, status: "open" },
    orderBy: { id: "asc" },
  });
  return flows.length === 0 ? null : flows[pick % flows.length]!;
}

async function pickAspectName(r: Real, pick: number): Promise<string> {
  const s = await snapshot(r);
  const names = [
    ...s.aspects.filter((a) => !a.removedAt).map((a) => a.name),
    ...[...freeInvokes(s).values()].map((a) => a.where),
    ...ASPECT_NAMES,
  ];
  return names[pick % names.length]!;
}

/** The user who plays a character: its player, the GM for the GM's. */
function controllerOf(r: Real, characterId: unknown): Who {
  const c = CHARACTERS.find((x) => r.ids[x.name] === Number(characterId));
  return c?.owner ?? "GM";
}

/** An intent, and who sends it when not the step's own user (the player the panel is for). */
type Made = Intent | { as: Who; intent: Intent } | null;

class Step implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly label: string,
    readonly who: Who,
    readonly make: (r: Real) => Promise<Made>,
  ) {}
  check() {
    return true;
  }
  async run(_m: Model, r: Real) {
    const made = await this.make(r);
    if (!made) return;
    const wrapped = made as { as?: Who; intent?: Intent };
    if (wrapped.as && wrapped.intent) await act(r, wrapped.as, wrapped.intent);
    else await act(r, this.who, made as Intent);
  }
  toString() {
    return `${this.who} ${this.label}`;
  }
}

const who = fc.constantFrom<Who>("GM", "P1", "P2", "P3");
/** Mostly the GM: for the GM's own actions (a player's try is refused). */
const gmMostly = fc.constantFrom<Who>("GM", "GM", "GM", "GM", "P1", "P2");
/** Mostly none (a player's own character), now and then somebody else's. */
const someoneOrNone = fc.constantFrom<string | undefined>(
  undefined,
  undefined,
  undefined,
  undefined,
  ...NAMES,
);
const pick = fc.nat(50);
const name = fc.constantFrom(...NAMES);
const skill = fc.constantFrom(...SKILLS);
const mode = fc.constantFrom<"plus2" | "reroll">("plus2", "reroll");
const pay = fc.constantFrom<"free-invoke" | "fate-point" | undefined>("free-invoke", "fate-point", undefined);
/** The GM acts for one of the GM's characters; a player for their own (sometimes another's: refused). */
const actorAndCharacter = fc.tuple(who, someoneOrNone).map(([w, c]) => ({
  w,
  character: w === "GM" ? (c === "Eira" ? "Eira" : "Drago") : c,
}));

const steps = [
  // Checks, of every action, with and without a difficulty or a target.
  fc
    .record({
      a: actorAndCharacter,
      skill,
      action: fc.constantFrom(
        "overcome",
        "advantage",
        "advantage",
        "attack",
        "attack",
        "attack",
        "defend",
        undefined,
      ),
      vs: fc.option(fc.integer({ min: -1, max: 4 }), { nil: undefined }),
      target: fc.option(name, { nil: undefined }),
      aspect: fc.option(fc.constantFrom(...ASPECT_NAMES), { nil: undefined }),
    })
    .map(
      (p) =>
        new Step(`check ${JSON.stringify(p)}`, p.a.w, async () => ({
          type: "check",
          skill: p.skill,
          ...(p.action ? { action: p.action as "overcome" } : {}),
          ...(p.vs !== undefined ? { vs: p.vs } : {}),
          // A target and an aspect go with the actions that take them, now and then with another (refused).
          ...(p.target && (p.action === "attack" || p.action === "advantage" || p.skill === "stealth")
            ? { target: p.target }
            : {}),
          ...(p.a.character ? { character: p.a.character } : {}),
          ...(p.aspect && (p.action === "advantage" || p.skill === "stealth") ? { aspect: p.aspect } : {}),
        })),
    ),
  // Invokes from the check panel (menu and select), and by /invoke naming the check.
  fc.record({ w: who, pick, aspect: pick, mode, pay, slash: fc.boolean(), stranger: fc.boolean() }).map(
    (p) =>
      new Step(`invoke ${JSON.stringify(p)}`, p.w, async (r): Promise<Made> => {
        const flow = await pickFlow(r, "fate.check", p.pick);
        if (!flow) return null;
        const aspect = await pickAspectName(r, p.aspect);
        const intent: Intent = p.slash
          ? { type: "invoke", aspect, mode: p.mode, ...(p.pay ? { pay: p.pay } : {}), check: `#${flow.id}` }
          : { type: "invoke", aspect, mode: p.mode, flowId: flow.id };
        const roller = (flow.state as { rollerId: number }).rollerId;
        return p.stranger ? intent : { as: controllerOf(r, roller), intent };
      }),
  ),
  fc.record({ w: who, pick, mode }).map(
    (p) =>
      new Step(`invoke-menu ${JSON.stringify(p)}`, p.w, async (r): Promise<Made> => {
        const flow = await pickFlow(r, "fate.check", p.pick);
        if (!flow) return null;
        const roller = (flow.state as { rollerId: number }).rollerId;
        return {
          as: controllerOf(r, roller),
          intent: { type: "fate.invoke-menu", flowId: flow.id, mode: p.mode },
        };
      }),
  ),
  fc.record({ w: who, pick, vs: fc.integer({ min: 0, max: 4 }) }).map(
    (p) =>
      new Step(`set-difficulty ${JSON.stringify(p)}`, p.w, async (r) => {
        const flow = await pickFlow(r, "fate.check", p.pick);
        return flow ? { type: "fate.set-difficulty", flowId: flow.id, vs: p.vs } : null;
      }),
  ),
  fc
    .record({
      w: who,
      pick,
      what: fc.constantFrom("claim", "defend", "apply", "resolve", "trade"),
      skill,
      kind: fc.constantFrom<"physical" | "mental" | undefined>("physical", "mental", undefined),
      stranger: fc.boolean(),
    })
    .map(
      (p) =>
        new Step(`attack-step ${JSON.stringify(p)}`, p.w, async (r): Promise<Made> => {
          const flow = await pickFlow(r, "fate.check", p.pick);
          if (!flow) return null;
          const flowId = flow.id;
          const state = flow.state as { rollerId: number; targetId: number | null };
          // The roller claims and trades; the target defends and applies; either settles.
          const as = (id: unknown, intent: Intent): Made =>
            p.stranger ? intent : { as: controllerOf(r, id), intent };
          if (p.what === "claim") return as(state.rollerId, { type: "fate.claim-advantage", flowId });
          if (p.what === "defend") return as(state.targetId, { type: "fate.defend", flowId, skill: p.skill });
          if (p.what === "apply")
            return as(state.targetId, {
              type: "fate.apply-hit",
              flowId,
              ...(p.kind ? { kind: p.kind } : {}),
            });
          if (p.what === "resolve") return as(state.rollerId, { type: "fate.resolve-attack", flowId });
          return as(state.rollerId, { type: "fate.trade-boost", flowId });
        }),
    ),
  fc.record({ w: who, pick, option: pick }).map(
    (p) =>
      new Step(`absorb ${JSON.stringify(p)}`, p.w, async (r): Promise<Made> => {
        const flow = await pickFlow(r, "fate.hit", p.pick);
        if (!flow) return null;
        const options = r.offered.get(flow.id) ?? [];
        const option = options.length > 0 ? options[p.option % options.length] : undefined;
        const target = (flow.state as { targetId?: number }).targetId;
        const intent: Intent = { type: "fate.absorb", flowId: flow.id, ...(option ? { option } : {}) };
        return { as: controllerOf(r, target), intent };
      }),
  ),
  // Compels and their answers.
  fc
    .record({
      w: who,
      target: name,
      aspect: pick,
      points: fc.integer({ min: 1, max: 3 }),
      by: fc.option(name),
    })
    .map(
      (p) =>
        new Step(`compel ${JSON.stringify(p)}`, p.w, async (r) => ({
          type: "compel",
          target: p.target,
          aspect: await pickAspectName(r, p.aspect),
          points: p.points,
          ...(p.by && p.w !== "GM" ? { by: p.by } : {}),
        })),
    ),
  fc.record({ w: who, pick, answer: fc.constantFrom("accept", "buyoff", "gm-agree", "gm-decline") }).map(
    (p) =>
      new Step(`compel-answer ${JSON.stringify(p)}`, p.w, async (r): Promise<Made> => {
        const flow = await pickFlow(r, "fate.compel", p.pick);
        if (!flow) return null;
        const intent = { type: `compel.${p.answer}`, flowId: flow.id } as Intent;
        const target = (flow.state as { targetId: number }).targetId;
        return p.answer.startsWith("gm") ? { as: "GM", intent } : { as: controllerOf(r, target), intent };
      }),
  ),
  // Conflicts.
  fc
    .record({
      w: who,
      what: fc.constantFrom(
        "start",
        "start",
        "join",
        "join",
        "leave",
        "next",
        "next",
        "concede",
        "end",
        "show",
      ),
      character: someoneOrNone,
      side: fc.option(fc.constantFrom<"pc" | "npc">("pc", "npc"), { nil: undefined }),
    })
    .map(
      (p) =>
        new Step(
          `conflict ${JSON.stringify(p)}`,
          p.what === "start" || p.what === "end" ? "GM" : p.w,
          async (): Promise<Intent> => {
            if (p.what === "start") return { type: "conflict.start", title: "Brawl" };
            if (p.what === "join")
              return {
                type: "conflict.join",
                ...(p.character ? { character: p.character } : {}),
                ...(p.side ? { side: p.side } : {}),
              };
            if (p.what === "leave" || p.what === "concede")
              return { type: `conflict.${p.what}`, ...(p.character ? { character: p.character } : {}) };
            return { type: `conflict.${p.what}` } as Intent;
          },
        ),
    ),
  // Contests.
  fc
    .record({
      w: who,
      what: fc.constantFrom("start", "roll", "roll", "resolve", "end", "show"),
      first: name,
      second: name,
      skill,
      forfeit: fc.boolean(),
      character: someoneOrNone,
    })
    .map(
      (p) =>
        new Step(
          `contest ${JSON.stringify(p)}`,
          p.what === "start" ? "GM" : p.w,
          async (): Promise<Intent> => {
            if (p.what === "start")
              return { type: "contest.start", first: p.first, second: p.second, title: "Race" };
            if (p.what === "roll")
              return p.forfeit && p.skill === "lore"
                ? { type: "contest.roll", forfeit: true }
                : {
                    type: "contest.roll",
                    skill: p.skill,
                    ...(p.character ? { character: p.character } : {}),
                  };
            return { type: `contest.${p.what}` } as Intent;
          },
        ),
    ),
  // Challenges, with invokes from their panel.
  fc
    .record({
      w: who,
      what: fc.constantFrom("start", "roll", "roll", "invoke", "menu", "end", "show"),
      task: fc.integer({ min: 0, max: 2 }),
      skill,
      aspect: pick,
      mode,
      character: someoneOrNone,
    })
    .map(
      (p) =>
        new Step(
          `challenge ${JSON.stringify(p)}`,
          p.what === "start" ? "GM" : p.w,
          async (r): Promise<Intent | null> => {
            if (p.what === "start")
              return { type: "fate-challenge.start", title: "Flood", tasks: "Athletics, Lore, Notice" };
            if (p.what === "roll")
              return {
                type: "fate-challenge.roll",
                task: String(p.task + 1),
                skill: p.skill,
                ...(p.character ? { character: p.character } : {}),
              };
            if (p.what === "end" || p.what === "show") return { type: `fate-challenge.${p.what}` } as Intent;
            const flow = await pickFlow(r, "fate.challenge", 0);
            if (!flow) return null;
            if (p.what === "menu")
              return { type: "fate-challenge.invoke-menu", flowId: flow.id, mode: p.mode };
            return {
              type: "fate-challenge.invoke",
              flowId: flow.id,
              mode: p.mode,
              task: p.task,
              aspect: await pickAspectName(r, p.aspect),
            };
          },
        ),
    ),
  // Factions: checks with invokes, hits, naming, scenes, fate points.
  fc
    .record({
      w: gmMostly,
      what: fc.constantFrom("check", "invoke", "hit", "name", "scene", "fp"),
      pick,
      aspect: pick,
      mode,
      shifts: fc.integer({ min: 0, max: 8 }),
      track: fc.constantFrom<"politics" | "army" | "economy">("politics", "army", "economy"),
      consequence: fc.option(fc.constantFrom("Riot in the port", "Empty coffers"), { nil: undefined }),
      from: fc.option(name, { nil: undefined }),
    })
    .map(
      (p) =>
        new Step(`faction ${JSON.stringify(p)}`, p.w, async (r): Promise<Intent | null> => {
          const faction = "Guild";
          if (p.what === "check")
            return { type: "faction.check", faction, ability: "commerce", vs: p.shifts % 4 };
          if (p.what === "invoke") {
            const flow = await pickFlow(r, "fate.faction-check", p.pick);
            if (!flow) return null;
            return {
              type: "faction.invoke",
              flowId: flow.id,
              mode: p.mode,
              aspect: await pickAspectName(r, p.aspect),
            };
          }
          if (p.what === "hit")
            return {
              type: "faction.hit",
              name: faction,
              shifts: p.shifts,
              track: p.track,
              ...(p.consequence ? { consequence: p.consequence } : {}),
            };
          if (p.what === "name")
            return { type: "faction.consequence", name: faction, consequence: p.consequence ?? "Unrest" };
          if (p.what === "scene")
            return { type: "faction.scene", name: faction, ...(p.from ? { from: p.from } : {}) };
          return { type: "faction.fp", name: faction, amount: (p.shifts % 3) - 1 };
        }),
    ),
  // Hits and consequences by hand, aspects, fate points, the end of a scene and of a week.
  fc
    .record({
      w: who,
      what: fc.constantFrom("hit", "name", "clear", "aspect", "boost", "spend", "give", "scene", "week"),
      character: name,
      shifts: fc.integer({ min: 0, max: 7 }),
      severity: fc.option(fc.constantFrom<"mild" | "moderate" | "severe">("mild", "moderate", "severe"), {
        nil: undefined,
      }),
      aspect: fc.constantFrom(...ASPECT_NAMES),
      invokes: fc.integer({ min: 0, max: 2 }),
    })
    .map(
      (p) =>
        new Step(`table ${JSON.stringify(p)}`, p.w, async (): Promise<Intent> => {
          switch (p.what) {
            case "hit":
              return { type: "stress.hit", character: p.character, shifts: p.shifts };
            case "name":
              return {
                type: "consequence.add",
                character: p.character,
                name: "Bruised",
                ...(p.severity ? { severity: p.severity } : {}),
              };
            case "clear":
              return { type: "consequence.clear", character: p.character, severity: p.severity ?? "mild" };
            case "aspect":
              return { type: "aspect.add", name: p.aspect, invokes: p.invokes };
            case "boost":
              return { type: "aspect.add", name: `${p.aspect} ${p.shifts}`, kind: "boost" };
            case "spend":
              return p.shifts % 2 === 0
                ? { type: "fp.spend", on: "detail", reason: "a detail" }
                : { type: "fp.spend", on: "passive", reason: "harder", aspect: p.aspect };
            case "give":
              return { type: "fp.give", character: p.character, amount: (p.shifts % 3) - 1 };
            case "scene":
              return { type: "stress.clear" };
            default:
              return { type: "fp.refresh" };
          }
        }),
    ),
];

/** Checks, invokes, attacks, hits and conflicts come up more often: that is where play goes on. */
const weighted = [
  ...steps,
  steps[0]!,
  steps[0]!,
  steps[1]!,
  steps[4]!,
  steps[4]!,
  steps[5]!,
  steps[8]!,
  steps[9]!,
];

async function newTable(app: AppHarness, index: number, seed: number): Promise<Real> {
  const channelId = String(500000000000000000n + BigInt(index));
  app.useDice(seededDice(seed));
  const r: Real = {
    app,
    channelId,
    tableId: 0,
    ids: {},
    initialFp: {},
    offered: new Map(),
    steps: 0,
    refusals: 0,
  };
  const run = (w: Who, intent: Intent) => app.run(USERS[w], intent, { channelId });
  await run("GM", { type: "table.setup", system: "fate" });
  for (const c of CHARACTERS)
    await run(c.owner, {
      type: "character.create",
      name: c.name,
      ...(c.kind === "npc" ? { kind: "npc" } : {}),
    });
  await run("P1", { type: "character.skill", ranks: "athletics 4, notice 3, lore 3, fight 2" });
  await run("P2", { type: "character.skill", ranks: "fight 4, will 3, physique 3" });
  await run("P3", { type: "character.skill", ranks: "lore 4, provoke 3, stealth 2" });
  await run("GM", { type: "character.skill", ranks: "fight 3, notice 2", character: "Drago" });
  await run("P1", { type: "aspect.add", name: "Never backs down", character: "Aster", kind: "flaw" });
  await run("GM", { type: "aspect.add", name: "Storm", invokes: 1 });
  await run("GM", {
    type: "faction.create",
    name: "Guild",
    abilities: "commerce 4, resources 3, popularity 2, espionage 1, art 1",
    aspects: "Old grudges; Deep pockets; Too many rivals",
  });
  const table = await app.db.gameTable.findFirstOrThrow({ where: { channelId } });
  r.tableId = table.id;
  for (const c of await app.db.character.findMany({ where: { tableId: table.id } })) {
    r.ids[c.name] = c.id;
    r.initialFp[c.id] = c.fatePoints;
  }
  return r;
}

/**
 * Liveness: from whatever state the sequence left, the actions the bot offers (the GM's
 * `/conflict end`, `/fate-challenge end`, `/contest end`, the scene's end) leave nothing in
 * progress, and the table plays on (a new contest starts).
 */
async function bringBackToNothingInProgress(r: Real) {
  const gm = (intent: Intent) => act(r, "GM", intent);
  await gm({ type: "conflict.end" });
  await gm({ type: "fate-challenge.end" });
  await gm({ type: "contest.end" });
  await gm({ type: "stress.clear" });
  const open = await r.app.db.flow.findMany({
    where: { tableId: r.tableId, status: "open", kind: { in: IN_PROGRESS } },
  });
  expect(
    open.map((f) => `${f.kind} #${f.id}`),
    "in progress after the GM ended everything",
  ).toEqual([]);
  expect(await gm({ type: "contest.start", first: "Aster", second: "Bryn" })).not.toBeNull();
  await gm({ type: "contest.end" });
}

describe("Fate: a model of the table played at random (app layer, real PostgreSQL)", () => {
  let app: AppHarness;
  let tables = 0;
  const totals = { steps: 0, refusals: 0 };
  beforeAll(async () => {
    app = await createAppHarness();
  });
  afterAll(async () => app.close());

  it("after every step: no internal error, the books balance, free invokes stay with their side; every state comes back to nothing in progress", async () => {
    const runs = Number(process.env.FATE_MODEL_RUNS ?? 12);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.commands(weighted, { size: "max", maxCommands: 60 }),
        async (seed, commands) => {
          tables += 1;
          const r = await newTable(app, tables, seed);
          await fc.asyncModelRun(() => ({ model: {}, real: r }), commands);
          await bringBackToNothingInProgress(r);
          totals.steps += r.steps;
          totals.refusals += r.refusals;
        },
      ),
      { numRuns: runs, endOnFailure: true },
    );
    expect(totals.steps).toBeGreaterThan(runs * 5);
    // Both kinds happen: actions that work and actions refused.
    expect(totals.refusals).toBeGreaterThan(0);
    expect(totals.steps - totals.refusals).toBeGreaterThan(runs * 3);
  }, 120_000);
});
