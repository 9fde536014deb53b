import Database from 'better-sqlite3';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { AppServer, fieldDescription, pathOf, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';

jest.setTimeout(300_000);

interface FieldRow {
  id: number;
  name: string;
  display_name: string;
  semantic_type: string | null;
  visibility_type: string;
  has_field_values: string;
  fk_target_field_id: number | null;
}

/**
 * Admin > Table metadata as an admin uses it, on a small SQLite shop (orders pointing at products): a table's name
 * and visibility, a field's display name, semantic type, visibility and filter widget, its foreign key's display
 * values taken from the linked table, and custom display values. Each change is saved as it is made; each test
 * checks the API afterwards.
 */
describeBrowser('the admin console: table metadata', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let dbId: number;
  const get = async <T>(p: string): Promise<T> => (await app.t.http().get(p).set(auth(admin)).expect(200)).body as T;
  const tableId = async (name: string) =>
    (await get<{ tables: Array<{ id: number; name: string }> }>(`/api/database/${dbId}/metadata?include_hidden=true`)).tables.find(
      (t) => t.name === name,
    )!.id;
  const field = async (table: string, name: string): Promise<FieldRow> => {
    const meta = await get<{ tables: Array<{ name: string; fields: FieldRow[] }> }>(`/api/database/${dbId}/metadata?include_hidden=true`);
    return meta.tables.find((t) => t.name === table)!.fields.find((f) => f.name === name)!;
  };
  const group = (name: string) => page.getByRole('group', { name, exact: true });
  /** Waits for the field's controls to say the change is saved. */
  const saved = (name: string) => group(name).getByRole('status').filter({ hasText: 'Saved' }).waitFor();

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    const file = path.join(app.dataDir, 'shop.db');
    const db = new Database(file);
    db.exec(`
      CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT NOT NULL, category TEXT);
      CREATE TABLE orders (id INTEGER PRIMARY KEY, product_id INTEGER REFERENCES products (id), total REAL, status TEXT);
      INSERT INTO products (id, title, category) VALUES (1, 'Lamp', 'Home'), (2, 'Pen', 'Office');
      INSERT INTO orders (product_id, total, status) VALUES (1, 9.5, 'new'), (2, 20, 'shipped'), (1, 12, 'new');
    `);
    db.close();
    const created = await app.t
      .http()
      .post('/api/database')
      .set(auth(admin))
      .send({ engine: 'sqlite', name: 'Shop', details: { db: 'shop.db' } })
      .expect(200);
    dbId = created.body.id;
    await waitForSync(app.t, admin, dbId);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('picks the database, then a table', async () => {
    page = await app.open('/admin/datamodel');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Table metadata' }).waitFor();
    await page.getByText('Choose a database to edit its metadata.').waitFor();
    await page.getByRole('textbox', { name: 'Database' }).click();
    await page.getByRole('option', { name: 'Shop' }).click();
    const tables = page.getByRole('navigation', { name: 'Tables' });
    await tables.getByRole('link', { name: 'Orders' }).waitFor();
    expect(pathOf(page)).toBe(`/admin/datamodel/database/${dbId}`);
    await reviewPage(page, 'admin-datamodel-database');
    await tables.getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { name: 'Orders', level: 2 }).waitFor();
    expect(pathOf(page)).toBe(`/admin/datamodel/database/${dbId}/table/${await tableId('orders')}`);
    await group('total').waitFor();
    await reviewPage(page, 'admin-datamodel-table');
  });

  it("edits a field's semantic type and visibility; the API holds them", async () => {
    await group('total').getByLabel('Semantic type').selectOption({ label: 'Currency' });
    await saved('total');
    expect((await field('orders', 'total')).semantic_type).toBe('type/Currency');
    await group('total').getByLabel('Visibility').selectOption({ label: 'Only in detail views' });
    await until(async () => (await field('orders', 'total')).visibility_type === 'details-only');
    // What the select shows after the save is what the server answered.
    expect(await group('total').getByLabel('Visibility').inputValue()).toBe('details-only');
    expect(await group('total').getByLabel('Semantic type').inputValue()).toBe('type/Currency');
  });

  it('renames a field on leaving the input; an empty name is refused at the field', async () => {
    const name = group('total').getByLabel('Display name');
    // The metadata read again after the save is held until the next text has been typed, as on a slow network: the
    // saved name it brings must not replace what is being typed.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const metadata = '**/api/database/*/metadata**';
    await page.route(metadata, async (route) => {
      await held;
      await route.continue();
    });
    await name.fill('Order total');
    await name.press('Tab');
    await until(async () => (await field('orders', 'total')).display_name === 'Order total');
    await name.fill('');
    const landed = page.waitForResponse((r) => /\/api\/database\/\d+\/metadata/.test(r.url()));
    release();
    await landed;
    await page.unroute(metadata);
    await name.press('Tab');
    await page.getByText('Enter a display name.').waitFor();
    expect(await fieldDescription(name)).toBe('Enter a display name.');
    expect((await field('orders', 'total')).display_name).toBe('Order total');
  });

  it('sets the filter widget of a field to a list of its values', async () => {
    await group('status').getByLabel('Filtering').selectOption({ label: 'A list of all values' });
    await saved('status');
    expect((await field('orders', 'status')).has_field_values).toBe('list');
  });

  it("shows the foreign key's target, and renames and hides the table", async () => {
    const productId = await field('orders', 'product_id');
    expect(productId.semantic_type).toBe('type/FK');
    const target = group('product_id').getByLabel('Foreign key target');
    expect(await target.inputValue()).toBe(String(productId.fk_target_field_id));
    expect((await target.locator('option:checked').textContent())?.trim()).toBe('Products → ID');

    const tableName = page.getByLabel('Table display name');
    await tableName.fill('Customer orders');
    await tableName.press('Enter');
    await page.getByRole('heading', { name: 'Customer orders', level: 2 }).waitFor();
    await page.getByRole('radio', { name: 'Hidden', exact: true }).check();
    const orders = await tableId('orders');
    await until(async () => (await get<{ visibility_type: string | null }>(`/api/table/${orders}`)).visibility_type === 'hidden');
    expect((await get<{ display_name: string }>(`/api/table/${orders}`)).display_name).toBe('Customer orders');
    await page.getByRole('navigation', { name: 'Tables' }).getByRole('link', { name: 'Customer orders (hidden)' }).waitFor();
    await page.getByRole('radio', { name: 'Queryable' }).check();
    await until(async () => (await get<{ visibility_type: string | null }>(`/api/table/${orders}`)).visibility_type === null);
  });

  it('displays a field of the linked table for a foreign key (an external dimension)', async () => {
    await page.getByRole('link', { name: 'Display values of Product ID' }).click();
    await page.getByRole('heading', { name: 'Product ID', level: 2 }).waitFor();
    await page.getByRole('radio', { name: 'Use a field of the linked table' }).check();
    await page.getByLabel('Field of Products to show').selectOption({ label: 'Title' });
    await reviewPage(page, 'admin-datamodel-field');
    await page.getByRole('button', { name: 'Save display values' }).click();
    await page.getByText('The display values of Product ID are saved.').waitFor();
    const productId = await field('orders', 'product_id');
    const title = await field('products', 'title');
    const detail = await get<{ dimensions: Array<{ type: string; human_readable_field_id: number }> }>(`/api/field/${productId.id}`);
    expect(detail.dimensions).toEqual([expect.objectContaining({ type: 'external', human_readable_field_id: title.id })]);
  });

  it('gives custom display values to the values of a list field (an internal dimension)', async () => {
    await page.getByRole('link', { name: /^Back to / }).click();
    await page.getByRole('link', { name: 'Display values of Status' }).click();
    await page.getByRole('heading', { name: 'Status', level: 2 }).waitFor();
    await page.getByRole('radio', { name: 'Custom mapping' }).check();
    await page.getByLabel('Display value for new').fill('New order');
    await page.getByLabel('Display value for shipped').fill('On its way');
    await reviewPage(page, 'admin-datamodel-custom-values');
    await page.getByRole('button', { name: 'Save display values' }).click();
    await page.getByText('The display values of Status are saved.').waitFor();
    const status = await field('orders', 'status');
    expect((await get<{ dimensions: Array<{ type: string }> }>(`/api/field/${status.id}`)).dimensions).toEqual([
      expect.objectContaining({ type: 'internal' }),
    ]);
    expect((await get<{ values: unknown[] }>(`/api/field/${status.id}/values`)).values).toEqual([
      ['new', 'New order'],
      ['shipped', 'On its way'],
    ]);
  });
});
