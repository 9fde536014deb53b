import { ComponentType, lazy } from 'react';
import type { ChartProps } from './types';

/**
 * Which component draws which display, each loaded on demand (its own chunk): a dashboard of bar charts never
 * downloads the map or the pivot table. The ECharts core is shared by the chart chunks.
 */
type Loader = () => Promise<{ default: ComponentType<ChartProps> }>;

const cartesian: Loader = () => import('./charts/CartesianChart');

const LOADERS: Record<string, Loader> = {
  table: () => import('./table/Table'),
  object: () => import('./table/ObjectDetail'),
  scalar: () => import('./scalar/Scalar'),
  smartscalar: () => import('./scalar/SmartScalar'),
  progress: () => import('./scalar/Progress'),
  bar: cartesian,
  line: cartesian,
  area: cartesian,
  combo: cartesian,
  row: cartesian,
  scatter: cartesian,
  waterfall: cartesian,
  pie: () => import('./charts/PieChart'),
  funnel: () => import('./charts/FunnelChart'),
  gauge: () => import('./charts/GaugeChart'),
  pivot: () => import('./pivot/PivotTable'),
  map: () => import('./map/MapChart'),
};

export const supportedDisplays: readonly string[] = Object.keys(LOADERS);

const cache = new Map<Loader, ComponentType<ChartProps>>();

/**
 * Starts loading the chunks of these displays now, so that a page that knows what it will draw (a dashboard, once
 * its cards are known) fetches them while its queries run rather than after their rows arrive.
 */
export function preloadDisplays(displays: Iterable<string>): void {
  for (const loader of new Set([...displays].map((d) => LOADERS[d] ?? LOADERS.table))) void loader().catch(() => undefined);
}

/** The lazy component for a display (one per loader, so bar and line share the same chunk and component). */
export function componentFor(display: string): ComponentType<ChartProps> {
  const loader = LOADERS[display] ?? LOADERS.table;
  let c = cache.get(loader);
  if (!c) {
    c = lazy(loader);
    cache.set(loader, c);
  }
  return c;
}
