import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import express from 'express';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createCustomerBackend, DEMO_USERS } from '../../examples/customer-backend/app';
import { makeCard, tableQuery } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { auth } from '../support/factories';
import { createIdp, encode, readAuthnRequest, signedResponse } from '../support/saml-idp';
import { startSampleApp, type SampleApp } from '../support/sample-app';
import { inCI } from '../support/ci';

/**
 * A popup blocker as real browsers have (Chromium under Playwright lets every popup open): a popup opens only from a
 * click's handler. Run in the page (a string: the test code is compiled without the DOM's types).
 */
const POPUPS_ON_CLICK_ONLY = `(() => {
  const open = window.open.bind(window);
  let inClick = false;
  window.addEventListener('click', () => { inClick = true; setTimeout(() => (inClick = false)); }, true);
  window.open = (...args) => (inClick ? open(...args) : null);
})();`;
const run = promisify(execFile);

/**
 * Resolves when the page's first popup has opened and closed. It listens from the page's start: a popup that opens, or
 * closes, while the test still awaits a click or a navigation is not missed (Playwright's waitForEvent('close') on a
 * popup that has already closed waits forever).
 */
function firstPopupClosed(page: Page): Promise<void> {
  return new Promise((resolve) => page.once('popup', (popup) => (popup.isClosed() ? resolve() : popup.once('close', () => resolve()))));
}
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
const ROOT = join(__dirname, '..', '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && inCI) throw new Error(`Chromium is missing at ${CHROMIUM}; CI requires it (set CHROMIUM_PATH).`);

/**
 * The React embedding package as a host app uses it: the sdk is built and packed (npm pack), the tarball unpacked into
 * the example app's node_modules as `npm install` would, the example app built with Vite and served with the reference
 * customer backend on one origin; the analytics server runs beside it. Chromium signs in through JWT and sees the
 * embedded dashboard and question.
 */
(haveChromium ? describe : describeSkipped)('example host app with the packed React SDK (Chromium)', () => {
  let s: SampleApp;
  let analyticsUrl: string;
  let host: Server;
  let hostUrl: string;
  let browser: Browser;
  let tmp: string;
  let dashboardId: number;
  let questionId: number;
  let idpServer: Server;
  const SAML_APP = 'analytics-sp';
  const SAML_EMAIL = 'saml.viewer@example.com';

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'sdk-host-app-'));
    const built = buildHostApp(tmp);
    s = await startSampleApp();
    await s.t.app.listen(0);
    analyticsUrl = `http://localhost:${(s.t.app.getHttpServer().address() as AddressInfo).port}`;
    const secret = (await s.t.http().get('/api/util/random_token').set(auth(s.admin)).expect(200)).body.token as string;

    const products = s.table('PRODUCTS').id;
    const byCategory = await makeCard(
      s.t,
      s.admin,
      tableQuery(s.db, products, { aggregation: [['count']], breakout: [['field', s.field('PRODUCTS', 'CATEGORY'), null]] }),
      { name: 'Products per category', display: 'bar' },
    );
    const avgPrice = await makeCard(
      s.t,
      s.admin,
      tableQuery(s.db, products, {
        aggregation: [['avg', ['field', s.field('PRODUCTS', 'PRICE'), null]]],
        breakout: [['field', s.field('PRODUCTS', 'CATEGORY'), null]],
      }),
      { name: 'Average price per category', display: 'line' },
    );
    byCategoryId = byCategory.id;
    dashboardId = (await makeDashboard(s.t, s.admin, { name: 'Product overview' })).id;
    const side = (id: number, cardId: number, col: number) => newDashcard(id, cardId, { col, size_x: 12, size_y: 5 });
    await s.t
      .http()
      .put(`/api/dashboard/${dashboardId}`)
      .set(auth(s.admin))
      .send({ dashcards: [side(-1, byCategory.id, 0), side(-2, avgPrice.id, 12)] })
      .expect(200);
    questionId = (
      await makeCard(
        s.t,
        s.admin,
        tableQuery(s.db, products, { 'order-by': [['asc', ['field', s.field('PRODUCTS', 'ID'), null]]], limit: 5 }),
        { name: 'First products', display: 'table' },
      )
    ).id;

    const outDir = await built;
    const app = express();
    app.use(createCustomerBackend({ analyticsUrl, jwtSharedSecret: secret }));
    app.use(express.static(outDir));
    host = await new Promise<Server>((resolve) => {
      const srv = app.listen(0, () => resolve(srv));
    });
    hostUrl = `http://localhost:${(host.address() as AddressInfo).port}`;
    await s.t
      .http()
      .put('/api/setting')
      .set(auth(s.admin))
      .send({
        'jwt-shared-secret': secret,
        'jwt-identity-provider-uri': `${hostUrl}/sso/analytics`,
        'jwt-enabled': true,
        'enable-embedding-sdk': true,
      })
      .expect(204);
    // The test identity provider over HTTP: its login page signs a response for the request and posts it back.
    const idp = await createIdp();
    const idpApp = express();
    idpApp.get('/sso', (req, res) => {
      const request = readAuthnRequest(`http://idp${req.url}`);
      const xml = signedResponse(idp, {
        inResponseTo: request.id,
        acsUrl: `${analyticsUrl}/auth/sso`,
        audience: SAML_APP,
        email: SAML_EMAIL,
        firstName: 'Sam',
        lastName: 'Viewer',
      });
      const field = (name: string, value: string) => `<input type="hidden" name="${name}" value="${value.replace(/"/g, '&quot;')}">`;
      res
        .type('html')
        .send(
          `<form id="f" method="post" action="${analyticsUrl}/auth/sso">` +
            `${field('SAMLResponse', encode(xml))}${field('RelayState', request.relayState ?? '')}` +
            `<button type="submit">Continue</button></form><script>document.getElementById('f').submit()</script>`,
        );
    });
    idpServer = await new Promise<Server>((resolve) => {
      const srv = idpApp.listen(0, () => resolve(srv));
    });
    await s.t
      .http()
      .put('/api/setting')
      .set(auth(s.admin))
      .send({
        'site-url': analyticsUrl,
        'saml-enabled': true,
        'saml-identity-provider-uri': `http://localhost:${(idpServer.address() as AddressInfo).port}/sso`,
        'saml-identity-provider-certificate': idp.cert,
        'saml-identity-provider-issuer': idp.issuer,
        'saml-application-name': SAML_APP,
      })
      .expect(204);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (host ? host.close(resolve) : resolve(undefined)));
    await new Promise((resolve) => (idpServer ? idpServer.close(resolve) : resolve(undefined)));
    await s?.t.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  let byCategoryId: number;
  const popupsClosed = new WeakMap<Page, Promise<void>>();
  const popupRoundTrip = (page: Page) =>
    within(
      popupsClosed.get(page) ?? Promise.reject(new Error('page not opened by open()')),
      30_000,
      'the sign-in popup opening and closing',
    );
  const open = async (
    method: 'jwt' | 'saml' = 'jwt',
    view: 'static' | 'interactive' = 'static',
    opts: { popupsOnClickOnly?: boolean } = {},
  ): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
    if (opts.popupsOnClickOnly) {
      await context.addInitScript({ content: POPUPS_ON_CLICK_ONLY });
    }
    const page = await context.newPage();
    popupsClosed.set(page, firstPopupClosed(page));
    await page.goto(
      `${hostUrl}/?analytics=${encodeURIComponent(analyticsUrl)}` +
        `&dashboard=${dashboardId}&question=${questionId}&auth=${method}&view=${view}`,
    );
    return page;
  };
  /** The host app's own sign-in, then the SDK's (JWT) until the status hook says success. */
  const signIn = async (page: Page, user = DEMO_USERS[0]) => {
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await signedIn(page);
  };
  /** Waits for the sign-in to end; one that ends in an error fails with the error the page shows. */
  const signedIn = async (page: Page) => {
    const status = page.getByTestId('auth-status');
    await status.filter({ hasText: /^(success|error)$/ }).waitFor({ timeout: 30_000 });
    if ((await status.textContent()) !== 'success')
      throw new Error(`sign-in failed: ${await page.getByTestId('auth-error').textContent()}`);
  };

  it('signs in through JWT: the status hook reports success, the dashboard draws its charts and the question its rows', async () => {
    const page = await open();
    await signIn(page);

    const dashboard = page.locator(`[data-testid="analytics-dashboard"][data-dashboard-id="${dashboardId}"]`);
    await dashboard.locator('[data-testid="analytics-dashboard-title"]', { hasText: 'Product overview' }).waitFor();
    const charts = dashboard.locator('[data-testid="visualization"][data-state="ready"]');
    await charts.nth(1).waitFor({ timeout: 30_000 });
    expect(
      await dashboard.locator('[data-testid="visualization"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-display'))),
    ).toEqual(['bar', 'line']);
    // Drawn charts: ECharts' SVG with the bars and the line's path.
    expect(await dashboard.locator('[data-testid="visualization"] svg path').count()).toBeGreaterThan(4);
    await dashboard.getByText('Products per category').waitFor();

    const question = page.locator(`[data-testid="analytics-question"][data-question-id="${questionId}"]`);
    await question.locator('[data-testid="visualization"][data-state="ready"]').waitFor({ timeout: 30_000 });
    await question.getByText('First products').waitFor();
    const { rows, cols } = (await s.t.http().post(`/api/card/${questionId}/query`).set(auth(s.admin)).send({}).expect(202)).body.data as {
      rows: unknown[][];
      cols: { name: string }[];
    };
    const titleAt = cols.findIndex((c) => c.name === 'TITLE');
    expect(rows).toHaveLength(5);
    for (const row of [rows[0], rows[4]]) await question.getByText(String(row[titleAt]), { exact: true }).first().waitFor();
    // Downloads go through the session too (a plain link would carry none).
    const [download] = await Promise.all([page.waitForEvent('download'), question.getByTestId('analytics-download').click()]);
    expect(download.suggestedFilename()).toBe('First products.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\n')[0]).toContain('Title');
    expect(csv).toContain(String(rows[0][titleAt]));
    if (process.env.SDK_SCREENSHOT) await page.screenshot({ path: process.env.SDK_SCREENSHOT, fullPage: true });
    // The session never reaches storage the host can read.
    const stored = await page.evaluate(() => {
      const g = globalThis as unknown as { localStorage: { length: number }; sessionStorage: { length: number } };
      return g.localStorage.length + g.sessionStorage.length;
    });
    expect(stored).toBe(0);
    await page.context().close();
  });

  it('after a 401 from the API signs in again once and retries, the components still drawing', async () => {
    const page = await open();
    const exchanges: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/auth/sso') exchanges.push(r.url());
    });
    // The server "forgets" the session once: the question's first read answers 401.
    let refused = 0;
    await page.route(`${analyticsUrl}/api/card/${questionId}`, async (route) => {
      if (route.request().method() === 'GET' && refused === 0) {
        refused++;
        await route.fulfill({
          status: 401,
          body: 'Unauthenticated',
          headers: { 'Access-Control-Allow-Origin': hostUrl, 'Access-Control-Allow-Credentials': 'true' },
        });
        return;
      }
      await route.continue();
    });
    await signIn(page);
    const question = page.locator(`[data-testid="analytics-question"][data-question-id="${questionId}"]`);
    await question.locator('[data-testid="visualization"][data-state="ready"]').waitFor({ timeout: 30_000 });
    await page
      .locator('[data-testid="analytics-dashboard"] [data-testid="visualization"][data-state="ready"]')
      .nth(1)
      .waitFor({ timeout: 30_000 });
    expect(refused).toBe(1);
    expect(exchanges).toHaveLength(2);
    expect(await page.getByTestId('auth-status').textContent()).toBe('success');
    await page.context().close();
  });

  it('shows the error state when the customer backend answers 401 (nobody signed in there)', async () => {
    const page = await open();
    await page.getByTestId('skip-login').click();
    await page.getByTestId('auth-status').filter({ hasText: 'error' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('auth-error').textContent()).toContain('You are not signed in.');
    expect(await page.locator('[data-testid="analytics-dashboard"]').count()).toBe(0);
    await page.context().close();
  });
  it('signs in through SAML: the identity provider in a popup, the session handed back when it closes', async () => {
    const page = await open('saml');
    await popupRoundTrip(page);
    await signedIn(page);
    const dashboard = page.locator(`[data-testid="analytics-dashboard"][data-dashboard-id="${dashboardId}"]`);
    await dashboard.locator('[data-testid="visualization"][data-state="ready"]').nth(1).waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="analytics-question"] [data-testid="visualization"][data-state="ready"]').waitFor({ timeout: 30_000 });
    const users = (await s.t.http().get('/api/user').set(auth(s.admin)).expect(200)).body.data as { email: string }[];
    expect(users.map((u) => u.email)).toContain(SAML_EMAIL);
    await page.context().close();
  });
  it('signs in through SAML where popups need a click: the provider offers a sign-in button, and its click opens the popup', async () => {
    const page = await open('saml', 'static', { popupsOnClickOnly: true });
    const button = page.getByTestId('analytics-sign-in').getByRole('button', { name: 'Sign in to see the analytics' });
    await button.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('auth-status').textContent()).toContain('loading');
    await button.click();
    await popupRoundTrip(page);
    await signedIn(page);
    expect(await page.getByTestId('analytics-sign-in').count()).toBe(0);
    await page.context().close();
  });
  it('explores: InteractiveQuestion filters, summarizes, changes the display and saves; InteractiveDashboard drills through', async () => {
    const page = await open('jwt', 'interactive');
    await signIn(page, DEMO_USERS[1]);
    const question = page.locator(`[data-testid="analytics-interactive-question"][data-question-id="${questionId}"]`).last();
    const ready = (display: string) =>
      question.locator(`[data-testid="visualization"][data-display="${display}"][data-state="ready"]`).waitFor({ timeout: 30_000 });
    await ready('table');
    await question.getByRole('button', { name: 'Filter' }).click();
    await question.getByLabel('Filter column').selectOption({ label: 'Category' });
    await question.getByLabel('Filter value').fill('Gizmo');
    await question.getByRole('button', { name: 'Add filter' }).click();
    await question.getByTestId('analytics-edits').getByText('Category is Gizmo').waitFor();
    const products = s.table('PRODUCTS').id;
    const gizmos = (
      await s.t
        .http()
        .post('/api/dataset')
        .set(auth(s.admin))
        .send({
          database: s.db,
          type: 'query',
          query: {
            'source-table': products,
            filter: ['=', ['field', s.field('PRODUCTS', 'CATEGORY'), null], 'Gizmo'],
            'order-by': [['asc', ['field', s.field('PRODUCTS', 'ID'), null]]],
            limit: 5,
          },
        })
        .expect(202)
    ).body.data;
    const titleAt = (gizmos.cols as { name: string }[]).findIndex((c) => c.name === 'TITLE');
    await question.getByText(String(gizmos.rows[0][titleAt]), { exact: true }).first().waitFor({ timeout: 30_000 });

    await question.getByRole('button', { name: 'Summarize' }).first().click();
    await question.getByLabel('Group by').selectOption({ label: 'Category' });
    await question.getByTestId('analytics-summarize-form').getByRole('button', { name: 'Summarize' }).click();
    await ready('bar');
    await question.getByLabel('Visualization').selectOption('table');
    await ready('table');
    await question.getByText('Gizmo', { exact: true }).first().waitFor();
    await question.getByTestId('analytics-save').click();
    await question.getByTestId('analytics-saved').filter({ hasText: 'Saved as "First products (edited)"' }).waitFor();
    const cards = (await s.t.http().get('/api/card').set(auth(s.admin)).expect(200)).body as { name: string; display: string }[];
    expect(cards.find((c) => c.name === 'First products (edited)')).toMatchObject({ display: 'table' });

    // Drill through: a bar of the dashboard's chart opens its question.
    const dashboard = page.getByTestId('analytics-interactive-dashboard');
    const chart = dashboard.locator('[data-testid="visualization"][data-display="bar"][data-state="ready"]').first();
    await chart.waitFor({ timeout: 30_000 });
    const bar = await chart.locator('svg path').evaluateAll((paths) => {
      const boxes = paths
        .filter((p) => {
          const f = p.getAttribute('fill');
          return f && f !== 'none' && f !== 'transparent';
        })
        .map((p) => p.getBoundingClientRect())
        .filter((r) => r.height > 20 && r.width > 8 && r.width < 400);
      const b = boxes[0];
      return b ? { x: b.x + b.width / 2, y: b.y + b.height / 2 } : null;
    });
    expect(bar).not.toBeNull();
    await page.mouse.click(bar!.x, bar!.y);
    const drilled = dashboard.locator(`[data-testid="analytics-interactive-question"][data-question-id="${byCategoryId}"]`);
    await drilled.locator('[data-testid="visualization"][data-state="ready"]').waitFor({ timeout: 30_000 });
    await dashboard.getByTestId('analytics-back').click();
    expect(await drilled.count()).toBe(0);
    await page.context().close();
  });
});

/** Builds and packs the sdk, unpacks the tarball into the example's node_modules, builds the example into `tmp`. */
async function buildHostApp(tmp: string): Promise<string> {
  const sdk = join(ROOT, 'sdk');
  await run('npm', ['run', 'build'], { cwd: sdk, maxBuffer: 32 << 20 });
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', tmp], { cwd: sdk });
  const tarball = join(tmp, stdout.trim().split('\n').pop()!);
  const installed = join(ROOT, 'examples', 'host-app', 'node_modules', '@analytics-server', 'embedding-sdk');
  rmSync(installed, { recursive: true, force: true });
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  const outDir = join(tmp, 'host-app');
  await run('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir'], {
    cwd: join(ROOT, 'examples', 'host-app'),
    maxBuffer: 32 << 20,
  });
  return outDir;
}

/** Without Chromium (and outside CI): one test that says why the rest did not run. */
function describeSkipped(name: string) {
  describe(name, () => {
    it('is skipped: no Chromium', () => {
      console.warn(`SKIPPED: ${name}, because Chromium is not at ${CHROMIUM} (set CHROMIUM_PATH).`);
    });
  });
}
