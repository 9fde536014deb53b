import { JwtService } from '@nestjs/jwt';
import { makeCard, tableQuery } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { expect401, expect403 } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { embeddable, expectNoInternals, SECRET, setEmbedding, sign } from './embed-helpers';

jest.setTimeout(180_000);

/** /api/preview-embed: admins only, the object's switch ignored, the whitelist from the token, 2,000 rows at most. */
describe('preview embed', () => {
  let s: SampleApp;
  let card: number;
  let big: number;
  let dash: number;
  let dashcard: number;
  let category: number;
  const http = () => s.t.http();
  const preview = (resource: object, params: object, whitelist?: object) =>
    sign({ resource, params, ...(whitelist ? { _embedding_params: whitelist } : {}) });
  const cardPreview = (params: object = {}, whitelist: object = { category: 'enabled' }) => preview({ question: card }, params, whitelist);
  const count = (res: { body: { data: { rows: unknown[][] } } }) => Number(res.body.data.rows[0][0]);

  beforeAll(async () => {
    s = await startSampleApp();
    await setEmbedding(s.t, s.admin);
    category = s.field('PRODUCTS', 'CATEGORY');
    const parameters = [
      { id: 'p-cat', name: 'Category', slug: 'category', type: 'string/=', target: ['dimension', ['field', category, null]] },
    ];
    // Embedding stays off for these objects, and their stored whitelist disables the parameter.
    card = (await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id, { aggregation: [['count']] }), { parameters })).id;
    await embeddable(s.t, s.admin, 'card', card, { category: 'disabled' }, false);
    big = (await makeCard(s.t, s.admin, tableQuery(s.db, s.table('ORDERS').id, { limit: 5000 }))).id;
    const d = await makeDashboard(s.t, s.admin, {
      parameters: [
        { id: 'cat', name: 'Category', slug: 'category', type: 'string/=' },
        { id: 'ven', name: 'Vendor', slug: 'vendor', type: 'string/=' },
      ],
    });
    const mappings = [
      { parameter_id: 'cat', card_id: card, target: ['dimension', ['field', category, null]] },
      { parameter_id: 'ven', card_id: card, target: ['dimension', ['field', s.field('PRODUCTS', 'VENDOR'), null]] },
    ];
    const put = await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ dashcards: [newDashcard(-1, card, { parameter_mappings: mappings })] })
      .expect(200);
    dash = d.id;
    dashcard = put.body.dashcards[0].id;
  });
  afterAll(() => s.t.close());

  it('needs an admin; the token is never looked at for anyone else', async () => {
    expect401(await http().get(`/api/preview-embed/card/${cardPreview()}`));
    expect403(await http().get(`/api/preview-embed/card/${cardPreview()}`).set(auth(s.user.session)));
    expect403(await http().get('/api/preview-embed/card/not-a-token').set(auth(s.user.session)));
    expect403(
      await http()
        .get(`/api/preview-embed/dashboard/${preview({ dashboard: dash }, {}, {})}/params/ven/values`)
        .set(auth(s.user.session)),
    );
  });

  it('ignores enable_embedding and takes the whitelist from _embedding_params', async () => {
    const got = await http().get(`/api/preview-embed/card/${cardPreview()}`).set(auth(s.admin)).expect(200);
    expect(got.body.parameters.map((p: { slug: string }) => p.slug)).toEqual(['category']);
    expectNoInternals(got.body);
    const widget = await http().get(`/api/preview-embed/card/${cardPreview()}/query?category=Widget`).set(auth(s.admin)).expect(202);
    const all = await http().get(`/api/preview-embed/card/${cardPreview()}/query`).set(auth(s.admin)).expect(202);
    expect(count(widget)).toBeLessThan(count(all));
    // The token's whitelist locks it: the viewer may not set it.
    const locked = await http()
      .get(`/api/preview-embed/card/${cardPreview({}, { category: 'locked' })}/query?category=Widget`)
      .set(auth(s.admin));
    expect([locked.status, locked.body.message]).toEqual([400, 'You must specify a value for category in the JWT.']);
    // The same object is not served by /api/embed: its own switch is off.
    const embed = await http().get(`/api/embed/card/${sign({ resource: { question: card }, params: {} })}`);
    expect([embed.status, embed.text]).toEqual([400, 'Embedding is not enabled for this object.']);
  });

  it('refuses a preview token without _embedding_params, and the token checks of /api/embed', async () => {
    const res = await http()
      .get(`/api/preview-embed/card/${preview({ question: card }, {})}`)
      .set(auth(s.admin));
    expect([res.status, res.body.message]).toEqual([400, 'Token is missing value for keypath [:_embedding_params]']);
    const bad = await http()
      .get(`/api/preview-embed/card/${sign({ resource: { question: card }, params: {}, _embedding_params: {} }, 'e'.repeat(64))}`)
      .set(auth(s.admin));
    expect([bad.status, bad.body.message]).toEqual([400, 'Message seems corrupt or manipulated']);
    const other = await http().get(`/api/preview-embed/dashboard/${cardPreview()}`).set(auth(s.admin));
    expect([other.status, other.body.message]).toEqual([400, 'Token is missing value for keypath [:resource :dashboard]']);
  });

  it('caps results at 2,000 rows', async () => {
    const token = preview({ question: big }, {}, {});
    const res = await http().get(`/api/preview-embed/card/${token}/query`).set(auth(s.admin)).expect(202);
    expect(res.body.data.rows.length).toBe(2000);
    // A breakout with more groups than that, too.
    const groups = await makeCard(
      s.t,
      s.admin,
      tableQuery(s.db, s.table('ORDERS').id, { aggregation: [['count']], breakout: [['field', s.field('ORDERS', 'ID'), null]] }),
    );
    const grouped = await http()
      .get(`/api/preview-embed/card/${preview({ question: groups.id }, {}, {})}/query`)
      .set(auth(s.admin))
      .expect(202);
    expect(grouped.body.data.rows.length).toBe(2000);
  });

  it('previews a dashboard: GET, dashcards, parameter values, pivots', async () => {
    const token = preview({ dashboard: dash }, { category: 'Gizmo' }, { category: 'locked', vendor: 'enabled' });
    const got = await http().get(`/api/preview-embed/dashboard/${token}`).set(auth(s.admin)).expect(200);
    expect(got.body.parameters.map((p: { slug: string }) => p.slug)).toEqual(['vendor']);
    expectNoInternals(got.body);
    const run = await http().get(`/api/preview-embed/dashboard/${token}/dashcard/${dashcard}/card/${card}`).set(auth(s.admin)).expect(202);
    const allRun = await http()
      .get(`/api/preview-embed/dashboard/${preview({ dashboard: dash }, {}, { category: 'enabled' })}/dashcard/${dashcard}/card/${card}`)
      .set(auth(s.admin))
      .expect(202);
    expect(count(run)).toBeLessThan(count(allRun));
    const values = await http().get(`/api/preview-embed/dashboard/${token}/params/ven/values`).set(auth(s.admin)).expect(200);
    const narrowed = await http().get(`/api/dashboard/${dash}/params/ven/values?cat=Gizmo`).set(auth(s.admin)).expect(200);
    expect(values.body.values).toEqual(narrowed.body.values);
    await http().get(`/api/preview-embed/pivot/dashboard/${token}/dashcard/${dashcard}/card/${card}`).set(auth(s.admin)).expect(202);
    const pivot = await http()
      .get(`/api/preview-embed/pivot/card/${cardPreview({ category: 'Gizmo' })}/query`)
      .set(auth(s.admin))
      .expect(202);
    expect(pivot.body.status).toBe('completed');
  });

  it("signs an admin's preview token on the server (the key stays there), usable only as the preview it names", async () => {
    const body = { resource: 'question', id: card, params: {}, embedding_params: { category: 'enabled' } };
    expect401(await http().post('/api/preview-embed/token').send(body));
    expect403(await http().post('/api/preview-embed/token').set(auth(s.user.session)).send(body));
    const invalid = await http()
      .post('/api/preview-embed/token')
      .set(auth(s.admin))
      .send({ ...body, resource: 'table', id: -1 });
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.errors).sort()).toEqual(['id', 'resource']);

    const { token } = (await http().post('/api/preview-embed/token').set(auth(s.admin)).send(body).expect(200)).body as { token: string };
    const claims = new JwtService().verify<Record<string, unknown> & { iat: number; exp: number }>(token, {
      secret: SECRET,
      algorithms: ['HS256'],
    });
    expect(claims).toMatchObject({ resource: { question: card }, params: {}, _embedding_params: { category: 'enabled' } });
    expect(claims.exp - claims.iat).toBe(600);
    const widget = await http().get(`/api/preview-embed/card/${token}/query?category=Widget`).set(auth(s.admin)).expect(202);
    expect(count(widget)).toBeLessThan(count(await http().get(`/api/preview-embed/card/${token}/query`).set(auth(s.admin)).expect(202)));
    // The object's own switch is off: the token opens no public embed.
    expect((await http().get(`/api/embed/card/${token}`)).status).toBe(400);

    // Embedding on with its key cleared afterwards (turning it on makes a key when there is none).
    await http().put('/api/setting/embedding-secret-key').set(auth(s.admin)).send({ value: null }).expect(204);
    try {
      const keyless = await http().post('/api/preview-embed/token').set(auth(s.admin)).send(body);
      expect([keyless.status, keyless.body.message]).toEqual([400, 'The embedding secret key has not been set.']);
    } finally {
      await setEmbedding(s.t, s.admin);
    }
  });
});
