import type { Connection, RowDataPacket } from 'mysql2/promise';
import { baseTypeFor } from './base-types';
import type { DescribedDatabase, TableInfo } from './driver';
import { orderDescribed } from './described';

/** The connected database only, as Metabase does: schema is null. */
const COLUMNS_SQL = `
  SELECT c.TABLE_NAME AS table_name, t.TABLE_TYPE AS table_type, c.COLUMN_NAME AS column_name,
         c.DATA_TYPE AS data_type, c.COLUMN_TYPE AS column_type, c.IS_NULLABLE AS is_nullable, c.COLUMN_KEY AS column_key
  FROM information_schema.COLUMNS c
  JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME
  WHERE c.TABLE_SCHEMA = DATABASE()
  ORDER BY c.TABLE_NAME, c.ORDINAL_POSITION`;

const FOREIGN_KEYS_SQL = `
  SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name,
         REFERENCED_TABLE_NAME AS target_table, REFERENCED_COLUMN_NAME AS target_column
  FROM information_schema.KEY_COLUMN_USAGE
  WHERE TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME IS NOT NULL
  ORDER BY TABLE_NAME, COLUMN_NAME`;

/** MariaDB's JSON is LONGTEXT with a json_valid() check; that check is how we know the column holds JSON. */
const JSON_CHECKS_SQL = `
  SELECT TABLE_NAME AS table_name, CHECK_CLAUSE AS clause
  FROM information_schema.CHECK_CONSTRAINTS
  WHERE CONSTRAINT_SCHEMA = DATABASE() AND CHECK_CLAUSE LIKE 'json\\_valid(%'`;

export async function describeMysql(conn: Connection): Promise<DescribedDatabase> {
  const jsonColumns = await findJsonColumns(conn);
  const [columns] = await conn.query<RowDataPacket[]>(COLUMNS_SQL);
  const tables: TableInfo[] = [];
  let current: TableInfo | undefined;
  for (const r of columns) {
    if (!current || current.name !== r.table_name) {
      current = { schema: null, name: r.table_name, kind: r.table_type === 'VIEW' ? 'view' : 'table', columns: [] };
      tables.push(current);
    }
    const databaseType = jsonColumns.has(`${r.table_name}.${r.column_name}`)
      ? 'JSON'
      : String(r.column_type).toLowerCase() === 'tinyint(1)'
        ? 'BIT'
        : String(r.data_type).toUpperCase();
    current.columns.push({
      name: r.column_name,
      databaseType,
      baseType: baseTypeFor('mysql', databaseType),
      nullable: r.is_nullable === 'YES',
      position: current.columns.length,
      pk: r.column_key === 'PRI',
    });
  }
  const [fks] = await conn.query<RowDataPacket[]>(FOREIGN_KEYS_SQL);
  const foreignKeys = fks.map((r) => ({
    schema: null,
    table: r.table_name,
    column: r.column_name,
    targetSchema: null,
    targetTable: r.target_table,
    targetColumn: r.target_column,
  }));
  return orderDescribed({ tables, foreignKeys });
}

async function findJsonColumns(conn: Connection): Promise<Set<string>> {
  try {
    const [rows] = await conn.query<RowDataPacket[]>(JSON_CHECKS_SQL);
    const found = new Set<string>();
    for (const r of rows) {
      const m = /^json_valid\(`((?:[^`]|``)+)`\)$/.exec(String(r.clause).trim());
      if (m) found.add(`${r.table_name}.${m[1].replace(/``/g, '`')}`);
    }
    return found;
  } catch {
    // MySQL before 8.0.16 has no CHECK_CONSTRAINTS; its JSON columns say JSON in DATA_TYPE anyway.
    return new Set();
  }
}
