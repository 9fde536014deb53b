import type { Page } from 'playwright-core';
import { AppLogger } from '../../src/common/logging/app-logger';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { reviewPage } from './support/a11y';
import { describeBrowser } from './support/browser';
import { AppServer, fieldDescription, pathOf, signIn, startAppServer } from './support/app-server';

jest.setTimeout(300_000);

/**
 * Admin > API keys (create for a group, shown once, used in X-Api-Key; edited, regenerated, deleted) and Admin > Tools
 * (the server's logs by level, refreshed as they come; diagnostic info and connection pools), walked by an admin.
 */
describeBrowser('the admin console: API keys and tools', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  const http = () => app.t.http();
  const asKey = (key: string) => http().get('/api/user/current').set('X-Api-Key', key);
  /** The key the "Copy your API key" dialog shows, then closed with Done. */
  const shownKey = async (): Promise<string> => {
    const dialog = page.getByRole('dialog', { name: 'Copy your API key' });
    const field = dialog.getByRole('textbox', { name: 'API key' });
    await field.waitFor();
    const key = await field.inputValue();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    return key;
  };

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    await http().post('/api/permissions/group').set(auth(admin)).send({ name: 'Analysts' }).expect(200);
    page = await app.open('/auth/login?redirect=%2Fadmin%2Fsettings%2Fauthentication%2Fapi-keys');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await app?.close();
  });

  let key = '';

  it('creates a key for a group, shown once with a copy button, which then calls the API as that group', async () => {
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    expect(pathOf(page)).toBe('/admin/settings/authentication/api-keys');
    await page.getByText('No API keys yet.').waitFor();
    await page.getByRole('button', { name: 'Create API key' }).click();
    const form = page.getByRole('form', { name: 'Create API key' });
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByText('Give the key a name.').waitFor();
    await form.getByLabel('Key name').fill('Nightly export');
    await form.getByRole('textbox', { name: 'Group' }).click();
    await page.getByRole('option', { name: 'Analysts' }).click();
    await reviewPage(page, 'admin-api-keys-create');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('button', { name: 'Copy API key' }).waitFor();
    await reviewPage(page, 'admin-api-keys-shown');
    key = await shownKey();
    expect(key).toMatch(/^mb_/);

    const me = (await asKey(key).expect(200)).body;
    expect(me).toMatchObject({ first_name: 'Nightly export', is_superuser: false });
    const row = page.getByRole('row', { name: /Nightly export/ });
    await row.getByRole('cell', { name: 'Analysts' }).waitFor();
    expect(await row.textContent()).not.toContain(key);
    await reviewPage(page, 'admin-api-keys');
  });

  it("a taken name is refused at the name field; a key's name and group are edited", async () => {
    await page.getByRole('button', { name: 'Create API key' }).click();
    const form = page.getByRole('form', { name: 'Create API key' });
    const name = form.getByLabel('Key name');
    await name.fill('Nightly export');
    await form.getByRole('textbox', { name: 'Group' }).click();
    await page.getByRole('option', { name: 'Analysts' }).click();
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByText(/already/).waitFor();
    expect(await fieldDescription(name)).toMatch(/already/);
    await form.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Edit Nightly export' }).click();
    const edit = page.getByRole('form', { name: 'Edit API key' });
    await edit.getByLabel('Key name').fill('Weekly export');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('row', { name: /Weekly export/ }).waitFor();
    const keys = (await http().get('/api/api-key').set(auth(admin)).expect(200)).body;
    expect(keys).toEqual([expect.objectContaining({ name: 'Weekly export', group: expect.objectContaining({ name: 'Analysts' }) })]);
  });

  it('regenerates after a confirmation (the old key stops working) and deletes after another', async () => {
    await page.getByRole('button', { name: 'Regenerate Weekly export' }).click();
    const confirm = page.getByRole('dialog', { name: 'Regenerate this API key?' });
    await confirm.getByText(/stops working at once/).waitFor();
    await confirm.getByRole('button', { name: 'Regenerate' }).click();
    const fresh = await shownKey();
    expect(fresh).not.toBe(key);
    await asKey(key).expect(401);
    await asKey(fresh).expect(200);

    await page.getByRole('button', { name: 'Delete Weekly export' }).click();
    const del = page.getByRole('dialog', { name: 'Delete this API key?' });
    await reviewPage(page, 'admin-api-keys-delete');
    await del.getByRole('button', { name: 'Delete API key' }).click();
    await page.getByText('No API keys yet.').waitFor();
    expect((await http().get('/api/api-key').set(auth(admin)).expect(200)).body).toEqual([]);
    await asKey(fresh).expect(401);
  });

  it('logs: the lines the server wrote, by level, and new ones as they come', async () => {
    const logger = app.t.app.get(AppLogger);
    logger.warning('disk almost full (browser test)');
    logger.error('export failed (browser test)');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Tools' }).click();
    await page.getByRole('heading', { name: 'Logs', level: 1 }).waitFor();
    expect(pathOf(page)).toBe('/admin/tools/logs');
    const lines = page.getByRole('list', { name: 'Log lines' });
    await lines.getByText(/WARN .* disk almost full \(browser test\)/).waitFor();
    await lines.getByText(/ERROR .* export failed \(browser test\)/).waitFor();
    await reviewPage(page, 'admin-tools-logs');

    await page.getByRole('textbox', { name: 'Level' }).click();
    await page.getByRole('option', { name: 'Errors', exact: true }).click();
    await lines.getByText(/disk almost full/).waitFor({ state: 'detached' });
    await lines.getByText(/export failed \(browser test\)/).waitFor();
    expect(await lines.getByText(/^\S+ INFO/).count()).toBe(0);
    // Written after the page loaded: auto-refresh brings it.
    logger.error('second failure (browser test)');
    await lines.getByText(/second failure \(browser test\)/).waitFor({ timeout: 20_000 });
    const api = (await http().get('/api/util/logs').set(auth(admin)).expect(200)).body as Array<{ level: string; msg: string }>;
    expect(api.filter((l) => l.msg.endsWith('(browser test)')).map((l) => l.level)).toEqual(['ERROR', 'ERROR', 'WARN']);
  });

  it('diagnostic info: the connection pools the server reports, and the bug report details to copy', async () => {
    await page.getByRole('navigation', { name: 'Tools' }).getByRole('link', { name: 'Diagnostic info' }).click();
    await page.getByRole('heading', { name: 'Diagnostic info', level: 1 }).waitFor();
    const pools = (await http().get('/api/util/diagnostic_info/connection_pool_info').set(auth(admin)).expect(200)).body[
      'connection-pools'
    ];
    for (const name of Object.keys(pools)) await page.getByRole('row', { name: new RegExp(`^${name} `) }).waitFor();
    expect(Object.keys(pools)).toContain('app-db');
    const details = page.getByLabel('Diagnostic info', { exact: true });
    await details.getByText(/"metabase-info"/).waitFor();
    await page.getByRole('button', { name: 'Copy diagnostic info' }).waitFor();
    await reviewPage(page, 'admin-tools-help');
  });
});
