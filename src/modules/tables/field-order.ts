import { isa } from '../fields';
import { WarehouseField } from '../../schema/field.entity';
import { FieldOrder } from '../../schema/table.entity';

const byName = (a: WarehouseField, b: WarehouseField) => {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id - b.id;
};

/** Metabase's "smart" order: the key, then the name, then timestamps, then the rest, each alphabetically. */
function smartRank(f: WarehouseField): number {
  if (isa(f.semantic_type, 'type/PK')) return 0;
  if (isa(f.semantic_type, 'type/Name')) return 1;
  if (isa(f.semantic_type, 'type/Temporal')) return 2;
  return 3;
}

/** The fields in the order a table's `field_order` asks for; their index becomes their `position`. */
export function orderFields(fields: WarehouseField[], order: FieldOrder): WarehouseField[] {
  const sorted = [...fields];
  switch (order) {
    case 'alphabetical':
      return sorted.sort(byName);
    case 'custom':
      return sorted.sort((a, b) => a.custom_position - b.custom_position || a.id - b.id);
    case 'database':
      return sorted.sort((a, b) => a.database_position - b.database_position || a.id - b.id);
    case 'smart':
      return sorted.sort((a, b) => smartRank(a) - smartRank(b) || byName(a, b));
  }
}
