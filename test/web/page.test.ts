/**
 * The campaign page in a real browser: headless Chromium opens each game's page after a session
 * played through the real bot and the Discord double, for the GM, two players and a spectator.
 * The numbers on the page are the books' (read from PostgreSQL); the trust matrix, the reserve
 * ledger and the aspect board are drawn; a roll made in Discord shows on the open page within 2 s;
 * no console error; a character named like an XSS attack is text; a phone's 390×844 viewport has
 * no horizontal scroll; expired, revoked and tampered links are refused. Screenshots go to docs/.
 */
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
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
      const books = await e2e.database.query<{ giver: string; holder: string; value: number; points: number }>(
        "SELECT g.name AS giver, h.name AS holder, l.value, l.points FROM trust_link l JOIN character g ON g.id = l.giver_id JOIN character h ON h.id = l.holder_id",
      );
      expect(books.length).toBe(2);
      for (const url of Object.values(links)) {
        const { page, problems, status } = await open(url);
        expect(status).toBe(200);
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
      const seen = await own.page.locator('[data-secret="fate"]').innerText();
      expect(seen.length).toBeGreaterThan(10);
      await own.page.context().close();
      for (const url of [links.gm, links.boris, links.spectator]) {
        const { page, problems } = await open(url);
        // Boris sees his own fate, and nobody else's; the GM and a spectator see none.
        expect(await page.locator('[data-secret="fate"]').count()).toBe(url === links.boris ? 1 : 0);
        expect(await page.content()).not.toContain(seen.split("\n").pop()!.trim());
        // The XSS name: its characters shown, nothing run, no image made of it.
        expect(await page.locator(`[data-character="${XSS.replace(/"/g, '\\"')}"] h3`).innerText()).toBe(XSS);
        expect(await page.locator("img").count()).toBe(0);
        expect(problems).toEqual([]);
        await page.context().close();
      }
      expect(seen).toContain(t("en", familyKey("mw.fate.", anaFate)));
    });

    it("a roll made in Discord shows on the open page within 2 s", async () => {
      const { page, problems } = await open(links.boris);
      await page.waitForFunction(() => !document.getElementById("live-state")?.hidden, null, { timeout: 5000 });
      const settled = await slash(ana, "mountain-witch", "roll", [], { expression: "3d6", reason: "live-roll-1" });
      expect(settled.original?.text).toContain("live-roll-1");
      const since = Date.now();
      await page.waitForFunction(() => document.body.innerText.includes("live-roll-1"), null, { timeout: 2000 });
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
        if (url === links.ana) await page.screenshot({ path: "docs/page-mountain-witch-phone.png", fullPage: true });
        await page.context().close();
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
      await page.waitForFunction(() => !document.getElementById("live-state")?.hidden, null, { timeout: 5000 });
      const fresh = await linkFor(gm, g, { revoke: true });
      await page.waitForFunction(() => document.title.length > 0 && !document.getElementById("page"), null, {
        timeout: 5000,
      });
      expect((await fetch(url)).status).toBe(403);
      expect((await fetch(fresh)).status).toBe(200);
      await page.context().close();
    });
  });

  void ({} as Page);
});
