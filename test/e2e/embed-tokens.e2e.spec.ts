import { createHmac } from 'node:crypto';
import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { grant, makeCard, tableQuery } from '../support/card-factories';
import { dashboardWith } from '../support/dashboard-factories';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { cardToken, dashToken, embeddable, expectEmbed400, expectNoInternals, SECRET, setEmbedding, sign } from './embed-helpers';

jest.setTimeout(180_000);

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** A token under any header, HMAC-SHA256-signed with the key (or not signed at all). */
const rawToken = (header: object, payload: object, key: string | null = SECRET) => {
  const head = `${b64(header)}.${b64(payload)}`;
  return `${head}.${key === null ? '' : createHmac('sha256', key).update(head).digest('base64url')}`;
};

/** Every refusal of a token, over HTTP, with Metabase's messages; and the embedding fields of cards and dashboards. */
describe('embed tokens', () => {
  let s: SampleApp;
  let card: number;
  let dash: number;
  let dashcard: number;
  const http = () => s.t.http();
  const getCard = (token: string) => http().get(`/api/embed/card/${token}`);

  beforeAll(async () => {
    s = await startSampleApp();
    await setEmbedding(s.t, s.admin);
    card = (await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id, { aggregation: [['count']] }))).id;
    await embeddable(s.t, s.admin, 'card', card, {});
    const d = await dashboardWith(s.t, s.admin, [card]);
    dash = d.id;
    dashcard = d.dashcards[0].id;
    await embeddable(s.t, s.admin, 'dashboard', dash, {});
  });
  afterAll(() => s.t.close());

  it('serves a card and a dashboard for a valid token, with no credentials and nothing internal', async () => {
    const c = await getCard(cardToken(card)).expect(200);
    expect(c.body).toMatchObject({ id: card, parameters: [], dataset_query: { type: 'query' } });
    expectNoInternals(c.body);
    const d = await http()
      .get(`/api/embed/dashboard/${dashToken(dash)}`)
      .expect(200);
    expect(d.body).toMatchObject({ id: dash, dashcards: [{ id: dashcard, card_id: card }] });
    expectNoInternals(d.body);
  });

  it('refuses alg none, a missing alg, other algorithms and bad signatures', async () => {
    const claims = { resource: { question: card }, params: {} };
    expectEmbed400(await getCard(rawToken({ alg: 'none', typ: 'JWT' }, claims, null)), 'JWT `alg` cannot be `none`.');
    expectEmbed400(await getCard(rawToken({ typ: 'JWT' }, claims)), 'JWT is missing `alg`.');
    expectEmbed400(await getCard(sign(claims, SECRET, { algorithm: 'HS512' })), 'Message seems corrupt or manipulated');
    expectEmbed400(await getCard(rawToken({ alg: 'RS256' }, claims)), 'Message seems corrupt or manipulated');
    expectEmbed400(await getCard(sign(claims, 'f'.repeat(64))), 'Message seems corrupt or manipulated');
    // The 32 bytes the hex encodes are not the key: the string itself is.
    expectEmbed400(await getCard(sign(claims, Buffer.from(SECRET, 'hex').toString('latin1'))), 'Message seems corrupt or manipulated');
    expectEmbed400(await getCard('not-a-token'), 'Message seems corrupt or manipulated');
  });

  it('refuses an expired token after the 60 s leeway, naming its exp', async () => {
    const now = Math.floor(Date.now() / 1000);
    const exp = now - 120;
    expectEmbed400(await getCard(cardToken(card, {}, { exp })), `Token is expired (${exp})`);
    await getCard(cardToken(card, {}, { exp: now - 20 })).expect(200);
    await getCard(cardToken(card, {}, { exp: now + 600 })).expect(200);
  });

  it('refuses a token without params, with a resource id of the wrong type, or for another object', async () => {
    expectEmbed400(await getCard(sign({ resource: { question: card } })), 'Token is missing value for keypath [:params]');
    expectEmbed400(await getCard(sign({ resource: { question: String(card) }, params: {} })), 'Card id should be a positive integer.');
    expectEmbed400(
      await http().get(`/api/embed/dashboard/${sign({ resource: { dashboard: -1 }, params: {} })}`),
      'Dashboard id should be a positive integer.',
    );
    // A dashboard's token on a card route, and the other way round.
    expectEmbed400(await getCard(dashToken(dash)), 'Token is missing value for keypath [:resource :question]');
    expectEmbed400(
      await http().get(`/api/embed/dashboard/${cardToken(card)}`),
      'Token is missing value for keypath [:resource :dashboard]',
    );
    expectEmbed400(
      await http().get(`/api/embed/dashboard/${cardToken(card)}/dashcard/${dashcard}/card/${card}`),
      'Token is missing value for keypath [:resource :dashboard]',
    );
    expectEmbed400(await getCard(cardToken(987654)), 'Not found.');
  });

  it("a dashboard's token serves only its own dashcards and cards", async () => {
    const other = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PEOPLE').id, { aggregation: [['count']] }));
    const d2 = await dashboardWith(s.t, s.admin, [other.id]);
    await embeddable(s.t, s.admin, 'dashboard', d2.id, {});
    const token = dashToken(dash);
    expectEmbed400(await http().get(`/api/embed/dashboard/${token}/dashcard/${d2.dashcards[0].id}/card/${other.id}`), 'Not found.');
    expectEmbed400(await http().get(`/api/embed/dashboard/${token}/dashcard/${dashcard}/card/${other.id}`), 'Not found.');
    await http().get(`/api/embed/dashboard/${token}/dashcard/${dashcard}/card/${card}`).expect(202);
  });

  it('refuses objects with embedding off, archived ones, and everything when static embedding is off or has no key', async () => {
    const off = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id));
    expectEmbed400(await getCard(cardToken(off.id)), 'Embedding is not enabled for this object.');
    const archived = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id));
    await embeddable(s.t, s.admin, 'card', archived.id, {});
    await http().put(`/api/card/${archived.id}`).set(auth(s.admin)).send({ archived: true }).expect(200);
    expectEmbed400(await getCard(cardToken(archived.id)), 'The object has been archived.');
    try {
      await http().put('/api/setting/enable-embedding-static').set(auth(s.admin)).send({ value: false }).expect(204);
      expectEmbed400(await getCard(cardToken(card)), 'Embedding is not enabled.');
      expectEmbed400(await http().get(`/api/embed/dashboard/${dashToken(dash)}`), 'Embedding is not enabled.');
      await http().put('/api/setting/enable-embedding-static').set(auth(s.admin)).send({ value: true }).expect(204);
      await http().put('/api/setting/embedding-secret-key').set(auth(s.admin)).send({ value: null }).expect(204);
      expectEmbed400(await getCard(cardToken(card)), 'The embedding secret key has not been set.');
    } finally {
      await setEmbedding(s.t, s.admin);
    }
    await getCard(cardToken(card)).expect(200);
  });

  it('validates embedding_params on PUT of cards and dashboards, stores and returns them; only admins change them', async () => {
    for (const kind of ['card', 'dashboard'] as const) {
      const id = kind === 'card' ? card : dash;
      for (const bad of [{ a: 'open' }, ['enabled'], 'enabled', { a: null }]) {
        const res = await http().put(`/api/${kind}/${id}`).set(auth(s.admin)).send({ embedding_params: bad });
        expect([res.status, res.body.errors]).toEqual([400, { embedding_params: 'value must be a valid embedding params map.' }]);
      }
      const ok = { a: 'enabled', b: 'locked', c: 'disabled' };
      await http().put(`/api/${kind}/${id}`).set(auth(s.admin)).send({ embedding_params: ok, enable_embedding: true }).expect(200);
      const got = await http().get(`/api/${kind}/${id}`).set(auth(s.admin)).expect(200);
      expect([got.body.embedding_params, got.body.enable_embedding]).toEqual([ok, true]);
      await http().put(`/api/${kind}/${id}`).set(auth(s.admin)).send({ embedding_params: {} }).expect(200);
    }
    // A non-admin who may write the card still may not change its embedding.
    await grant(s.t, ALL_USERS_GROUP_ID, null, 'write');
    const mine = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id), { collection_id: null });
    await http().put(`/api/card/${mine.id}`).set(auth(s.user.session)).send({ description: 'mine to edit' }).expect(200);
    await http().put(`/api/card/${mine.id}`).set(auth(s.user.session)).send({ enable_embedding: true }).expect(403);
    await http()
      .put(`/api/card/${mine.id}`)
      .set(auth(s.user.session))
      .send({ embedding_params: { a: 'enabled' } })
      .expect(403);
  });
});
