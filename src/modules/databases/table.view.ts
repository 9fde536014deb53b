import { iso } from '../../common/views/wire-values';
import { WarehouseTable } from '../../schema/table.entity';

export type TableView = ReturnType<typeof toTableView>;

/** A table as the API shows it (Metabase's Table keys). */
export function toTableView(t: WarehouseTable) {
  return {
    id: t.id,
    db_id: t.db_id,
    schema: t.schema,
    name: t.name,
    display_name: t.display_name,
    description: t.description,
    entity_type: t.entity_type,
    visibility_type: t.visibility_type,
    field_order: t.field_order,
    active: t.active,
    is_upload: false,
    show_in_getting_started: t.show_in_getting_started,
    points_of_interest: t.points_of_interest,
    caveats: t.caveats,
    estimated_row_count: t.estimated_row_count,
    initial_sync_status: t.initial_sync_status,
    created_at: iso(t.created_at),
    updated_at: iso(t.updated_at),
  };
}
