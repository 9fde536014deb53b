import type { DescribedDatabase } from './driver';

/** Tables and foreign keys in one order on every engine (code-unit order, independent of collations). */
export function orderDescribed(d: DescribedDatabase): DescribedDatabase {
  const key = (...parts: (string | null)[]) => parts.map((p) => p ?? '').join('\u0000');
  const byKey =
    <T>(f: (x: T) => string) =>
    (a: T, b: T) =>
      f(a) < f(b) ? -1 : f(a) > f(b) ? 1 : 0;
  return {
    tables: [...d.tables].sort(byKey((t) => key(t.schema, t.name))),
    foreignKeys: [...d.foreignKeys].sort(byKey((f) => key(f.schema, f.table, f.column, f.targetTable, f.targetColumn))),
  };
}
