import type { Engine, SqlParam } from '../types';
import type { Filter, InnerQuery } from '../mbql/types';
import type { CompileOptions, CompiledQuery, MetadataSnapshot, SqlCompiler } from './contract';
import type { Dialect } from './dialect';
import { Level } from './level';
import { Binder } from './params';

/** The generic MBQL-to-SQL compiler; everything engine-specific is in its Dialect. */
export class MbqlSqlCompiler implements SqlCompiler {
  constructor(readonly dialect: Dialect) {}

  get engine(): Engine {
    return this.dialect.engine;
  }

  get groupingSets(): boolean {
    return this.dialect.groupingSets;
  }

  compile(query: InnerQuery, meta: MetadataSnapshot, opts: CompileOptions): CompiledQuery {
    const binder = new Binder();
    const { sql, columns } = new Level(this.dialect, meta, opts, binder, query).compile(true);
    const out = binder.finish(sql);
    return { sql: out.sql, params: out.params, columns };
  }

  compileFilter(filter: Filter, meta: MetadataSnapshot, opts: CompileOptions): { sql: string; params: SqlParam[] } {
    const binder = new Binder();
    const sql = new Level(this.dialect, meta, opts, binder, null).compileStandaloneFilter(filter);
    return binder.finish(sql);
  }

  quoteIdent(name: string): string {
    return this.dialect.quoteIdent(name);
  }

  castDateTag(placeholder: string, unit: 'day' | 'minute'): string {
    return this.dialect.castDateTag(placeholder, unit);
  }
}
