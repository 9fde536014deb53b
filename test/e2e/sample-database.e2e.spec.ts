import { auth, setupAdmin } from '../support/factories';
import { waitForDatabase, waitForSync } from '../support/sync-wait';
import { startTestApp, TestApp } from '../support/test-app';

interface FieldView {
  id: number;
  name: string;
  base_type: string;
  semantic_type: string | null;
  fk_target_field_id: number | null;
  has_field_values: string;
  fingerprint: { global: { 'distinct-count': number } } | null;
}

describe('the Sample Database on a fresh start', () => {
  let t: TestApp;
  let admin: string;
  let metadata: { tables: Array<{ name: string; id: number; estimated_row_count: number; fields: FieldView[] }> };
  const field = (table: string, name: string) => metadata.tables.find((x) => x.name === table)!.fields.find((f) => f.name === name)!;

  beforeAll(async () => {
    t = await startTestApp({ LOAD_SAMPLE_DATABASE: 'true' });
    admin = await setupAdmin(t);
    const id = await waitForDatabase(t, admin, 'Sample Database');
    const db = await waitForSync(t, admin, id);
    expect(db).toMatchObject({ is_sample: true, engine: 'sqlite', initial_sync_status: 'complete' });
    metadata = (await t.http().get(`/api/database/${id}/metadata`).set(auth(admin)).expect(200)).body;
  });
  afterAll(() => t.close());

  it('has the four tables with their row counts', () => {
    const counts = Object.fromEntries(metadata.tables.map((x) => [x.name, x.estimated_row_count]));
    expect(Object.keys(counts).sort()).toEqual(['ORDERS', 'PEOPLE', 'PRODUCTS', 'REVIEWS']);
    expect(counts.PRODUCTS).toBe(200);
    expect(counts.PEOPLE).toBe(2500);
  });

  it('links the foreign keys', () => {
    expect(field('ORDERS', 'USER_ID')).toMatchObject({ semantic_type: 'type/FK', fk_target_field_id: field('PEOPLE', 'ID').id });
    expect(field('ORDERS', 'PRODUCT_ID')).toMatchObject({ semantic_type: 'type/FK', fk_target_field_id: field('PRODUCTS', 'ID').id });
    expect(field('REVIEWS', 'PRODUCT_ID')).toMatchObject({ semantic_type: 'type/FK', fk_target_field_id: field('PRODUCTS', 'ID').id });
  });

  it('infers the semantic types a user expects', () => {
    const expected: Array<[string, string, string]> = [
      ['PRODUCTS', 'ID', 'type/PK'],
      ['PRODUCTS', 'TITLE', 'type/Title'],
      ['PRODUCTS', 'CATEGORY', 'type/Category'],
      ['PRODUCTS', 'PRICE', 'type/Price'],
      ['PRODUCTS', 'RATING', 'type/Score'],
      ['PRODUCTS', 'CREATED_AT', 'type/CreationTimestamp'],
      ['PEOPLE', 'EMAIL', 'type/Email'],
      ['PEOPLE', 'NAME', 'type/Name'],
      ['PEOPLE', 'CITY', 'type/City'],
      ['PEOPLE', 'STATE', 'type/State'],
      ['PEOPLE', 'ZIP', 'type/ZipCode'],
      ['PEOPLE', 'LATITUDE', 'type/Latitude'],
      ['PEOPLE', 'LONGITUDE', 'type/Longitude'],
      ['PEOPLE', 'SOURCE', 'type/Category'],
      ['PEOPLE', 'BIRTH_DATE', 'type/Birthdate'],
      ['ORDERS', 'QUANTITY', 'type/Quantity'],
      ['ORDERS', 'DISCOUNT', 'type/Discount'],
      ['REVIEWS', 'BODY', 'type/Description'],
    ];
    for (const [table, name, semantic] of expected)
      expect([table, name, field(table, name).semantic_type]).toEqual([table, name, semantic]);
    expect(field('PEOPLE', 'PASSWORD').semantic_type).toBeNull();
  });

  it('fingerprints fields and lists values of low-cardinality ones', async () => {
    expect(field('PRODUCTS', 'CATEGORY').fingerprint!.global['distinct-count']).toBe(4);
    expect(field('PRODUCTS', 'CATEGORY').has_field_values).toBe('auto-list');
    expect(field('PEOPLE', 'EMAIL').has_field_values).toBe('search');
    expect(field('ORDERS', 'TOTAL').has_field_values).toBe('none');
  });
});
