import type { AuthUser } from '../../common/auth/current-user';
import { NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { EventBus } from '../../common/events/event-bus';
import type { WarehouseField } from '../../schema/field.entity';
import type { WarehouseTable } from '../../schema/table.entity';
import type { DatabasesRepository } from '../databases';
import type { FieldHydrator, FieldsRepository, MetadataAccess } from '../fields';
import { DatasetMetadataService } from './dataset-metadata.service';

/** DatasetMetadataService: which databases, tables and fields an ad-hoc query's metadata holds; metadata kept in memory. */
describe('DatasetMetadataService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const table = (id: number, over: Partial<WarehouseTable> = {}) =>
    ({ id, db_id: 1, name: `t${id}`, schema: 'public', active: true, ...over }) as WarehouseTable;
  const field = (id: number, tableId: number, over: Partial<WarehouseField> = {}) =>
    ({
      id,
      table_id: tableId,
      name: `f${id}`,
      base_type: 'type/Integer',
      active: true,
      visibility_type: 'normal',
      fk_target_field_id: null,
      ...over,
    }) as WarehouseField;
  // Table 10 has an FK to table 20; 30 belongs to another database; 40 is retired.
  const tables = [table(10), table(20), table(30, { db_id: 2 }), table(40, { active: false }), table(50)];
  const fields = [
    field(100, 10, { fk_target_field_id: 200 }),
    field(101, 10, { visibility_type: 'sensitive' }),
    field(102, 10, { visibility_type: 'retired' }),
    field(200, 20),
    field(300, 30),
    field(500, 50),
    field(501, 50, { visibility_type: 'hidden' }),
  ];

  function setup(readable = true, db: unknown = { id: 1 }) {
    const access = {
      readableDbViews: jest.fn(async () => (readable ? new Map([[1, { id: 1, name: 'DW', features: ['binning'] }]]) : new Map())),
    };
    const repo = {
      tablesByIds: jest.fn(async (ids: number[]) => tables.filter((t) => ids.includes(t.id))),
      activeFields: jest.fn(async (ids: number[]) => fields.filter((f) => ids.includes(f.table_id))),
      fieldsByIds: jest.fn(async (ids: number[]) => fields.filter((f) => ids.includes(f.id))),
    };
    const hydrator = {
      detailed: jest.fn(async (fs: WarehouseField[]) => fs.map((f) => ({ id: f.id, table_id: f.table_id, base_type: f.base_type }))),
    };
    const service = new DatasetMetadataService(
      access as unknown as MetadataAccess,
      repo as unknown as FieldsRepository,
      { findById: jest.fn().mockResolvedValue(db) } as unknown as DatabasesRepository,
      hydrator as unknown as FieldHydrator,
      new EventBus(),
    );
    return { service };
  }
  const mbql = (query: Record<string, unknown>) => ({ database: 1, type: 'query', query });

  it('answers the source tables at every level with the tables their foreign keys reach, and only shown fields', async () => {
    const out = await setup().service.queryMetadata(
      user,
      mbql({ 'source-query': { 'source-table': 10 }, joins: [{ 'source-table': 40, alias: 'r' }] }),
    );
    expect(out.databases.map((d) => d.id)).toEqual([1]);
    expect(out.tables.map((t) => [t.id, t.fields.map((f) => f.id)])).toEqual([
      [10, [100]],
      [20, [200]],
    ]);
    expect(out.tables[0].fields[0]).toHaveProperty('dimension_options');
    expect(out.fields).toEqual([]);
  });

  it("answers a native query's field filter fields, of its own database and shown only", async () => {
    const tags = {
      a: { name: 'a', type: 'dimension', dimension: ['field', 500, null] },
      b: { name: 'b', type: 'dimension', dimension: ['field', 501, null] },
      c: { name: 'c', type: 'dimension', dimension: ['field', 300, null] },
    };
    const out = await setup().service.queryMetadata(user, {
      database: 1,
      type: 'native',
      native: { query: 'select {{a}}', 'template-tags': tags },
    });
    expect(out.fields.map((f) => f.id)).toEqual([500]);
    expect(out.tables).toEqual([]);
  });

  it('is empty for a database the caller may not read, 404 for an unknown one, and 400 for a query that does not normalize', async () => {
    await expect(setup(false).service.queryMetadata(user, mbql({ 'source-table': 10 }))).resolves.toEqual({
      databases: [],
      tables: [],
      fields: [],
    });
    await expect(setup(true, null).service.queryMetadata(user, mbql({ 'source-table': 10 }))).rejects.toBeInstanceOf(NotFoundError);
    const e = await setup()
      .service.queryMetadata(user, {
        'lib/type': 'mbql/query',
        database: 1,
        stages: [{ 'lib/type': 'mbql.stage/mbql', 'source-table': 10, filters: [42] }],
      })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect(Object.keys((e as ValidationError).errors)).toEqual(['query']);
  });
});
