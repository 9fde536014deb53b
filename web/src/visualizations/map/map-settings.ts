import { isCoordinate, isNumeric } from '../format/column';
import type { Column, Settings } from '../types';
import type { RegionMap } from './regions';

/** What a map card draws, from `map.type`, `map.region`, `map.dimension`/`map.metric` and `map.latitude_column`/`map.longitude_column`. */
export type MapPlan =
  | { kind: 'region'; region: RegionMap; dimension: number; metric: number }
  | { kind: 'pin'; lat: number; lon: number; metric: number | null };

const byName = (cols: Column[], name: unknown) => (typeof name === 'string' ? cols.findIndex((c) => c.name === name) : -1);

export function planMap(cols: Column[], settings: Settings): MapPlan | null {
  const lat =
    byName(cols, settings['map.latitude_column']) >= 0
      ? byName(cols, settings['map.latitude_column'])
      : cols.findIndex((c) => isCoordinate(c, 'lat'));
  const lon =
    byName(cols, settings['map.longitude_column']) >= 0
      ? byName(cols, settings['map.longitude_column'])
      : cols.findIndex((c) => isCoordinate(c, 'lon'));
  const regionCol =
    byName(cols, settings['map.dimension']) >= 0
      ? byName(cols, settings['map.dimension'])
      : cols.findIndex((c) => c.semantic_type === 'type/State' || c.semantic_type === 'type/Country' || /^(state|country)$/i.test(c.name));
  const type =
    settings['map.type'] ??
    (regionCol >= 0 && cols.some((c) => c.source === 'aggregation') ? 'region' : lat >= 0 && lon >= 0 ? 'pin' : 'region');
  const metricNamed = byName(cols, settings['map.metric']);
  if (type !== 'region' && lat >= 0 && lon >= 0) {
    const m = byName(cols, settings['map.metric_column']);
    return { kind: 'pin', lat, lon, metric: m >= 0 ? m : null };
  }
  if (regionCol < 0) return null;
  const metric = metricNamed >= 0 ? metricNamed : cols.findIndex((c, i) => i !== regionCol && (c.source === 'aggregation' || isNumeric(c)));
  if (metric < 0) return null;
  const region: RegionMap =
    settings['map.region'] === 'world_countries' ||
    (settings['map.region'] === undefined && cols[regionCol].semantic_type === 'type/Country')
      ? 'world_countries'
      : 'us_states';
  return { kind: 'region', region, dimension: regionCol, metric };
}
