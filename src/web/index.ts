/**
 * The campaign page as the bot starts it (src/main.ts): one process serves it — the sharding
 * manager, or the process serving shard 0 — and every process builds links from the same settings.
 */
import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { Db } from "../store/db.js";
import { configurePageLinks } from "./links.js";
import { startWebServer, type WebServer } from "./server.js";

export type { WebServer } from "./server.js";

/** Links are built from WEB_BASE_URL, or from this machine's address and the page's port. */
export function configureLinks(config: Config, port = config.WEB_PORT): string {
  const baseUrl = config.WEB_BASE_URL ?? `http://localhost:${port}`;
  configurePageLinks({ baseUrl, days: config.WEB_LINK_DAYS });
  return baseUrl;
}

export async function servePage(
  config: Config,
  db: Db,
  databaseUrl: string,
  log: Logger,
): Promise<WebServer> {
  const server = await startWebServer({ host: config.WEB_HOST, port: config.WEB_PORT, db, databaseUrl, log });
  const baseUrl = configureLinks(config, server.port);
  log.info({ host: config.WEB_HOST, port: server.port, baseUrl }, "campaign page listening");
  return server;
}
