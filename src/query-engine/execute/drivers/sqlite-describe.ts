import type Database from 'better-sqlite3';
import { baseTypeFor } from './base-types';
import { orderDescribed } from './described';
import type { DescribedDatabase, ForeignKeyInfo, TableInfo } from './driver';

interface ColumnRow {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

interface ForeignKeyRow {
  table: string;
  from: string;
  to: string | null;
}

/**
 * Schema null, as Metabase has it for SQLite. A primary-key column counts as not nullable even where SQLite's
 * legacy rules would let a NULL in (only INTEGER PRIMARY KEY is enforced by SQLite itself).
 */
export function describeSqlite(db: Database.Database): DescribedDatabase {
  const relations = db
    .prepare("SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    .all() as { name: string; type: string }[];
  const columnsOf = db.prepare('SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY cid');
  const keysOf = db.prepare('SELECT "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq');
  const tables: TableInfo[] = [];
  const foreignKeys: ForeignKeyInfo[] = [];
  const primaryKeys = new Map<string, string[]>();
  for (const rel of relations) {
    let columns: ColumnRow[];
    try {
      columns = columnsOf.all(rel.name) as ColumnRow[];
    } catch {
      // A view over a table that no longer exists cannot be read; it is left out rather than failing the sync.
      continue;
    }
    primaryKeys.set(
      rel.name.toLowerCase(),
      columns
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name),
    );
    tables.push({
      schema: null,
      name: rel.name,
      kind: rel.type === 'view' ? 'view' : 'table',
      columns: columns.map((c, position) => ({
        name: c.name,
        databaseType: c.type,
        baseType: baseTypeFor('sqlite', c.type),
        nullable: c.notnull === 0 && c.pk === 0,
        position,
        pk: c.pk > 0,
      })),
    });
  }
  for (const rel of relations) {
    if (rel.type !== 'table') continue;
    for (const fk of keysOf.all(rel.name) as ForeignKeyRow[]) {
      // REFERENCES t without a column list means t's primary key.
      const target = tables.find((t) => t.name.toLowerCase() === fk.table.toLowerCase());
      foreignKeys.push({
        schema: null,
        table: rel.name,
        column: fk.from,
        targetSchema: null,
        targetTable: target?.name ?? fk.table,
        targetColumn: fk.to ?? primaryKeys.get(fk.table.toLowerCase())?.[0] ?? '',
      });
    }
  }
  return orderDescribed({ tables, foreignKeys });
}
