import { useEffect, useMemo } from 'react';
import { formatValue } from '../format/column';
import { palette } from '../theme';
import type { ChartProps } from '../types';
import { fitFontSize } from './scalar-value';
import { computeTrend, formatChange } from './smartscalar';

/** The last period's value with its change vs. the previous period: arrow, percentage, and the previous value. */
export default function SmartScalar({ data, settings, theme, width, height, onReady }: ChartProps) {
  useEffect(() => onReady(), [onReady, data, settings]);
  const p = palette(theme);
  const t = useMemo(() => computeTrend(data, settings), [data, settings]);
  const col = data.cols[t.metric];
  const full = formatValue(t.value, col, settings);
  const text = fitFontSize(full, width, height * 0.6) >= 28 ? full : formatValue(t.value, col, settings, { compact: true });
  const color = t.good === null ? p.textMuted : t.good ? p.positive : p.negative;
  const arrow = t.direction === 'up' ? '↑' : t.direction === 'down' ? '↓' : '';
  return (
    <div style={{ width, height, display: 'flex', alignItems: 'center', justifyContent: 'center', flexDirection: 'column', gap: 6 }}>
      <div
        data-testid="scalar-value"
        title={full}
        style={{ fontSize: fitFontSize(text, width, height * 0.6), fontWeight: 900, lineHeight: 1.1, whiteSpace: 'nowrap' }}
      >
        {data.rows.length ? text : ''}
      </div>
      <div data-testid="scalar-period" style={{ fontSize: 13, color: p.textMuted, fontWeight: 700 }}>
        {t.periodLabel}
      </div>
      <div
        data-testid="scalar-trend"
        style={{ fontSize: 14, display: 'flex', gap: 6, alignItems: 'baseline', flexWrap: 'wrap', justifyContent: 'center' }}
      >
        {t.direction !== 'none' && (
          <span style={{ color, fontWeight: 900 }}>
            {arrow} {t.direction === 'flat' ? 'No change' : formatChange(t.change)}
          </span>
        )}
        <span style={{ color: p.textMuted }}>
          {t.comparisonLabel}
          {t.direction !== 'none' ? `: ${formatValue(t.previous, col, settings)}` : ''}
        </span>
      </div>
    </div>
  );
}
