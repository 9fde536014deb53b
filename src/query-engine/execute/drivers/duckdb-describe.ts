import { DuckDBListValue, type DuckDBConnection } from '@duckdb/node-api';
import { baseTypeFor } from './base-types';
import type { DescribedDatabase, ForeignKeyInfo, TableInfo } from './driver';
import { orderDescribed } from './described';

const COLUMNS_SQL = `
  SELECT c.schema_name, c.table_name, c.column_name, c.data_type, c.is_nullable, t.table_type
  FROM duckdb_columns() c
  JOIN information_schema.tables t
    ON t.table_catalog = c.database_name AND t.table_schema = c.schema_name AND t.table_name = c.table_name
  WHERE c.database_name = current_database() AND NOT c.internal
  ORDER BY c.schema_name, c.table_name, c.column_index`;

const CONSTRAINTS_SQL = `
  SELECT schema_name, table_name, constraint_type, constraint_column_names, referenced_table, referenced_column_names
  FROM duckdb_constraints()
  WHERE database_name = current_database() AND constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY')`;

export async function describeDuckdb(conn: DuckDBConnection): Promise<DescribedDatabase> {
  const keys = await (await conn.run(CONSTRAINTS_SQL)).getRows();
  const primaryKeys = new Set<string>();
  const foreignKeys: ForeignKeyInfo[] = [];
  for (const [schema, table, type, columns, targetTable, targetColumns] of keys) {
    const names = listOfStrings(columns);
    if (type === 'PRIMARY KEY') {
      for (const c of names) primaryKeys.add(`${schema}.${table}.${c}`);
      continue;
    }
    const targets = listOfStrings(targetColumns);
    names.forEach((column, k) =>
      foreignKeys.push({
        schema: String(schema),
        table: String(table),
        column,
        // DuckDB's foreign keys stay within their schema.
        targetSchema: String(schema),
        targetTable: String(targetTable),
        targetColumn: targets[k],
      }),
    );
  }
  const tables: TableInfo[] = [];
  let current: TableInfo | undefined;
  for (const [schema, table, column, dataType, nullable, tableType] of await (await conn.run(COLUMNS_SQL)).getRows()) {
    if (!current || current.schema !== schema || current.name !== table) {
      current = { schema: String(schema), name: String(table), kind: tableType === 'VIEW' ? 'view' : 'table', columns: [] };
      tables.push(current);
    }
    current.columns.push({
      name: String(column),
      databaseType: String(dataType),
      baseType: baseTypeFor('duckdb', String(dataType)),
      nullable: Boolean(nullable),
      position: current.columns.length,
      pk: primaryKeys.has(`${schema}.${table}.${column}`),
    });
  }
  return orderDescribed({ tables, foreignKeys });
}

function listOfStrings(v: unknown): string[] {
  return v instanceof DuckDBListValue ? v.items.map(String) : [];
}
