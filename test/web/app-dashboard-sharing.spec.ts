import jwt from 'jsonwebtoken';
import type { Page } from 'playwright-core';
import { makeCard, tableQuery } from '../support/card-factories';
import { makeDashboard } from '../support/dashboard-factories';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { AppServer, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';
import { shopDatabase } from './support/shop-db';

jest.setTimeout(300_000);

const KEY = 'a'.repeat(32) + 'b'.repeat(32);

interface Dashboard {
  id: number;
  public_uuid: string | null;
  enable_embedding: boolean;
  embedding_params: Record<string, string> | null;
}

/**
 * Sharing a dashboard from the application, as an admin: a static embed with the category locked and the state
 * editable, tried in the live preview (through /api/preview-embed) and published; a token signed here as the
 * Node.js snippet signs it opens /embed/dashboard/<token> with the locked value applied; then a public link, opened
 * by someone signed out.
 */
describeBrowser('sharing and embedding a dashboard', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let dash: number;
  let question: number;
  const http = () => app.t.http();
  const dashboard = async () => (await http().get(`/api/dashboard/${dash}`).set(auth(admin)).expect(200)).body as Dashboard;
  const dialog = () => page.getByRole('dialog', { name: 'Share "Shop overview"' });

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    const shop = await shopDatabase(
      app,
      admin,
      `CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT NOT NULL, category TEXT, state TEXT);
      INSERT INTO products VALUES
        (1, 'Lamp', 'Home', 'CA'), (2, 'Pen', 'Office', 'NY'), (3, 'Rug', 'Home', 'NY'), (4, 'Kite', 'Toys', 'TX');`,
    );
    const products = shop.table('products');
    const field = (name: string) => ['field', products.field(name), null];
    const card = await makeCard(app.t, admin, tableQuery(shop.id, products.id), { name: 'All products', display: 'table' });
    question = card.id;
    dash = (await makeDashboard(app.t, admin, { name: 'Shop overview' })).id;
    const parameters = [
      { id: 'cat', name: 'Category', slug: 'category', type: 'category' },
      { id: 'st', name: 'State', slug: 'state', type: 'string/=', sectionId: 'location' },
    ];
    const mapping = (id: string, column: string) => ({ parameter_id: id, card_id: card.id, target: ['dimension', field(column)] });
    await http()
      .put(`/api/dashboard/${dash}`)
      .set(auth(admin))
      .send({
        parameters,
        dashcards: [
          {
            id: -1,
            card_id: card.id,
            row: 0,
            col: 0,
            size_x: 16,
            size_y: 8,
            parameter_mappings: [mapping('cat', 'category'), mapping('st', 'state')],
            visualization_settings: {},
          },
        ],
      })
      .expect(200);
    await http()
      .put('/api/setting')
      .set(auth(admin))
      .send({ 'enable-public-sharing': true, 'enable-embedding-static': true, 'embedding-secret-key': KEY })
      .expect(204);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('publishes a static embed with a locked and an editable parameter, tried in the preview first', async () => {
    page = await app.open(`/dashboard/${dash}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Shop overview', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Sharing and embedding' }).click();
    await dialog().getByRole('tab', { name: 'Static embedding' }).click();

    await dialog().getByLabel('Category', { exact: true }).click();
    await page.getByRole('option', { name: 'Locked' }).click();
    await dialog().getByLabel('Preview value of Category').fill('Home');
    await dialog().getByLabel('State', { exact: true }).click();
    await page.getByRole('option', { name: 'Editable' }).click();

    // The preview: the embed viewer in a frame, through /api/preview-embed, with the locked value applied.
    const preview = page.getByTitle('Embed preview').contentFrame();
    await preview.getByText('Rug').waitFor();
    await until(async () => (await preview.getByText('Pen').count()) === 0);
    // The locked parameter has no widget; the editable one has.
    const widgets = preview.getByTestId('parameter');
    await widgets.first().waitFor();
    expect(await widgets.evaluateAll((els) => els.map((e) => e.getAttribute('data-slug')))).toEqual(['state']);
    await reviewPage(page, 'dashboard-embed-dialog');

    await dialog().getByRole('button', { name: 'Publish', exact: true }).click();
    await dialog().getByText('Published', { exact: true }).waitFor();
    const saved = await dashboard();
    expect(saved.enable_embedding).toBe(true);
    expect(saved.embedding_params).toEqual({ category: 'locked', state: 'enabled' });

    // The Node.js snippet names this dashboard and the locked value.
    const code = (await dialog().getByLabel('Signing code in Node.js').textContent()) ?? '';
    expect(code).toContain(`resource: { dashboard: ${dash} }`);
    expect(code).toMatch(/params: \{\s*"category": \[\s*"Home"\s*\]\s*\}/);
    expect(code).toContain('jwt.sign(payload, SECRET_KEY)');

    // Signed here as the snippet signs it, with the key the settings API was given.
    const token = jwt.sign(
      { resource: { dashboard: dash }, params: { category: ['Home'] }, exp: Math.round(Date.now() / 1000) + 600 },
      KEY,
    );
    const embed = await app.open(`/embed/dashboard/${token}#bordered=true&titled=true`);
    await embed.getByRole('heading', { name: 'Shop overview' }).waitFor();
    await embed.getByText('Rug').waitFor();
    await embed.getByText('Lamp').waitFor();
    expect(await embed.getByText('Pen').count()).toBe(0);
    expect(await embed.getByText('Kite').count()).toBe(0);
    await embed.close();
  });

  it('makes a public link, which opens signed out', async () => {
    await dialog().getByRole('tab', { name: 'Public link' }).click();
    await dialog().getByRole('button', { name: 'Create a public link' }).click();
    const link = dialog().getByRole('textbox', { name: 'Public link', exact: true });
    await until(async () => /\/public\/dashboard\/[0-9a-f-]{36}$/.test(await link.inputValue()));
    const uuid = (await dashboard()).public_uuid;
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(await link.inputValue()).toBe(`${app.base}/public/dashboard/${uuid}`);
    expect(await dialog().getByRole('textbox', { name: 'Public embed code' }).inputValue()).toContain(
      `src="${app.base}/public/dashboard/${uuid}"`,
    );
    await reviewPage(page, 'dashboard-public-link');

    // A fresh browser context: nobody signed in.
    const visitor = await app.open(new URL(await link.inputValue()).pathname);
    await visitor.getByRole('heading', { name: 'Shop overview' }).waitFor();
    await visitor.getByText('Pen').waitFor();
    await visitor.getByText('Kite').waitFor();
    expect((await visitor.context().cookies()).some((c) => c.name === 'metabase.SESSION')).toBe(false);
    await visitor.close();

    await dialog().getByRole('button', { name: 'Remove the public link' }).click();
    await page.getByRole('dialog', { name: 'Remove the public link?' }).getByRole('button', { name: 'Remove the link' }).click();
    await until(async () => (await dashboard()).public_uuid === null);
  });

  it("shares a question the same three ways: a public link opened signed out, a static embed previewed, the SDK's code", async () => {
    const card = async () => (await http().get(`/api/card/${question}`).set(auth(admin)).expect(200)).body as Dashboard & { name: string };
    await page.goto(`${app.base}/question/${question}`);
    await page.getByRole('button', { name: 'More actions for this question' }).click();
    await page.getByRole('menuitem', { name: 'Sharing and embedding' }).click();
    const share = page.getByRole('dialog', { name: 'Share "All products"' });

    await share.getByRole('button', { name: 'Create a public link' }).click();
    const link = share.getByRole('textbox', { name: 'Public link', exact: true });
    await until(async () => /\/public\/question\/[0-9a-f-]{36}$/.test(await link.inputValue()));
    expect(await link.inputValue()).toBe(`${app.base}/public/question/${(await card()).public_uuid}`);
    const visitor = await app.open(new URL(await link.inputValue()).pathname);
    await visitor.getByText('Kite').waitFor();
    expect((await visitor.context().cookies()).some((c) => c.name === 'metabase.SESSION')).toBe(false);
    await visitor.close();

    await share.getByRole('tab', { name: 'Static embedding' }).click();
    await share.getByText('This question has no parameters.').waitFor();
    const preview = page.getByTitle('Embed preview').contentFrame();
    await preview.getByText('Kite').waitFor();
    await reviewPage(page, 'question-embed-dialog');
    await share.getByRole('button', { name: 'Publish', exact: true }).click();
    await share.getByText('Published', { exact: true }).waitFor();
    expect((await card()).enable_embedding).toBe(true);
    expect(await share.getByLabel('Signing code in Node.js').textContent()).toContain(`resource: { question: ${question} }`);
    const token = jwt.sign({ resource: { question }, params: {}, exp: Math.round(Date.now() / 1000) + 600 }, KEY);
    const embed = await app.open(`/embed/question/${token}`);
    await embed.getByText('Kite').waitFor();
    await embed.close();

    await share.getByRole('tab', { name: 'React SDK' }).click();
    const react = await share.getByLabel('React code', { exact: true }).textContent();
    expect(react).toContain(`<InteractiveQuestion questionId={${question}} />`);
  });
});
