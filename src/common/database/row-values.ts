import type { RowShape } from '../../schema/row-shape';

/**
 * Values as the app databases answer them outside the ORM: Postgres gives booleans and (for BIGINT and NUMERIC)
 * numeric text, SQLite gives 0/1 and numbers. One reading for both, so no caller guesses the form.
 */

/** A boolean column's value: true for true, 1, '1', 't' and 'true'. */
export function sqlBool(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 't' || v === 'true';
}

/** A numeric column's value as a number; null stays null. */
export function sqlNum(v: unknown): number | null {
  return v === null || v === undefined ? null : Number(v);
}

export type { RowShape } from '../../schema/row-shape';

/**
 * A row read once into its typed record: the shape's numeric columns become numbers (null stays null), its
 * boolean columns booleans. Columns the row does not have are left absent. The row object is reused (listings
 * read tens of thousands), so a caller passes rows it has just read.
 */
export function typedRow<T>(row: Record<string, unknown>, shape: RowShape): T {
  for (const key of shape.numbers ?? []) if (key in row) row[key] = sqlNum(row[key]);
  for (const key of shape.booleans ?? []) if (key in row) row[key] = row[key] === null ? null : sqlBool(row[key]);
  return row as T;
}

export function typedRows<T>(rows: Record<string, unknown>[], shape: RowShape): T[] {
  for (const row of rows) typedRow(row, shape);
  return rows as T[];
}

/** The `id` of each row, as a number. */
export function idsOf(rows: Record<string, unknown>[]): number[] {
  return rows.map((r) => sqlNum(r.id) as number);
}
