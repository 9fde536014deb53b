import { useState } from 'react';
import { FONT_FAMILY, palette, type Palette } from '../theme';
import type { ChartMarker, Theme } from '../types';
import type { CartesianModel } from './series';

/** A marker with the category index it stands at; several markers at one x share it. */
export interface PlacedMarker {
  index: number;
  labels: string[];
  key: string;
}

const MARKED = new Set(['bar', 'line', 'area', 'combo']);

/** The markers whose x is one of the chart's categories, grouped by category (bar, line, area and combo only). */
export function placedMarkers(display: string, model: CartesianModel, markers: ChartMarker[]): PlacedMarker[] {
  if (!MARKED.has(display) || model.numericX || !markers.length) return [];
  const byX = new Map(model.xValues.map((v, i) => [String(v), i]));
  const out = new Map<number, PlacedMarker>();
  for (const m of markers) {
    const index = byX.get(String(m.x));
    if (index === undefined) continue;
    const at = out.get(index) ?? { index, labels: [], key: '' };
    at.labels.push(m.label);
    at.key = at.key ? `${at.key}+${m.key}` : m.key;
    out.set(index, at);
  }
  return [...out.values()];
}

/** A series that draws nothing but a dashed vertical line at each marker. */
export function markerSeries(placed: PlacedMarker[], p: Palette): Record<string, unknown> {
  return {
    type: 'line',
    name: 'Events',
    data: [],
    silent: true,
    markLine: {
      silent: true,
      symbol: 'none',
      label: { show: false },
      lineStyle: { type: 'dashed', color: p.textMuted, width: 1 },
      data: placed.map((m) => ({ xAxis: m.index })),
    },
  };
}

/**
 * The markers as buttons under the x axis line (HTML over the chart, so they take focus): each named by its events,
 * which show in a label on hover or focus.
 */
export function MarkerLayer({ markers, top, theme }: { markers: Array<PlacedMarker & { left: number }>; top: number; theme: Theme }) {
  const [active, setActive] = useState<string | null>(null);
  const p = palette(theme);
  return (
    <div role="group" aria-label="Timeline events" style={{ position: 'absolute', left: 0, top: 0, width: 0, height: 0 }}>
      {markers.map((m) => {
        const name = m.labels.join(', ');
        return (
          <div key={m.key} style={{ position: 'absolute', left: m.left - 8, top: top - 8 }}>
            <button
              type="button"
              aria-label={`Event: ${name}`}
              onMouseEnter={() => setActive(m.key)}
              onMouseLeave={() => setActive(null)}
              onFocus={() => setActive(m.key)}
              onBlur={() => setActive(null)}
              style={{
                width: 16,
                height: 16,
                padding: 0,
                borderRadius: 8,
                border: `2px solid ${p.text}`,
                background: p.background,
                cursor: 'pointer',
              }}
            />
            {active === m.key && (
              <div
                role="tooltip"
                style={{
                  position: 'absolute',
                  bottom: 20,
                  left: -40,
                  minWidth: 96,
                  padding: '4px 8px',
                  borderRadius: 4,
                  background: p.text,
                  color: p.background,
                  fontFamily: FONT_FAMILY,
                  fontSize: 12,
                  whiteSpace: 'nowrap',
                }}
              >
                {name}
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}
