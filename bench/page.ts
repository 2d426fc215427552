/**
 * The campaign page's phase of `npm run bench` (also alone: `npm run bench -- --page-only`): a
 * Mountain Witch table with 6 player characters, their trust matrix and 5,000 log entries (rolls
 * with dice) in its own embedded PostgreSQL; the page server in this process.
 *
 * - render: the server's time for the whole page (read + render), p50/p99 over sequential requests
 *   (goal p99 ≤ 50 ms);
 * - first load: the bytes a browser fetches the first time (HTML, stylesheet, script; goal ≤ 200 KB);
 * - live: 100 open pages of the GM and six players while the table plays (a log entry a second):
 *   this process's CPU per update (all 100 pages; the streams' readers run here too, so it is an
 *   upper bound) and how long until every page has it.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { createLogger } from "../src/log.js";
import { closeDb, createDb } from "../src/store/db.js";
import { startEmbeddedPostgres } from "../src/store/embedded-postgres.js";
import { migrate } from "../src/store/migrate.js";
import { configurePageLinks, pageLink } from "../src/web/links.js";
import { startWebServer } from "../src/web/server.js";
import { round, summarize } from "./stats.js";

const CHARACTERS = 6;
const LOG_ENTRIES = 5000;
const RENDERS = 200;
const LIVE_PAGES = 100;
const LIVE_UPDATES = 20;

export interface PageBenchResult {
  renderMs: { p50: number; p99: number; goalP99: number; pass: boolean };
  firstLoadBytes: { html: number; css: number; js: number; total: number; goal: number; pass: boolean };
  live: {
    pages: number;
    updates: number;
    cpuMsPerUpdate: number;
    cpuMsPerPageUpdate: number;
    allPagesP99Ms: number;
  };
}

export async function runPageBench(say: (line: string) => void = console.log): Promise<PageBenchResult> {
  const dataRoot = mkdtempSync(path.join(tmpdir(), "storybot-bench-page-"));
  chmodSync(dataRoot, 0o711);
  const postgres = await startEmbeddedPostgres({ dataDir: path.join(dataRoot, "postgres") });
  const db = createDb(postgres.url);
  const log = process.env.BENCH_PAGE_LOG ? createLogger("info") : pino({ level: "silent" });
  let server: Awaited<ReturnType<typeof startWebServer>> | null = null;
  try {
    await migrate(postgres.url);
    const { Client } = (await import("pg")).default;
    const sql = new Client({ connectionString: postgres.url });
    await sql.connect();
    const gm = "100000000000000001";
    const [{ id: tableId }] = (
      await sql.query<{ id: number }>(
        `INSERT INTO game_table (guild_id, channel_id, active_channel_id, system, gm_user_id, language)
         VALUES ('200000000000000001', '300000000000000001', '300000000000000001', 'mountain-witch', $1, 'en') RETURNING id`,
        [gm],
      )
    ).rows as [{ id: number }];
    const signs = ["rat", "ox", "tiger", "rabbit", "dragon", "snake"];
    const ids: number[] = [];
    for (let i = 0; i < CHARACTERS; i++) {
      const { rows } = await sql.query<{ id: number }>(
        `INSERT INTO character (table_id, name, name_key, owner_user_id, kind, zodiac, sheet)
         VALUES ($1, $2, $3, $4, 'pc', $5, $6) RETURNING id`,
        [
          tableId,
          `Hero ${i + 1}`,
          `hero ${i + 1}`,
          `10000000000000010${i}`,
          signs[i],
          JSON.stringify({ abilities: ["Sword", "Bow", "Guile"], background: "A ronin far from home." }),
        ],
      );
      ids.push(rows[0]!.id);
    }
    for (const g of ids)
      for (const h of ids)
        if (g !== h)
          await sql.query(
            "INSERT INTO trust_link (table_id, giver_id, holder_id, value, points) VALUES ($1, $2, $3, 2, 2)",
            [tableId, g, h],
          );
    await sql.query(
      `INSERT INTO log_entry (table_id, at, actor_user_id, action, character_id, summary, dice, reason)
       SELECT $1, now() - (($2 - n) * interval '20 seconds'), '10000000000000010' || (n % 6), 'roll', NULL,
         jsonb_build_object('key', 'log.roll', 'params', jsonb_build_object('expression', '2d6', 'total', 7)),
         jsonb_build_object('faces', jsonb_build_array(3, 4)), 'bench roll ' || n
       FROM generate_series(1, $2) n`,
      [tableId, LOG_ENTRIES],
    );
    await sql.query(
      `INSERT INTO dice_rolled (table_id, user_id, at, sides, faces)
       SELECT $1, '10000000000000010' || (n % 6), now(), ARRAY[6, 6], ARRAY[(n % 6) + 1, ((n + 3) % 6) + 1]
       FROM generate_series(1, $2) n`,
      [tableId, LOG_ENTRIES],
    );

    server = await startWebServer({
      host: "127.0.0.1",
      port: 0,
      db,
      databaseUrl: postgres.url,
      log: log as never,
      limits: { ratePerMinute: 100_000, streamsPerAddress: 1000 },
    });
    const base = `http://127.0.0.1:${server.port}`;
    configurePageLinks({ baseUrl: base, days: 7 });
    const table = (await sql.query("SELECT * FROM game_table WHERE id = $1", [tableId])).rows[0];
    // The GM and the six players, each with their own link (each sees their own page).
    const viewers = [gm, ...ids.map((_, i) => `10000000000000010${i}`)];
    const links = await Promise.all(
      viewers.map(
        async (userId) =>
          (
            await pageLink(
              db,
              { ...table, id: tableId, gmUserId: gm } as never,
              { userId, kind: "member", lang: "en" },
              new Date(),
            )
          ).url,
      ),
    );
    const url = links[1]!;

    // Render: sequential requests, each timed by the server's own reply time.
    for (let i = 0; i < 20; i++) await (await fetch(url)).text();
    const times: number[] = [];
    let html = "";
    for (let i = 0; i < RENDERS; i++) {
      const started = performance.now();
      html = await (await fetch(url)).text();
      times.push(performance.now() - started);
    }
    const render = summarize(times);
    // The same page's two halves, in this process: the reads, and the render to HTML.
    const { checkLink } = await import("../src/web/links.js");
    const { loadPage, viewerOf } = await import("../src/web/page-data.js");
    const { renderPage } = await import("../src/web/views/page.js");
    const checked = await checkLink(db, url.split("/p/")[1]!, new Date());
    if (!checked.ok) throw new Error("bench link refused");
    const reads: number[] = [];
    const renders: number[] = [];
    for (let i = 0; i < 50; i++) {
      const a = performance.now();
      const data = await loadPage(db, checked.table, viewerOf(checked.claims, checked.table, "en"));
      const b = performance.now();
      renderPage(data, { self: "/p/x", inLang: () => "/p/x", live: "/p/x/live" }, {});
      reads.push(b - a);
      renders.push(performance.now() - b);
    }
    say(
      `page: reads p50 ${round(summarize(reads).p50, 1)} ms, render to HTML p50 ${round(summarize(renders).p50, 1)} ms`,
    );
    const css = await (await fetch(`${base}/assets/page.css`)).text();
    const js = await (await fetch(`${base}/assets/page.js`)).text();
    const bytes = (s: string) => Buffer.byteLength(s, "utf8");
    const total = bytes(html) + bytes(css) + bytes(js);

    // Live: 100 open streams; each update is a log entry committed by "the table".
    const received: number[][] = [];
    const controllers: AbortController[] = [];
    const streams = await Promise.all(
      Array.from({ length: LIVE_PAGES }, async (_, i) => {
        const controller = new AbortController();
        controllers.push(controller);
        const response = await fetch(`${links[i % links.length]}/live`, { signal: controller.signal });
        const reader = response.body!.getReader();
        received[i] = [];
        const decoder = new TextDecoder();
        let buffer = "";
        void (async () => {
          for (;;) {
            const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
            if (done) return;
            buffer += decoder.decode(value, { stream: true });
            let cut = buffer.indexOf("\n\n");
            while (cut >= 0) {
              if (buffer.slice(0, cut).startsWith("event: page")) received[i]!.push(performance.now());
              buffer = buffer.slice(cut + 2);
              cut = buffer.indexOf("\n\n");
            }
          }
        })();
        return reader;
      }),
    );
    await new Promise((r) => setTimeout(r, 1000));
    const lags: number[] = [];
    const cpuBefore = process.cpuUsage();
    for (let u = 0; u < LIVE_UPDATES; u++) {
      const committed = performance.now();
      await sql.query(
        `INSERT INTO log_entry (table_id, actor_user_id, action, summary) VALUES ($1, $2, 'roll',
          jsonb_build_object('key', 'log.roll', 'params', jsonb_build_object('expression', '1d6', 'total', 4)))`,
        [tableId, gm],
      );
      // Every page has it once each stream received a page sent after the commit.
      const firstAfter = () => received.map((r) => r.find((at) => at > committed));
      const deadline = committed + 10_000;
      while (firstAfter().some((at) => at === undefined) && performance.now() < deadline)
        await new Promise((r) => setTimeout(r, 5));
      lags.push(Math.max(...firstAfter().map((at) => (at ?? deadline) - committed)));
      await new Promise((r) => setTimeout(r, 1000 - Math.min(1000, performance.now() - committed)));
    }
    const cpu = process.cpuUsage(cpuBefore);
    const reached = received.filter((r) => r.length > 0).length;
    if (reached < LIVE_PAGES) say(`page: only ${reached} of ${LIVE_PAGES} live pages received updates`);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    for (const c of controllers) c.abort();
    void streams;
    await sql.end();

    const result: PageBenchResult = {
      renderMs: { p50: round(render.p50, 1), p99: round(render.p99, 1), goalP99: 50, pass: render.p99 <= 50 },
      firstLoadBytes: {
        html: bytes(html),
        css: bytes(css),
        js: bytes(js),
        total,
        goal: 200 * 1024,
        pass: total <= 200 * 1024,
      },
      live: {
        pages: LIVE_PAGES,
        updates: LIVE_UPDATES,
        cpuMsPerUpdate: round(cpuMs / LIVE_UPDATES, 1),
        cpuMsPerPageUpdate: round(cpuMs / LIVE_UPDATES / LIVE_PAGES, 2),
        allPagesP99Ms: round(summarize(lags).p99, 0),
      },
    };
    say(
      `\npage: render p50 ${result.renderMs.p50} ms, p99 ${result.renderMs.p99} ms (goal ≤ 50) — ${CHARACTERS} characters, ${LOG_ENTRIES} log entries`,
    );
    say(
      `page: first load ${round(total / 1024, 1)} KB (HTML ${round(bytes(html) / 1024, 1)} + CSS ${round(bytes(css) / 1024, 1)} + JS ${round(bytes(js) / 1024, 1)}; goal ≤ 200 KB)`,
    );
    say(
      `page: ${LIVE_PAGES} live pages, ${LIVE_UPDATES} updates: ${result.live.cpuMsPerUpdate} ms CPU per update (${result.live.cpuMsPerPageUpdate} ms per page), every page updated within ${result.live.allPagesP99Ms} ms (p99)`,
    );
    return result;
  } finally {
    await server?.close().catch(() => {});
    await closeDb(db).catch(() => {});
    await postgres.stop().catch(() => {});
    rmSync(dataRoot, { recursive: true, force: true });
  }
}
