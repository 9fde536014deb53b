import { addRowLimit } from './add-row-limit';
import { bucketDatetimes } from './bucket-datetimes';
import { Stage } from './context';
import { expandSegmentsAndMetrics } from './expand-segments-metrics';
import { resolveSourceCards } from './resolve-source-cards';

/**
 * The preprocessing stages, in order (normalize and validate run before them). Each is a small pure function of
 * the query and the context; a failure names its stage.
 */
export function preprocessStages(applyParameters: Stage): Array<[string, Stage]> {
  return [
    ['resolve-source-cards', resolveSourceCards],
    ['expand-segments-and-metrics', expandSegmentsAndMetrics],
    ['substitute-parameters', applyParameters],
    ['bucket-datetimes', bucketDatetimes],
    ['add-row-limit', addRowLimit],
  ];
}

export * from './context';
export { loadMetadata } from './load-metadata';
