import { Dimension } from '../../schema/dimension.entity';
import { FieldDataService } from './field-data.service';
import { WarehouseField } from '../../schema/field.entity';
import { FieldRemappingService } from './field-remapping.service';
import { FieldsRepository } from './fields.repository';
import { MetadataAccess } from './metadata-access.service';

/** ORDERS (table 1) and PEOPLE (table 2), as in the Sample Database. */
const field = (id: number, table_id: number, semantic_type: string | null, extra: Partial<WarehouseField> = {}) =>
  ({
    id,
    table_id,
    semantic_type,
    fk_target_field_id: null,
    active: true,
    visibility_type: 'normal',
    position: id,
    ...extra,
  }) as WarehouseField;
const FIELDS = [
  field(1, 1, 'type/PK'),
  field(2, 1, 'type/FK', { fk_target_field_id: 10 }), // ORDERS.USER_ID
  field(10, 2, 'type/PK'), // PEOPLE.ID
  field(11, 2, 'type/Email'),
  field(12, 2, 'type/Name'),
  field(13, 2, null, { visibility_type: 'sensitive' }), // PEOPLE.PASSWORD
];

function service(dimensions: Array<Pick<Dimension, 'field_id' | 'human_readable_field_id'>> = [], fields = FIELDS) {
  const repo = {
    findField: async (id: number) => fields.find((f) => f.id === id) ?? null,
    findDimension: async (id: number) => (dimensions.find((d) => d.field_id === id) as Dimension | undefined) ?? null,
    activeFields: async (tables: number[]) => fields.filter((f) => tables.includes(f.table_id) && f.active),
  } as unknown as FieldsRepository;
  return new FieldRemappingService(repo, {} as MetadataAccess, {} as FieldDataService);
}
const byId = (id: number) => FIELDS.find((f) => f.id === id) as WarehouseField;

describe('FieldRemappingService', () => {
  it("pairs a field with itself, its dimension's field, or for a primary key its table's Name field (Metabase's rule)", async () => {
    const plain = service();
    expect(await plain.isAllowedPair(byId(2), 2)).toBe(true);
    expect(await plain.isAllowedPair(byId(10), 12)).toBe(true);
    expect(await plain.isAllowedPair(byId(10), 11)).toBe(false);
    // A foreign key reaches the Name of the row it points to only through a dimension.
    expect(await plain.isAllowedPair(byId(2), 12)).toBe(false);
    const remapped = service([{ field_id: 2, human_readable_field_id: 12 }]);
    expect(await remapped.isAllowedPair(byId(2), 12)).toBe(true);
    expect(await remapped.isAllowedPair(byId(2), 11)).toBe(false);
  });

  it('shows a field as its dimension, else a key as the Name field of the table its rows are in', async () => {
    expect((await service().displayField(byId(2)))?.id).toBe(12);
    expect((await service().displayField(byId(10)))?.id).toBe(12);
    expect(await service().displayField(byId(11))).toBeNull();
    expect((await service([{ field_id: 2, human_readable_field_id: 11 }]).displayField(byId(2)))?.id).toBe(11);
  });

  it('never shows a field as a sensitive or retired one', async () => {
    expect(await service([{ field_id: 2, human_readable_field_id: 13 }]).displayField(byId(2))).toBeNull();
    const retiredName = FIELDS.map((f) => (f.id === 12 ? { ...f, visibility_type: 'retired' } : f)) as WarehouseField[];
    expect(await service([], retiredName).displayField(byId(10))).toBeNull();
    expect((await service([], retiredName).nameFields([2])).size).toBe(0);
  });
});
