import { DataSource, In } from 'typeorm';
import type { FieldMeta, MetadataProvider, TableMeta } from '../../query-engine/metadata';
import type { DatabaseMeta } from '../../query-engine/metadata';
import { WarehouseDatabase } from '../databases/database.entity';
import { WarehouseField } from '../fields/field.entity';
import { WarehouseTable } from '../tables/table.entity';

/** The engine's view of the app DB for one query run; each table's fields are read once. */
export class AppMetadataProvider implements MetadataProvider {
  private readonly tables = new Map<number, Promise<TableMeta | null>>();
  private readonly fieldsOfTable = new Map<number, Promise<FieldMeta[]>>();
  private readonly fields = new Map<number, Promise<FieldMeta | null>>();

  constructor(
    private readonly db: DataSource,
    private readonly timezone: string | null,
  ) {}

  async database(id: number): Promise<DatabaseMeta | null> {
    const d = await this.db.manager.findOneBy(WarehouseDatabase, { id });
    return d ? { id: d.id, engine: d.engine, timezone: this.timezone } : null;
  }

  table(id: number): Promise<TableMeta | null> {
    let t = this.tables.get(id);
    if (!t) {
      t = this.db.manager.findOneBy(WarehouseTable, { id, active: true }).then((r) => (r ? { id: r.id, dbId: r.db_id, schema: r.schema, name: r.name, displayName: r.display_name } : null));
      this.tables.set(id, t);
    }
    return t;
  }

  tableFields(tableId: number): Promise<FieldMeta[]> {
    let f = this.fieldsOfTable.get(tableId);
    if (!f) {
      f = this.db.manager
        .find(WarehouseField, { where: { table_id: tableId, active: true }, order: { position: 'ASC', id: 'ASC' } })
        .then((rows) => rows.map(toFieldMeta));
      this.fieldsOfTable.set(tableId, f);
    }
    return f;
  }

  field(id: number): Promise<FieldMeta | null> {
    let f = this.fields.get(id);
    if (!f) {
      f = this.db.manager.findOne(WarehouseField, { where: { id: In([id]), active: true } }).then((r) => (r ? toFieldMeta(r) : null));
      this.fields.set(id, f);
    }
    return f;
  }
}

function toFieldMeta(f: WarehouseField): FieldMeta {
  return {
    id: f.id,
    tableId: f.table_id,
    name: f.name,
    displayName: f.display_name,
    baseType: f.base_type,
    effectiveType: f.effective_type,
    semanticType: f.semantic_type,
    fkTargetFieldId: f.fk_target_field_id,
    visibilityType: f.visibility_type,
    coercionStrategy: f.coercion_strategy,
    fingerprint: f.fingerprint,
    position: f.position,
  };
}
