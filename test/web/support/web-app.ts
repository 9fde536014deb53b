import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { JwtService } from '@nestjs/jwt';
import { makeCard, nativeQuery, tableQuery } from '../../support/card-factories';
import { auth } from '../../support/factories';
import { SampleApp, startSampleApp } from '../../support/sample-app';
import { ensureWebBuilt, launchBrowser, newPage, waitDrawn } from './browser';

/** The embedding secret of the browser tests (64 hex characters, as Metabase generates). */
export const EMBED_SECRET = 'a1b2c3d4e5f60718'.repeat(4);

export interface WebApp {
  s: SampleApp;
  /** http://127.0.0.1:<port> of the listening server. */
  base: string;
  browser: Browser;
  /** Opens `path` (with `#hash` options) in a fresh page and waits until it has drawn. */
  open(path: string, size?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/**
 * The whole server on a fresh app DB (SQLite or Postgres, as the jest project says) with the Sample Database,
 * listening on a free port, public sharing and static embedding on, and a headless Chromium. Builds web/dist first
 * when it is missing or stale.
 */
export async function startWebApp(env: Record<string, string> = {}): Promise<WebApp> {
  ensureWebBuilt();
  const s = await startSampleApp(env);
  const http = s.t.http;
  await http().put('/api/setting/enable-public-sharing').set(auth(s.admin)).send({ value: true }).expect(204);
  await http().put('/api/setting/embedding-secret-key').set(auth(s.admin)).send({ value: EMBED_SECRET }).expect(204);
  await http().put('/api/setting/enable-embedding-static').set(auth(s.admin)).send({ value: true }).expect(204);
  await s.t.app.listen(0, '127.0.0.1');
  const port = (s.t.app.getHttpServer().address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const browser = await launchBrowser();
  const pages: Page[] = [];
  return {
    s,
    base,
    browser,
    async open(path, size) {
      const page = await newPage(browser, size);
      pages.push(page);
      await page.goto(base + path);
      await waitDrawn(page);
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
      await s.t.close();
    },
  };
}

const jwt = new JwtService();

/** A signed embed token for a question or dashboard, with the locked/enabled values in `params`. */
export function embedToken(resource: { question: number } | { dashboard: number }, params: Record<string, unknown> = {}): string {
  return jwt.sign({ resource, params, exp: Math.floor(Date.now() / 1000) + 3600 }, { secret: EMBED_SECRET, algorithm: 'HS256' });
}

/** A question on the Sample Database: MBQL (`query` the inner query of `table`) or SQL (`sql`). */
export async function sampleCard(
  w: WebApp,
  spec: {
    name: string;
    display: string;
    table?: string;
    query?: Record<string, unknown>;
    sql?: string;
    tags?: Record<string, unknown>;
    settings?: Record<string, unknown>;
    extra?: Record<string, unknown>;
  },
): Promise<number> {
  const q =
    spec.sql !== undefined
      ? nativeQuery(w.s.db, spec.sql, spec.tags)
      : tableQuery(w.s.db, w.s.table(spec.table ?? 'ORDERS').id, spec.query ?? {});
  const card = await makeCard(w.s.t, w.s.admin, q, {
    name: spec.name,
    display: spec.display,
    visualization_settings: spec.settings ?? {},
    ...(spec.extra ?? {}),
  });
  return card.id;
}

/** The public link of a card or dashboard (its uuid). */
export async function publicLink(w: WebApp, kind: 'card' | 'dashboard', id: number): Promise<string> {
  const res = await w.s.t.http().post(`/api/${kind}/${id}/public_link`).set(auth(w.s.admin));
  if (res.status !== 200) throw new Error(`public link of ${kind} ${id}: ${res.status} ${res.text}`);
  return res.body.uuid as string;
}

/** Revokes a public link. */
export async function revokePublicLink(w: WebApp, kind: 'card' | 'dashboard', id: number): Promise<void> {
  const res = await w.s.t.http().delete(`/api/${kind}/${id}/public_link`).set(auth(w.s.admin));
  if (res.status !== 204) throw new Error(`revoke public link of ${kind} ${id}: ${res.status} ${res.text}`);
}

/** Turns static embedding on for a card or dashboard with its parameters' embedding modes (enabled, locked, disabled). */
export async function enableEmbed(
  w: WebApp,
  kind: 'card' | 'dashboard',
  id: number,
  params: Record<string, 'enabled' | 'locked' | 'disabled'> = {},
): Promise<void> {
  const res = await w.s.t.http().put(`/api/${kind}/${id}`).set(auth(w.s.admin)).send({ enable_embedding: true, embedding_params: params });
  if (res.status !== 200) throw new Error(`embedding of ${kind} ${id}: ${res.status} ${res.text}`);
}

export interface DashcardSpec {
  card_id: number | null;
  col: number;
  row: number;
  size_x: number;
  size_y: number;
  tab?: number;
  parameter_mappings?: unknown[];
  visualization_settings?: Record<string, unknown>;
}

/** A dashboard with parameters, tabs (names; dashcards name theirs by index) and dashcards. */
export async function sampleDashboard(
  w: WebApp,
  spec: { name: string; parameters?: unknown[]; tabs?: string[]; dashcards: DashcardSpec[] },
): Promise<{ id: number; dashcards: number[] }> {
  const http = w.s.t.http;
  const created = await http()
    .post('/api/dashboard')
    .set(auth(w.s.admin))
    .send({ name: spec.name, parameters: spec.parameters ?? [] });
  if (created.status !== 200) throw new Error(`dashboard: ${created.status} ${created.text}`);
  const id = created.body.id as number;
  const tabs = (spec.tabs ?? []).map((name, i) => ({ id: -(i + 1), name }));
  const dashcards = spec.dashcards.map((dc, i) => ({
    id: -(i + 1),
    card_id: dc.card_id,
    col: dc.col,
    row: dc.row,
    size_x: dc.size_x,
    size_y: dc.size_y,
    ...(tabs.length ? { dashboard_tab_id: -((dc.tab ?? 0) + 1) } : {}),
    parameter_mappings: dc.parameter_mappings ?? [],
    visualization_settings: dc.visualization_settings ?? {},
    series: [],
  }));
  const put = await http()
    .put(`/api/dashboard/${id}`)
    .set(auth(w.s.admin))
    .send({ ...(tabs.length ? { tabs } : {}), dashcards });
  if (put.status !== 200) throw new Error(`dashboard cards: ${put.status} ${put.text}`);
  // The answer's order need not be ours: match each spec by its tab and position.
  const made = put.body.dashcards as Array<{ id: number; row: number; col: number; dashboard_tab_id: number | null }>;
  const tabIds = ((put.body.tabs ?? []) as Array<{ id: number; name: string }>).map((t) => t.id);
  const ids = spec.dashcards.map((dc) => {
    const found = made.find((m) => m.row === dc.row && m.col === dc.col && (!tabIds.length || m.dashboard_tab_id === tabIds[dc.tab ?? 0]));
    if (!found) throw new Error(`dashcard at ${dc.row},${dc.col} not in the answer`);
    return found.id;
  });
  return { id, dashcards: ids };
}

/** A text or heading dashcard (no card). */
export const textCard = (text: string, at: Omit<DashcardSpec, 'card_id'>, display: 'text' | 'heading' = 'text'): DashcardSpec => ({
  ...at,
  card_id: null,
  visualization_settings: { virtual_card: { name: null, display, visualization_settings: {}, dataset_query: {}, archived: false }, text },
});

export { waitDrawn };
