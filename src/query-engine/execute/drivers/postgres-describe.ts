import type { Client } from 'pg';
import { baseTypeFor } from './base-types';
import type { DescribedDatabase, ForeignKeyInfo, TableInfo } from './driver';
import { orderDescribed } from './described';

/** Every schema but the system ones; tables, partitioned tables, views, materialized views, foreign tables. */
const RELATIONS = `
  c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
  AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp\\_%'
  AND has_schema_privilege(n.oid, 'USAGE') AND has_table_privilege(c.oid, 'SELECT')`;

const COLUMNS_SQL = `
  SELECT n.nspname AS schema, c.relname AS table, c.relkind AS kind, a.attname AS column, t.typname AS type,
         NOT a.attnotnull AS nullable, COALESCE(a.attnum = ANY (pk.conkey), false) AS pk
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  JOIN pg_type t ON t.oid = a.atttypid
  LEFT JOIN pg_constraint pk ON pk.conrelid = c.oid AND pk.contype = 'p'
  WHERE ${RELATIONS}
  ORDER BY n.nspname, c.relname, a.attnum`;

const FOREIGN_KEYS_SQL = `
  SELECT n.nspname AS schema, c.relname AS table, sa.attname AS column,
         tn.nspname AS target_schema, tc.relname AS target_table, ta.attname AS target_column
  FROM pg_constraint con
  JOIN pg_class c ON c.oid = con.conrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_class tc ON tc.oid = con.confrelid
  JOIN pg_namespace tn ON tn.oid = tc.relnamespace
  CROSS JOIN LATERAL unnest(con.conkey, con.confkey) AS k(source_attnum, target_attnum)
  JOIN pg_attribute sa ON sa.attrelid = con.conrelid AND sa.attnum = k.source_attnum
  JOIN pg_attribute ta ON ta.attrelid = con.confrelid AND ta.attnum = k.target_attnum
  WHERE con.contype = 'f' AND ${RELATIONS}
  ORDER BY n.nspname, c.relname, sa.attname`;

interface ColumnRow {
  schema: string;
  table: string;
  kind: string;
  column: string;
  type: string;
  nullable: boolean;
  pk: boolean;
}

export async function describePostgres(client: Client): Promise<DescribedDatabase> {
  const columns = await client.query<ColumnRow>(COLUMNS_SQL);
  const tables: TableInfo[] = [];
  let current: TableInfo | undefined;
  for (const r of columns.rows) {
    if (!current || current.schema !== r.schema || current.name !== r.table) {
      current = { schema: r.schema, name: r.table, kind: r.kind === 'v' || r.kind === 'm' ? 'view' : 'table', columns: [] };
      tables.push(current);
    }
    current.columns.push({
      name: r.column,
      databaseType: r.type,
      baseType: baseTypeFor('postgres', r.type),
      nullable: r.nullable,
      position: current.columns.length,
      pk: r.pk,
    });
  }
  const fks = await client.query<Record<string, string>>(FOREIGN_KEYS_SQL);
  const foreignKeys: ForeignKeyInfo[] = fks.rows.map((r) => ({
    schema: r.schema,
    table: r.table,
    column: r.column,
    targetSchema: r.target_schema,
    targetTable: r.target_table,
    targetColumn: r.target_column,
  }));
  return orderDescribed({ tables, foreignKeys });
}
