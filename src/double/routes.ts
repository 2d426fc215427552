import { ApiError, Errors, FormErrors } from "./errors.js";
import { snowflake } from "./ids.js";
import type { ChannelRec, InteractionRec, MessageRec, Store } from "./store.js";
import type { Json } from "./types.js";
import { validateCommandList, validateOneCommand } from "./validate-commands.js";
import {
  checkAutocompleteResult,
  checkMessage,
  checkModal,
  isEmptyMessage,
  MessageFlags,
  validateMessageBody,
} from "./validate-messages.js";

export interface RequestContext {
  method: string;
  path: string;
  template: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
}

export interface RouteResult {
  status: number;
  body?: unknown;
}

interface Route {
  method: string;
  template: string;
  regex: RegExp;
  keys: string[];
  auth: boolean;
  handler: (ctx: RequestContext) => RouteResult;
}

export interface RestSettings {
  token: string;
  applicationId: string;
  shardCount: number;
  deadlineMs: number;
  tokenLifetimeMs: number;
  gatewayUrl: () => string;
  changed: () => void;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const ok = (body: unknown): RouteResult => ({ status: 200, body });
const noContent = (): RouteResult => ({ status: 204 });

/** Flags a bot may set on a message it sends. */
const SENDABLE_FLAGS =
  MessageFlags.SuppressEmbeds |
  MessageFlags.SuppressNotifications |
  MessageFlags.IsComponentsV2 |
  MessageFlags.Ephemeral;

/** Flattens Discord's nested form errors into "data.content: CODE (message)" lines. */
export function flattenFormErrors(errors: unknown, prefix: string[] = []): string[] {
  if (!isObj(errors)) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(errors)) {
    if (key === "_errors" && Array.isArray(value)) {
      for (const e of value) {
        if (isObj(e)) out.push(`${prefix.join(".") || "(body)"}: ${String(e.code)} (${String(e.message)})`);
      }
    } else out.push(...flattenFormErrors(value, [...prefix, key]));
  }
  return out;
}

/** The REST half of the double: Discord routes over the shared Store. */
export class RestApi {
  readonly routes: Route[] = [];

  constructor(
    private readonly store: Store,
    private readonly settings: RestSettings,
  ) {
    const r = (method: string, template: string, auth: boolean, handler: Route["handler"]) => {
      const keys: string[] = [];
      const source = template
        .split("/")
        .map((part) => {
          if (part.startsWith(":")) {
            keys.push(part.slice(1));
            return "([^/]+)";
          }
          return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        })
        .join("/");
      this.routes.push({ method, template, regex: new RegExp(`^${source}$`), keys, auth, handler });
    };

    r("GET", "/gateway", false, () => ok({ url: this.settings.gatewayUrl() }));
    r("GET", "/gateway/bot", true, () =>
      ok({
        url: this.settings.gatewayUrl(),
        shards: this.settings.shardCount,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 16 },
      }),
    );
    r("GET", "/users/@me", true, () => ok(this.store.userJson(this.store.bot)));
    r("GET", "/users/:userId", true, (c) =>
      ok(this.store.userJson(this.userOr404(c.params.userId as string))),
    );
    r("POST", "/users/@me/channels", true, (c) => this.createDm(c));
    r("GET", "/applications/@me", true, () => ok(this.applicationJson()));

    for (const scope of ["global", "guild"] as const) {
      const base =
        scope === "global"
          ? "/applications/:appId/commands"
          : "/applications/:appId/guilds/:guildId/commands";
      r("GET", base, true, (c) =>
        ok(this.store.commandsFor(this.commandScope(c)).map((x) => this.store.commandJson(x))),
      );
      r("PUT", base, true, (c) => this.putCommands(c));
      r("POST", base, true, (c) => this.postCommand(c));
      r("GET", `${base}/:commandId`, true, (c) => ok(this.store.commandJson(this.commandOr404(c))));
      r("DELETE", `${base}/:commandId`, true, (c) => {
        this.store.commands.delete(this.commandOr404(c).id);
        return noContent();
      });
    }

    r("POST", "/interactions/:interactionId/:token/callback", false, (c) => this.callback(c));
    r("POST", "/webhooks/:appId/:token", false, (c) => this.followup(c));
    r("GET", "/webhooks/:appId/:token/messages/:messageId", false, (c) =>
      ok(this.store.messageJson(this.webhookMessage(c).message)),
    );
    r("PATCH", "/webhooks/:appId/:token/messages/:messageId", false, (c) => this.editWebhookMessage(c));
    r("DELETE", "/webhooks/:appId/:token/messages/:messageId", false, (c) => {
      const { rec, message } = this.webhookMessage(c);
      message.deleted = true;
      if (message.id === rec.originalMessageId) rec.deferredPending = false;
      this.settings.changed();
      return noContent();
    });

    r("GET", "/channels/:channelId", true, (c) =>
      ok(this.store.channelJson(this.channelOr404(c.params.channelId))),
    );
    r("GET", "/channels/:channelId/messages", true, (c) => this.listMessages(c));
    r("POST", "/channels/:channelId/messages", true, (c) => this.postMessage(c));
    r("GET", "/channels/:channelId/messages/:messageId", true, (c) =>
      ok(this.store.messageJson(this.channelMessage(c))),
    );
    r("PATCH", "/channels/:channelId/messages/:messageId", true, (c) => this.editChannelMessage(c));
    r("DELETE", "/channels/:channelId/messages/:messageId", true, (c) => {
      const message = this.channelMessage(c);
      message.deleted = true;
      this.settleDeferredUpdates(message);
      this.settings.changed();
      return noContent();
    });
    r("POST", "/channels/:channelId/typing", true, (c) => {
      this.channelOr404(c.params.channelId);
      return noContent();
    });

    r("GET", "/guilds/:guildId", true, (c) => ok(this.store.guildJson(this.guildOr404(c.params.guildId))));
    r("GET", "/guilds/:guildId/channels", true, (c) =>
      ok(
        this.store
          .guildChannels(this.guildOr404(c.params.guildId).id)
          .map((ch) => this.store.channelJson(ch)),
      ),
    );
    r("GET", "/guilds/:guildId/roles", true, (c) =>
      ok([this.store.everyoneRoleJson(this.guildOr404(c.params.guildId))]),
    );
    r("GET", "/guilds/:guildId/members/:userId", true, (c) => {
      const guild = this.guildOr404(c.params.guildId);
      const user = this.store.users.get(c.params.userId as string);
      if (!user) throw Errors.unknownMember();
      return ok(this.store.memberJson(user, guild, false));
    });
  }

  match(method: string, path: string): { route: Route; params: Record<string, string> } | null {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const m = route.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      route.keys.forEach((k, i) => {
        params[k] = decodeURIComponent(m[i + 1] as string);
      });
      return { route, params };
    }
    return null;
  }

  /** Template of a path whatever the method (for fault matching of unknown methods). */
  templateOf(path: string): string {
    return this.routes.find((r) => r.regex.test(path))?.template ?? "?";
  }

  // ----- lookups -----------------------------------------------------------------------------

  private userOr404(id: string) {
    const u = this.store.users.get(id);
    if (!u) throw Errors.unknownUser();
    return u;
  }

  private guildOr404(id: string | undefined) {
    const g = id ? this.store.guilds.get(id) : undefined;
    if (!g) throw Errors.unknownGuild();
    return g;
  }

  private channelOr404(id: string | undefined): ChannelRec {
    const c = id ? this.store.channels.get(id) : undefined;
    if (!c || c.deleted) throw Errors.unknownChannel();
    return c;
  }

  private channelMessage(c: RequestContext): MessageRec {
    const channel = this.channelOr404(c.params.channelId);
    const m = this.store.messages.get(c.params.messageId as string);
    if (!m || m.deleted || m.channelId !== channel.id || m.ephemeral) throw Errors.unknownMessage();
    return m;
  }

  private applicationJson(): Json {
    return {
      id: this.settings.applicationId,
      name: this.store.bot.username,
      icon: null,
      description: "",
      bot_public: true,
      bot_require_code_grant: false,
      bot: this.store.userJson(this.store.bot),
      owner: null,
      team: null,
      verify_key: "0".repeat(64),
      flags: 0,
      approximate_guild_count: this.store.guilds.size,
      summary: "",
    };
  }

  // ----- commands ----------------------------------------------------------------------------

  private commandScope(c: RequestContext): string | null {
    if (c.params.appId !== this.settings.applicationId) {
      throw new ApiError(403, 20012, "You are not authorized to perform this action on this application");
    }
    if (c.params.guildId === undefined) return null;
    if (!this.store.guilds.has(c.params.guildId)) throw Errors.missingAccess();
    return c.params.guildId;
  }

  private commandOr404(c: RequestContext) {
    const scope = this.commandScope(c);
    const cmd = this.store.commands.get(c.params.commandId as string);
    if (!cmd || cmd.guildId !== scope) throw Errors.unknownCommand();
    return cmd;
  }

  private putCommands(c: RequestContext): RouteResult {
    const scope = this.commandScope(c);
    const list = validateCommandList(c.body);
    const previous = new Map(
      this.store
        .commandsFor(scope)
        .map((cmd) => [`${String(cmd.json.type ?? 1)}:${String(cmd.json.name)}`, cmd]),
    );
    for (const cmd of this.store.commandsFor(scope)) this.store.commands.delete(cmd.id);
    const stored = list.map((json) => {
      const kept = previous.get(`${String(json.type ?? 1)}:${String(json.name)}`);
      const rec = {
        id: kept?.id ?? snowflake(),
        guildId: scope,
        version: snowflake(),
        json: structuredClone(json),
      };
      this.store.commands.set(rec.id, rec);
      return rec;
    });
    this.settings.changed();
    return ok(stored.map((x) => this.store.commandJson(x)));
  }

  private postCommand(c: RequestContext): RouteResult {
    const scope = this.commandScope(c);
    const errors = new FormErrors();
    validateOneCommand(errors, [], c.body);
    errors.throwIfAny();
    const json = c.body as Obj;
    const existing = this.store
      .commandsFor(scope)
      .find((x) => x.json.name === json.name && (x.json.type ?? 1) === (json.type ?? 1));
    const rec = {
      id: existing?.id ?? snowflake(),
      guildId: scope,
      version: snowflake(),
      json: structuredClone(json),
    };
    this.store.commands.set(rec.id, rec);
    this.settings.changed();
    return { status: existing ? 200 : 201, body: this.store.commandJson(rec) };
  }

  // ----- channels and DMs --------------------------------------------------------------------

  private createDm(c: RequestContext): RouteResult {
    const body = isObj(c.body) ? c.body : {};
    const recipient =
      typeof body.recipient_id === "string" ? this.store.users.get(body.recipient_id) : undefined;
    if (!recipient || recipient.bot) {
      const errors = new FormErrors();
      errors.add(["recipient_id"], "USER_NOT_FOUND", "Unknown user");
      errors.throwIfAny();
    }
    return ok(this.store.channelJson(this.store.dmChannel((recipient as { id: string }).id)));
  }

  private listMessages(c: RequestContext): RouteResult {
    const channel = this.channelOr404(c.params.channelId);
    const limit = Math.min(100, Number(c.query.get("limit") ?? 50));
    const list = [...this.store.messages.values()]
      .filter((m) => m.channelId === channel.id && !m.deleted && !m.ephemeral)
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(0, limit);
    return ok(list.map((m) => this.store.messageJson(m)));
  }

  private postMessage(c: RequestContext): RouteResult {
    const channel = this.channelOr404(c.params.channelId);
    if (channel.type === 1) {
      if (this.store.user(channel.recipientId as string).dmsClosed) throw Errors.cannotDmUser();
    } else if (channel.sendDenied) throw Errors.missingPermissions();
    const body = validateMessageBody(c.body, { create: true, allowEphemeral: false });
    const flags = (typeof body.flags === "number" ? body.flags : 0) & SENDABLE_FLAGS;
    const message = this.store.createMessage({
      channel,
      kind: channel.type === 1 ? "dm" : "channel",
      interactionId: null,
      visibleTo: channel.type === 1 ? channel.recipientId : null,
      body,
      flags,
      via: `POST ${c.template}`,
    });
    this.settings.changed();
    return ok(this.store.messageJson(message));
  }

  private editChannelMessage(c: RequestContext): RouteResult {
    const message = this.channelMessage(c);
    if (message.authorId !== this.store.bot.id) throw Errors.cannotEditOthers();
    const body = validateMessageBody(c.body, { create: false, allowEphemeral: false });
    this.store.editMessage(message, body, `PATCH ${c.template}`);
    this.settleDeferredUpdates(message);
    this.settings.changed();
    return ok(this.store.messageJson(message));
  }

  /** A deferred update (6) is complete once its message changes, whichever route changed it. */
  private settleDeferredUpdates(message: MessageRec): void {
    for (const rec of this.store.interactions.values()) {
      if (rec.deferredPending && rec.ack?.type === 6 && rec.originalMessageId === message.id) {
        rec.deferredPending = false;
      }
    }
  }

  // ----- interactions ------------------------------------------------------------------------

  /** Runs an interaction-bound handler, recording refusals on the interaction. */
  private recording(rec: InteractionRec, c: RequestContext, run: () => RouteResult): RouteResult {
    try {
      return run();
    } catch (error) {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        rec.rejected.push({
          at: this.store.now(),
          route: `${c.method} ${c.template}`,
          status: error.status,
          code: error.code,
          message: error.message,
          details: flattenFormErrors(error.errors),
        });
        this.settings.changed();
      }
      throw error;
    }
  }

  private callback(c: RequestContext): RouteResult {
    const rec = this.store.interactions.get(c.params.interactionId as string);
    if (!rec || rec.token !== c.params.token) throw Errors.unknownInteraction();
    return this.recording(rec, c, () => this.acknowledge(rec, c));
  }

  private acknowledge(rec: InteractionRec, c: RequestContext): RouteResult {
    const at = this.store.now();
    const ms = at - rec.dispatchedAt;
    const body = isObj(c.body) ? c.body : {};
    const type = body.type;
    if (rec.ack) throw Errors.alreadyAcknowledged();
    if (ms > this.settings.deadlineMs) {
      rec.lateAttempts.push({ type: typeof type === "number" ? type : -1, ms });
      this.settings.changed();
      throw Errors.unknownInteraction();
    }
    const allowed: Record<number, number[]> = {
      2: [4, 5, 9],
      3: [4, 5, 6, 7, 9],
      4: [8],
      5: rec.sourceMessageId ? [4, 5, 6, 7] : [4, 5],
    };
    const errors = new FormErrors();
    if (typeof type !== "number" || !(allowed[rec.type] ?? []).includes(type)) {
      errors.add(
        ["type"],
        "INTERACTION_RESPONSE_TYPE_INVALID",
        `Callback type ${String(type)} is not valid here`,
      );
      errors.throwIfAny();
    }
    const data = isObj(body.data) ? body.data : {};
    const channel = this.store.channel(rec.channelId);
    const via = `POST ${c.template} (type ${String(type)})`;
    const audience = (ephemeral: boolean) =>
      ephemeral ? rec.userId : channel.type === 1 ? channel.recipientId : null;
    let message: MessageRec | null = null;

    switch (type) {
      case 4: {
        checkMessage(errors, ["data"], data, { create: true, allowEphemeral: true });
        errors.throwIfAny();
        if (isEmptyMessage(data)) throw Errors.emptyMessage();
        const flags = (typeof data.flags === "number" ? data.flags : 0) & SENDABLE_FLAGS;
        message = this.store.createMessage({
          channel,
          kind: "response",
          interactionId: rec.id,
          visibleTo: audience((flags & MessageFlags.Ephemeral) !== 0),
          body: data,
          flags,
          via,
        });
        rec.originalMessageId = message.id;
        break;
      }
      case 5: {
        const flags =
          MessageFlags.Loading | ((typeof data.flags === "number" ? data.flags : 0) & MessageFlags.Ephemeral);
        message = this.store.createMessage({
          channel,
          kind: "response",
          interactionId: rec.id,
          visibleTo: audience((flags & MessageFlags.Ephemeral) !== 0),
          body: {},
          flags,
          via,
        });
        rec.originalMessageId = message.id;
        rec.deferredPending = true;
        break;
      }
      case 6:
      case 7: {
        const source = rec.sourceMessageId ? this.store.messages.get(rec.sourceMessageId) : undefined;
        if (!source || source.deleted) throw Errors.unknownMessage();
        if (type === 7) {
          checkMessage(errors, ["data"], data, { create: false, allowEphemeral: true });
          errors.throwIfAny();
          this.store.editMessage(source, data, via);
        } else rec.deferredPending = true;
        rec.originalMessageId = source.id;
        message = source;
        break;
      }
      case 8:
        checkAutocompleteResult(errors, ["data"], data);
        errors.throwIfAny();
        rec.choices = structuredClone(Array.isArray(data.choices) ? (data.choices as Json[]) : []);
        break;
      case 9:
        checkModal(errors, ["data"], data);
        errors.throwIfAny();
        rec.modal = structuredClone(data);
        this.store.openModals.push({
          interactionId: rec.id,
          userId: rec.userId,
          channelId: rec.channelId,
          sourceMessageId: rec.sourceMessageId,
          data: structuredClone(data),
        });
        break;
    }
    rec.ack = { type: type as number, at, ms };
    this.settings.changed();

    if (c.query.get("with_response") !== "true") return noContent();
    return ok({
      interaction: {
        id: rec.id,
        type: rec.type,
        activity_instance_id: null,
        response_message_id: message?.id ?? null,
        response_message_loading: message ? (message.flags & MessageFlags.Loading) !== 0 : false,
        response_message_ephemeral: message ? message.ephemeral : false,
      },
      resource: { type, ...(message ? { message: this.store.messageJson(message) } : {}) },
    });
  }

  private interactionByWebhook(c: RequestContext): InteractionRec {
    if (c.params.appId !== this.settings.applicationId) throw Errors.unknownWebhook();
    const rec = this.store.interactionsByToken.get(c.params.token as string);
    if (!rec) throw Errors.unknownWebhook();
    if (this.store.now() - rec.dispatchedAt > this.settings.tokenLifetimeMs) {
      this.recording(rec, c, () => {
        throw Errors.invalidWebhookToken();
      });
    }
    return rec;
  }

  private followup(c: RequestContext): RouteResult {
    const rec = this.interactionByWebhook(c);
    return this.recording(rec, c, () => {
      if (!rec.ack || rec.ack.type === 8 || rec.ack.type === 9) throw Errors.unknownWebhook();
      const body = validateMessageBody(c.body, { create: true, allowEphemeral: true });
      const via = `POST ${c.template}`;
      const original = rec.originalMessageId ? this.store.messages.get(rec.originalMessageId) : undefined;
      let message: MessageRec;
      if (rec.ack.type === 5 && rec.deferredPending && original && !original.deleted) {
        // Discord: the first followup after a deferred reply replaces the "thinking" message and keeps
        // the ephemerality chosen when deferring (the flag in this request is ignored).
        this.store.editMessage(original, body, via, { clearLoading: true });
        message = original;
      } else {
        const flags = (typeof body.flags === "number" ? body.flags : 0) & SENDABLE_FLAGS;
        const channel = this.store.channel(rec.channelId);
        const ephemeral = (flags & MessageFlags.Ephemeral) !== 0;
        message = this.store.createMessage({
          channel,
          kind: "followup",
          interactionId: rec.id,
          visibleTo: ephemeral ? rec.userId : channel.type === 1 ? channel.recipientId : null,
          body,
          flags,
          via,
        });
        rec.followupIds.push(message.id);
      }
      rec.deferredPending = false;
      this.settings.changed();
      return c.query.get("wait") === "false" ? noContent() : ok(this.store.messageJson(message));
    });
  }

  private webhookMessage(c: RequestContext): { rec: InteractionRec; message: MessageRec } {
    const rec = this.interactionByWebhook(c);
    let message: MessageRec | undefined;
    this.recording(rec, c, () => {
      const id = c.params.messageId === "@original" ? rec.originalMessageId : c.params.messageId;
      const mine = id !== null && (id === rec.originalMessageId || rec.followupIds.includes(id as string));
      message = mine ? this.store.messages.get(id as string) : undefined;
      if (!message || message.deleted) throw Errors.unknownMessage();
      return noContent();
    });
    return { rec, message: message as MessageRec };
  }

  private editWebhookMessage(c: RequestContext): RouteResult {
    const { rec, message } = this.webhookMessage(c);
    return this.recording(rec, c, () => {
      const body = validateMessageBody(c.body, { create: false, allowEphemeral: true });
      const wasLoading = (message.flags & MessageFlags.Loading) !== 0;
      if (wasLoading && isEmptyMessage({ ...this.store.messageJson(message), ...body }))
        throw Errors.emptyMessage();
      this.store.editMessage(message, body, `PATCH ${c.template}`, { clearLoading: true });
      if (message.id === rec.originalMessageId) rec.deferredPending = false;
      this.settings.changed();
      return ok(this.store.messageJson(message));
    });
  }
}
