import Database from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { DashboardCardSeries } from '../../src/schema/dashboard-card-series.entity';
import { DashboardCard } from '../../src/schema/dashboard-card.entity';
import { Dashboard } from '../../src/schema/dashboard.entity';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import { grant, makeCard, makeCollection, makeModel, nativeQuery, tableQuery } from '../support/card-factories';
import { expect400, expect403, expect404, expectMessage } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(180_000);

interface Dashcard {
  card_id: number | null;
  parameter_mappings?: unknown[];
  series?: number[];
}

/** Cards run in a dashboard's context: parameter mapping onto MBQL, native and model cards, series, refusals. */
describe('dashboard queries: dashcards', () => {
  let s: SampleApp;
  let adminId: number;
  let products: number;
  let category: number;
  const http = () => s.t.http();
  const run = (d: number, dc: number, c: number, body: object = {}, session = s.admin) =>
    http().post(`/api/dashboard/${d}/dashcard/${dc}/card/${c}/query`).set(auth(session)).send(body);
  const native = async (sql: string) =>
    (await http().post('/api/dataset').set(auth(s.admin)).send(nativeQuery(s.db, sql)).expect(202)).body.data.rows;

  /** A dashboard with `parameters` and dashcards, inserted in the app DB; answers its id and its dashcards' ids. */
  async function makeDashboard(
    parameters: unknown[],
    dashcards: Dashcard[],
    collectionId: number | null = null,
  ): Promise<{ id: number; dashcards: number[] }> {
    const ds = s.t.app.get(DataSource);
    const d = await ds
      .getRepository(Dashboard)
      .save(
        ds
          .getRepository(Dashboard)
          .create({ name: 'Dash', parameters: JSON.stringify(parameters), creator_id: adminId, collection_id: collectionId }),
      );
    const ids: number[] = [];
    for (const dc of dashcards) {
      const repo = ds.getRepository(DashboardCard);
      const saved = await repo.save(
        repo.create({
          dashboard_id: d.id,
          card_id: dc.card_id,
          parameter_mappings: JSON.stringify(dc.parameter_mappings ?? []),
          visualization_settings: '{}',
        }),
      );
      for (const [position, card] of (dc.series ?? []).entries()) {
        await ds.getRepository(DashboardCardSeries).save({ dashboardcard_id: saved.id, card_id: card, position });
      }
      ids.push(saved.id);
    }
    return { id: d.id, dashcards: ids };
  }

  beforeAll(async () => {
    s = await startSampleApp();
    adminId = (await http().get('/api/user/current').set(auth(s.admin)).expect(200)).body.id;
    products = s.table('PRODUCTS').id;
    category = s.field('PRODUCTS', 'CATEGORY');
  });
  afterAll(() => s.t.close());

  const catParam = { id: 'cat', name: 'Category', slug: 'category', type: 'string/=' };

  it('maps a dashboard parameter onto a field of an MBQL card, applies its default, and logs the dashboard run', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, products, { aggregation: [['count']] }));
    const dash = await makeDashboard(
      [{ ...catParam, default: ['Widget'] }],
      [
        {
          card_id: card.id,
          parameter_mappings: [{ parameter_id: 'cat', card_id: card.id, target: ['dimension', ['field', category, null]] }],
        },
      ],
    );
    const gizmo = await run(dash.id, dash.dashcards[0], card.id, { parameters: [{ id: 'cat', value: ['Gizmo'] }] }).expect(202);
    expect(gizmo.body).toMatchObject({ status: 'completed', context: 'dashboard' });
    expect(gizmo.body.data.rows).toEqual(await native("SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Gizmo'"));
    const byDefault = (await run(dash.id, dash.dashcards[0], card.id).expect(202)).body;
    expect(byDefault.data.rows).toEqual(await native("SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Widget'"));
    const cleared = (await run(dash.id, dash.dashcards[0], card.id, { parameters: [{ id: 'cat', value: null }] }).expect(202)).body;
    expect(cleared.data.rows).toEqual([[200]]);
    await s.t.app.get(QueryLogService).flush();
    const logged = await s.t.app.get(DataSource).query(`SELECT context, dashboard_id FROM query_execution WHERE card_id = ${card.id}`);
    expect(logged).toHaveLength(3);
    expect(logged.every((r: { context: string; dashboard_id: number }) => r.context === 'dashboard' && r.dashboard_id === dash.id)).toBe(
      true,
    );
  });

  it('maps onto a native variable, a native field filter, and a column of a model', async () => {
    const tags = {
      cat: { id: 't1', name: 'cat', 'display-name': 'Cat', type: 'text' },
      ff: {
        id: 't2',
        name: 'ff',
        'display-name': 'FF',
        type: 'dimension',
        dimension: ['field', category, null],
        'widget-type': 'string/=',
      },
    };
    const variable = await makeCard(
      s.t,
      s.admin,
      nativeQuery(s.db, 'SELECT COUNT(*) AS N FROM PRODUCTS WHERE 1 = 1 [[AND CATEGORY = {{cat}}]]', tags),
    );
    const fieldFilter = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT COUNT(*) AS N FROM PRODUCTS WHERE {{ff}}', tags));
    const model = await makeModel(s.t, s.admin, tableQuery(s.db, products));
    const modelCount = await makeCard(s.t, s.admin, {
      database: s.db,
      type: 'query',
      query: { 'source-table': `card__${model.id}`, aggregation: [['count']] },
    });
    const dash = await makeDashboard(
      [catParam],
      [
        {
          card_id: variable.id,
          parameter_mappings: [{ parameter_id: 'cat', card_id: variable.id, target: ['variable', ['template-tag', 'cat']] }],
        },
        {
          card_id: fieldFilter.id,
          parameter_mappings: [{ parameter_id: 'cat', card_id: fieldFilter.id, target: ['dimension', ['template-tag', 'ff']] }],
        },
        {
          card_id: model.id,
          parameter_mappings: [
            { parameter_id: 'cat', card_id: model.id, target: ['dimension', ['field', 'CATEGORY', { 'base-type': 'type/Text' }]] },
          ],
        },
        {
          card_id: modelCount.id,
          parameter_mappings: [
            { parameter_id: 'cat', card_id: modelCount.id, target: ['dimension', ['field', 'CATEGORY', { 'base-type': 'type/Text' }]] },
          ],
        },
      ],
    );
    const expected = await native("SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Doohickey'");
    const body = { parameters: [{ id: 'cat', value: ['Doohickey'] }] };
    expect(
      (await run(dash.id, dash.dashcards[0], variable.id, { parameters: [{ id: 'cat', value: 'Doohickey' }] }).expect(202)).body.data.rows,
    ).toEqual(expected);
    expect((await run(dash.id, dash.dashcards[1], fieldFilter.id, body).expect(202)).body.data.rows).toEqual(expected);
    const modelRows = (await run(dash.id, dash.dashcards[2], model.id, body).expect(202)).body;
    expect(modelRows.status).toBe('completed');
    const catIndex = modelRows.data.cols.findIndex((c: { name: string }) => c.name === 'CATEGORY');
    expect(modelRows.data.rows.length).toBe(expected[0][0]);
    expect(new Set(modelRows.data.rows.map((r: unknown[]) => r[catIndex]))).toEqual(new Set(['Doohickey']));
    expect((await run(dash.id, dash.dashcards[3], modelCount.id, body).expect(202)).body.data.rows).toEqual(expected);
  });

  it("runs the dashcard's series cards with their own mappings, and the pivot twin", async () => {
    const main = await makeCard(s.t, s.admin, tableQuery(s.db, products, { aggregation: [['count']] }));
    const series = await makeCard(
      s.t,
      s.admin,
      tableQuery(s.db, products, { aggregation: [['sum', ['field', s.field('PRODUCTS', 'PRICE'), null]]] }),
    );
    const dash = await makeDashboard(
      [catParam],
      [
        {
          card_id: main.id,
          series: [series.id],
          parameter_mappings: [
            { parameter_id: 'cat', card_id: main.id, target: ['dimension', ['field', category, null]] },
            { parameter_id: 'cat', card_id: series.id, target: ['dimension', ['field', category, null]] },
          ],
        },
      ],
    );
    const body = { parameters: [{ id: 'cat', value: ['Gizmo'] }] };
    const ran = (await run(dash.id, dash.dashcards[0], series.id, body).expect(202)).body;
    expect(ran.data.rows).toEqual(await native("SELECT SUM(PRICE) FROM PRODUCTS WHERE CATEGORY = 'Gizmo'"));
    const pivot = await http()
      .post(`/api/dashboard/pivot/${dash.id}/dashcard/${dash.dashcards[0]}/card/${main.id}/query`)
      .set(auth(s.admin))
      .send(body)
      .expect(202);
    expect(pivot.body.status).toBe('completed');
    const count = pivot.body.data.cols.findIndex((c: { name: string }) => c.name === 'count');
    expect(pivot.body.data.rows.map((r: unknown[]) => r[count])).toEqual(
      (await native("SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Gizmo'"))[0],
    );
    // The pivot run is logged as the plain dashcard run is: context `dashboard`, with its dashboard.
    await s.t.app.get(QueryLogService).flush();
    const logged = await s.t.app.get(DataSource).query(`SELECT context, dashboard_id FROM query_execution WHERE card_id = ${main.id}`);
    expect(logged.length).toBeGreaterThan(0);
    for (const r of logged as Array<{ context: string; dashboard_id: number }>)
      expect([r.context, Number(r.dashboard_id)]).toEqual(['dashboard', dash.id]);
  });

  it('refuses a card not on the dashcard, a dashcard not on the dashboard, and unknown parameters', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, products, { aggregation: [['count']] }));
    const other = await makeCard(s.t, s.admin, tableQuery(s.db, products, { aggregation: [['count']] }));
    const dash = await makeDashboard([catParam], [{ card_id: card.id }]);
    const elsewhere = await makeDashboard([catParam], [{ card_id: other.id }]);
    expect404(await run(dash.id, dash.dashcards[0], other.id));
    expect404(await run(dash.id, elsewhere.dashcards[0], other.id));
    expect404(await run(999_999, dash.dashcards[0], card.id));
    expectMessage(
      await run(dash.id, dash.dashcards[0], card.id, { parameters: [{ id: 'nope', value: 1 }] }),
      'Dashboard ' + dash.id + ' does not have a parameter with the ID "nope".',
    );
    expect400(
      await run(dash.id, dash.dashcards[0], card.id, { parameters: [{ value: 1 }] }),
      'parameters',
      'value must be an array of maps, each with an `id`.',
    );
    expect400(await run(dash.id, dash.dashcards[0], card.id, { parameters: {} }), 'parameters', 'value must be an array.');
    expect400(
      await http().post(`/api/dashboard/0/dashcard/1/card/1/query`).set(auth(s.admin)).send({}),
      'dashboard-id',
      'value must be an integer greater than zero.',
    );
    expect400(
      await http().post(`/api/dashboard/1/dashcard/x/card/1/query`).set(auth(s.admin)).send({}),
      'dashcard-id',
      'value must be an integer greater than zero.',
    );
    expect400(
      await http().post(`/api/dashboard/pivot/1/dashcard/1/card/-1/query`).set(auth(s.admin)).send({}),
      'card-id',
      'value must be an integer greater than zero.',
    );
  });

  it('needs read access to the dashboard and to the card', async () => {
    const hidden = await makeCollection(s.t, 'Hidden');
    await grant(s.t, 1, hidden, null);
    const open = await makeCard(s.t, s.admin, tableQuery(s.db, products, { aggregation: [['count']] }));
    const secret = await makeCard(s.t, s.admin, tableQuery(s.db, products, { aggregation: [['count']] }), { collection_id: hidden });
    const hiddenDash = await makeDashboard([], [{ card_id: open.id }], hidden);
    const openDash = await makeDashboard([], [{ card_id: secret.id }]);
    expect403(await run(hiddenDash.id, hiddenDash.dashcards[0], open.id, {}, s.user.session));
    expect403(await run(openDash.id, openDash.dashcards[0], secret.id, {}, s.user.session));
    expect((await run(openDash.id, openDash.dashcards[0], secret.id).expect(202)).body.status).toBe('completed');
  });
});

/** A dashboard's parameter values: fields merged across dashcards, static lists, chain filters through FK paths. */
describe('dashboard queries: parameter values and chain filters', () => {
  let s: SampleApp;
  let adminId: number;
  let sample: Database.Database;
  const http = () => s.t.http();
  const values = (d: number, key: string, query = '', session = s.admin) =>
    http().get(`/api/dashboard/${d}/params/${key}/values${query}`).set(auth(session));
  const column = (sql: string, ...params: unknown[]) =>
    (
      sample
        .prepare(sql)
        .raw()
        .all(...params) as unknown[][]
    ).map((r) => [r[0]]);

  async function makeDashboard(parameters: unknown[], dashcards: Dashcard[]): Promise<number> {
    const ds = s.t.app.get(DataSource);
    const d = await ds
      .getRepository(Dashboard)
      .save(ds.getRepository(Dashboard).create({ name: 'Dash', parameters: JSON.stringify(parameters), creator_id: adminId }));
    for (const dc of dashcards) {
      await ds
        .getRepository(DashboardCard)
        .save({ dashboard_id: d.id, card_id: dc.card_id, parameter_mappings: JSON.stringify(dc.parameter_mappings ?? []) });
    }
    return d.id;
  }

  beforeAll(async () => {
    s = await startSampleApp();
    adminId = (await http().get('/api/user/current').set(auth(s.admin)).expect(200)).body.id;
    const rows = await s.t.app.get(DataSource).query(`SELECT details FROM metabase_database WHERE id = ${s.db}`);
    const details = typeof rows[0].details === 'string' ? JSON.parse(rows[0].details) : rows[0].details;
    sample = new Database(details.db, { readonly: true, fileMustExist: true });
  });
  afterAll(async () => {
    sample?.close();
    await s.t.close();
  });

  it('narrows PEOPLE.STATE by PRODUCTS.CATEGORY through ORDERS, as an independent SQL query does', async () => {
    const orders = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('ORDERS').id));
    const people = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PEOPLE').id));
    const state = s.field('PEOPLE', 'STATE');
    const cat = s.field('PRODUCTS', 'CATEGORY');
    const d = await makeDashboard(
      [
        { id: 'st', type: 'string/=', slug: 'state' },
        { id: 'cat', type: 'string/=', slug: 'category' },
        { id: 'idle', type: 'string/=' },
        { id: 'who', type: 'id' },
      ],
      [
        {
          card_id: orders.id,
          parameter_mappings: [
            {
              parameter_id: 'st',
              card_id: orders.id,
              target: ['dimension', ['field', state, { 'source-field': s.field('ORDERS', 'USER_ID') }]],
            },
            {
              parameter_id: 'cat',
              card_id: orders.id,
              target: ['dimension', ['field', cat, { 'source-field': s.field('ORDERS', 'PRODUCT_ID') }]],
            },
          ],
        },
        {
          card_id: people.id,
          parameter_mappings: [
            { parameter_id: 'st', card_id: people.id, target: ['dimension', ['field', state, null]] },
            { parameter_id: 'who', card_id: people.id, target: ['dimension', ['field', s.field('PEOPLE', 'ID'), null]] },
          ],
        },
      ],
    );
    const all = (await values(d, 'st').expect(200)).body;
    expect(all).toEqual({ values: column('SELECT DISTINCT STATE FROM PEOPLE WHERE STATE IS NOT NULL ORDER BY 1'), has_more_values: false });
    const chained = `SELECT DISTINCT P.STATE FROM PEOPLE P JOIN ORDERS O ON O.USER_ID = P.ID JOIN PRODUCTS R ON R.ID = O.PRODUCT_ID
                      WHERE R.CATEGORY IN (?) AND P.STATE IS NOT NULL ORDER BY 1`;
    const gizmo = (await values(d, 'st', '?cat=Gizmo').expect(200)).body;
    expect(gizmo).toEqual({ values: column(chained, 'Gizmo'), has_more_values: false });
    // The Sample Database has people who never ordered: a chain filter leaves their states out only if they are alone there.
    expect(gizmo.values.length).toBeGreaterThan(0);
    const two = (await values(d, 'st', '?cat=Gizmo&cat=Widget').expect(200)).body.values;
    expect(two).toEqual(column(chained.replace('IN (?)', 'IN (?, ?)'), 'Gizmo', 'Widget'));
    const search = (await http().get(`/api/dashboard/${d}/params/st/search/a?cat=Gizmo`).set(auth(s.admin)).expect(200)).body.values;
    expect(search).toEqual(column(chained.replace('AND P.STATE IS NOT NULL', "AND LOWER(P.STATE) LIKE '%a%'"), 'Gizmo'));
    // States narrowing categories the other way; an empty constraint or one of the parameter itself is no constraint.
    const cats = (await values(d, 'cat', '?st=TX').expect(200)).body.values;
    expect(cats).toEqual(
      column(
        'SELECT DISTINCT R.CATEGORY FROM PRODUCTS R JOIN ORDERS O ON O.PRODUCT_ID = R.ID JOIN PEOPLE P ON P.ID = O.USER_ID' +
          ' WHERE P.STATE = ? ORDER BY 1',
        'TX',
      ),
    );
    expect((await values(d, 'st', '?cat=&st=TX').expect(200)).body).toEqual(all);
    // Numbers arrive as query-string text; the parameter's type and the field's make them numbers again.
    const byPerson = (await values(d, 'cat', '?who=1&who=2').expect(200)).body.values;
    expect(byPerson).toEqual(
      column(`SELECT DISTINCT R.CATEGORY FROM PRODUCTS R JOIN ORDERS O ON O.PRODUCT_ID = R.ID WHERE O.USER_ID IN (1, 2) ORDER BY 1`),
    );
    expect((await values(d, 'idle').expect(200)).body).toEqual({ values: [], has_more_values: false });
  });

  it("takes the values of a model's column from the field its result metadata names", async () => {
    const model = await makeModel(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id));
    const d = await makeDashboard(
      [{ id: 'cat', type: 'string/=' }],
      [
        {
          card_id: model.id,
          parameter_mappings: [
            { parameter_id: 'cat', card_id: model.id, target: ['dimension', ['field', 'CATEGORY', { 'base-type': 'type/Text' }]] },
          ],
        },
      ],
    );
    expect((await values(d, 'cat').expect(200)).body).toEqual({
      values: column('SELECT DISTINCT CATEGORY FROM PRODUCTS ORDER BY 1'),
      has_more_values: false,
    });
  });

  it("refuses a caller who may not read the dashboard, and a sensitive field's values to a non-admin", async () => {
    const hidden = await makeCollection(s.t, 'Hidden values');
    await grant(s.t, 1, hidden, null);
    const people = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PEOPLE').id));
    const city = s.field('PEOPLE', 'CITY');
    const mappings = [
      { parameter_id: 'city', card_id: people.id, target: ['dimension', ['field', city, null]] },
      { parameter_id: 'src', card_id: people.id, target: ['dimension', ['field', s.field('PEOPLE', 'SOURCE'), null]] },
    ];
    const params = [
      { id: 'city', type: 'string/=' },
      { id: 'src', type: 'string/=' },
    ];
    const d = await makeDashboard(params, [{ card_id: people.id, parameter_mappings: mappings }]);
    const ds = s.t.app.get(DataSource);
    await ds.getRepository(Dashboard).update({ id: d }, { collection_id: hidden });
    expect403(await values(d, 'src', '', s.user.session));
    await ds.getRepository(Dashboard).update({ id: d }, { collection_id: null });
    expect((await values(d, 'src', '', s.user.session).expect(200)).body.values).toEqual(
      column('SELECT DISTINCT SOURCE FROM PEOPLE WHERE SOURCE IS NOT NULL ORDER BY 1'),
    );
    await http().put(`/api/field/${city}`).set(auth(s.admin)).send({ visibility_type: 'sensitive' }).expect(200);
    try {
      expect403(await values(d, 'city', '?src=Twitter', s.user.session));
      expect403(await values(d, 'city', '', s.user.session));
      // The query engine reads no sensitive field, an admin's chain filter included: the reason comes back as a 400.
      expectMessage(
        await values(d, 'city', '?src=Twitter'),
        `Field ${city} ("CITY") is not available: it is marked sensitive in "breakout".`,
      );
    } finally {
      await http().put(`/api/field/${city}`).set(auth(s.admin)).send({ visibility_type: 'normal' }).expect(200);
    }
  });

  it('answers static lists, values_query_type none and search, and refuses unknown parameters', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id));
    const category = ['dimension', ['field', s.field('PRODUCTS', 'CATEGORY'), null]];
    const d = await makeDashboard(
      [
        {
          id: 'list',
          type: 'string/=',
          values_source_type: 'static-list',
          values_source_config: { values: ['apple', 'banana', 'cherry'] },
        },
        { id: 'none', type: 'string/=', values_query_type: 'none' },
        { id: 'srch', type: 'string/=', values_query_type: 'search' },
        {
          id: 'fromCard',
          type: 'string/=',
          values_source_type: 'card',
          values_source_config: { card_id: card.id, value_field: ['field', s.field('PRODUCTS', 'CATEGORY'), null] },
        },
      ],
      [
        {
          card_id: card.id,
          parameter_mappings: [
            { parameter_id: 'none', card_id: card.id, target: category },
            { parameter_id: 'srch', card_id: card.id, target: category },
          ],
        },
      ],
    );
    // `search` only tells the client to ask as the user types; the server answers both endpoints as for `list` (as Metabase does).
    expect((await values(d, 'srch').expect(200)).body).toEqual({
      values: column('SELECT DISTINCT CATEGORY FROM PRODUCTS ORDER BY 1'),
      has_more_values: false,
    });
    expect((await http().get(`/api/dashboard/${d}/params/srch/search/GET`).set(auth(s.admin)).expect(200)).body).toEqual({
      values: [['Gadget'], ['Widget']],
      has_more_values: false,
    });
    expect((await values(d, 'list').expect(200)).body).toEqual({ values: [['apple'], ['banana'], ['cherry']], has_more_values: false });
    expect((await http().get(`/api/dashboard/${d}/params/list/search/an`).set(auth(s.admin)).expect(200)).body).toEqual({
      values: [['banana']],
      has_more_values: false,
    });
    expect((await values(d, 'none').expect(200)).body).toEqual({ values: [], has_more_values: false });
    expect((await values(d, 'fromCard').expect(200)).body).toEqual({
      values: column('SELECT DISTINCT CATEGORY FROM PRODUCTS ORDER BY 1'),
      has_more_values: false,
    });
    expect((await http().get(`/api/dashboard/${d}/params/fromCard/search/GET`).set(auth(s.admin)).expect(200)).body.values).toEqual([
      ['Gadget'],
      ['Widget'],
    ]);
    expectMessage(await values(d, 'nope'), `Dashboard ${d} does not have a parameter with the ID "nope".`);
    expect404(await values(999_999, 'list'));
    expect400(await values(0, 'list'), 'id', 'value must be an integer greater than zero.');
    expect400(
      await http().get(`/api/dashboard/${d}/params/list/search/%20`).set(auth(s.admin)),
      'query',
      'value must be a non-blank string.',
    );
  });

  it('says which filtering fields a chain filter would use for each filtered field', async () => {
    const state = s.field('PEOPLE', 'STATE');
    const cat = s.field('PRODUCTS', 'CATEGORY');
    const total = s.field('ORDERS', 'TOTAL');
    const path = (q: string) => http().get(`/api/dashboard/params/valid-filter-fields${q}`).set(auth(s.admin));
    expect(
      (await path(`?filtered=${state}&filtered=${cat}&filtering=${cat}&filtering=${total}&filtering=${state}`).expect(200)).body,
    ).toEqual({ [state]: [cat, total], [cat]: [total, state] });
    expect((await path(`?filtered=${state}`).expect(200)).body).toEqual({ [state]: [] });
    expect400(await path(''), 'filtered', 'value must be an integer greater than zero, or a non-empty list of them.');
    expect400(await path('?filtered=0'), 'filtered', 'value must be an integer greater than zero, or a non-empty list of them.');
    expect400(await path(`?filtered=${state}&filtering=x`), 'filtering', 'value must be an integer greater than zero, or a list of them.');
    expect404(await path('?filtered=999999'));
  });
});
