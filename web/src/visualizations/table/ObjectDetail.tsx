import { useEffect, useState } from 'react';
import { columnTitle, formatValue } from '../format/column';
import { palette } from '../theme';
import type { ChartProps } from '../types';
import { visibleColumns } from './table-model';

/** One row as a list of "column: value" (Metabase's object detail), with arrows to step through the rows. */
export default function ObjectDetail({ data, settings, theme, width, height, onReady, onClickCell }: ChartProps) {
  const p = palette(theme);
  const [row, setRow] = useState(0);
  useEffect(() => onReady(), [onReady, data, settings, row]);
  const current = Math.min(row, Math.max(0, data.rows.length - 1));
  const values = data.rows[current] ?? [];
  const pk = data.cols.findIndex((c) => c.semantic_type === 'type/PK');
  const nameCol = data.cols.findIndex((c) => c.semantic_type === 'type/Name');
  const heading =
    nameCol >= 0
      ? formatValue(values[nameCol], data.cols[nameCol], settings)
      : pk >= 0
        ? `${data.cols[pk].display_name} ${formatValue(values[pk], data.cols[pk], settings)}`
        : '';
  const button = {
    background: 'none',
    border: `1px solid ${p.border}`,
    borderRadius: 4,
    color: p.text,
    cursor: 'pointer',
    padding: '2px 10px',
  };
  if (!data.rows.length) return <div style={{ padding: 16, color: p.textMuted }}>No results!</div>;
  return (
    <div data-testid="object-detail" style={{ width, height, overflow: 'auto', padding: 16, boxSizing: 'border-box' }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 12 }}>
        <div style={{ fontSize: 20, fontWeight: 900 }}>{heading}</div>
        {data.rows.length > 1 && (
          <div style={{ display: 'flex', gap: 6, alignItems: 'center', fontSize: 12, color: p.textMuted }}>
            <button aria-label="Previous row" disabled={current === 0} onClick={() => setRow(current - 1)} style={button}>
              ↑
            </button>
            <button aria-label="Next row" disabled={current >= data.rows.length - 1} onClick={() => setRow(current + 1)} style={button}>
              ↓
            </button>
          </div>
        )}
      </div>
      <dl style={{ display: 'grid', gridTemplateColumns: 'minmax(120px, 35%) 1fr', rowGap: 10, columnGap: 16, margin: 0 }}>
        {visibleColumns(data.cols, settings).map((i) => (
          <div key={i} style={{ display: 'contents' }}>
            <dt style={{ color: p.textMuted, fontWeight: 700 }}>{columnTitle(data.cols[i], settings)}</dt>
            <dd
              style={{ margin: 0, fontWeight: 700, cursor: onClickCell ? 'pointer' : undefined }}
              onClick={onClickCell ? () => onClickCell({ rowIndex: current, colIndex: i, value: values[i] }) : undefined}
            >
              {formatValue(values[i], data.cols[i], settings, { inTable: true }) || '—'}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
