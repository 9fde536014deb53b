import type { DatabaseMeta, FieldMeta, MetadataProvider, TableMeta } from '../../query-engine/metadata';
import type { MetadataCache } from './metadata-cache';
import type { ConnectionRow, QueryMetadataRepository } from './query-metadata.repository';

/**
 * The engine's view of the app DB for one query run: each look-up made once per run, and read through the
 * instance's MetadataCache before the repository.
 */
export class AppMetadataProvider implements MetadataProvider {
  private readonly tables = new Map<number, Promise<TableMeta | null>>();
  private readonly fieldsOfTable = new Map<number, Promise<FieldMeta[]>>();
  private readonly fields = new Map<number, Promise<FieldMeta | null>>();
  private readonly connections = new Map<number, Promise<ConnectionRow | null>>();

  constructor(
    private readonly repo: QueryMetadataRepository,
    private readonly timezone: string | null,
    private readonly cache: MetadataCache,
  ) {}

  async database(id: number): Promise<DatabaseMeta | null> {
    const row = await this.connection(id);
    return row ? { id: row.id, engine: row.engine, timezone: this.timezone } : null;
  }

  /** What opening a connection needs (details still sealed); read once per run. */
  connection(id: number): Promise<ConnectionRow | null> {
    return memo(this.connections, id, () => this.cache.get(`connection:${id}`, () => this.repo.connection(id)));
  }

  table(id: number): Promise<TableMeta | null> {
    return memo(this.tables, id, () => this.cache.get(`table:${id}`, () => this.repo.table(id)));
  }

  tableFields(tableId: number): Promise<FieldMeta[]> {
    const load = memo(this.fieldsOfTable, tableId, () =>
      this.cache.get(`fields-of:${tableId}`, async () => {
        const fields = await this.repo.tableFields(tableId);
        fields.forEach((f) => this.cache.set(`field:${f.id}`, f));
        return fields;
      }),
    );
    return load.then((fields) => {
      fields.forEach((f) => this.fields.set(f.id, Promise.resolve(f)));
      return fields;
    });
  }

  field(id: number): Promise<FieldMeta | null> {
    return memo(this.fields, id, () => this.cache.get(`field:${id}`, () => this.repo.field(id)));
  }
}

function memo<K, V>(cache: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> {
  let v = cache.get(key);
  if (!v) {
    v = load();
    cache.set(key, v);
  }
  return v;
}
