import { useEffect } from 'react';
import { formatValue } from '../format/column';
import { palette } from '../theme';
import type { ChartProps } from '../types';
import { scalarColumn } from './scalar-value';

/** A value against `progress.goal` as a bar (`progress.color`), with "Goal exceeded" past it. */
export default function Progress({ data, settings, theme, width, height, onReady }: ChartProps) {
  useEffect(() => onReady(), [onReady, data, settings]);
  const p = palette(theme);
  const index = scalarColumn(data.cols, settings);
  const col = data.cols[index];
  const value = Number(data.rows[0]?.[index] ?? 0);
  const goal = Number(settings['progress.goal'] ?? 0);
  const color = String(settings['progress.color'] ?? '#84BB4C');
  const ratio = goal > 0 ? value / goal : value > 0 ? 1 : 0;
  const fill = Math.max(0, Math.min(1, ratio));
  const barWidth = Math.min(width - 48, 640);
  const status = ratio >= 1 ? (ratio === 1 ? 'Goal met' : 'Goal exceeded') : `${formatValue(goal - value, col, settings)} to go`;
  return (
    <div style={{ width, height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <div style={{ width: barWidth }}>
        <div data-testid="scalar-value" style={{ fontSize: Math.min(36, Math.max(16, height / 6)), fontWeight: 900, marginBottom: 8 }}>
          {formatValue(value, col, settings)}
        </div>
        <div
          data-testid="progress-bar"
          style={{
            height: Math.min(56, Math.max(16, height / 5)),
            background: theme === 'night' ? '#4C5773' : '#EEECEC',
            borderRadius: 6,
            overflow: 'hidden',
            position: 'relative',
          }}
        >
          <div style={{ width: `${fill * 100}%`, height: '100%', background: color }} />
        </div>
        <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 8, fontSize: 13, color: p.textMuted, fontWeight: 700 }}>
          <span>{status}</span>
          <span>Goal {formatValue(goal, col, settings)}</span>
        </div>
      </div>
    </div>
  );
}
