import type { AuthUser } from '../../common/auth/current-user';
import { NotFoundError } from '../../common/errors/api-errors';
import { EventBus } from '../../common/events/event-bus';
import type { WarehouseField } from '../../schema/field.entity';
import { CardMetadataQuery } from '../content';
import type { FieldHydrator, FieldsRepository, MetadataAccess } from '../fields';
import { TableMetadataService } from './table-metadata.service';
import { ROOT_COLLECTION_SCHEMA } from './virtual-field';

/** TableMetadataService: which fields the query builder gets of a table, and a saved question's virtual table. */
describe('TableMetadataService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;
  const field = (id: number, visibility_type: string, over: Partial<WarehouseField> = {}) =>
    ({ id, table_id: 5, name: `f${id}`, base_type: 'type/Integer', visibility_type, active: true, ...over }) as WarehouseField;
  const fields = [field(1, 'normal'), field(2, 'hidden'), field(3, 'sensitive'), field(4, 'retired')];

  function setup(card: unknown = null) {
    const access = {
      table: jest.fn().mockResolvedValue({ table: { id: 5, db_id: 1, name: 't', schema: 'public' }, db: { id: 1 } }),
      dbView: jest.fn().mockResolvedValue({ id: 1, features: [] }),
    };
    const repo = {
      activeFields: jest.fn().mockResolvedValue(fields),
      fieldsByIds: jest.fn(async (ids: number[]) => fields.filter((f) => ids.includes(f.id))),
    };
    const hydrator = {
      detailed: jest.fn(async (fs: WarehouseField[]) => fs.map((f) => ({ ...f, semantic_type: f.id === 1 ? 'type/PK' : null }))),
    };
    const bus = new EventBus();
    bus.answer(CardMetadataQuery, () => card as never);
    const service = new TableMetadataService(
      access as unknown as MetadataAccess,
      repo as unknown as FieldsRepository,
      hydrator as unknown as FieldHydrator,
      bus,
    );
    return { service, access, hydrator };
  }
  const ids = (out: { fields: Array<{ id: unknown }> }) => out.fields.map((f) => f.id);

  it('never shows retired fields, hidden ones only when asked, sensitive ones only when an admin asks', async () => {
    const m = setup();
    expect(ids(await m.service.queryMetadata(user, 5, { includeHidden: false, includeSensitive: true, editable: false }))).toEqual([1]);
    expect(ids(await m.service.queryMetadata(user, 5, { includeHidden: true, includeSensitive: true, editable: false }))).toEqual([1, 2]);
    expect(ids(await m.service.queryMetadata(admin, 5, { includeHidden: true, includeSensitive: true, editable: true }))).toEqual([
      1, 2, 3,
    ]);
    expect(m.access.table.mock.calls.map((c) => c[2])).toEqual(['read', 'read', 'write']);
  });

  it("builds a saved question's virtual table from its result columns, enriched by the live fields they come from", async () => {
    const card = {
      id: 9,
      name: 'Orders',
      database_id: 1,
      collection_name: null,
      description: null,
      type: 'question',
      result_metadata: [
        { id: 1, name: 'ID', base_type: 'type/Integer' },
        { id: 4, name: 'OLD', base_type: 'type/Integer' },
        { name: 'count', base_type: 'type/Integer' },
      ],
    };
    const out = await setup(card).service.cardQueryMetadata(user, 9);
    expect(out).toMatchObject({
      id: 'card__9',
      db_id: 1,
      schema: ROOT_COLLECTION_SCHEMA,
      display_name: 'Orders',
      segments: [],
      metrics: [],
    });
    expect(out.fields.map((f) => [f.id, f.table_id])).toEqual([
      [1, 'card__9'],
      [4, 'card__9'],
      [['field', 'count', { 'base-type': 'type/Integer' }], 'card__9'],
    ]);
    await expect(setup(null).service.cardQueryMetadata(user, 9)).rejects.toBeInstanceOf(NotFoundError);
  });
});
