import { randomBytes } from 'node:crypto';
import { NewUser, UsersService } from '../../src/modules/users/users.service';
import { TestApp } from './test-app';

export const ADMIN = { email: 'admin@example.com', password: 'Tr0ub4dor&3-horse', first_name: 'Ada', last_name: 'Admin' };

/** Runs setup and answers the admin's session key. */
export async function setupAdmin(t: TestApp, user = ADMIN): Promise<string> {
  const props = await t.http().get('/api/session/properties').expect(200);
  const res = await t
    .http()
    .post('/api/setup')
    .send({ token: props.body['setup-token'], user, prefs: { site_name: 'Test Co' } });
  if (res.status !== 200) throw new Error(`setup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

export const auth = (key: string) => ({ 'X-Metabase-Session': key });

export interface MadeUser {
  id: number;
  email: string;
  password: string;
  session: string;
}

/** A new non-admin user (created by the admin), logged in. */
export async function makeUser(t: TestApp, adminKey: string, extra: Record<string, unknown> = {}): Promise<MadeUser> {
  const email = `user-${randomBytes(4).toString('hex')}@example.com`;
  const password = `Pw-${randomBytes(6).toString('hex')}-9`;
  const created = await t
    .http()
    .post('/api/user')
    .set(auth(adminKey))
    .send({ email, password, first_name: 'Uma', last_name: 'User', ...extra });
  if (created.status !== 200) throw new Error(`user create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const login = await t.http().post('/api/session').send({ username: email, password }).expect(200);
  return { id: created.body.id, email, password, session: login.body.id };
}

/** A non-admin user made through the service layer (no admin session needed), logged in. */
export async function makeUserDirect(t: TestApp, extra: Partial<NewUser> = {}): Promise<MadeUser> {
  const email = `direct-${randomBytes(4).toString('hex')}@example.com`;
  const password = `Pw-${randomBytes(6).toString('hex')}-9`;
  const user = await t.app.get(UsersService).create({ email, password, first_name: 'Dee', last_name: 'Rect', ...extra });
  const login = await t.http().post('/api/session').send({ username: email, password }).expect(200);
  return { id: user.id, email, password, session: login.body.id };
}
