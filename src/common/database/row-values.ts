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
