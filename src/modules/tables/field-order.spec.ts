import { WarehouseField } from '../../schema/field.entity';
import { orderFields } from './field-order';

const field = (id: number, name: string, semantic_type: string | null, database_position: number, custom_position = 0) =>
  ({ id, name, semantic_type, database_position, custom_position }) as WarehouseField;

const fields = [
  field(1, 'total', null, 0, 3),
  field(2, 'ID', 'type/PK', 1, 2),
  field(3, 'created_at', 'type/CreationTimestamp', 2, 1),
  field(4, 'Name', 'type/Name', 3, 0),
  field(5, 'amount', null, 4, 4),
];
const names = (order: Parameters<typeof orderFields>[1]) => orderFields(fields, order).map((f) => f.name);

describe('orderFields', () => {
  it('orders by each of the four rules', () => {
    expect(names('database')).toEqual(['total', 'ID', 'created_at', 'Name', 'amount']);
    expect(names('alphabetical')).toEqual(['amount', 'created_at', 'ID', 'Name', 'total']);
    expect(names('custom')).toEqual(['Name', 'created_at', 'ID', 'total', 'amount']);
    expect(names('smart')).toEqual(['ID', 'Name', 'created_at', 'amount', 'total']);
  });
});
