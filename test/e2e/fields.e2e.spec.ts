import { DataSource } from 'typeorm';
import { DatabasesRepository } from '../../src/modules/databases/databases.repository';
import { WarehouseConnections } from '../../src/modules/warehouse/warehouse-connections';
import { auth, MadeUser } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { TestApp } from '../support/test-app';
import { expect401, expect403, expect404, expect400, expectMessage } from '../support/expect-wire';
import { grantsChanged } from '../support/grants';

const POSITIVE = 'value must be an integer greater than zero.';
const NON_BLANK = 'value must be a non-blank string.';
const HOSTILE = ["' OR 1=1 --", '%', '_', '%a', 'a%', '\'; DROP TABLE "PEOPLE"; --'];

interface Field {
  id: number;
  name: string;
  table_id: number;
}
interface Table {
  id: number;
  name: string;
  fields: Field[];
}

jest.setTimeout(120_000);

describe('field metadata API on the Sample Database', () => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;
  let dbId: number;
  let tables: Table[];
  const http = () => t.http();
  const table = (name: string) => tables.find((x) => x.name === name)!;
  const field = (tableName: string, name: string) => table(tableName).fields.find((f) => f.name === name)!;
  const id = (tableName: string, name: string) => field(tableName, name).id;
  const get = (path: string, session = admin) => http().get(`/api/field/${path}`).set(auth(session));
  const put = (fieldId: number, body: object) => http().put(`/api/field/${fieldId}`).set(auth(admin)).send(body);
  /** Ground truth, read from the warehouse directly. */
  const warehouse = async (sql: string, params: Array<string | number> = []) => {
    const db = (await t.app.get(DatabasesRepository).findById(dbId))!;
    return (await t.app.get(WarehouseConnections).driverFor(db).query(sql, params, { readOnly: true })).rows;
  };
  /** App-DB SQL written with `?` placeholders, whichever app DB runs. */
  const appSql = (text: string, params: unknown[] = []) => {
    const ds = t.app.get(DataSource);
    let i = 0;
    return ds.query(ds.options.type === 'postgres' ? text.replace(/\?/g, () => `$${++i}`) : text, params);
  };
  const valueCount = async (fieldId: number) =>
    Number((await appSql('SELECT COUNT(*) AS c FROM metabase_fieldvalues WHERE field_id = ?', [fieldId]))[0].c);

  let resync: SampleApp['resync'];

  beforeAll(async () => {
    const sample = await startSampleApp();
    ({ t, admin, user, db: dbId, resync } = sample);
    tables = sample.meta.tables as unknown as Table[];
  });
  afterAll(() => t.close());

  describe('GET /api/field/:id', () => {
    it('answers the field with its table, database, target, dimensions and name field', async () => {
      const pk = (await get(`${id('PRODUCTS', 'ID')}`, user.session).expect(200)).body;
      expect(pk).toMatchObject({
        id: id('PRODUCTS', 'ID'),
        name: 'ID',
        semantic_type: 'type/PK',
        target: null,
        dimensions: [],
        has_field_values: 'none',
        name_field: { id: id('PRODUCTS', 'TITLE'), name: 'TITLE' },
        table: { id: table('PRODUCTS').id, name: 'PRODUCTS', schema: '', db: { id: dbId, name: 'Sample Database' } },
      });
      expect(pk.table.db).not.toHaveProperty('details');
      const fk = (await get(`${id('ORDERS', 'PRODUCT_ID')}`).expect(200)).body;
      expect(fk).toMatchObject({
        semantic_type: 'type/FK',
        fk_target_field_id: id('PRODUCTS', 'ID'),
        target: { id: id('PRODUCTS', 'ID'), name: 'ID' },
        name_field: null,
      });
      expect((await get(`${id('PRODUCTS', 'CATEGORY')}`).expect(200)).body.has_field_values).toBe('list');
    });

    it('answers the editable data model to admins only', async () => {
      const res = await get(`${id('PRODUCTS', 'ID')}?include_editable_data_model=true`).expect(200);
      expect(res.body.table.db.details).toBeDefined();
      expect403(await get(`${id('PRODUCTS', 'ID')}?include_editable_data_model=true`, user.session));
      expect400(
        await get(`${id('PRODUCTS', 'ID')}?include_editable_data_model=maybe`),
        'include_editable_data_model',
        'value must be a valid boolean string.',
      );
    });

    it('validates the id, 404s unknown fields, and wants credentials', async () => {
      expect400(await get('abc'), 'id', POSITIVE);
      expect400(await get('-3'), 'id', POSITIVE);
      expect404(await get('999999'));
      expect404(await get('99999999999'));
      expect401(await http().get(`/api/field/${id('PRODUCTS', 'ID')}`));
    });
  });

  describe('PUT /api/field/:id', () => {
    it('updates the descriptive keys, records them as user-edited, and answers the field', async () => {
      const fid = id('PRODUCTS', 'VENDOR');
      const res = await put(fid, {
        display_name: 'Supplier',
        description: 'Who makes it',
        points_of_interest: 'Big ones',
        caveats: 'Sometimes blank',
        visibility_type: 'details-only',
        settings: { currency: 'EUR' },
        nfc_path: ['a', 'b'],
        json_unfolding: true,
      }).expect(200);
      expect(res.body).toMatchObject({
        id: fid,
        display_name: 'Supplier',
        description: 'Who makes it',
        points_of_interest: 'Big ones',
        caveats: 'Sometimes blank',
        visibility_type: 'details-only',
        settings: { currency: 'EUR' },
        nfc_path: ['a', 'b'],
        json_unfolding: true,
        dimensions: [],
      });
      const [row] = await appSql('SELECT user_edited FROM metabase_field WHERE id = ?', [fid]);
      expect(JSON.parse(row.user_edited).sort()).toEqual([
        'caveats',
        'description',
        'display_name',
        'json_unfolding',
        'nfc_path',
        'points_of_interest',
        'settings',
        'visibility_type',
      ]);
      const cleared = await put(fid, {
        description: null,
        visibility_type: null,
        display_name: null,
        settings: null,
        nfc_path: null,
      }).expect(200);
      expect(cleared.body).toMatchObject({
        description: null,
        visibility_type: 'normal',
        display_name: 'Supplier',
        settings: { currency: 'EUR' },
        nfc_path: null,
      });
    });

    it('keeps an edited display name and semantic type across a re-sync', async () => {
      await put(id('PRODUCTS', 'TITLE'), { display_name: 'Product name' }).expect(200);
      await put(id('PEOPLE', 'SOURCE'), { semantic_type: 'type/Company' }).expect(200);
      await resync();
      expect((await get(`${id('PRODUCTS', 'TITLE')}`).expect(200)).body.display_name).toBe('Product name');
      expect((await get(`${id('PEOPLE', 'SOURCE')}`).expect(200)).body.semantic_type).toBe('type/Company');
      await put(id('PEOPLE', 'SOURCE'), { semantic_type: 'type/Category' }).expect(200);
    });

    it('sets the coercion strategy and the effective type it gives, and drops one that does not fit', async () => {
      const ean = id('PRODUCTS', 'EAN');
      expect((await put(ean, { coercion_strategy: 'Coercion/ISO8601->Date' }).expect(200)).body).toMatchObject({
        coercion_strategy: 'Coercion/ISO8601->Date',
        effective_type: 'type/Date',
      });
      expect((await put(ean, { coercion_strategy: ':Coercion/YYYYMMDDHHMMSSString->Temporal' }).expect(200)).body).toMatchObject({
        coercion_strategy: 'Coercion/YYYYMMDDHHMMSSString->Temporal',
        effective_type: 'type/DateTime',
      });
      expect((await put(ean, { coercion_strategy: 'Coercion/UNIXSeconds->DateTime' }).expect(200)).body).toMatchObject({
        coercion_strategy: null,
        effective_type: 'type/Text',
      });
      const quantity = id('ORDERS', 'QUANTITY');
      expect((await put(quantity, { coercion_strategy: 'Coercion/UNIXMilliSeconds->DateTime' }).expect(200)).body).toMatchObject({
        coercion_strategy: 'Coercion/UNIXMilliSeconds->DateTime',
        effective_type: 'type/Instant',
      });
      expect((await put(quantity, { coercion_strategy: null }).expect(200)).body).toMatchObject({
        coercion_strategy: null,
        effective_type: 'type/Integer',
      });
    });

    it('clears the FK target and the FK remapping when the field stops being a foreign key', async () => {
      const fk = id('REVIEWS', 'PRODUCT_ID');
      await http()
        .post(`/api/field/${fk}/dimension`)
        .set(auth(admin))
        .send({ type: 'external', name: 'Product', human_readable_field_id: id('PRODUCTS', 'TITLE') })
        .expect(200);
      const res = await put(fk, { semantic_type: 'type/Category' }).expect(200);
      expect(res.body).toMatchObject({ semantic_type: 'type/Category', fk_target_field_id: null, dimensions: [], target: null });
      const back = await put(fk, { semantic_type: 'type/FK', fk_target_field_id: id('PRODUCTS', 'ID') }).expect(200);
      expect(back.body).toMatchObject({
        semantic_type: 'type/FK',
        fk_target_field_id: id('PRODUCTS', 'ID'),
        target: { id: id('PRODUCTS', 'ID') },
      });
      expect((await put(fk, { semantic_type: null }).expect(200)).body).toMatchObject({ semantic_type: null, fk_target_field_id: null });
      await put(fk, { semantic_type: 'type/FK', fk_target_field_id: id('PRODUCTS', 'ID') }).expect(200);
    });

    it('scans values when has_field_values becomes a list and discards them when it stops being one', async () => {
      const vendor = id('PRODUCTS', 'VENDOR');
      await put(vendor, { has_field_values: 'none' }).expect(200);
      expect(await valueCount(vendor)).toBe(0);
      expect((await get(`${vendor}/values`).expect(200)).body).toEqual({ field_id: vendor, values: [], has_more_values: false });
      expect((await put(vendor, { has_field_values: 'list' }).expect(200)).body.has_field_values).toBe('list');
      expect(await valueCount(vendor)).toBe(1);
      const expected = (await warehouse('SELECT DISTINCT "VENDOR" FROM "PRODUCTS" WHERE "VENDOR" IS NOT NULL ORDER BY 1')).map((r) => [
        r[0],
      ]);
      expect((await get(`${vendor}/values`).expect(200)).body.values).toEqual(expected);
      await put(vendor, { has_field_values: 'search' }).expect(200);
      expect(await valueCount(vendor)).toBe(0);
      // null gives the choice back to sync: auto-list for a text field with few values (shown as list).
      expect((await put(vendor, { has_field_values: null }).expect(200)).body.has_field_values).toBe('list');
      const [row] = await appSql('SELECT has_field_values, user_edited FROM metabase_field WHERE id = ?', [vendor]);
      expect(row.has_field_values).toBe('auto-list');
      expect(JSON.parse(row.user_edited)).not.toContain('has_field_values');
      expect(await valueCount(vendor)).toBe(1);
    });

    it('refuses invalid values with the spec messages', async () => {
      const fid = id('PRODUCTS', 'RATING');
      expect400(
        await put(fid, { visibility_type: 'secret' }),
        'visibility_type',
        'value must be one of: `details-only`, `hidden`, `normal`, `retired`, `sensitive`.',
      );
      expect400(await put(fid, { display_name: ' ' }), 'display_name', NON_BLANK);
      expect400(await put(fid, { description: '' }), 'description', NON_BLANK);
      expect400(await put(fid, { caveats: 3 }), 'caveats', NON_BLANK);
      expect400(await put(fid, { points_of_interest: '\t' }), 'points_of_interest', NON_BLANK);
      expect400(
        await put(fid, { semantic_type: 'type/Bogus' }),
        'semantic_type',
        'value must be a valid field semantic or relation type (keyword or string).',
      );
      expect400(
        await put(fid, { semantic_type: 'type/Integer' }),
        'semantic_type',
        'value must be a valid field semantic or relation type (keyword or string).',
      );
      expect400(
        await put(fid, { coercion_strategy: 'Coercion/Magic' }),
        'coercion_strategy',
        'value must be a valid coercion strategy (keyword or string).',
      );
      expect400(
        await put(fid, { has_field_values: 'sometimes' }),
        'has_field_values',
        'value must be one of: `auto-list`, `list`, `none`, `search`.',
      );
      expect400(await put(fid, { settings: 'x' }), 'settings', 'value must be a map.');
      expect400(await put(fid, { fk_target_field_id: 0 }), 'fk_target_field_id', POSITIVE);
      expect400(await put(fid, { fk_target_field_id: 999999 }), 'fk_target_field_id', 'Invalid target field');
      expect400(await put(fid, { nfc_path: ['a', ''] }), 'nfc_path', 'value must be an array of non-blank strings.');
      expect400(await put(fid, { nfc_path: 'a' }), 'nfc_path', 'value must be an array of non-blank strings.');
      expect400(await put(fid, { json_unfolding: 'yes' }), 'json_unfolding', 'value must be a boolean.');
      expect((await get(`${fid}`).expect(200)).body).toMatchObject({ semantic_type: 'type/Score', visibility_type: 'normal' });
    });

    it('is for admins, and 404s unknown fields', async () => {
      expect403(
        await http()
          .put(`/api/field/${id('PRODUCTS', 'RATING')}`)
          .set(auth(user.session))
          .send({ display_name: 'x' }),
      );
      expect401(
        await http()
          .put(`/api/field/${id('PRODUCTS', 'RATING')}`)
          .send({ display_name: 'x' }),
      );
      expect404(await put(999999, { display_name: 'x' }));
    });
  });

  describe('GET /api/field/:id/summary', () => {
    it('counts the rows and distinct values live', async () => {
      expect((await get(`${id('PRODUCTS', 'ID')}/summary`, user.session).expect(200)).body).toEqual([
        ['count', 200],
        ['distincts', 200],
      ]);
      expect((await get(`${id('PRODUCTS', 'CATEGORY')}/summary`).expect(200)).body).toEqual([
        ['count', 200],
        ['distincts', 4],
      ]);
      const [[orders, users]] = await warehouse('SELECT COUNT(*), COUNT(DISTINCT "USER_ID") FROM "ORDERS"');
      expect((await get(`${id('ORDERS', 'USER_ID')}/summary`).expect(200)).body).toEqual([
        ['count', orders],
        ['distincts', users],
      ]);
    });

    it('404s unknown fields and wants credentials', async () => {
      expect404(await get('999999/summary'));
      expect401(await http().get(`/api/field/${id('PRODUCTS', 'ID')}/summary`));
    });
  });

  describe('GET /api/field/:id/related', () => {
    it('answers the table and its other fields', async () => {
      const res = await get(`${id('PRODUCTS', 'CATEGORY')}/related`, user.session).expect(200);
      expect(res.body).toMatchObject({ table: { id: table('PRODUCTS').id, name: 'PRODUCTS' }, segments: [], metrics: [] });
      expect(res.body.fields.map((f: Field) => f.name).sort()).toEqual(['CREATED_AT', 'EAN', 'ID', 'PRICE', 'RATING', 'TITLE', 'VENDOR']);
      expect404(await get('999999/related'));
    });
  });

  describe('field values', () => {
    const category = () => id('PRODUCTS', 'CATEGORY');

    it('lists the values of a list field', async () => {
      expect((await get(`${category()}/values`, user.session).expect(200)).body).toEqual({
        field_id: category(),
        values: [['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']],
        has_more_values: false,
      });
    });

    it('answers an empty list for a field without list values', async () => {
      expect((await get(`${id('PRODUCTS', 'PRICE')}/values`).expect(200)).body).toEqual({
        field_id: id('PRODUCTS', 'PRICE'),
        values: [],
        has_more_values: false,
      });
    });

    it('scans the values of a list field on first read', async () => {
      await http().post(`/api/field/${category()}/discard_values`).set(auth(admin)).expect(200);
      expect(await valueCount(category())).toBe(0);
      expect((await get(`${category()}/values`, user.session).expect(200)).body.values).toEqual([
        ['Doohickey'],
        ['Gadget'],
        ['Gizmo'],
        ['Widget'],
      ]);
    });

    it('keeps sensitive values from non-admins', async () => {
      const source = id('PEOPLE', 'SOURCE');
      await put(source, { visibility_type: 'sensitive' }).expect(200);
      expect403(await get(`${source}/values`, user.session));
      expect((await get(`${source}/values`).expect(200)).body).toEqual({ field_id: source, values: [], has_more_values: false });
      await put(source, { visibility_type: 'normal' }).expect(200);
      expect((await get(`${source}/values`, user.session).expect(200)).body.values.length).toBeGreaterThan(0);
    });

    it('stores human-readable values and answers them as pairs, also after a rescan', async () => {
      const pairs = [
        ['Doohickey', 'Doo'],
        ['Gadget', 'Gad'],
        ['Gizmo', 'Giz'],
        ['Widget', 'Wid'],
      ];
      expect((await http().post(`/api/field/${category()}/values`).set(auth(admin)).send({ values: pairs }).expect(200)).body).toEqual({
        status: 'success',
      });
      expect((await get(`${category()}/values`, user.session).expect(200)).body.values).toEqual(pairs);
      expect((await http().post(`/api/field/${category()}/rescan_values`).set(auth(admin)).expect(200)).body).toEqual({
        status: 'success',
      });
      expect((await get(`${category()}/values`).expect(200)).body.values).toEqual(pairs);
      await http()
        .post(`/api/field/${category()}/values`)
        .set(auth(admin))
        .send({ values: pairs.map(([v]) => [v]) })
        .expect(200);
      expect((await get(`${category()}/values`).expect(200)).body.values).toEqual([['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']]);
    });

    it('refuses bad value pairs and fields that cannot be remapped', async () => {
      const post = (fieldId: number, body: object) => http().post(`/api/field/${fieldId}/values`).set(auth(admin)).send(body);
      const shape = 'value must be an array of value pairs: arrays of a value and an optional non-blank human-readable string.';
      expect400(await post(category(), { values: 'Gadget' }), 'values', shape);
      expect400(await post(category(), { values: ['Gadget'] }), 'values', shape);
      expect400(await post(category(), { values: [['Gadget', '']] }), 'values', shape);
      expect400(await post(category(), { values: [['Gadget', 'G', 'x']] }), 'values', shape);
      expect400(await post(category(), {}), 'values', shape);
      expectMessage(
        await post(category(), { values: [['Gadget', 'G'], ['Gizmo']] }),
        'If remapped values are specified, they must be specified for all field values',
      );
      const refused = await post(id('PRODUCTS', 'PRICE'), { values: [[1, 'one']] });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^You can only update the human readable values/);
      expect403(await http().post(`/api/field/${category()}/values`).set(auth(user.session)).send({ values: [] }));
      expect404(await post(999999, { values: [] }));
    });

    it('discards and rescans the values of one field (admins only)', async () => {
      expect((await http().post(`/api/field/${category()}/discard_values`).set(auth(admin)).expect(200)).body).toEqual({
        status: 'success',
      });
      expect(await valueCount(category())).toBe(0);
      expect((await http().post(`/api/field/${category()}/rescan_values`).set(auth(admin)).expect(200)).body).toEqual({
        status: 'success',
      });
      expect(await valueCount(category())).toBe(1);
      for (const op of ['discard_values', 'rescan_values']) {
        expect403(await http().post(`/api/field/${category()}/${op}`).set(auth(user.session)));
        expect404(await http().post(`/api/field/999999/${op}`).set(auth(admin)));
      }
    });

    it('answers the empty values of a saved-question field addressed by reference', async () => {
      const res = await get('field%2CTOTAL%2C%7B%22base-type%22%3A%22type%2FFloat%22%7D/values', user.session).expect(200);
      expect(res.body).toEqual({ values: [], field_id: ['field', 'TOTAL', { 'base-type': 'type/Float' }], has_more_values: false });
      const twoOptions = await get(
        `field%2CCREATED_AT%2C${encodeURIComponent(JSON.stringify({ 'base-type': 'type/DateTime', 'temporal-unit': 'month' }))}/values`,
      ).expect(200);
      expect(twoOptions.body.field_id).toEqual(['field', 'CREATED_AT', { 'base-type': 'type/DateTime', 'temporal-unit': 'month' }]);
      expect400(await get('field%2CTOTAL%2C%7Bnope/values'), 'options', 'value must be a valid JSON string.');
      expect401(await http().get('/api/field/field%2CTOTAL%2Cnull/values'));
    });
  });

  describe('dimensions', () => {
    const post = (fieldId: number, body: object, session = admin) =>
      http().post(`/api/field/${fieldId}/dimension`).set(auth(session)).send(body);

    it('sets an internal remapping, updates it in place, and deletes it', async () => {
      const fid = id('PRODUCTS', 'CATEGORY');
      const created = (await post(fid, { type: 'internal', name: 'Category label' }).expect(200)).body;
      expect(created).toMatchObject({ field_id: fid, type: 'internal', name: 'Category label', human_readable_field_id: null });
      expect(Object.keys(created).sort()).toEqual([
        'created_at',
        'field_id',
        'human_readable_field_id',
        'id',
        'name',
        'type',
        'updated_at',
      ]);
      const updated = (await post(fid, { type: 'internal', name: 'Kind' }).expect(200)).body;
      expect(updated).toMatchObject({ id: created.id, name: 'Kind' });
      expect((await get(`${fid}`).expect(200)).body.dimensions).toEqual([updated]);
      await http().delete(`/api/field/${fid}/dimension`).set(auth(admin)).expect(204);
      expect((await get(`${fid}`).expect(200)).body.dimensions).toEqual([]);
    });

    it('sets an external remapping of a foreign key through a field of its target table', async () => {
      const fk = id('ORDERS', 'PRODUCT_ID');
      const res = await post(fk, { type: 'external', name: 'Product', human_readable_field_id: id('PRODUCTS', 'TITLE') }).expect(200);
      expect(res.body).toMatchObject({ field_id: fk, type: 'external', human_readable_field_id: id('PRODUCTS', 'TITLE') });
      const qm = (
        await http()
          .get(`/api/table/${table('ORDERS').id}/query_metadata`)
          .set(auth(user.session))
          .expect(200)
      ).body;
      expect(qm.fields.find((f: Field) => f.id === fk).dimensions).toEqual([res.body]);
    });

    it('refuses invalid dimensions', async () => {
      const fk = id('ORDERS', 'PRODUCT_ID');
      expect400(await post(fk, { type: 'other', name: 'x' }), 'type', 'value must be one of: `external`, `internal`.');
      expect400(await post(fk, { type: 'internal', name: ' ' }), 'name', NON_BLANK);
      expect400(await post(fk, { type: 'internal' }), 'name', NON_BLANK);
      expect400(await post(fk, { type: 'external', name: 'x', human_readable_field_id: -1 }), 'human_readable_field_id', POSITIVE);
      expectMessage(await post(fk, { type: 'external', name: 'x' }), 'Foreign key based remappings require a human readable field id');
      expectMessage(
        await post(fk, { type: 'external', name: 'x', human_readable_field_id: id('PEOPLE', 'NAME') }),
        'The human readable field must be a field of the table the foreign key points to.',
      );
      expectMessage(
        await post(fk, { type: 'external', name: 'x', human_readable_field_id: 999999 }),
        'The human readable field must be a field of the table the foreign key points to.',
      );
      expectMessage(
        await post(id('PRODUCTS', 'VENDOR'), { type: 'external', name: 'x', human_readable_field_id: id('PRODUCTS', 'TITLE') }),
        'Foreign key based remappings require the field to be a foreign key.',
      );
    });

    it('is for admins, and 404s unknown fields', async () => {
      expect403(await post(id('PRODUCTS', 'CATEGORY'), { type: 'internal', name: 'x' }, user.session));
      expect403(
        await http()
          .delete(`/api/field/${id('PRODUCTS', 'CATEGORY')}/dimension`)
          .set(auth(user.session)),
      );
      expect404(await post(999999, { type: 'internal', name: 'x' }));
      expect404(await http().delete('/api/field/999999/dimension').set(auth(admin)));
    });
  });

  describe('GET /api/field/:id/remapping/:remapped-id', () => {
    const remap = (from: number, to: number, value: string, session = admin) =>
      http().get(`/api/field/${from}/remapping/${to}`).query({ value }).set(auth(session));

    it('looks up the human-readable value through the foreign key', async () => {
      const [[title]] = await warehouse('SELECT "TITLE" FROM "PRODUCTS" WHERE "ID" = ?', [7]);
      expect((await remap(id('ORDERS', 'PRODUCT_ID'), id('PRODUCTS', 'TITLE'), '7', user.session).expect(200)).body).toEqual([7, title]);
      expect((await remap(id('PRODUCTS', 'ID'), id('PRODUCTS', 'TITLE'), ' 7 ').expect(200)).body).toEqual([7, title]);
      expect((await remap(id('PRODUCTS', 'TITLE'), id('PRODUCTS', 'CATEGORY'), String(title)).expect(200)).body).toEqual([
        title,
        expect.any(String),
      ]);
    });

    it('answers the value alone when nothing matches', async () => {
      expect((await remap(id('ORDERS', 'PRODUCT_ID'), id('PRODUCTS', 'TITLE'), '99999').expect(200)).body).toEqual(['99999']);
      expect((await remap(id('ORDERS', 'PRODUCT_ID'), id('PRODUCTS', 'TITLE'), '1.5').expect(200)).body).toEqual(['1.5']);
    });

    it('treats hostile values as data', async () => {
      for (const value of HOSTILE) {
        expect((await remap(id('ORDERS', 'PRODUCT_ID'), id('PRODUCTS', 'TITLE'), value).expect(200)).body).toEqual([value]);
        expect((await remap(id('PRODUCTS', 'TITLE'), id('PRODUCTS', 'CATEGORY'), value).expect(200)).body).toEqual([value]);
      }
      expect((await warehouse('SELECT COUNT(*) FROM "PEOPLE"'))[0][0]).toBe(2500);
    });

    it('validates its parameters', async () => {
      const [from, to] = [id('ORDERS', 'PRODUCT_ID'), id('PRODUCTS', 'TITLE')];
      expect400(await get(`${from}/remapping/${to}`), 'value', NON_BLANK);
      expect400(await remap(from, to, '  '), 'value', NON_BLANK);
      expect400(await get(`${from}/remapping/abc?value=1`), 'remapped-id', POSITIVE);
      expectMessage(
        await remap(id('PRODUCTS', 'CATEGORY'), id('PEOPLE', 'NAME'), 'x'),
        'The second field must belong to the same table as the first, or to the table its foreign key points to.',
      );
      expect404(await remap(from, 999999, '1'));
      expect401(await http().get(`/api/field/${from}/remapping/${to}?value=1`));
    });
  });

  describe('GET /api/field/:id/search/:search-id', () => {
    const search = (from: number, to: number, query: Record<string, string>, session = admin) =>
      http().get(`/api/field/${from}/search/${to}`).query(query).set(auth(session));

    it('finds the values starting with the text, any case, ordered by the searched value', async () => {
      const expected = await warehouse('SELECT DISTINCT "ID", "NAME" FROM "PEOPLE" WHERE "NAME" LIKE ? ORDER BY 2, 1', ['M%']);
      expect(expected.length).toBeGreaterThan(10);
      const upper = (await search(id('PEOPLE', 'ID'), id('PEOPLE', 'NAME'), { value: 'M', limit: '1000' }, user.session).expect(200)).body;
      expect(upper).toEqual(expected);
      const lower = (await search(id('PEOPLE', 'ID'), id('PEOPLE', 'NAME'), { value: 'm', limit: '1000' }).expect(200)).body;
      expect(lower).toEqual(expected);
      expect((await search(id('PEOPLE', 'ID'), id('PEOPLE', 'NAME'), { value: 'M', limit: '5' }).expect(200)).body).toEqual(
        expected.slice(0, 5),
      );
      expect((await search(id('PEOPLE', 'ID'), id('PEOPLE', 'NAME'), { value: 'M' }).expect(200)).body).toEqual(expected.slice(0, 100));
    });

    it('follows a foreign key to the table it points at', async () => {
      const expected = await warehouse('SELECT DISTINCT "ID", "TITLE" FROM "PRODUCTS" WHERE "TITLE" LIKE ? ORDER BY 2, 1', ['Aero%']);
      expect(expected.length).toBeGreaterThan(0);
      expect((await search(id('ORDERS', 'PRODUCT_ID'), id('PRODUCTS', 'TITLE'), { value: 'aero' }).expect(200)).body).toEqual(expected);
    });

    it('treats hostile values as data', async () => {
      for (const value of HOSTILE) {
        expect((await search(id('PEOPLE', 'ID'), id('PEOPLE', 'NAME'), { value }).expect(200)).body).toEqual([]);
      }
      expect((await warehouse('SELECT COUNT(*) FROM "PEOPLE"'))[0][0]).toBe(2500);
    });

    it('validates its parameters', async () => {
      const [from, to] = [id('PEOPLE', 'ID'), id('PEOPLE', 'NAME')];
      expect400(await search(from, to, {}), 'value', NON_BLANK);
      expect400(await search(from, to, { value: ' ' }), 'value', NON_BLANK);
      expect400(await search(from, to, { value: 'a', limit: '0' }), 'limit', POSITIVE);
      expect400(await search(from, to, { value: 'a', limit: 'ten' }), 'limit', POSITIVE);
      expect400(await get(`${from}/search/x?value=a`), 'search-id', POSITIVE);
      expect((await search(from, to, { value: 'a', limit: '5000' }).expect(200)).body.length).toBeLessThanOrEqual(1000);
      expectMessage(
        await search(id('PRODUCTS', 'ID'), to, { value: 'a' }),
        'The second field must belong to the same table as the first, or to the table its foreign key points to.',
      );
      expect404(await search(999999, to, { value: 'a' }));
      expect401(await http().get(`/api/field/${from}/search/${to}?value=a`));
    });
  });

  describe('an inactive field (gone from the warehouse)', () => {
    it('answers 404 and is left out of its table', async () => {
      const fid = id('PRODUCTS', 'EAN');
      await appSql('UPDATE metabase_field SET active = ? WHERE id = ?', [false, fid]);
      try {
        for (const path of [`${fid}`, `${fid}/values`, `${fid}/summary`, `${fid}/related`]) expect404(await get(path));
        expect404(await put(fid, { display_name: 'x' }));
        const qm = (
          await http()
            .get(`/api/table/${table('PRODUCTS').id}/query_metadata`)
            .set(auth(admin))
            .expect(200)
        ).body;
        expect(qm.fields.map((f: Field) => f.name)).not.toContain('EAN');
      } finally {
        await appSql('UPDATE metabase_field SET active = ? WHERE id = ?', [true, fid]);
      }
    });
  });

  describe('a user whose groups have no data access', () => {
    beforeAll(async () => {
      await appSql("UPDATE database_permission SET data = 'no', native = 'none'");
      await grantsChanged(t.app);
    });
    afterAll(async () => {
      await appSql("UPDATE database_permission SET data = 'unrestricted', native = 'write'");
      await grantsChanged(t.app);
    });

    it('may read no field, its values, summary or related', async () => {
      const fid = id('PRODUCTS', 'CATEGORY');
      for (const path of [
        `${fid}`,
        `${fid}/values`,
        `${fid}/summary`,
        `${fid}/related`,
        `${fid}/remapping/${fid}?value=Gizmo`,
        `${fid}/search/${fid}?value=G`,
      ]) {
        expect403(await get(path, user.session));
      }
      await get(`${fid}`).expect(200);
    });
  });
});
