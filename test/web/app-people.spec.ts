import type { Page } from 'playwright-core';
import { ADMIN, auth, makeUser, setupAdmin } from '../support/factories';
import { enableJwtSso, jwtSession } from '../support/jwt-sso';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { AppServer, fieldDescription, pathOf, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';
import { insertPeople } from './support/bulk';

jest.setTimeout(300_000);

interface UserRow {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  is_active: boolean;
  group_ids: number[];
  login_attributes: Record<string, unknown> | null;
}

/**
 * Admin > People as an admin uses it: the list searched and paged, a group created, a person added (their generated
 * password shown once, and copied), added to and removed from a group, edited (name, groups, attributes), given a new
 * password, deactivated and reactivated. One flow; each step checks what the API then holds.
 */
describeBrowser('the admin console: people and groups', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let groupId: number;
  let password: string;
  const get = async <T>(p: string): Promise<T> => (await app.t.http().get(p).set(auth(admin)).expect(200)).body as T;
  const userByEmail = async (email: string) =>
    (await get<{ data: UserRow[] }>(`/api/user?status=all&query=${encodeURIComponent(email)}`)).data.find((u) => u.email === email);
  const rows = () => page.getByRole('table', { name: 'People' }).locator('tbody tr');
  const login = (email: string, pw: string) => app.t.http().post('/api/session').send({ username: email, password: pw });
  const EMAIL = 'ann.analyst@example.com';

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    await insertPeople(app.t, 60);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists people a page at a time, with the count', async () => {
    page = await app.open('/admin/people');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'People', level: 1 }).waitFor();
    await page.getByText('61 people').waitFor();
    expect(await rows().count()).toBe(25);
    await reviewPage(page, 'admin-people');
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Page 3' }).click();
    await until(async () => (await rows().count()) === 11);
    expect(pathOf(page)).toBe('/admin/people?page=3');
    expect(await rows().last().textContent()).toContain('bulk-00060@example.com');
  });

  it('searches on the server as the admin types; the search is in the URL', async () => {
    await page.getByLabel('Search people').fill('bulk-00042');
    await page.getByText('1 person matching “bulk-00042”').waitFor();
    expect(pathOf(page)).toBe('/admin/people?q=bulk-00042');
    expect(await rows().count()).toBe(1);
    expect(await rows().first().textContent()).toContain('bulk-00042@example.com');
    await page.getByLabel('Search people').fill('');
    await page.getByText('61 people').waitFor();
  });

  it('creates a group; a taken name is refused at the name field', async () => {
    await page.getByRole('navigation', { name: 'People and groups' }).getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('heading', { name: 'Groups', level: 1 }).waitFor();
    await page.getByLabel('New group name').fill('Analysts');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('table', { name: 'Groups' }).getByRole('link', { name: 'Analysts' }).waitFor();
    const groups = await get<Array<{ id: number; name: string }>>('/api/permissions/group');
    groupId = groups.find((g) => g.name === 'Analysts')!.id;
    await page.getByLabel('New group name').fill('analysts');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByText('A group with that name already exists.').waitFor();
    expect(await fieldDescription(page.getByLabel('New group name'))).toBe('A group with that name already exists.');
    await reviewPage(page, 'admin-groups');
    expect((await get<unknown[]>('/api/permissions/group')).length).toBe(groups.length);

    // Renamed and back: a blank name is refused at the field, the new one is what the server holds.
    const rename = async (from: string, to: string) => {
      await page.getByRole('button', { name: `Actions for ${from}` }).click();
      await page.getByRole('menuitem', { name: 'Rename group' }).click();
      const dialog = page.getByRole('dialog', { name: `Rename ${from}` });
      await dialog.getByLabel('Group name').fill(to);
      await dialog.getByRole('button', { name: 'Rename' }).click();
      return dialog;
    };
    const blank = await rename('Analysts', '  ');
    await blank.getByText('Enter a name for the group.').waitFor();
    await blank.getByRole('button', { name: 'Cancel' }).click();
    await (await rename('Analysts', 'Data analysts')).waitFor({ state: 'detached' });
    await until(async () =>
      (await get<Array<{ id: number; name: string }>>('/api/permissions/group')).some(
        (g) => g.id === groupId && g.name === 'Data analysts',
      ),
    );
    await (await rename('Data analysts', 'Analysts')).waitFor({ state: 'detached' });
    await until(async () =>
      (await get<Array<{ id: number; name: string }>>('/api/permissions/group')).some((g) => g.id === groupId && g.name === 'Analysts'),
    );
  });

  it('adds someone: the generated password is shown once, copies, and signs them in', async () => {
    await page.getByRole('navigation', { name: 'People and groups' }).getByRole('link', { name: 'People' }).click();
    await page.getByRole('button', { name: 'Add someone' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add someone' });
    await dialog.getByLabel('First name').fill('Ann');
    await dialog.getByLabel('Last name').fill('Analyst');
    await dialog.getByLabel('Email address').fill('not an email');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.getByText('Enter a valid email address.').waitFor();
    await dialog.getByLabel('Email address').fill(EMAIL);
    await dialog.getByRole('textbox', { name: 'Groups' }).click();
    await page.getByRole('option', { name: 'Analysts' }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Add an attribute' }).click();
    await dialog.getByLabel('Attribute 1 name').fill('region');
    await dialog.getByLabel('Attribute 1 value').fill('EU');
    await reviewPage(page, 'admin-people-new');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();

    const shown = page.getByRole('dialog', { name: 'Ann Analyst has been added' });
    await shown.waitFor();
    password = await shown.getByLabel('Temporary password').inputValue();
    expect(password).toMatch(/^\S{14}$/);
    await shown.getByRole('button', { name: 'Copy password' }).click();
    await shown.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(password);
    await reviewPage(page, 'admin-people-password');
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    // Shown once: nothing on the page holds it any more.
    expect(await page.content()).not.toContain(password);

    const ann = (await userByEmail(EMAIL))!;
    expect(ann).toMatchObject({ first_name: 'Ann', last_name: 'Analyst', is_active: true, login_attributes: { region: 'EU' } });
    expect(ann.group_ids).toEqual(expect.arrayContaining([1, groupId]));
    expect((await login(EMAIL, password)).status).toBe(200);
  });

  it("a group's page adds and removes members (the person searched on the server)", async () => {
    const bea = await makeUser(app.t, admin, { first_name: 'Bea', last_name: 'Builder' });
    await page.goto(`${app.base}/admin/people/groups/${groupId}`);
    await page.getByRole('heading', { name: 'Analysts', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Members' }).getByRole('cell', { name: 'Ann Analyst', exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Add a member' }).fill('Bea');
    await page.getByRole('option', { name: `Bea Builder (${bea.email})` }).click();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('table', { name: 'Members' }).getByRole('cell', { name: 'Bea Builder', exact: true }).waitFor();
    const members = async () =>
      (await get<{ members: Array<{ email: string }> }>(`/api/permissions/group/${groupId}`)).members.map((m) => m.email);
    expect((await members()).sort()).toEqual([EMAIL, bea.email].sort());
    await reviewPage(page, 'admin-group');
    await page.getByRole('button', { name: 'Remove Bea Builder' }).click();
    await page
      .getByRole('table', { name: 'Members' })
      .getByRole('cell', { name: 'Bea Builder', exact: true })
      .waitFor({ state: 'detached' });
    expect(await members()).toEqual([EMAIL]);
  });

  it("edits someone's name, groups and attributes", async () => {
    await page.goto(`${app.base}/admin/people?q=ann`);
    await page.getByRole('button', { name: 'Actions for Ann Analyst' }).click();
    await page.getByRole('menuitem', { name: 'Edit user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Ann Analyst' });
    await dialog.getByLabel('Last name').fill('Archer');
    await dialog.getByLabel('Attribute 1 value').fill('US');
    await dialog.getByRole('button', { name: 'Add an attribute' }).click();
    await dialog.getByLabel('Attribute 2 name').fill('region');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByText('The attribute region is given twice.').waitFor();
    await dialog.getByRole('button', { name: 'Remove attribute region' }).last().click();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    const ann = (await userByEmail(EMAIL))!;
    expect(ann).toMatchObject({ last_name: 'Archer', login_attributes: { region: 'US' } });
    expect(ann.group_ids).toEqual(expect.arrayContaining([groupId]));
  });

  it("lists what a person's JWT sign-in brought beside the attributes set here, and saves a list of values", async () => {
    const secret = await enableJwtSso(app.t, admin);
    await jwtSession(app.t, secret, {
      email: 'sam.sso@example.com',
      first_name: 'Sam',
      last_name: 'Single',
      region: 'APAC',
      teams: ['a', 'b'],
    });
    await page.goto(`${app.base}/admin/people?q=sam`);
    await page.getByRole('button', { name: 'Actions for Sam Single' }).click();
    await page.getByRole('menuitem', { name: 'Edit user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Sam Single' });
    const fromSignIn = dialog.getByRole('list', { name: 'Attributes from sign-in and tenant' });
    await fromSignIn.getByText('region = APAC').waitFor();
    await fromSignIn.getByText('teams = ["a","b"]').waitFor();
    await dialog.getByRole('button', { name: 'Add an attribute' }).click();
    await dialog.getByLabel('Attribute 1 name').fill('region');
    await dialog.getByLabel('Attribute 1 value').fill('["EU", "US"');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByText('The value of region is not a list of texts or numbers', { exact: false }).waitFor();
    await dialog.getByLabel('Attribute 1 value').fill('["EU", "US"]');
    await reviewPage(page, 'admin-user-attributes');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    const sam = (await userByEmail('sam.sso@example.com'))! as UserRow & { jwt_attributes: Record<string, unknown> };
    expect(sam.login_attributes).toEqual({ region: ['EU', 'US'] });
    expect(sam.jwt_attributes).toEqual({ region: 'APAC', teams: ['a', 'b'] });
    // Opened again: the claim is shown as overridden by the value set here.
    await page.getByRole('button', { name: 'Actions for Sam Single' }).click();
    await page.getByRole('menuitem', { name: 'Edit user' }).click();
    await fromSignIn.getByText('from sign-in, overridden here').waitFor();
    expect(await dialog.getByLabel('Attribute 1 value').inputValue()).toBe('["EU","US"]');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('resets a password: a new one is shown once and the old one stops working', async () => {
    await page.goto(`${app.base}/admin/people?q=ann`);
    await page.getByRole('button', { name: 'Actions for Ann Archer' }).click();
    await page.getByRole('menuitem', { name: 'Reset password' }).click();
    const dialog = page.getByRole('dialog', { name: "Reset Ann Archer's password?" });
    await dialog.getByRole('button', { name: 'Reset password' }).click();
    const fresh = await dialog.getByLabel('Temporary password').inputValue();
    expect(fresh).not.toBe(password);
    await dialog.getByRole('button', { name: 'Done' }).click();
    expect((await login(EMAIL, password)).status).toBe(401);
    expect((await login(EMAIL, fresh)).status).toBe(200);
  });

  it('deactivates and reactivates someone', async () => {
    await page.getByRole('button', { name: 'Actions for Ann Archer' }).click();
    await page.getByRole('menuitem', { name: 'Deactivate user' }).click();
    await page.getByRole('dialog', { name: 'Deactivate Ann Archer?' }).getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('No one matches.').waitFor();
    expect((await userByEmail(EMAIL))!.is_active).toBe(false);
    // The choice lives in the URL: the radio shows it once the navigation has been drawn, not at the click.
    await page.getByRole('radio', { name: 'Deactivated people' }).click();
    await page.getByRole('table', { name: 'Deactivated people' }).waitFor();
    await page.getByRole('button', { name: 'Reactivate Ann Archer' }).click();
    await page.getByText('No one matches.').waitFor();
    await until(async () => (await userByEmail(EMAIL))!.is_active);
  });
});
