import { DataSource } from 'typeorm';
import { CardItemsSource } from '../../src/modules/cards/card-items.source';
import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { makeCard, makeCollection, makeMetric, makeModel, nativeQuery, tableQuery } from '../support/card-factories';
import { auth } from '../support/factories';
import { expect400, expect404, expectMessage } from '../support/expect-wire';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

/** Around a card: series, related content, parameter values, shared listings, timelines, revisions and collection items. */
describe('cards: details', () => {
  let s: SampleApp;
  let orders: number;
  let products: number;
  const http = () => s.t.http();
  const get = (path: string, session = s.admin) => http().get(path).set(auth(session));
  const ids = (body: Array<{ id: number }>) => body.map((c) => c.id);

  beforeAll(async () => {
    s = await startSampleApp();
    orders = s.table('ORDERS').id;
    products = s.table('PRODUCTS').id;
  });
  afterAll(() => s.t.close());

  it('lists the series that can share a chart, paged by cursor, searched by name, with exclusions', async () => {
    const byMonth = (table: number, field: number) =>
      tableQuery(s.db, table, { aggregation: [['count']], breakout: [['field', field, { 'temporal-unit': 'month' }]] });
    const base = await makeCard(s.t, s.admin, byMonth(orders, s.field('ORDERS', 'CREATED_AT')), {
      display: 'line',
      name: 'Orders by month',
    });
    const fits: number[] = [];
    for (let i = 0; i < 17; i++)
      fits.push(
        (
          await makeCard(s.t, s.admin, byMonth(products, s.field('PRODUCTS', 'CREATED_AT')), {
            display: i % 2 ? 'bar' : 'area',
            name: `Series ${i}`,
          })
        ).id,
      );
    await makeCard(
      s.t,
      s.admin,
      tableQuery(s.db, products, { aggregation: [['count']], breakout: [['field', s.field('PRODUCTS', 'CATEGORY'), null]] }),
      { display: 'bar', name: 'Series by category' },
    );
    await makeCard(s.t, s.admin, byMonth(products, s.field('PRODUCTS', 'CREATED_AT')), { display: 'table', name: 'Series as table' });
    await makeCard(
      s.t,
      s.admin,
      tableQuery(s.db, products, {
        aggregation: [['count'], ['sum', ['field', s.field('PRODUCTS', 'PRICE'), null]]],
        breakout: [['field', s.field('PRODUCTS', 'CREATED_AT'), { 'temporal-unit': 'month' }]],
      }),
      { display: 'line', name: 'Series two aggregations' },
    );

    const first = (await get(`/api/card/${base.id}/series`).expect(200)).body;
    expect(ids(first)).toEqual([...fits].reverse().slice(0, 15));
    const next = (await get(`/api/card/${base.id}/series?last_cursor=${first[14].id}`).expect(200)).body;
    expect(ids(next)).toEqual([fits[1], fits[0]]);
    expect(ids((await get(`/api/card/${base.id}/series?query=series%2016`).expect(200)).body)).toEqual([fits[16]]);
    expect(ids((await get(`/api/card/${base.id}/series?exclude_ids=${fits[16]}&exclude_ids=${fits[15]}`).expect(200)).body)[0]).toBe(
      fits[14],
    );
    expect400(await get(`/api/card/${base.id}/series?last_cursor=0`), 'last_cursor', 'value must be an integer greater than zero.');
    expect400(await get(`/api/card/${base.id}/series?query=%20`), 'query', 'value must be a non-blank string.');
    expect400(await get(`/api/card/${base.id}/series?exclude_ids=x`), 'exclude_ids', 'value must be an integer greater than zero.');
    const table = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { display: 'table' });
    expectMessage(await get(`/api/card/${table.id}/series`), "Can't get series for a card with display table.");
    expect404(await get('/api/card/99999/series'));
  });

  it('answers related content for a card and for an ad-hoc query', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { name: 'Related base' });
    const sibling = await makeCard(s.t, s.admin, tableQuery(s.db, orders, { aggregation: [['count']] }), { name: 'Sibling' });
    const metric = await makeMetric(s.t, s.admin, tableQuery(s.db, orders, { aggregation: [['count']] }));
    const related = (await get(`/api/card/${card.id}/related`).expect(200)).body;
    expect(related).toMatchObject({ table: { id: orders, name: 'ORDERS' }, segments: [], dashboards: [] });
    expect(ids(related['similar-questions'])).toContain(sibling.id);
    expect(ids(related['similar-questions'])).not.toContain(card.id);
    expect(ids(related.metrics)).toContain(metric.id);
    const model = await makeModel(s.t, s.admin, tableQuery(s.db, products));
    const adhoc = (
      await http()
        .post('/api/card/related')
        .set(auth(s.admin))
        .send({ database: s.db, type: 'query', query: { 'source-table': `card__${model.id}` } })
        .expect(200)
    ).body;
    expect(adhoc).toMatchObject({ table: null, models: [{ id: model.id }] });
    expect400(
      await http().post('/api/card/related').set(auth(s.admin)).send({ type: 'query', query: {} }),
      'database',
      'value must be an integer greater than zero.',
    );
  });

  it("answers a parameter's values from a static list, another card, or the field it filters on", async () => {
    const category = s.field('PRODUCTS', 'CATEGORY');
    const source = await makeCard(s.t, s.admin, tableQuery(s.db, products));
    const tags = {
      cat: {
        id: 't1',
        name: 'cat',
        'display-name': 'Category',
        type: 'dimension',
        dimension: ['field', category, null],
        'widget-type': 'string/=',
      },
    };
    const card = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT * FROM PRODUCTS WHERE {{cat}}', tags), {
      parameters: [
        { id: 'static', type: 'category', values_source_type: 'static-list', values_source_config: { values: ['x', 'yy', 'xyz'] } },
        {
          id: 'fromCard',
          type: 'category',
          values_source_type: 'card',
          values_source_config: { card_id: source.id, value_field: ['field', category, null] },
        },
        { id: 't1', type: 'string/=', target: ['dimension', ['template-tag', 'cat']] },
        { id: 'byField', type: 'category', target: ['dimension', ['field', category, null]] },
        { id: 'nowhere', type: 'category' },
      ],
    });
    const values = async (key: string, search?: string) =>
      (await get(`/api/card/${card.id}/params/${key}/${search ? `search/${search}` : 'values'}`).expect(200)).body;
    expect(await values('static')).toEqual({ values: [['x'], ['yy'], ['xyz']], has_more_values: false });
    expect(await values('static', 'y')).toEqual({ values: [['yy'], ['xyz']], has_more_values: false });
    const categories = [['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']];
    expect(await values('fromCard')).toEqual({ values: categories, has_more_values: false });
    expect(await values('t1')).toEqual({ values: categories, has_more_values: false });
    expect(await values('byField', 'gad')).toEqual({ values: [['Gadget']], has_more_values: false });
    expect(await values('nowhere')).toEqual({ values: [], has_more_values: false });
    expectMessage(
      await get(`/api/card/${card.id}/params/missing/values`),
      `Card ${card.id} does not have a parameter with the ID "missing".`,
    );
    expect400(await get('/api/card/0/params/static/values'), 'card-id', 'value must be an integer greater than zero.');
    expect404(await get('/api/card/99999/params/static/values'));
  });

  it('lists embeddable and public cards to admins once the features are on', async () => {
    expectMessage(await get('/api/card/embeddable'), 'Embedding is not enabled.');
    expectMessage(await get('/api/card/public'), 'Public sharing is not enabled.');
    await http().put('/api/setting/enable-embedding-static').set(auth(s.admin)).send({ value: true }).expect(204);
    await http().put('/api/setting/enable-public-sharing').set(auth(s.admin)).send({ value: true }).expect(204);
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { name: 'Shared' });
    expect((await get('/api/card/embeddable').expect(200)).body).toEqual([]);
    await http().put(`/api/card/${card.id}`).set(auth(s.admin)).send({ enable_embedding: true }).expect(200);
    expect((await get('/api/card/embeddable').expect(200)).body).toEqual([{ id: card.id, name: 'Shared' }]);
    await s.t.app
      .get(DataSource)
      .query(`UPDATE report_card SET public_uuid = '0c7ad9e8-5a05-4c0d-9a43-4a1a2b1c1d11' WHERE id = ${card.id}`);
    expect((await get('/api/card/public').expect(200)).body).toEqual([
      { id: card.id, name: 'Shared', public_uuid: '0c7ad9e8-5a05-4c0d-9a43-4a1a2b1c1d11' },
    ]);
    // Only admins change embedding.
    const refused = await http().put(`/api/card/${card.id}`).set(auth(s.user.session)).send({ enable_embedding: false });
    expect(refused.status).toBe(403);
    // The card sent back whole, embedding unchanged, is an ordinary edit.
    const whole = (await get(`/api/card/${card.id}`).expect(200)).body;
    const edited = await http()
      .put(`/api/card/${card.id}`)
      .set(auth(s.user.session))
      .send({ ...whole, name: 'Shared and renamed' })
      .expect(200);
    expect(edited.body).toMatchObject({ name: 'Shared and renamed', enable_embedding: true });
  });

  it('answers no timelines yet, after the checks', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    expect((await get(`/api/card/${card.id}/timelines?include=events&start=2024-01-01`).expect(200)).body).toEqual([]);
    expect400(await get(`/api/card/${card.id}/timelines?include=all`), 'include', 'value must be one of: `events`.');
    expect404(await get('/api/card/99999/timelines'));
  });

  it('restores a revision through the revisions API', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { name: 'Before' });
    await http().put(`/api/card/${card.id}`).set(auth(s.admin)).send({ name: 'After', display: 'bar' }).expect(200);
    const revisions = (await get(`/api/revision?entity=card&id=${card.id}`).expect(200)).body as Array<{
      id: number;
      is_creation: boolean;
    }>;
    const creation = revisions.find((r) => r.is_creation)!;
    await http()
      .post('/api/revision/revert')
      .set(auth(s.admin))
      .send({ entity: 'card', id: card.id, revision_id: creation.id })
      .expect(200);
    expect((await get(`/api/card/${card.id}`).expect(200)).body).toMatchObject({ name: 'Before', display: 'table' });
  });

  it('serves its cards, models and metrics to the collection listings', async () => {
    const coll = await makeCollection(s.t, 'Items');
    const question = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { collection_id: coll, collection_position: 1 });
    const model = await makeModel(s.t, s.admin, tableQuery(s.db, orders), { collection_id: coll });
    const metric = await makeMetric(s.t, s.admin, tableQuery(s.db, orders, { aggregation: [['count']] }), { collection_id: coll });
    const source = s.t.app.get(CardItemsSource);
    const admin = { id: (await get('/api/user/current').expect(200)).body.id, isSuperuser: true, groupIds: [ALL_USERS_GROUP_ID] };
    const q = { user: admin, collectionId: coll, namespace: null, models: [], archived: false, pinnedState: 'all' as const };
    const items = await source.items(q);
    expect(items.map((i) => [i.id, i.model]).sort()).toEqual(
      [
        [question.id, 'card'],
        [model.id, 'dataset'],
        [metric.id, 'metric'],
      ].sort(),
    );
    expect(items.find((i) => i.id === question.id)).toMatchObject({
      name: question.name,
      last_edited_by: 'Ada Admin',
      'last-edit-info': { email: 'admin@example.com' },
    });
    expect((await source.items({ ...q, models: ['dataset'] })).map((i) => i.id)).toEqual([model.id]);
    expect((await source.items({ ...q, pinnedState: 'is_pinned' })).map((i) => i.id)).toEqual([question.id]);
    expect(await source.modelsIn([coll], false)).toEqual(new Map([[coll, new Set(['card', 'dataset', 'metric'])]]));
    const db = s.t.app.get(DataSource);
    await db.transaction((tx) => source.archiveIn(tx, [coll], true));
    expect(await source.items(q)).toEqual([]);
    expect((await source.items({ ...q, archived: true })).length).toBe(3);
    await db.transaction((tx) => source.archiveIn(tx, [coll], false));
    expect((await source.items(q)).length).toBe(3);
  });
});
