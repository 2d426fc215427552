import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ActError, basePayload, buildCommandData, buildComponentData, buildModalData } from "./acts.js";
import { ApiError, Errors } from "./errors.js";
import { Faults } from "./faults.js";
import { Gateway } from "./gateway.js";
import { interactionToken, snowflake, snowflakeOnShard } from "./ids.js";
import { RestApi } from "./routes.js";
import {
  type ChannelRec,
  type InteractionRec,
  type MessageRec,
  Store,
  UPLOADS,
  type UploadedPart,
  type UserRec,
} from "./store.js";
import type {
  ActOptions,
  ChannelInit,
  DoubleOptions,
  GuildInit,
  InteractionKind,
  InteractionResponse,
  InteractionView,
  Json,
  MessageView,
  OptionValue,
  RequestLogEntry,
  RoutePattern,
  SessionView,
  UserInit,
} from "./types.js";
import { MessageFlags } from "./validate-messages.js";

interface Waiter {
  check(): void;
  cancel(error: Error): void;
}

export interface WaitOptions {
  timeoutMs?: number;
}

type MessageRef = string | { id: string };

/** What a test gets back for each act: await the initial response, or the settled state. */
export class InteractionHandle {
  constructor(
    private readonly double: DiscordDouble,
    private readonly rec: InteractionRec,
    private readonly deadlineMs: number,
    private readonly defaultTimeoutMs: number,
  ) {}

  get id(): string {
    return this.rec.id;
  }

  get token(): string {
    return this.rec.token;
  }

  get label(): string {
    return this.rec.label;
  }

  /** The INTERACTION_CREATE payload as dispatched. */
  get payload(): Json {
    return structuredClone(this.rec.payload);
  }

  view(): InteractionView {
    return this.double.interaction(this.rec.id);
  }

  /**
   * Resolves with the accepted initial callback. Rejects when the bot answered after the deadline,
   * or when nothing acceptable arrived in time (the error lists refused callbacks).
   */
  response(opts: WaitOptions = {}): Promise<InteractionResponse> {
    const rec = this.rec;
    return this.double.waitFor(
      () => {
        if (rec.lateAttempts.length > 0 && !rec.ack) {
          const late = rec.lateAttempts[0] as { type: number; ms: number };
          throw new Error(
            `DiscordDouble: ${rec.label} was answered late: callback type ${late.type} after ${late.ms} ms (deadline ${this.deadlineMs} ms)`,
          );
        }
        if (!rec.ack) return null;
        const view = this.view();
        const message =
          rec.ack.type === 4 || rec.ack.type === 5 || rec.ack.type === 6 || rec.ack.type === 7
            ? view.original
            : null;
        return {
          type: rec.ack.type,
          ms: rec.ack.ms,
          ephemeral: message?.ephemeral ?? false,
          deferred: rec.ack.type === 5 || rec.ack.type === 6,
          message,
          modal: view.modal,
          choices: view.choices,
          interaction: view,
        };
      },
      {
        timeoutMs: opts.timeoutMs ?? this.defaultTimeoutMs,
        what: () => this.describeMissing("an initial response"),
      },
    );
  }

  /** Waits for the initial response and, when it was deferred (5/6), for the edit or first followup. */
  async settled(opts: WaitOptions = {}): Promise<InteractionView> {
    await this.response(opts);
    return this.double.waitFor(() => (this.rec.deferredPending ? null : this.view()), {
      timeoutMs: opts.timeoutMs ?? this.defaultTimeoutMs,
      what: () => this.describeMissing("the deferred response to be completed"),
    });
  }

  /** Waits until at least `count` followups exist. */
  followups(count = 1, opts: WaitOptions = {}): Promise<MessageView[]> {
    return this.double.waitFor(() => (this.rec.followupIds.length >= count ? this.view().followups : null), {
      timeoutMs: opts.timeoutMs ?? this.defaultTimeoutMs,
      what: () => this.describeMissing(`${count} followup(s)`),
    });
  }

  private describeMissing(what: string): string {
    const rec = this.rec;
    const parts = [`${what} to ${rec.label} (interaction ${rec.id})`];
    parts.push(
      rec.sessionId ? `delivered to gateway session ${rec.sessionId}` : "NOT delivered (no gateway session)",
    );
    if (rec.ack) parts.push(`acknowledged with type ${rec.ack.type} after ${rec.ack.ms} ms`);
    else parts.push(`no accepted callback (deadline ${this.deadlineMs} ms)`);
    for (const r of rec.rejected) {
      parts.push(
        `refused ${r.route}: ${r.status} ${r.code} ${r.message}${r.details.length ? ` [${r.details.join("; ")}]` : ""}`,
      );
    }
    return parts.join("; ");
  }
}

/**
 * A Discord-compatible REST + gateway server for end-to-end tests. Point a real discord.js client at
 * `apiBase` (`new Client({ rest: { api: apiBase } })`), then act as users and read what they saw.
 */
export class DiscordDouble {
  readonly token: string;
  readonly applicationId: string;
  readonly botUserId: string;

  private readonly store: Store;
  private readonly gateway: Gateway;
  private readonly rest: RestApi;
  private readonly faults = new Faults();
  private readonly waiters = new Set<Waiter>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly requestLog: RequestLogEntry[] = [];
  private readonly unknown: string[] = [];
  private readonly deadlineMs: number;
  private readonly tokenLifetimeMs: number;
  private readonly waitTimeoutMs: number;
  private readonly retryAfterMs: number;
  private readonly shardCount: number;
  private readonly logLine: (line: string) => void;
  private server: Server | null = null;
  private port = 0;
  private counter = 0;

  constructor(options: DoubleOptions = {}) {
    this.token = options.token ?? "double-bot-token";
    this.applicationId = options.applicationId ?? snowflake();
    this.botUserId = options.botUserId ?? this.applicationId;
    this.deadlineMs = options.interactionDeadlineMs ?? 3000;
    this.tokenLifetimeMs = options.tokenLifetimeMs ?? 15 * 60_000;
    this.waitTimeoutMs = options.waitTimeoutMs ?? this.deadlineMs + 2000;
    this.retryAfterMs = options.retryAfterMs ?? 300;
    this.shardCount = options.shardCount ?? 1;
    this.logLine = options.log ?? (() => {});
    const bot: UserRec = {
      id: this.botUserId,
      username: options.botUsername ?? "DoubleBot",
      globalName: options.botUsername ?? "DoubleBot",
      locale: "en-US",
      manageGuild: false,
      dmsClosed: false,
      bot: true,
      dmChannelId: null,
    };
    this.store = new Store(this.applicationId, bot);
    this.gateway = new Gateway({
      token: this.token,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
      readyBase: () => ({
        user: { ...this.store.userJson(bot), verified: true, mfa_enabled: false, email: null },
        application: { id: this.applicationId, flags: 0 },
      }),
      guildCreates: (shardId, count) => {
        // Channels grouped once, not filtered per guild: READY for thousands of guilds stays prompt.
        const channels = new Map<string, ChannelRec[]>();
        for (const c of this.store.channels.values()) {
          if (!c.guildId || c.deleted) continue;
          channels.set(c.guildId, [...(channels.get(c.guildId) ?? []), c]);
        }
        return [...this.store.guilds.values()]
          .filter((g) => Number((BigInt(g.id) >> 22n) % BigInt(count)) === shardId)
          .map((g) => this.store.guildCreateJson(g, channels.get(g.id) ?? []));
      },
      membersChunk: (request) => this.membersChunk(request),
      log: (line) => this.logLine(line),
      changed: () => this.changed(),
    });
    this.rest = new RestApi(this.store, {
      token: this.token,
      applicationId: this.applicationId,
      shardCount: this.shardCount,
      deadlineMs: this.deadlineMs,
      tokenLifetimeMs: this.tokenLifetimeMs,
      gatewayUrl: () => this.gatewayUrl,
      changed: () => this.changed(),
    });
  }

  // ===== lifecycle ============================================================================

  /** Starts listening on 127.0.0.1 (a free port). `apiBase` is what DISCORD_API_BASE should be. */
  async start(): Promise<{ apiBase: string; gatewayUrl: string; token: string; applicationId: string }> {
    if (this.server) throw new Error("DiscordDouble: already started");
    const server = createServer((req, res) => {
      void this.handle(req, res);
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.store.fileBase = `http://127.0.0.1:${this.port}`;
    this.gateway.attach(server, this.gatewayUrl);
    return {
      apiBase: this.apiBase,
      gatewayUrl: this.gatewayUrl,
      token: this.token,
      applicationId: this.applicationId,
    };
  }

  /** Closes sockets and the server, cancels pending waits and delays. Leaves no timers behind. */
  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t); // clearTimeout also clears intervals
    this.timers.clear();
    for (const w of [...this.waiters]) w.cancel(new Error("DiscordDouble: stopped while waiting"));
    this.gateway.close();
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get apiBase(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }

  get gatewayUrl(): string {
    return `ws://127.0.0.1:${this.port}/gateway`;
  }

  // ===== world ================================================================================

  addUser(init: UserInit = {}): string {
    const n = ++this.counter;
    const user: UserRec = {
      id: init.id ?? snowflake(),
      username: init.username ?? `user${n}`,
      globalName: init.globalName ?? init.username ?? `User ${n}`,
      locale: init.locale ?? "en-US",
      manageGuild: init.manageGuild ?? false,
      dmsClosed: init.dmsClosed ?? false,
      bot: false,
      dmChannelId: null,
    };
    if (this.store.users.has(user.id)) throw new Error(`DiscordDouble: user ${user.id} exists`);
    this.store.users.set(user.id, user);
    return user.id;
  }

  /** Changes a user's locale, Manage Server right or DM setting. */
  updateUser(
    userId: string,
    patch: Pick<UserInit, "locale" | "manageGuild" | "dmsClosed" | "globalName">,
  ): void {
    const user = this.store.user(userId);
    if (patch.locale !== undefined) user.locale = patch.locale;
    if (patch.manageGuild !== undefined) user.manageGuild = patch.manageGuild;
    if (patch.dmsClosed !== undefined) user.dmsClosed = patch.dmsClosed;
    if (patch.globalName !== undefined) user.globalName = patch.globalName;
  }

  addGuild(init: GuildInit = {}): string {
    const n = ++this.counter;
    const id =
      init.id ??
      (init.onShard ? snowflakeOnShard(init.onShard.shardId, init.onShard.shardCount) : snowflake());
    if (this.store.guilds.has(id)) throw new Error(`DiscordDouble: guild ${id} exists`);
    const guild = {
      id,
      name: init.name ?? `Guild ${n}`,
      preferredLocale: init.preferredLocale ?? "en-US",
      ownerId: init.ownerId ?? snowflake(),
      joinedAt: this.store.now(),
    };
    this.store.guilds.set(id, guild);
    this.gateway.dispatchAll(id, "GUILD_CREATE", this.store.guildCreateJson(guild));
    return id;
  }

  /**
   * The bot is removed from the guild and invited again, as a server admin would: Discord drops
   * the app's guild commands, sends GUILD_DELETE, then GUILD_CREATE with a new joined_at.
   */
  reinviteBot(guildId: string): void {
    const guild = this.store.guilds.get(guildId);
    if (!guild) throw new Error(`DiscordDouble: unknown guild ${guildId}`);
    for (const command of this.store.commandsFor(guildId)) this.store.commands.delete(command.id);
    this.gateway.dispatchAll(guildId, "GUILD_DELETE", { id: guildId });
    guild.joinedAt = Math.max(this.store.now(), guild.joinedAt + 1);
    this.gateway.dispatchAll(guildId, "GUILD_CREATE", this.store.guildCreateJson(guild));
  }

  addChannel(init: ChannelInit): string {
    const n = ++this.counter;
    if (!this.store.guilds.has(init.guildId)) throw new Error(`DiscordDouble: unknown guild ${init.guildId}`);
    const channel: ChannelRec = {
      id: init.id ?? snowflake(),
      type: 0,
      guildId: init.guildId,
      name: init.name ?? `channel-${n}`,
      recipientId: null,
      deleted: false,
      sendDenied: false,
      position: this.store.guildChannels(init.guildId).length,
    };
    this.store.channels.set(channel.id, channel);
    this.gateway.dispatchAll(init.guildId, "CHANNEL_CREATE", this.store.channelJson(channel));
    return channel.id;
  }

  /** The user's DM channel with the bot (created on first use); pass it to `slash` for DM context. */
  dmChannelOf(userId: string): string {
    return this.store.dmChannel(userId).id;
  }

  // ===== acting as users ======================================================================

  /**
   * Runs `/command [group] [sub]` with `options` typed from the registered definition. A DM channel
   * (`dmChannelOf(user)`) gives a DM-context interaction (no guild_id, `user` instead of `member`).
   */
  slash(
    userId: string,
    channelId: string,
    command: string,
    path: string[] = [],
    options: Record<string, OptionValue> = {},
    act: ActOptions = {},
  ): InteractionHandle {
    const user = this.store.user(userId);
    const channel = this.liveChannel(channelId);
    const built = buildCommandData(
      this.store,
      user,
      channel,
      command,
      path,
      options,
      null,
      act.force ?? false,
    );
    return this.dispatch("slash", built.label, 2, user, channel, { data: built.data }, null);
  }

  /** Clicks the button `customId` on a message (type 3, component_type 2). */
  click(userId: string, message: MessageRef, customId: string, act: ActOptions = {}): InteractionHandle {
    const user = this.store.user(userId);
    const m = this.messageRec(message);
    const data = buildComponentData(m, user, customId, null, act.force ?? false);
    return this.dispatch("click", `click ${customId}`, 3, user, this.liveChannel(m.channelId), { data }, m);
  }

  /** Chooses `values` in the select menu `customId` on a message. */
  select(
    userId: string,
    message: MessageRef,
    customId: string,
    values: string[],
    act: ActOptions = {},
  ): InteractionHandle {
    const user = this.store.user(userId);
    const m = this.messageRec(message);
    const data = buildComponentData(m, user, customId, values, act.force ?? false);
    return this.dispatch("select", `select ${customId}`, 3, user, this.liveChannel(m.channelId), { data }, m);
  }

  /** Submits the modal `customId` the bot last showed this user; `fields` by input custom_id. */
  submitModal(
    userId: string,
    customId: string,
    fields: Record<string, string | string[]>,
    act: ActOptions = {},
  ): InteractionHandle {
    const user = this.store.user(userId);
    const open = this.store.openModals;
    const index = open.findLastIndex((m) => m.userId === userId && m.data.custom_id === customId);
    if (index < 0) {
      const mine = open.filter((m) => m.userId === userId).map((m) => String(m.data.custom_id));
      throw new ActError(
        `user ${userId} has no open modal "${customId}" (open: ${mine.join(", ") || "none"})`,
      );
    }
    const modal = open[index] as (typeof open)[number];
    const data = buildModalData(modal, fields, act.force ?? false);
    open.splice(index, 1);
    const source = modal.sourceMessageId ? (this.store.messages.get(modal.sourceMessageId) ?? null) : null;
    return this.dispatch(
      "modal",
      `modal ${customId}`,
      5,
      user,
      this.liveChannel(modal.channelId),
      { data },
      source,
    );
  }

  /** Types into option `focused` of `/command …` and returns the choices the bot offers. */
  async autocomplete(
    userId: string,
    channelId: string,
    command: string,
    path: string[],
    options: Record<string, OptionValue>,
    focused: string,
    act: ActOptions & WaitOptions = {},
  ): Promise<Json[]> {
    const user = this.store.user(userId);
    const channel = this.liveChannel(channelId);
    const built = buildCommandData(
      this.store,
      user,
      channel,
      command,
      path,
      options,
      focused,
      act.force ?? false,
    );
    const handle = this.dispatch(
      "autocomplete",
      `autocomplete ${built.label} (${focused})`,
      4,
      user,
      channel,
      { data: built.data },
      null,
    );
    const response = await handle.response(act);
    return response.choices ?? [];
  }

  private dispatch(
    kind: InteractionKind,
    label: string,
    type: number,
    user: UserRec,
    channel: ChannelRec,
    extra: { data: Json },
    source: MessageRec | null,
  ): InteractionHandle {
    const id = snowflake();
    const token = interactionToken();
    const payload: Json = {
      ...basePayload(this.store, { id, token, type }, user, channel),
      data: extra.data,
    };
    if (source) payload.message = this.store.messageJson(source);
    const rec: InteractionRec = {
      id,
      token,
      kind,
      label,
      type,
      userId: user.id,
      channelId: channel.id,
      guildId: channel.guildId,
      dispatchedAt: this.store.now(),
      sessionId: null,
      ack: null,
      lateAttempts: [],
      rejected: [],
      originalMessageId: null,
      sourceMessageId: source?.id ?? null,
      followupIds: [],
      deferredPending: false,
      modal: null,
      choices: null,
      payload,
    };
    this.store.interactions.set(id, rec);
    this.store.interactionsByToken.set(token, rec);
    rec.sessionId = this.gateway.dispatchOne(channel.guildId, "INTERACTION_CREATE", payload);
    if (!rec.sessionId) {
      throw new ActError(
        `${label}: no gateway session owns ${channel.guildId ? `guild ${channel.guildId}` : "DMs (shard 0)"}; is the bot connected? sessions: ${JSON.stringify(this.sessions())}`,
      );
    }
    this.changed();
    return new InteractionHandle(this, rec, this.deadlineMs, this.waitTimeoutMs);
  }

  private liveChannel(channelId: string): ChannelRec {
    const channel = this.store.channel(channelId);
    if (channel.deleted) throw new ActError(`channel ${channelId} was deleted`);
    return channel;
  }

  private messageRec(ref: MessageRef): MessageRec {
    const id = typeof ref === "string" ? ref : ref.id;
    const m = this.store.messages.get(id);
    if (!m) throw new ActError(`unknown message ${id}`);
    return m;
  }

  // ===== views ================================================================================

  /** Public messages of a channel (no ephemerals), oldest first; deleted ones only when asked. */
  channelMessages(
    channelId: string,
    opts: { includeDeleted?: boolean; newest?: number } = {},
  ): MessageView[] {
    return this.viewsIn(channelId, (m) => !m.ephemeral && (opts.includeDeleted || !m.deleted), opts.newest);
  }

  /** Ephemeral messages shown to this user (initial responses, followups; current state + history). */
  ephemeralsFor(userId: string): MessageView[] {
    return this.views((m) => m.ephemeral && m.visibleTo === userId);
  }

  /** Non-ephemeral messages in the user's DM channel with the bot. */
  dmsOf(userId: string, opts: { newest?: number } = {}): MessageView[] {
    const dm = this.store.user(userId).dmChannelId;
    return dm ? this.viewsIn(dm, (m) => !m.ephemeral, opts.newest) : [];
  }

  /** Everything this user could ever have seen: public channel messages, their ephemerals, their DMs (deleted included). */
  messagesVisibleTo(userId: string): MessageView[] {
    return this.views((m) => m.visibleTo === null || m.visibleTo === userId);
  }

  allMessages(): MessageView[] {
    return this.views(() => true);
  }

  message(id: string): MessageView {
    return this.store.messageView(this.messageRec(id));
  }

  /** Messages that would have pinged someone (@everyone/@here, users or roles). */
  pingedMessages(): MessageView[] {
    return this.allMessages().filter(
      (m) => m.mentions.everyone || m.mentions.users.length > 0 || m.mentions.roles.length > 0,
    );
  }

  /** Commands as Discord would return them (with ids); `guildId` omitted = global. */
  registeredCommands(guildId: string | null = null): Json[] {
    return this.store.commandsFor(guildId).map((c) => this.store.commandJson(c));
  }

  interactions(): InteractionView[] {
    return [...this.store.interactions.values()].map((r) => this.store.interactionView(r));
  }

  interaction(id: string): InteractionView {
    const rec = this.store.interactions.get(id);
    if (!rec) throw new Error(`DiscordDouble: unknown interaction ${id}`);
    return this.store.interactionView(rec);
  }

  /** Interactions whose callback came after the deadline. */
  lateInteractions(): InteractionView[] {
    return this.interactions().filter((i) => i.late);
  }

  /** Late, unanswered past the deadline, or with any refused callback/webhook call. */
  failedInteractions(): InteractionView[] {
    const now = this.store.now();
    return this.interactions().filter(
      (i) => i.late || i.rejected.length > 0 || (!i.ack && now - i.dispatchedAt > this.deadlineMs),
    );
  }

  /** Every REST request (method, path, matched route, status, ms, injected fault). */
  requests(): RequestLogEntry[] {
    return structuredClone(this.requestLog);
  }

  /** How many REST requests have been answered so far (cheap, unlike `requests()`). */
  requestCount(): number {
    return this.requestLog.length;
  }

  /** "METHOD /path" of requests no route matched (gaps in the double, or bot bugs). */
  unknownRoutes(): string[] {
    return [...this.unknown];
  }

  sessions(): SessionView[] {
    return this.gateway.views();
  }

  // ===== waiting ==============================================================================

  /**
   * Resolves with the first truthy value of `probe`, re-checked after every change in the double.
   * `probe` may throw to fail fast.
   */
  waitFor<T>(
    probe: () => T | null | undefined | false,
    opts: WaitOptions & { what?: string | (() => string) } = {},
  ): Promise<T> {
    const timeoutMs = opts.timeoutMs ?? this.waitTimeoutMs;
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | null = null;
      // Changes inside the double re-check at once; the poll catches conditions outside it (bot state).
      let poll: NodeJS.Timeout | null = null;
      const waiter: Waiter = {
        check: () => {
          let value: T | null | undefined | false;
          try {
            value = probe();
          } catch (error) {
            finish();
            reject(error);
            return;
          }
          if (value !== null && value !== undefined && value !== false) {
            finish();
            resolve(value);
          }
        },
        cancel: (error) => {
          finish();
          reject(error);
        },
      };
      const finish = () => {
        if (timer) {
          clearTimeout(timer);
          this.timers.delete(timer);
        }
        if (poll) {
          clearInterval(poll);
          this.timers.delete(poll);
        }
        this.waiters.delete(waiter);
      };
      this.waiters.add(waiter);
      waiter.check();
      if (!this.waiters.has(waiter)) return;
      timer = setTimeout(() => {
        finish();
        const what = typeof opts.what === "function" ? opts.what() : (opts.what ?? "a condition");
        reject(new Error(`DiscordDouble: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.timers.add(timer);
      poll = setInterval(() => waiter.check(), 25);
      this.timers.add(poll);
    });
  }

  /** Waits until every shard 0..shardCount-1 has a connected, ready session. */
  waitForBot(opts: WaitOptions & { shardCount?: number } = {}): Promise<SessionView[]> {
    const count = opts.shardCount ?? this.shardCount;
    return this.waitFor(
      () => {
        const ready = this.gateway.readyShards();
        for (let shard = 0; shard < count; shard++) {
          if (!ready.some(([id, total]) => id === shard && total === count)) return null;
        }
        return this.sessions();
      },
      {
        timeoutMs: opts.timeoutMs ?? 20_000,
        what: () => `${count} ready shard(s); sessions: ${JSON.stringify(this.sessions())}`,
      },
    );
  }

  // ===== fault injection ======================================================================

  /** The next `times` requests matching `route` answer `status` (429 with rate-limit headers, or 5xx). */
  failNext(
    route: RoutePattern,
    opts: { status?: 429 | 500 | 502 | 503; times?: number; retryAfterMs?: number; global?: boolean } = {},
  ): void {
    this.faults.fail({
      pattern: route,
      status: opts.status ?? 429,
      remaining: opts.times ?? 1,
      retryAfterMs: opts.retryAfterMs ?? this.retryAfterMs,
      global: opts.global ?? false,
    });
  }

  /** Delays matching requests by `ms` (the next `times` of them; default all). */
  delayRoute(route: RoutePattern, ms: number, times = Number.POSITIVE_INFINITY): void {
    this.faults.delay({ pattern: route, ms, remaining: times });
  }

  clearFaults(): void {
    this.faults.clear();
  }

  /**
   * Drops gateway connections (all, or one shard): "close" = close code 4000 (client resumes),
   * "destroy" = raw socket destroy (1006, client resumes), "reconnect" = op 7, "invalidate" = op 9 false
   * (client must IDENTIFY again). Returns how many connections were dropped.
   */
  dropGateway(
    opts: { shardId?: number; mode?: "close" | "destroy" | "reconnect" | "invalidate" } = {},
  ): number {
    return this.gateway.drop(opts);
  }

  /**
   * From now on every gateway IDENTIFY is closed with `code` (4004 authentication failed, 4014
   * disallowed intents, …), as Discord answers a token or a setting it refuses; `null` ends it.
   */
  refuseIdentify(code: number | null): void {
    this.gateway.refuseIdentifyWith = code;
  }

  setDmsClosed(userId: string, closed = true): void {
    this.store.user(userId).dmsClosed = closed;
  }

  /** Deletes a channel: later REST calls on it get 404 10003. */
  deleteChannel(channelId: string): void {
    const channel = this.store.channel(channelId);
    channel.deleted = true;
    if (channel.guildId)
      this.gateway.dispatchAll(channel.guildId, "CHANNEL_DELETE", this.store.channelJson(channel));
    this.changed();
  }

  /** Deletes a message (as a moderator would): later calls on it get 404 10008. */
  deleteMessage(messageId: string): void {
    this.messageRec(messageId).deleted = true;
    this.changed();
  }

  /** Removes (or restores) the bot's Send Messages in a channel: POST messages then gets 403 50013. */
  setSendAllowed(channelId: string, allowed: boolean): void {
    const channel = this.store.channel(channelId);
    channel.sendDenied = !allowed;
    if (channel.guildId) {
      this.gateway.dispatchAll(channel.guildId, "CHANNEL_UPDATE", this.store.channelJson(channel));
    }
  }

  /** Moves the double's clock forward (interaction deadlines, 15-minute webhook tokens). */
  advanceClock(ms: number): void {
    this.store.clockOffset += ms;
    this.changed();
  }

  // ===== internals ============================================================================

  private membersChunk(request: Json): Json | null {
    const guild = typeof request.guild_id === "string" ? this.store.guilds.get(request.guild_id) : undefined;
    if (!guild) return null;
    const wanted = Array.isArray(request.user_ids)
      ? (request.user_ids as string[])
      : typeof request.user_ids === "string"
        ? [request.user_ids]
        : null;
    const query = typeof request.query === "string" ? request.query.toLowerCase() : "";
    const limit =
      typeof request.limit === "number" && request.limit > 0 ? request.limit : Number.POSITIVE_INFINITY;
    const members = [...this.store.users.values()]
      .filter((u) => (wanted ? wanted.includes(u.id) : u.username.toLowerCase().startsWith(query)))
      .slice(0, limit);
    return {
      guild_id: guild.id,
      members: members.map((u) => this.store.memberJson(u, guild, false)),
      chunk_index: 0,
      chunk_count: 1,
      not_found: wanted ? wanted.filter((id) => !this.store.users.has(id)) : [],
      ...(request.nonce !== undefined ? { nonce: request.nonce } : {}),
    };
  }

  /** Views of one channel's messages that pass `filter`, oldest first; only the `newest` n when given. */
  private viewsIn(channelId: string, filter: (m: MessageRec) => boolean, newest = Infinity): MessageView[] {
    const matching = (this.store.messagesByChannel.get(channelId) ?? [])
      .filter(filter)
      .sort((a, b) => a.createdAt - b.createdAt);
    return matching.slice(Math.max(0, matching.length - newest)).map((m) => this.store.messageView(m));
  }

  private views(filter: (m: MessageRec) => boolean): MessageView[] {
    return [...this.store.messages.values()]
      .filter(filter)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((m) => this.store.messageView(m));
  }

  private changed(): void {
    for (const w of [...this.waiters]) w.check();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = (req.method ?? "GET").toUpperCase();
    const fileId = method === "GET" ? /^\/attachments\/(\d+)\//.exec(url.pathname)?.[1] : undefined;
    if (fileId !== undefined) {
      // The CDN: message attachments and users' uploads, no auth.
      const file = this.store.files.get(fileId);
      if (!file) {
        res.writeHead(404);
        res.end();
        return;
      }
      res.writeHead(200, {
        "content-type": file.contentType ?? "application/octet-stream",
        "content-length": String(file.data.length),
      });
      res.end(file.data);
      return;
    }
    const prefix = /^\/api(?:\/v\d+)?(\/.*)$/.exec(url.pathname);
    const path = prefix ? (prefix[1] as string) : url.pathname;
    const matched = prefix ? this.rest.match(method, path) : null;
    const template = matched?.route.template ?? this.rest.templateOf(path);
    const entry: RequestLogEntry = {
      at: this.store.now(),
      method,
      path,
      route: matched ? template : "?",
      query: url.search,
      status: 0,
      ms: 0,
      fault: null,
      code: null,
    };
    let status = 500;
    let headers: Record<string, string> = { "content-type": "application/json" };
    let payload: string | undefined;
    try {
      const raw = await readBody(req);
      const delay = this.faults.takeDelay(method, path, template);
      if (delay > 0) {
        entry.fault = `delay ${delay}ms`;
        await this.sleep(delay);
      }
      const failure = this.faults.takeFailure(method, path, template);
      if (failure) {
        entry.fault = String(failure.status);
        ({ status, headers, payload } = failureResponse(
          failure.status,
          failure.retryAfterMs,
          failure.global,
          template,
        ));
      } else if (!matched) {
        this.unknown.push(`${method} ${url.pathname}`);
        this.logLine(`double: unknown route ${method} ${url.pathname}`);
        throw Errors.notFound();
      } else {
        if (matched.route.auth && req.headers.authorization !== `Bot ${this.token}`)
          throw Errors.unauthorized();
        const body = await parseBody(raw, String(req.headers["content-type"] ?? ""));
        const result = matched.route.handler({
          method,
          path,
          template,
          params: matched.params,
          query: url.searchParams,
          body,
        });
        status = result.status;
        payload = result.body === undefined ? undefined : JSON.stringify(result.body);
      }
    } catch (error) {
      if (error instanceof ApiError) {
        status = error.status;
        entry.code = error.code;
        payload = JSON.stringify(error.body());
      } else {
        status = 500;
        payload = JSON.stringify({ message: "500: Internal Server Error", code: 0 });
        this.logLine(
          `double: handler crashed on ${method} ${path}: ${String((error as Error)?.stack ?? error)}`,
        );
        this.unknown.push(`CRASH ${method} ${url.pathname}: ${String((error as Error)?.message ?? error)}`);
      }
    }
    entry.status = status;
    entry.ms = Math.round(performance.now() - started);
    this.requestLog.push(entry);
    if (res.destroyed) return;
    if (status === 204 || payload === undefined) {
      res.writeHead(status === 200 ? 204 : status);
      res.end();
    } else {
      res.writeHead(status, headers);
      res.end(payload);
    }
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

async function parseBody(raw: Buffer, contentType: string): Promise<unknown> {
  if (raw.length === 0) return undefined;
  try {
    if (contentType.startsWith("multipart/form-data")) {
      const form = await new Response(new Uint8Array(raw), {
        headers: { "content-type": contentType },
      }).formData();
      const json = form.get("payload_json");
      const body = (typeof json === "string" ? JSON.parse(json) : {}) as Record<string, unknown>;
      // The files[n] parts, kept beside the JSON for the message they are attached to.
      const uploads: UploadedPart[] = [];
      for (const [key, value] of form.entries()) {
        const index = /^files\[(\d+)\]$/.exec(key)?.[1];
        if (index === undefined || typeof value === "string") continue;
        uploads.push({
          index: Number(index),
          filename: value.name,
          contentType: value.type || null,
          data: Buffer.from(await value.arrayBuffer()),
        });
      }
      // An interaction callback carries its message in `data`.
      const message =
        typeof body.type === "number" && typeof body.data === "object" && body.data !== null
          ? (body.data as Record<string, unknown>)
          : body;
      if (uploads.length > 0) message[UPLOADS] = uploads;
      return body;
    }
    return JSON.parse(raw.toString("utf8"));
  } catch {
    throw new ApiError(400, 50109, "The request body contains invalid JSON.");
  }
}

function failureResponse(
  status: number,
  retryAfterMs: number,
  global: boolean,
  template: string,
): { status: number; headers: Record<string, string>; payload: string } {
  if (status === 429) {
    const seconds = retryAfterMs / 1000;
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "retry-after": String(seconds),
      "x-ratelimit-limit": "5",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String((Date.now() + retryAfterMs) / 1000),
      "x-ratelimit-reset-after": String(seconds),
      "x-ratelimit-bucket": `double-${Buffer.from(template).toString("hex").slice(0, 16)}`,
      "x-ratelimit-scope": global ? "global" : "user",
    };
    if (global) headers["x-ratelimit-global"] = "true";
    return {
      status,
      headers,
      payload: JSON.stringify({
        message: "You are being rate limited.",
        retry_after: seconds,
        global,
        code: 0,
      }),
    };
  }
  if (status === 500) {
    return {
      status,
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ message: "500: Internal Server Error", code: 0 }),
    };
  }
  return {
    status,
    headers: { "content-type": "text/html" },
    payload: `<html><body><h1>${status} Bad Gateway</h1></body></html>`,
  };
}

export { MessageFlags };
