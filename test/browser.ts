/**
 * Headless Chromium for the browser tests: Debian's `chromium` (apt-get install chromium; .ci/run
 * installs it), driven by playwright-core, whose own browser downloads are not used. Tests that
 * need it are skipped only when no Chromium is installed here.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, type Page, chromium } from "playwright-core";

/** The browser binary: $CHROMIUM, else Debian's. */
export const CHROMIUM_PATH = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM_PATH);
/** Set by .ci/run, which installs Chromium: there a missing browser fails the tests instead of skipping them. */
export const chromiumRequired = process.env.SUDOKU_WASM_REQUIRE_CHROMIUM === "1";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A headless Chromium with a fresh profile (--user-data-dir in a new temporary folder); `close` removes it. */
export async function launchChromium(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "sudoku-wasm-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens `url` in a fresh headless Chromium, runs `use` on the page, and closes the browser;
 * fails when the page threw an uncaught error meanwhile.
 */
export async function withPage<T>(url: string, use: (page: Page) => Promise<T>): Promise<T> {
  const { context, close } = await launchChromium();
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(url);
    const result = await use(page);
    if (errors.length > 0) throw new Error(`the page threw: ${errors.join("; ")}`);
    return result;
  } finally {
    await close();
  }
}
