import type { Page } from 'playwright-core';
import { ADMIN, auth, makeUser, MadeUser, setupAdmin } from '../support/factories';
import { waitForDatabase, waitForSync } from '../support/sync-wait';
import { reviewPage } from './support/a11y';
import { AppServer, pathOf, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';

jest.setTimeout(300_000);

interface Access {
  data: string;
  native: string;
  download: { schemas: string };
}
interface DataGraph {
  revision: number;
  groups: Record<string, Record<string, Access>>;
}

/**
 * Admin > Permissions as an admin uses it, on the Sample Database: All Users lose their access to it and a group
 * keeps the query builder without native SQL or downloads; a member of the group, signed in in a fresh browser, can
 * ask questions but not run SQL, anyone else cannot query it at all, and neither sees the admin console. A save made
 * on a stale revision is refused (409) and the admin is told to reload. The collection grid gives a group access to
 * Our analytics and to a collection with its sub-collection.
 */
describeBrowser('the admin console: permissions', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let sample: number;
  let ordersTable: number;
  let analysts: number;
  let member: MadeUser;
  let outsider: MadeUser;
  const http = () => app.t.http();
  const get = async <T>(p: string): Promise<T> => (await http().get(p).set(auth(admin)).expect(200)).body as T;
  const graph = () => get<DataGraph>('/api/permissions/graph');
  const select = (label: string) => page.getByLabel(label, { exact: true });
  const bar = () => page.getByRole('region', { name: 'Unsaved changes' });

  beforeAll(async () => {
    app = await startAppServer({ LOAD_SAMPLE_DATABASE: 'true' });
    admin = await setupAdmin(app.t);
    sample = await waitForDatabase(app.t, admin, 'Sample Database');
    await waitForSync(app.t, admin, sample);
    const meta = await get<{ tables: Array<{ id: number; name: string }> }>(`/api/database/${sample}/metadata`);
    ordersTable = meta.tables.find((t) => t.name === 'ORDERS')!.id;
    analysts = (await http().post('/api/permissions/group').set(auth(admin)).send({ name: 'Analysts' }).expect(200)).body.id;
    member = await makeUser(app.t, admin, { first_name: 'Mia', last_name: 'Member' });
    outsider = await makeUser(app.t, admin, { first_name: 'Otto', last_name: 'Outsider' });
    await http().post('/api/permissions/membership').set(auth(admin)).send({ group_id: analysts, user_id: member.id }).expect(200);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('restricts the Sample Database: All Users lose access, Analysts keep the query builder only', async () => {
    page = await app.open('/admin/permissions');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Permissions', level: 1 }).waitFor();
    expect(pathOf(page)).toBe('/admin/permissions/data');
    await page.getByRole('navigation', { name: 'Permissions by' }).getByRole('link', { name: 'Databases' }).click();
    await page.getByRole('heading', { name: 'Sample Database: access of each group' }).waitFor();
    expect(pathOf(page)).toBe(`/admin/permissions/data/database/${sample}`);
    // Administrators are shown, fixed.
    expect(await select('View data for Administrators on Sample Database').isDisabled()).toBe(true);
    expect(await select('View data for All Users on Sample Database').inputValue()).toBe('unrestricted');

    await select('View data for All Users on Sample Database').selectOption({ label: 'Blocked' });
    await select('View data for Analysts on Sample Database').selectOption({ label: 'Can view' });
    expect(await select('Create queries for Analysts on Sample Database').inputValue()).toBe('query-builder');
    await select('Download results for Analysts on Sample Database').selectOption({ label: 'No' });
    await bar().getByText('You have 2 unsaved changes.').waitFor();
    await reviewPage(page, 'admin-permissions-data');
    // Nothing is sent before Save.
    expect((await graph()).groups['1'][sample].data).toBe('unrestricted');

    await bar().getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The data permissions are saved.').waitFor();
    await bar().waitFor({ state: 'detached' });
    const saved = await graph();
    expect(saved.groups['1'][sample]).toEqual({ data: 'no', native: 'none', download: { schemas: 'none' } });
    expect(saved.groups[analysts][sample]).toMatchObject({ data: 'unrestricted', native: 'none', download: { schemas: 'none' } });
  });

  it('a member of the group, signed in in a fresh browser, may ask questions but not run SQL, and sees no admin console', async () => {
    const user = await app.open('/auth/login');
    await user.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(user, member.email, member.password);
    await user.getByRole('heading', { name: 'Welcome, Mia' }).waitFor();
    // The page's own session, from the page (same origin, as the app calls the API).
    const status = (body: unknown, path = '/api/dataset') =>
      user.evaluate(
        `fetch(${JSON.stringify(path)}, { method: 'POST', headers: { 'Content-Type': 'application/json' }, ` +
          `body: ${JSON.stringify(JSON.stringify(body))} }).then((r) => r.status)`,
      ) as Promise<number>;
    const mbql = { database: sample, type: 'query', query: { 'source-table': ordersTable, limit: 1 } };
    expect(await status(mbql)).toBeLessThan(300);
    expect(await status({ database: sample, type: 'native', native: { query: 'SELECT 1' } })).toBe(403);
    expect(await status({ query: JSON.stringify(mbql) }, '/api/dataset/csv')).toBe(403);

    await user.getByRole('button', { name: 'Account menu for Mia Member' }).click();
    await user.getByRole('menuitem', { name: 'Sign out' }).waitFor();
    expect(await user.getByRole('menuitem', { name: 'Admin settings' }).count()).toBe(0);
    await user.keyboard.press('Escape');
    await user.goto(`${app.base}/admin/permissions`);
    await user.getByRole('heading', { name: "You don't have permission to see this page" }).waitFor();
    await reviewPage(user, 'admin-permissions-as-member');

    // Someone only in All Users may not query the Sample Database at all.
    const res = await http().post('/api/dataset').set(auth(outsider.session)).send(mbql);
    expect(res.status).toBe(403);
  });

  it('a save on a stale revision is refused (409): the admin is told to reload, and the other change stays', async () => {
    await select('Download results for Analysts on Sample Database').selectOption({ label: '10 thousand rows' });
    await bar().getByText('You have 1 unsaved change.').waitFor();
    // Someone else saves meanwhile.
    const current = await graph();
    await http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({
        revision: current.revision,
        groups: { [analysts]: { [sample]: { data: 'unrestricted', native: 'write', download: { schemas: 'full' } } } },
      })
      .expect(200);

    await bar().getByRole('button', { name: 'Save changes' }).click();
    const alert = bar().getByRole('alert');
    await alert.getByText('Someone else changed these permissions').waitFor();
    await reviewPage(page, 'admin-permissions-conflict');
    expect((await graph()).groups[analysts][sample]).toMatchObject({ native: 'write', download: { schemas: 'full' } });

    await alert.getByRole('button', { name: 'Reload permissions' }).click();
    await bar().waitFor({ state: 'detached' });
    expect(await select('Create queries for Analysts on Sample Database').inputValue()).toBe('query-builder-and-native');
    expect(await select('Download results for Analysts on Sample Database').inputValue()).toBe('full');
  });

  it('the group view lists every database for one group', async () => {
    await page.getByRole('navigation', { name: 'Permissions by' }).getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('navigation', { name: 'Groups' }).getByRole('link', { name: 'Analysts' }).click();
    await page.getByRole('heading', { name: 'Analysts: access to each database' }).waitFor();
    expect(pathOf(page)).toBe(`/admin/permissions/data/group/${analysts}`);
    expect(await select('View data for Analysts on Sample Database').inputValue()).toBe('unrestricted');
  });

  it('gives a group access to Our analytics, and to a collection with its sub-collection', async () => {
    const finance = (await http().post('/api/collection').set(auth(admin)).send({ name: 'Finance' }).expect(200)).body.id;
    const budgets = (await http().post('/api/collection').set(auth(admin)).send({ name: 'Budgets', parent_id: finance }).expect(200)).body
      .id;
    const collectionGraph = () => get<{ groups: Record<string, Record<string, string>> }>('/api/collection/graph');
    const allUsersBefore = (await collectionGraph()).groups['1'];
    await page.getByRole('navigation', { name: 'Permission kinds' }).getByRole('link', { name: 'Collections' }).click();
    await page.getByText('Choose a collection to see who may view and curate it.').waitFor();
    const tree = page.getByRole('navigation', { name: 'Choose a collection' });
    await tree.getByRole('link', { name: 'Our analytics' }).click();
    await select('Access for Analysts to Our analytics').selectOption({ label: 'View' });

    await tree.getByRole('link', { name: 'Finance' }).click();
    await page.getByRole('checkbox', { name: 'Also change its 1 sub-collection' }).check();
    await select('Access for Analysts to Finance').selectOption({ label: 'Curate' });
    await bar().getByText('You have 3 unsaved changes.').waitFor();
    await reviewPage(page, 'admin-permissions-collections');
    await bar().getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('The collection permissions are saved.').waitFor();
    const saved = await collectionGraph();
    expect(saved.groups[analysts]).toMatchObject({ root: 'read', [finance]: 'write', [budgets]: 'write' });
    // Only what was changed is sent: All Users keep what their new collections inherited.
    expect(saved.groups['1']).toEqual(allUsersBefore);
  });
});
