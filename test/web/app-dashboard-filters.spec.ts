import type { Locator, Page } from 'playwright-core';
import { makeCard, tableQuery } from '../support/card-factories';
import { makeDashboard } from '../support/dashboard-factories';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { AppServer, pathOf, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';
import { shopDatabase } from './support/shop-db';

jest.setTimeout(300_000);

interface Parameter {
  id: string;
  name: string;
  type: string;
  default?: unknown;
  required?: boolean;
}
interface Dashcard {
  id: number;
  card_id: number | null;
  parameter_mappings: unknown[];
  visualization_settings: Record<string, unknown>;
}
interface Dashboard {
  auto_apply_filters: boolean;
  parameters: Parameter[];
  dashcards: Dashcard[];
}

/**
 * A dashboard's filters and cards as an admin sets them up in the editor: a default value and "always require a
 * value", Apply instead of auto-apply, a link card, a click that goes to a URL or opens a question, and Cancel
 * leaving the server as it was. Each is checked against what the server then holds and what the cards show.
 */
describeBrowser('dashboard filters, link cards and clicks', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let dash: number;
  let allProducts: number;
  let productCount: number;
  let customers: { db: number; id: number; field(name: string): number };
  let categoryField: number;
  const http = () => app.t.http();
  const dashboard = async () => (await http().get(`/api/dashboard/${dash}`).set(auth(admin)).expect(200)).body as Dashboard;
  const card = (name: string) => page.getByRole('region', { name, exact: true });
  const ready = (l: Locator) => until(async () => (await l.getAttribute('data-state')) === 'ready');
  const count = async () => ((await card('Product count').textContent()) ?? '').replace(/\D/g, '');
  /** What the server answers for the count card with this category (the dashcard query). */
  const countFor = async (category: string) => {
    const d = await dashboard();
    const dc = d.dashcards.find((x) => x.card_id === productCount)!;
    const res = await http()
      .post(`/api/dashboard/${dash}/dashcard/${dc.id}/card/${productCount}/query`)
      .set(auth(admin))
      .send({ parameters: [{ id: 'cat', type: 'string/=', value: [category] }] })
      .expect(202);
    return String((res.body as { data: { rows: unknown[][] } }).data.rows[0][0]);
  };
  const chooseCategory = async (value: string) => {
    await page.getByRole('group', { name: 'Filters' }).getByLabel('Category').click();
    await page.getByRole('option', { name: value, exact: true }).click();
    await page.keyboard.press('Escape');
  };
  const edit = () => page.getByRole('button', { name: 'Edit dashboard' }).click();
  const save = async () => {
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Edit dashboard' }).waitFor();
  };

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    const shop = await shopDatabase(
      app,
      admin,
      `CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT NOT NULL, category TEXT);
      INSERT INTO products VALUES (1, 'Lamp', 'Home'), (2, 'Pen', 'Office'), (3, 'Rug', 'Home'), (4, 'Kite', 'Toys'),
        (5, 'Vase', 'Home'), (6, 'Ink', 'Office');
      CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)
        INSERT INTO customers SELECT i, printf('Customer %04d', i) FROM n;`,
    );
    customers = { db: shop.id, ...shop.table('customers') };
    const products = shop.table('products');
    const field = products.field;
    allProducts = (
      await makeCard(app.t, admin, tableQuery(shop.id, products.id, { 'order-by': [['asc', ['field', field('id'), null]]] }), {
        name: 'All products',
        display: 'table',
      })
    ).id;
    productCount = (
      await makeCard(app.t, admin, tableQuery(shop.id, products.id, { aggregation: [['count']] }), {
        name: 'Product count',
        display: 'scalar',
      })
    ).id;
    dash = (await makeDashboard(app.t, admin, { name: 'Catalogue' })).id;
    categoryField = field('category');
    const target = ['dimension', ['field', categoryField, null]];
    const at = (dcId: number, cardId: number, col: number) => ({
      id: dcId,
      card_id: cardId,
      row: 0,
      col,
      size_x: 8,
      size_y: 6,
      parameter_mappings: [{ parameter_id: 'cat', card_id: cardId, target }],
      visualization_settings: {},
    });
    await http()
      .put(`/api/dashboard/${dash}`)
      .set(auth(admin))
      .send({
        parameters: [{ id: 'cat', name: 'Category', slug: 'category', type: 'string/=', sectionId: 'string' }],
        dashcards: [at(-1, allProducts, 0), at(-2, productCount, 8)],
      })
      .expect(200);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('gives the filter a default value and requires one: the cards open filtered, and the server holds both', async () => {
    page = await app.open(`/dashboard/${dash}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Catalogue', level: 1 }).waitFor();
    // Every product until a category is chosen (the card's number is drawn once its rows are in).
    await until(async () => (await count()) === '6');

    await edit();
    await page.getByRole('group', { name: 'Filters' }).getByRole('button', { name: 'Category' }).click();
    const settings = page.getByRole('region', { name: 'Filter settings' });
    await settings.getByRole('switch', { name: 'Always require a value' }).check();
    await settings.getByText('A required filter needs a default value.').waitFor();
    await settings.getByLabel('Default value').click();
    await page.getByRole('option', { name: 'Home', exact: true }).click();
    await page.keyboard.press('Escape');
    await settings.getByText('A required filter needs a default value.').waitFor({ state: 'detached' });
    await reviewPage(page, 'dashboard-filter-default');
    await settings.getByRole('button', { name: 'Close the filter settings' }).click();
    await save();

    const saved = (await dashboard()).parameters[0];
    expect(saved).toMatchObject({ id: 'cat', required: true, default: ['Home'] });
    await page.reload();
    await ready(card('Product count'));
    const home = await countFor('Home');
    expect(home).toBe('3');
    await until(async () => (await count()) === home);
  });

  it('with auto-apply off, a changed filter waits for Apply', async () => {
    await edit();
    await page.getByRole('switch', { name: 'Auto-apply filters' }).uncheck();
    await save();
    expect((await dashboard()).auto_apply_filters).toBe(false);

    let runs = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/dashcard\/\d+\/card\/\d+\/query$/.test(r.url())) runs++;
    });
    const apply = page.getByRole('group', { name: 'Filters' }).getByRole('button', { name: 'Apply' });
    expect(await apply.isDisabled()).toBe(true);
    await chooseCategory('Office');
    await until(async () => !(await apply.isDisabled()));
    // Nothing ran yet: the cards still show the default's rows.
    expect(runs).toBe(0);
    expect(await count()).toBe(await countFor('Home'));
    await apply.click();
    const bothCategories = String(Number(await countFor('Home')) + Number(await countFor('Office')));
    await until(async () => (await count()) === bothCategories);
    expect(runs).toBeGreaterThan(0);
    await until(async () => await apply.isDisabled());
  });

  it('Cancel drops every edit: the card added and the renamed dashboard are not saved', async () => {
    const before = await dashboard();
    await edit();
    await page.getByLabel('Dashboard name').fill('Renamed and dropped');
    await page.getByRole('button', { name: 'Add a card' }).click();
    await page.getByRole('menuitem', { name: 'Heading' }).click();
    await page.getByLabel('Heading text').fill('Not kept');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Edit dashboard' }).waitFor();
    await page.getByRole('heading', { name: 'Catalogue', level: 1 }).waitFor();
    expect(await page.getByText('Not kept').count()).toBe(0);
    const after = await dashboard();
    expect(after.dashcards.map((d) => d.id)).toEqual(before.dashcards.map((d) => d.id));
    expect((after as unknown as { name: string }).name).toBe('Catalogue');
  });

  it('adds a link card, and clicks on cells that go to a URL or open a saved question', async () => {
    await edit();
    await page.getByRole('button', { name: 'Add a card' }).click();
    await page.getByRole('menuitem', { name: 'Link' }).click();
    await page.getByLabel('Link URL').fill('https://example.com/catalogue');

    await page.getByRole('button', { name: 'Settings of All products' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings of All products' });
    await dialog.getByRole('textbox', { name: 'On click' }).click();
    await page.getByRole('option', { name: 'Go to a URL' }).click();
    await dialog.getByRole('textbox', { name: 'URL' }).fill('https://example.com/products/{{title}}');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Settings of Product count' }).click();
    const second = page.getByRole('dialog', { name: 'Settings of Product count' });
    await second.getByRole('textbox', { name: 'On click' }).click();
    await page.getByRole('option', { name: 'Open a saved question' }).click();
    await second.getByRole('textbox', { name: 'Question' }).fill('All');
    await page.getByRole('option', { name: /^All products/ }).click();
    await second.getByRole('button', { name: 'Done' }).click();
    await second.waitFor({ state: 'detached' });
    await save();

    const saved = await dashboard();
    const link = saved.dashcards.find((d) => d.card_id === null)!;
    expect((link.visualization_settings.link as { url: string }).url).toBe('https://example.com/catalogue');
    const byCard = (id: number) => saved.dashcards.find((d) => d.card_id === id)!.visualization_settings.click_behavior;
    expect(byCard(allProducts)).toEqual({ type: 'link', linkType: 'url', linkTemplate: 'https://example.com/products/{{title}}' });
    expect(byCard(productCount)).toMatchObject({ type: 'link', linkType: 'question', targetId: allProducts });
    expect(await page.getByRole('region', { name: 'Link card' }).getByRole('link').getAttribute('href')).toBe(
      'https://example.com/catalogue',
    );

    // The URL gets the clicked row's value; it opens in a new tab (answered here: the machine has no internet).
    await page
      .context()
      .route('https://example.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>Shop</title>' }));
    await ready(card('All products'));
    const opened = page.context().waitForEvent('page');
    await card('All products').getByRole('cell', { name: 'Lamp', exact: true }).click();
    const tab = await opened;
    await until(async () => tab.url() !== 'about:blank');
    expect(tab.url()).toBe('https://example.com/products/Lamp');
    await tab.close();

    // The count opens the question it names.
    await ready(card('Product count'));
    await card('Product count').getByRole('button', { name: /^\d+$/ }).press('Enter');
    await until(() => pathOf(page).startsWith(`/question/${allProducts}`));
  });

  it('finds a value beyond the first thousand by searching, and keeps the filter in the link', async () => {
    const counted = await makeCard(app.t, admin, tableQuery(customers.db, customers.id, { aggregation: [['count']] }), {
      name: 'Customer count',
      display: 'scalar',
    });
    const people = (
      await makeDashboard(app.t, admin, {
        name: 'Customers',
        parameters: [{ id: 'who', name: 'Customer', slug: 'customer', type: 'string/=', sectionId: 'string' }],
      })
    ).id;
    const target = ['dimension', ['field', customers.field('name'), null]];
    await http()
      .put(`/api/dashboard/${people}`)
      .set(auth(admin))
      .send({
        dashcards: [
          {
            id: -1,
            card_id: counted.id,
            row: 0,
            col: 0,
            size_x: 6,
            size_y: 4,
            parameter_mappings: [{ parameter_id: 'who', card_id: counted.id, target }],
          },
        ],
      })
      .expect(200);
    // The list the widget opens with is cut short before this customer.
    const listed = (await http().get(`/api/dashboard/${people}/params/who/values`).set(auth(admin)).expect(200)).body as {
      values: unknown[][];
      has_more_values: boolean;
    };
    expect(listed.has_more_values).toBe(true);
    expect(listed.values.flat()).not.toContain('Customer 1150');

    await page.goto(`${app.base}/dashboard/${people}`);
    const shown = () => card('Customer count').textContent();
    await until(async () => ((await shown()) ?? '').replace(/\D/g, '') === '1200');
    const widget = page.getByRole('group', { name: 'Filters' }).getByLabel('Customer');
    await widget.click();
    await widget.fill('Customer 1150');
    await page.getByRole('option', { name: 'Customer 1150', exact: true }).click();
    await page.keyboard.press('Escape');
    await until(async () => ((await shown()) ?? '').replace(/\D/g, '') === '1');
    expect(new URL(page.url()).searchParams.getAll('customer')).toEqual(['Customer 1150']);

    // Reloaded, the link opens the dashboard filtered as it was.
    await page.reload();
    await page.getByRole('group', { name: 'Filters' }).getByText('Customer 1150').waitFor();
    await until(async () => ((await shown()) ?? '').replace(/\D/g, '') === '1');
  });

  it("a click opens another dashboard with its filter set from the clicked row's column", async () => {
    const detail = (
      await makeDashboard(app.t, admin, {
        name: 'Category detail',
        parameters: [{ id: 'dcat', name: 'Product category', slug: 'product_category', type: 'string/=', sectionId: 'string' }],
      })
    ).id;
    await http()
      .put(`/api/dashboard/${detail}`)
      .set(auth(admin))
      .send({
        dashcards: [
          {
            id: -1,
            card_id: allProducts,
            row: 0,
            col: 0,
            size_x: 12,
            size_y: 6,
            parameter_mappings: [{ parameter_id: 'dcat', card_id: allProducts, target: ['dimension', ['field', categoryField, null]] }],
          },
        ],
      })
      .expect(200);
    await page.goto(`${app.base}/dashboard/${dash}`);
    await edit();
    await page.getByRole('button', { name: 'Settings of All products' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings of All products' });
    await dialog.getByRole('textbox', { name: 'On click' }).click();
    await page.getByRole('option', { name: 'Open a dashboard' }).click();
    await dialog.getByRole('textbox', { name: 'Dashboard', exact: true }).fill('Category');
    await page.getByRole('option', { name: 'Category detail' }).click();
    await dialog.getByRole('textbox', { name: 'Column that sets Product category there' }).click();
    await page.getByRole('option', { name: /^Category$/i }).click();
    await reviewPage(page, 'dashboard-click-to-dashboard');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await save();
    const saved = (await dashboard()).dashcards.find((d) => d.card_id === allProducts)!;
    expect(saved.visualization_settings.click_behavior).toEqual({
      type: 'link',
      linkType: 'dashboard',
      targetId: detail,
      parameterMapping: {
        dcat: { id: 'dcat', source: { type: 'column', id: 'category', name: 'category' }, target: { type: 'parameter', id: 'dcat' } },
      },
    });

    // The default filter shows Home's products; a click on one opens the detail filtered to Home.
    await ready(card('All products'));
    await card('All products').getByRole('cell', { name: 'Lamp', exact: true }).click();
    await until(() => pathOf(page).startsWith(`/dashboard/${detail}`));
    expect(new URL(page.url()).searchParams.getAll('product_category')).toEqual(['Home']);
    const rows = card('All products').getByRole('row');
    await until(async () => (await rows.count()) === 4); // the header and Lamp, Rug, Vase
    for (const title of ['Lamp', 'Rug', 'Vase']) await card('All products').getByRole('cell', { name: title, exact: true }).waitFor();
  });
});
