/**
 * Headless Chromium for the page's tests: Debian's `chromium` (CI installs it), driven by
 * playwright-core. Sandboxing needs a user namespace that root and CI's containers may not have,
 * so it is off; the pages it opens are our own, on this machine.
 */
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** A page that records every console error, page error and dialog (an XSS would open one). */
export async function watchedPage(
  browser: Browser,
  viewport = { width: 1200, height: 900 },
): Promise<{ page: Page; problems: string[]; requests: string[] }> {
  const context = await browser.newContext({ viewport, javaScriptEnabled: true });
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on("request", (r) => requests.push(r.url()));
  return { page, problems, requests };
}

/** Whether the page is wider than its viewport (a horizontal scroll bar on a phone). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}
