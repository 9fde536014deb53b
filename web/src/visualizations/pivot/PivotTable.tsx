import { CSSProperties, useEffect, useMemo, useState } from 'react';
import { formatValue } from '../format/column';
import { palette } from '../theme';
import type { ChartProps } from '../types';
import { buildPivot, collapsedSet } from './pivot-model';

/** The pivot table: column headers over the values, row headers down the left, subtotal rows, groups that collapse. */
export default function PivotTable({ data, settings, theme, width, height, onReady }: ChartProps) {
  const p = palette(theme);
  const [collapsed, setCollapsed] = useState(() => collapsedSet(settings));
  useEffect(() => setCollapsed(collapsedSet(settings)), [settings]);
  const model = useMemo(() => buildPivot(data, settings, collapsed), [data, settings, collapsed]);
  useEffect(() => onReady(), [onReady, model]);

  const toggle = (path: string) =>
    setCollapsed((old) => {
      const next = new Set(old);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });
  const corner = Math.max(1, model.rowDims.length);
  const base: CSSProperties = { padding: '0 10px', height: 30, border: `1px solid ${p.border}`, whiteSpace: 'nowrap' };
  const head: CSSProperties = {
    ...base,
    fontWeight: 700,
    color: p.textMuted,
    background: p.headerBackground === 'transparent' ? undefined : p.headerBackground,
  };
  const totalRow: CSSProperties = {
    fontWeight: 900,
    background: theme === 'night' ? '#363D44' : theme === 'transparent' ? undefined : '#F9FBFC',
  };

  return (
    <div data-testid="pivot-table" style={{ width, height, overflow: 'auto' }}>
      <table style={{ borderCollapse: 'collapse', fontSize: 12.5, color: p.text, minWidth: '100%' }}>
        <thead>
          {model.headerRows.map((cells, r) => (
            <tr key={r}>
              {r === model.headerRows.length - 1 ? (
                model.rowTitles.length ? (
                  model.rowTitles.map((t, i) => (
                    <th key={`t${i}`} style={{ ...head, textAlign: 'left' }}>
                      {t}
                    </th>
                  ))
                ) : (
                  <th style={head} />
                )
              ) : (
                <th colSpan={corner} style={head} />
              )}
              {cells.map((c, i) => (
                <th key={i} colSpan={c.span} style={{ ...head, textAlign: 'center', color: c.total ? p.text : p.textMuted }}>
                  {c.label}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {model.rows.map((row, r) => {
            const style = row.kind === 'detail' || row.kind === 'collapsed' ? {} : totalRow;
            return (
              <tr key={r} data-kind={row.kind} style={style}>
                {row.totalLabel !== undefined ? (
                  <>
                    {Array.from({ length: row.level }, (_, i) => (
                      <td key={`e${i}`} style={base} />
                    ))}
                    <td colSpan={corner - row.level} style={{ ...base, fontWeight: 900 }}>
                      {row.totalLabel}
                    </td>
                  </>
                ) : (
                  row.headers.map((h, i) => (
                    <td
                      key={`h${i}`}
                      style={{ ...base, fontWeight: 700, borderBottom: h ? base.border : 'none', borderTop: h ? base.border : 'none' }}
                    >
                      {h?.collapsible && (
                        <button
                          aria-label={h.collapsed ? 'Expand' : 'Collapse'}
                          onClick={() => toggle(h.path)}
                          style={{
                            border: `1px solid ${p.textMuted}`,
                            background: 'none',
                            color: p.textMuted,
                            borderRadius: 3,
                            width: 16,
                            height: 16,
                            lineHeight: '12px',
                            fontSize: 12,
                            padding: 0,
                            marginRight: 6,
                            cursor: 'pointer',
                          }}
                        >
                          {h.collapsed ? '+' : '−'}
                        </button>
                      )}
                      {h?.label}
                    </td>
                  ))
                )}
                {row.cells.map((v, i) => (
                  <td key={i} style={{ ...base, textAlign: 'right' }}>
                    {formatValue(v, data.cols[model.cellCols[i]], settings, { inTable: true })}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
