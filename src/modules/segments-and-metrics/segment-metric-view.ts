import { commonName, iso } from '../../common/views/wire-values';
import type { User } from '../../schema/user.entity';
import type { SegmentOrMetric, SegmentMetricKind } from './segment-metric-kind';
import { segmentMetricSnapshot } from './segment-metric-snapshot';

/** The `creator` of a segment or metric, as Metabase hydrates a user. */
export function creatorView(u: User) {
  return {
    id: u.id,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    common_name: commonName(u),
    is_superuser: u.is_superuser,
    is_qbnewb: u.is_qbnewb,
    date_joined: iso(u.date_joined),
    last_login: iso(u.last_login),
  };
}

export interface SegmentMetricExtras {
  creator: ReturnType<typeof creatorView> | null;
  query_description?: Record<string, unknown>;
  database_id?: number | null;
}

/** The wire shape of a segment (GET /api/segment/:id) or a metric (GET /api/metric/:id), with what was hydrated. */
export function toSegmentMetricView(model: SegmentMetricKind, m: SegmentOrMetric, extras: SegmentMetricExtras) {
  return { ...segmentMetricSnapshot(model, m), created_at: iso(m.created_at), updated_at: iso(m.updated_at), ...extras };
}
