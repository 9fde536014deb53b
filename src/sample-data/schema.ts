import type { Engine } from '../query-engine/execute/drivers/driver';

/**
 * The Sample Database's tables, as Metabase ships them: upper-case names (quote them on Postgres), integer keys,
 * doubles for money and coordinates, naive UTC timestamps.
 * In generated rows a timestamp is epoch seconds and a date is epoch days; writers convert per engine.
 */
export type ColumnKind = 'int' | 'bigint' | 'float' | 'text' | 'longtext' | 'timestamp' | 'date';

export interface SampleColumn {
  name: string;
  kind: ColumnKind;
  notNull?: boolean;
  references?: string;
}

export interface SampleTable {
  name: 'PRODUCTS' | 'PEOPLE' | 'ORDERS' | 'REVIEWS';
  columns: SampleColumn[];
}

const id = (kind: ColumnKind = 'int'): SampleColumn => ({ name: 'ID', kind, notNull: true });

export const PRODUCTS: SampleTable = {
  name: 'PRODUCTS',
  columns: [
    id(),
    { name: 'EAN', kind: 'text' },
    { name: 'TITLE', kind: 'text' },
    { name: 'CATEGORY', kind: 'text' },
    { name: 'VENDOR', kind: 'text' },
    { name: 'PRICE', kind: 'float' },
    { name: 'RATING', kind: 'float' },
    { name: 'CREATED_AT', kind: 'timestamp' },
  ],
};

export const PEOPLE: SampleTable = {
  name: 'PEOPLE',
  columns: [
    id(),
    { name: 'ADDRESS', kind: 'text' },
    { name: 'EMAIL', kind: 'text' },
    { name: 'PASSWORD', kind: 'text' },
    { name: 'NAME', kind: 'text' },
    { name: 'CITY', kind: 'text' },
    { name: 'LONGITUDE', kind: 'float' },
    { name: 'STATE', kind: 'text' },
    { name: 'SOURCE', kind: 'text' },
    { name: 'BIRTH_DATE', kind: 'date' },
    { name: 'ZIP', kind: 'text' },
    { name: 'LATITUDE', kind: 'float' },
    { name: 'CREATED_AT', kind: 'timestamp' },
  ],
};

export const ORDERS: SampleTable = {
  name: 'ORDERS',
  columns: [
    id('bigint'),
    { name: 'USER_ID', kind: 'int', references: 'PEOPLE' },
    { name: 'PRODUCT_ID', kind: 'int', references: 'PRODUCTS' },
    { name: 'SUBTOTAL', kind: 'float' },
    { name: 'TAX', kind: 'float' },
    { name: 'TOTAL', kind: 'float' },
    { name: 'DISCOUNT', kind: 'float' },
    { name: 'CREATED_AT', kind: 'timestamp' },
    { name: 'QUANTITY', kind: 'int' },
  ],
};

export const REVIEWS: SampleTable = {
  name: 'REVIEWS',
  columns: [
    id(),
    { name: 'PRODUCT_ID', kind: 'int', references: 'PRODUCTS' },
    { name: 'REVIEWER', kind: 'text' },
    { name: 'RATING', kind: 'int' },
    { name: 'BODY', kind: 'longtext' },
    { name: 'CREATED_AT', kind: 'timestamp' },
  ],
};

/** In the order they are created and filled (referenced tables first). */
export const SAMPLE_TABLES: readonly SampleTable[] = [PRODUCTS, PEOPLE, ORDERS, REVIEWS];

const SQL_TYPES: Record<Engine, Record<ColumnKind, string>> = {
  postgres: {
    int: 'INTEGER',
    bigint: 'BIGINT',
    float: 'DOUBLE PRECISION',
    text: 'TEXT',
    longtext: 'TEXT',
    timestamp: 'TIMESTAMP',
    date: 'DATE',
  },
  mysql: { int: 'INT', bigint: 'BIGINT', float: 'DOUBLE', text: 'VARCHAR(255)', longtext: 'TEXT', timestamp: 'DATETIME', date: 'DATE' },
  sqlite: { int: 'INTEGER', bigint: 'BIGINT', float: 'DOUBLE', text: 'TEXT', longtext: 'TEXT', timestamp: 'TIMESTAMP', date: 'DATE' },
  duckdb: { int: 'INTEGER', bigint: 'BIGINT', float: 'DOUBLE', text: 'VARCHAR', longtext: 'VARCHAR', timestamp: 'TIMESTAMP', date: 'DATE' },
};

export function quoteIdent(engine: Engine, name: string): string {
  return engine === 'mysql' ? `\`${name.replace(/`/g, '``')}\`` : `"${name.replace(/"/g, '""')}"`;
}

/** Table-level FOREIGN KEY clauses (MySQL ignores the column-level REFERENCES form); optional for loaders that add them later. */
export function createTableSql(engine: Engine, table: SampleTable, withForeignKeys = true): string {
  const q = (n: string) => quoteIdent(engine, n);
  const columns = table.columns.map(
    (c) => `${q(c.name)} ${SQL_TYPES[engine][c.kind]}${c.name === 'ID' ? ' PRIMARY KEY' : c.notNull ? ' NOT NULL' : ''}`,
  );
  return `CREATE TABLE ${q(table.name)} (${[...columns, ...(withForeignKeys ? foreignKeyClauses(engine, table) : [])].join(', ')})`;
}

export function foreignKeyClauses(engine: Engine, table: SampleTable): string[] {
  const q = (n: string) => quoteIdent(engine, n);
  return table.columns.filter((c) => c.references).map((c) => `FOREIGN KEY (${q(c.name)}) REFERENCES ${q(c.references!)} (${q('ID')})`);
}

export function timestampText(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

export function dateText(epochDays: number): string {
  return new Date(epochDays * 86_400_000).toISOString().slice(0, 10);
}
