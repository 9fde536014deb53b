import type { Engine } from '../../src/query-engine/execute/drivers';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, setupAdmin } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { startTestApp, type TestApp } from '../support/test-app';
import { availableEngines } from '../support/warehouses';

jest.setTimeout(180_000);

const TYPED = [
  'id,name,amount,price,active,day,at,at_tz,big',
  '1,Ann,10,1.5,true,2024-01-02,2024-01-02 03:04:05,2024-01-02T03:04:05Z,3000000000',
  '2,Bob,,2.25,false,2024-02-03,2024-02-03T10:00:00,2024-02-03T10:00:00+02:00,3000000001',
  '3,"Cé, x",7,3,yes,2024-03-04,2024-03-04 00:00:00,2024-03-04T00:00:00-05:00,5',
].join('\n');

/**
 * CSV uploads (issue 19) on every warehouse that takes them: a file becomes a table and a model whose query
 * returns its rows, with each column's type detected; delimiters, BOM and Latin-1; broken files leave no table.
 */
describe.each(availableEngines(['duckdb', 'postgres', 'mysql']).map((e) => [e]))('CSV uploads on %s', (engine: Engine) => {
  let t: TestApp;
  let admin: string;
  let wh: E2eWarehouse;
  let db: number;
  const http = () => t.http();
  const upload = (name: string, content: string | Buffer) =>
    http()
      .post('/api/card/from-csv')
      .set(auth(admin))
      .field('collection_id', 'root')
      .attach('file', Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  const modelRows = async (id: number) => {
    const res = (await http().post(`/api/card/${id}/query`).set(auth(admin)).send({}).expect(202)).body;
    expect(res.status).toBe('completed');
    return { cols: res.data.cols.map((c: { name: string }) => c.name.toLowerCase()) as string[], rows: res.data.rows as unknown[][] };
  };
  const uploadedTables = async (): Promise<number> => {
    // This warehouse's own tables only: MariaDB's information_schema lists every database on the server, and this
    // file runs in both jest projects at once, each with a database of its own there.
    const own = engine === 'mysql' ? 'table_schema = DATABASE()' : engine === 'postgres' ? 'table_catalog = current_database()' : 'TRUE';
    const sql = `SELECT count(*) FROM information_schema.tables WHERE ${own} AND lower(table_name) LIKE 'up\\_%'`;
    const res = (
      await http()
        .post('/api/dataset')
        .set(auth(admin))
        .send({ database: db, type: 'native', native: { query: sql } })
        .expect(202)
    ).body;
    expect(res.error).toBeUndefined();
    return Number(res.data.rows[0][0]);
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    wh = await e2eWarehouse(engine, t.config.dataDir);
    db = (
      await http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine, name: `Uploads ${engine}`, details: wh.details })
        .expect(200)
    ).body.id;
    await waitForSync(t, admin, db);
    await http()
      .put('/api/setting/uploads-settings')
      .set(auth(admin))
      .send({ value: { db_id: db, schema_name: null, table_prefix: 'up_' } })
      .expect(204);
  });
  afterAll(async () => {
    await t.close();
    await wh.drop();
  });

  it('creates a table and a model from a well-formed file, with each type detected', async () => {
    const res = await upload('My Data!.csv', TYPED).expect(200);
    const id = res.body as number;
    expect(Number.isInteger(id)).toBe(true);
    const card = (await http().get(`/api/card/${id}`).set(auth(admin)).expect(200)).body;
    expect(card.type).toBe('model');
    expect(card.name).toBe('My Data!');
    const table = (await http().get(`/api/table/${card.table_id}/query_metadata`).set(auth(admin)).expect(200)).body;
    expect(table.name.toLowerCase()).toMatch(/^up_my_data_\d{14}_[0-9a-f]{4}$/);
    const types = Object.fromEntries(table.fields.map((f: { name: string; base_type: string }) => [f.name.toLowerCase(), f.base_type]));
    expect(types).toMatchObject({
      id: 'type/Integer',
      name: 'type/Text',
      amount: 'type/Integer',
      price: 'type/Float',
      day: 'type/Date',
      at: 'type/DateTime',
      big: 'type/BigInteger',
    });
    expect(types.active).toBe('type/Boolean');
    expect(types.at_tz).toMatch(/^type\/DateTime/);
    expect(types._mb_row_id).toBeUndefined(); // `id` is unique: it is the key
    const { cols, rows } = await modelRows(id);
    const at = (r: unknown[], c: string) => r[cols.indexOf(c)];
    expect(rows.map((r) => [Number(at(r, 'id')), at(r, 'name'), at(r, 'amount') === null ? null : Number(at(r, 'amount'))])).toEqual([
      [1, 'Ann', 10],
      [2, 'Bob', null],
      [3, 'Cé, x', 7],
    ]);
  });

  it('keeps the instant of a datetime with an offset, with or without a key of its own', async () => {
    const body = ['at_tz', '2024-01-02 10:00:01+05:30', '2024-02-03T10:00:00.250-02:00', '2024-03-04T00:00:00Z'].join('\n');
    const expected = ['2024-01-02T04:30:01.000Z', '2024-02-03T12:00:00.250Z', '2024-03-04T00:00:00.000Z'];
    for (const file of [
      body,
      body
        .split('\n')
        .map((l, i) => `${i === 0 ? 'id' : i},${l}`)
        .join('\n'),
    ]) {
      const { cols, rows } = await modelRows((await upload('instants.csv', file).expect(200)).body as number);
      const instants = rows.map((r) => new Date(String(r[cols.indexOf('at_tz')])).toISOString()).sort();
      expect(instants).toEqual(expected);
    }
  });

  it('reads semicolons with a BOM and tabs in Latin-1, and adds a key when none fits', async () => {
    const semi = (await upload('semi.csv', '\uFEFFcode;label\n1;x\n1;y\n').expect(200)).body as number;
    const s = await modelRows(semi);
    expect(s.cols).toEqual(['_mb_row_id', 'code', 'label']);
    expect(s.rows.map((r) => [Number(r[1]), r[2]])).toEqual([
      [1, 'x'],
      [1, 'y'],
    ]);
    const latin = (await upload('latin.tsv', Buffer.from('name\tcity\nJosé\tMünchen\n', 'latin1')).expect(200)).body as number;
    const l = await modelRows(latin);
    expect(l.rows.map((r) => r.slice(1))).toEqual([['José', 'München']]);
  });

  it('syncs the new table only: another new table is recorded but neither fingerprinted nor scanned', async () => {
    await wh.exec(['CREATE TABLE other_new (n INTEGER)', 'INSERT INTO other_new VALUES (1), (2)']);
    const id = (await upload('scoped.csv', 'k,v\n1,a\n2,b\n').expect(200)).body as number;
    const card = (await http().get(`/api/card/${id}`).set(auth(admin)).expect(200)).body;
    const fingerprinted = async (tableId: number) => {
      const table = (await http().get(`/api/table/${tableId}/query_metadata`).set(auth(admin)).expect(200)).body;
      return (table.fields as Array<{ name: string; fingerprint: unknown }>)
        .filter((f) => f.name !== '_mb_row_id')
        .map((f) => f.fingerprint !== null);
    };
    expect(await fingerprinted(card.table_id)).toEqual([true, true]);
    const meta = (await http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body;
    const other = meta.tables.find((x: { name: string }) => x.name.toLowerCase() === 'other_new');
    expect(other).toBeDefined();
    expect(await fingerprinted(other.id)).toEqual([false]);
  });

  it('refuses broken files with a clear 400 and leaves no table behind', async () => {
    const before = await uploadedTables();
    const cases: Array<[string | Buffer, RegExp]> = [
      ['', /empty/],
      ['a,b\n', /only a header/],
      ['a,b\n1,2\n3\n', /Row 3 /],
      [Buffer.from([0xff, 0xfe, 0x61, 0x00, 0x2c, 0x00]), /Unsupported file encoding/],
      // Passes detection (a datetime by its shape), refused by the database half-way: the table goes with it.
      ['a,at\n1,2024-01-01 10:00\n2,2024-01-01 25:00\n', /could not be loaded/],
    ];
    for (const [content, message] of cases) {
      const res = await upload('broken.csv', content).expect(400);
      expect(res.body.message).toMatch(message);
    }
    expect(await uploadedTables()).toBe(before);
  });
});
