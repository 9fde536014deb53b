import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { startTestApp, TestApp } from '../../support/test-app';
import { ensureWebBuilt, launchBrowser, newPage } from './browser';

export interface AppServer {
  t: TestApp;
  /** http://127.0.0.1:<port> of the listening server. */
  base: string;
  /** The app's data directory (SQLite files a test connects through the UI go here). */
  dataDir: string;
  browser: Browser;
  /** A page of a fresh browser context (its own cookies) at `path`. */
  open(path: string): Promise<Page>;
  close(): Promise<void>;
}

/**
 * The whole server on a fresh, empty app database and data directory (no user yet: setup is pending), listening on a
 * free port, and a headless Chromium: one per test file. Builds web/dist first when it is missing or stale. `env`
 * adds environment variables (LOAD_SAMPLE_DATABASE is off unless given).
 */
export async function startAppServer(env: Record<string, string> = {}): Promise<AppServer> {
  ensureWebBuilt();
  const t = await startTestApp(env);
  await t.app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  const browser = await launchBrowser();
  const pages: Page[] = [];
  return {
    t,
    base,
    dataDir: t.db.dataDir,
    browser,
    async open(path) {
      const page = await newPage(browser);
      pages.push(page);
      await page.goto(base + path);
      return page;
    },
    async close() {
      await Promise.all(
        pages.map((p) =>
          p
            .context()
            .close()
            .catch(() => undefined),
        ),
      );
      await browser.close();
      await t.close();
    },
  };
}

/** The path, query and hash the page is at now. */
export const pathOf = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search + url.hash;
};

/** Signs in on the sign-in page the browser is at, with the mouse-free path a person would take. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The error a form field shows: the text of what its aria-describedby points at, as a screen reader reads it out. */
export async function fieldDescription(field: Locator): Promise<string> {
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
  const page = field.page();
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.filter(Boolean).join(' ');
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

/**
 * The JavaScript files that loading these sources brings (their chunks and what those import statically), from the
 * application build's manifest; `entry` stands for app.html's entry. Paths as the manifest names them
 * (`src/app/auth/LoginPage.tsx`).
 */
export function chunksOf(sources: Array<string | 'entry'>): Set<string> {
  const file = path.resolve(__dirname, '../../../web/dist/.vite/app-manifest.json');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  const out = new Set<string>();
  const add = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || out.has(chunk.file)) return;
    out.add(chunk.file);
    (chunk.imports ?? []).forEach(add);
  };
  for (const s of sources) add(s === 'entry' ? Object.keys(manifest).find((k) => manifest[k].isEntry)! : s);
  return out;
}
