import Database from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { DashboardCardSeries } from '../../src/schema/dashboard-card-series.entity';
import { DashboardCard } from '../../src/schema/dashboard-card.entity';
import { Dashboard } from '../../src/schema/dashboard.entity';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import { makeCard, nativeQuery, tableQuery } from '../support/card-factories';
import { expect404 } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(180_000);

interface Dashcard {
  card_id: number | null;
  parameter_mappings?: unknown[];
  series?: number[];
}

/** A publicly shared dashboard: its trimmed GET, dashcard runs with mapped parameters, field look-ups and chain filters. */
describe('public dashboard', () => {
  let s: SampleApp;
  let adminId: number;
  let sample: Database.Database;
  let products: number;
  let category: number;
  const http = () => s.t.http();
  const native = async (sql: string) =>
    (await http().post('/api/dataset').set(auth(s.admin)).send(nativeQuery(s.db, sql)).expect(202)).body.data.rows;
  const column = (sql: string, ...params: unknown[]) =>
    (
      sample
        .prepare(sql)
        .raw()
        .all(...params) as unknown[][]
    ).map((r) => [r[0]]);
  const failed = (res: { status: number; text: string }) =>
    expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: 'An error occurred.' });
  const catParam = { id: 'cat', name: 'Category', slug: 'category', type: 'string/=' };

  /** A dashboard with `parameters` and dashcards, shared: its id, its dashcards' ids and its link. */
  async function sharedDashboard(parameters: unknown[], dashcards: Dashcard[]): Promise<{ id: number; dashcards: number[]; uuid: string }> {
    const ds = s.t.app.get(DataSource);
    const d = await ds
      .getRepository(Dashboard)
      .save(
        ds
          .getRepository(Dashboard)
          .create({ name: 'Shared', description: 'For all', parameters: JSON.stringify(parameters), creator_id: adminId }),
      );
    const ids: number[] = [];
    for (const [i, dc] of dashcards.entries()) {
      const repo = ds.getRepository(DashboardCard);
      const saved = await repo.save(
        repo.create({
          dashboard_id: d.id,
          card_id: dc.card_id,
          row: i * 4,
          col: 0,
          size_x: 4,
          size_y: 4,
          parameter_mappings: JSON.stringify(dc.parameter_mappings ?? []),
          visualization_settings: '{"card.title":"Mine"}',
        }),
      );
      for (const [position, card] of (dc.series ?? []).entries())
        await ds.getRepository(DashboardCardSeries).save({ dashboardcard_id: saved.id, card_id: card, position });
      ids.push(saved.id);
    }
    const { uuid } = (await http().post(`/api/dashboard/${d.id}/public_link`).set(auth(s.admin)).expect(200)).body;
    return { id: d.id, dashcards: ids, uuid };
  }
  const run = (uuid: string, dc: number, card: number, parameters?: unknown[]) =>
    http()
      .get(`/api/public/dashboard/${uuid}/dashcard/${dc}/card/${card}`)
      .query(parameters ? { parameters: JSON.stringify(parameters) } : {});

  beforeAll(async () => {
    s = await startSampleApp();
    await http().put('/api/setting/enable-public-sharing').set(auth(s.admin)).send({ value: true }).expect(204);
    adminId = (await http().get('/api/user/current').set(auth(s.admin)).expect(200)).body.id;
    products = s.table('PRODUCTS').id;
    category = s.field('PRODUCTS', 'CATEGORY');
    const rows = await s.t.app.get(DataSource).query(`SELECT details FROM metabase_database WHERE id = ${s.db}`);
    const details = typeof rows[0].details === 'string' ? JSON.parse(rows[0].details) : rows[0].details;
    sample = new Database(details.db, { readonly: true, fileMustExist: true });
  });
  afterAll(async () => {
    sample?.close();
    await s.t.close();
  });

  it('shows the dashboard with trimmed cards, without SQL, owner or collection', async () => {
    const mbql = await makeCard(s.t, s.admin, tableQuery(s.db, products, { aggregation: [['count']] }));
    const sql = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT 42 AS ANSWER'));
    const mapping = { parameter_id: 'cat', card_id: mbql.id, target: ['dimension', ['field', category, null]] };
    const d = await sharedDashboard([catParam], [{ card_id: mbql.id, parameter_mappings: [mapping], series: [sql.id] }, { card_id: null }]);
    const body = (await http().get(`/api/public/dashboard/${d.uuid}`).expect(200)).body;
    expect(body).toMatchObject({ id: d.id, name: 'Shared', description: 'For all', parameters: [catParam], width: 'fixed', tabs: [] });
    expect(Object.keys(body.param_fields)).toEqual([String(category)]);
    expect(body.dashcards).toHaveLength(2);
    expect(body.dashcards[0]).toEqual({
      id: d.dashcards[0],
      card_id: mbql.id,
      dashboard_id: d.id,
      col: 0,
      row: 0,
      size_x: 4,
      size_y: 4,
      dashboard_tab_id: null,
      parameter_mappings: [mapping],
      visualization_settings: { 'card.title': 'Mine' },
      card: {
        id: mbql.id,
        name: mbql.name,
        description: null,
        display: 'table',
        visualization_settings: {},
        dataset_query: { type: 'query' },
      },
      series: [
        {
          id: sql.id,
          name: sql.name,
          description: null,
          display: 'table',
          visualization_settings: {},
          dataset_query: { type: 'native', native: { 'template-tags': {} } },
        },
      ],
    });
    expect(body.dashcards[1]).toMatchObject({ card_id: null, card: null });
    expect(JSON.stringify(body)).not.toMatch(/SELECT|source-table|collection|creator|"database"/);
  });

  it("runs a dashcard with the dashboard's parameters mapped onto its card and series, logged as public-dashboard", async () => {
    const main = await makeCard(s.t, s.admin, tableQuery(s.db, products, { aggregation: [['count']] }));
    const series = await makeCard(
      s.t,
      s.admin,
      tableQuery(s.db, products, { aggregation: [['sum', ['field', s.field('PRODUCTS', 'PRICE'), null]]] }),
    );
    const d = await sharedDashboard(
      [{ ...catParam, default: ['Widget'] }],
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
    const gizmo = (await run(d.uuid, d.dashcards[0], main.id, [{ id: 'cat', value: ['Gizmo'] }]).expect(202)).body;
    expect(Object.keys(gizmo).sort()).toEqual(['data', 'json_query', 'status']);
    expect(gizmo.data.rows).toEqual(await native("SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Gizmo'"));
    expect((await run(d.uuid, d.dashcards[0], main.id).expect(202)).body.data.rows).toEqual(
      await native("SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Widget'"),
    );
    const sum = (await run(d.uuid, d.dashcards[0], series.id, [{ id: 'cat', value: ['Gizmo'] }]).expect(202)).body;
    expect(sum.data.rows).toEqual(await native("SELECT SUM(PRICE) FROM PRODUCTS WHERE CATEGORY = 'Gizmo'"));
    const pivot = (
      await http()
        .get(`/api/public/pivot/dashboard/${d.uuid}/dashcard/${d.dashcards[0]}/card/${main.id}`)
        .query({ parameters: JSON.stringify([{ id: 'cat', value: ['Gizmo'] }]) })
        .expect(202)
    ).body;
    expect(pivot).toMatchObject({ status: 'completed', data: { rows: [[0, gizmo.data.rows[0][0]]] } });
    await s.t.app.get(QueryLogService).flush();
    const logged = await s.t.app
      .get(DataSource)
      .query(`SELECT context, executor_id, dashboard_id FROM query_execution WHERE card_id IN (${main.id}, ${series.id})`);
    expect(logged.length).toBeGreaterThanOrEqual(3);
    for (const r of logged) expect([r.context, r.executor_id, Number(r.dashboard_id)]).toEqual(['public-dashboard', null, d.id]);
  });

  it('refuses cards not on the dashcard, unknown parameters and bad ids; an archived card is not run', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, products, { aggregation: [['count']] }));
    const other = await makeCard(s.t, s.admin, tableQuery(s.db, products, { aggregation: [['count']] }));
    const d = await sharedDashboard([catParam], [{ card_id: card.id }]);
    const elsewhere = await sharedDashboard([catParam], [{ card_id: other.id }]);
    expect404(await run(d.uuid, d.dashcards[0], other.id));
    expect404(await run(d.uuid, elsewhere.dashcards[0], other.id));
    failed(await run(d.uuid, d.dashcards[0], card.id, [{ id: 'nope', value: 1 }]));
    failed(await http().get(`/api/public/dashboard/${d.uuid}/dashcard/0/card/${card.id}`));
    failed(await http().get(`/api/public/dashboard/${d.uuid}/dashcard/${d.dashcards[0]}/card/${card.id}?parameters=nope`));
    await http().put(`/api/card/${card.id}`).set(auth(s.admin)).send({ archived: true }).expect(200);
    expect404(await run(d.uuid, d.dashcards[0], card.id));
    expect((await http().get(`/api/public/dashboard/${d.uuid}`).expect(200)).body.dashcards).toEqual([]);
  });

  it('stops serving everything once its link is revoked', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, products, { aggregation: [['count']] }));
    const d = await sharedDashboard(
      [catParam],
      [
        {
          card_id: card.id,
          parameter_mappings: [{ parameter_id: 'cat', card_id: card.id, target: ['dimension', ['field', category, null]] }],
        },
      ],
    );
    await http().get(`/api/public/dashboard/${d.uuid}/params/cat/values`).expect(200);
    await http().delete(`/api/dashboard/${d.id}/public_link`).set(auth(s.admin)).expect(204);
    expect404(await http().get(`/api/public/dashboard/${d.uuid}`));
    expect404(await run(d.uuid, d.dashcards[0], card.id));
    expect404(await http().get(`/api/public/dashboard/${d.uuid}/params/cat/values`));
    expect404(await http().get(`/api/public/dashboard/${d.uuid}/field/${category}/values`));
  });

  it('serves field values, search and remapping only for the fields its parameters are mapped to', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, products));
    const vendor = s.field('PRODUCTS', 'VENDOR');
    const d = await sharedDashboard(
      [catParam],
      [
        {
          card_id: card.id,
          parameter_mappings: [{ parameter_id: 'cat', card_id: card.id, target: ['dimension', ['field', category, null]] }],
        },
      ],
    );
    expect((await http().get(`/api/public/dashboard/${d.uuid}/field/${category}/values`).expect(200)).body.values).toEqual([
      ['Doohickey'],
      ['Gadget'],
      ['Gizmo'],
      ['Widget'],
    ]);
    expect(
      (
        await http()
          .get(`/api/public/dashboard/${d.uuid}/field/${category}/search/${category}`)
          .query({ value: 'wid', limit: '5' })
          .expect(200)
      ).body,
    ).toEqual([['Widget', 'Widget']]);
    expect(
      (await http().get(`/api/public/dashboard/${d.uuid}/field/${category}/remapping/${category}`).query({ value: 'Gizmo' }).expect(200))
        .body,
    ).toEqual(['Gizmo', 'Gizmo']);
    failed(await http().get(`/api/public/dashboard/${d.uuid}/field/${vendor}/values`));
    failed(await http().get(`/api/public/dashboard/${d.uuid}/field/${vendor}/search/${vendor}`).query({ value: 'a' }));
    failed(await http().get(`/api/public/dashboard/${d.uuid}/field/${category}/search/${category}`).query({ value: 'a', limit: '0' }));
  });

  it('reads no sensitive field for a parameter, whatever its mapping', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, products));
    const vendor = s.field('PRODUCTS', 'VENDOR');
    const d = await sharedDashboard(
      [{ id: 'v', type: 'string/=', slug: 'vendor' }],
      [{ card_id: card.id, parameter_mappings: [{ parameter_id: 'v', card_id: card.id, target: ['dimension', ['field', vendor, null]] }] }],
    );
    expect((await http().get(`/api/public/dashboard/${d.uuid}/params/v/values`).expect(200)).body.values.length).toBeGreaterThan(0);
    await http().put(`/api/field/${vendor}`).set(auth(s.admin)).send({ visibility_type: 'sensitive' }).expect(200);
    try {
      failed(await http().get(`/api/public/dashboard/${d.uuid}/params/v/values`));
      failed(await http().get(`/api/public/dashboard/${d.uuid}/params/v/search/a`));
      failed(await http().get(`/api/public/dashboard/${d.uuid}/field/${vendor}/values`));
      expect((await http().get(`/api/public/dashboard/${d.uuid}`).expect(200)).body.param_fields).toEqual({});
    } finally {
      await http().put(`/api/field/${vendor}`).set(auth(s.admin)).send({ visibility_type: 'normal' }).expect(200);
    }
  });

  it("narrows a parameter's values by the others (chain filter), and searches them", async () => {
    const orders = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('ORDERS').id));
    const state = s.field('PEOPLE', 'STATE');
    const d = await sharedDashboard(
      [
        { id: 'st', type: 'string/=', slug: 'state' },
        { id: 'cat', type: 'string/=', slug: 'category' },
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
              target: ['dimension', ['field', category, { 'source-field': s.field('ORDERS', 'PRODUCT_ID') }]],
            },
          ],
        },
      ],
    );
    const all = (await http().get(`/api/public/dashboard/${d.uuid}/params/st/values`).expect(200)).body;
    expect(all).toEqual({ values: column('SELECT DISTINCT STATE FROM PEOPLE WHERE STATE IS NOT NULL ORDER BY 1'), has_more_values: false });
    const chained = `SELECT DISTINCT P.STATE FROM PEOPLE P JOIN ORDERS O ON O.USER_ID = P.ID JOIN PRODUCTS R ON R.ID = O.PRODUCT_ID
                      WHERE R.CATEGORY IN (?) AND P.STATE IS NOT NULL ORDER BY 1`;
    expect((await http().get(`/api/public/dashboard/${d.uuid}/params/st/values?cat=Gizmo`).expect(200)).body).toEqual({
      values: column(chained, 'Gizmo'),
      has_more_values: false,
    });
    const search = (await http().get(`/api/public/dashboard/${d.uuid}/params/st/search/a?cat=Gizmo`).expect(200)).body.values;
    expect(search).toEqual(column(chained.replace('AND P.STATE IS NOT NULL', "AND LOWER(P.STATE) LIKE '%a%'"), 'Gizmo'));
    failed(await http().get(`/api/public/dashboard/${d.uuid}/params/nope/values`));
  });
});
