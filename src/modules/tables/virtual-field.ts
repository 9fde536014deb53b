import type { CardColumn } from '../content';
import { type FieldHydrator, isa } from '../fields';
import { fieldDimensionOptions } from './dimension-options';

/** Metabase names the schema of root-collection cards so in the saved-questions virtual database. */
export const ROOT_COLLECTION_SCHEMA = 'Everything else';

export type HydratedField = Awaited<ReturnType<FieldHydrator['detailed']>>[number];

/**
 * One result column of a saved question as a field of its virtual `card__<id>` table, enriched from the warehouse
 * field it comes from. `keepKeys`: a native model's owner-set keys stay; other cards' keys confuse the query builder.
 */
export function virtualField(col: CardColumn, tableId: string, field: HydratedField | undefined, keepKeys: boolean) {
  const merged = {
    ...col,
    ...(field
      ? {
          semantic_type: field.semantic_type,
          fk_target_field_id: field.fk_target_field_id,
          has_field_values: field.has_field_values,
          target: field.target,
          dimensions: field.dimensions,
          name_field: field.name_field,
        }
      : {}),
    table_id: tableId,
    id: typeof col.id === 'number' ? col.id : ['field', col.name, { 'base-type': col.base_type ?? 'type/*' }],
  };
  const options = fieldDimensionOptions(
    {
      base_type: col.base_type ?? 'type/*',
      effective_type: col.effective_type ?? null,
      semantic_type: merged.semantic_type ?? null,
      fingerprint: (col.fingerprint as never) ?? null,
    },
    true,
  );
  const isKey = isa(merged.semantic_type, 'type/PK') || isa(merged.semantic_type, 'type/FK');
  const semantic = isKey && !keepKeys && typeof col.id !== 'number' ? null : (merged.semantic_type ?? null);
  return { ...merged, semantic_type: semantic, ...options };
}
