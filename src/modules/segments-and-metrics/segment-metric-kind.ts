import { LegacyMetric, Segment, SegmentMetricRow } from '../../schema/segment-metric.entity';
import type { SegmentMetricKind } from '../content';

export type { SegmentMetricKind };

export const KIND_ENTITIES = { segment: Segment, metric: LegacyMetric } as const;

/** How revision sentences name each kind (`renamed this Segment from ...`). */
export const KIND_LABELS: Readonly<Record<SegmentMetricKind, string>> = { segment: 'Segment', metric: 'Metric' };

export type SegmentOrMetric = SegmentMetricRow & { how_is_this_calculated?: string | null };

/** The keys PUT may clear by sending null (Metabase's `:present` keys); the others are only set when non-null. */
export const CLEARABLE: Readonly<Record<SegmentMetricKind, readonly string[]>> = {
  segment: ['description', 'caveats', 'points_of_interest'],
  metric: ['description', 'caveats', 'points_of_interest', 'how_is_this_calculated'],
};
export const SET_WHEN_GIVEN = ['archived', 'definition', 'name', 'show_in_getting_started'] as const;
