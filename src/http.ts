import { createServer, type Server } from "node:http";
import type { Metrics } from "./metrics.js";

/**
 * Operations endpoints: `/healthz` (the process is up), `/readyz` (gateway connected and
 * database reachable), `/metrics` (Prometheus).
 */
export function startHttpServer(options: {
  port: number;
  metrics: Metrics;
  readiness: () => Promise<{ gateway: boolean; database: boolean }>;
}): Promise<{ server: Server; port: number }> {
  const server = createServer(async (req, res) => {
    try {
      if (req.url === "/healthz") {
        res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
      } else if (req.url === "/readyz") {
        const ready = await options.readiness();
        const ok = ready.gateway && ready.database;
        res
          .writeHead(ok ? 200 : 503, { "content-type": "application/json" })
          .end(JSON.stringify({ ...ready, ready: ok }));
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
    server.once("error", reject);
    server.listen(options.port, "0.0.0.0", () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : options.port });
    });
  });
}
