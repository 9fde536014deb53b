import jwt from 'jsonwebtoken';
import type { Page } from 'playwright-core';
import { makeCard, nativeQuery } from '../support/card-factories';
import { e2eWarehouse } from '../support/e2e-warehouses';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { describeBrowser } from './support/browser';
import { AppServer, fieldDescription, pathOf, signIn, startAppServer } from './support/app-server';

jest.setTimeout(300_000);

const OLD_KEY = 'ab'.repeat(32);

/**
 * Admin > Embedding, walked by an admin: modular embedding's origins (checked as typed, `*` warned about), static
 * embedding and its key (regenerated after a confirmation: embeds signed with the old key stop working), and the
 * SameSite setting with the spec's warnings and the server's refusal.
 */
describeBrowser('the admin console: embedding', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let cardId: number;
  const http = () => app.t.http();
  const setting = async (key: string) => (await http().get(`/api/setting/${key}`).set(auth(admin)).expect(200)).body;
  const embedToken = (key: string) => jwt.sign({ resource: { question: cardId }, params: {} }, key, { algorithm: 'HS256', expiresIn: 600 });

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    const sqlite = await e2eWarehouse('sqlite', app.dataDir);
    const db = (
      await http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Shop', details: sqlite.details }).expect(200)
    ).body.id;
    cardId = (await makeCard(app.t, admin, nativeQuery(db, 'SELECT 1 AS n'), { name: 'Embedded revenue' })).id;
    page = await app.open('/auth/login?redirect=%2Fadmin%2Fembedding');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('modular embedding: an origin pattern refused as it is typed, * warned about, the origins saved', async () => {
    await page.getByRole('heading', { name: 'Modular embedding', level: 1 }).waitFor();
    expect(pathOf(page)).toBe('/admin/embedding/modular');
    await page.getByRole('switch', { name: 'Enable modular embedding' }).check();
    const origins = page.getByLabel('Authorized origins');
    await origins.fill('https://app.example.com app.example.com/path');
    const why = 'value must be a space-separated list of origins; "app.example.com/path" is not one.';
    await page.getByText(why).waitFor();
    expect(await fieldDescription(origins)).toContain(why);
    await reviewPage(page, 'admin-embedding-modular-error');
    await origins.fill('https://app.example.com *');
    await until(async () => !(await fieldDescription(origins)).includes('is not one'));
    await page.getByText('* allows every website').waitFor();
    await page.getByText(/header credentials .* never with the visitor's cookie/).waitFor();
    await reviewPage(page, 'admin-embedding-modular');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').first().waitFor();
    expect(await setting('enable-embedding-sdk')).toBe(true);
    expect(await setting('embedding-app-origins-sdk')).toBe('https://app.example.com *');
  });

  it('static embedding: turned on, the embedded question listed, the key regenerated after a warning', async () => {
    await page.getByRole('navigation', { name: 'Embedding' }).getByRole('link', { name: 'Static embedding' }).click();
    await page.getByRole('heading', { name: 'Static embedding', level: 1 }).waitFor();
    await page.getByRole('switch', { name: 'Enable static embedding' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('No question has embedding turned on.').waitFor();
    expect(await setting('enable-embedding-static')).toBe(true);
    expect(await setting('embedding-secret-key')).toMatch(/^\*{10}[0-9a-f]{2}$/); // made when first turned on

    // The key a host application signs with today, and an embed signed with it.
    await http().put('/api/setting/embedding-secret-key').set(auth(admin)).send({ value: OLD_KEY }).expect(204);
    await http().put(`/api/card/${cardId}`).set(auth(admin)).send({ enable_embedding: true }).expect(200);
    const oldEmbed = embedToken(OLD_KEY);
    await http().get(`/api/embed/card/${oldEmbed}`).expect(200);

    await page.reload();
    await page.getByRole('table', { name: 'Embedded questions' }).getByRole('link', { name: 'Embedded revenue' }).waitFor();
    const current = page.getByLabel('Current embedding secret key');
    await until(async () => (await current.inputValue()) === `**********${OLD_KEY.slice(-2)}`);
    await reviewPage(page, 'admin-embedding-static');

    await page.getByRole('button', { name: 'Regenerate key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Regenerate the embedding key?' });
    await dialog.getByText(/Every signed embed stops working/).waitFor();
    await reviewPage(page, 'admin-embedding-regenerate');
    expect(await setting('embedding-secret-key')).toBe(`**********${OLD_KEY.slice(-2)}`); // nothing changes before the confirmation
    await dialog.getByRole('button', { name: 'Regenerate key' }).click();
    const fresh = page.getByLabel('New embedding secret key');
    await fresh.waitFor();
    expect(await fresh.getAttribute('type')).toBe('password'); // masked until revealed
    await page.getByRole('button', { name: 'Show the new key' }).click();
    expect(await fresh.getAttribute('type')).toBe('text');
    const newKey = await fresh.inputValue();
    expect(newKey).toMatch(/^[0-9a-f]{64}$/);
    expect(await setting('embedding-secret-key')).toBe(`**********${newKey.slice(-2)}`);

    const refused = await http().get(`/api/embed/card/${oldEmbed}`).expect(400);
    expect(refused.text).toBe('Message seems corrupt or manipulated');
    await http()
      .get(`/api/embed/card/${embedToken(newKey)}`)
      .expect(200);
  });

  it('security: SameSite None and Strict warned about; None refused at the field without an https site URL', async () => {
    await page.getByRole('navigation', { name: 'Embedding' }).getByRole('link', { name: 'Security' }).click();
    await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
    expect(await page.getByRole('radio', { name: 'Lax (default)' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'None' }).check();
    await page.getByText('None needs HTTPS and does not work in Safari').waitFor();
    await page.getByText(/Safari and every browser on iOS block such cookies/).waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    const why = 'value `none` needs an https:// site URL (`site-url`): the cookie is then Secure.';
    await page.getByText(why).waitFor();
    const group = page.getByRole('radiogroup', { name: 'SameSite cookie setting' });
    expect(await fieldDescription(group)).toContain(why);
    await reviewPage(page, 'admin-embedding-security-refused');
    expect(await setting('session-cookie-samesite')).toBe('lax');

    await page.getByRole('radio', { name: 'Strict (not recommended)' }).check();
    await page.getByText('Strict is not recommended').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').first().waitFor();
    expect(await setting('session-cookie-samesite')).toBe('strict');
  });

  it('interactive embedding: its own origins, where a bare * is said to count for nothing', async () => {
    await page.getByRole('navigation', { name: 'Embedding' }).getByRole('link', { name: 'Interactive embedding' }).click();
    await page.getByRole('heading', { name: 'Interactive embedding', level: 1 }).waitFor();
    await page.getByRole('switch', { name: 'Enable interactive embedding' }).check();
    await page.getByLabel('Authorized origins').fill('*');
    await page.getByText(/A bare \* is never trusted with the visitor's session here/).waitFor();
    await page.getByLabel('Authorized origins').fill('https://portal.example.com');
    await reviewPage(page, 'admin-embedding-interactive');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').first().waitFor();
    expect(await setting('enable-embedding-interactive')).toBe(true);
    expect(await setting('embedding-app-origins-interactive')).toBe('https://portal.example.com');
  });
});
