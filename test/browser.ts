/**
 * Headless browsers for the browser tests, driven by puppeteer-core (its own browser downloads
 * are not used): Debian's `chromium` over the DevTools protocol, and Debian's `firefox-esr`
 * over WebDriver BiDi. Chromium is the one every machine must have (.ci/run installs it); Firefox
 * is a second browser, tested where it is installed (`apt-get install firefox-esr`).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser, type LaunchOptions, type Page } from "puppeteer-core";

export type { Page } from "puppeteer-core";

/** The Chromium binary: $CHROMIUM, else Debian's. */
export const CHROMIUM_PATH = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM_PATH);
/** Set by .ci/run, which installs Chromium: there a missing browser fails the tests instead of skipping them. */
export const chromiumRequired = process.env.SUDOKU_WASM_REQUIRE_CHROMIUM === "1";

/** The Firefox binary: $FIREFOX, else Debian's ESR. */
export const FIREFOX_PATH = process.env.FIREFOX ?? "/usr/bin/firefox-esr";
export const hasFirefox = existsSync(FIREFOX_PATH);

export type BrowserName = "chromium" | "firefox";

const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** How to launch each browser headless with a fresh profile in `profile`. */
function launchOptions(name: BrowserName, profile: string): LaunchOptions {
  // A launch may wait on a loaded machine (CI runs three test files at a time on two cores): 90 s, not puppeteer's 30.
  const timeout = 90_000;
  return name === "chromium"
    ? { browser: "chrome", executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS, userDataDir: profile, timeout }
    : { browser: "firefox", executablePath: FIREFOX_PATH, headless: true, userDataDir: profile, timeout };
}

/** A headless browser with a fresh profile (a new temporary folder); `close` removes it. */
export async function launchBrowser(name: BrowserName = "chromium"): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), `sudoku-wasm-${name}-`));
  const browser = await puppeteer.launch(launchOptions(name, profile));
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens `url` in a fresh headless browser (Chromium unless named), runs `use` on the page, and
 * closes the browser; fails when the page threw an uncaught error meanwhile.
 */
export async function withPage<T>(url: string, use: (page: Page) => Promise<T>, name: BrowserName = "chromium"): Promise<T> {
  const { browser, close } = await launchBrowser(name);
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error instanceof Error ? error.message : String(error)));
    await page.goto(url);
    const result = await use(page);
    if (errors.length > 0) throw new Error(`the page threw: ${errors.join("; ")}`);
    return result;
  } finally {
    await close();
  }
}
