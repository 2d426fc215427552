/**
 * The campaign page in a real browser: headless Chromium opens each game's page after a session
 * played through the real bot and the Discord double, for the GM, two players and a spectator.
 * The numbers on the page are the books' (read from PostgreSQL); the trust matrix, the reserve
 * ledger and the aspect board are drawn; a roll made in Discord shows on the open page within 2 s;
 * no console error; a character named like an XSS attack is text; a phone's 390×844 viewport has
 * no horizontal scroll; expired, revoked and tampered links are refused. Screenshots go to docs/.
 */
import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyKey, t } from "../../src/i18n/index.js";
import { signToken } from "../../src/web/links.js";
import { type E2E, startE2E } from "../e2e/harness.js";
import { launchBrowser, scrollsSideways, watchedPage } from "./browser.js";

const XSS = "<img src=x onerror=alert(1)>";

describe("web: the campaign page in a browser", () => {
  let e2e: E2E;
  let browser: Browser;
  let gm: string;
  let ana: string;
  let boris: string;
  let webPort = 0;
  const channels: Record<string, string> = {};

  const slash = (
    user: string,
    game: string,
    command: string,
    path: string[],
    options: Record<string, string | number | boolean> = {},
  ) => e2e.double.slash(user, channels[game]!, command, path, options).settled();

  /** `/table page` as `user` (options: public, revoke): the link the ephemeral answer holds, on this machine. */
  async function linkFor(user: string, game: string, options: Record<string, boolean> = {}): Promise<string> {
    const answer = await slash(user, game, "table", ["page"], options);
    const text = answer.original?.text ?? "";
    expect(answer.original?.ephemeral, text).toBe(true);
    const url = /https?:\/\/\S+\/p\/[A-Za-z0-9_.-]+/.exec(text)?.[0];
    expect(url, text).toBeTruthy();
    return url!;
  }

  async function open(url: string, viewport?: { width: number; height: number }) {
    const watched = await watchedPage(browser, viewport);
    const response = await watched.page.goto(url);
    return { ...watched, status: response?.status() ?? 0 };
  }

  beforeAll(async () => {
    e2e = await startE2E();
    const line = (await e2e.bot.writtenLogs()).find((l) => l.msg === "campaign page listening");
    webPort = Number(line?.port);
    browser = await launchBrowser();
    gm = e2e.double.addUser({ username: "gail", locale: "en-US" });
    ana = e2e.double.addUser({ username: "ana", locale: "en-US" });
    boris = e2e.double.addUser({ username: "boris", locale: "ru" });
    mkdirSync("docs", { recursive: true });
    for (const game of ["mountain-witch", "beast-hunters", "fate"]) {
      channels[game] = e2e.double.addChannel({ guildId: e2e.guildId, name: game });
      await slash(gm, game, "table", ["setup"], { system: game });
    }
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await e2e?.stop();
  });

  it("serves on its own port, links are built from it, and it logs no link whole", async () => {
    expect(webPort).toBeGreaterThan(0);
    const url = await linkFor(ana, "mountain-witch");
    expect(url.startsWith(`http://localhost:${webPort}/p/`)).toBe(true);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    const token = url.split("/p/")[1]!;
    const output = await e2e.bot.writtenOutput();
    expect(output.join("\n")).not.toContain(token);
  });

  describe("The Mountain Witch", () => {
    let links: Record<"gm" | "ana" | "boris" | "spectator", string>;
    let anaFate = "";

    beforeAll(async () => {
      const g = "mountain-witch";
      await slash(ana, g, "character", ["create"], { name: "Akio", zodiac: "rat" });
      await slash(boris, g, "character", ["create"], { name: XSS, zodiac: "dragon" });
      await slash(gm, g, "character", ["create"], { name: "Oni", kind: "npc", strength: "strong" });
      // Before chapter 1 a trust edit is the giver's secret (docs/rules/mountain-witch.md §1.3).
      await slash(ana, g, "trust", ["set"], { target: XSS, value: 4 });
      await slash(gm, g, "darkfate", ["deal"]);
      await slash(ana, g, "roll", [], { expression: "1d6", secret: true, reason: "ana-secret-roll" });
      await slash(boris, g, "roll", [], { expression: "2d6", reason: "boris-public-roll" });
      const [hand] = await e2e.database.query<{ fate: string }>(
        "SELECT h->>'fate' AS fate FROM game_table t, jsonb_array_elements(t.state->'mw'->'fates'->'hands') h JOIN character c ON c.id = (h->>'characterId')::int WHERE c.name = 'Akio'",
      );
      anaFate = hand!.fate;
      links = {
        gm: await linkFor(gm, g),
        ana: await linkFor(ana, g),
        boris: await linkFor(boris, g),
        spectator: await linkFor(gm, g, { public: true }),
      };
    });

    it("draws the trust matrix with the books' numbers, for every viewer", async () => {
      const books = await e2e.database.query<{
        giver: string;
        holder: string;
        value: number;
        points: number;
      }>(
        "SELECT g.name AS giver, h.name AS holder, l.value, l.points FROM trust_link l JOIN character g ON g.id = l.giver_id JOIN character h ON h.id = l.holder_id",
      );
      expect(books.length).toBe(2);
      for (const url of Object.values(links)) {
        const { page, problems, status, requests } = await open(url);
        expect(status).toBe(200);
        // No third-party request: everything the page loads comes from its own server.
        expect(
          requests.every((r) => r.startsWith(`http://localhost:${webPort}/`)),
          requests.join(" "),
        ).toBe(true);
        const cells = await page.$$eval("svg.trust-matrix g.trust", (gs) =>
          gs.map((g) => ({
            giver: g.getAttribute("data-giver"),
            holder: g.getAttribute("data-holder"),
            value: Number(g.getAttribute("data-value")),
            points: Number(g.getAttribute("data-points")),
          })),
        );
        expect(cells.sort((a, b) => a.giver!.localeCompare(b.giver!))).toEqual(
          books.sort((a, b) => a.giver.localeCompare(b.giver)),
        );
        expect(problems).toEqual([]);
        await page.context().close();
      }
    });

    it("shows a player's dark fate to that player alone, and the XSS-named character as text", async () => {
      const own = await open(links.ana);
      expect(await own.page.locator('[data-secret="fate"]').count()).toBe(1);
      const seen = (await own.page.locator('[data-secret="fate"]').textContent()) ?? "";
      expect(seen.length).toBeGreaterThan(10);
      await own.page.context().close();
      for (const url of [links.gm, links.boris, links.spectator]) {
        const { page, problems } = await open(url);
        // Boris sees his own fate, and nobody else's; the GM and a spectator see none.
        expect(await page.locator('[data-secret="fate"]').count()).toBe(url === links.boris ? 1 : 0);
        expect(await page.content()).not.toContain(t("en", familyKey("mw.fate.desc.", anaFate)));
        // The XSS name: its characters shown, nothing run, no image made of it.
        expect(await page.locator(`[data-character="${XSS.replace(/"/g, '\\"')}"] h3`).textContent()).toBe(
          XSS,
        );
        expect(await page.locator("img").count()).toBe(0);
        expect(problems).toEqual([]);
        await page.context().close();
      }
      expect(seen).toContain(t("en", familyKey("mw.fate.", anaFate)));
    });

    it("a roll made in Discord shows on the open page within 2 s", async () => {
      const { page, problems } = await open(links.boris);
      await page.waitForFunction(() => !document.getElementById("live-state")?.hidden, null, {
        timeout: 5000,
      });
      const settled = await slash(ana, "mountain-witch", "roll", [], {
        expression: "3d6",
        reason: "live-roll-1",
      });
      expect(settled.original?.text).toContain("live-roll-1");
      const since = Date.now();
      await page.waitForFunction(() => document.body.textContent.includes("live-roll-1"), null, {
        timeout: 2000,
      });
      expect(Date.now() - since).toBeLessThan(2000);
      expect(problems).toEqual([]);
      await page.screenshot({ path: "docs/page-mountain-witch.png", fullPage: true });
      await page.context().close();
    });

    it("has no horizontal scroll on a 390×844 phone", async () => {
      for (const url of [links.gm, links.ana]) {
        const { page, problems } = await open(url, { width: 390, height: 844 });
        expect(await scrollsSideways(page)).toBe(false);
        expect(problems).toEqual([]);
        if (url === links.ana)
          await page.screenshot({ path: "docs/page-mountain-witch-phone.png", fullPage: true });
        await page.context().close();
      }
    });
  });

  describe("Beast Hunters", () => {
    let links: Record<"gm" | "ana" | "boris" | "spectator", string>;

    beforeAll(async () => {
      const g = "beast-hunters";
      await slash(ana, g, "character", ["create"], { name: "Hana" });
      await slash(boris, g, "character", ["create"], { name: "Ivo" });
      await slash(ana, g, "reserve", ["set"], { total: 20, ceiling: 8 });
      await slash(gm, g, "reserve", ["spend"], { amount: 3, reason: "ambush-at-the-ford" });
      await slash(gm, g, "reserve", ["spend"], { amount: 5, reason: "the-beast-wakes" });
      await slash(gm, g, "character", ["vp", "add"], { amount: 2, reason: "brave", character: "Hana" });
      await slash(boris, g, "roll", [], { expression: "1d6", secret: true, reason: "boris-secret-roll" });
      links = {
        gm: await linkFor(gm, g),
        ana: await linkFor(ana, g),
        boris: await linkFor(boris, g),
        spectator: await linkFor(gm, g, { public: true }),
      };
    });

    it("draws the reserve ledger — table and chart — and the standings, equal to the books", async () => {
      const [pool] = await e2e.database.query<{ total: number; spent: number }>(
        "SELECT total, spent FROM reserve_pool",
      );
      const entries = await e2e.database.query<{ left: number }>(
        "SELECT (after->>'left')::int AS left FROM log_entry l JOIN game_table t ON t.id = l.table_id WHERE t.system = 'beast-hunters' AND after ? 'left' AND after ? 'ceiling' ORDER BY l.id",
      );
      const vp = await e2e.database.query<{ name: string; vp: number }>(
        "SELECT c.name, c.victory_points AS vp FROM character c JOIN game_table t ON t.id = c.table_id WHERE t.system = 'beast-hunters' ORDER BY c.name",
      );
      expect(entries.map((e) => e.left)).toEqual([20, 17, 12]);
      for (const url of Object.values(links)) {
        const { page, problems, status } = await open(url);
        expect(status).toBe(200);
        expect(Number(await page.locator("[data-reserve-left]").getAttribute("data-reserve-left"))).toBe(
          pool!.total - pool!.spent,
        );
        const rows = await page.$$eval("table.ledger tbody tr", (trs) =>
          trs.map((tr) => Number(tr.getAttribute("data-ledger-left"))),
        );
        expect(rows).toEqual(entries.map((e) => e.left));
        const points = await page.$$eval("svg.ledger-chart circle.point", (cs) =>
          cs.map((c) => Number(c.getAttribute("data-left"))),
        );
        expect(points).toEqual(entries.map((e) => e.left));
        expect(await page.locator("svg.ledger-chart line.ceiling").count()).toBe(1);
        expect(await page.locator("table.ledger").textContent()).toContain("the-beast-wakes");
        const standings = await page.$$eval("table.standings tbody tr", (trs) =>
          trs.map((tr) => ({ name: tr.getAttribute("data-hunter"), vp: Number(tr.getAttribute("data-vp")) })),
        );
        expect(standings.sort((a, b) => a.name!.localeCompare(b.name!))).toEqual(vp);
        expect(problems).toEqual([]);
        if (url === links.gm) await page.screenshot({ path: "docs/page-beast-hunters.png", fullPage: true });
        await page.context().close();
      }
      const phone = await open(links.ana, { width: 390, height: 844 });
      expect(await scrollsSideways(phone.page)).toBe(false);
      expect(phone.problems).toEqual([]);
      await phone.page.context().close();
    });

    it("a reserve spend made in Discord shows on the open page within 2 s", async () => {
      const { page, problems } = await open(links.spectator);
      await page.waitForFunction(() => !document.getElementById("live-state")?.hidden, null, {
        timeout: 5000,
      });
      await slash(gm, "beast-hunters", "reserve", ["spend"], { amount: 2, reason: "live-spend" });
      const since = Date.now();
      await page.waitForFunction(
        () => document.querySelector("[data-reserve-left]")?.getAttribute("data-reserve-left") === "10",
        null,
        {
          timeout: 2000,
        },
      );
      expect(Date.now() - since).toBeLessThan(2000);
      expect(await page.locator("table.ledger").textContent()).toContain("live-spend");
      expect(problems).toEqual([]);
      await page.context().close();
    });
  });

  describe("Fate", () => {
    let links: Record<"gm" | "ana" | "boris" | "spectator", string>;

    beforeAll(async () => {
      const g = "fate";
      await slash(ana, g, "character", ["create"], { name: "Lina" });
      await slash(boris, g, "character", ["create"], { name: "Mirko" });
      await slash(gm, g, "aspect", ["add"], { name: "Burning bridge", invokes: 1 });
      await slash(ana, g, "aspect", ["add"], { name: "Stubborn as a mule", character: "Lina", kind: "flaw" });
      await slash(ana, g, "check", [], { skill: "athletics" });
      await slash(gm, g, "faction", ["create"], { name: "Iron Guild", aspects: "Greedy merchants" });
      await slash(gm, g, "faction", ["hit"], { name: "Iron Guild", shifts: 1, track: "army" });
      await slash(gm, g, "conflict", ["start"], { title: "Fight on the bridge" });
      await slash(ana, g, "conflict", ["join"], { character: "Lina" });
      links = {
        gm: await linkFor(gm, g),
        ana: await linkFor(ana, g),
        boris: await linkFor(boris, g),
        spectator: await linkFor(gm, g, { public: true }),
      };
    });

    it("draws the aspect board with the books' free invokes, and every sheet's fate points", async () => {
      const aspects = await e2e.database.query<{ name: string; free: number }>(
        "SELECT a.name, a.free_invokes AS free FROM aspect a JOIN game_table t ON t.id = a.table_id WHERE t.system = 'fate' AND a.removed_at IS NULL ORDER BY a.name",
      );
      expect(aspects.map((a) => a.name)).toEqual(["Burning bridge", "Stubborn as a mule"]);
      const fp = await e2e.database.query<{ name: string; fp: number }>(
        "SELECT c.name, c.fate_points AS fp FROM character c JOIN game_table t ON t.id = c.table_id WHERE t.system = 'fate' ORDER BY c.name",
      );
      for (const url of Object.values(links)) {
        const { page, problems, status } = await open(url);
        expect(status).toBe(200);
        const board = await page.$$eval("#aspects .card:not(.faction) li.aspect", (lis) =>
          lis.map((li) => ({
            name: li.getAttribute("data-aspect"),
            free: Number(li.getAttribute("data-free")),
          })),
        );
        expect(board.sort((a, b) => a.name!.localeCompare(b.name!))).toEqual(aspects);
        // The faction's aspect on the board, its tracks, and the running conflict with its turn order.
        expect(await page.locator("#aspects .card.faction").textContent()).toContain("Greedy merchants");
        expect(await page.locator("#aspects").textContent()).toContain("Iron Guild");
        expect(await page.locator("#now").textContent()).toContain("Fight on the bridge");
        expect(await page.locator("#now").textContent()).toContain("Lina");
        for (const c of fp) {
          const sheet = await page.locator(`[data-character="${c.name}"]`).textContent();
          expect(sheet).toContain(String(c.fp));
        }
        expect(problems).toEqual([]);
        if (url === links.boris) await page.screenshot({ path: "docs/page-fate.png", fullPage: true });
        await page.context().close();
      }
      const phone = await open(links.boris, { width: 390, height: 844 });
      expect(await scrollsSideways(phone.page)).toBe(false);
      await phone.page.screenshot({ path: "docs/page-fate-phone.png", fullPage: false });
      await phone.page.context().close();
    });

    it("works without JavaScript: the whole page is in the server's HTML", async () => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(links.gm);
      // Two table aspects and the faction's one; the running conflict; the journal.
      expect(await page.locator("#aspects li.aspect").count()).toBe(3);
      expect(await page.locator("#now").count()).toBe(1);
      expect(await page.locator("#journal li.entry").count()).toBeGreaterThan(3);
      await context.close();
    });

    it("switches between English and Russian, and filters the journal by character and kind", async () => {
      const { page, problems } = await open(links.ana);
      expect(await page.locator("h1").textContent()).toContain("Fate of Panavea");
      await page.locator('nav.langs a[hreflang="ru"]').click();
      await page.waitForLoadState();
      expect(await page.locator("h1").textContent()).toContain("Fate Панавеи");
      expect(await page.locator("html").getAttribute("lang")).toBe("ru");
      const all = await page.locator("#journal li.entry").count();
      await page.locator('select[name="kind"]').selectOption("fate");
      await page.locator("#journal form button").click();
      await page.waitForLoadState();
      const kinds = await page.$$eval("#journal li.entry", (lis) =>
        lis.map((li) => li.getAttribute("data-kind")),
      );
      expect(kinds.length).toBeGreaterThan(0);
      expect(kinds.length).toBeLessThan(all);
      expect(new Set(kinds)).toEqual(new Set(["fate"]));
      // Still in Russian after the filter.
      expect(await page.locator("html").getAttribute("lang")).toBe("ru");
      expect(problems).toEqual([]);
      await page.context().close();
    });
  });

  describe("sessions", () => {
    it("/table session end (GM) posts the recap; the journal closes that session, with its recap, and the next roll opens another", async () => {
      const g = "fate";
      const refused = await slash(ana, g, "table", ["session", "end"]);
      expect(refused.original?.ephemeral).toBe(true);
      const before = await e2e.database.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM log_entry WHERE action = 'session.end'",
      );
      expect(before[0]!.n).toBe(0);
      const ended = await slash(gm, g, "table", ["session", "end"]);
      expect(ended.original?.ephemeral).toBe(false);
      const recap = ended.original?.text ?? "";
      expect(recap).toContain("Session recap");
      expect(recap).toMatch(/Lina/);
      expect(recap).toContain("Sheets changed");
      // Nothing new since: a second end has nothing to recap.
      const again = await slash(gm, g, "table", ["session", "end"]);
      expect(again.original?.ephemeral).toBe(true);
      await slash(boris, g, "roll", [], { expression: "4dF", reason: "next-session-roll" });
      const { page, problems } = await open(await linkFor(boris, g));
      const sessions = await page.$$eval("#journal details.session", (ds) =>
        ds.map((d) => ({
          n: d.getAttribute("data-session"),
          recap: d.querySelector(".recap")?.textContent ?? "",
        })),
      );
      expect(sessions.map((x) => x.n)).toEqual(["2", "1"]);
      expect(sessions[0]!.recap).toBe("");
      // Boris reads Russian: the recap of session 1 is in his language.
      expect(sessions[1]!.recap).toContain("Итоги");
      expect(problems).toEqual([]);
      await page.context().close();
    });
  });

  describe("secrets", () => {
    /** Everything one viewer's page sends: its HTML, its assets, and a live update. */
    async function everythingSent(url: string, game: string): Promise<string> {
      const html = await (await fetch(url)).text();
      const base = url.split("/p/")[0]!;
      const assets = await Promise.all(
        ["/assets/page.css", "/assets/page.js"].map(async (a) => (await fetch(`${base}${a}`)).text()),
      );
      const controller = new AbortController();
      const stream = await fetch(`${url}/live`, { signal: controller.signal });
      const reader = stream.body!.getReader();
      let streamed = "";
      const decoder = new TextDecoder();
      // A public change at the table makes the stream send the viewer's page again.
      const change = slash(gm, game, "roll", [], { expression: "1d4", reason: "stream-nudge" });
      while (!streamed.includes("event: page")) {
        const { value, done } = await reader.read();
        if (done) break;
        streamed += decoder.decode(value, { stream: true });
      }
      // The rest of that event.
      while (!/event: page[\s\S]*\n\n/.test(streamed)) {
        const { value, done } = await reader.read();
        if (done) break;
        streamed += decoder.decode(value, { stream: true });
      }
      await change;
      controller.abort();
      return [html, ...assets, streamed].join("\n");
    }

    it("no viewer's HTML, live stream or asset holds another user's secret", async () => {
      const mw = "mountain-witch";
      const fates = await e2e.database.query<{ name: string; fate: string }>(
        "SELECT c.name, h->>'fate' AS fate FROM game_table t, jsonb_array_elements(t.state->'mw'->'fates'->'hands') h JOIN character c ON c.id = (h->>'characterId')::int",
      );
      const fateText = (name: string) => {
        const f = fates.find((x) => x.name === name)!.fate;
        return [
          t("en", familyKey("mw.fate.", f)),
          t("ru", familyKey("mw.fate.", f)),
          t("en", familyKey("mw.fate.desc.", f)),
          t("ru", familyKey("mw.fate.desc.", f)),
        ];
      };
      const viewers = {
        gm: await linkFor(gm, mw),
        ana: await linkFor(ana, mw),
        boris: await linkFor(boris, mw),
        spectator: await linkFor(gm, mw, { public: true }),
      };
      const sent: Record<string, string> = {};
      for (const [who, url] of Object.entries(viewers)) sent[who] = await everythingSent(url, mw);
      const secretsOf = { ana: ["ana-secret-roll", ...fateText("Akio")], boris: fateText(XSS) };
      for (const [who, text] of Object.entries(sent)) {
        for (const [owner, secrets] of Object.entries(secretsOf)) {
          // The owner sees their own secrets (in their own language); nobody else any of them.
          if (owner === who)
            expect(secrets.filter((s) => text.includes(s)).length, who).toBeGreaterThanOrEqual(2);
          else
            for (const secret of secrets)
              expect(text, `${who} must not see ${owner}'s secret`).not.toContain(secret);
        }
      }
      // Beast Hunters: Boris's secret roll is his alone there too.
      const bh = "beast-hunters";
      for (const [user, sees] of [
        [gm, false],
        [ana, false],
        [boris, true],
      ] as const) {
        const text = await everythingSent(await linkFor(user, bh), bh);
        if (sees) expect(text).toContain("boris-secret-roll");
        else expect(text).not.toContain("boris-secret-roll");
      }
    });
  });

  describe("links that must not work", () => {
    it("a tampered, an expired and a revoked link get the plain 403 page in the viewer's language", async () => {
      const g = "mountain-witch";
      const url = await linkFor(boris, g);
      const token = url.split("/p/")[1]!;
      const [payload, mac] = token.split(".") as [string, string];
      const flipped = `${payload}.${mac[0] === "A" ? "B" : "A"}${mac.slice(1)}`;
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
        t: number;
        u: string;
        g: number;
      };
      const otherTable = Buffer.from(JSON.stringify({ ...claims, t: claims.t + 1 })).toString("base64url");
      const expired = await signToken(e2e.database.db, {
        tableId: claims.t,
        userId: claims.u,
        kind: "member",
        lang: "ru",
        expiresAt: Math.floor(Date.now() / 1000) - 60,
        generation: claims.g,
      });
      const base = url.split("/p/")[0]!;
      for (const bad of [flipped, `${otherTable}.${mac}`, expired, "nonsense", `${token}x`]) {
        for (const path of [`/p/${bad}`, `/p/${bad}/live`]) {
          const response = await fetch(`${base}${path}`);
          expect(response.status, path).toBe(403);
          const body = await response.text();
          expect(body).not.toContain("Akio");
          expect(body).not.toContain("trust");
        }
      }
      // The expired link was Boris's (ru): the refusal is in Russian and names the command as his client does.
      const ru = await (await fetch(`${base}/p/${expired}`)).text();
      expect(ru).toContain("/стол страница");
      // An open page whose link is revoked stops: its stream closes and the page reloads into the refusal.
      const { page } = await open(url);
      await page.waitForFunction(() => !document.getElementById("live-state")?.hidden, null, {
        timeout: 5000,
      });
      const fresh = await linkFor(gm, g, { revoke: true });
      await page.waitForFunction(() => document.title.length > 0 && !document.getElementById("page"), null, {
        timeout: 5000,
      });
      expect((await fetch(url)).status).toBe(403);
      expect((await fetch(fresh)).status).toBe(200);
      await page.context().close();
    });
  });
  describe("rate limits", () => {
    // Last: it spends this address's allowance for the minute.
    it("an address sending more than 300 requests a minute gets 429, and nothing of the table", async () => {
      const url = await linkFor(ana, "fate");
      const statuses = await Promise.all(Array.from({ length: 320 }, () => fetch(url).then((r) => r.status)));
      expect(statuses.filter((st) => st === 200).length).toBeLessThanOrEqual(300);
      expect(statuses).toContain(429);
      const refused = await fetch(url);
      expect(refused.status).toBe(429);
      expect(await refused.text()).not.toContain("Lina");
    });
  });
});
