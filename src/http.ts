import { createServer, type Server } from "node:http";
import { ConfigError } from "./config.js";
import type { Metrics } from "./metrics.js";

/** Longer than a healthy check ever takes, shorter than a typical probe's timeout. */
const READINESS_TIMEOUT_MS = 2000;

/**
 * Operations endpoints: `/healthz` (the process is up), `/readyz` (gateway connected and
 * database reachable), `/metrics` (Prometheus).
 */
export function startHttpServer(options: {
  host: string;
  port: number;
  metrics: Metrics;
  readiness: () => Promise<{ gateway: boolean; database: boolean }>;
}): Promise<{ server: Server; port: number }> {
  const server = createServer(async (req, res) => {
    try {
      if (req.url === "/healthz") {
        res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
      } else if (req.url === "/readyz") {
        // A database that does not answer at all must not hang the probe: not ready.
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), READINESS_TIMEOUT_MS);
        });
        const ready = await Promise.race([options.readiness(), timedOut]).finally(() => clearTimeout(timer));
        const ok = Boolean(ready?.gateway && ready.database);
        res
          .writeHead(ok ? 200 : 503, { "content-type": "application/json" })
          .end(JSON.stringify(ready ? { ...ready, ready: ok } : { ready: false, timedOut: true }));
      } else if (req.url === "/metrics") {
        res.writeHead(200, { "content-type": options.metrics.registry.contentType });
        res.end(await options.metrics.registry.metrics());
      } else {
        res.writeHead(404).end();
      }
    } catch {
      res.writeHead(500).end();
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", (error) => reject(listenError(error, options.host, options.port)));
    server.listen(options.port, options.host, () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : options.port });
    });
  });
}

/**
 * A port or address the host must change, said as the setting to change (no stack); anything else
 * as it is. `settings` names the pair of settings the address came from (HTTP_* or WEB_*).
 */
export function listenError(
  error: NodeJS.ErrnoException,
  host: string,
  port: number,
  settings: { host: string; port: string } = { host: "HTTP_HOST", port: "HTTP_PORT" },
): Error {
  switch (error.code) {
    case "EADDRINUSE":
      return new ConfigError(
        `${settings.port} ${port} is already in use on ${host} (another program, or another copy of the bot). ` +
          `Set ${settings.port} to a free port (0 picks any), or stop the other program.`,
        "invalid",
      );
    case "EACCES":
      return new ConfigError(
        `This user may not listen on ${host}:${port}. Set ${settings.port} to a port above 1023.`,
        "invalid",
      );
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new ConfigError(
        `${settings.host} ${host} is not an address of this machine. Set ${settings.host} to 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).`,
        "invalid",
      );
    default:
      return error;
  }
}
