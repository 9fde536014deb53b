import { makeCard, makeCollection, tableQuery } from '../support/card-factories';
import { dashboardWith, makeDashboard, newDashcard } from '../support/dashboard-factories';
import { auth } from '../support/factories';
import { expect400, expect404, expectMessage } from '../support/expect-wire';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

/** Creating, reading, changing (dashcards and tabs), archiving and deleting dashboards. */
describe('dashboards: create, read, update, delete', () => {
  let s: SampleApp;
  let orders: number;
  const http = () => s.t.http();

  beforeAll(async () => {
    s = await startSampleApp();
    orders = s.table('ORDERS').id;
  });
  afterAll(() => s.t.close());

  it('creates a dashboard and answers the full shape', async () => {
    const coll = await makeCollection(s.t, 'Sales');
    const res = await http()
      .post('/api/dashboard')
      .set(auth(s.admin))
      .send({
        name: 'Overview',
        description: 'All of it',
        parameters: [{ id: 'p1', type: 'category', slug: 'cat', name: 'Cat' }],
        cache_ttl: 60,
        collection_id: coll,
        collection_position: 2,
      })
      .expect(200);
    expect(res.body).toMatchObject({
      name: 'Overview',
      description: 'All of it',
      parameters: [{ id: 'p1', type: 'category' }],
      cache_ttl: 60,
      collection_id: coll,
      collection_position: 2,
      archived: false,
      width: 'fixed',
      auto_apply_filters: true,
      enable_embedding: false,
      embedding_params: null,
      public_uuid: null,
      dashcards: [],
      tabs: [],
      param_fields: {},
      can_write: true,
      collection: { id: coll, name: 'Sales', effective_ancestors: [expect.objectContaining({ id: 'root' })] },
      'last-edit-info': { email: 'admin@example.com', first_name: 'Ada', last_name: 'Admin' },
    });
    expect(res.body.entity_id).toMatch(/^[\w-]{21}$/);
    const got = await http().get(`/api/dashboard/${res.body.id}?dashboard_load_id=abc`).set(auth(s.admin)).expect(200);
    expect(got.body).toMatchObject({ id: res.body.id, name: 'Overview', view_count: 1 });
  });

  it('refuses bad bodies with the spec messages', async () => {
    expect400(await http().post('/api/dashboard').set(auth(s.admin)).send({}), 'name', 'value must be a non-blank string.');
    expect400(await http().post('/api/dashboard').set(auth(s.admin)).send({ name: ' ' }), 'name', 'value must be a non-blank string.');
    expect400(
      await http()
        .post('/api/dashboard')
        .set(auth(s.admin))
        .send({ name: 'x', parameters: [{ id: 'a' }] }),
      'parameters',
      'value must be a map with the keys `id` and `type`.',
    );
    expect400(
      await http().post('/api/dashboard').set(auth(s.admin)).send({ name: 'x', cache_ttl: 0 }),
      'cache_ttl',
      'value must be an integer greater than zero.',
    );
    expect400(
      await http().post('/api/dashboard').set(auth(s.admin)).send({ name: 'x', collection_id: -1 }),
      'collection_id',
      'value must be an integer greater than zero.',
    );
    expect404(await http().post('/api/dashboard').set(auth(s.admin)).send({ name: 'x', collection_id: 999999 }));
    const d = await makeDashboard(s.t, s.admin);
    expect400(
      await http().put(`/api/dashboard/${d.id}`).set(auth(s.admin)).send({ width: 'wide' }),
      'width',
      'value must be one of: `fixed`, `full`.',
    );
    expect400(
      await http()
        .put(`/api/dashboard/${d.id}`)
        .set(auth(s.admin))
        .send({ embedding_params: { a: 'maybe' } }),
      'embedding_params',
      'value must be a valid embedding params map.',
    );
    // The spec's message, word for word.
    expect400(
      await http()
        .put(`/api/dashboard/${d.id}`)
        .set(auth(s.admin))
        .send({ dashcards: [newDashcard(-1, null), newDashcard(-1, null)] }),
      'dashcards',
      'ids must be unique',
    );
    expect400(
      await http()
        .put(`/api/dashboard/${d.id}`)
        .set(auth(s.admin))
        .send({ dashcards: [newDashcard(7, null), newDashcard(7, null)] }),
      'dashcards',
      'ids must be unique',
    );
    expect400(
      await http()
        .put(`/api/dashboard/${d.id}`)
        .set(auth(s.admin))
        .send({
          tabs: [
            { id: -1, name: 'A' },
            { id: -1, name: 'B' },
          ],
        }),
      'tabs',
      'ids must be unique',
    );
    expect400(
      await http()
        .put(`/api/dashboard/${d.id}/cards`)
        .set(auth(s.admin))
        .send({ cards: [newDashcard(-1, null), newDashcard(-1, null)] }),
      'cards',
      'ids must be unique',
    );
    expect400(
      await http()
        .put(`/api/dashboard/${d.id}`)
        .set(auth(s.admin))
        .send({ dashcards: [1, 2] }),
      'dashcards',
      'value must be an array of maps.',
    );
    expect400(
      await http()
        .put(`/api/dashboard/${d.id}`)
        .set(auth(s.admin))
        .send({ dashcards: [newDashcard(-1, null, { parameter_mappings: [{ target: ['x'] }] })] }),
      'parameter_mappings',
      'value must be an array of maps with the keys `parameter_id` and `target`.',
    );
    expect400(await http().get('/api/dashboard?f=nope').set(auth(s.admin)), 'f', 'value must be one of: `all`, `mine`, `archived`.');
    expect400(await http().get('/api/dashboard/0').set(auth(s.admin)), 'id', 'value must be an integer greater than zero.');
    expect404(await http().get('/api/dashboard/999999').set(auth(s.admin)));
  });

  it('creates, updates and deletes dashcards and tabs in one PUT', async () => {
    const a = await makeCard(s.t, s.admin, tableQuery(s.db, orders, { aggregation: [['count']] }));
    const b = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const c = await makeCard(s.t, s.admin, tableQuery(s.db, orders, { aggregation: [['count']] }));
    const d = await makeDashboard(s.t, s.admin, { parameters: [{ id: 'p', type: 'category', slug: 'p' }] });
    const mapping = { parameter_id: 'p', card_id: a.id, target: ['dimension', ['field', s.field('ORDERS', 'QUANTITY'), null]] };
    const first = await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({
        tabs: [
          { id: -1, name: 'One' },
          { id: -2, name: 'Two' },
        ],
        dashcards: [
          newDashcard(-1, a.id, {
            dashboard_tab_id: -1,
            parameter_mappings: [mapping],
            series: [{ id: c.id }],
            visualization_settings: { x: 1 },
          }),
          newDashcard(-2, b.id, { dashboard_tab_id: -2, row: 4 }),
          newDashcard(-3, null, { dashboard_tab_id: -2, visualization_settings: { text: 'hello', virtual_card: { display: 'text' } } }),
        ],
        width: 'full',
        auto_apply_filters: false,
      })
      .expect(200);
    expect(first.body).toMatchObject({ width: 'full', auto_apply_filters: false });
    expect(first.body.tabs.map((t: { name: string }) => t.name)).toEqual(['One', 'Two']);
    const [tab1, tab2] = first.body.tabs.map((t: { id: number }) => t.id);
    expect(first.body.dashcards).toHaveLength(3);
    const dcA = first.body.dashcards.find((x: { card_id: number }) => x.card_id === a.id);
    expect(dcA).toMatchObject({
      dashboard_tab_id: tab1,
      parameter_mappings: [mapping],
      visualization_settings: { x: 1 },
      inline_parameters: [],
      series: [expect.objectContaining({ id: c.id })],
      card: expect.objectContaining({ id: a.id, dataset_query: a.dataset_query }),
    });
    expect(first.body.param_fields[String(s.field('ORDERS', 'QUANTITY'))]).toMatchObject({ id: s.field('ORDERS', 'QUANTITY') });
    const text = first.body.dashcards.find((x: { card_id: number | null }) => x.card_id === null);
    expect(text).toMatchObject({ card: null, dashboard_tab_id: tab2, visualization_settings: { text: 'hello' } });

    // Update the first dashcard, delete the text card and the second tab (and its dashcards), add a tab.
    const second = await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({
        tabs: [
          { id: tab1, name: 'Renamed' },
          { id: -5, name: 'Three' },
        ],
        dashcards: [{ ...dcA, row: 8, size_x: 6, series: [] }, newDashcard(-9, b.id, { dashboard_tab_id: -5 })],
      })
      .expect(200);
    expect(second.body.tabs.map((t: { name: string }) => t.name)).toEqual(['Renamed', 'Three']);
    expect(second.body.tabs[0].id).toBe(tab1);
    expect(second.body.dashcards).toHaveLength(2);
    expect(second.body.dashcards.find((x: { id: number }) => x.id === dcA.id)).toMatchObject({ row: 8, size_x: 6, series: [] });
    expect(second.body.dashcards.find((x: { id: number }) => x.id !== dcA.id)).toMatchObject({
      card_id: b.id,
      dashboard_tab_id: second.body.tabs[1].id,
    });
  });

  it('stores points_of_interest, caveats, position and show_in_getting_started, and clears them with null', async () => {
    const d = await makeDashboard(s.t, s.admin);
    expect(d).toMatchObject({ points_of_interest: null, caveats: null, position: null, show_in_getting_started: false });
    const put = await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ points_of_interest: 'Look at Q3', caveats: 'Refunds excluded', position: 3, show_in_getting_started: true })
      .expect(200);
    const stored = { points_of_interest: 'Look at Q3', caveats: 'Refunds excluded', position: 3, show_in_getting_started: true };
    expect(put.body).toMatchObject(stored);
    expect((await http().get(`/api/dashboard/${d.id}`).set(auth(s.admin)).expect(200)).body).toMatchObject(stored);
    // Other changes leave them alone; null clears them.
    await http().put(`/api/dashboard/${d.id}`).set(auth(s.admin)).send({ name: 'Renamed' }).expect(200);
    expect((await http().get(`/api/dashboard/${d.id}`).set(auth(s.admin)).expect(200)).body).toMatchObject(stored);
    await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ points_of_interest: null, caveats: null, position: null, show_in_getting_started: null })
      .expect(200);
    expect((await http().get(`/api/dashboard/${d.id}`).set(auth(s.admin)).expect(200)).body).toMatchObject({
      points_of_interest: null,
      caveats: null,
      position: null,
      show_in_getting_started: false,
    });
    expect400(
      await http().put(`/api/dashboard/${d.id}`).set(auth(s.admin)).send({ position: 0 }),
      'position',
      'value must be an integer greater than zero.',
    );
    expect400(await http().put(`/api/dashboard/${d.id}`).set(auth(s.admin)).send({ caveats: 5 }), 'caveats', 'value must be a string.');
  });

  it('creates a new dashcard (a fresh id) for a positive id not on the dashboard, as Metabase does, leaving its owner alone', async () => {
    const a = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const other = await dashboardWith(s.t, s.admin, [a.id]);
    const foreign = other.dashcards[0];
    const d = await makeDashboard(s.t, s.admin);
    const put = await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ dashcards: [{ ...foreign, size_x: 9 }, newDashcard(987654, null, { visualization_settings: { text: 'hi' } })] })
      .expect(200);
    expect(put.body.dashcards).toHaveLength(2);
    const ids = put.body.dashcards.map((x: { id: number }) => x.id);
    expect(ids).not.toContain(foreign.id);
    expect(ids).not.toContain(987654);
    expect(put.body.dashcards.find((x: { card_id: number | null }) => x.card_id === a.id)).toMatchObject({ dashboard_id: d.id, size_x: 9 });
    const owner = await http().get(`/api/dashboard/${other.id}`).set(auth(s.admin)).expect(200);
    expect(owner.body.dashcards).toEqual([expect.objectContaining({ id: foreign.id, dashboard_id: other.id, size_x: foreign.size_x })]);
  });

  it('refuses a mapping onto a card that is not on the dashcard, and a card that does not exist', async () => {
    const a = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const other = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const d = await makeDashboard(s.t, s.admin);
    const bad = await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({
        dashcards: [
          newDashcard(-1, a.id, {
            parameter_mappings: [{ parameter_id: 'p', card_id: other.id, target: ['dimension', ['field', 1, null]] }],
          }),
        ],
      })
      .expect(400);
    expect(bad.body.errors.parameter_mappings).toMatch(/not on dashcard/);
    expect404(
      await http()
        .put(`/api/dashboard/${d.id}`)
        .set(auth(s.admin))
        .send({ dashcards: [newDashcard(-1, 999999)] }),
    );
    expect((await http().get(`/api/dashboard/${d.id}`).set(auth(s.admin)).expect(200)).body.dashcards).toEqual([]);
  });

  it('the deprecated PUT /cards replaces the dashcards and tabs', async () => {
    const a = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const d = await makeDashboard(s.t, s.admin);
    const res = await http()
      .put(`/api/dashboard/${d.id}/cards`)
      .set(auth(s.admin))
      .send({ cards: [newDashcard(-1, a.id, { dashboard_tab_id: -1 })], tabs: [{ id: -1, name: 'T' }] })
      .expect(200);
    expect(res.body.cards).toEqual([expect.objectContaining({ card_id: a.id, dashboard_tab_id: res.body.tabs[0].id })]);
    expect(res.body.tabs).toEqual([expect.objectContaining({ name: 'T' })]);
  });

  it('stores embedding settings (admins only) and lists embeddable and public dashboards once the features are on', async () => {
    expectMessage(await http().get('/api/dashboard/embeddable').set(auth(s.admin)), 'Embedding is not enabled.');
    expectMessage(await http().get('/api/dashboard/public').set(auth(s.admin)), 'Public sharing is not enabled.');
    await http().put('/api/setting/enable-embedding-static').set(auth(s.admin)).send({ value: true }).expect(204);
    await http().put('/api/setting/enable-public-sharing').set(auth(s.admin)).send({ value: true }).expect(204);
    const d = await makeDashboard(s.t, s.admin);
    await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ enable_embedding: true, embedding_params: { p: 'enabled' } })
      .expect(200);
    const got = await http().get(`/api/dashboard/${d.id}`).set(auth(s.admin)).expect(200);
    expect(got.body).toMatchObject({ enable_embedding: true, embedding_params: { p: 'enabled' } });
    const listed = await http().get('/api/dashboard/embeddable').set(auth(s.admin)).expect(200);
    expect(listed.body).toContainEqual({ id: d.id, name: d.name });
    expect((await http().get('/api/dashboard/public').set(auth(s.admin)).expect(200)).body).toEqual([]);
    await http().get('/api/dashboard/embeddable').set(auth(s.user.session)).expect(403);
    await http().get('/api/dashboard/public').set(auth(s.user.session)).expect(403);
  });

  it('archives and unarchives keeping everything, and lists with f', async () => {
    const a = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const d = await dashboardWith(s.t, s.admin, [a.id], { collection_position: 1 });
    const archived = await http().put(`/api/dashboard/${d.id}`).set(auth(s.admin)).send({ archived: true }).expect(200);
    expect(archived.body).toMatchObject({ archived: true, collection_position: null });
    expect(archived.body.dashcards).toHaveLength(1);
    const ids = async (f: string) =>
      (await http().get(`/api/dashboard?f=${f}`).set(auth(s.admin)).expect(200)).body.map((x: { id: number }) => x.id);
    expect(await ids('archived')).toContain(d.id);
    expect(await ids('all')).not.toContain(d.id);
    await http().put(`/api/dashboard/${d.id}`).set(auth(s.admin)).send({ archived: false }).expect(200);
    expect(await ids('all')).toContain(d.id);
    expect(await ids('mine')).toContain(d.id);
    expect((await http().get(`/api/card/${a.id}`).set(auth(s.admin)).expect(200)).body.archived).toBe(false);
    const mineOfUser = (await http().get('/api/dashboard?f=mine').set(auth(s.user.session)).expect(200)).body;
    expect(mineOfUser.map((x: { id: number }) => x.id)).not.toContain(d.id);
  });

  it('deletes a dashboard with the questions saved only into it, keeping the ones used elsewhere', async () => {
    const plain = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const d = await makeDashboard(s.t, s.admin);
    const other = await makeDashboard(s.t, s.admin);
    const saved = await http()
      .post('/api/dashboard/save')
      .set(auth(s.admin))
      .send({
        name: 'Auto',
        dashcards: [
          {
            row: 0,
            col: 0,
            size_x: 4,
            size_y: 4,
            card: { name: 'Only here', display: 'table', visualization_settings: {}, dataset_query: tableQuery(s.db, orders) },
          },
          {
            row: 4,
            col: 0,
            size_x: 4,
            size_y: 4,
            card: { name: 'Also elsewhere', display: 'table', visualization_settings: {}, dataset_query: tableQuery(s.db, orders) },
          },
        ],
      })
      .expect(200);
    expect(saved.body.dashcards).toHaveLength(2);
    const [onlyHere, shared] = saved.body.dashcards.map((x: { card_id: number }) => x.card_id);
    expect(saved.body.dashcards[0].card).toMatchObject({ name: 'Only here', dashboard_id: saved.body.id });
    expect(
      (await http().get(`/api/card/${saved.body.dashcards[0].card.id}?ignore_view=true`).set(auth(s.admin)).expect(200)).body.dashboard_id,
    ).toBe(saved.body.id);
    await http()
      .put(`/api/dashboard/${other.id}`)
      .set(auth(s.admin))
      .send({ dashcards: [newDashcard(-1, shared)] })
      .expect(200);
    await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ dashcards: [newDashcard(-1, plain.id)] })
      .expect(200);
    await http().delete(`/api/dashboard/${saved.body.id}`).set(auth(s.admin)).expect(204);
    expect404(await http().get(`/api/dashboard/${saved.body.id}`).set(auth(s.admin)));
    expect404(await http().get(`/api/card/${onlyHere}`).set(auth(s.admin)));
    expect((await http().get(`/api/card/${shared}`).set(auth(s.admin)).expect(200)).body.id).toBe(shared);
    await http().delete(`/api/dashboard/${d.id}`).set(auth(s.admin)).expect(204);
    expect((await http().get(`/api/card/${plain.id}`).set(auth(s.admin)).expect(200)).body.id).toBe(plain.id);
    expect((await http().get(`/api/dashboard/${other.id}`).set(auth(s.admin)).expect(200)).body.dashcards).toHaveLength(1);
  });

  it('saves into a collection with /save/collection/:id', async () => {
    const coll = await makeCollection(s.t, 'Autos');
    const res = await http()
      .post(`/api/dashboard/save/collection/${coll}`)
      .set(auth(s.admin))
      .send({
        name: 'X-ray',
        parameters: [{ id: 'p', type: 'category' }],
        dashcards: [
          {
            row: 0,
            col: 0,
            size_x: 4,
            size_y: 4,
            parameter_mappings: [{ parameter_id: 'p', target: ['dimension', ['field', s.field('ORDERS', 'QUANTITY'), null]] }],
            card: { name: 'Q', display: 'table', visualization_settings: {}, dataset_query: tableQuery(s.db, orders) },
          },
        ],
      })
      .expect(200);
    expect(res.body).toMatchObject({ collection_id: coll, parameters: [{ id: 'p', type: 'category' }] });
    expect(res.body.dashcards[0].card).toMatchObject({ collection_id: coll, name: 'Q' });
    expect(res.body.dashcards[0].parameter_mappings[0]).toMatchObject({ parameter_id: 'p', card_id: res.body.dashcards[0].card_id });
    expect400(await http().post('/api/dashboard/save').set(auth(s.admin)).send({ name: '' }), 'name', 'value must be a non-blank string.');
    expect400(
      await http().post('/api/dashboard/save/collection/0').set(auth(s.admin)).send({ name: 'x' }),
      'parent-collection-id',
      'value must be an integer greater than zero.',
    );
  });

  it('copies shallow (same cards) and deep (cards copied into the target collection, dashcards remapped)', async () => {
    const a = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const b = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const src = await makeDashboard(s.t, s.admin, { parameters: [{ id: 'p', type: 'category' }] });
    await http()
      .put(`/api/dashboard/${src.id}`)
      .set(auth(s.admin))
      .send({
        tabs: [{ id: -1, name: 'Tab' }],
        dashcards: [
          newDashcard(-1, a.id, {
            dashboard_tab_id: -1,
            series: [{ id: b.id }],
            parameter_mappings: [
              { parameter_id: 'p', card_id: a.id, target: ['dimension', ['field', s.field('ORDERS', 'QUANTITY'), null]] },
            ],
          }),
        ],
      })
      .expect(200);
    const shallow = await http().post(`/api/dashboard/${src.id}/copy`).set(auth(s.admin)).send({ name: 'Shallow' }).expect(200);
    expect(shallow.body).toMatchObject({ name: 'Shallow', parameters: [{ id: 'p', type: 'category' }] });
    expect(shallow.body.id).not.toBe(src.id);
    expect(shallow.body.dashcards).toEqual([
      expect.objectContaining({
        card_id: a.id,
        dashboard_tab_id: shallow.body.tabs[0].id,
        series: [expect.objectContaining({ id: b.id })],
      }),
    ]);
    const target = await makeCollection(s.t, 'Copies');
    const deep = await http()
      .post(`/api/dashboard/${src.id}/copy`)
      .set(auth(s.admin))
      .send({ name: 'Deep', collection_id: target, is_deep_copy: true })
      .expect(200);
    const dc = deep.body.dashcards[0];
    expect(dc.card_id).not.toBe(a.id);
    expect(dc.card).toMatchObject({ collection_id: target, name: a.name, dataset_query: a.dataset_query });
    expect(dc.series[0].id).not.toBe(b.id);
    expect(dc.series[0]).toMatchObject({ collection_id: target });
    expect(dc.parameter_mappings[0].card_id).toBe(dc.card_id);
    expect(deep.body.collection_id).toBe(target);
    // The source is untouched.
    const again = await http().get(`/api/dashboard/${src.id}`).set(auth(s.admin)).expect(200);
    expect(again.body.dashcards[0].card_id).toBe(a.id);
    expect400(
      await http().post(`/api/dashboard/${src.id}/copy`).set(auth(s.admin)).send({ is_deep_copy: 'yes' }),
      'is_deep_copy',
      'value must be a boolean.',
    );
    expect404(await http().post('/api/dashboard/999999/copy').set(auth(s.admin)).send({}));
  });

  it('takes back the body of GET unchanged, and moves the questions saved into it with it', async () => {
    const a = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const d = await dashboardWith(s.t, s.admin, [a.id], { parameters: [{ id: 'p', type: 'category' }] });
    const tabbed = await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ tabs: [{ id: -1, name: 'T' }], dashcards: d.dashcards.map((x) => ({ ...x, dashboard_tab_id: -1 })) })
      .expect(200);
    const revisions = async () =>
      (await http().get(`/api/dashboard/${d.id}/revisions`).set(auth(s.admin)).expect(200)).body.length as number;
    const before = await revisions();
    const again = await http().put(`/api/dashboard/${d.id}`).set(auth(s.admin)).send(tabbed.body).expect(200);
    expect(await revisions()).toBe(before);
    const strip = (b: Record<string, unknown>) => ({
      ...b,
      updated_at: null,
      'last-edit-info': null,
      dashcards: (b.dashcards as Array<Record<string, unknown>>).map((x) => ({ ...x, updated_at: null, card: null, series: null })),
    });
    expect(strip(again.body)).toEqual(strip(tabbed.body));

    const saved = await http()
      .post('/api/dashboard/save')
      .set(auth(s.admin))
      .send({
        name: 'Mover',
        dashcards: [{ card: { name: 'Inner', display: 'table', visualization_settings: {}, dataset_query: tableQuery(s.db, orders) } }],
      })
      .expect(200);
    const target = await makeCollection(s.t, 'Moved here');
    await http().put(`/api/dashboard/${saved.body.id}`).set(auth(s.admin)).send({ collection_id: target }).expect(200);
    const inner = await http().get(`/api/card/${saved.body.dashcards[0].card_id}`).set(auth(s.admin)).expect(200);
    expect(inner.body.collection_id).toBe(target);
  });

  it('drops the dashcards and series of a card deleted for good', async () => {
    const a = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const b = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const c = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    const d = await dashboardWith(s.t, s.admin, [a.id, b.id]);
    const dcB = d.dashcards.find((x) => x.card_id === b.id)!;
    await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(s.admin))
      .send({ dashcards: [...d.dashcards.filter((x) => x.id !== dcB.id), { ...dcB, series: [{ id: c.id }] }] })
      .expect(200);
    await http().delete(`/api/card/${a.id}`).set(auth(s.admin)).expect(204);
    await http().delete(`/api/card/${c.id}`).set(auth(s.admin)).expect(204);
    const got = await http().get(`/api/dashboard/${d.id}`).set(auth(s.admin)).expect(200);
    expect(got.body.dashcards).toEqual([expect.objectContaining({ card_id: b.id, series: [] })]);
  });

  it('a copy gets its own copies of the questions saved into the source; deleting the copy leaves the source whole', async () => {
    const saved = await http()
      .post('/api/dashboard/save')
      .set(auth(s.admin))
      .send({
        name: 'Owner',
        dashcards: [{ card: { name: 'Inside', display: 'table', visualization_settings: {}, dataset_query: tableQuery(s.db, orders) } }],
      })
      .expect(200);
    const original = saved.body.dashcards[0].card_id;
    const copy = await http().post(`/api/dashboard/${saved.body.id}/copy`).set(auth(s.admin)).send({ name: 'Owner copy' }).expect(200);
    const copied = copy.body.dashcards[0].card;
    expect(copied.id).not.toBe(original);
    expect(copied).toMatchObject({ name: 'Inside', dashboard_id: copy.body.id });
    await http().delete(`/api/dashboard/${copy.body.id}`).set(auth(s.admin)).expect(204);
    expect404(await http().get(`/api/card/${copied.id}`).set(auth(s.admin)));
    expect((await http().get(`/api/dashboard/${saved.body.id}`).set(auth(s.admin)).expect(200)).body.dashcards[0].card_id).toBe(original);
  });

  it('answers related, and the actions execute endpoints do not exist', async () => {
    const coll = await makeCollection(s.t, 'Rel');
    const d1 = await makeDashboard(s.t, s.admin, { collection_id: coll });
    const d2 = await makeDashboard(s.t, s.admin, { collection_id: coll });
    const rel = await http().get(`/api/dashboard/${d1.id}/related`).set(auth(s.admin)).expect(200);
    expect(rel.body['similar-dashboards']).toEqual([expect.objectContaining({ id: d2.id })]);
    await http().get(`/api/dashboard/${d1.id}/dashcard/1/execute?parameters={}`).set(auth(s.admin)).expect(404);
    await http().post(`/api/dashboard/${d1.id}/dashcard/1/execute`).set(auth(s.admin)).send({}).expect(404);
  });
});
