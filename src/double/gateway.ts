import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { type RawData, WebSocket, WebSocketServer } from "ws";
import { sessionId as newSessionId, shardOf } from "./ids.js";
import type { Json, SessionView } from "./types.js";

interface Dispatch {
  op: 0;
  t: string;
  s: number;
  d: unknown;
}

interface Session {
  id: string;
  shardId: number;
  shardCount: number;
  seq: number;
  socket: WebSocket | null;
  /** Every dispatch sent (or queued while disconnected), for RESUME replays. */
  sent: Dispatch[];
  ready: boolean;
  /** A newer IDENTIFY for the same shard replaced it, or it was invalidated. */
  dead: boolean;
  identifiedAt: number;
  resumes: number;
  closeCodes: number[];
}

export interface GatewayHost {
  token: string;
  heartbeatIntervalMs: number;
  /** READY payload except session fields. */
  readyBase(): { user: Json; application: Json };
  /** GUILD_CREATE payloads for the guilds this shard owns. */
  guildCreates(shardId: number, shardCount: number): Json[];
  /** GUILD_MEMBERS_CHUNK answering an op 8 request (null for an unknown guild). */
  membersChunk(request: Json): Json | null;
  log(line: string): void;
  changed(): void;
}

const REPLAY_LIMIT = 1000;

/** The gateway WebSocket: HELLO, heartbeats, IDENTIFY/READY, RESUME with replay, shard routing. */
export class Gateway {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sessions = new Map<string, Session>();
  private readonly sockets = new Set<WebSocket>();
  private url = "";
  /** A close code every IDENTIFY is answered with (as Discord refuses a revoked token or a disallowed intent). */
  refuseIdentifyWith: number | null = null;

  constructor(private readonly host: GatewayHost) {}

  attach(server: Server, url: string): void {
    this.url = url;
    server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws));
    });
  }

  close(): void {
    for (const ws of this.sockets) ws.terminate();
    this.sockets.clear();
    this.wss.close();
  }

  views(): SessionView[] {
    return [...this.sessions.values()]
      .filter((s) => !s.dead)
      .map((s) => ({
        id: s.id,
        shard: [s.shardId, s.shardCount] as [number, number],
        connected: s.socket !== null,
        ready: s.ready,
        seq: s.seq,
        identifiedAt: s.identifiedAt,
        resumes: s.resumes,
        closeCodes: [...s.closeCodes],
      }));
  }

  /** Shards that currently have a live (connected and ready) session. */
  readyShards(): Array<[number, number]> {
    return [...this.sessions.values()]
      .filter((s) => !s.dead && s.ready && s.socket !== null)
      .map((s) => [s.shardId, s.shardCount]);
  }

  /**
   * Sends a dispatch to the one session responsible for `guildId` (null = DMs = shard 0). A disconnected but
   * resumable session queues it for replay. Returns the session id, or null when nobody owns that shard.
   */
  dispatchOne(guildId: string | null, t: string, d: unknown): string | null {
    const candidates = this.owners(guildId);
    const chosen = candidates.find((s) => s.socket !== null) ?? candidates[0];
    if (!chosen) return null;
    this.send(chosen, t, d);
    return chosen.id;
  }

  /** Sends a dispatch to every session owning `guildId` (e.g. GUILD_CREATE for a guild added later). */
  dispatchAll(guildId: string | null, t: string, d: unknown): void {
    for (const s of this.owners(guildId)) this.send(s, t, d);
  }

  /** Drops matching connections. Returns how many were dropped. */
  drop(opts: { shardId?: number; mode?: "close" | "destroy" | "reconnect" | "invalidate" }): number {
    let dropped = 0;
    for (const s of this.sessions.values()) {
      if (s.dead || !s.socket) continue;
      if (opts.shardId !== undefined && s.shardId !== opts.shardId) continue;
      const ws = s.socket;
      switch (opts.mode ?? "close") {
        case "close":
          ws.close(4000, "Unknown error");
          break;
        case "destroy":
          ws.terminate();
          break;
        case "reconnect":
          ws.send(JSON.stringify({ op: 7, d: null }));
          break;
        case "invalidate":
          s.dead = true;
          ws.send(JSON.stringify({ op: 9, d: false }));
          break;
      }
      dropped += 1;
    }
    this.host.changed();
    return dropped;
  }

  private owners(guildId: string | null): Session[] {
    return [...this.sessions.values()]
      .filter((s) => !s.dead && s.ready)
      .filter((s) => (guildId === null ? s.shardId === 0 : shardOf(guildId, s.shardCount) === s.shardId))
      .sort((a, b) => b.identifiedAt - a.identifiedAt);
  }

  private send(session: Session, t: string, d: unknown): void {
    session.seq += 1;
    const payload: Dispatch = { op: 0, t, s: session.seq, d };
    session.sent.push(payload);
    if (session.sent.length > REPLAY_LIMIT) session.sent.shift();
    if (session.socket && session.socket.readyState === WebSocket.OPEN) {
      session.socket.send(JSON.stringify(payload));
    }
  }

  private onConnection(ws: WebSocket): void {
    this.sockets.add(ws);
    let session: Session | null = null;
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: this.host.heartbeatIntervalMs } }));

    ws.on("message", (raw: RawData) => {
      let packet: { op?: unknown; d?: unknown };
      try {
        packet = JSON.parse(raw.toString());
      } catch {
        ws.close(4002, "Error while decoding payload");
        return;
      }
      switch (packet.op) {
        case 1:
          ws.send(JSON.stringify({ op: 11 }));
          break;
        case 2:
          if (session) {
            ws.close(4005, "Already authenticated");
            return;
          }
          session = this.identify(ws, packet.d);
          break;
        case 6:
          if (session) {
            ws.close(4005, "Already authenticated");
            return;
          }
          session = this.resume(ws, packet.d);
          break;
        case 8: {
          if (!session) {
            ws.close(4003, "Not authenticated");
            return;
          }
          const chunk = this.host.membersChunk((packet.d ?? {}) as Json);
          if (chunk) this.send(session, "GUILD_MEMBERS_CHUNK", chunk);
          break;
        }
        case 3:
        case 4:
          if (!session) ws.close(4003, "Not authenticated");
          break;
        default:
          ws.close(4001, "Unknown opcode");
      }
    });

    ws.on("close", (code: number) => {
      this.sockets.delete(ws);
      if (session && session.socket === ws) {
        session.socket = null;
        session.closeCodes.push(code);
        this.host.log(`gateway: shard ${session.shardId} session ${session.id} disconnected (${code})`);
        this.host.changed();
      }
    });
    ws.on("error", () => {});
  }

  private identify(ws: WebSocket, d: unknown): Session | null {
    const data = (d ?? {}) as { token?: unknown; shard?: unknown; intents?: unknown };
    if (this.refuseIdentifyWith !== null) {
      ws.close(this.refuseIdentifyWith, "Refused");
      return null;
    }
    if (data.token !== this.host.token && data.token !== `Bot ${this.host.token}`) {
      ws.close(4004, "Authentication failed");
      return null;
    }
    if (typeof data.intents !== "number") {
      ws.close(4013, "Invalid intent(s)");
      return null;
    }
    const [shardId, shardCount] = Array.isArray(data.shard) ? (data.shard as number[]) : [0, 1];
    if (
      typeof shardId !== "number" ||
      typeof shardCount !== "number" ||
      shardCount < 1 ||
      shardId < 0 ||
      shardId >= shardCount
    ) {
      ws.close(4010, "Invalid shard");
      return null;
    }
    for (const old of this.sessions.values()) {
      if (old.shardId === shardId && old.shardCount === shardCount && old.socket === null) old.dead = true;
    }
    const session: Session = {
      id: newSessionId(),
      shardId,
      shardCount,
      seq: 0,
      socket: ws,
      sent: [],
      ready: false,
      dead: false,
      identifiedAt: Date.now(),
      resumes: 0,
      closeCodes: [],
    };
    this.sessions.set(session.id, session);
    const guilds = this.host.guildCreates(shardId, shardCount);
    this.send(session, "READY", {
      v: 10,
      ...this.host.readyBase(),
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      session_id: session.id,
      resume_gateway_url: this.url,
      shard: [shardId, shardCount],
      private_channels: [],
      presences: [],
      relationships: [],
      guild_join_requests: [],
      user_settings: {},
      geo_ordered_rtc_regions: [],
    });
    for (const g of guilds) this.send(session, "GUILD_CREATE", g);
    session.ready = true;
    this.host.log(`gateway: shard ${shardId}/${shardCount} identified as session ${session.id}`);
    this.host.changed();
    return session;
  }

  private resume(ws: WebSocket, d: unknown): Session | null {
    const data = (d ?? {}) as { token?: unknown; session_id?: unknown; seq?: unknown };
    if (data.token !== this.host.token && data.token !== `Bot ${this.host.token}`) {
      ws.close(4004, "Authentication failed");
      return null;
    }
    const session = typeof data.session_id === "string" ? this.sessions.get(data.session_id) : undefined;
    if (!session || session.dead) {
      ws.send(JSON.stringify({ op: 9, d: false }));
      return null;
    }
    if (session.socket && session.socket !== ws) session.socket.terminate();
    session.socket = ws;
    const from = typeof data.seq === "number" ? data.seq : 0;
    const missed = session.sent.filter((p) => p.s > from);
    for (const p of missed) ws.send(JSON.stringify(p));
    session.resumes += 1;
    this.send(session, "RESUMED", {});
    this.host.log(`gateway: session ${session.id} resumed from seq ${from}, replayed ${missed.length}`);
    this.host.changed();
    return session;
  }
}
