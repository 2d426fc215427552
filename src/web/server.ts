/**
 * The campaign page's web server (Fastify, logging through the bot's pino logger): `/p/<token>`
 * the page, `/p/<token>/live` its live stream (server-sent events), `/assets/…` its stylesheet and
 * script. It reads PostgreSQL only and never calls Discord. Every request — the live stream's
 * each update included — checks its link (src/web/links.ts); a refused one gets a plain 403 page in
 * the viewer's language and nothing of the table. Links never reach the log whole.
 */
import helmet from "@fastify/helmet";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyReply, type FastifyRequest, LogController } from "fastify";
import type { Logger } from "pino";
import { listenError } from "../http.js";
import type { Lang } from "../i18n/index.js";
import type { Db } from "../store/db.js";
import { PAGE_CSS, PAGE_JS } from "./assets.js";
import { checkLink, tokenForLog } from "./links.js";
import { PageLive } from "./live.js";
import { type JournalFilter, loadPage, StatsCache, viewerOf } from "./page-data.js";
import { ASSETS, forbiddenPage, notFoundPage, type PageUrls, renderBody, renderPage } from "./views/page.js";

/** How often an open live stream says it is still there (proxies close silent connections). */
const HEARTBEAT_MS = 25_000;
/** How often an open stream re-checks its link with nothing else happening (expiry, revocation). */
const RECHECK_MS = 60_000;
/** Requests per address per minute: a whole group behind one address, reloading, stays well under it. */
const RATE_PER_MINUTE = 300;
/** Open live streams per address. */
const STREAMS_PER_ADDRESS = 20;

export interface WebServer {
  port: number;
  live: PageLive;
  close(): Promise<void>;
}

/** The URL path with any token cut short: what the log may show. */
function pathForLog(url: string): string {
  return url.replace(/\/p\/([^/?#]+)/, (_, token: string) => `/p/${tokenForLog(token)}`).replace(/\?.*$/, "");
}

function requestLang(request: FastifyRequest): Lang {
  const asked = (request.query as { lang?: string } | undefined)?.lang;
  if (asked === "ru" || asked === "en") return asked;
  return /^ru\b/i.test(request.headers["accept-language"] ?? "") ? "ru" : "en";
}

function journalFilter(query: Record<string, string | undefined>): JournalFilter {
  const character = Number(query.character);
  return {
    characterId: Number.isInteger(character) && character > 0 ? character : undefined,
    kind: query.kind && /^[a-z-]{1,30}$/.test(query.kind) ? query.kind : undefined,
    beforeId: query.before && /^\d{1,19}$/.test(query.before) ? query.before : undefined,
  };
}

export async function startWebServer(options: {
  host: string;
  port: number;
  db: Db;
  databaseUrl: string;
  log: Logger;
  /** Per-address limits (the page bench opens a hundred pages from one address). */
  limits?: { ratePerMinute?: number; streamsPerAddress?: number };
}): Promise<WebServer> {
  const { db } = options;
  const streamsPerAddress = options.limits?.streamsPerAddress ?? STREAMS_PER_ADDRESS;
  const log = options.log.child(
    { component: "web" },
    {
      serializers: {
        req: (req: { method?: string; url?: string }) => ({
          method: req.method,
          url: pathForLog(req.url ?? ""),
        }),
      },
    },
  );
  const app = Fastify({
    loggerInstance: log,
    // Requests are logged by the hook below, with the link cut short.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: "loopback",
    // Tokens are a few hundred characters; nothing here takes a body.
    routerOptions: { maxParamLength: 600 },
    bodyLimit: 1024,
  });
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: "no-referrer" },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(rateLimit, {
    max: options.limits?.ratePerMinute ?? RATE_PER_MINUTE,
    timeWindow: "1 minute",
  });
  app.addHook("onResponse", async (request, reply) => {
    log.debug(
      {
        method: request.method,
        path: pathForLog(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      "page request",
    );
  });

  const live = new PageLive();
  const statsCache = new StatsCache((tableId) => live.version(tableId));
  const stopListening = options.databaseUrl ? live.listen(options.databaseUrl, log) : async () => {};
  const streams = new Map<string, number>();
  /**
   * Pages open for the same viewer (the same link's claims, language and filter) share one render
   * of each update; each stream still checks its own link first.
   */
  const rendering = new Map<string, Promise<string>>();
  const sharedBody = (key: string, make: () => Promise<string>) => {
    let body = rendering.get(key);
    if (!body) {
      body = make().finally(() => rendering.delete(key));
      rendering.set(key, body);
    }
    return body;
  };
  const closing = new Set<() => void>();

  const refuse = (reply: FastifyReply, lang: Lang) =>
    reply
      .code(403)
      .header("cache-control", "no-store")
      .type("text/html; charset=utf-8")
      .send(forbiddenPage(lang));

  const urlsFor = (token: string): PageUrls => ({
    self: `/p/${token}`,
    inLang: (l) => `/p/${token}?lang=${l}`,
    live: `/p/${token}/live`,
  });

  app.get(ASSETS.css, async (_request, reply) =>
    reply.header("cache-control", "public, max-age=3600").type("text/css; charset=utf-8").send(PAGE_CSS),
  );
  app.get(ASSETS.js, async (_request, reply) =>
    reply
      .header("cache-control", "public, max-age=3600")
      .type("text/javascript; charset=utf-8")
      .send(PAGE_JS),
  );

  // Browsers ask for it on their own; there is none.
  app.get("/favicon.ico", async (_request, reply) =>
    reply.code(204).header("cache-control", "public, max-age=86400").send(),
  );

  app.get<{ Params: { token: string }; Querystring: Record<string, string | undefined> }>(
    "/p/:token",
    async (request, reply) => {
      const { token } = request.params;
      const checked = await checkLink(db, token, new Date());
      if (!checked.ok) {
        log.info({ link: tokenForLog(token), reason: checked.reason }, "page link refused");
        return refuse(
          reply,
          request.query.lang ? requestLang(request) : (checked.lang ?? requestLang(request)),
        );
      }
      const lang =
        request.query.lang === "en" || request.query.lang === "ru" ? request.query.lang : checked.claims.lang;
      const viewer = viewerOf(checked.claims, checked.table, lang);
      const filter = journalFilter(request.query);
      const data = await loadPage(db, checked.table, viewer, filter, statsCache);
      return reply
        .header("cache-control", "no-store")
        .type("text/html; charset=utf-8")
        .send(renderPage(data, urlsFor(token), filter));
    },
  );

  app.get<{ Params: { token: string }; Querystring: Record<string, string | undefined> }>(
    "/p/:token/live",
    async (request, reply) => {
      const { token } = request.params;
      const first = await checkLink(db, token, new Date());
      if (!first.ok) return refuse(reply, first.lang ?? requestLang(request));
      const address = request.ip;
      if ((streams.get(address) ?? 0) >= streamsPerAddress) return reply.code(429).send();
      streams.set(address, (streams.get(address) ?? 0) + 1);
      const lang =
        request.query.lang === "en" || request.query.lang === "ru" ? request.query.lang : first.claims.lang;
      const filter = journalFilter(request.query);
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store, no-transform",
        "x-accel-buffering": "no",
        connection: "keep-alive",
      });
      out.write("retry: 2000\n\n");
      let busy = false;
      let again = false;
      let ended = false;
      const send = (event: string, data: string) => {
        if (ended) return;
        out.write(
          `event: ${event}\n${data
            .split("\n")
            .map((line) => `data: ${line}`)
            .join("\n")}\n\n`,
        );
      };
      // Each update checks the link anew: a revoked or expired link gets "gone" (the page then
      // reloads into the refusal) and nothing more.
      const update = async () => {
        if (ended) return;
        if (busy) {
          again = true;
          return;
        }
        busy = true;
        try {
          const checked = await checkLink(db, token, new Date());
          if (!checked.ok) {
            send("gone", "");
            stop();
            return;
          }
          const { claims } = checked;
          const key = JSON.stringify([claims.tableId, claims.kind, claims.userId, lang, filter, token]);
          const body = await sharedBody(key, async () =>
            renderBody(
              await loadPage(db, checked.table, viewerOf(claims, checked.table, lang), filter, statsCache),
              urlsFor(token),
              filter,
            ),
          );
          send("page", body);
        } catch (error) {
          log.warn({ err: error, link: tokenForLog(token) }, "live page update failed");
        } finally {
          busy = false;
          if (again && !ended) {
            again = false;
            void update();
          }
        }
      };
      const recheck = async () => {
        const checked = await checkLink(db, token, new Date()).catch(() => null);
        if (checked && !checked.ok) {
          send("gone", "");
          stop();
        }
      };
      const unsubscribe = live.subscribe(first.table.id, () => void update());
      const heartbeat = setInterval(() => out.write(": ping\n\n"), HEARTBEAT_MS);
      const rechecker = setInterval(() => void recheck(), RECHECK_MS);
      heartbeat.unref();
      rechecker.unref();
      function stop() {
        if (ended) return;
        ended = true;
        unsubscribe();
        clearInterval(heartbeat);
        clearInterval(rechecker);
        closing.delete(stop);
        const left = (streams.get(address) ?? 1) - 1;
        if (left <= 0) streams.delete(address);
        else streams.set(address, left);
        out.end();
      }
      closing.add(stop);
      request.raw.on("close", stop);
    },
  );

  app.setNotFoundHandler(async (request, reply) =>
    reply
      .code(404)
      .type("text/html; charset=utf-8")
      .send(notFoundPage(requestLang(request))),
  );
  app.setErrorHandler(async (error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) log.error({ err: error, path: pathForLog(request.url) }, "page request failed");
    return reply
      .code(status)
      .type("text/plain; charset=utf-8")
      .send(status === 429 ? "Too many requests" : "Error");
  });

  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await stopListening();
    throw listenError(error as NodeJS.ErrnoException, options.host, options.port, {
      host: "WEB_HOST",
      port: "WEB_PORT",
    });
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    port,
    live,
    async close() {
      for (const stop of [...closing]) stop();
      await stopListening();
      await app.close();
    },
  };
}
