import { makeCard, tableQuery } from '../support/card-factories';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

/**
 * Metabase's command-line client refuses an answer whose Content-Type is not JSON: every JSON answer of the content
 * endpoints says so, the hand-written card listing and the validation failures included.
 */
describe('content endpoints answer with a JSON content type', () => {
  let s: SampleApp;
  beforeAll(async () => {
    s = await startSampleApp();
  });
  afterAll(() => s.t.close());

  it('on every listing, object, query and validation answer', async () => {
    const collection = (await s.t.http().post('/api/collection').set(auth(s.admin)).send({ name: 'Wire' }).expect(200)).body.id;
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('ORDERS').id), { collection_id: collection, name: 'Wire orders' });
    await s.t.http().post(`/api/bookmark/card/${card.id}`).set(auth(s.admin)).expect(200);
    const answers: Array<[string, () => Promise<{ status: number; headers: Record<string, string> }>]> = [
      ['GET /api/card/', () => s.t.http().get('/api/card/').set(auth(s.user.session))],
      ['GET /api/card/:id', () => s.t.http().get(`/api/card/${card.id}`).set(auth(s.user.session))],
      ['POST /api/card/:id/query', () => s.t.http().post(`/api/card/${card.id}/query`).set(auth(s.admin)).send({})],
      ['GET /api/collection/', () => s.t.http().get('/api/collection/').set(auth(s.user.session))],
      ['GET /api/collection/tree', () => s.t.http().get('/api/collection/tree').set(auth(s.user.session))],
      ['GET /api/collection/root', () => s.t.http().get('/api/collection/root').set(auth(s.user.session))],
      ['GET /api/collection/:id/items', () => s.t.http().get(`/api/collection/${collection}/items`).set(auth(s.user.session))],
      ['GET /api/search', () => s.t.http().get('/api/search?q=wire').set(auth(s.user.session))],
      ['GET /api/bookmark', () => s.t.http().get('/api/bookmark').set(auth(s.admin))],
      ['GET /api/revision', () => s.t.http().get(`/api/revision?entity=card&id=${card.id}`).set(auth(s.admin))],
      ['GET /api/card/:id (not int+)', () => s.t.http().get('/api/card/abc').set(auth(s.admin))],
      [
        'GET /api/collection/:id/items (bad sort)',
        () => s.t.http().get(`/api/collection/${collection}/items?sort_column=size`).set(auth(s.admin)),
      ],
    ];
    const types: Record<string, string> = {};
    for (const [name, send] of answers) {
      const res = await send();
      types[name] = `${res.status} ${String(res.headers['content-type']).split(';')[0]}`;
    }
    expect(types).toEqual({
      'GET /api/card/': '200 application/json',
      'GET /api/card/:id': '200 application/json',
      'POST /api/card/:id/query': '202 application/json',
      'GET /api/collection/': '200 application/json',
      'GET /api/collection/tree': '200 application/json',
      'GET /api/collection/root': '200 application/json',
      'GET /api/collection/:id/items': '200 application/json',
      'GET /api/search': '200 application/json',
      'GET /api/bookmark': '200 application/json',
      'GET /api/revision': '200 application/json',
      'GET /api/card/:id (not int+)': '400 application/json',
      'GET /api/collection/:id/items (bad sort)': '400 application/json',
    });
  });
});
