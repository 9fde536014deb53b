import { iso } from '../../common/views/wire-values';
import { WarehouseField } from '../../schema/field.entity';

export type FieldView = ReturnType<typeof toFieldView>;

/** A field as the API shows it (Metabase's Field keys). */
export function toFieldView(f: WarehouseField) {
  return {
    id: f.id,
    table_id: f.table_id,
    name: f.name,
    display_name: f.display_name,
    description: f.description,
    database_type: f.database_type,
    base_type: f.base_type,
    effective_type: f.effective_type ?? f.base_type,
    semantic_type: f.semantic_type,
    coercion_strategy: f.coercion_strategy,
    fk_target_field_id: f.fk_target_field_id,
    parent_id: null,
    nfc_path: f.nfc_path,
    json_unfolding: f.json_unfolding ?? false,
    position: f.position,
    database_position: f.database_position,
    custom_position: f.custom_position,
    database_is_auto_increment: f.database_is_pk && /int/i.test(f.database_type),
    database_required: f.database_required,
    visibility_type: f.visibility_type,
    has_field_values: f.has_field_values,
    settings: f.settings,
    fingerprint: f.fingerprint,
    points_of_interest: f.points_of_interest,
    caveats: f.caveats,
    preview_display: f.preview_display,
    active: f.active,
    last_analyzed: iso(f.last_analyzed),
    created_at: iso(f.created_at),
    updated_at: iso(f.updated_at),
  };
}
