import { WebSocket } from "ws";

/**
 * A V8 CPU profile of a running bot, over exactly the measured window: the bot is started with
 * `--inspect=127.0.0.1:0`, and this talks the DevTools protocol to its inspector.
 */
export class InspectorSession {
  private nextId = 1;
  private readonly pending = new Map<number, (result: unknown) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on("message", (raw) => {
      const message = JSON.parse(raw.toString()) as { id?: number; result?: unknown };
      if (message.id !== undefined) this.pending.get(message.id)?.(message.result);
    });
  }

  static async connect(url: string): Promise<InspectorSession> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => {
      socket.once("open", resolve);
      socket.once("error", reject);
    });
    return new InspectorSession(socket);
  }

  send<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve) => {
      this.pending.set(id, (result) => resolve(result as T));
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  async startProfiling(): Promise<void> {
    await this.send("Profiler.enable");
    await this.send("Profiler.setSamplingInterval", { interval: 200 });
    await this.send("Profiler.start");
  }

  async stopProfiling(): Promise<unknown> {
    const { profile } = await this.send<{ profile: unknown }>("Profiler.stop");
    return profile;
  }

  close(): void {
    this.socket.close();
  }
}
