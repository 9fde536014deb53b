import { describeBrowser } from './support/browser';
import { expectScreenshot } from './support/screenshots';
import { publicLink, sampleCard, startWebApp, WebApp } from './support/web-app';

jest.setTimeout(240_000);

/** The public and embed pages in Chromium, on the Sample Database. */
describeBrowser('web pages', () => {
  let w: WebApp;
  beforeAll(async () => {
    w = await startWebApp();
  });
  afterAll(async () => {
    await w?.close();
  });

  it('public question: the title, the visualization and the download button', async () => {
    const id = await sampleCard(w, { name: 'Orders by category', display: 'bar', table: 'ORDERS', query: { aggregation: [['count']], breakout: [['field', w.s.field('PRODUCTS', 'CATEGORY'), { 'source-field': w.s.field('ORDERS', 'PRODUCT_ID') }]] } });
    const uuid = await publicLink(w, 'card', id);
    const page = await w.open(`/public/question/${uuid}`);
    expect(await page.textContent('.card-title')).toBe('Orders by category');
    expect(await page.getAttribute('[data-testid="visualization"]', 'data-display')).toBe('bar');
    expectScreenshot('public-question-bar', await page.screenshot());
  });
});
