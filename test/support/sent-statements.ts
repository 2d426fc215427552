import pg from "pg";

/**
 * Records the text of every statement the pg driver sends (each `query` call is one round trip)
 * into `sent` until `stop()`: how tests count what an action sends.
 */
export function recordSentStatements(sent: string[] = []): { sent: string[]; stop(): void } {
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0] as string | { text?: string };
    sent.push(typeof q === "string" ? q : (q?.text ?? ""));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  return {
    sent,
    stop() {
      pg.Client.prototype.query = query;
    },
  };
}
