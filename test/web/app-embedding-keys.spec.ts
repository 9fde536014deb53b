import jwt from 'jsonwebtoken';
import type { Page } from 'playwright-core';
import { makeCard, nativeQuery } from '../support/card-factories';
import { e2eWarehouse } from '../support/e2e-warehouses';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { describeBrowser } from './support/browser';
import { AppServer, fieldDescription, signIn, startAppServer } from './support/app-server';

jest.setTimeout(300_000);

interface ListedKey {
  kid: string;
  name: string;
  masked_secret: string;
  revoked_at: string | null;
}

/**
 * Admin > Embedding > Static embedding > Signing keys, walked by an admin: a named key added (its secret shown once,
 * then masked), a taken kid refused at its field, the key rotated and revoked after a confirmation; each step checked
 * against what the server holds and against embeds signed with the key.
 */
describeBrowser('the admin console: embedding signing keys', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let cardId: number;
  const http = () => app.t.http();
  const listed = async (kid: string) =>
    ((await http().get('/api/embedding/keys').set(auth(admin)).expect(200)).body as ListedKey[]).find((k) => k.kid === kid);
  const embedToken = (secret: string, kid: string) =>
    jwt.sign({ resource: { question: cardId }, params: {} }, secret, { algorithm: 'HS256', keyid: kid, expiresIn: 600 });
  const embed = (secret: string, kid: string) => http().get(`/api/embed/card/${embedToken(secret, kid)}`);
  /** The secret the "Copy the signing secret" dialog shows, then closed with Done. */
  const shownSecret = async (): Promise<string> => {
    const dialog = page.getByRole('dialog', { name: 'Copy the signing secret' });
    const field = dialog.getByRole('textbox', { name: 'Signing secret' });
    await field.waitFor();
    const secret = await field.inputValue();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    return secret;
  };

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    const sqlite = await e2eWarehouse('sqlite', app.dataDir);
    const db = (
      await http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Shop', details: sqlite.details }).expect(200)
    ).body.id;
    cardId = (await makeCard(app.t, admin, nativeQuery(db, 'SELECT 1 AS n'), { name: 'Embedded revenue' })).id;
    await http().put('/api/setting/enable-embedding-static').set(auth(admin)).send({ value: true }).expect(204);
    await http().put(`/api/card/${cardId}`).set(auth(admin)).send({ enable_embedding: true }).expect(200);
    page = await app.open('/auth/login?redirect=%2Fadmin%2Fembedding%2Fstatic');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await app?.close();
  });

  let secret = '';

  it('adds a named key whose secret is shown once, then only masked, and signs embeds under its kid', async () => {
    await page.getByRole('heading', { name: 'Signing keys', level: 2 }).waitFor();
    await page.getByText('No signing keys yet.').waitFor();
    await page.getByRole('button', { name: 'Add signing key' }).click();
    const form = page.getByRole('form', { name: 'Add signing key' });
    await form.getByRole('button', { name: 'Add' }).click();
    await form.getByText('Give the key a name.').waitFor();
    await form.getByLabel('Key name').fill('Acme Corp');
    const kid = form.getByLabel('Key id (kid)');
    await kid.fill('acme corp');
    await form.getByRole('button', { name: 'Add' }).click();
    await until(async () => (await fieldDescription(kid)).includes('Use 1 to 64 letters'));
    await kid.fill('acme');
    await reviewPage(page, 'admin-embedding-keys-add');
    await form.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('button', { name: 'Copy Signing secret' }).waitFor();
    await reviewPage(page, 'admin-embedding-keys-shown');
    secret = await shownSecret();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);

    expect(await listed('acme')).toMatchObject({ name: 'Acme Corp', masked_secret: `**********${secret.slice(-2)}`, revoked_at: null });
    await embed(secret, 'acme').expect(200);
    const row = page.getByRole('table', { name: 'Signing keys' }).getByRole('row', { name: /Acme Corp/ });
    await row.getByRole('cell', { name: `**********${secret.slice(-2)}` }).waitFor();
    expect(await row.textContent()).not.toContain(secret);
    await reviewPage(page, 'admin-embedding-keys');
  });

  it('refuses a taken kid at its field, and adds nothing', async () => {
    await page.getByRole('button', { name: 'Add signing key' }).click();
    const form = page.getByRole('form', { name: 'Add signing key' });
    await form.getByLabel('Key name').fill('Another Acme');
    const kid = form.getByLabel('Key id (kid)');
    await kid.fill('acme');
    await form.getByRole('button', { name: 'Add' }).click();
    await form.getByText('A signing key with this kid already exists.').waitFor();
    expect(await fieldDescription(kid)).toContain('A signing key with this kid already exists.');
    await form.getByRole('button', { name: 'Cancel' }).click();
    expect((await listed('acme'))?.name).toBe('Acme Corp');
  });

  it('rotates the key after a warning: the old secret fails at once, the new one signs', async () => {
    await page.getByRole('button', { name: 'Rotate Acme Corp' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate this signing key?' });
    await dialog.getByText(/stop working at once/).waitFor();
    await embed(secret, 'acme').expect(200); // nothing changes before the confirmation
    await dialog.getByRole('button', { name: 'Rotate key' }).click();
    const rotated = await shownSecret();
    expect(rotated).toMatch(/^[0-9a-f]{64}$/);
    expect(rotated).not.toBe(secret);
    expect((await embed(secret, 'acme').expect(400)).text).toBe('Message seems corrupt or manipulated');
    await embed(rotated, 'acme').expect(200);
    expect((await listed('acme'))?.masked_secret).toBe(`**********${rotated.slice(-2)}`);
    secret = rotated;
  });

  it('revokes the key after a warning: its embeds fail and the row says so, with nothing left to do', async () => {
    await page.getByRole('button', { name: 'Revoke Acme Corp' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this signing key?' });
    await dialog.getByText(/for good/).waitFor();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('table', { name: 'Signing keys' }).getByRole('row', { name: /Acme Corp/ });
    await row.getByText('Revoked').waitFor();
    expect(await row.getByRole('button').count()).toBe(0);
    expect((await listed('acme'))?.revoked_at).toEqual(expect.any(String));
    expect((await embed(secret, 'acme').expect(400)).text).toBe('Message seems corrupt or manipulated');
  });
});
