import { decodeIntent } from "../src/discord/custom-id.js";
import type { DiscordDouble, InteractionHandle, MessageView } from "../src/double/index.js";
import type { Role, Scenario, SlashStep, Step, StepContext, TableWorld } from "./scenarios.js";
import { prng } from "./stats.js";

/** A click looks for its button among a channel's newest messages only: the scenario posted it moments ago. */
const RECENT = 50;

/** One interaction as the benchmark saw it. Times are ms after dispatch (performance.now()). */
export interface Sample {
  phase: string;
  scenario: string;
  /** "roll", "table show", "click conflict.join", "autocomplete character show", … */
  label: string;
  cls: "roll" | "db";
  interactionId: string;
  dispatchedAt: number;
  ackMs: number | null;
  finalMs: number | null;
  error: string | null;
  /** The text of a refusal ("⚠️ …" ephemeral answer), to tell a scenario that does not fit the rules. */
  refusal?: string;
}

/**
 * Hands out dispatch slots at `rate` per second to whoever waits, first come first served, so many
 * tables act concurrently and the total rate is what was asked for. A slot nobody took within
 * `slackMs` is lost (and the achieved rate says so) rather than bursting later.
 */
export class Pacer {
  private readonly waiting: Array<(ok: boolean) => void> = [];
  private issued = 0;
  private start = performance.now();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private rate: number,
    private readonly slackMs = 50,
  ) {}

  begin(rate = this.rate): void {
    this.rate = rate;
    this.issued = 0;
    this.start = performance.now();
    this.stopped = false;
    if (!this.timer) this.tick();
  }

  private tick = () => {
    const now = performance.now();
    const due = Math.floor(((now - this.start) / 1000) * this.rate);
    // Slots older than the slack are dropped, so a stall is not followed by a burst.
    const oldestAllowed = Math.floor(((now - this.slackMs - this.start) / 1000) * this.rate);
    if (this.issued < oldestAllowed) this.issued = oldestAllowed;
    while (this.issued < due && this.waiting.length > 0) {
      this.issued += 1;
      this.waiting.shift()?.(true);
    }
    this.timer = this.stopped ? null : setTimeout(this.tick, 1);
  };

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Resolves true when it is this caller's turn, false once stopped. */
  take(): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    for (const w of this.waiting.splice(0)) w(false);
  }
}

export class ScenarioError extends Error {}

/**
 * Runs scenarios' steps against the double, timing every interaction. Once the pacer stops, a table
 * finishes the scenario it is in — its remaining steps at once, in the "cooldown" phase no summary
 * counts — and then stops: the next phase finds no half-played conflict or challenge left open
 * (which would make its rounds refused).
 */
export class Driver {
  readonly samples: Sample[] = [];
  phase = "setup";
  /** Scenario runs that could not go on (act refused by the double, missing button…), by scenario. */
  readonly broken = new Map<string, { count: number; last: string }>();
  private inFlight = 0;
  private idle: (() => void) | null = null;

  constructor(
    private readonly double: DiscordDouble,
    private readonly pacer: Pacer | null,
    private readonly timeoutMs = 10_000,
  ) {}

  async runScenario(
    table: TableWorld,
    scenario: Scenario,
    steps: Step[],
    random: () => number,
  ): Promise<boolean> {
    try {
      for (const step of steps) await this.runStep(table, scenario, step, random);
    } catch (error) {
      const entry = this.broken.get(scenario.name) ?? { count: 0, last: "" };
      entry.count += 1;
      entry.last = error instanceof Error ? error.message.slice(0, 300) : String(error);
      this.broken.set(scenario.name, entry);
    }
    return !this.pacer?.isStopped;
  }

  /** Waits for a dispatch slot; false when the pacer has stopped (the step then goes at once, unmeasured). */
  private async paced(): Promise<boolean> {
    return this.pacer ? this.pacer.take() : true;
  }

  private actorOf(
    table: TableWorld,
    role: Role,
    random: () => number,
  ): { actor: string; playerIndex: number } {
    if (role === "gm") return { actor: table.gm, playerIndex: -1 };
    const index = role === "player" ? Math.floor(random() * table.players.length) : Number(role.slice(1));
    return { actor: table.players[index] as string, playerIndex: index };
  }

  private async runStep(
    table: TableWorld,
    scenario: Scenario,
    step: Step,
    random: () => number,
  ): Promise<void> {
    if ("parallel" in step) {
      await Promise.all(step.parallel.map((s) => this.runStep(table, scenario, s, random)));
      return;
    }
    const who = this.actorOf(table, step.as, random);
    const ctx: StepContext = { table, ...who, random };
    if ("click" in step) {
      // Look for the button only once it is this click's turn: panels change while waiting.
      const inWindow = await this.paced();
      const target = this.findButton(table, who.actor, step.on, step.click);
      if (!target) {
        if (!step.else) throw new ScenarioError(`no button ${step.click} on ${step.on}`);
        const other = { ...ctx, ...this.actorOf(table, step.else.as, random) };
        return this.slash(table, scenario, step.else, other, inWindow);
      }
      return this.timed(
        scenario,
        `click ${step.click}`,
        () => this.double.click(who.actor, target.messageId, target.customId),
        undefined,
        inWindow,
      );
    }
    if ("autocomplete" in step) {
      const [command, ...path] = step.autocomplete.split(" ");
      const options = typeof step.options === "function" ? step.options(ctx) : step.options;
      const inWindow = await this.paced();
      const sample = this.newSample(scenario, `autocomplete ${step.autocomplete}`, inWindow);
      const started = performance.now();
      this.enter();
      try {
        await this.double.autocomplete(
          who.actor,
          table.channelId,
          command as string,
          path,
          options,
          step.focused,
          {
            timeoutMs: this.timeoutMs,
          },
        );
        sample.ackMs = sample.finalMs = performance.now() - started;
      } catch (error) {
        sample.error = String((error as Error).message ?? error).slice(0, 300);
      } finally {
        this.leave();
      }
      return;
    }
    return this.slash(table, scenario, step, ctx);
  }

  private async slash(
    table: TableWorld,
    scenario: Scenario,
    step: SlashStep,
    ctx: StepContext,
    /** Set when the caller already waited for the slot: whether it came in the window. */
    inWindow?: boolean,
  ): Promise<void> {
    const [command, ...path] = step.slash.split(" ");
    const options = typeof step.options === "function" ? step.options(ctx) : (step.options ?? {});
    const channel = step.dm ? this.double.dmChannelOf(ctx.actor) : table.channelId;
    let messageId: string | undefined;
    await this.timed(
      scenario,
      step.slash,
      () => this.double.slash(ctx.actor, channel, command as string, path, options),
      (view) => {
        messageId = view?.id;
      },
      inWindow,
    );
    if (step.remember && messageId) table.remembered[step.remember] = messageId;
  }

  private newSample(scenario: Scenario, label: string, inWindow: boolean): Sample {
    const sample: Sample = {
      phase: inWindow ? this.phase : "cooldown",
      scenario: scenario.name,
      label,
      cls: label === "roll" ? "roll" : "db",
      interactionId: "",
      dispatchedAt: performance.now(),
      ackMs: null,
      finalMs: null,
      error: null,
    };
    this.samples.push(sample);
    return sample;
  }

  /** Takes a slot (unless taken), dispatches, and records ack (initial callback) and final (settled) latency. */
  private async timed(
    scenario: Scenario,
    label: string,
    act: () => InteractionHandle,
    onSettled?: (message: MessageView | null) => void,
    inWindow?: boolean,
  ): Promise<void> {
    const sample = this.newSample(scenario, label, inWindow ?? (await this.paced()));
    const started = performance.now();
    sample.dispatchedAt = started;
    let handle: InteractionHandle;
    try {
      handle = act();
    } catch (error) {
      this.samples.pop();
      throw new ScenarioError(`${label}: ${(error as Error).message}`);
    }
    sample.interactionId = handle.id;
    this.enter();
    try {
      await handle.response({ timeoutMs: this.timeoutMs });
      sample.ackMs = performance.now() - started;
      const settled = await handle.settled({ timeoutMs: this.timeoutMs });
      sample.finalMs = performance.now() - started;
      const answer = settled.followups.at(-1) ?? settled.original ?? null;
      if (answer?.ephemeral && answer.text.startsWith("⚠️")) sample.refusal = answer.text.slice(0, 160);
      onSettled?.(settled.original ?? settled.followups[0] ?? null);
    } catch (error) {
      sample.error = String((error as Error).message ?? error).slice(0, 300);
    } finally {
      this.leave();
    }
  }

  private findButton(
    table: TableWorld,
    actor: string,
    on: string,
    intentType: string,
  ): { messageId: string; customId: string } | null {
    const candidates: MessageView[] =
      on === "channel"
        ? this.double.channelMessages(table.channelId, { newest: RECENT }).reverse()
        : on === "dm"
          ? this.double.dmsOf(actor, { newest: RECENT }).reverse()
          : table.remembered[on]
            ? [this.double.message(table.remembered[on] as string)]
            : [];
    for (const message of candidates) {
      if (message.deleted) continue;
      for (const row of message.components as Array<{
        components?: Array<{ custom_id?: string; disabled?: boolean }>;
      }>) {
        for (const c of row.components ?? []) {
          if (c.custom_id && !c.disabled && decodeIntent(c.custom_id)?.type === intentType) {
            return { messageId: message.id, customId: c.custom_id };
          }
        }
      }
    }
    return null;
  }

  private enter() {
    this.inFlight += 1;
  }

  private leave() {
    this.inFlight -= 1;
    if (this.inFlight === 0) this.idle?.();
  }

  /** Resolves when no interaction is waiting for an answer (or after `timeoutMs`). */
  drain(timeoutMs = 15_000): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.idle = () => {
        clearTimeout(timer);
        this.idle = null;
        resolve();
      };
    });
  }
}

/** Picks a scenario by weight among those a table's system allows. */
export function chooser(scenarios: readonly Scenario[]) {
  return (table: TableWorld, random: () => number): Scenario | null => {
    const allowed = scenarios.filter((s) => !s.systems || s.systems.includes(table.system));
    const total = allowed.reduce((sum, s) => sum + s.weight, 0);
    let r = random() * total;
    for (const s of allowed) {
      r -= s.weight;
      if (r < 0) return s;
    }
    return allowed.at(-1) ?? null;
  };
}

/**
 * Every table acts in its own loop (choose a scenario, run it, repeat) until the pacer stops;
 * the pacer spreads the requested rate over all of them.
 */
export async function runTables(
  driver: Driver,
  tables: readonly TableWorld[],
  scenarios: readonly Scenario[],
  seed: number,
): Promise<void> {
  const choose = chooser(scenarios);
  await Promise.all(
    tables.map(async (table) => {
      const random = prng(seed + table.index * 7919);
      for (;;) {
        const scenario = choose(table, random);
        if (!scenario) return;
        if (!(await driver.runScenario(table, scenario, scenario.steps, random))) return;
      }
    }),
  );
}
