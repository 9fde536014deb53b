import { randomBytes } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { DataSource } from 'typeorm';
import { EmbeddingKey } from '../../src/schema/embedding-key.entity';
import { makeCard, tableQuery } from '../support/card-factories';
import { dashboardWith } from '../support/dashboard-factories';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { embeddable, expectEmbed400, SECRET, setEmbedding, sign } from './embed-helpers';

jest.setTimeout(180_000);

const jwt = new JwtService();
const CORRUPT = 'Message seems corrupt or manipulated';
const KID_MESSAGE = 'value must be 1 to 64 letters, digits, `_`, `.` or `-`.';
const SECRET_MESSAGE = 'value must be between 64 and 512 hexadecimal characters.';

/** Named signing keys (/api/embedding/keys) over HTTP, and embed tokens that name them in their `kid` header. */
describe('embedding signing keys', () => {
  let s: SampleApp;
  let db: DataSource;
  let card: number;
  let dash: number;
  let dashcard: number;
  const http = () => s.t.http();
  const admin = () => auth(s.admin);
  const keys = () => http().get('/api/embedding/keys').set(admin()).expect(200);
  const create = async (body: object) => (await http().post('/api/embedding/keys').set(admin()).send(body).expect(200)).body;
  const storedSecret = async (kid: string) =>
    (await db.manager.createQueryBuilder(EmbeddingKey, 'k').addSelect('k.secret').where('k.kid = :kid', { kid }).getOneOrFail()).secret;

  /** A token as a host signs it with a named key: HS256 with the secret string, the key's id in the header. */
  const signed = (claims: object, secret: string, kid?: unknown) =>
    jwt.sign(claims, { secret, algorithm: 'HS256', header: { alg: 'HS256', ...(kid === undefined ? {} : { kid }) } as never });
  const cardClaims = () => ({ resource: { question: card }, params: {} });
  const dashClaims = () => ({ resource: { dashboard: dash }, params: {} });

  beforeAll(async () => {
    s = await startSampleApp({ ENCRYPTION_KEY: `test-key-${randomBytes(12).toString('hex')}` });
    db = s.t.app.get(DataSource);
    await setEmbedding(s.t, s.admin);
    card = (await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id, { aggregation: [['count']] }))).id;
    await embeddable(s.t, s.admin, 'card', card, {});
    const d = await dashboardWith(s.t, s.admin, [card]);
    dash = d.id;
    dashcard = d.dashcards[0].id;
    await embeddable(s.t, s.admin, 'dashboard', dash, {});
  });
  afterAll(() => s.t.close());

  it('creates keys: a generated 256-bit secret shown once, a given one kept, listings masked, secrets sealed at rest', async () => {
    const made = await create({ kid: 'acme', name: 'Acme Corp' });
    expect(made).toEqual({
      id: expect.any(Number),
      kid: 'acme',
      name: 'Acme Corp',
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      masked_secret: `**********${made.secret.slice(-2)}`,
      created_at: expect.any(String),
      revoked_at: null,
    });
    const given = 'AbCd'.repeat(20);
    expect((await create({ kid: 'globex.eu_1', name: 'Globex', secret: given })).secret).toBe(given);
    const listed = (await keys()).body as Array<Record<string, unknown>>;
    const mine = listed.filter((k) => ['acme', 'globex.eu_1'].includes(k.kid as string));
    expect(mine.map((k) => [k.kid, k.masked_secret, 'secret' in k])).toEqual([
      ['acme', `**********${made.secret.slice(-2)}`, false],
      ['globex.eu_1', '**********Cd', false],
    ]);
    expect(JSON.stringify(listed)).not.toContain(made.secret);
    // ENCRYPTION_KEY is set: the app DB never holds the secret itself.
    expect(await storedSecret('acme')).not.toContain(made.secret);
    expect(await storedSecret('globex.eu_1')).not.toContain(given);
  });

  it('validates kid, name and secret with the API error shape, and refuses a taken kid', async () => {
    const bad = async (body: object, field: string, message: string) => {
      const res = await http().post('/api/embedding/keys').set(admin()).send(body).expect(400);
      expect(res.body.errors).toEqual({ [field]: message });
    };
    await bad({ name: 'x' }, 'kid', KID_MESSAGE);
    await bad({ kid: 'has space', name: 'x' }, 'kid', KID_MESSAGE);
    await bad({ kid: 'a/b', name: 'x' }, 'kid', KID_MESSAGE);
    await bad({ kid: 'k'.repeat(65), name: 'x' }, 'kid', KID_MESSAGE);
    await bad({ kid: 7, name: 'x' }, 'kid', KID_MESSAGE);
    await bad({ kid: 'ok', name: '  ' }, 'name', 'value must be a non-blank string.');
    await bad({ kid: 'ok', name: 'n'.repeat(255) }, 'name', 'value must be a string of at most 254 characters.');
    await bad({ kid: 'ok', name: 'x', secret: 'ab'.repeat(31) }, 'secret', SECRET_MESSAGE);
    await bad({ kid: 'ok', name: 'x', secret: 'zz'.repeat(32) }, 'secret', SECRET_MESSAGE);
    await bad({ kid: 'ok', name: 'x', secret: 'ab'.repeat(257) }, 'secret', SECRET_MESSAGE);
    await create({ kid: 'taken', name: 'First' });
    const dup = await http().post('/api/embedding/keys').set(admin()).send({ kid: 'taken', name: 'Second' }).expect(400);
    expect(dup.body).toMatchObject({ errors: { kid: 'A signing key with this kid already exists.' } });
    expect(((await keys()).body as Array<{ kid: string }>).filter((k) => k.kid === 'ok' || k.kid === 'taken')).toHaveLength(1);
  });

  it('is for admins only', async () => {
    const user = auth(s.user.session);
    await http().get('/api/embedding/keys').set(user).expect(403);
    await http().post('/api/embedding/keys').set(user).send({ kid: 'user', name: 'x' }).expect(403);
    await create({ kid: 'guarded', name: 'Guarded' });
    await http().post('/api/embedding/keys/guarded/rotate').set(user).expect(403);
    await http().delete('/api/embedding/keys/guarded').set(user).expect(403);
    await http().get('/api/embedding/keys').expect(401);
    // Nothing changed: the key still verifies the tokens it signed.
    const { secret } = await create({ kid: 'guarded-2', name: 'x' });
    await http()
      .get(`/api/embed/card/${signed(cardClaims(), secret, 'guarded-2')}`)
      .expect(200);
    expect(((await keys()).body as Array<{ kid: string; revoked_at: unknown }>).find((k) => k.kid === 'guarded')?.revoked_at).toBeNull();
  });

  it('serves card and dashboard embeds (and their queries, exports and the preview) for a token signed with a named key', async () => {
    const { secret } = await create({ kid: 'cust-a', name: 'Customer A' });
    const c = signed(cardClaims(), secret, 'cust-a');
    expect((await http().get(`/api/embed/card/${c}`).expect(200)).body).toMatchObject({ id: card });
    expect((await http().get(`/api/embed/card/${c}/query`).expect(202)).body).toMatchObject({
      status: 'completed',
      data: { rows: [[200]] },
    });
    expect((await http().get(`/api/embed/card/${c}/query/csv`).expect(200)).text).toContain('200');
    const d = signed(dashClaims(), secret, 'cust-a');
    expect((await http().get(`/api/embed/dashboard/${d}`).expect(200)).body).toMatchObject({ id: dash });
    const run = await http().get(`/api/embed/dashboard/${d}/dashcard/${dashcard}/card/${card}`).expect(202);
    expect(run.body).toMatchObject({ data: { rows: [[200]] } });
    const preview = signed({ ...cardClaims(), _embedding_params: {} }, secret, 'cust-a');
    await http().get(`/api/preview-embed/card/${preview}`).set(admin()).expect(200);
  });

  it("refuses a token naming one customer's kid but signed with another's secret or the default key, or an unknown kid", async () => {
    const a = await create({ kid: 'tenant-a', name: 'A' });
    const b = await create({ kid: 'tenant-b', name: 'B' });
    expectEmbed400(await http().get(`/api/embed/card/${signed(cardClaims(), b.secret, 'tenant-a')}`), CORRUPT);
    expectEmbed400(await http().get(`/api/embed/dashboard/${signed(dashClaims(), a.secret, 'tenant-b')}`), CORRUPT);
    expectEmbed400(await http().get(`/api/embed/card/${signed(cardClaims(), SECRET, 'tenant-a')}`), CORRUPT);
    expectEmbed400(await http().get(`/api/embed/card/${signed(cardClaims(), a.secret, 'no-such-kid')}`), CORRUPT);
    expectEmbed400(await http().get(`/api/embed/card/${signed(cardClaims(), a.secret, 42)}`), CORRUPT);
    // A named key's secret without its kid is checked against the default key, and fails there.
    expectEmbed400(await http().get(`/api/embed/card/${signed(cardClaims(), a.secret)}`), CORRUPT);
  });

  it("rotating a key fails its old tokens at once and leaves every other key's tokens working", async () => {
    const a = await create({ kid: 'rot-a', name: 'A' });
    const b = await create({ kid: 'rot-b', name: 'B' });
    const oldToken = signed(cardClaims(), a.secret, 'rot-a');
    await http().get(`/api/embed/card/${oldToken}`).expect(200);
    const rotated = (await http().post('/api/embedding/keys/rot-a/rotate').set(admin()).expect(200)).body;
    expect(rotated).toMatchObject({ kid: 'rot-a', name: 'A', secret: expect.stringMatching(/^[0-9a-f]{64}$/), revoked_at: null });
    expect(rotated.secret).not.toBe(a.secret);
    expect(rotated.masked_secret).toBe(`**********${rotated.secret.slice(-2)}`);
    expectEmbed400(await http().get(`/api/embed/card/${oldToken}`), CORRUPT);
    await http()
      .get(`/api/embed/card/${signed(cardClaims(), rotated.secret, 'rot-a')}`)
      .expect(200);
    await http()
      .get(`/api/embed/card/${signed(cardClaims(), b.secret, 'rot-b')}`)
      .expect(200);
    await http().post('/api/embedding/keys/nobody/rotate').set(admin()).expect(404);
  });

  it('revoking a key fails its tokens from then on, for good, and touches neither the others nor the default key', async () => {
    const a = await create({ kid: 'rev-a', name: 'A' });
    const b = await create({ kid: 'rev-b', name: 'B' });
    const token = signed(dashClaims(), a.secret, 'rev-a');
    await http().get(`/api/embed/dashboard/${token}`).expect(200);
    await http().delete('/api/embedding/keys/rev-a').set(admin()).expect(204);
    expectEmbed400(await http().get(`/api/embed/dashboard/${token}`), CORRUPT);
    expectEmbed400(await http().get(`/api/embed/card/${signed(cardClaims(), a.secret, 'rev-a')}/query`), CORRUPT);
    await http()
      .get(`/api/embed/dashboard/${signed(dashClaims(), b.secret, 'rev-b')}`)
      .expect(200);
    await http()
      .get(`/api/embed/dashboard/${sign(dashClaims())}`)
      .expect(200);
    const listed = ((await keys()).body as Array<{ kid: string; revoked_at: string | null }>).find((k) => k.kid === 'rev-a');
    expect(listed?.revoked_at).toEqual(expect.any(String));
    // Revoked stays revoked: no rotation back to life, no new key under its kid, a second revocation changes nothing.
    expect((await http().post('/api/embedding/keys/rev-a/rotate').set(admin()).expect(400)).body).toMatchObject({
      message: 'This signing key has been revoked.',
    });
    await http().post('/api/embedding/keys').set(admin()).send({ kid: 'rev-a', name: 'Again' }).expect(400);
    await http().delete('/api/embedding/keys/rev-a').set(admin()).expect(204);
    expect(((await keys()).body as Array<{ kid: string; revoked_at: string | null }>).find((k) => k.kid === 'rev-a')?.revoked_at).toBe(
      listed?.revoked_at,
    );
    await http().delete('/api/embedding/keys/nobody').set(admin()).expect(404);
  });

  it('a token without kid uses embedding-secret-key as before, and a named key works while that key is unset', async () => {
    await http()
      .get(`/api/embed/card/${sign(cardClaims())}`)
      .expect(200);
    const { secret } = await create({ kid: 'solo', name: 'Solo' });
    await s.t.http().put('/api/setting/embedding-secret-key').set(admin()).send({ value: null }).expect(204);
    try {
      expectEmbed400(await http().get(`/api/embed/card/${sign(cardClaims())}`), 'The embedding secret key has not been set.');
      await http()
        .get(`/api/embed/card/${signed(cardClaims(), secret, 'solo')}`)
        .expect(200);
    } finally {
      await setEmbedding(s.t, s.admin);
    }
  });
});
