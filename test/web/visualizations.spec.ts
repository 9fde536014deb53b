import type { Page } from 'playwright-core';
import { describeBrowser, stableScreenshot } from './support/browser';
import { expectScreenshot } from './support/screenshots';
import { publicLink, sampleCard, startWebApp, WebApp } from './support/web-app';

jest.setTimeout(600_000);

interface VizCase {
  /** Baseline name: test/web/__screenshots__/viz-<name>.png */
  name: string;
  display: string;
  table?: string;
  query?: Record<string, unknown>;
  sql?: string;
  settings?: Record<string, unknown>;
  /** Hash options of the page (e.g. theme=night). */
  hash?: string;
  /** What the drawn visualization must show besides matching its screenshot. */
  check?: (page: Page) => Promise<void>;
}

/**
 * Every visualization type drawn from a real card on the Sample Database: the card is made through the API with its
 * display and settings, shared publicly, opened at /public/question/:uuid in headless Chromium, and the drawn
 * visualization compared with its reviewed baseline (anti-aliasing tolerated).
 */
describeBrowser('visualizations on the public question page', () => {
  let w: WebApp;
  const field = (t: string, f: string) => w.s.field(t, f);
  const category = () => ['field', field('PRODUCTS', 'CATEGORY'), { 'source-field': field('ORDERS', 'PRODUCT_ID') }];
  const createdAt = (unit: string) => ['field', field('ORDERS', 'CREATED_AT'), { 'temporal-unit': unit }];
  const viz = '[data-testid="visualization"]';
  const text = async (page: Page, selector: string) => (await page.textContent(selector)) ?? '';
  const count = (page: Page, selector: string) => page.locator(selector).count();

  beforeAll(async () => {
    w = await startWebApp();
  });
  afterAll(async () => {
    await w?.close();
  });

  const cases = (): VizCase[] => [
    {
      name: 'table',
      display: 'table',
      table: 'PRODUCTS',
      query: { 'order-by': [['asc', ['field', field('PRODUCTS', 'ID'), null]]], limit: 60 },
      settings: {
        column_settings: {
          '["name","PRICE"]': { number_style: 'currency', currency: 'USD' },
          '["name","TITLE"]': { column_title: 'Product' },
        },
        'table.columns': [
          ...['ID', 'TITLE', 'CATEGORY', 'PRICE', 'RATING', 'CREATED_AT'].map((name) => ({ name, enabled: true })),
          { name: 'EAN', enabled: false },
          { name: 'VENDOR', enabled: false },
        ],
      },
      check: async (page) => {
        const headers = await page.locator('th[role="columnheader"]').allTextContents();
        expect(headers).toEqual(['ID', 'Product', 'Category', 'Price ($)', 'Rating', 'Created At']);
        expect(await text(page, '[data-testid="table-footer"]')).toMatch(/^Rows 1-\d+ of 60 rows/);
        // Sorting by a header, then paging, change what is shown.
        await page.click('th:has-text("Price")');
        await page.click('th:has-text("Price")');
        const firstPrice = await text(page, 'tbody tr:first-child td:nth-child(4)');
        expect(Number(firstPrice.replace(/,/g, ''))).toBeGreaterThan(90);
        await page.click('[aria-label="Next page"]');
        expect(await text(page, '[data-testid="table-footer"]')).toMatch(/^Rows \d+-\d+ of 60 rows/);
        await page.click('[aria-label="Previous page"]');
        await page.click('th:has-text("Price")');
        expect(await text(page, 'tbody tr:first-child td:nth-child(1)')).toBe('1');
      },
    },
    {
      name: 'scalar',
      display: 'scalar',
      query: { aggregation: [['count']] },
      check: async (page) => expect(await text(page, '[data-testid="scalar-value"]')).toMatch(/^\d{1,3}(,\d{3})+$/),
    },
    {
      name: 'smartscalar',
      display: 'smartscalar',
      query: { aggregation: [['count']], breakout: [createdAt('year')] },
      check: async (page) => expect(await text(page, '[data-testid="scalar-trend"]')).toMatch(/vs\. previous year/),
    },
    {
      name: 'bar',
      display: 'bar',
      query: { aggregation: [['count']], breakout: [createdAt('year'), category()] },
      settings: {
        'stackable.stack_type': 'stacked',
        'graph.show_goal': true,
        'graph.goal_value': 4000,
        'graph.goal_label': 'Target',
        'graph.y_axis.title_text': 'Orders',
      },
      check: async (page) => {
        const body = await text(page, viz);
        for (const t of ['Doohickey', 'Gadget', 'Gizmo', 'Widget', 'Target', 'Orders']) expect(body).toContain(t);
      },
    },
    {
      name: 'bar-night',
      display: 'bar',
      hash: 'theme=night',
      query: { aggregation: [['count']], breakout: [category()] },
      settings: { 'graph.show_values': true },
      check: async (page) =>
        expect(await page.evaluate(`getComputedStyle(document.querySelector('${viz}')).backgroundColor`)).toBe('rgb(46, 53, 59)'),
    },
    {
      name: 'line',
      display: 'line',
      query: { aggregation: [['sum', ['field', field('ORDERS', 'TOTAL'), null]]], breakout: [createdAt('quarter')] },
      settings: {
        'graph.show_trendline': true,
        series_settings: { sum: { color: '#EF8C8C', title: 'Revenue' } },
        'graph.x_axis.title_text': 'Quarter',
        column_settings: { '["name","sum"]': { number_style: 'currency', currency: 'USD' } },
      },
      check: async (page) => {
        expect(await text(page, viz)).toContain('Quarter');
        expect(await count(page, `${viz} svg path[stroke="#EF8C8C"]`)).toBeGreaterThan(0);
      },
    },
    {
      name: 'area',
      display: 'area',
      query: { aggregation: [['count']], breakout: [createdAt('year'), category()] },
    },
    {
      name: 'combo',
      display: 'combo',
      query: { aggregation: [['count'], ['avg', ['field', field('ORDERS', 'TOTAL'), null]]], breakout: [createdAt('year')] },
      settings: { series_settings: { count: { display: 'bar' }, avg: { display: 'line', title: 'Average order' } } },
      check: async (page) => expect(await text(page, viz)).toContain('Average order'),
    },
    {
      name: 'row',
      display: 'row',
      query: { aggregation: [['count']], breakout: [category()] },
      settings: { 'graph.x_axis.title_text': 'Category', 'graph.y_axis.title_text': 'Orders' },
    },
    {
      name: 'scatter',
      display: 'scatter',
      table: 'PRODUCTS',
      query: {
        fields: [
          ['field', field('PRODUCTS', 'PRICE'), null],
          ['field', field('PRODUCTS', 'RATING'), null],
        ],
      },
      settings: { 'graph.dimensions': ['PRICE'], 'graph.metrics': ['RATING'] },
      check: async (page) => expect(await count(page, `${viz} svg path`)).toBeGreaterThan(100),
    },
    {
      name: 'waterfall',
      display: 'waterfall',
      query: { aggregation: [['sum', ['field', field('ORDERS', 'DISCOUNT'), null]]], breakout: [createdAt('year')] },
      check: async (page) => expect(await text(page, viz)).toContain('Total'),
    },
    {
      name: 'pie',
      display: 'pie',
      query: { aggregation: [['count']], breakout: [category()] },
      check: async (page) => expect(await text(page, viz)).toMatch(/TOTAL/),
    },
    {
      name: 'funnel',
      display: 'funnel',
      query: { aggregation: [['count']], breakout: [category()], 'order-by': [['desc', ['aggregation', 0]]] },
      check: async (page) => expect(await text(page, viz)).toContain('(100%)'),
    },
    {
      name: 'progress',
      display: 'progress',
      query: { aggregation: [['count']] },
      settings: { 'progress.goal': 25000 },
      check: async (page) => expect(await text(page, viz)).toContain('Goal 25,000'),
    },
    {
      name: 'gauge',
      display: 'gauge',
      query: { aggregation: [['avg', ['field', field('ORDERS', 'TOTAL'), null]]] },
      settings: {
        'gauge.segments': [
          { min: 0, max: 80, color: '#ED6E6E', label: 'Low' },
          { min: 80, max: 160, color: '#F9CF48', label: 'Mid' },
          { min: 160, max: 240, color: '#84BB4C', label: 'High' },
        ],
      },
    },
    {
      name: 'object',
      display: 'object',
      table: 'PEOPLE',
      query: { filter: ['=', ['field', field('PEOPLE', 'ID'), null], 1] },
      check: async (page) => expect(await text(page, '[data-testid="object-detail"]')).toContain('Email'),
    },
    {
      name: 'pivot',
      display: 'pivot',
      query: { aggregation: [['count'], ['sum', ['field', field('ORDERS', 'TOTAL'), null]]], breakout: [category(), createdAt('year')] },
      settings: { 'pivot_table.column_split': { rows: [category()], columns: [createdAt('year')], values: ['count', 'sum'] } },
      check: async (page) => {
        const body = await text(page, '[data-testid="pivot-table"]');
        expect(body).toContain('Row totals');
        expect(body).toContain('Grand totals');
        // Every cell of the Row totals comes from the answer's subtotal rows.
        expect(await page.locator('tbody tr[data-kind="detail"] td:last-child').allTextContents()).toEqual(
          expect.arrayContaining([expect.stringMatching(/\d/)]),
        );
        expect((await page.locator('tbody tr[data-kind="detail"] td:last-child').allTextContents()).every((t) => /\d/.test(t))).toBe(true);
      },
    },
    {
      name: 'pivot-collapsed',
      display: 'pivot',
      query: { aggregation: [['count']], breakout: [category(), createdAt('year')] },
      settings: {
        'pivot_table.column_split': { rows: [category(), createdAt('year')], columns: [], values: ['count'] },
        'pivot_table.collapsed_rows': { value: ['["Gadget"]'], rows: [] },
      },
      check: async (page) => {
        expect(await count(page, 'tr[data-kind="collapsed"]')).toBe(1);
        expect(await count(page, 'tr[data-kind="subtotal"]')).toBe(3);
        await page.click('[aria-label="Expand"]');
        expect(await count(page, 'tr[data-kind="collapsed"]')).toBe(0);
        expect(await count(page, 'tr[data-kind="subtotal"]')).toBe(4);
        await page.click('[aria-label="Collapse"] >> nth=0');
        expect(await count(page, 'tr[data-kind="collapsed"]')).toBe(1);
      },
    },
    {
      name: 'map',
      display: 'map',
      table: 'PEOPLE',
      query: { aggregation: [['count']], breakout: [['field', field('PEOPLE', 'STATE'), null]] },
      settings: { 'map.type': 'region', 'map.region': 'us_states' },
      check: async (page) => expect(await count(page, `${viz} svg path`)).toBeGreaterThan(50),
    },
    {
      name: 'map-pin',
      display: 'map',
      table: 'PEOPLE',
      query: {
        fields: [
          ['field', field('PEOPLE', 'LATITUDE'), null],
          ['field', field('PEOPLE', 'LONGITUDE'), null],
        ],
        'order-by': [['asc', ['field', field('PEOPLE', 'ID'), null]]],
        limit: 400,
      },
      settings: { 'map.type': 'pin', 'map.latitude_column': 'LATITUDE', 'map.longitude_column': 'LONGITUDE' },
    },
    {
      name: 'map-world',
      display: 'map',
      sql:
        "SELECT 'US' AS country, 120 AS n UNION ALL SELECT 'BR', 60 UNION ALL SELECT 'DE', 90" +
        " UNION ALL SELECT 'IN', 75 UNION ALL SELECT 'AU', 30",
      settings: { 'map.type': 'region', 'map.region': 'world_countries', 'map.dimension': 'country', 'map.metric': 'n' },
      check: async (page) => expect(await count(page, `${viz} svg path`)).toBeGreaterThan(100),
    },
    {
      name: 'unknown',
      display: 'sankey',
      query: { aggregation: [['count']], breakout: [category()] },
      check: async (page) => {
        expect(await text(page, '[data-testid="visualization-note"]')).toContain('not supported');
        expect(await page.getAttribute(viz, 'data-display')).toBe('table');
      },
    },
  ];

  const NAMES = [
    'table',
    'scalar',
    'smartscalar',
    'bar',
    'bar-night',
    'line',
    'area',
    'combo',
    'row',
    'scatter',
    'waterfall',
    'pie',
    'funnel',
    'progress',
    'gauge',
    'object',
    'pivot',
    'pivot-collapsed',
    'map',
    'map-pin',
    'map-world',
    'unknown',
  ];

  it('has a case for every supported display', () => {
    const displays = new Set(cases().map((c) => c.display));
    for (const d of [
      'table',
      'scalar',
      'smartscalar',
      'bar',
      'line',
      'area',
      'combo',
      'row',
      'pie',
      'funnel',
      'progress',
      'gauge',
      'scatter',
      'waterfall',
      'pivot',
      'map',
      'object',
    ])
      expect(displays).toContain(d);
    expect(cases().map((c) => c.name)).toEqual(NAMES);
  });

  it.each(NAMES)('%s: drawn from a real card, matching its baseline', async (name) => {
    const c = cases().find((x) => x.name === name) as VizCase;
    const id = await sampleCard(w, {
      name: `Viz ${c.name}`,
      display: c.display,
      table: c.table ?? 'ORDERS',
      query: c.query,
      sql: c.sql,
      settings: c.settings ?? {},
    });
    const uuid = await publicLink(w, 'card', id);
    const page = await w.open(`/public/question/${uuid}${c.hash ? `#${c.hash}` : ''}`, { width: 1000, height: 640 });
    try {
      expect(await page.$('[data-testid="error-page"]')).toBeNull();
      expect(await page.getAttribute(viz, 'data-state')).toBe('ready');
      expect(await page.getAttribute(viz, 'data-display')).toBe(c.display === 'sankey' ? 'table' : c.display);
      expectScreenshot(`viz-${c.name}`, await stableScreenshot(page, () => page.locator(viz).screenshot()));
      await c.check?.(page);
    } finally {
      await page.context().close();
    }
  });
});
