import { DataSource } from 'typeorm';
import { CardStore } from '../../src/modules/cards/card-store';
import { auth, MadeUser } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { TestApp } from '../support/test-app';
import { expect401, expect403, expect404, expect400 } from '../support/expect-wire';
import { until } from '../support/until';
import { grantsChanged } from '../support/grants';

interface Field {
  id: number;
  name: string;
  position: number;
}
interface Table {
  id: number;
  name: string;
  fields: Field[];
}

jest.setTimeout(120_000);

describe('table metadata API on the Sample Database', () => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;
  let dbId: number;
  let tables: Table[];
  const http = () => t.http();
  const table = (name: string) => tables.find((x) => x.name === name)!;
  const field = (tableName: string, name: string) => table(tableName).fields.find((f) => f.name === name)!;
  const names = (list: Array<{ name: string }>) => list.map((x) => x.name);
  /** App-DB SQL written with `?` placeholders, whichever app DB runs. */
  const sql = (text: string, params: unknown[] = []) => {
    const ds = t.app.get(DataSource);
    let i = 0;
    return ds.query(ds.options.type === 'postgres' ? text.replace(/\?/g, () => `$${++i}`) : text, params);
  };
  const valueCount = async (fieldId: number) =>
    Number((await sql('SELECT COUNT(*) AS c FROM metabase_fieldvalues WHERE field_id = ?', [fieldId]))[0].c);
  const fieldOrder = async (tableId: number) =>
    names((await http().get(`/api/table/${tableId}/query_metadata`).set(auth(admin)).expect(200)).body.fields);

  let resync: SampleApp['resync'];

  beforeAll(async () => {
    const sample = await startSampleApp();
    ({ t, admin, user, db: dbId, resync } = sample);
    tables = sample.meta.tables as unknown as Table[];
  });
  afterAll(() => t.close());

  describe('GET /api/table/', () => {
    it('lists the active tables by name, each with its database', async () => {
      const res = await http().get('/api/table/').set(auth(admin)).expect(200);
      expect(names(res.body)).toEqual(['ORDERS', 'PEOPLE', 'PRODUCTS', 'REVIEWS']);
      expect(res.body[2]).toMatchObject({
        id: table('PRODUCTS').id,
        db_id: dbId,
        schema: '',
        display_name: 'Products',
        active: true,
        estimated_row_count: 200,
      });
      expect(res.body[2].db).toMatchObject({ id: dbId, name: 'Sample Database', engine: 'sqlite', is_sample: true });
      expect(res.body[2].db.details).toBeDefined();
    });

    it('shows non-admins the database without its connection details', async () => {
      const res = await http().get('/api/table').set(auth(user.session)).expect(200);
      expect(names(res.body)).toEqual(['ORDERS', 'PEOPLE', 'PRODUCTS', 'REVIEWS']);
      expect(res.body[0].db).not.toHaveProperty('details');
    });

    it('wants credentials', async () => {
      expect401(await http().get('/api/table/'));
    });
  });

  describe('GET /api/table/:id', () => {
    it('answers the table with its database, schema and primary key', async () => {
      const res = await http()
        .get(`/api/table/${table('PRODUCTS').id}`)
        .set(auth(user.session))
        .expect(200);
      expect(res.body).toMatchObject({
        id: table('PRODUCTS').id,
        name: 'PRODUCTS',
        schema: '',
        field_order: 'database',
        pk_field: field('PRODUCTS', 'ID').id,
      });
      expect(res.body.db).toMatchObject({ id: dbId, name: 'Sample Database' });
    });

    it('answers the editable data model to admins only', async () => {
      await http()
        .get(`/api/table/${table('PRODUCTS').id}?include_editable_data_model=true`)
        .set(auth(admin))
        .expect(200);
      await http()
        .get(`/api/table/${table('PRODUCTS').id}?include_editable_data_model=false`)
        .set(auth(user.session))
        .expect(200);
      expect403(
        await http()
          .get(`/api/table/${table('PRODUCTS').id}?include_editable_data_model=true`)
          .set(auth(user.session)),
      );
    });

    it('validates the id and the flag, and 404s unknown tables', async () => {
      expect400(await http().get('/api/table/abc').set(auth(admin)), 'id', 'value must be an integer greater than zero.');
      expect400(await http().get('/api/table/0').set(auth(admin)), 'id', 'value must be an integer greater than zero.');
      expect400(
        await http()
          .get(`/api/table/${table('PRODUCTS').id}?include_editable_data_model=yes`)
          .set(auth(admin)),
        'include_editable_data_model',
        'value must be a valid boolean string.',
      );
      expect404(await http().get('/api/table/999999').set(auth(admin)));
      expect401(await http().get(`/api/table/${table('PRODUCTS').id}`));
    });
  });

  describe('PUT /api/table/:id', () => {
    it('updates the editable keys, records them as user-edited, and answers the table', async () => {
      const id = table('PEOPLE').id;
      const res = await http()
        .put(`/api/table/${id}`)
        .set(auth(admin))
        .send({
          display_name: 'Customers',
          description: 'Everyone who bought',
          caveats: 'Test accounts included',
          points_of_interest: 'Sources',
          entity_type: 'entity/UserTable',
          visibility_type: 'technical',
          show_in_getting_started: true,
          unknown_key: 'ignored',
        })
        .expect(200);
      expect(res.body).toMatchObject({
        id,
        display_name: 'Customers',
        description: 'Everyone who bought',
        caveats: 'Test accounts included',
        points_of_interest: 'Sources',
        entity_type: 'entity/UserTable',
        visibility_type: 'technical',
        show_in_getting_started: true,
      });
      const [row] = await sql('SELECT user_edited FROM metabase_table WHERE id = ?', [id]);
      expect(JSON.parse(row.user_edited).sort()).toEqual([
        'caveats',
        'description',
        'display_name',
        'entity_type',
        'points_of_interest',
        'show_in_getting_started',
        'visibility_type',
      ]);
      // null clears the nullable keys and leaves display_name and entity_type alone (Metabase's rule).
      const cleared = await http()
        .put(`/api/table/${id}`)
        .set(auth(admin))
        .send({ visibility_type: null, description: null, display_name: null, entity_type: null })
        .expect(200);
      expect(cleared.body).toMatchObject({
        visibility_type: null,
        description: null,
        display_name: 'Customers',
        entity_type: 'entity/UserTable',
      });
      expect(
        (await http().put(`/api/table/${id}`).set(auth(admin)).send({ entity_type: ':entity/GenericTable' }).expect(200)).body.entity_type,
      ).toBe('entity/GenericTable');
    });

    it('keeps an edited display name across a re-sync', async () => {
      const id = table('REVIEWS').id;
      await http().put(`/api/table/${id}`).set(auth(admin)).send({ display_name: 'Product reviews' }).expect(200);
      await resync();
      expect((await http().get(`/api/table/${id}`).set(auth(admin)).expect(200)).body.display_name).toBe('Product reviews');
    });

    it('re-positions the fields when field_order changes', async () => {
      const id = table('PRODUCTS').id;
      const res = await http().put(`/api/table/${id}`).set(auth(admin)).send({ field_order: 'alphabetical' }).expect(200);
      expect(res.body.field_order).toBe('alphabetical');
      expect(names(res.body.fields)).toEqual(['CATEGORY', 'CREATED_AT', 'EAN', 'ID', 'PRICE', 'RATING', 'TITLE', 'VENDOR']);
      expect(await fieldOrder(id)).toEqual(['CATEGORY', 'CREATED_AT', 'EAN', 'ID', 'PRICE', 'RATING', 'TITLE', 'VENDOR']);
      await http().put(`/api/table/${id}`).set(auth(admin)).send({ field_order: 'smart' }).expect(200);
      expect(await fieldOrder(id)).toEqual(['ID', 'CREATED_AT', 'CATEGORY', 'EAN', 'PRICE', 'RATING', 'TITLE', 'VENDOR']);
      await http().put(`/api/table/${id}`).set(auth(admin)).send({ field_order: 'database' }).expect(200);
      expect(await fieldOrder(id)).toEqual(['ID', 'EAN', 'TITLE', 'CATEGORY', 'VENDOR', 'PRICE', 'RATING', 'CREATED_AT']);
    });

    it('refuses invalid values with the spec messages', async () => {
      const put = (body: object) =>
        http()
          .put(`/api/table/${table('ORDERS').id}`)
          .set(auth(admin))
          .send(body);
      expect400(await put({ display_name: '  ' }), 'display_name', 'value must be a non-blank string.');
      expect400(await put({ entity_type: 'entity/Nope' }), 'entity_type', 'value must be a valid entity type (keyword or string).');
      expect400(await put({ entity_type: 'type/Category' }), 'entity_type', 'value must be a valid entity type (keyword or string).');
      expect400(await put({ visibility_type: 'secret' }), 'visibility_type', 'value must be one of: `cruft`, `hidden`, `technical`.');
      expect400(
        await put({ field_order: 'random' }),
        'field_order',
        'value must be one of: `alphabetical`, `custom`, `database`, `smart`.',
      );
      expect400(await put({ show_in_getting_started: 'yes' }), 'show_in_getting_started', 'value must be a boolean.');
      expect400(await put({ description: 12 }), 'description', 'value must be a string.');
    });

    it('is for admins, and 404s unknown tables', async () => {
      expect403(
        await http()
          .put(`/api/table/${table('ORDERS').id}`)
          .set(auth(user.session))
          .send({ display_name: 'x' }),
      );
      expect401(
        await http()
          .put(`/api/table/${table('ORDERS').id}`)
          .send({ display_name: 'x' }),
      );
      expect404(await http().put('/api/table/999999').set(auth(admin)).send({ display_name: 'x' }));
    });
  });

  describe('PUT /api/table/', () => {
    it('updates every table in ids and answers them', async () => {
      const ids = [table('ORDERS').id, table('REVIEWS').id];
      const res = await http()
        .put('/api/table/')
        .set(auth(admin))
        .send({ ids, caveats: 'Synthetic data', show_in_getting_started: true })
        .expect(200);
      expect(res.body.map((x: { id: number }) => x.id)).toEqual(ids);
      for (const x of res.body) expect(x).toMatchObject({ caveats: 'Synthetic data', show_in_getting_started: true });
    });

    it('refuses empty or invalid ids, and 404s when one is unknown', async () => {
      const res = await http().put('/api/table/').set(auth(admin)).send({ ids: [], caveats: 'x' });
      expect400(res, 'ids', 'the array cannot be empty');
      expect400(await http().put('/api/table/').set(auth(admin)).send({ caveats: 'x' }), 'ids', 'value must be an array.');
      expect400(
        await http()
          .put('/api/table/')
          .set(auth(admin))
          .send({ ids: [0] }),
        'ids',
        'value must be an integer greater than zero.',
      );
      expect400(
        await http()
          .put('/api/table/')
          .set(auth(admin))
          .send({ ids: [table('ORDERS').id], visibility_type: 'gone' }),
        'visibility_type',
        'value must be one of: `cruft`, `hidden`, `technical`.',
      );
      expect404(
        await http()
          .put('/api/table/')
          .set(auth(admin))
          .send({ ids: [table('ORDERS').id, 999999], caveats: 'x' }),
      );
    });

    it('is for admins', async () => {
      expect403(
        await http()
          .put('/api/table/')
          .set(auth(user.session))
          .send({ ids: [table('ORDERS').id], caveats: 'x' }),
      );
    });
  });

  describe('PUT /api/table/:id/fields/order', () => {
    const ids = () => table('PRODUCTS').fields.map((f) => f.id);

    it('takes the bare array of field ids, makes the order custom and positions the fields', async () => {
      const id = table('PRODUCTS').id;
      const reversed = [...ids()].reverse();
      expect((await http().put(`/api/table/${id}/fields/order`).set(auth(admin)).send(reversed).expect(200)).body).toEqual({
        success: true,
      });
      expect((await http().get(`/api/table/${id}`).set(auth(admin)).expect(200)).body.field_order).toBe('custom');
      expect(await fieldOrder(id)).toEqual(['CREATED_AT', 'RATING', 'PRICE', 'VENDOR', 'CATEGORY', 'TITLE', 'EAN', 'ID']);
      await http().put(`/api/table/${id}/fields/order`).set(auth(admin)).send({ field_order: ids() }).expect(200);
      expect(await fieldOrder(id)).toEqual(['ID', 'EAN', 'TITLE', 'CATEGORY', 'VENDOR', 'PRICE', 'RATING', 'CREATED_AT']);
    });

    it('wants exactly the table active field ids', async () => {
      const id = table('PRODUCTS').id;
      const put = (body: unknown) =>
        http()
          .put(`/api/table/${id}/fields/order`)
          .set(auth(admin))
          .send(body as object);
      const missing = await put(ids().slice(1));
      expect([missing.status, typeof missing.body.message]).toEqual([400, 'string']);
      expect((await put([...ids(), field('ORDERS', 'ID').id])).status).toBe(400);
      expect((await put([...ids(), ids()[0]])).status).toBe(400);
      expect400(await put({ field_order: 'ID' }), 'field_order', 'value must be an array.');
      expect400(await put([0, ...ids()]), 'field_order', 'value must be an integer greater than zero.');
      expect400(await put(['a']), 'field_order', 'value must be an integer greater than zero.');
    });

    it('is for admins, and 404s unknown tables', async () => {
      expect403(
        await http()
          .put(`/api/table/${table('PRODUCTS').id}/fields/order`)
          .set(auth(user.session))
          .send(ids()),
      );
      expect404(await http().put('/api/table/999999/fields/order').set(auth(admin)).send(ids()));
    });
  });

  describe('GET /api/table/:id/fks', () => {
    it('lists the foreign keys pointing at the table', async () => {
      const res = await http()
        .get(`/api/table/${table('PRODUCTS').id}/fks`)
        .set(auth(user.session))
        .expect(200);
      const byOrigin = res.body
        .map((fk: { origin: { table: { name: string }; name: string } }) => `${fk.origin.table.name}.${fk.origin.name}`)
        .sort();
      expect(byOrigin).toEqual(['ORDERS.PRODUCT_ID', 'REVIEWS.PRODUCT_ID']);
      const orders = res.body.find((fk: { origin_id: number }) => fk.origin_id === field('ORDERS', 'PRODUCT_ID').id);
      expect(orders).toMatchObject({
        relationship: 'Mt1',
        destination_id: field('PRODUCTS', 'ID').id,
        origin: { id: field('ORDERS', 'PRODUCT_ID').id, semantic_type: 'type/FK', table: { name: 'ORDERS', db: { id: dbId } } },
        destination: { id: field('PRODUCTS', 'ID').id, name: 'ID', table: { name: 'PRODUCTS' } },
      });
      expect(orders.origin.table.db).not.toHaveProperty('details');
    });

    it('is empty for a table nothing points at', async () => {
      expect(
        (
          await http()
            .get(`/api/table/${table('ORDERS').id}/fks`)
            .set(auth(admin))
            .expect(200)
        ).body,
      ).toEqual([]);
    });

    it('404s unknown tables and wants credentials', async () => {
      expect404(await http().get('/api/table/999999/fks').set(auth(admin)));
      expect401(await http().get(`/api/table/${table('ORDERS').id}/fks`));
    });
  });

  describe('GET /api/table/:id/query_metadata', () => {
    const qm = (tableName: string, query = '', session = admin) =>
      http()
        .get(`/api/table/${table(tableName).id}/query_metadata${query}`)
        .set(auth(session));

    it('answers the table with its database, fields, targets, values and dimension options', async () => {
      const res = await qm('PRODUCTS', '', user.session).expect(200);
      expect(res.body).toMatchObject({
        id: table('PRODUCTS').id,
        name: 'PRODUCTS',
        segments: [],
        metrics: [],
        db: { id: dbId, engine: 'sqlite' },
      });
      expect(res.body.db).not.toHaveProperty('details');
      const f = (name: string) => res.body.fields.find((x: { name: string }) => x.name === name);
      expect(f('CATEGORY')).toMatchObject({
        has_field_values: 'list',
        values: [['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']],
        has_more_values: false,
        dimensions: [],
        target: null,
      });
      expect(f('ID')).toMatchObject({ semantic_type: 'type/PK', name_field: { id: field('PRODUCTS', 'TITLE').id, name: 'TITLE' } });
      expect(f('PRICE').dimension_options.length).toBeGreaterThan(0);
      expect(res.body.dimension_options[f('PRICE').default_dimension_option]).toMatchObject({ name: 'Auto bin', type: 'type/Number' });
      expect(res.body.dimension_options[f('CREATED_AT').default_dimension_option]).toMatchObject({
        name: 'Day',
        mbql: ['field', null, { 'temporal-unit': 'day' }],
      });
      const orders = (await qm('ORDERS').expect(200)).body.fields.find((x: { name: string }) => x.name === 'PRODUCT_ID');
      expect(orders.target).toMatchObject({ id: field('PRODUCTS', 'ID').id, name: 'ID', table_id: table('PRODUCTS').id });
    });

    it('hides sensitive and hidden fields unless asked, and never shows retired ones', async () => {
      const put = (name: string, visibility_type: string) =>
        http()
          .put(`/api/field/${field('PEOPLE', name).id}`)
          .set(auth(admin))
          .send({ visibility_type })
          .expect(200);
      await put('PASSWORD', 'sensitive');
      await put('ADDRESS', 'hidden');
      await put('ZIP', 'retired');
      const shown = async (query: string) => names((await qm('PEOPLE', query).expect(200)).body.fields);
      const plain = await shown('');
      expect(plain).not.toEqual(expect.arrayContaining(['PASSWORD']));
      expect(plain).not.toEqual(expect.arrayContaining(['ADDRESS']));
      expect(plain).toContain('EMAIL');
      expect(await shown('?include_sensitive_fields=true')).toContain('PASSWORD');
      expect(await shown('?include_hidden_fields=true')).toContain('ADDRESS');
      const all = await shown('?include_sensitive_fields=true&include_hidden_fields=true&include_editable_data_model=true');
      expect(all).toHaveLength(12);
      expect(all).not.toContain('ZIP');
      for (const name of ['PASSWORD', 'ADDRESS', 'ZIP']) await put(name, 'normal');
    });

    it('needs admin for the editable data model and validates the flags', async () => {
      expect403(await qm('PEOPLE', '?include_editable_data_model=true', user.session));
      await qm('PEOPLE', '?include_editable_data_model=false', user.session).expect(200);
      expect400(await qm('PEOPLE', '?include_sensitive_fields=yes'), 'include_sensitive_fields', 'value must be a valid boolean string.');
      expect400(await qm('PEOPLE', '?include_hidden_fields=1'), 'include_hidden_fields', 'value must be a valid boolean string.');
      expect400(
        await qm('PEOPLE', '?include_editable_data_model=TRUE'),
        'include_editable_data_model',
        'value must be a valid boolean string.',
      );
      expect404(await http().get('/api/table/999999/query_metadata').set(auth(admin)));
      expect401(await http().get(`/api/table/${table('PEOPLE').id}/query_metadata`));
    });
  });

  describe('GET /api/table/:id/related', () => {
    it('answers the tables linked either way and the others of the schema', async () => {
      const products = (
        await http()
          .get(`/api/table/${table('PRODUCTS').id}/related`)
          .set(auth(user.session))
          .expect(200)
      ).body;
      expect(products).toMatchObject({ table: { id: table('PRODUCTS').id }, segments: [], metrics: [], 'linking-to': [] });
      expect(names(products['linked-from']).sort()).toEqual(['ORDERS', 'REVIEWS']);
      expect(names(products.tables)).toEqual(['PEOPLE']);
      const orders = (
        await http()
          .get(`/api/table/${table('ORDERS').id}/related`)
          .set(auth(admin))
          .expect(200)
      ).body;
      expect(names(orders['linking-to']).sort()).toEqual(['PEOPLE', 'PRODUCTS']);
      expect(orders['linked-from']).toEqual([]);
      expect(names(orders.tables)).toEqual(['REVIEWS']);
    });

    it('404s unknown tables', async () => {
      expect404(await http().get('/api/table/999999/related').set(auth(admin)));
    });
  });

  describe('saved questions as virtual tables', () => {
    it('has no foreign keys', async () => {
      expect((await http().get('/api/table/card__12/fks').set(auth(user.session)).expect(200)).body).toEqual([]);
      expect401(await http().get('/api/table/card__12/fks'));
    });

    it('refuses a malformed card id', async () => {
      expect400(await http().get('/api/table/card__abc/fks').set(auth(admin)), 'id', 'value must be an integer greater than zero.');
      expect400(
        await http().get('/api/table/card__0/query_metadata').set(auth(admin)),
        'id',
        'value must be an integer greater than zero.',
      );
    });

    it('404s until cards exist', async () => {
      expect404(await http().get('/api/table/card__12/query_metadata').set(auth(admin)));
    });

    it('builds the virtual table from the card source', async () => {
      const source = t.app.get(CardStore);
      const spy = jest.spyOn(source, 'resultMetadata').mockResolvedValue({
        id: 12,
        name: 'Big orders',
        description: null,
        database_id: dbId,
        type: 'question',
        collection_name: null,
        result_metadata: [
          {
            name: 'PRODUCT_ID',
            display_name: 'Product ID',
            base_type: 'type/Integer',
            semantic_type: 'type/FK',
            id: field('ORDERS', 'PRODUCT_ID').id,
          },
          {
            name: 'sum',
            display_name: 'Sum of Total',
            base_type: 'type/Float',
            semantic_type: null,
            fingerprint: { type: { 'type/Number': { min: 1, max: 9 } } },
          },
        ],
      });
      try {
        const res = await http().get('/api/table/card__12/query_metadata').set(auth(user.session)).expect(200);
        expect(spy).toHaveBeenCalledWith(12, expect.objectContaining({ id: user.id }));
        expect(res.body).toMatchObject({
          id: 'card__12',
          db_id: dbId,
          display_name: 'Big orders',
          schema: 'Everything else',
          type: 'question',
        });
        expect(res.body.fields[0]).toMatchObject({
          id: field('ORDERS', 'PRODUCT_ID').id,
          table_id: 'card__12',
          semantic_type: 'type/FK',
          target: { id: field('PRODUCTS', 'ID').id },
        });
        expect(res.body.fields[1]).toMatchObject({
          id: ['field', 'sum', { 'base-type': 'type/Float' }],
          table_id: 'card__12',
          default_dimension_option: expect.any(String),
        });
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('discard_values and rescan_values', () => {
    it('discards the value lists of every field of the table, and rescans them', async () => {
      const id = table('PRODUCTS').id;
      const category = field('PRODUCTS', 'CATEGORY').id;
      expect(await valueCount(category)).toBe(1);
      expect((await http().post(`/api/table/${id}/discard_values`).set(auth(admin)).expect(200)).body).toEqual({ status: 'success' });
      expect(await valueCount(category)).toBe(0);
      expect((await http().post(`/api/table/${id}/rescan_values`).set(auth(admin)).expect(200)).body).toEqual({ status: 'success' });
      await until(async () => (await valueCount(category)) > 0, 30_000);
      const values = await http().get(`/api/field/${category}/values`).set(auth(admin)).expect(200);
      expect(values.body.values).toEqual([['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']]);
    });

    it('is for admins, and 404s unknown tables', async () => {
      for (const op of ['discard_values', 'rescan_values']) {
        expect403(
          await http()
            .post(`/api/table/${table('PRODUCTS').id}/${op}`)
            .set(auth(user.session)),
        );
        expect404(await http().post(`/api/table/999999/${op}`).set(auth(admin)));
        expect400(await http().post(`/api/table/x/${op}`).set(auth(admin)), 'id', 'value must be an integer greater than zero.');
      }
    });
  });

  describe('an inactive table (gone from the warehouse)', () => {
    it('is not listed and answers 404 everywhere', async () => {
      const id = table('REVIEWS').id;
      await sql('UPDATE metabase_table SET active = ? WHERE id = ?', [false, id]);
      try {
        expect(names((await http().get('/api/table/').set(auth(admin)).expect(200)).body)).toEqual(['ORDERS', 'PEOPLE', 'PRODUCTS']);
        for (const path of [`${id}`, `${id}/query_metadata`, `${id}/fks`, `${id}/related`])
          expect404(await http().get(`/api/table/${path}`).set(auth(admin)));
        expect404(await http().put(`/api/table/${id}`).set(auth(admin)).send({ display_name: 'x' }));
        expect404(
          await http()
            .put('/api/table/')
            .set(auth(admin))
            .send({ ids: [id], caveats: 'x' }),
        );
        expect404(
          await http()
            .get(`/api/field/${field('REVIEWS', 'RATING').id}`)
            .set(auth(admin)),
        );
        const related = (
          await http()
            .get(`/api/table/${table('PRODUCTS').id}/related`)
            .set(auth(admin))
            .expect(200)
        ).body;
        expect(names(related['linked-from'])).toEqual(['ORDERS']);
      } finally {
        await sql('UPDATE metabase_table SET active = ? WHERE id = ?', [true, id]);
      }
    });
  });

  describe('a user whose groups have no data access', () => {
    beforeAll(async () => {
      await sql("UPDATE database_permission SET data = 'no', native = 'none'");
      await grantsChanged(t.app);
    });
    afterAll(async () => {
      await sql("UPDATE database_permission SET data = 'unrestricted', native = 'write'");
      await grantsChanged(t.app);
    });

    it('sees no tables and may read none', async () => {
      expect((await http().get('/api/table/').set(auth(user.session)).expect(200)).body).toEqual([]);
      const id = table('PRODUCTS').id;
      for (const path of [`${id}`, `${id}/query_metadata`, `${id}/fks`, `${id}/related`]) {
        expect403(await http().get(`/api/table/${path}`).set(auth(user.session)));
      }
      expect((await http().get('/api/table/').set(auth(admin)).expect(200)).body).toHaveLength(4);
    });
  });
});
