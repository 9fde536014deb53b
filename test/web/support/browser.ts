import { execFileSync, execSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inCI } from '../../support/ci';

const ROOT = path.resolve(__dirname, '../../..');

/** Chromium's executable: CHROMIUM_PATH, else the usual system paths. Null when none is installed. */
export function chromiumPath(): string | null {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter(
    (p): p is string => !!p,
  );
  for (const p of candidates) if (fs.existsSync(p)) return p;
  try {
    const found = execSync('command -v chromium || command -v chromium-browser', { stdio: ['ignore', 'pipe', 'ignore'], shell: '/bin/sh' })
      .toString()
      .trim();
    return found || null;
  } catch {
    return null;
  }
}

const CHROMIUM = chromiumPath();

/**
 * `describe` for browser tests: skipped with a message when Chromium is missing, unless CI is set (then the tests
 * run and fail: CI must have it, .ci/run installs it).
 */
export const describeBrowser: jest.Describe = (() => {
  if (CHROMIUM || inCI) return describe;
  console.warn('test/web: Chromium not found (apt-get install chromium, or set CHROMIUM_PATH); the browser tests are skipped.');
  return describe.skip;
})();

/**
 * Builds web/dist when missing or older than web/ sources (the same check `npm start` makes; the script builds one
 * at a time across jest workers and processes).
 */
export function ensureWebBuilt(): void {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-if-needed.js'), '--web'], { cwd: ROOT, stdio: 'inherit' });
}

export async function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM) throw new Error('Chromium is not installed (apt-get install chromium, or set CHROMIUM_PATH)');
  // --no-sandbox: CI containers run as root; the pages are our own.
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none', '--disable-lcd-text'],
  });
}

/** A new page of a fresh context (no shared storage between tests) at a fixed size and scale, so screenshots are stable. */
export async function newPage(browser: Browser, size = { width: 1200, height: 800 }): Promise<Page> {
  const context = await browser.newContext({
    viewport: size,
    deviceScaleFactor: 1,
    acceptDownloads: true,
    locale: 'en-US',
    timezoneId: 'UTC',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  return page;
}

/** Evaluated in the page (a string: the test code is compiled without the DOM's types). */
const DRAWN = `(() => {
  if (document.fonts.status !== 'loaded') return false;
  if (document.querySelector('[data-testid="error-page"]')) return true;
  const root = document.querySelector('[data-testid="dashboard"], [data-testid="question"]');
  if (!root || root.getAttribute('data-state') === 'loading') return false;
  const busy = '[data-testid="dashcard"][data-state="loading"], [data-testid="question-card"][data-state="loading"]';
  if (document.querySelector(busy)) return false;
  return [...document.querySelectorAll('[data-testid="visualization"]')].every((v) => v.getAttribute('data-state') === 'ready');
})()`;

/**
 * Waits until a page has drawn: its fonts are loaded, its dashboard or question is ready, no card is loading, and every
 * visualization reports `data-state="ready"` (charts after ECharts' 'finished'). An error page counts as drawn.
 */
export async function waitDrawn(page: Page, timeout = 30_000): Promise<void> {
  await page.waitForFunction(DRAWN, undefined, { timeout, polling: 50 });
}

/**
 * A screenshot taken once the page has drawn and two captures in a row are the same (as Playwright's own
 * toHaveScreenshot does): a card that runs or draws again after the page first drew, or a layout that a full-page
 * capture changes, shows in one capture only and never in the one compared with a baseline.
 */
export async function stableScreenshot(page: Page, shoot: () => Promise<Buffer>, timeout = 30_000): Promise<Buffer> {
  const until = Date.now() + timeout;
  await waitDrawn(page, timeout);
  let last = await shoot();
  for (;;) {
    await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
    await waitDrawn(page, Math.max(1, until - Date.now()));
    const next = await shoot();
    if (next.equals(last)) return next;
    if (Date.now() > until) throw new Error(`the page still changed between two screenshots after ${timeout} ms`);
    last = next;
  }
}
