import { parseJson } from '../../common/database/stored-json';
import { describeChanges } from '../revisions';
import type { SegmentOrMetric, SegmentMetricKind } from './segment-metric-kind';
import { KIND_LABELS } from './segment-metric-kind';

type Snapshot = Record<string, unknown>;

/** What a revision keeps of a segment or metric: everything but its timestamps (Metabase's serialize-instance). */
export function segmentMetricSnapshot(model: SegmentMetricKind, m: SegmentOrMetric) {
  return {
    id: m.id,
    table_id: m.table_id,
    creator_id: m.creator_id,
    name: m.name,
    description: m.description,
    archived: Boolean(m.archived),
    definition: parseJson<unknown>(m.definition, {}),
    caveats: m.caveats,
    points_of_interest: m.points_of_interest,
    ...(model === 'metric' ? { how_is_this_calculated: m.how_is_this_calculated ?? null } : {}),
    show_in_getting_started: Boolean(m.show_in_getting_started),
    entity_id: m.entity_id,
  };
}

/** The columns a revert writes back from a snapshot (not the table, the creator or the identity). */
export function restorable(model: SegmentMetricKind, s: Snapshot): Partial<SegmentOrMetric> {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    ...(typeof s.name === 'string' ? { name: s.name } : {}),
    description: text(s.description),
    archived: s.archived === true,
    ...(s.definition && typeof s.definition === 'object' ? { definition: JSON.stringify(s.definition) } : {}),
    caveats: text(s.caveats),
    points_of_interest: text(s.points_of_interest),
    ...(model === 'metric' ? { how_is_this_calculated: text(s.how_is_this_calculated) } : {}),
    show_in_getting_started: s.show_in_getting_started === true,
  };
}

/** The revision sentence, in the revisions module's words plus the keys only segments and metrics have. */
export function describeSegmentMetricChange(model: SegmentMetricKind, before: Snapshot | null, after: Snapshot): string | null {
  return describeChanges(before, after, {
    model: KIND_LABELS[model],
    labels: {
      definition: () => 'modified the definition',
      caveats: () => 'changed the caveats',
      points_of_interest: () => 'changed the points of interest',
      how_is_this_calculated: () => 'changed how it is calculated',
      show_in_getting_started: (_b, a) => (a ? 'added it to the Getting Started guide' : 'removed it from the Getting Started guide'),
    },
  });
}
