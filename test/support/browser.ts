/**
 * Test helpers: a headless Chromium driven by playwright-core (which downloads no browser: it is
 * given Debian's `chromium`), and a collector of a page's console errors and warnings.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

/** The Chromium to run: `CHROMIUM_PATH`, else the first of {@link CANDIDATES} that exists. */
export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist: point it at a Chromium binary, or unset it to use ${CANDIDATES.join(" or ")}`);
    return fromEnv;
  }
  const found = CANDIDATES.find((p) => existsSync(p));
  if (!found) throw new Error(`no Chromium found at ${CANDIDATES.join(" or ")}: install it with \`apt-get install chromium\` or set CHROMIUM_PATH to a Chromium binary`);
  return found;
}

/**
 * Launches headless Chromium. Playwright's plain `launch` gives it a fresh temporary profile
 * (`playwright_chromiumdev_profile-*` in the temp dir, removed on close); passing
 * `--user-data-dir` would be refused (that is `launchPersistentContext`'s job).
 *
 * @example
 * ```ts
 * const browser = await launchBrowser();
 * const page = await browser.newPage();
 * await browser.close();
 * ```
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = chromiumPath();
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
  return browser;
}

/**
 * Records the page's console errors and warnings and its uncaught errors; the returned array
 * fills as they happen.
 *
 * @example
 * ```ts
 * const problems = collectConsoleProblems(page);
 * await page.goto(url);
 * assert.deepEqual(problems, []);
 * ```
 */
export function collectConsoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (msg) => {
    const type = msg.type();
    if (type === "error" || type === "warning") {
      const loc = msg.location();
      problems.push(`console ${type}: ${msg.text()}${loc.url ? ` (${loc.url}:${loc.lineNumber})` : ""}`);
    }
  });
  page.on("pageerror", (err) => problems.push(`page error: ${err.stack ?? err.message}`));
  return problems;
}
