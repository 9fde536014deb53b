import type { Feature, FeatureCollection, Geometry, Position } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { regionKeys, RegionMap } from './regions';

/**
 * GeoJSON of the bundled atlases, converted from their TopoJSON with topojson-client when a map first needs them
 * (each atlas is its own chunk). US states come pre-projected (Albers, with Alaska and Hawaii as insets, as
 * Metabase draws them); their y axis points down, so it is flipped for ECharts, which puts north up.
 */
export interface Atlas {
  name: string;
  geojson: FeatureCollection;
  regions: Array<{ name: string; keys: string[] }>;
}

type Props = { name: string };

const loaded = new Map<string, Promise<Atlas>>();

function toCollection(
  topology: Topology,
  object: string,
  map: RegionMap | null,
  flipY: boolean,
): Atlas['geojson'] & { features: Array<Feature<Geometry, Props>> } {
  const fc = feature(topology, topology.objects[object] as GeometryCollection<Props>) as FeatureCollection<Geometry, Props>;
  if (flipY) for (const f of fc.features) flip(f.geometry);
  if (map === 'world_countries') {
    // Antarctica takes a third of the height for no data; rings across the antimeridian (Fiji, Chukotka) would
    // draw a stripe across the whole map, so their far side is pinned to the 180° line.
    fc.features = fc.features.filter((f) => f.id !== '010');
    for (const f of fc.features) unwrap(f.geometry);
  }
  return fc;
}

/**
 * Albers pixels (975 x 610, y down) to small "degrees" with north up: ECharts reads map coordinates as lon/lat, and
 * values far outside ±90 come out squeezed, so the atlas is scaled down uniformly (its proportions stay).
 */
function flip(g: Geometry | null): void {
  if (!g) return;
  const flipRing = (ring: Position[]) =>
    ring.forEach((p) => {
      p[0] = p[0] / 20;
      p[1] = -p[1] / 20;
    });
  if (g.type === 'Polygon') g.coordinates.forEach(flipRing);
  else if (g.type === 'MultiPolygon') g.coordinates.forEach((poly) => poly.forEach(flipRing));
  else if (g.type === 'GeometryCollection') g.geometries.forEach(flip);
}

function unwrap(g: Geometry | null): void {
  if (!g) return;
  const fix = (ring: Position[]) => {
    if (!ring.some((p) => p[0] > 170) || !ring.some((p) => p[0] < -170)) return;
    const east = ring.filter((p) => p[0] > 0).length >= ring.length / 2;
    ring.forEach((p) => {
      if (east && p[0] < 0) p[0] = 180;
      if (!east && p[0] > 0) p[0] = -180;
    });
  };
  if (g.type === 'Polygon') g.coordinates.forEach(fix);
  else if (g.type === 'MultiPolygon') g.coordinates.forEach((poly) => poly.forEach(fix));
}

/** The region atlas for a region map: `us_states` (projected) or `world_countries`. */
export function loadRegions(map: RegionMap): Promise<Atlas> {
  const key = `regions:${map}`;
  let p = loaded.get(key);
  if (!p) {
    p = (map === 'us_states' ? import('us-atlas/states-albers-10m.json') : import('world-atlas/countries-110m.json')).then((m) => {
      const topology = ((m as { default?: unknown }).default ?? m) as Topology;
      const fc = toCollection(topology, map === 'us_states' ? 'states' : 'countries', map, map === 'us_states');
      const regions = fc.features.map((f) => ({
        name: f.properties?.name ?? String(f.id),
        keys: regionKeys(map, f.id as string | undefined, f.properties?.name ?? String(f.id)),
      }));
      return { name: `analytics-${map}`, geojson: fc, regions };
    });
    loaded.set(key, p);
  }
  return p;
}

/** A longitude/latitude background for pin maps: the US states when every pin is in the US, else the world. */
export function loadPinBackground(us: boolean): Promise<Atlas> {
  const key = `pins:${us ? 'us' : 'world'}`;
  let p = loaded.get(key);
  if (!p) {
    p = (us ? import('us-atlas/states-10m.json') : import('world-atlas/countries-110m.json')).then((m) => {
      const topology = ((m as { default?: unknown }).default ?? m) as Topology;
      const fc = toCollection(topology, us ? 'states' : 'countries', null, false);
      return { name: `analytics-pins-${us ? 'us' : 'world'}`, geojson: fc, regions: [] };
    });
    loaded.set(key, p);
  }
  return p;
}

/** Roughly the United States with Alaska and Hawaii (lon/lat box). */
export function inUnitedStates(lat: number, lon: number): boolean {
  return (
    (lat > 24 && lat < 50 && lon > -125 && lon < -66) ||
    (lat > 51 && lat < 72 && lon > -170 && lon < -129) ||
    (lat > 18 && lat < 23 && lon > -161 && lon < -154)
  );
}
