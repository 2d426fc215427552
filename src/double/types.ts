/** Public shapes the double hands to tests. Everything is a detached plain-JSON copy. */

export type Json = Record<string, unknown>;

export interface DoubleOptions {
  /** Bot token the client must send (REST `Authorization: Bot …`, gateway IDENTIFY). */
  token?: string;
  applicationId?: string;
  /** Defaults to applicationId (as for real bots). */
  botUserId?: string;
  botUsername?: string;
  /** `shards` answered by GET /gateway/bot. Default 1. */
  shardCount?: number;
  /** Initial-response deadline. Default 3000 ms (Discord's). */
  interactionDeadlineMs?: number;
  /** Interaction token lifetime for webhook routes. Default 15 min. */
  tokenLifetimeMs?: number;
  /** Default timeout of `handle.response()` / `settled()`. Default deadline + 2000 ms. */
  waitTimeoutMs?: number;
  /** Default retry-after for injected 429s. Default 300 ms. */
  retryAfterMs?: number;
  heartbeatIntervalMs?: number;
  /** Debug log sink (unknown routes, gateway events). Default: silent (they are still recorded). */
  log?: (line: string) => void;
}

export interface Mentions {
  everyone: boolean;
  users: string[];
  roles: string[];
}

export interface MessageSnapshot {
  at: number;
  content: string;
  embeds: Json[];
  components: Json[];
  flags: number;
  /** Who this version would ping, computed from content + allowed_mentions. */
  mentions: Mentions;
  /** Which request produced it, e.g. "POST /channels/:channelId/messages". */
  via: string;
}

export type MessageKind = "channel" | "dm" | "response" | "followup";

export interface MessageView {
  id: string;
  channelId: string;
  guildId: string | null;
  authorId: string;
  kind: MessageKind;
  /** Interaction this message answers (responses and followups). */
  interactionId: string | null;
  /** null = everyone in the guild channel; a user id = only that user (ephemeral or their DM). */
  visibleTo: string | null;
  ephemeral: boolean;
  /** The deferred "Bot is thinking…" state has not been replaced yet. */
  loading: boolean;
  deleted: boolean;
  createdAt: number;
  editedAt: number | null;
  content: string;
  embeds: Json[];
  components: Json[];
  /** Files attached to the current version. */
  attachments: AttachmentView[];
  flags: number;
  /** Union of everyone/users/roles pinged over all versions (conservative: edits count too). */
  mentions: Mentions;
  /** Every version, oldest first; the last one is the current state. */
  history: MessageSnapshot[];
  /** Content + embed texts + component labels of the current version, newline-joined. */
  text: string;
}

export type InteractionKind = "slash" | "click" | "select" | "modal" | "autocomplete";

export interface RejectedCallback {
  at: number;
  route: string;
  status: number;
  code: number;
  message: string;
  /** Flattened 50035 form errors, e.g. "data.content: BASE_TYPE_MAX_LENGTH (…)". */
  details: string[];
}

export interface InteractionView {
  id: string;
  token: string;
  kind: InteractionKind;
  /** Human label: "/mw trust give", "click mw:roll", "modal fate:aspect". */
  label: string;
  /** Discord interaction type: 2 command, 3 component, 4 autocomplete, 5 modal submit. */
  type: number;
  userId: string;
  channelId: string;
  guildId: string | null;
  dispatchedAt: number;
  /** Gateway session it went to (null when no session was there). */
  sessionId: string | null;
  /** The accepted initial callback. */
  ack: { type: number; at: number; ms: number } | null;
  /** A callback came after the deadline (and was refused with 10062). */
  late: boolean;
  lateAttempts: Array<{ type: number; ms: number }>;
  /** Callbacks/webhook calls refused with a 4xx (validation, double ack, …). */
  rejected: RejectedCallback[];
  /** Initial response message, or the component message for types 6/7. */
  original: MessageView | null;
  followups: MessageView[];
  /** A deferred response (5/6) still waits for its edit or first followup. */
  deferredPending: boolean;
  modal: Json | null;
  choices: Json[] | null;
  payload: Json;
}

export interface InteractionResponse {
  /** Callback type: 4 message, 5 deferred, 6 deferred update, 7 update, 8 choices, 9 modal. */
  type: number;
  /** Dispatch → callback, in ms. */
  ms: number;
  ephemeral: boolean;
  deferred: boolean;
  /** Message created (4/5) or updated (6/7); current state. */
  message: MessageView | null;
  modal: Json | null;
  choices: Json[] | null;
  interaction: InteractionView;
}

export interface RequestLogEntry {
  at: number;
  method: string;
  path: string;
  /** Matched template, e.g. "/channels/:channelId/messages"; "?" when unknown. */
  route: string;
  query: string;
  status: number;
  ms: number;
  /** Injected fault, if any: "429", "500", "delay 200ms". */
  fault: string | null;
  /** Error code of a Discord-style error answer. */
  code: number | null;
}

export interface SessionView {
  id: string;
  shard: [number, number];
  connected: boolean;
  /** READY and every GUILD_CREATE were sent. */
  ready: boolean;
  seq: number;
  identifiedAt: number;
  resumes: number;
  closeCodes: number[];
}

/** Route matcher: "/channels/:channelId/messages", "POST /channels/:channelId/messages", a concrete path, or a RegExp over "METHOD /path". */
export type RoutePattern = string | RegExp;

export interface UserInit {
  id?: string;
  username?: string;
  globalName?: string;
  /** Client locale sent as `locale` in interactions. Default "en-US". */
  locale?: string;
  /** Grants Manage Server (0x20) in every guild. */
  manageGuild?: boolean;
  dmsClosed?: boolean;
}

export interface GuildInit {
  id?: string;
  name?: string;
  preferredLocale?: string;
  ownerId?: string;
  /** Pick an id that routes to this shard: `{ shardId, shardCount }`. */
  onShard?: { shardId: number; shardCount: number };
}

export interface ChannelInit {
  id?: string;
  guildId: string;
  name?: string;
}

export type OptionValue = string | number | boolean | FileUpload;

/** A file a user attaches to a slash command's attachment option. */
export interface FileUpload {
  filename: string;
  /** The file's bytes (a string is taken as UTF-8). */
  content: string | Uint8Array;
  contentType?: string;
}

/** A file attached to a message (uploaded by the bot with multipart `files[n]`). */
export interface AttachmentView {
  id: string;
  filename: string;
  contentType: string | null;
  size: number;
  /** Where the double serves it (GET, no auth). */
  url: string;
  /** The bytes, base64. */
  base64: string;
}

export interface ActOptions {
  /** Skip the checks the Discord client does (option validity, permissions, contexts). */
  force?: boolean;
}
