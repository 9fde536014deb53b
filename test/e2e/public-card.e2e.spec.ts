import { DataSource } from 'typeorm';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import { makeCard, nativeQuery, tableQuery } from '../support/card-factories';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(180_000);

/** A publicly shared question: its trimmed GET, its runs in the public shape, its field and parameter look-ups. */
describe('public card', () => {
  let s: SampleApp;
  let products: number;
  let category: number;
  let vendor: number;
  const http = () => s.t.http();
  const share = async (cardId: number): Promise<string> =>
    (await http().post(`/api/card/${cardId}/public_link`).set(auth(s.admin)).expect(200)).body.uuid;
  const native = async (sql: string) =>
    (await http().post('/api/dataset').set(auth(s.admin)).send(nativeQuery(s.db, sql)).expect(202)).body.data.rows;
  const failed = (res: { status: number; text: string }) =>
    expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: 'An error occurred.' });
  const catParam = { id: 'cat', name: 'Category', slug: 'category', type: 'string/=' };

  beforeAll(async () => {
    s = await startSampleApp();
    await http().put('/api/setting/enable-public-sharing').set(auth(s.admin)).send({ value: true }).expect(204);
    products = s.table('PRODUCTS').id;
    category = s.field('PRODUCTS', 'CATEGORY');
    vendor = s.field('PRODUCTS', 'VENDOR');
  });
  afterAll(() => s.t.close());

  it('shows an MBQL card without its query, owner, collection or database', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, products, { aggregation: [['count']] }), {
      description: 'How many',
      parameters: [{ ...catParam, target: ['dimension', ['field', category, null]] }],
    });
    const body = (
      await http()
        .get(`/api/public/card/${await share(card.id)}`)
        .expect(200)
    ).body;
    expect(Object.keys(body).sort()).toEqual([
      'dataset_query',
      'description',
      'display',
      'id',
      'name',
      'param_fields',
      'parameters',
      'visualization_settings',
    ]);
    expect(body).toMatchObject({
      id: card.id,
      name: card.name,
      description: 'How many',
      display: 'table',
      dataset_query: { type: 'query' },
    });
    expect(body.parameters).toEqual([{ ...catParam, target: ['dimension', ['field', category, null]] }]);
    expect(Object.keys(body.param_fields)).toEqual([String(category)]);
    expect(body.param_fields[String(category)]).toMatchObject({
      id: category,
      table_id: products,
      display_name: 'Category',
      base_type: 'type/Text',
    });
    expect(JSON.stringify(body)).not.toMatch(/source-table|"database"|collection|creator/);
  });

  it("shows a SQL card's template tags but never its SQL, with parameters derived from the tags", async () => {
    const tags = { cat: { id: 't1', name: 'cat', 'display-name': 'Cat', type: 'text' } };
    const card = await makeCard(
      s.t,
      s.admin,
      nativeQuery(s.db, 'SELECT COUNT(*) AS N FROM PRODUCTS WHERE 1 = 1 [[AND CATEGORY = {{cat}}]]', tags),
    );
    const body = (
      await http()
        .get(`/api/public/card/${await share(card.id)}`)
        .expect(200)
    ).body;
    expect(body.dataset_query).toEqual({ type: 'native', native: { 'template-tags': tags } });
    expect(body.parameters).toEqual([
      expect.objectContaining({ id: 't1', slug: 'cat', type: 'category', target: ['variable', ['template-tag', 'cat']] }),
    ]);
    expect(JSON.stringify(body)).not.toContain('SELECT');
  });

  it('runs the card with parameters, answers in the public shape, and logs a public-question run without an executor', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, products, { aggregation: [['count']] }), {
      parameters: [{ ...catParam, target: ['dimension', ['field', category, null]] }],
    });
    const uuid = await share(card.id);
    const all = await http().get(`/api/public/card/${uuid}/query`).expect(202);
    expect(Object.keys(all.body).sort()).toEqual(['data', 'json_query', 'status']);
    expect(Object.keys(all.body.data).sort()).toEqual(['cols', 'insights', 'results_timezone', 'rows']);
    expect(all.body).toMatchObject({ status: 'completed', data: { rows: [[200]] }, json_query: { parameters: [] } });
    const parameters = JSON.stringify([
      { id: 'cat', type: 'string/=', target: ['dimension', ['field', category, null]], value: ['Gizmo'] },
    ]);
    const gizmo = (await http().get(`/api/public/card/${uuid}/query`).query({ parameters }).expect(202)).body;
    expect(gizmo.data.rows).toEqual(await native("SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Gizmo'"));
    expect(gizmo.json_query.parameters).toEqual([expect.objectContaining({ value: ['Gizmo'] })]);
    await s.t.app.get(QueryLogService).flush();
    const logged = await s.t.app.get(DataSource).query(`SELECT context, executor_id FROM query_execution WHERE card_id = ${card.id}`);
    expect(logged).toEqual([
      { context: 'public-question', executor_id: null },
      { context: 'public-question', executor_id: null },
    ]);
  });

  it("applies a viewer's values only through the card's own parameters, never on a field of the viewer's choosing", async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, products, { aggregation: [['count']] }), {
      parameters: [{ ...catParam, target: ['dimension', ['field', category, null]] }],
    });
    const uuid = await share(card.id);
    const query = (p: unknown[]) =>
      http()
        .get(`/api/public/card/${uuid}/query`)
        .query({ parameters: JSON.stringify(p) });
    // The viewer's own target is ignored: the value filters CATEGORY, as the card's parameter says.
    const retargeted = (
      await query([{ id: 'cat', type: 'string/=', target: ['dimension', ['field', vendor, null]], value: ['Gizmo'] }]).expect(202)
    ).body;
    expect(retargeted.data.rows).toEqual(await native("SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Gizmo'"));
    failed(await query([{ type: 'string/=', target: ['dimension', ['field', vendor, null]], value: ['Acme'] }]));
    failed(await query([{ id: 'nope', value: ['Gizmo'] }]));
    failed(
      await http()
        .get(`/api/public/card/${uuid}/query/csv`)
        .query({ parameters: JSON.stringify([{ id: 'nope', value: 1 }]) }),
    );
  });

  it('answers a failed run without its error, SQL or database', async () => {
    const card = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT NO_SUCH_COLUMN FROM PRODUCTS'));
    const body = (
      await http()
        .get(`/api/public/card/${await share(card.id)}/query`)
        .expect(202)
    ).body;
    expect(body).toEqual({
      status: 'failed',
      error: 'An error occurred while running the query.',
      json_query: { parameters: [] },
      data: { rows: [], cols: [] },
    });
  });

  it('runs the pivot query of a pivot card', async () => {
    const card = await makeCard(
      s.t,
      s.admin,
      tableQuery(s.db, products, { aggregation: [['count']], breakout: [['field', category, null]] }),
      {
        display: 'pivot',
        visualization_settings: {
          'pivot_table.column_split': { rows: [['field', category, null]], columns: [], values: [['aggregation', 0]] },
        },
      },
    );
    const body = (
      await http()
        .get(`/api/public/pivot/card/${await share(card.id)}/query`)
        .expect(202)
    ).body;
    expect(body.status).toBe('completed');
    expect(body.data.cols.map((c: { name: string }) => c.name)).toEqual(['CATEGORY', 'pivot-grouping', 'count']);
    expect(body.data.rows).toContainEqual([null, 1, 200]);
  });

  it('serves field values, search and remapping only for the fields its parameters use', async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, products), {
      parameters: [{ ...catParam, target: ['dimension', ['field', category, null]] }],
    });
    const uuid = await share(card.id);
    const values = (await http().get(`/api/public/card/${uuid}/field/${category}/values`).expect(200)).body;
    expect(values).toEqual({ field_id: category, values: [['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']], has_more_values: false });
    expect(
      (await http().get(`/api/public/card/${uuid}/field/${category}/search/${category}`).query({ value: 'gi' }).expect(200)).body,
    ).toEqual([['Gizmo', 'Gizmo']]);
    expect(
      (await http().get(`/api/public/card/${uuid}/field/${category}/remapping/${category}`).query({ value: 'Gadget' }).expect(200)).body,
    ).toEqual(['Gadget', 'Gadget']);
    failed(await http().get(`/api/public/card/${uuid}/field/${vendor}/values`));
    failed(await http().get(`/api/public/card/${uuid}/field/${vendor}/search/${vendor}`).query({ value: 'a' }));
    failed(await http().get(`/api/public/card/${uuid}/field/${category}/search/${vendor}`).query({ value: 'a' }));
    failed(await http().get(`/api/public/card/${uuid}/field/${vendor}/remapping/${vendor}`).query({ value: 'a' }));
    failed(await http().get(`/api/public/card/${uuid}/field/${category}/search/${category}`));
  });

  it("serves a field filter tag's field, and no sensitive field even when a parameter uses it", async () => {
    const tags = {
      ff: { id: 't2', name: 'ff', 'display-name': 'FF', type: 'dimension', dimension: ['field', vendor, null], 'widget-type': 'string/=' },
    };
    const card = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT COUNT(*) AS N FROM PRODUCTS WHERE {{ff}}', tags));
    const uuid = await share(card.id);
    expect((await http().get(`/api/public/card/${uuid}/field/${vendor}/values`).expect(200)).body.field_id).toBe(vendor);
    const withParam = await makeCard(s.t, s.admin, tableQuery(s.db, products), {
      parameters: [{ id: 'v', name: 'Vendor', slug: 'vendor', type: 'string/=', target: ['dimension', ['field', vendor, null]] }],
    });
    const paramUuid = await share(withParam.id);
    await http().get(`/api/public/card/${paramUuid}/params/v/values`).expect(200);
    await http().put(`/api/field/${vendor}`).set(auth(s.admin)).send({ visibility_type: 'sensitive' }).expect(200);
    try {
      failed(await http().get(`/api/public/card/${uuid}/field/${vendor}/values`));
      failed(await http().get(`/api/public/card/${paramUuid}/params/v/values`));
      failed(await http().get(`/api/public/card/${paramUuid}/params/v/search/a`));
      expect((await http().get(`/api/public/card/${uuid}`).expect(200)).body.param_fields).toEqual({});
    } finally {
      await http().put(`/api/field/${vendor}`).set(auth(s.admin)).send({ visibility_type: 'normal' }).expect(200);
    }
  });

  it("lists and searches a parameter's values, static lists included", async () => {
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, products), {
      parameters: [
        { ...catParam, target: ['dimension', ['field', category, null]] },
        {
          id: 'size',
          name: 'Size',
          slug: 'size',
          type: 'string/=',
          values_source_type: 'static-list',
          values_source_config: { values: ['S', 'M', 'L'] },
          target: ['dimension', ['field', vendor, null]],
        },
      ],
    });
    const uuid = await share(card.id);
    expect((await http().get(`/api/public/card/${uuid}/params/cat/values`).expect(200)).body).toEqual({
      values: [['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']],
      has_more_values: false,
    });
    expect((await http().get(`/api/public/card/${uuid}/params/cat/search/adg`).expect(200)).body).toEqual({
      values: [['Gadget']],
      has_more_values: false,
    });
    expect((await http().get(`/api/public/card/${uuid}/params/size/values`).expect(200)).body).toEqual({
      values: [['S'], ['M'], ['L']],
      has_more_values: false,
    });
    failed(await http().get(`/api/public/card/${uuid}/params/nope/values`));
  });

  it('downloads the results as CSV, XLSX or JSON with parameters, or in the public shape as api, logged as downloads', async () => {
    const card = await makeCard(
      s.t,
      s.admin,
      tableQuery(s.db, products, { aggregation: [['count']], breakout: [['field', category, null]] }),
      {
        name: 'Per category',
        parameters: [{ ...catParam, target: ['dimension', ['field', category, null]] }],
      },
    );
    const uuid = await share(card.id);
    const parameters = JSON.stringify([{ id: 'cat', value: ['Gizmo', 'Widget'] }]);
    const csv = await http().get(`/api/public/card/${uuid}/query/csv`).query({ parameters }).expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="Per category_\d{4}-\d\d-\d\dT\d{6}\.csv"/);
    const counts = await native(
      "SELECT CATEGORY, COUNT(*) FROM PRODUCTS WHERE CATEGORY IN ('Gizmo', 'Widget') GROUP BY CATEGORY ORDER BY CATEGORY",
    );
    expect(csv.text.trim().split(/\r?\n/)).toEqual(['Category,Count', ...counts.map((r: unknown[]) => r.join(','))]);
    const json = (await http().get(`/api/public/card/${uuid}/query/json`).query({ parameters, format_rows: 'true' }).expect(200)).body;
    // format_rows: values as the card shows them, so text.
    expect(json).toEqual(counts.map((r: unknown[]) => ({ Category: r[0], Count: String(r[1]) })));
    const xlsx = await http()
      .get(`/api/public/card/${uuid}/query/xlsx`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect((xlsx.body as Buffer).subarray(0, 2).toString()).toBe('PK');
    const api = (await http().get(`/api/public/card/${uuid}/query/api`).query({ parameters }).expect(200)).body;
    expect(Object.keys(api).sort()).toEqual(['data', 'json_query', 'status']);
    expect(api.data.rows).toEqual(counts);
    await s.t.app.get(QueryLogService).flush();
    const logged = await s.t.app
      .get(DataSource)
      .query(`SELECT context, executor_id FROM query_execution WHERE card_id = ${card.id} ORDER BY id`);
    expect(logged.map((r: { context: string }) => r.context)).toEqual([
      'csv-download',
      'json-download',
      'xlsx-download',
      'public-question',
    ]);
    expect(logged.every((r: { executor_id: unknown }) => r.executor_id === null)).toBe(true);
  });

  it('refuses a bad format or parameters, and answers a failed download tersely', async () => {
    const broken = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT NO_SUCH_COLUMN FROM PRODUCTS'));
    const uuid = await share(broken.id);
    failed(await http().get(`/api/public/card/${uuid}/query/csv`));
    failed(await http().get(`/api/public/card/${uuid}/query/pdf`));
    failed(await http().get(`/api/public/card/${uuid}/query/csv`).query({ parameters: '{' }));
    failed(await http().get(`/api/public/card/${uuid}/query/csv`).query({ format_rows: 'maybe' }));
    expect((await http().get(`/api/public/card/${uuid}/query/api`).expect(200)).body).toMatchObject({
      status: 'failed',
      error: 'An error occurred while running the query.',
    });
  });
});
