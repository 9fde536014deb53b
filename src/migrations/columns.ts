import { QueryRunner, TableColumnOptions, TableForeignKeyOptions } from 'typeorm';

/**
 * Dialect-neutral column builders for migrations: the same migration creates the same schema on SQLite and on
 * Postgres. Timestamps are `timestamptz` on Postgres (instants, not wall-clock) and `datetime` (UTC) on SQLite.
 */
export function isPostgres(qr: QueryRunner): boolean {
  return qr.connection.options.type === 'postgres';
}

export const col = {
  id: (): TableColumnOptions => ({ name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' }),
  int: (name: string, opts: Partial<TableColumnOptions> = {}): TableColumnOptions => ({ name, type: 'integer', isNullable: true, ...opts }),
  bigint: (name: string, opts: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
    name,
    type: 'bigint',
    isNullable: true,
    ...opts,
  }),
  text: (name: string, opts: Partial<TableColumnOptions> = {}): TableColumnOptions => ({ name, type: 'text', isNullable: true, ...opts }),
  varchar: (name: string, length: number, opts: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
    name,
    type: 'varchar',
    length: String(length),
    isNullable: true,
    ...opts,
  }),
  bool: (name: string, def: boolean, opts: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
    name,
    type: 'boolean',
    isNullable: false,
    default: def ? 'true' : 'false',
    ...opts,
  }),
  float: (name: string, opts: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
    name,
    type: 'double precision',
    isNullable: true,
    ...opts,
  }),
  timestamp: (qr: QueryRunner, name: string, opts: Partial<TableColumnOptions> & { now?: boolean } = {}): TableColumnOptions => {
    const { now, ...rest } = opts;
    return {
      name,
      type: isPostgres(qr) ? 'timestamptz' : 'datetime',
      isNullable: !now,
      ...(now ? { default: 'CURRENT_TIMESTAMP' } : {}),
      ...rest,
    };
  },
};

export function fk(columnName: string, table: string, onDelete: 'CASCADE' | 'SET NULL' | 'RESTRICT' = 'CASCADE'): TableForeignKeyOptions {
  return { columnNames: [columnName], referencedTableName: table, referencedColumnNames: ['id'], onDelete };
}
