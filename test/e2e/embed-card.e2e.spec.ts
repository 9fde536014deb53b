import { DataSource } from 'typeorm';
import { PAIR_NOT_ALLOWED } from '../../src/modules/public-sharing/shared-fields.service';
import { QueryCacheService } from '../../src/modules/query-cache/query-cache.service';
import { QueryExecution } from '../../src/schema/query-execution.entity';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import { makeCard, makeCollection, nativeQuery, tableQuery } from '../support/card-factories';
import { ADMIN, auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { cardToken, embeddable, expectEmbed400, expectNoInternals, setEmbedding } from './embed-helpers';

jest.setTimeout(180_000);

/** An embedded question: GET, query with each parameter rule, viewer values, look-ups, pivot, failures. */
describe('embed: card', () => {
  let s: SampleApp;
  let card: number;
  let category: number;
  /** Rows of PRODUCTS: all of them, and of two categories (read as the admin). */
  let ALL: number;
  let GIZMO: number;
  let WIDGET: number;
  const http = () => s.t.http();
  const count = (res: { body: { data: { rows: unknown[][] } } }) => Number(res.body.data.rows[0][0]);
  const rules = (params: Record<string, string>) => embeddable(s.t, s.admin, 'card', card, params);

  beforeAll(async () => {
    s = await startSampleApp();
    await setEmbedding(s.t, s.admin);
    category = s.field('PRODUCTS', 'CATEGORY');
    const parameters = [
      { id: 'p-cat', name: 'Category', slug: 'category', type: 'string/=', target: ['dimension', ['field', category, null]] },
      {
        id: 'p-vendor',
        name: 'Vendor',
        slug: 'vendor',
        type: 'string/=',
        target: ['dimension', ['field', s.field('PRODUCTS', 'VENDOR'), null]],
      },
    ];
    const counts = await http()
      .post('/api/dataset')
      .set(auth(s.admin))
      .send(tableQuery(s.db, s.table('PRODUCTS').id, { aggregation: [['count']], breakout: [['field', category, null]] }))
      .expect(202);
    const by = new Map<string, number>(counts.body.data.rows.map((r: [string, number]) => [r[0], Number(r[1])]));
    [GIZMO, WIDGET] = [by.get('Gizmo') ?? -1, by.get('Widget') ?? -1];
    ALL = [...by.values()].reduce((a, b) => a + b, 0);
    card = (await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id, { aggregation: [['count']] }), { parameters })).id;
  });
  afterAll(() => s.t.close());

  describe('each parameter rule with a value from the token, the viewer, both, and neither', () => {
    const run = (token: boolean, viewer: boolean) =>
      http().get(`/api/embed/card/${cardToken(card, token ? { category: 'Gizmo' } : {})}/query${viewer ? '?category=Widget' : ''}`);

    it('enabled: the token or the viewer, not both', async () => {
      await rules({ category: 'enabled', vendor: 'disabled' });
      expect(count(await run(true, false).expect(202))).toBe(GIZMO);
      expect(count(await run(false, true).expect(202))).toBe(WIDGET);
      expectEmbed400(await run(true, true), "You can't specify a value for category if it's already set in the JWT.");
      expect(count(await run(false, false).expect(202))).toBe(ALL);
    });

    it('locked: the token must, the viewer may not', async () => {
      await rules({ category: 'locked', vendor: 'disabled' });
      expect(count(await run(true, false).expect(202))).toBe(GIZMO);
      expectEmbed400(await run(false, true), 'You must specify a value for category in the JWT.');
      expectEmbed400(await run(true, true), 'You can only specify a value for category in the JWT.');
      expectEmbed400(await run(false, false), 'You must specify a value for category in the JWT.');
      // An empty list from the token: set, and no filter.
      expect(
        count(
          await http()
            .get(`/api/embed/card/${cardToken(card, { category: [] })}/query`)
            .expect(202),
        ),
      ).toBe(ALL);
    });

    it('disabled: neither may', async () => {
      await rules({ category: 'disabled', vendor: 'disabled' });
      for (const [token, viewer] of [
        [true, false],
        [false, true],
        [true, true],
      ]) {
        expectEmbed400(await run(token, viewer), "You're not allowed to specify a value for category.");
      }
      expect(count(await run(false, false).expect(202))).toBe(ALL);
    });

    it('unknown (not in the whitelist): refused from anyone', async () => {
      await rules({ vendor: 'disabled' });
      for (const [token, viewer] of [
        [true, false],
        [false, true],
        [true, true],
      ]) {
        expectEmbed400(await run(token, viewer), 'Unknown parameter category.');
      }
      expect(count(await run(false, false).expect(202))).toBe(ALL);
    });
  });

  it('takes viewer values repeated, as `parameters` JSON, and ignores blank ones', async () => {
    await rules({ category: 'enabled', vendor: 'enabled' });
    const token = cardToken(card);
    expect(count(await http().get(`/api/embed/card/${token}/query?category=Gizmo&category=Widget`).expect(202))).toBe(GIZMO + WIDGET);
    expect(
      count(
        await http()
          .get(`/api/embed/card/${token}/query`)
          .query({ parameters: JSON.stringify({ category: ['Widget'] }) })
          .expect(202),
      ),
    ).toBe(WIDGET);
    expect(count(await http().get(`/api/embed/card/${token}/query?category=`).expect(202))).toBe(ALL);
    const bad = await http().get(`/api/embed/card/${token}/query?parameters=%7Bnope`);
    expect(bad.status).toBe(400);
  });

  it('GET shows only the parameters a viewer may set, and nothing internal', async () => {
    await rules({ category: 'enabled', vendor: 'locked' });
    const got = await http()
      .get(`/api/embed/card/${cardToken(card, { vendor: 'x' })}`)
      .expect(200);
    expect(got.body.parameters.map((p: { slug: string }) => p.slug)).toEqual(['category']);
    expect(Object.keys(got.body.param_fields)).toEqual([String(category)]);
    expectNoInternals(got.body, ['vendor', 'Vendor']);
    // The token sets category: then nothing is left to set.
    const set = await http()
      .get(`/api/embed/card/${cardToken(card, { vendor: 'x', category: 'Gizmo' })}`)
      .expect(200);
    expect([set.body.parameters, set.body.param_fields]).toEqual([[], {}]);
  });

  it('names no collection, owner or database, nor the SQL of a native card, anywhere', async () => {
    const collection = await makeCollection(s.t, 'Secret Finance Collection');
    const sql = 'SELECT CATEGORY, COUNT(*) FROM PRODUCTS GROUP BY CATEGORY';
    const native = await makeCard(s.t, s.admin, nativeQuery(s.db, sql), { collection_id: collection });
    await embeddable(s.t, s.admin, 'card', native.id, {});
    const token = cardToken(native.id);
    const answers = [
      await http().get(`/api/embed/card/${token}`).expect(200),
      await http().get(`/api/embed/card/${token}/query`).expect(202),
      await http().get(`/api/embed/card/${token}/query/api`).expect(200),
      await http().get(`/api/embed/pivot/card/${token}/query`).expect(202),
    ];
    for (const res of answers) {
      for (const secret of ['Secret Finance', ADMIN.email, ADMIN.first_name, 'Sample Database', 'GROUP BY', 'FROM PRODUCTS'])
        expect(res.text).not.toContain(secret);
      expectNoInternals(res.body);
    }
  });

  it('answers results without internals, and a failed query with a generic message', async () => {
    await rules({ category: 'enabled', vendor: 'enabled' });
    const res = await http()
      .get(`/api/embed/card/${cardToken(card)}/query?category=Gizmo`)
      .expect(202);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'json_query', 'status']);
    expect(res.body.json_query.parameters).toEqual([expect.objectContaining({ id: 'p-cat', value: ['Gizmo'] })]);
    expectNoInternals(res.body);
    const broken = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT nope FROM nowhere'));
    await embeddable(s.t, s.admin, 'card', broken.id, {});
    const failed = await http()
      .get(`/api/embed/card/${cardToken(broken.id)}/query`)
      .expect(202);
    expect(failed.body).toMatchObject({ status: 'failed', error: 'An error occurred while running the query.' });
    expect(JSON.stringify(failed.body)).not.toMatch(/nowhere|nope/);
  });

  it('serves field values, search and remapping only for fields behind parameters a viewer may set', async () => {
    await rules({ category: 'enabled', vendor: 'locked' });
    const token = cardToken(card, { vendor: 'x' });
    const values = await http().get(`/api/embed/card/${token}/field/${category}/values`).expect(200);
    expect(values.body.values.map((v: unknown[]) => v[0])).toEqual(['Doohickey', 'Gadget', 'Gizmo', 'Widget']);
    const search = await http().get(`/api/embed/card/${token}/field/${category}/search/${category}?value=gi`).expect(200);
    expect(search.body).toEqual([['Gizmo', 'Gizmo']]);
    await http().get(`/api/embed/card/${token}/field/${category}/remapping/${category}?value=Gizmo`).expect(200);
    // The locked parameter's field, and a field no parameter uses.
    expectEmbed400(
      await http().get(`/api/embed/card/${token}/field/${s.field('PRODUCTS', 'VENDOR')}/values`),
      "You don't have permissions to do that.",
    );
    expectEmbed400(
      await http().get(`/api/embed/card/${token}/field/${s.field('PRODUCTS', 'EAN')}/values`),
      "You don't have permissions to do that.",
    );
    // Another column as the second field: not one the parameter's field may be paired with (issue 30, finding 1).
    expectEmbed400(
      await http().get(`/api/embed/card/${token}/field/${category}/search/${s.field('PRODUCTS', 'VENDOR')}?value=a`),
      PAIR_NOT_ALLOWED,
    );
  });

  it('runs the pivot twin with the same rules', async () => {
    await rules({ category: 'locked', vendor: 'disabled' });
    const pivot = await makeCard(
      s.t,
      s.admin,
      tableQuery(s.db, s.table('PRODUCTS').id, { aggregation: [['count']], breakout: [['field', category, null]] }),
      {
        display: 'pivot',
        parameters: [
          { id: 'p-cat', name: 'Category', slug: 'category', type: 'string/=', target: ['dimension', ['field', category, null]] },
        ],
      },
    );
    await embeddable(s.t, s.admin, 'card', pivot.id, { category: 'locked' });
    const res = await http()
      .get(`/api/embed/pivot/card/${cardToken(pivot.id, { category: ['Gizmo', 'Widget'] })}/query`)
      .expect(202);
    expect(res.body.status).toBe('completed');
    expect(res.body.data.rows.filter((r: unknown[]) => r[0] === 'Gizmo' || r[0] === 'Widget').length).toBeGreaterThanOrEqual(2);
    expect(res.body.data.rows.some((r: unknown[]) => r[0] === 'Gadget')).toBe(false);
    expectNoInternals(res.body);
    expectEmbed400(
      await http().get(`/api/embed/pivot/card/${cardToken(pivot.id)}/query`),
      'You must specify a value for category in the JWT.',
    );
  });

  it('downloads the results as csv, xlsx, json and api, with the same rules', async () => {
    await rules({ category: 'locked', vendor: 'enabled' });
    const token = cardToken(card, { category: 'Gizmo' });
    const csv = await http().get(`/api/embed/card/${token}/query/csv`).expect(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename=".+\.csv"/);
    expect(csv.text.trim().split(/\r?\n/)).toEqual(['Count', String(GIZMO)]);
    const json = await http().get(`/api/embed/card/${token}/query/json`).expect(200);
    expect(JSON.parse(json.text)).toEqual([{ Count: GIZMO }]);
    const xlsx = await http().get(`/api/embed/card/${token}/query/xlsx`).expect(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const api = await http().get(`/api/embed/card/${token}/query/api`).expect(200);
    expect(count(api)).toBe(GIZMO);
    expectNoInternals(api.body);
    expectEmbed400(
      await http().get(`/api/embed/card/${token}/query/csv?category=Widget`),
      'You can only specify a value for category in the JWT.',
    );
    expectEmbed400(await http().get(`/api/embed/card/${cardToken(card)}/query/csv`), 'You must specify a value for category in the JWT.');
    const bad = await http().get(`/api/embed/card/${token}/query/pdf`);
    expect(bad.status).toBe(400);
    const broken = await makeCard(s.t, s.admin, nativeQuery(s.db, 'SELECT nope FROM nowhere'));
    await embeddable(s.t, s.admin, 'card', broken.id, {});
    expectEmbed400(await http().get(`/api/embed/card/${cardToken(broken.id)}/query/csv`), 'An error occurred while running the query.');
  });

  it('caches results per token values when the card has a TTL, and logs runs without an executor', async () => {
    for (const [key, value] of [
      ['enable-query-caching', true],
      ['query-caching-min-ttl', 0],
    ] as const) {
      await http().put(`/api/setting/${key}`).set(auth(s.admin)).send({ value }).expect(204);
    }
    const parameters = [
      { id: 'p-cat', name: 'Category', slug: 'category', type: 'string/=', target: ['dimension', ['field', category, null]] },
    ];
    const cached = await makeCard(s.t, s.admin, tableQuery(s.db, s.table('PRODUCTS').id, { aggregation: [['count']] }), {
      parameters,
      cache_ttl: 1,
    });
    await embeddable(s.t, s.admin, 'card', cached.id, { category: 'locked' });
    const run = async (value: string) => {
      const res = await http()
        .get(`/api/embed/card/${cardToken(cached.id, { category: value })}/query`)
        .expect(202);
      await s.t.app.get(QueryCacheService).flush();
      await s.t.app.get(QueryLogService).flush();
      return count(res);
    };
    expect([await run('Gizmo'), await run('Gizmo'), await run('Widget'), await run('Widget')]).toEqual([GIZMO, GIZMO, WIDGET, WIDGET]);
    const logged = await s.t.app
      .get(DataSource)
      .getRepository(QueryExecution)
      .find({ where: { card_id: cached.id }, order: { id: 'ASC' } });
    expect(logged.map((r) => [r.cache_hit, r.context, r.executor_id])).toEqual([
      [false, 'embedded-question', null],
      [true, 'embedded-question', null],
      [false, 'embedded-question', null],
      [true, 'embedded-question', null],
    ]);
    await http().put('/api/setting/enable-query-caching').set(auth(s.admin)).send({ value: false }).expect(204);
  });

  it('a SQL card takes its template tags as parameters', async () => {
    const sql = await makeCard(
      s.t,
      s.admin,
      nativeQuery(s.db, 'SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = {{cat}}', {
        cat: { id: 'tag-cat', name: 'cat', 'display-name': 'Cat', type: 'text' },
      }),
    );
    await embeddable(s.t, s.admin, 'card', sql.id, { cat: 'locked' });
    const res = await http()
      .get(`/api/embed/card/${cardToken(sql.id, { cat: 'Widget' })}/query`)
      .expect(202);
    expect(count(res)).toBe(WIDGET);
    const got = await http()
      .get(`/api/embed/card/${cardToken(sql.id, { cat: 'Widget' })}`)
      .expect(200);
    expect(got.body.dataset_query).toEqual({ type: 'native', native: { 'template-tags': expect.any(Object) } });
    expect(JSON.stringify(got.body)).not.toContain('SELECT');
  });
});
