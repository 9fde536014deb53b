import type { MetadataSnapshot } from '../compile/contract';
import type { ConvertedQuery } from '../mbql/mbql5';
import { normalizeWithPlaces } from '../mbql/normalize';
import type { DatasetQuery } from '../mbql/types';
import { validateDatasetQuery } from '../mbql/validate';
import { addImplicitJoins } from './add-implicit-joins';
import { addRowLimit } from './add-row-limit';
import { applyRowPolicies } from './apply-row-policies';
import { bucketDatetimes } from './bucket-datetimes';
import { PreprocessContext, Stage } from './context';
import { expandSegmentsAndMetrics } from './expand-segments-metrics';
import { loadMetadata } from './load-metadata';
import { resolveSourceCards } from './resolve-source-cards';
import { substituteParameters } from './substitute-parameters';
import { substitutePersistedModels } from './substitute-persisted-models';

/** Where a run is (a stage of PIPELINE, then `compile` and `execute`): errors and timings name it. */
export type StageName =
  | 'normalize'
  | 'validate'
  | 'substitute-persisted-models'
  | 'resolve-source-cards'
  | 'expand-segments-and-metrics'
  | 'substitute-parameters'
  | 'resolve-fields'
  | 'add-implicit-joins'
  | 'apply-row-policies'
  | 'bucket-datetimes'
  | 'add-row-limit'
  | 'compile'
  | 'execute';

/** A query on its way through the preprocess stages. */
export interface PreparedQuery {
  query: DatasetQuery;
  /** Every table and field the (MBQL) query refers to, once `resolve-fields` has run: compiling is then synchronous. */
  metadata?: MetadataSnapshot;
}

/**
 * A query being planned: the body as sent, then the normalized query; for an MBQL 5 query, where each legacy place
 * came from (mbql5.ts ConvertedQuery.places), so that later errors name the place as it was sent (failures.ts asSent).
 */
export interface PlanState {
  query: unknown;
  places?: ConvertedQuery['places'];
}

/**
 * One stage of the pipeline. `plan` stages need only the body as sent (they run before the caller's access to the
 * database is checked: QueryProcessor.plan); `preprocess` stages may consult the app DB through the context.
 */
export type PipelineStage =
  | { name: StageName; phase: 'plan'; run(state: PlanState): PlanState }
  | { name: StageName; phase: 'preprocess'; run(state: PreparedQuery, ctx: PreprocessContext): Promise<PreparedQuery> | PreparedQuery };

/** A stage that rewrites the query. */
const rewrite = (name: StageName, stage: Stage): PipelineStage => ({
  name,
  phase: 'preprocess',
  run: async (state, ctx) => ({ ...state, query: await stage(state.query, ctx) }),
});

/**
 * The query pipeline, in order (Metabase's query processor middleware). Every way a query is run goes through it:
 * QueryProcessor.run / stream / toNative, an MBQL card inlined by a native `{{#card}}` tag, and each query of a
 * pivot (run with grouping sets). Compiling (or filling in a native query) and executing follow it. Each stage is
 * timed and an error raised inside one names it (see runStage in execute/query-processor.ts).
 */
export const PIPELINE: readonly PipelineStage[] = [
  // MBQL 5 (lib/ stages) becomes legacy MBQL first thing, inside normalizeWithPlaces (mbql/normalize.ts).
  { name: 'normalize', phase: 'plan', run: (state) => normalizeWithPlaces(state.query) },
  { name: 'validate', phase: 'plan', run: (state) => (validateDatasetQuery(state.query as DatasetQuery), state) },
  // A persisted model's `card__` source reads its table; the others are spliced in by resolve-source-cards.
  rewrite('substitute-persisted-models', substitutePersistedModels),
  rewrite('resolve-source-cards', resolveSourceCards),
  rewrite('expand-segments-and-metrics', expandSegmentsAndMetrics),
  rewrite('substitute-parameters', substituteParameters),
  // Fields and tables (FK targets of implicit joins included) are looked up here; the compiler resolves the refs
  // against them (compile/fields.ts).
  {
    name: 'resolve-fields',
    phase: 'preprocess',
    run: async (state, ctx) =>
      state.query.type === 'query' && state.query.query
        ? { ...state, metadata: await loadMetadata(state.query.query, ctx.metadata, state.query.database) }
        : state,
  },
  // `source-field` refs become explicit joins, one per foreign key and level, found through that metadata.
  {
    name: 'add-implicit-joins',
    phase: 'preprocess',
    run: (state) =>
      state.query.type === 'query' && state.query.query && state.metadata
        ? { ...state, query: { ...state.query, query: addImplicitJoins(state.query.query, state.metadata) } }
        : state,
  },
  // Row security sees every table the query reads: card sources spliced in, implicit joins added.
  { name: 'apply-row-policies', phase: 'preprocess', run: applyRowPolicies },
  rewrite('bucket-datetimes', bucketDatetimes),
  rewrite('add-row-limit', addRowLimit),
];

export * from './context';
export type { RowCondition, RowFilter, RowPolicies, TableRestriction } from './row-policies';
export { addImplicitJoins } from './add-implicit-joins';
export { loadMetadata } from './load-metadata';
