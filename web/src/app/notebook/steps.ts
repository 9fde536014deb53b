import { stageAt } from './mbql';
import type { Mbql5Query } from './types';

/** The notebook's steps, in the order the engine applies them; each owns some keys of the stage. */
export const STEPS = ['data', 'joins', 'expressions', 'filters', 'summarize', 'sort', 'limit'] as const;
export type StepName = (typeof STEPS)[number];

const KEYS: Record<StepName, string[]> = {
  data: ['source-table', 'source-card'],
  joins: ['joins'],
  expressions: ['expressions'],
  filters: ['filters'],
  summarize: ['aggregation', 'breakout'],
  sort: ['order-by'],
  limit: ['limit'],
};

/** Keys of a stage that no step owns (`fields`, `page`, `lib/*`): kept in previews only when they do not change rows. */
const KEPT = new Set(['lib/type', 'fields']);

/**
 * The query as it stands after `step` of stage `index` (what that step's Preview shows): the stages before it whole,
 * that stage without the keys of its later steps, no later stage, at most `rows` rows (a stage's own smaller limit is
 * kept when the limit step is in).
 */
export function queryUntil(q: Mbql5Query, step: StepName, rows = 10, index = 0): Mbql5Query {
  const keep = new Set(STEPS.slice(0, STEPS.indexOf(step) + 1).flatMap((s) => KEYS[s]));
  const stage = stageAt(q, index);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(stage)) if (keep.has(k) || KEPT.has(k)) out[k] = v;
  const own = typeof out.limit === 'number' ? out.limit : Infinity;
  out.limit = Math.min(own, rows);
  return { ...q, stages: [...q.stages.slice(0, index), out] };
}
