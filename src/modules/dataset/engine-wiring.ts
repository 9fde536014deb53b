import { compilerFor } from '../../query-engine/compile';
import type { Engine } from '../../query-engine/execute/drivers/driver';
import type { ProcessorDeps } from '../../query-engine/execute/query-processor';
import type { MetadataProvider } from '../../query-engine/metadata';
import type { DatasetQuery, FieldRef } from '../../query-engine/mbql/types';
import { substituteNative } from '../../query-engine/native';
import { applyParameters } from '../../query-engine/parameters';
import { bucketDatetimes } from '../../query-engine/preprocess/bucket-datetimes';
import { PreprocessContext, Stage } from '../../query-engine/preprocess/context';
import { expandSegmentsAndMetrics } from '../../query-engine/preprocess/expand-segments-metrics';
import { loadMetadata } from '../../query-engine/preprocess/load-metadata';
import { resolveSourceCards } from '../../query-engine/preprocess/resolve-source-cards';

/** Date template tags are bound as ISO strings; each engine gets them typed the way its columns compare. */
const CAST_DATE: Record<Engine, (p: string, unit: 'day' | 'minute') => string> = {
  postgres: (p, unit) => `CAST(${p} AS ${unit === 'day' ? 'DATE' : 'TIMESTAMP'})`,
  duckdb: (p, unit) => `CAST(${p} AS ${unit === 'day' ? 'DATE' : 'TIMESTAMP'})`,
  mysql: (p, unit) => `CAST(${p} AS ${unit === 'day' ? 'DATE' : 'DATETIME'})`,
  sqlite: (p, unit) => (unit === 'day' ? `DATE(${p})` : `DATETIME(${p})`),
};

/** The parameter stage: dimension parameters become filters; field base types are fetched first (the stage is sync). */
function parametersStage(metadata: MetadataProvider): Stage {
  return async (query) => {
    if (query.type !== 'query' || !query.query || !query.parameters?.length) return query;
    const baseTypes = new Map<number, string>();
    for (const p of query.parameters) {
      const ref = Array.isArray(p.target) && p.target[0] === 'dimension' ? (p.target[1] as FieldRef) : undefined;
      if (Array.isArray(ref) && ref[0] === 'field' && typeof ref[1] === 'number') {
        const f = await metadata.field(ref[1]);
        if (f) baseTypes.set(f.id, f.baseType);
      }
    }
    return { ...query, query: applyParameters(query.query, query.parameters, { fieldBaseType: (id) => baseTypes.get(id) }) };
  };
}

/** How the dataset module plugs the engine's parameter handling and compilers into the processor. */
export const ENGINE_WIRING = (metadata: MetadataProvider, content: ProcessorDeps['content']): Pick<ProcessorDeps, 'compilerFor' | 'applyParameters' | 'substituteNative'> => ({
  compilerFor,
  applyParameters: parametersStage(metadata),
  substituteNative: (native, parameters, db) =>
    substituteNative(native, parameters, {
      meta: metadata,
      compiler: compilerFor(db.engine),
      // Snippets learn the databases they run on: editing one later needs native rights on each.
      content: { ...content, snippet: (nameOrId) => content.snippet(nameOrId, db.id) },
      databaseId: db.id,
      timezone: db.timezone,
      castDate: CAST_DATE[db.engine],
      compileCard: async (card) => {
        const ctx: PreprocessContext = { metadata, content, now: new Date(), maxRows: Number.MAX_SAFE_INTEGER };
        let q: DatasetQuery = card.query;
        for (const stage of [resolveSourceCards, expandSegmentsAndMetrics, bucketDatetimes]) q = await stage(q, ctx);
        const compiled = compilerFor(db.engine).compile(q.query!, await loadMetadata(q.query!, metadata, db.id), { timezone: db.timezone });
        return { sql: compiled.sql, params: compiled.params };
      },
    }),
});
