import type { Page } from 'playwright-core';
import { makeCard, nativeQuery } from '../support/card-factories';
import { makeDashboard } from '../support/dashboard-factories';
import { e2eWarehouse } from '../support/e2e-warehouses';
import { ADMIN, auth, makeUser, setupAdmin } from '../support/factories';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { AppServer, pathOf, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';
import { insertCollections } from './support/bulk';

jest.setTimeout(300_000);

interface Row {
  id: number;
  name: string;
  collection_id: number | null;
  archived: boolean;
  location?: string;
  collection_position?: number | null;
}

/**
 * Home and collections as an admin uses them: the home page's sections, a collection and a dashboard created from
 * "New", a collection's items sorted, several moved at once and one trashed, a collection bookmarked, renamed, moved
 * and trashed, the trash restoring one item and deleting another for good; then the tree with 30,000 collections.
 * Each step checks what the API then holds.
 */
describeBrowser('home and collections', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let sales: number;
  let regional: number;
  let marketing: number;
  const ids: Record<string, number> = {};
  const http = () => app.t.http();
  const get = async <T>(p: string): Promise<T> => (await http().get(p).set(auth(admin)).expect(200)).body as T;
  const post = async <T>(p: string, body: object): Promise<T> => (await http().post(p).set(auth(admin)).send(body).expect(200)).body as T;
  const nav = () => page.getByRole('navigation', { name: 'Collections' });
  const items = () => page.getByRole('table', { name: 'Items' });
  const itemNames = async () => (await items().locator('tbody tr td:nth-child(3)').allTextContents()).map((s) => s.trim());

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    await makeUser(app.t, admin, { first_name: 'Olga', last_name: 'Other' });
    const sqlite = await e2eWarehouse('sqlite', app.dataDir);
    const db = (await post<{ id: number }>('/api/database', { engine: 'sqlite', name: 'Shop', details: sqlite.details })).id;
    sales = (await post<{ id: number }>('/api/collection', { name: 'Sales' })).id;
    regional = (await post<{ id: number }>('/api/collection', { name: 'Regional', parent_id: sales })).id;
    await post('/api/collection', { name: 'Europe', parent_id: regional });
    for (const name of ['Revenue', 'Orders'])
      ids[name] = (await makeCard(app.t, admin, nativeQuery(db, 'SELECT 1 AS n'), { name, collection_id: sales })).id;
    ids.Top = (
      await makeCard(app.t, admin, nativeQuery(db, 'SELECT 2 AS n'), {
        name: 'Top customers',
        collection_id: sales,
        collection_position: 1,
      })
    ).id;
    ids.Overview = (await makeDashboard(app.t, admin, { name: 'Overview', collection_id: sales })).id;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('home shows recent questions, bookmarks and collections', async () => {
    await http().post(`/api/card/${ids.Top}/query`).set(auth(admin)).send({}).expect(202);
    page = await app.open('/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Welcome, Ada', level: 1 }).waitFor();
    const section = (name: string) => page.getByRole('region', { name });
    await section('Recently viewed').getByRole('link', { name: 'Top customers' }).waitFor();
    await section('Bookmarks').getByText('Bookmark a question, a dashboard or a collection to find it here.').waitFor();
    await section('Collections').getByRole('link', { name: 'Sales' }).waitFor();
    await reviewPage(page, 'home');
  });

  it('"New" creates a collection, then a dashboard in it', async () => {
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Collection' }).click();
    const dialog = page.getByRole('dialog', { name: 'New collection' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Enter a name for the collection.').waitFor();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Marketing');
    await reviewPage(page, 'new-collection');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Marketing', level: 1 }).waitFor();
    const made = (await get<Row[]>('/api/collection')).find((c) => c.name === 'Marketing')!;
    marketing = made.id;
    expect(made.location).toBe('/');
    expect(pathOf(page)).toBe(`/collection/${marketing}-marketing`);

    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Dashboard' }).click();
    const dash = page.getByRole('dialog', { name: 'New dashboard' });
    await dash.getByText('Marketing').waitFor();
    await dash.getByRole('textbox', { name: 'Name' }).fill('Campaigns');
    await dash.getByRole('button', { name: 'Create' }).click();
    await until(() => /^\/dashboard\/\d+$/.test(pathOf(page)));
    const id = Number(pathOf(page).split('/')[2]);
    expect((await get<Row>(`/api/dashboard/${id}`)).collection_id).toBe(marketing);
  });

  it("a collection's items: pinned apart, sorted by column on the server", async () => {
    await nav().getByRole('link', { name: 'Sales' }).click();
    await page.getByRole('heading', { name: 'Sales', level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Pinned' }).getByRole('link', { name: 'Top customers' }).waitFor();
    await items().getByRole('link', { name: 'Revenue' }).waitFor();
    expect(await itemNames()).toEqual(['Orders', 'Overview', 'Regional', 'Revenue']);
    await reviewPage(page, 'collection');
    await items().getByRole('button', { name: 'Name' }).click();
    await until(async () => (await itemNames())[0] === 'Revenue');
    expect(await itemNames()).toEqual(['Revenue', 'Regional', 'Overview', 'Orders']);
    expect(await items().getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('descending');
    expect(pathOf(page)).toContain('sort=name&dir=desc');
    await items().getByRole('button', { name: 'Type' }).click();
    const byModel = await get<{ data: Row[] }>(
      `/api/collection/${sales}/items?pinned_state=is_not_pinned&sort_column=model&sort_direction=asc`,
    );
    expect(byModel.data.map((i) => i.name)).toEqual(['Overview', 'Orders', 'Revenue', 'Regional']);
    await until(async () => (await itemNames())[0] === 'Overview');
    expect(await itemNames()).toEqual(byModel.data.map((i) => i.name));
  });

  it('pins a question from its menu, drawn with a preview, and unpins it again', async () => {
    await page.getByRole('button', { name: 'Actions for Orders' }).click();
    await page.getByRole('menuitem', { name: 'Pin' }).click();
    const pinned = page.getByRole('article', { name: 'Orders' });
    await page.getByRole('region', { name: 'Pinned' }).getByRole('article', { name: 'Orders' }).waitFor();
    await items().getByRole('link', { name: 'Orders' }).waitFor({ state: 'detached' });
    expect((await get<Row>(`/api/card/${ids.Orders}`)).collection_position).not.toBeNull();
    // The question run as saved (SELECT 1 AS n), drawn small.
    const preview = pinned.getByRole('figure', { name: 'Preview of Orders' });
    await until(async () => /\b1\b/.test((await preview.textContent()) ?? ''));
    await reviewPage(page, 'collection-pinned');
    await pinned.getByRole('button', { name: 'Unpin Orders' }).click();
    await items().getByRole('link', { name: 'Orders' }).waitFor();
    expect((await get<Row>(`/api/card/${ids.Orders}`)).collection_position).toBeNull();
  });

  it('selects several items and moves them with the collection picker; trashes another', async () => {
    await page.getByRole('checkbox', { name: 'Select Revenue' }).check();
    await page.getByRole('checkbox', { name: 'Select Overview' }).check();
    const bar = page.getByRole('toolbar', { name: 'Selected items' });
    await bar.getByText('2 selected').waitFor();
    await bar.getByRole('button', { name: 'Move', exact: true }).click();
    const picker = page.getByRole('dialog', { name: 'Move 2 items' });
    await picker.getByRole('button', { name: 'Marketing' }).click();
    await picker.getByText('Chosen: Marketing').waitFor();
    await reviewPage(page, 'collection-picker');
    await picker.getByRole('button', { name: 'Move', exact: true }).click();
    await picker.waitFor({ state: 'detached' });
    await items().getByRole('link', { name: 'Revenue' }).waitFor({ state: 'detached' });
    expect((await get<Row>(`/api/card/${ids.Revenue}`)).collection_id).toBe(marketing);
    expect((await get<Row>(`/api/dashboard/${ids.Overview}`)).collection_id).toBe(marketing);

    await page.getByRole('button', { name: 'Actions for Orders' }).click();
    await page.getByRole('menuitem', { name: 'Move to trash' }).click();
    await items().getByRole('link', { name: 'Orders' }).waitFor({ state: 'detached' });
    expect((await get<Row>(`/api/card/${ids.Orders}`)).archived).toBe(true);
  });

  it('bookmarks a collection; home lists it', async () => {
    await page.getByRole('button', { name: 'Bookmark', exact: true }).click();
    await page.getByRole('button', { name: 'Remove bookmark' }).waitFor();
    expect((await get<Array<{ type: string; item_id: number }>>('/api/bookmark')).map((b) => [b.type, b.item_id])).toEqual([
      ['collection', sales],
    ]);
    await page.goto(`${app.base}/`);
    await page.getByRole('region', { name: 'Bookmarks' }).getByRole('link', { name: 'Sales' }).waitFor();
  });

  it('renames, moves and trashes a collection found in the tree, opened a level at a time', async () => {
    await nav().getByRole('button', { name: 'Expand Sales' }).click();
    await nav().getByRole('link', { name: 'Regional' }).click();
    await page.getByRole('heading', { name: 'Regional', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Sales' }).waitFor();
    await page.getByRole('button', { name: 'Collection actions' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename Regional' });
    await rename.getByRole('textbox', { name: 'Name' }).fill('Regions');
    await rename.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Regions', level: 1 }).waitFor();
    expect((await get<Row>(`/api/collection/${regional}`)).name).toBe('Regions');

    await page.getByRole('button', { name: 'Collection actions' }).click();
    await page.getByRole('menuitem', { name: 'Move', exact: true }).click();
    const picker = page.getByRole('dialog', { name: 'Move Regions' });
    await picker.getByRole('button', { name: 'Marketing' }).click();
    await picker.getByRole('button', { name: 'Move', exact: true }).click();
    await picker.waitFor({ state: 'detached' });
    expect((await get<Row>(`/api/collection/${regional}`)).location).toBe(`/${marketing}/`);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Marketing' }).waitFor();

    await page.getByRole('button', { name: 'Collection actions' }).click();
    await page.getByRole('menuitem', { name: 'Move to trash' }).click();
    await page.getByRole('dialog', { name: 'Move Regions to the trash?' }).getByRole('button', { name: 'Move to trash' }).click();
    await page.getByRole('heading', { name: 'Marketing', level: 1 }).waitFor();
    expect((await get<Row>(`/api/collection/${regional}`)).archived).toBe(true);
  });

  it('the trash restores an item and deletes another for good', async () => {
    await nav().getByRole('link', { name: 'Trash' }).click();
    await page.getByRole('heading', { name: 'Trash', level: 1 }).waitFor();
    const trash = page.getByRole('table', { name: 'Trashed items' });
    await trash.getByRole('cell', { name: 'Orders', exact: true }).waitFor();
    await trash.getByRole('cell', { name: 'Regions', exact: true }).first().waitFor();
    await reviewPage(page, 'trash');
    await page.getByRole('button', { name: 'Restore Orders' }).click();
    await trash.getByRole('cell', { name: 'Orders', exact: true }).waitFor({ state: 'detached' });
    expect((await get<Row>(`/api/card/${ids.Orders}`)).archived).toBe(false);
    await page.getByRole('button', { name: 'Delete permanently Regions' }).click();
    await page.getByRole('dialog', { name: 'Delete Regions permanently?' }).getByRole('button', { name: 'Delete permanently' }).click();
    await page.getByText('The trash is empty.').waitFor();
    await http().get(`/api/collection/${regional}`).set(auth(admin)).expect(404);
  });

  it("an admin sees other people's personal collections", async () => {
    await nav().getByRole('button', { name: "Other users' personal collections" }).click();
    await nav().getByRole('link', { name: "Olga Other's Personal Collection" }).click();
    await page.getByRole('heading', { name: "Olga Other's Personal Collection", level: 1 }).waitFor();
    await nav().getByRole('link', { name: 'Your personal collection' }).click();
    await page.getByRole('heading', { name: 'Your personal collection', level: 1 }).waitFor();
  });

  it('stays quick with 30,000 collections: the tree draws a level, and a page of it, at a time', async () => {
    await insertCollections(app.t, 300, 100);
    await page.goto(`${app.base}/collection/root`);
    const started = Date.now();
    await nav().getByRole('link', { name: 'Bulk 0001' }).waitFor();
    const shown = Date.now() - started;
    expect(
      await nav()
        .getByRole('link', { name: /^Bulk / })
        .count(),
    ).toBe(100);
    await nav().getByRole('button', { name: 'Show 100 more' }).click();
    await nav().getByRole('link', { name: 'Bulk 0200' }).waitFor();
    await nav().getByRole('button', { name: 'Expand Bulk 0002' }).click();
    await nav().getByRole('link', { name: 'Bulk 0002.100' }).waitFor();
    expect(
      await nav()
        .getByRole('link', { name: /^Bulk / })
        .count(),
    ).toBe(300);
    await nav().getByRole('link', { name: 'Bulk 0002.042' }).click();
    await page.getByRole('heading', { name: 'Bulk 0002.042', level: 1 }).waitFor();
    expect(shown).toBeLessThan(10_000);
  });
});
