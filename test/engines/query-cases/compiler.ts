import { compilerFor } from '../../../src/query-engine/compile';
import type { CompileOptions, CompiledQuery, MetadataSnapshot, SqlCompiler } from '../../../src/query-engine/compile/contract';
import type { Engine } from '../../../src/query-engine/execute/drivers';
import type { Filter, InnerQuery } from '../../../src/query-engine/mbql/types';
import { addImplicitJoins } from '../../../src/query-engine/preprocess';

/**
 * An engine's compiler as the query processor reaches it, for the cases that compile an inner query against a
 * metadata snapshot directly: `source-field` refs become joins first (the `add-implicit-joins` stage, which runs on
 * the snapshot that `resolve-fields` loads). The other stages have nothing to do for these queries.
 */
export function caseCompiler(engine: Engine): SqlCompiler {
  const compiler = compilerFor(engine);
  return {
    engine: compiler.engine,
    groupingSets: compiler.groupingSets,
    compile: (query: InnerQuery, meta: MetadataSnapshot, opts: CompileOptions): CompiledQuery =>
      compiler.compile(addImplicitJoins(query, meta), meta, opts),
    compileFilter: (filter: Filter, meta: MetadataSnapshot, opts: CompileOptions) => compiler.compileFilter(filter, meta, opts),
    quoteIdent: (name: string) => compiler.quoteIdent(name),
    castDateTag: compiler.castDateTag?.bind(compiler),
  };
}
