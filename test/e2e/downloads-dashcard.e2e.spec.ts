import { DataSource } from 'typeorm';
import { DashboardCard } from '../../src/schema/dashboard-card.entity';
import { Dashboard } from '../../src/schema/dashboard.entity';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import { makeCard, nativeQuery, tableQuery } from '../support/card-factories';
import { binary, parseCsv, readXlsx } from '../support/downloads';
import { expect400, expect404 } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(90_000);

const STAMP = '\\d{4}-\\d\\d-\\d\\dT\\d{6}';

describe('POST /api/dashboard/:dashboard-id/dashcard/:dashcard-id/card/:card-id/query/:export-format', () => {
  let s: SampleApp;
  let adminId: number;
  let card: { id: number };
  let dash: { id: number; dashcard: number };
  const catParam = { id: 'cat', name: 'Category', slug: 'category', type: 'string/=' };
  const path = (format: string, d = dash.id, dc = dash.dashcard, c = card.id) =>
    `/api/dashboard/${d}/dashcard/${dc}/card/${c}/query/${format}`;
  const form = (format: string, fields: Record<string, string> = {}) =>
    s.t.http().post(path(format)).set(auth(s.admin)).type('form').send(fields).buffer(true).parse(binary);
  const count = async (where = '') =>
    (
      await s.t
        .http()
        .post('/api/dataset')
        .set(auth(s.admin))
        .send(nativeQuery(s.db, `SELECT count(*) FROM PRODUCTS ${where}`))
        .expect(202)
    ).body.data.rows[0][0];

  /** A dashboard with the category parameter mapped onto the card's CATEGORY field, and dashcard settings. */
  async function makeDashboard(
    cardId: number,
    dashcardViz: Record<string, unknown>,
    parameters: unknown[] = [{ ...catParam, default: ['Widget'] }],
  ) {
    const ds = s.t.app.get(DataSource);
    const d = await ds
      .getRepository(Dashboard)
      .save(
        ds
          .getRepository(Dashboard)
          .create({ name: 'Dash', parameters: JSON.stringify(parameters), creator_id: adminId, collection_id: null }),
      );
    const mappings = [{ parameter_id: 'cat', card_id: cardId, target: ['dimension', ['field', s.field('PRODUCTS', 'CATEGORY'), null]] }];
    const repo = ds.getRepository(DashboardCard);
    const dc = await repo.save(
      repo.create({
        dashboard_id: d.id,
        card_id: cardId,
        parameter_mappings: JSON.stringify(mappings),
        visualization_settings: JSON.stringify(dashcardViz),
      }),
    );
    return { id: d.id, dashcard: dc.id };
  }

  beforeAll(async () => {
    s = await startSampleApp();
    adminId = (await s.t.http().get('/api/user/current').set(auth(s.admin)).expect(200)).body.id;
    const query = tableQuery(s.db, s.table('PRODUCTS').id, {
      fields: [
        ['field', s.field('PRODUCTS', 'ID'), null],
        ['field', s.field('PRODUCTS', 'TITLE'), null],
        ['field', s.field('PRODUCTS', 'CATEGORY'), null],
      ],
      'order-by': [['asc', ['field', s.field('PRODUCTS', 'ID'), null]]],
    });
    const viz = { column_settings: { '["name","TITLE"]': { column_title: 'Product' }, '["name","CATEGORY"]': { column_title: 'Kind' } } };
    card = await makeCard(s.t, s.admin, query, { name: 'Products by kind', visualization_settings: viz });
    // The dashcard renames CATEGORY again and hides ID: its settings go over the card's.
    dash = await makeDashboard(card.id, {
      column_settings: { '["name","CATEGORY"]': { column_title: 'Category!' } },
      'table.columns': [
        { name: 'CATEGORY', enabled: true },
        { name: 'TITLE', enabled: true },
        { name: 'ID', enabled: false },
      ],
    });
  });
  afterAll(() => s.t.close());

  it('downloads every format with the dashboard parameters mapped as the dashcard query maps them (the default too)', async () => {
    const widgets = await count("WHERE CATEGORY = 'Widget'");
    const gizmos = await count("WHERE CATEGORY = 'Gizmo'");
    const csv = await form('csv').expect(200);
    expect(csv.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="Products by kind_${STAMP}\\.csv"$`));
    const rows = parseCsv(csv.body.toString());
    expect(rows[0]).toEqual(['Category!', 'Product']);
    expect(rows.slice(1)).toHaveLength(widgets);
    expect(new Set(rows.slice(1).map((r) => r[0]))).toEqual(new Set(['Widget']));

    const gizmo = JSON.stringify([{ id: 'cat', value: ['Gizmo'] }]);
    const json = await form('json', { parameters: gizmo }).expect(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    const objects = JSON.parse(json.body.toString());
    expect(objects).toHaveLength(gizmos);
    expect(Object.keys(objects[0])).toEqual(['Category!', 'Product']);

    const xlsx = await form('xlsx', { parameters: gizmo }).expect(200);
    expect(xlsx.headers['content-disposition']).toMatch(/\.xlsx"$/);
    const sheet = await readXlsx(xlsx.body);
    expect(sheet.getRow(1).values).toEqual([undefined, 'Category!', 'Product']);
    expect(sheet.getCell('A1').font?.bold).toBe(true);
    expect(sheet.rowCount).toBe(gizmos + 1);

    const api = await s.t
      .http()
      .post(path('api'))
      .set(auth(s.admin))
      .send({ parameters: [{ id: 'cat', value: null }] })
      .expect(200);
    expect(api.body.row_count).toBe(await count());
  });

  it('logs each download with its context, the card and the dashboard', async () => {
    await s.t.app.get(QueryLogService).flush();
    const before = (await s.t.app.get(DataSource).query(`SELECT id FROM query_execution WHERE card_id = ${card.id}`)).length;
    for (const format of ['csv', 'xlsx', 'json', 'api']) await form(format).expect(200);
    await s.t.app.get(QueryLogService).flush();
    const rows = await s.t.app
      .get(DataSource)
      .query(`SELECT context, dashboard_id FROM query_execution WHERE card_id = ${card.id} ORDER BY id`);
    expect(rows.slice(before).map((r: { context: string; dashboard_id: number }) => [r.context, Number(r.dashboard_id)])).toEqual([
      ['csv-download', dash.id],
      ['xlsx-download', dash.id],
      ['json-download', dash.id],
      ['dashboard', dash.id],
    ]);
  });

  it('validates the ids, the format and the parameters, and answers 404 for a card not on the dashcard', async () => {
    const post = (p: string, body: Record<string, unknown>, type: 'form' | 'json' = 'form') =>
      s.t.http().post(p).set(auth(s.admin)).type(type).send(body);
    expect400(await post(path('pdf'), {}), 'export-format', 'value must be one of: `csv`, `api`, `xlsx`, `json`.');
    expect400(await post(path('csv'), { parameters: 'nope' }), 'parameters', 'value must be a valid JSON string.');
    expect400(
      await post(path('csv'), { parameters: [{ value: 1 }] }, 'json'),
      'parameters',
      'value must be an array of maps, each with an `id`.',
    );
    expect400(await post(path('csv'), { format_rows: 'maybe' }), 'format_rows', 'value must be a valid boolean string.');
    expect400(await post(path('csv', 0), {}), 'dashboard-id', 'value must be an integer greater than zero.');
    const other = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT 1 AS one'));
    expect404(await post(path('csv', dash.id, dash.dashcard, other.id), {}));
    expect404(await post(path('csv', dash.id, 999999), {}));
  });
});
