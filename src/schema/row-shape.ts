/**
 * Which columns of a row read with SQL need converting (common/database/row-values.ts reads them): numbers (ids,
 * counts, positions; Postgres answers COUNT and BIGINT as text) and booleans (SQLite answers 0/1). The other columns
 * stay as the driver gave them.
 */
export interface RowShape {
  readonly numbers?: readonly string[];
  readonly booleans?: readonly string[];
}

/** A RowShape whose column names are checked against the row type's keys, so a typo fails to compile. */
export type ShapeOf<T> = { readonly numbers?: readonly (keyof T & string)[]; readonly booleans?: readonly (keyof T & string)[] };

/** Rows whose one numeric column is `id`. */
export const ID_SHAPE = { numbers: ['id'] } as const satisfies RowShape;
