import type { Engine } from '../../query-engine/execute/drivers/driver';

/** Quotes an identifier for the engine; the only way a name reaches SQL text. */
export function quoteIdent(engine: Engine, name: string): string {
  if (engine === 'mysql') return '`' + name.replace(/`/g, '``') + '`';
  return '"' + name.replace(/"/g, '""') + '"';
}

export function tableRef(engine: Engine, schema: string | null, name: string): string {
  return schema ? `${quoteIdent(engine, schema)}.${quoteIdent(engine, name)}` : quoteIdent(engine, name);
}

/** A value as text, for LIKE matching on non-text columns. */
export function castText(e: Engine, expr: string): string {
  switch (e) {
    case 'mysql':
      return `CAST(${expr} AS CHAR)`;
    case 'duckdb':
      return `CAST(${expr} AS VARCHAR)`;
    case 'postgres':
    case 'sqlite':
      return `CAST(${expr} AS TEXT)`;
  }
}

/** The escape character of our LIKE patterns: `!`, since a backslash needs escaping itself in MySQL literals. */
export const LIKE_ESCAPE = '!';

/** A user's text made literal inside a LIKE pattern (its `%`, `_` and `!` lose their meaning); use with ESCAPE. */
export function escapeLike(value: string): string {
  return value.replace(/[!%_]/g, (ch) => LIKE_ESCAPE + ch);
}
