import type { Engine } from '../../query-engine/execute/drivers/driver';

/** Quotes an identifier for the engine; the only way a name reaches SQL text. */
export function quoteIdent(engine: Engine, name: string): string {
  if (engine === 'mysql') return '`' + name.replace(/`/g, '``') + '`';
  return '"' + name.replace(/"/g, '""') + '"';
}

export function tableRef(engine: Engine, schema: string | null, name: string): string {
  return schema ? `${quoteIdent(engine, schema)}.${quoteIdent(engine, name)}` : quoteIdent(engine, name);
}
