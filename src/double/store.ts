import { snowflake } from "./ids.js";
import type {
  AttachmentView,
  InteractionKind,
  InteractionView,
  Json,
  Mentions,
  MessageKind,
  MessageSnapshot,
  MessageView,
  RejectedCallback,
} from "./types.js";
import { computeMentions, MessageFlags, visibleText } from "./validate-messages.js";

export const Permission = {
  AddReactions: 1n << 6n,
  ManageGuild: 1n << 5n,
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  EmbedLinks: 1n << 14n,
  AttachFiles: 1n << 15n,
  ReadMessageHistory: 1n << 16n,
  UseExternalEmojis: 1n << 18n,
  UseApplicationCommands: 1n << 31n,
  SendMessagesInThreads: 1n << 38n,
} as const;

/** What @everyone may do in a plain server: read, write, react, use commands. */
export const BASE_PERMISSIONS =
  Permission.ViewChannel |
  Permission.SendMessages |
  Permission.EmbedLinks |
  Permission.AttachFiles |
  Permission.ReadMessageHistory |
  Permission.AddReactions |
  Permission.UseExternalEmojis |
  Permission.UseApplicationCommands |
  Permission.SendMessagesInThreads;

export interface UserRec {
  id: string;
  username: string;
  globalName: string;
  locale: string;
  manageGuild: boolean;
  dmsClosed: boolean;
  bot: boolean;
  dmChannelId: string | null;
}

export interface GuildRec {
  id: string;
  name: string;
  preferredLocale: string;
  ownerId: string;
  joinedAt: number;
}

export interface ChannelRec {
  id: string;
  type: 0 | 1;
  guildId: string | null;
  name: string;
  recipientId: string | null;
  deleted: boolean;
  sendDenied: boolean;
  position: number;
}

export interface MessageRec {
  id: string;
  channelId: string;
  guildId: string | null;
  authorId: string;
  kind: MessageKind;
  interactionId: string | null;
  visibleTo: string | null;
  ephemeral: boolean;
  deleted: boolean;
  createdAt: number;
  editedAt: number | null;
  content: string;
  embeds: Json[];
  components: Json[];
  flags: number;
  history: MessageSnapshot[];
  /** Files attached to the current version. */
  attachments?: StoredFile[];
}

/** A file the double holds: attached to a message by the bot, or uploaded by a user for an option. */
export interface StoredFile {
  id: string;
  filename: string;
  contentType: string | null;
  data: Buffer;
}

/** A multipart `files[n]` part of a request, put beside the JSON body by the double's parser. */
export interface UploadedPart {
  index: number;
  filename: string;
  contentType: string | null;
  data: Buffer;
}

/** The key under which the parser puts a request's uploaded parts into its body. */
export const UPLOADS = "__uploads";

export interface CommandRec {
  id: string;
  guildId: string | null;
  version: string;
  json: Json;
}

export interface InteractionRec {
  id: string;
  token: string;
  kind: InteractionKind;
  label: string;
  type: number;
  userId: string;
  channelId: string;
  guildId: string | null;
  dispatchedAt: number;
  sessionId: string | null;
  ack: { type: number; at: number; ms: number } | null;
  lateAttempts: Array<{ type: number; ms: number }>;
  rejected: RejectedCallback[];
  originalMessageId: string | null;
  /** The message carrying the clicked component (component and modal-from-component interactions). */
  sourceMessageId: string | null;
  followupIds: string[];
  deferredPending: boolean;
  modal: Json | null;
  choices: Json[] | null;
  payload: Json;
}

export interface OpenModal {
  interactionId: string;
  userId: string;
  channelId: string;
  sourceMessageId: string | null;
  data: Json;
}

const clone = <T>(v: T): T => structuredClone(v);

/** All state of the fake Discord, plus its JSON renderings. */
export class Store {
  readonly users = new Map<string, UserRec>();
  readonly guilds = new Map<string, GuildRec>();
  readonly channels = new Map<string, ChannelRec>();
  readonly messages = new Map<string, MessageRec>();
  /** The same messages by channel, in creation order: views of one channel stay cheap in long runs (the benchmark). */
  readonly messagesByChannel = new Map<string, MessageRec[]>();
  readonly commands = new Map<string, CommandRec>();
  readonly interactions = new Map<string, InteractionRec>();
  readonly interactionsByToken = new Map<string, InteractionRec>();
  readonly openModals: OpenModal[] = [];
  /** Every file the double serves, by id (bots' attachments and users' uploads). */
  readonly files = new Map<string, StoredFile>();
  /** Where files are served from (the double's own origin), set when it starts listening. */
  fileBase = "http://127.0.0.1";
  clockOffset = 0;

  constructor(
    readonly applicationId: string,
    readonly bot: UserRec,
  ) {
    this.users.set(bot.id, bot);
  }

  now(): number {
    return Date.now() + this.clockOffset;
  }

  // ----- lookups -----------------------------------------------------------------------------

  user(id: string): UserRec {
    const u = this.users.get(id);
    if (!u) throw new Error(`DiscordDouble: unknown user ${id} (add it with addUser first)`);
    return u;
  }

  channel(id: string): ChannelRec {
    const c = this.channels.get(id);
    if (!c) throw new Error(`DiscordDouble: unknown channel ${id}`);
    return c;
  }

  guildChannels(guildId: string): ChannelRec[] {
    return [...this.channels.values()].filter((c) => c.guildId === guildId && !c.deleted);
  }

  /** The user's DM channel with the bot, created on first use (stable id). */
  dmChannel(userId: string): ChannelRec {
    const user = this.user(userId);
    if (user.dmChannelId) return this.channel(user.dmChannelId);
    const channel: ChannelRec = {
      id: snowflake(),
      type: 1,
      guildId: null,
      name: "",
      recipientId: userId,
      deleted: false,
      sendDenied: false,
      position: 0,
    };
    this.channels.set(channel.id, channel);
    user.dmChannelId = channel.id;
    return channel;
  }

  commandsFor(guildId: string | null): CommandRec[] {
    return [...this.commands.values()].filter((c) => c.guildId === guildId);
  }

  // ----- permissions -------------------------------------------------------------------------

  memberPermissions(user: UserRec): bigint {
    return BASE_PERMISSIONS | (user.manageGuild ? Permission.ManageGuild : 0n);
  }

  appPermissions(channel: ChannelRec): bigint {
    return channel.sendDenied ? BASE_PERMISSIONS & ~Permission.SendMessages : BASE_PERMISSIONS;
  }

  // ----- messages ----------------------------------------------------------------------------

  createMessage(init: {
    channel: ChannelRec;
    kind: MessageKind;
    interactionId: string | null;
    visibleTo: string | null;
    body: Json;
    flags: number;
    via: string;
  }): MessageRec {
    const at = this.now();
    const message: MessageRec = {
      id: snowflake(),
      channelId: init.channel.id,
      guildId: init.channel.guildId,
      authorId: this.bot.id,
      kind: init.kind,
      interactionId: init.interactionId,
      visibleTo: init.visibleTo,
      ephemeral: (init.flags & MessageFlags.Ephemeral) !== 0,
      deleted: false,
      createdAt: at,
      editedAt: null,
      content: typeof init.body.content === "string" ? init.body.content : "",
      embeds: Array.isArray(init.body.embeds) ? clone(init.body.embeds as Json[]) : [],
      components: Array.isArray(init.body.components) ? clone(init.body.components as Json[]) : [],
      flags: init.flags,
      history: [],
      attachments: this.attachmentsOf(init.body, []) ?? [],
    };
    message.history.push(this.snapshot(message, init.body.allowed_mentions, at, init.via));
    this.messages.set(message.id, message);
    const inChannel = this.messagesByChannel.get(message.channelId);
    if (inChannel) inChannel.push(message);
    else this.messagesByChannel.set(message.channelId, [message]);
    return message;
  }

  /** Applies a PATCH-style edit: fields present replace, absent stay. */
  editMessage(message: MessageRec, body: Json, via: string, opts: { clearLoading?: boolean } = {}): void {
    const at = this.now();
    if ("content" in body) message.content = typeof body.content === "string" ? body.content : "";
    if ("embeds" in body) message.embeds = Array.isArray(body.embeds) ? clone(body.embeds as Json[]) : [];
    if ("components" in body) {
      message.components = Array.isArray(body.components) ? clone(body.components as Json[]) : [];
    }
    if (typeof body.flags === "number") {
      // Only the flags a client may toggle on edit; ephemeral stays what it was.
      const mutable = MessageFlags.SuppressEmbeds | MessageFlags.IsComponentsV2;
      message.flags = (message.flags & ~mutable) | (body.flags & mutable);
    }
    const attachments = this.attachmentsOf(body, message.attachments ?? []);
    if (attachments) message.attachments = attachments;
    if (opts.clearLoading) message.flags &= ~MessageFlags.Loading;
    message.editedAt = at;
    message.history.push(this.snapshot(message, body.allowed_mentions, at, via));
  }

  /**
   * The files a create or edit leaves on a message, as Discord does: `attachments` lists what
   * stays (an earlier file by its id, a new upload by its `files[n]` index); without it the new
   * uploads are added. Undefined: no change.
   */
  private attachmentsOf(body: Json, previous: StoredFile[]): StoredFile[] | undefined {
    const uploads = (Array.isArray(body[UPLOADS]) ? body[UPLOADS] : []) as unknown as UploadedPart[];
    const store = (part: UploadedPart, filename?: unknown): StoredFile => {
      const file: StoredFile = {
        id: snowflake(),
        filename: typeof filename === "string" && filename ? filename : part.filename,
        contentType: part.contentType,
        data: part.data,
      };
      this.files.set(file.id, file);
      return file;
    };
    if (Array.isArray(body.attachments)) {
      return (body.attachments as Json[]).flatMap((a) => {
        const id = String(a.id);
        const upload = uploads.find((u) => String(u.index) === id);
        if (upload) return [store(upload, a.filename)];
        return previous.filter((p) => p.id === id);
      });
    }
    if (uploads.length > 0) return [...previous, ...uploads.map((u) => store(u))];
    return undefined;
  }

  /** A file's public JSON (message attachments and resolved attachment options). */
  attachmentJson(file: StoredFile): Json {
    const url = `${this.fileBase}/attachments/${file.id}/${encodeURIComponent(file.filename)}`;
    return {
      id: file.id,
      filename: file.filename,
      size: file.data.length,
      url,
      proxy_url: url,
      ...(file.contentType ? { content_type: file.contentType } : {}),
    };
  }

  private attachmentView(file: StoredFile): AttachmentView {
    return {
      id: file.id,
      filename: file.filename,
      contentType: file.contentType,
      size: file.data.length,
      url: `${this.fileBase}/attachments/${file.id}/${encodeURIComponent(file.filename)}`,
      base64: file.data.toString("base64"),
    };
  }

  private snapshot(message: MessageRec, allowedMentions: unknown, at: number, via: string): MessageSnapshot {
    return {
      at,
      content: message.content,
      embeds: clone(message.embeds),
      components: clone(message.components),
      flags: message.flags,
      mentions: computeMentions(message.content, allowedMentions),
      via,
    };
  }

  messageView(m: MessageRec): MessageView {
    const mentions: Mentions = { everyone: false, users: [], roles: [] };
    for (const s of m.history) {
      mentions.everyone ||= s.mentions.everyone;
      for (const u of s.mentions.users) if (!mentions.users.includes(u)) mentions.users.push(u);
      for (const r of s.mentions.roles) if (!mentions.roles.includes(r)) mentions.roles.push(r);
    }
    return clone({
      id: m.id,
      channelId: m.channelId,
      guildId: m.guildId,
      authorId: m.authorId,
      kind: m.kind,
      interactionId: m.interactionId,
      visibleTo: m.visibleTo,
      ephemeral: m.ephemeral,
      loading: (m.flags & MessageFlags.Loading) !== 0,
      deleted: m.deleted,
      createdAt: m.createdAt,
      editedAt: m.editedAt,
      content: m.content,
      embeds: m.embeds,
      components: m.components,
      attachments: (m.attachments ?? []).map((f) => this.attachmentView(f)),
      flags: m.flags,
      mentions,
      history: m.history,
      text: visibleText(m),
    });
  }

  interactionView(rec: InteractionRec): InteractionView {
    const original = rec.originalMessageId ? this.messages.get(rec.originalMessageId) : undefined;
    return {
      id: rec.id,
      token: rec.token,
      kind: rec.kind,
      label: rec.label,
      type: rec.type,
      userId: rec.userId,
      channelId: rec.channelId,
      guildId: rec.guildId,
      dispatchedAt: rec.dispatchedAt,
      sessionId: rec.sessionId,
      ack: rec.ack ? { ...rec.ack } : null,
      late: rec.lateAttempts.length > 0,
      lateAttempts: clone(rec.lateAttempts),
      rejected: clone(rec.rejected),
      original: original ? this.messageView(original) : null,
      followups: rec.followupIds.map((id) => this.messageView(this.messages.get(id) as MessageRec)),
      deferredPending: rec.deferredPending,
      modal: rec.modal ? clone(rec.modal) : null,
      choices: rec.choices ? clone(rec.choices) : null,
      payload: clone(rec.payload),
    };
  }

  // ----- Discord JSON ------------------------------------------------------------------------

  userJson(u: UserRec): Json {
    return {
      id: u.id,
      username: u.username,
      discriminator: "0",
      global_name: u.globalName,
      avatar: null,
      public_flags: 0,
      flags: 0,
      ...(u.bot ? { bot: true } : {}),
    };
  }

  memberJson(u: UserRec, guild: GuildRec, withPermissions: boolean): Json {
    return {
      user: this.userJson(u),
      nick: null,
      avatar: null,
      roles: [],
      joined_at: new Date(guild.joinedAt).toISOString(),
      premium_since: null,
      deaf: false,
      mute: false,
      flags: 0,
      pending: false,
      communication_disabled_until: null,
      ...(withPermissions ? { permissions: this.memberPermissions(u).toString() } : {}),
    };
  }

  channelJson(c: ChannelRec): Json {
    if (c.type === 1) {
      const recipient = this.user(c.recipientId as string);
      return { id: c.id, type: 1, last_message_id: null, flags: 0, recipients: [this.userJson(recipient)] };
    }
    return {
      id: c.id,
      type: 0,
      guild_id: c.guildId,
      name: c.name,
      position: c.position,
      permission_overwrites: c.sendDenied
        ? [{ id: this.bot.id, type: 1, allow: "0", deny: Permission.SendMessages.toString() }]
        : [],
      parent_id: null,
      topic: null,
      nsfw: false,
      last_message_id: null,
      rate_limit_per_user: 0,
      flags: 0,
    };
  }

  everyoneRoleJson(g: GuildRec): Json {
    return {
      id: g.id,
      name: "@everyone",
      color: 0,
      colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
      hoist: false,
      icon: null,
      unicode_emoji: null,
      position: 0,
      permissions: BASE_PERMISSIONS.toString(),
      managed: false,
      mentionable: false,
      flags: 0,
    };
  }

  guildJson(g: GuildRec): Json {
    return {
      id: g.id,
      name: g.name,
      icon: null,
      splash: null,
      discovery_splash: null,
      owner_id: g.ownerId,
      afk_channel_id: null,
      afk_timeout: 300,
      verification_level: 0,
      default_message_notifications: 1,
      explicit_content_filter: 0,
      roles: [this.everyoneRoleJson(g)],
      emojis: [],
      stickers: [],
      features: [],
      mfa_level: 0,
      application_id: null,
      system_channel_id: null,
      system_channel_flags: 0,
      rules_channel_id: null,
      vanity_url_code: null,
      description: null,
      banner: null,
      premium_tier: 0,
      premium_subscription_count: 0,
      preferred_locale: g.preferredLocale,
      public_updates_channel_id: null,
      nsfw_level: 0,
      premium_progress_bar_enabled: false,
      safety_alerts_channel_id: null,
    };
  }

  /** `channels`: the guild's live channels, when the caller has them already (a shard's thousands of guilds). */
  guildCreateJson(g: GuildRec, channels: ChannelRec[] = this.guildChannels(g.id)): Json {
    return {
      ...this.guildJson(g),
      joined_at: new Date(g.joinedAt).toISOString(),
      large: false,
      unavailable: false,
      member_count: this.users.size,
      voice_states: [],
      members: [this.memberJson(this.bot, g, false)],
      channels: channels.map((c) => {
        const { guild_id: _ignored, ...rest } = this.channelJson(c);
        return rest;
      }),
      threads: [],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    };
  }

  messageJson(m: MessageRec): Json {
    const interaction = m.interactionId ? this.interactions.get(m.interactionId) : undefined;
    const last = m.history[m.history.length - 1];
    const json: Json = {
      id: m.id,
      type: m.kind === "response" && interaction?.type === 2 ? 20 : 0,
      channel_id: m.channelId,
      author: this.userJson(this.bot),
      content: m.content,
      timestamp: new Date(m.createdAt).toISOString(),
      edited_timestamp: m.editedAt ? new Date(m.editedAt).toISOString() : null,
      tts: false,
      mention_everyone: last?.mentions.everyone ?? false,
      mentions: (last?.mentions.users ?? []).flatMap((id) => {
        const u = this.users.get(id);
        return u ? [this.userJson(u)] : [];
      }),
      mention_roles: last?.mentions.roles ?? [],
      attachments: (m.attachments ?? []).map((f) => this.attachmentJson(f)),
      embeds: m.embeds,
      components: m.components,
      pinned: false,
      flags: m.flags,
    };
    if (m.guildId) json.guild_id = m.guildId;
    if (interaction) {
      json.webhook_id = this.applicationId;
      json.application_id = this.applicationId;
      const user = this.users.get(interaction.userId);
      json.interaction_metadata = {
        id: interaction.id,
        type: interaction.type,
        user: user ? this.userJson(user) : null,
        authorizing_integration_owners: interaction.payload.authorizing_integration_owners ?? {},
      };
    }
    return clone(json);
  }

  commandJson(c: CommandRec): Json {
    const j = c.json;
    return clone({
      id: c.id,
      application_id: this.applicationId,
      version: c.version,
      type: j.type ?? 1,
      name: j.name,
      name_localizations: j.name_localizations ?? null,
      description: j.description ?? "",
      description_localizations: j.description_localizations ?? null,
      ...(Array.isArray(j.options) ? { options: j.options } : {}),
      default_member_permissions: j.default_member_permissions ?? null,
      dm_permission: j.dm_permission ?? true,
      contexts: j.contexts ?? null,
      integration_types: j.integration_types ?? [0],
      nsfw: j.nsfw ?? false,
      ...(c.guildId ? { guild_id: c.guildId } : {}),
    });
  }
}
