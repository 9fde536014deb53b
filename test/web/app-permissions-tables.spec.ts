import type { Page } from 'playwright-core';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { ADMIN, auth, makeUser, setupAdmin } from '../support/factories';
import { waitForDatabase, waitForSync } from '../support/sync-wait';
import { availableEngines } from '../support/warehouses';
import { reviewPage } from './support/a11y';
import { AppServer, pathOf, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';

jest.setTimeout(300_000);

/** Impersonation needs a Postgres warehouse (skipped, with a warning, where none is reachable). */
const withPostgres = availableEngines(['postgres']).length ? it : it.skip;

type PerSchema = string | Record<string, string | Record<string, string>>;
interface Entry {
  'view-data'?: PerSchema;
  'create-queries'?: PerSchema;
  download: { schemas: PerSchema };
}
interface DataGraph {
  revision: number;
  groups: Record<string, Record<string, Entry>>;
}
interface Table {
  id: number;
  name: string;
  schema: string | null;
  fields: Array<{ id: number; name: string }>;
}

/**
 * Admin > Permissions at table level (issue 37), on the Sample Database: one group may view every table but
 * Products, another may view Orders only under a row policy (USER_ID equal to the attribute `user_id`). Saved
 * together; the server then holds exactly that graph and that policy. Admin > People > Tenants turns tenants on and
 * lists, creates, renames and deactivates tenants.
 */
describeBrowser('the admin console: table permissions and tenants', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let sample: number;
  let tables: Table[];
  let auditors: number;
  let sellers: number;
  let warehouse: E2eWarehouse | undefined;
  const http = () => app.t.http();
  const get = async <T>(p: string): Promise<T> => (await http().get(p).set(auth(admin)).expect(200)).body as T;
  const select = (label: string) => page.getByLabel(label, { exact: true });
  const bar = () => page.getByRole('region', { name: 'Unsaved changes' });
  const table = (name: string) => tables.find((t) => t.name === name)!;
  const group = (name: string) =>
    http()
      .post('/api/permissions/group')
      .set(auth(admin))
      .send({ name })
      .expect(200)
      .then((r) => r.body.id as number);

  beforeAll(async () => {
    app = await startAppServer({ LOAD_SAMPLE_DATABASE: 'true' });
    admin = await setupAdmin(app.t);
    sample = await waitForDatabase(app.t, admin, 'Sample Database');
    await waitForSync(app.t, admin, sample);
    tables = (await get<{ tables: Table[] }>(`/api/database/${sample}/metadata`)).tables;
    auditors = await group('Auditors');
    sellers = await group('Sellers');
    // Someone has the attribute, so the policy editor offers it.
    const seller = await makeUser(app.t, admin, { first_name: 'Sam', last_name: 'Seller' });
    await http()
      .put(`/api/mt/user/${seller.id}/attributes`)
      .set(auth(admin))
      .send({ login_attributes: { user_id: '7' } })
      .expect(200);
  });
  afterAll(async () => {
    await app?.close();
    await warehouse?.drop();
  });

  it('blocks Products for one group and puts Orders under a row policy for another, saved together', async () => {
    page = await app.open(`/admin/permissions/data/group/${auditors}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Auditors: access to each database' }).waitFor();
    // A new group sees nothing: it may view the database, then not its Products.
    expect(await select('View data for Auditors on Sample Database').inputValue()).toBe('blocked');
    await select('View data for Auditors on Sample Database').selectOption({ label: 'Can view' });
    await page.getByRole('link', { name: 'Tables of Sample Database for Auditors' }).click();
    await page.getByRole('heading', { name: 'Auditors: access to the tables of Sample Database' }).waitFor();
    expect(pathOf(page)).toBe(`/admin/permissions/data/group/${auditors}/database/${sample}`);
    expect(await select('View data for Auditors on Orders').inputValue()).toBe('unrestricted');
    await select('View data for Auditors on Products').selectOption({ label: 'Blocked' });
    expect(await select('Create queries for Auditors on Products').isDisabled()).toBe(true);
    await bar().getByText('You have 1 unsaved change.').waitFor();

    // Sellers: the database, then Granular opens its tables; Orders under a policy.
    await page.getByRole('navigation', { name: 'Groups' }).getByRole('link', { name: 'Sellers' }).click();
    await page.getByRole('heading', { name: 'Sellers: access to each database' }).waitFor();
    await select('View data for Sellers on Sample Database').selectOption({ label: 'Can view' });
    await select('View data for Sellers on Sample Database').selectOption({ label: 'Granular' });
    await page.getByRole('heading', { name: 'Sellers: access to the tables of Sample Database' }).waitFor();
    await select('View data for Sellers on Orders').selectOption({ label: 'Row and column security' });
    const dialog = page.getByRole('dialog', { name: 'Restrict Orders for Sellers' });
    await dialog.getByRole('radio', { name: 'Filter by a column of the table' }).waitFor();
    expect(await dialog.getByRole('radio', { name: 'Filter by a column of the table' }).isChecked()).toBe(true);
    await dialog.getByLabel('Column', { exact: true }).selectOption({ label: 'User ID' });
    await dialog.getByLabel('User attribute', { exact: true }).fill('user_id');
    await reviewPage(page, 'admin-permissions-policy');
    await dialog.getByRole('button', { name: 'Use this policy' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await select('View data for Sellers on Orders').inputValue()).toBe('sandboxed');
    await page.getByRole('button', { name: 'Edit policy for Sellers on Orders' }).waitFor();
    await bar().getByText('You have 3 unsaved changes.').waitFor();
    await reviewPage(page, 'admin-permissions-tables');
    // Nothing is sent before Save.
    expect(await get('/api/mt/gtap')).toEqual([]);

    await bar().getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The data permissions are saved.').waitFor();
    await bar().waitFor({ state: 'detached' });

    const graph = await get<DataGraph>('/api/permissions/graph');
    const schema = table('ORDERS').schema ?? '';
    const others = tables.filter((t) => t.name !== 'PRODUCTS').map((t) => String(t.id));
    const each = (level: string) => ({ [schema]: Object.fromEntries(others.map((id) => [id, level])) });
    expect(graph.groups[auditors][sample]).toMatchObject({
      'view-data': each('unrestricted'),
      'create-queries': each('query-builder'),
      download: { schemas: each('full') },
    });
    // Metabase's format: the table under a policy is `sandboxed`, the others viewable.
    const orders = String(table('ORDERS').id);
    expect(graph.groups[sellers][sample]).toMatchObject({
      'view-data': { [schema]: { ...each('unrestricted')[schema], [orders]: 'sandboxed' } },
      'create-queries': 'query-builder',
      download: { schemas: 'full' },
    });
    const userId = table('ORDERS').fields.find((f) => f.name === 'USER_ID')!.id;
    expect(await get('/api/mt/gtap')).toEqual([
      {
        id: expect.any(Number),
        group_id: sellers,
        table_id: table('ORDERS').id,
        card_id: null,
        attribute_remappings: { user_id: ['dimension', ['field', userId, null]] },
      },
    ]);
  });

  it('reads the policy back after a reload, and removes it when Orders is blocked', async () => {
    await page.reload();
    await page.getByRole('heading', { name: 'Sellers: access to the tables of Sample Database' }).waitFor();
    expect(await select('View data for Sellers on Orders').inputValue()).toBe('sandboxed');
    await page.getByRole('button', { name: 'Edit policy for Sellers on Orders' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restrict Orders for Sellers' });
    expect(await dialog.getByLabel('User attribute', { exact: true }).inputValue()).toBe('user_id');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    // In the database view, Sellers' view data is granular: one table is under a policy.
    await page.getByRole('link', { name: 'Sellers', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Sellers: access to each database' }).waitFor();
    expect(await select('View data for Sellers on Sample Database').inputValue()).toBe('granular');
    await page.getByRole('link', { name: 'Tables of Sample Database for Sellers' }).click();
    await select('View data for Sellers on Orders').selectOption({ label: 'Blocked' });
    await bar().getByRole('button', { name: 'Save changes' }).click();
    await bar().waitFor({ state: 'detached' });
    expect(await get('/api/mt/gtap')).toEqual([]);
    const entry = (await get<DataGraph>('/api/permissions/graph')).groups[sellers][sample];
    expect(entry['view-data']).not.toBe('unrestricted');
  });

  it('puts a saved question in place of a table, its rows filtered by an attribute', async () => {
    const orders = table('ORDERS');
    const card = (
      await http()
        .post('/api/card')
        .set(auth(admin))
        .send({
          name: 'Recent orders',
          display: 'table',
          visualization_settings: {},
          dataset_query: { database: sample, type: 'query', query: { 'source-table': orders.id, limit: 100 } },
        })
        .expect(200)
    ).body.id as number;
    await page.goto(`${app.base}/admin/permissions/data/group/${auditors}/database/${sample}`);
    await page.getByRole('heading', { name: 'Auditors: access to the tables of Sample Database' }).waitFor();
    await select('View data for Auditors on Orders').selectOption({ label: 'Row and column security' });
    const dialog = page.getByRole('dialog', { name: 'Restrict Orders for Auditors' });
    await dialog.getByRole('radio', { name: 'Use a saved question in place of the table' }).check();
    await dialog.getByLabel('Question', { exact: true }).selectOption({ label: 'Recent orders' });
    await dialog.getByLabel('Column', { exact: true }).selectOption({ label: 'User ID' });
    await dialog.getByLabel('User attribute', { exact: true }).fill('user_id');
    await dialog.getByRole('button', { name: 'Use this policy' }).click();
    await dialog.waitFor({ state: 'detached' });
    await bar().getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The data permissions are saved.').waitFor();
    await bar().waitFor({ state: 'detached' });
    const userId = orders.fields.find((f) => f.name === 'USER_ID')!.id;
    expect(await get('/api/mt/gtap')).toEqual([
      {
        id: expect.any(Number),
        group_id: auditors,
        table_id: orders.id,
        card_id: card,
        attribute_remappings: { user_id: ['dimension', ['field', userId, null]] },
      },
    ]);
  });

  it("puts a SQL question in place of a table, a user attribute filling in the question's variable", async () => {
    const people = table('PEOPLE');
    const card = (
      await http()
        .post('/api/card')
        .set(auth(admin))
        .send({
          name: 'People by SQL',
          display: 'table',
          visualization_settings: {},
          dataset_query: {
            database: sample,
            type: 'native',
            native: {
              query: 'SELECT ID, NAME, STATE FROM PEOPLE WHERE ID = {{person}}',
              'template-tags': { person: { id: 'p', name: 'person', 'display-name': 'Person', type: 'number', default: '1' } },
            },
          },
        })
        .expect(200)
    ).body.id as number;
    await page.goto(`${app.base}/admin/permissions/data/group/${sellers}/database/${sample}`);
    await page.getByRole('heading', { name: 'Sellers: access to the tables of Sample Database' }).waitFor();
    await select('View data for Sellers on People').selectOption({ label: 'Row and column security' });
    const dialog = page.getByRole('dialog', { name: 'Restrict People for Sellers' });
    await dialog.getByRole('radio', { name: 'Use a saved question in place of the table' }).check();
    await dialog.getByLabel('Question', { exact: true }).selectOption({ label: 'People by SQL' });
    await dialog.getByText('each variable filled in with their user attribute').waitFor();
    await dialog.getByLabel('Variable', { exact: true }).selectOption({ label: 'Person' });
    await dialog.getByLabel('User attribute', { exact: true }).fill('user_id');
    await reviewPage(page, 'admin-permissions-sql-policy');
    await dialog.getByRole('button', { name: 'Use this policy' }).click();
    await dialog.waitFor({ state: 'detached' });
    await bar().getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The data permissions are saved.').waitFor();
    await bar().waitFor({ state: 'detached' });
    const policies = await get<Array<{ table_id: number }>>('/api/mt/gtap');
    expect(policies.filter((p) => p.table_id === people.id)).toEqual([
      {
        id: expect.any(Number),
        group_id: sellers,
        table_id: people.id,
        card_id: card,
        attribute_remappings: { user_id: ['variable', ['template-tag', 'person']] },
      },
    ]);
  });

  withPostgres('impersonates a group on a Postgres database with the role a user attribute names', async () => {
    warehouse = await e2eWarehouse('postgres', '', { statements: ['CREATE TABLE docs (n INTEGER PRIMARY KEY)'] });
    const db = (
      await http().post('/api/database').set(auth(admin)).send({ engine: 'postgres', name: 'Docs', details: warehouse.details }).expect(200)
    ).body.id as number;
    await waitForSync(app.t, admin, db);
    await page.goto(`${app.base}/admin/permissions/data/database/${db}`);
    await page.getByRole('heading', { name: 'Docs: access of each group' }).waitFor();
    await select('View data for Auditors on Docs').selectOption({ label: 'Impersonated' });
    const dialog = page.getByRole('dialog', { name: 'Impersonate Auditors on Docs' });
    await dialog.getByLabel('User attribute holding the role').fill('db_role');
    await reviewPage(page, 'admin-permissions-impersonation');
    await dialog.getByRole('button', { name: 'Use this attribute' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await select('View data for Auditors on Docs').inputValue()).toBe('impersonated');
    await page.getByRole('button', { name: 'db_role: role attribute for Auditors on Docs' }).waitFor();
    await bar().getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The data permissions are saved.').waitFor();
    await bar().waitFor({ state: 'detached' });
    expect(await get('/api/ee/advanced-permissions/impersonation')).toEqual([
      expect.objectContaining({ group_id: auditors, db_id: db, attribute: 'db_role' }),
    ]);
    expect((await get<DataGraph>('/api/permissions/graph')).groups[auditors][db]['view-data']).toBe('impersonated');
  });

  it('turns tenants on, lists a tenant made through the API, creates, renames and deactivates one', async () => {
    await page.goto(`${app.base}/admin/people/tenants`);
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    const toggle = page.getByRole('switch', { name: 'Use tenants' });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    await page.getByText('Tenants are turned on.').waitFor();
    expect(await get<boolean>('/api/setting/use-tenants')).toBe(true);

    await http().post('/api/ee/tenant').set(auth(admin)).send({ name: 'Globex', slug: 'globex' }).expect(200);
    await page.reload();
    const list = page.getByRole('table', { name: 'Tenants' });
    await list.getByRole('rowheader', { name: 'Globex' }).waitFor();

    await page.getByLabel('New tenant name').fill('Acme Corp');
    expect(await page.getByLabel('Slug').inputValue()).toBe('acme-corp');
    await page.getByRole('button', { name: 'Create tenant' }).click();
    await list.getByRole('rowheader', { name: 'Acme Corp' }).waitFor();
    await reviewPage(page, 'admin-people-tenants');

    await list.getByRole('button', { name: 'Rename Acme Corp' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename Acme Corp' });
    await dialog.getByLabel('Tenant name').fill('Acme Inc');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await list.getByRole('rowheader', { name: 'Acme Inc' }).waitFor();
    await list.getByRole('button', { name: 'Deactivate Acme Inc' }).click();
    await list.getByRole('button', { name: 'Reactivate Acme Inc' }).waitFor();

    const saved = (await get<{ data: Array<{ name: string; slug: string; is_active: boolean }> }>('/api/ee/tenant?status=all')).data;
    expect(saved.map((t) => [t.name, t.slug, t.is_active]).sort()).toEqual([
      ['Acme Inc', 'acme-corp', false],
      ['Globex', 'globex', true],
    ]);
  });
});
