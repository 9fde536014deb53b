import ExcelJS from 'exceljs';
import { randomBytes } from 'node:crypto';
import type { Response as SuperagentResponse } from 'superagent';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/common/database/data-source-options';
import { runMigrations } from '../../src/common/database/migration-runner';
import { MIGRATIONS } from '../../src/migrations';
import { DownloadPermissions1764547200000 } from '../../src/migrations/1764547200000-download-permissions';
import { DOWNLOAD_MESSAGE } from '../../src/modules/databases/data-permissions-parse';
import { PivotService } from '../../src/modules/dataset/pivot.service';
import { ADMIN_GROUP_ID, ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { freshAppDb } from '../support/app-db';
import { expect403 } from '../support/expect-wire';
import { auth, makeUserDirect, MadeUser } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { startTestApp } from '../support/test-app';

jest.setTimeout(180_000);

type Level = 'full' | 'limited' | 'none';
interface Graph {
  revision: number;
  groups: Record<string, Record<string, { data: string; native: string; download: { schemas: Level } }>>;
}

const LIMITED_ROWS = 10_000;
const FULL_ACCESS = { data: 'unrestricted', native: 'write', download: { schemas: 'full' } };
const NO_ACCESS = { data: 'no', native: 'none', download: { schemas: 'none' } };
const access = (download: Level) => ({ data: 'unrestricted', native: 'write', download: { schemas: download } });
// As the graph shows them: Metabase's current keys beside the earlier ones (the PUTs here use the earlier format).
const NEW_KEYS = { 'view-data': 'unrestricted', 'create-queries': 'query-builder-and-native' };
const FULL_SHOWN = { ...FULL_ACCESS, ...NEW_KEYS };
const ADMIN_SHOWN = { ...FULL_SHOWN, 'data-model': { schemas: 'all' }, details: 'yes' };

/** A supertest parser keeping the body as bytes. */
function binary(res: SuperagentResponse, done: (err: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}

/** Data rows in a downloaded file (header excluded), read back per format. */
async function rowsIn(format: string, res: Response): Promise<number> {
  if (format === 'json') return (JSON.parse(res.body.toString('utf8')) as unknown[]).length;
  if (format === 'csv') return res.body.toString('utf8').trimEnd().split('\n').length - 1;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.body as ExcelJS.Buffer);
  return wb.worksheets[0].actualRowCount - 1;
}

/**
 * Download permissions (issue 13): per group and database in the permissions graph under `download`, `full`
 * (the export cap), `limited` (10,000 rows) or `none` (403); the most generous group wins; admins always full.
 */
describe('download permissions', () => {
  let s: SampleApp;
  let totalOrders: number;
  const http = () => s.t.http();
  const read = async (): Promise<Graph> => (await http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
  const put = (body: unknown) =>
    http()
      .put('/api/permissions/graph')
      .set(auth(s.admin))
      .send(body as object);
  /** Sets the parts given, from the current revision. */
  const setGraph = async (groups: Record<number, Record<number, unknown>>): Promise<Graph> =>
    (await put({ revision: (await read()).revision, groups }).expect(200)).body;
  const newGroup = async () =>
    (
      await http()
        .post('/api/permissions/group')
        .set(auth(s.admin))
        .send({ name: `D ${randomBytes(3).toString('hex')}` })
        .expect(200)
    ).body.id as number;
  const ordersIds = (extra: Record<string, unknown> = {}) => ({
    database: s.db,
    type: 'query',
    query: {
      'source-table': s.table('ORDERS').id,
      fields: [['field', s.field('ORDERS', 'ID'), null]],
      'order-by': [['asc', ['field', s.field('ORDERS', 'ID'), null]]],
      ...extra,
    },
  });
  const download = (format: string, session: string, query: unknown = ordersIds()) =>
    http()
      .post(`/api/dataset/${format}`)
      .set(auth(session))
      .type('form')
      .send({ query: JSON.stringify(query) })
      .buffer(true)
      .parse(binary);

  beforeAll(async () => {
    s = await startSampleApp();
    const count = await http()
      .post('/api/dataset')
      .set(auth(s.admin))
      .send({ database: s.db, type: 'query', query: { 'source-table': s.table('ORDERS').id, aggregation: [['count']] } })
      .expect(202);
    totalOrders = count.body.data.rows[0][0];
  });
  afterAll(() => s.t.close());

  it('needs a table with more rows than a limited download holds', () => {
    expect(totalOrders).toBeGreaterThan(LIMITED_ROWS);
  });

  describe('in the graph', () => {
    it('shows full downloads for All Users on the Sample Database and for admins, none for a new group', async () => {
      const group = await newGroup();
      const g = await read();
      expect(g.groups[ALL_USERS_GROUP_ID][s.db]).toEqual(FULL_SHOWN);
      expect(g.groups[ADMIN_GROUP_ID][s.db]).toEqual(ADMIN_SHOWN);
      expect(g.groups[group][s.db]).toEqual(NO_ACCESS);
    });

    it('stores a level sent, counts it as a revision, and keeps it when an edit leaves `download` out', async () => {
      const group = await newGroup();
      const before = await read();
      const res = await put({ revision: before.revision, groups: { [group]: { [s.db]: access('limited') } } }).expect(200);
      expect(res.body.revision).toBe(before.revision + 1);
      expect(res.body.groups[group][s.db]).toEqual({ ...access('limited'), ...NEW_KEYS });
      expect(await read()).toEqual(res.body);
      // A client of the graph before download permissions: data and native only.
      const kept = await setGraph({ [group]: { [s.db]: { data: 'unrestricted', native: 'none' } } });
      expect(kept.groups[group][s.db]).toEqual({
        data: 'unrestricted',
        native: 'none',
        download: { schemas: 'limited' },
        'view-data': 'unrestricted',
        'create-queries': 'query-builder',
      });
      const changed = await setGraph({ [group]: { [s.db]: { data: 'unrestricted', native: 'none', download: { schemas: 'none' } } } });
      expect(changed.groups[group][s.db].download).toEqual({ schemas: 'none' });
      expect(changed.revision).toBe(before.revision + 3);
    });

    it('gives downloads only with data access: none without it, full when data access is granted again without a level', async () => {
      const group = await newGroup();
      const g = await setGraph({ [group]: { [s.db]: { data: 'no', native: 'none', download: { schemas: 'full' } } } });
      expect(g.groups[group][s.db]).toEqual(NO_ACCESS);
      const granted = await setGraph({ [group]: { [s.db]: { data: 'unrestricted', native: 'write' } } });
      expect(granted.groups[group][s.db]).toEqual(FULL_SHOWN);
    });

    it('takes the Administrators back unchanged, and refuses to limit them', async () => {
      const g = await read();
      await put(g).expect(200);
      const res = await put({ revision: g.revision + 1, groups: { [ADMIN_GROUP_ID]: { [s.db]: access('limited') } } });
      expect([res.status, res.body]).toEqual([400, { message: 'You cannot change the permissions of the Administrators group.' }]);
      expect((await read()).groups[ADMIN_GROUP_ID][s.db]).toEqual(ADMIN_SHOWN);
    });

    it.each<[string, unknown]>([
      ['an unknown level', { schemas: 'all' }],
      ['Metabase’s row-count names', { schemas: 'one-million-rows' }],
      ['a level as a plain string', 'full'],
      ['an unknown level per schema', { schemas: { PUBLIC: 'all' } }],
      ['an extra key', { schemas: 'full', native: 'full' }],
      ['null', null],
      ['a list', ['full']],
    ])('refuses %s with 400 and changes nothing', async (_what, value) => {
      const group = await newGroup();
      const g = await read();
      const res = await put({
        revision: g.revision,
        groups: { [group]: { [s.db]: { data: 'unrestricted', native: 'none', download: value } } },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ groups: DOWNLOAD_MESSAGE });
      expect(DOWNLOAD_MESSAGE).toMatch(/^each database's download must be \{schemas: `full` \| `limited` \| `none`\}/);
      expect(res.body['specific-errors'].groups).toEqual([expect.stringContaining('received:')]);
      expect(await read()).toEqual(g);
    });

    it('survives a restart: another instance on the same app DB reads the same graph', async () => {
      const group = await newGroup();
      const g = await setGraph({ [group]: { [s.db]: access('limited') } });
      const other = await startTestApp({}, s.t);
      try {
        const reread = (await other.http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
        expect(reread).toEqual(g);
        expect(reread.groups[group][s.db].download).toEqual({ schemas: 'limited' });
      } finally {
        await other.close();
      }
    });
  });

  describe('on downloads', () => {
    let limitedGroup: number;
    let fullGroup: number;
    let plain: MadeUser;
    let limited: MadeUser;
    let both: MadeUser;

    beforeAll(async () => {
      [limitedGroup, fullGroup] = [await newGroup(), await newGroup()];
      plain = await makeUserDirect(s.t);
      limited = await makeUserDirect(s.t, { group_ids: [limitedGroup] });
      both = await makeUserDirect(s.t, { group_ids: [limitedGroup, fullGroup] });
    });
    afterAll(() => setGraph({ [ALL_USERS_GROUP_ID]: { [s.db]: FULL_ACCESS } }));

    it.each(['csv', 'xlsx', 'json'])('full: a non-admin downloads every row as %s', async (format) => {
      await setGraph({ [ALL_USERS_GROUP_ID]: { [s.db]: access('full') } });
      const res = await download(format, plain.session).expect(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment/);
      expect(await rowsIn(format, res)).toBe(totalOrders);
    });

    it.each(['csv', 'xlsx', 'json'])('limited: the %s file is complete and stops at exactly 10,000 rows', async (format) => {
      await setGraph({ [ALL_USERS_GROUP_ID]: { [s.db]: access('limited') } });
      const res = await download(format, plain.session).expect(200);
      expect(await rowsIn(format, res)).toBe(LIMITED_ROWS);
      if (format === 'csv') expect(res.body.toString('utf8').trimEnd().split('\n').pop()).toBe(String(LIMITED_ROWS));
    });

    it('limited: caps a query asking for more with its own limit, and native SQL too', async () => {
      await setGraph({ [ALL_USERS_GROUP_ID]: { [s.db]: access('limited') } });
      expect(await rowsIn('csv', await download('csv', plain.session, ordersIds({ limit: 15_000 })).expect(200))).toBe(LIMITED_ROWS);
      expect(await rowsIn('csv', await download('csv', plain.session, ordersIds({ limit: 20 })).expect(200))).toBe(20);
      const native = { database: s.db, type: 'native', native: { query: 'SELECT ID FROM ORDERS ORDER BY ID' } };
      expect(await rowsIn('json', await download('json', plain.session, native).expect(200))).toBe(LIMITED_ROWS);
    });

    it.each(['csv', 'xlsx', 'json'])('none: %s is refused with 403 and no file', async (format) => {
      await setGraph({ [ALL_USERS_GROUP_ID]: { [s.db]: access('none') } });
      const res = await http()
        .post(`/api/dataset/${format}`)
        .set(auth(plain.session))
        .type('form')
        .send({ query: JSON.stringify(ordersIds()) });
      expect403(res);
      expect(res.headers['content-disposition']).toBeUndefined();
    });

    it('none: refuses a pivot export too', async () => {
      await setGraph({ [ALL_USERS_GROUP_ID]: { [s.db]: access('none') } });
      const query = {
        database: s.db,
        type: 'query',
        query: {
          'source-table': s.table('PRODUCTS').id,
          aggregation: [['count']],
          breakout: [['field', s.field('PRODUCTS', 'CATEGORY'), null]],
        },
      };
      expect403(
        await http()
          .post('/api/dataset/csv')
          .set(auth(plain.session))
          .type('form')
          .send({ query: JSON.stringify(query), pivot_results: 'true' }),
      );
    });

    it('limited: caps a pivot export as a whole, not each of its grouping queries', async () => {
      await setGraph({ [ALL_USERS_GROUP_ID]: { [s.db]: access('limited') } });
      // Two breakouts: the detail rows and a subtotal per order, each query alone over the cap. The export cap, as the download asks.
      const field = (name: string) => ['field', s.field('ORDERS', name), null];
      const query = {
        database: s.db,
        type: 'query',
        query: { 'source-table': s.table('ORDERS').id, aggregation: [['count']], breakout: [field('ID'), field('PRODUCT_ID')] },
        constraints: { 'max-results': 1_048_575 },
      };
      const caller = { id: plain.id, isSuperuser: false, groupIds: [ALL_USERS_GROUP_ID] };
      const pivots = s.t.app.get(PivotService);
      const capped = await pivots.run(query, caller, new AbortController().signal, 'csv-download');
      expect([capped.status, capped.row_count]).toEqual(['completed', LIMITED_ROWS]);
      const whole = await pivots.run(query, caller, new AbortController().signal, 'ad-hoc');
      expect(whole.row_count).toBeGreaterThan(LIMITED_ROWS);
    });

    it('none: still lets the user run the same query without downloading it', async () => {
      await setGraph({ [ALL_USERS_GROUP_ID]: { [s.db]: access('none') } });
      const res = await http()
        .post('/api/dataset')
        .set(auth(plain.session))
        .send(ordersIds({ limit: 5 }))
        .expect(202);
      expect([res.body.status, res.body.row_count]).toEqual(['completed', 5]);
      const api = await http()
        .post('/api/dataset/api')
        .set(auth(plain.session))
        .type('form')
        .send({ query: JSON.stringify(ordersIds({ limit: 5 })) });
      expect(api.status).not.toBe(403);
    });

    it('takes the most generous of the user’s groups', async () => {
      await setGraph({
        [ALL_USERS_GROUP_ID]: { [s.db]: access('none') },
        [limitedGroup]: { [s.db]: access('limited') },
        [fullGroup]: { [s.db]: access('full') },
      });
      expect403(
        await http()
          .post('/api/dataset/csv')
          .set(auth(plain.session))
          .type('form')
          .send({ query: JSON.stringify(ordersIds()) }),
      );
      expect(await rowsIn('csv', await download('csv', limited.session).expect(200))).toBe(LIMITED_ROWS);
      expect(await rowsIn('csv', await download('csv', both.session).expect(200))).toBe(totalOrders);
      // A group's download level counts only where it also grants data access.
      await setGraph({ [ALL_USERS_GROUP_ID]: { [s.db]: access('limited') }, [fullGroup]: { [s.db]: { data: 'no', native: 'none' } } });
      expect(await rowsIn('csv', await download('csv', both.session).expect(200))).toBe(LIMITED_ROWS);
    });

    it("tells each caller in a query's answer what they may download of it (data.download_perms), before any download", async () => {
      await setGraph({
        [ALL_USERS_GROUP_ID]: { [s.db]: access('none') },
        [limitedGroup]: { [s.db]: access('limited') },
        [fullGroup]: { [s.db]: access('full') },
      });
      const perms = async (session: string) =>
        (
          await http()
            .post('/api/dataset')
            .set(auth(session))
            .send(ordersIds({ limit: 2 }))
            .expect(202)
        ).body.data.download_perms;
      expect([await perms(plain.session), await perms(limited.session), await perms(both.session), await perms(s.admin)]).toEqual([
        'none',
        'limited',
        'full',
        'full',
      ]);
      // A saved question's run says it too.
      const card = (
        await http()
          .post('/api/card')
          .set(auth(s.admin))
          .send({ name: 'Order ids', display: 'table', visualization_settings: {}, dataset_query: ordersIds({ limit: 2 }) })
          .expect(200)
      ).body.id as number;
      const run = await http().post(`/api/card/${card}/query`).set(auth(limited.session)).send({}).expect(202);
      expect(run.body.data.download_perms).toBe('limited');
    });

    it('always lets admins download everything', async () => {
      await setGraph({ [ALL_USERS_GROUP_ID]: { [s.db]: access('none') } });
      for (const format of ['csv', 'xlsx', 'json'])
        expect(await rowsIn(format, await download(format, s.admin).expect(200))).toBe(totalOrders);
      await setGraph({ [ALL_USERS_GROUP_ID]: { [s.db]: access('limited') } });
      expect(await rowsIn('csv', await download('csv', s.admin).expect(200))).toBe(totalOrders);
    });
  });
});

describe('the download permissions migration', () => {
  it('keeps full downloads for grants with data access and gives none to the others', async () => {
    const db = await freshAppDb();
    const config = loadConfig(db.env);
    const before = MIGRATIONS.slice(0, MIGRATIONS.indexOf(DownloadPermissions1764547200000));
    const old = await new DataSource({ ...dataSourceOptions(config), migrations: before }).initialize();
    try {
      await runMigrations(old);
      await old.query(`INSERT INTO metabase_database (name, engine, details) VALUES ('W', 'sqlite', '{}')`);
      const [{ id }] = await old.query(`SELECT id FROM metabase_database WHERE name = 'W'`);
      await old.query(`INSERT INTO permissions_group (name) VALUES ('Readers'), ('Blocked')`);
      const groups: Array<{ id: number; name: string }> = await old.query(
        `SELECT id, name FROM permissions_group WHERE name IN ('Readers', 'Blocked')`,
      );
      const gid = (name: string) => Number(groups.find((g) => g.name === name)!.id);
      await old.query(
        `INSERT INTO database_permission (group_id, db_id, data, native) VALUES (${ALL_USERS_GROUP_ID}, ${id}, 'unrestricted', 'write'),` +
          ` (${gid('Readers')}, ${id}, 'unrestricted', 'none'), (${gid('Blocked')}, ${id}, 'no', 'none')`,
      );
    } finally {
      await old.destroy();
    }
    const current = await new DataSource(dataSourceOptions(config)).initialize();
    try {
      expect(await runMigrations(current)).toContain(new DownloadPermissions1764547200000().name);
      const rows: Array<{ group_id: number; download: string }> = await current.query(
        'SELECT group_id, download FROM database_permission ORDER BY group_id',
      );
      expect(rows.map((r) => r.download)).toEqual(['full', 'full', 'none']);
    } finally {
      await current.destroy();
      await db.drop();
    }
  });
});
