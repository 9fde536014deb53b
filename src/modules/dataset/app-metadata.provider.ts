import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import type { DatabaseMeta, FieldMeta, MetadataProvider, TableMeta } from '../../query-engine/metadata';
import type { MetadataCache } from './metadata-cache';

const FIELD_COLUMNS = `id, table_id, name, display_name, base_type, effective_type, semantic_type, fk_target_field_id,
  visibility_type, coercion_strategy, fingerprint, position`;

/**
 * The engine's view of the app DB for one query run: each look-up made once per run, and read through the
 * instance's MetadataCache. Plain SQL rather than the ORM's query builder: building the SQL cost more than
 * running it (see bench/).
 */
export class AppMetadataProvider implements MetadataProvider {
  private readonly tables = new Map<number, Promise<TableMeta | null>>();
  private readonly fieldsOfTable = new Map<number, Promise<FieldMeta[]>>();
  private readonly fields = new Map<number, Promise<FieldMeta | null>>();
  private readonly connections = new Map<number, Promise<{ id: number; engine: DatabaseMeta['engine']; details: Record<string, unknown> } | null>>();
  private readonly sql: AppSql;

  constructor(
    db: DataSource,
    private readonly timezone: string | null,
    private readonly cache: MetadataCache,
  ) {
    this.sql = new AppSql(db);
  }

  async database(id: number): Promise<DatabaseMeta | null> {
    const row = await this.connection(id);
    return row ? { id: row.id, engine: row.engine, timezone: this.timezone } : null;
  }

  /** What opening a connection needs (details still sealed); read once per run. */
  connection(id: number): Promise<{ id: number; engine: DatabaseMeta['engine']; details: Record<string, unknown> } | null> {
    return memo(this.connections, id, () => this.cache.get(`connection:${id}`, async () => {
      const [r] = await this.query<{ id: number; engine: DatabaseMeta['engine']; details: string }>('SELECT id, engine, details FROM metabase_database WHERE id = $1', [id]);
      return r ? { id: Number(r.id), engine: r.engine, details: JSON.parse(r.details) as Record<string, unknown> } : null;
    }));
  }

  table(id: number): Promise<TableMeta | null> {
    return memo(this.tables, id, () => this.cache.get(`table:${id}`, async () => {
      const [r] = await this.query<{ id: number; db_id: number; schema: string | null; name: string; display_name: string }>(
        'SELECT id, db_id, schema, name, display_name FROM metabase_table WHERE id = $1 AND active = $2',
        [id, true],
      );
      return r ? { id: Number(r.id), dbId: Number(r.db_id), schema: r.schema, name: r.name, displayName: r.display_name } : null;
    }));
  }

  tableFields(tableId: number): Promise<FieldMeta[]> {
    const load = memo(this.fieldsOfTable, tableId, () => this.cache.get(`fields-of:${tableId}`, async () => {
      const rows = await this.query<FieldRow>(`SELECT ${FIELD_COLUMNS} FROM metabase_field WHERE table_id = $1 AND active = $2 ORDER BY position, id`, [tableId, true]);
      const fields = rows.map(toFieldMeta);
      fields.forEach((f) => this.cache.set(`field:${f.id}`, f));
      return fields;
    }));
    return load.then((fields) => {
      fields.forEach((f) => this.fields.set(f.id, Promise.resolve(f)));
      return fields;
    });
  }

  field(id: number): Promise<FieldMeta | null> {
    return memo(this.fields, id, () => this.cache.get(`field:${id}`, async () => {
      const [r] = await this.query<FieldRow>(`SELECT ${FIELD_COLUMNS} FROM metabase_field WHERE id = $1 AND active = $2`, [id, true]);
      return r ? toFieldMeta(r) : null;
    }));
  }

  private query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.sql.query<T>(sql, params);
  }
}

interface FieldRow {
  id: number;
  table_id: number;
  name: string;
  display_name: string;
  base_type: string;
  effective_type: string | null;
  semantic_type: string | null;
  fk_target_field_id: number | null;
  visibility_type: string;
  coercion_strategy: string | null;
  fingerprint: string | null;
  position: number;
}

function toFieldMeta(f: FieldRow): FieldMeta {
  return {
    id: Number(f.id),
    tableId: Number(f.table_id),
    name: f.name,
    displayName: f.display_name,
    baseType: f.base_type,
    effectiveType: f.effective_type,
    semanticType: f.semantic_type,
    fkTargetFieldId: f.fk_target_field_id === null ? null : Number(f.fk_target_field_id),
    visibilityType: f.visibility_type,
    coercionStrategy: f.coercion_strategy,
    fingerprint: f.fingerprint ? JSON.parse(f.fingerprint) : null,
    position: Number(f.position),
  };
}

function memo<K, V>(cache: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> {
  let v = cache.get(key);
  if (!v) {
    v = load();
    cache.set(key, v);
  }
  return v;
}
