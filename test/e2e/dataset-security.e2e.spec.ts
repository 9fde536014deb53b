import type { Response } from 'supertest';
import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import type { FieldRef } from '../../src/query-engine/mbql/types';
import type { CardSource } from '../../src/query-engine/metadata';
import { serveCards } from '../support/cards';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { expect403 } from '../support/expect-wire';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { waitForSync } from '../support/sync-wait';
import { availableEngines } from '../support/warehouses';

jest.setTimeout(120_000);

const QUERY_ONLY = { data: 'unrestricted', native: 'none' };
const FULL = { data: 'unrestricted', native: 'write' };
const NATIVE_CARD = 1;
const MBQL_OVER_NATIVE_CARD = 2;
const MBQL_CARD = 3;
const INJECTED = "SELECT 'pwned' AS X";
const text = (name: string): FieldRef => ['field', name, { 'base-type': 'type/Text' }];

/**
 * Security review, issue 9: what a user allowed the query builder but not native SQL can run, field filters of
 * other databases, and the bounds on parameter-value requests and row caps.
 */
describe('dataset queries: SQL, field filters and bounds', () => {
  let s: SampleApp;
  const post = (path: string, body: unknown, session = s.user.session) =>
    s.t
      .http()
      .post(path)
      .set(auth(session))
      .send(body as object);
  const csv = (query: unknown, session = s.user.session) =>
    s.t
      .http()
      .post('/api/dataset/csv')
      .set(auth(session))
      .type('form')
      .send({ query: JSON.stringify(query) });
  const structured = (query: Record<string, unknown>) => ({ database: s.db, type: 'query', query });
  const setAccess = async (access: { data: string; native: string }) => {
    const graph = (await s.t.http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
    await s.t
      .http()
      .put('/api/permissions/graph')
      .set(auth(s.admin))
      .send({ revision: graph.revision, groups: { [ALL_USERS_GROUP_ID]: { [s.db]: access } } })
      .expect(200);
  };

  beforeAll(async () => {
    s = await startSampleApp();
    const cards: Record<number, CardSource> = {
      [NATIVE_CARD]: {
        id: NATIVE_CARD,
        databaseId: s.db,
        query: { database: s.db, type: 'native', native: { query: 'SELECT CATEGORY, TITLE FROM PRODUCTS' } },
        resultMetadata: [
          { name: 'CATEGORY', base_type: 'type/Text' },
          { name: 'TITLE', base_type: 'type/Text' },
        ],
      },
      [MBQL_OVER_NATIVE_CARD]: {
        id: MBQL_OVER_NATIVE_CARD,
        databaseId: s.db,
        query: { database: s.db, type: 'query', query: { 'source-table': `card__${NATIVE_CARD}`, fields: [text('CATEGORY')] } },
      },
      [MBQL_CARD]: {
        id: MBQL_CARD,
        databaseId: s.db,
        query: { database: s.db, type: 'query', query: { 'source-table': s.table('PRODUCTS').id } },
      },
    };
    serveCards(s.t.app, cards, (id) => id === 999);
    // The user may use the query builder on the Sample Database, but not write SQL.
    await setAccess(QUERY_ONLY);
  });
  afterAll(() => s.t.close());

  describe('SQL sent inside a structured query', () => {
    const products = () => s.table('PRODUCTS').id;
    const condition = () => [
      '=',
      ['field', s.field('PRODUCTS', 'ID'), null],
      ['field', 'X', { 'base-type': 'type/Text', 'join-alias': 'j' }],
    ];
    const smuggled = (): Array<[string, Record<string, unknown>]> => [
      ['query.native', { 'source-table': products(), native: INJECTED, fields: [text('X')] }],
      ['query.source-query.native', { 'source-query': { 'source-table': products(), native: INJECTED }, fields: [text('X')] }],
      [
        'query.joins[0].native',
        {
          'source-table': products(),
          joins: [{ alias: 'j', 'source-table': products(), native: INJECTED, condition: condition(), fields: 'all' }],
        },
      ],
      [
        'query.joins[0].source-query.native',
        {
          'source-table': products(),
          joins: [{ alias: 'j', 'source-query': { 'source-table': products(), native: INJECTED }, condition: condition(), fields: 'all' }],
        },
      ],
      [
        'query.source-query.source-query.native',
        { 'source-query': { 'source-query': { 'source-table': products(), native: INJECTED } }, fields: [text('X')] },
      ],
    ];

    const expectInvalid = (res: Response, clause: string) => {
      expect([res.status, res.body.status, res.body.error_type]).toEqual([202, 'failed', 'invalid-query']);
      expect(res.body.error).toContain(clause);
      expect(res.body.data.rows).toEqual([]);
    };

    it('is refused as an invalid query by /api/dataset, at every level, for every caller', async () => {
      for (const [clause, query] of smuggled()) {
        expectInvalid(await post('/api/dataset', structured(query)), clause);
        expectInvalid(await post('/api/dataset', structured(query), s.admin), clause);
      }
    });

    it('is refused by the export, pivot and native endpoints too, and its SQL never runs', async () => {
      for (const [clause, query] of smuggled()) {
        const exported = await csv(structured(query));
        expect([exported.status, exported.body.status, exported.body.error_type]).toEqual([400, 'failed', 'invalid-query']);
        expect(exported.body.error).toContain(clause);
        expect(exported.text).not.toMatch(/^X/m);

        const pivot = await post('/api/dataset/pivot', structured({ ...query, aggregation: [['count']], breakout: [text('X')] }));
        expectInvalid(pivot, clause);

        const native = await post('/api/dataset/native', { database: s.db, query });
        expect(native.status).toBe(400);
        expect(native.body.errors.query).toContain(clause);
        expect(JSON.stringify(native.body)).not.toContain('"query":"SELECT');
      }
    });
  });

  describe('a native saved question as the source of a structured query', () => {
    const overNative = (extra: Record<string, unknown> = {}) =>
      structured({ 'source-table': `card__${NATIVE_CARD}`, fields: [text('CATEGORY')], ...extra });
    const counted = () => overNative({ fields: undefined, aggregation: [['count']], breakout: [text('CATEGORY')] });
    const joined = () =>
      structured({
        'source-table': s.table('PRODUCTS').id,
        joins: [
          {
            alias: 'n',
            'source-table': `card__${NATIVE_CARD}`,
            condition: [
              '=',
              ['field', s.field('PRODUCTS', 'TITLE'), null],
              ['field', 'TITLE', { 'base-type': 'type/Text', 'join-alias': 'n' }],
            ],
            fields: [['field', 'CATEGORY', { 'base-type': 'type/Text', 'join-alias': 'n' }]],
          },
        ],
        limit: 1,
      });
    const nested = () => structured({ 'source-table': `card__${MBQL_OVER_NATIVE_CARD}`, fields: [text('CATEGORY')], limit: 1 });

    it('needs native-query permission on /api/dataset: as source, in a join, or further down', async () => {
      for (const query of [overNative({ limit: 1 }), joined(), nested()]) expect403(await post('/api/dataset', query));
    });

    it('needs native-query permission on the export, pivot and native endpoints', async () => {
      expect403(await csv(overNative({ limit: 1 })));
      expect403(await csv(joined()));
      expect403(await post('/api/dataset/pivot', counted()));
      expect403(await post('/api/dataset/native', { database: s.db, query: overNative().query }));
      expect403(await post('/api/dataset/native', { database: s.db, query: nested().query }));
    });

    it('runs for callers with native-query permission, and structured sources stay open to the query builder', async () => {
      const asAdmin = await post('/api/dataset', counted(), s.admin).expect(202);
      expect(asAdmin.body).toMatchObject({ status: 'completed', row_count: 4 });
      const n = (await post('/api/dataset', nested(), s.admin).expect(202)).body;
      expect([n.status, n.error]).toEqual(['completed', undefined]);
      const mbqlCard = await post('/api/dataset', structured({ 'source-table': `card__${MBQL_CARD}`, aggregation: [['count']] })).expect(
        202,
      );
      expect(mbqlCard.body).toMatchObject({ status: 'completed', data: { rows: [[200]] } });

      await setAccess(FULL);
      try {
        expect((await post('/api/dataset', counted()).expect(202)).body).toMatchObject({ status: 'completed', row_count: 4 });
        expect((await csv(overNative({ limit: 1 }))).status).toBe(200);
        const j = (await post('/api/dataset', joined()).expect(202)).body;
        expect([j.status, j.error]).toEqual(['completed', undefined]);
      } finally {
        await setAccess(QUERY_ONLY);
      }
    });
  });

  describe('field filters of another database', () => {
    let other: E2eWarehouse;
    let otherDb: number;
    let otherCategory: number;

    beforeAll(async () => {
      // Same table and column names as the Sample Database: the other database's field would compile to SQL that runs here.
      other = await e2eWarehouse('sqlite', s.t.config.dataDir, {
        statements: ['CREATE TABLE PRODUCTS (ID INTEGER PRIMARY KEY, CATEGORY TEXT)'],
      });
      otherDb = (
        await s.t
          .http()
          .post('/api/database')
          .set(auth(s.admin))
          .send({ engine: 'sqlite', name: 'Other', details: other.details })
          .expect(200)
      ).body.id;
      await waitForSync(s.t, s.admin, otherDb);
      const meta = (await s.t.http().get(`/api/database/${otherDb}/metadata`).set(auth(s.admin)).expect(200)).body;
      otherCategory = meta.tables[0].fields.find((f: { name: string }) => f.name === 'CATEGORY').id;
    });
    afterAll(() => other?.drop());

    const withFilter = (fieldId: number) => ({
      database: s.db,
      type: 'native',
      native: {
        query: 'SELECT COUNT(*) AS N FROM PRODUCTS WHERE {{category}}',
        'template-tags': {
          category: {
            name: 'category',
            'display-name': 'Category',
            type: 'dimension',
            dimension: ['field', fieldId, null],
            'widget-type': 'category',
          },
        },
      },
      parameters: [{ type: 'category', target: ['dimension', ['template-tag', 'category']], value: ['Gizmo'] }],
    });

    it('is an invalid query: failed on /api/dataset, 400 on /api/dataset/native', async () => {
      const res = await post('/api/dataset', withFilter(otherCategory), s.admin).expect(202);
      expect(res.body).toMatchObject({ status: 'failed', error_type: 'invalid-query', row_count: 0 });
      expect(res.body.error).toContain(
        `native.template-tags.category.dimension: field ${otherCategory} does not exist in database ${s.db}`,
      );
      const native = await post('/api/dataset/native', { database: s.db, query: withFilter(otherCategory) }, s.admin);
      expect(native.status).toBe(400);
      expect(native.body.errors.query).toContain(`field ${otherCategory} does not exist in database ${s.db}`);
    });

    it("still filters on the query's own database's fields", async () => {
      const res = await post('/api/dataset', withFilter(s.field('PRODUCTS', 'CATEGORY')), s.admin).expect(202);
      expect(res.body).toMatchObject({ status: 'completed', row_count: 1 });
      expect(res.body.data.rows[0][0]).toBeGreaterThan(0);
    });
  });

  describe('bounds', () => {
    const PARAMETER = { id: 'abc', type: 'category' };

    it('refuses more than 1,000 field_ids in parameter-value requests with a validation error', async () => {
      const category = s.field('PRODUCTS', 'CATEGORY');
      const many = Array.from({ length: 1001 }, () => category);
      for (const path of ['/api/dataset/parameter/values', '/api/dataset/parameter/search/Gi']) {
        const res = await post(path, { parameter: PARAMETER, field_ids: many });
        expect([res.status, res.body.errors]).toEqual([400, { field_ids: 'value must be an array of at most 1000 field ids.' }]);
        expect(res.body['specific-errors'].field_ids[0]).toContain('received:');
        await post(path, { parameter: PARAMETER, field_ids: many.slice(0, 1000) }).expect(200);
      }
    });

    it('caps max-results at the download limit of 1,048,575 rows', async () => {
      const rows = 1_048_580;
      const res = await post(
        '/api/dataset',
        {
          database: s.db,
          type: 'native',
          native: { query: `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ${rows}) SELECT x FROM n` },
          constraints: { 'max-results': 1_000_000_000, 'max-results-bare-rows': 1_000_000_000 },
        },
        s.admin,
      ).expect(202);
      expect(res.body).toMatchObject({ status: 'completed', row_count: 1_048_575, data: { rows_truncated: 1_048_575 } });
      expect(res.body.json_query.constraints).toEqual({ 'max-results': 1_048_575, 'max-results-bare-rows': 1_048_575 });
      expect(res.body.data.rows.at(-1)).toEqual([1_048_575]);
    });
  });
});

const servers = availableEngines(['postgres', 'mysql']);

describe.each(servers)('blocked functions over HTTP on %s', (engine) => {
  let s: SampleApp;
  let wh: E2eWarehouse;
  let db: number;
  const run = (sql: string) =>
    s.t
      .http()
      .post('/api/dataset')
      .set(auth(s.admin))
      .send({ database: db, type: 'native', native: { query: sql } })
      .expect(202);

  beforeAll(async () => {
    s = await startSampleApp();
    wh = await e2eWarehouse(engine, s.t.config.dataDir, { statements: ['CREATE TABLE t (id INTEGER PRIMARY KEY)'] });
    db = (
      await s.t
        .http()
        .post('/api/database')
        .set(auth(s.admin))
        .send({ engine, name: `W ${engine}`, details: wh.details })
        .expect(200)
    ).body.id;
    await waitForSync(s.t, s.admin, db);
  });
  afterAll(async () => {
    await s?.t.close();
    await wh?.drop();
  });

  const refused: Record<string, string[]> = {
    postgres: [
      `SELECT "pg_read_file"('/etc/passwd')`,
      `SELECT "pg_catalog"."pg_read_file"('/etc/passwd')`,
      'SELECT * FROM pg_ls_waldir()',
      "SELECT query_to_xml('SELECT 1', true, true, '')",
      "SELECT lo_from_bytea(0, 'x')",
      "SELECT dblink_exec('dbname=postgres', 'CREATE TABLE x (a int)')",
    ],
    mysql: ["SELECT `LOAD_FILE`('/etc/passwd')", "SELECT /*!50000 LOAD_FILE*/('/etc/passwd')"],
  };

  it('refuses them before they reach the database, quoted or qualified', async () => {
    for (const sql of refused[engine]) {
      const res = await run(sql);
      expect(res.body).toMatchObject({ status: 'failed', row_count: 0 });
      expect(res.body.error).toMatch(/This statement is not allowed: \w+\(\) would reach/);
    }
    expect((await run("SELECT lower('A') AS a")).body).toMatchObject({ status: 'completed', data: { rows: [['a']] } });
  });
});
