import { CSSProperties, useEffect, useMemo, useState } from 'react';
import { formatValue } from '../format/column';
import { palette } from '../theme';
import type { ChartProps } from '../types';
import { buildTable, cellValue, SortDirection, sortOrder } from './table-model';

const ROW_HEIGHT = 32;
const HEADER_HEIGHT = 36;
const FOOTER_HEIGHT = 32;

/** A table with sortable headers (click: ascending, descending, as returned) and pages that fit its height. */
export default function Table({ data, settings, theme, width, height, onReady, onClickCell }: ChartProps) {
  const p = palette(theme);
  const model = useMemo(() => buildTable(data, settings), [data, settings]);
  const [sort, setSort] = useState<{ position: number; dir: SortDirection } | null>(null);
  const [page, setPage] = useState(0);
  const order = useMemo(() => (sort ? sortOrder(model, sort.position, sort.dir) : model.rows.map((_, i) => i)), [model, sort]);
  const perPage = Math.max(1, Math.floor((height - HEADER_HEIGHT - FOOTER_HEIGHT) / ROW_HEIGHT));
  const pages = Math.max(1, Math.ceil(order.length / perPage));
  const current = Math.min(page, pages - 1);
  const shown = order.slice(current * perPage, current * perPage + perPage);
  useEffect(() => onReady(), [onReady, model, sort, current]);

  const clickHeader = (position: number) => {
    setPage(0);
    setSort((s) => (!s || s.position !== position ? { position, dir: 'asc' } : s.dir === 'asc' ? { position, dir: 'desc' } : null));
  };
  const cell: CSSProperties = {
    padding: '0 12px',
    height: ROW_HEIGHT,
    borderBottom: `1px solid ${p.border}`,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    maxWidth: 360,
  };
  const button: CSSProperties = { background: 'none', border: 'none', color: p.text, cursor: 'pointer', fontSize: 16, padding: '0 6px' };

  return (
    <div data-testid="table-visualization" style={{ width, height, display: 'flex', flexDirection: 'column' }}>
      <div style={{ flex: '1 1 auto', overflow: 'auto', minHeight: 0 }}>
        <table style={{ borderCollapse: 'collapse', width: '100%', fontSize: 12.5, color: p.text }}>
          <thead>
            <tr>
              {model.columns.map((c, i) => (
                <th
                  key={i}
                  role="columnheader"
                  aria-sort={sort?.position === i ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
                  onClick={() => clickHeader(i)}
                  style={{
                    ...cell,
                    height: HEADER_HEIGHT,
                    position: 'sticky',
                    top: 0,
                    background: p.headerBackground === 'transparent' ? undefined : p.headerBackground,
                    color: p.textMuted,
                    fontWeight: 700,
                    textAlign: c.numeric ? 'right' : 'left',
                    cursor: 'pointer',
                    userSelect: 'none',
                  }}
                >
                  {c.title}
                  {sort?.position === i ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r}>
                {model.columns.map((c, i) => {
                  const value = cellValue(model, r, i);
                  const click =
                    onClickCell && !model.pivoted ? () => onClickCell({ rowIndex: model.source[r], colIndex: c.index, value }) : undefined;
                  return (
                    <td
                      key={i}
                      onClick={click}
                      style={{ ...cell, textAlign: c.numeric ? 'right' : 'left', cursor: click ? 'pointer' : undefined }}
                    >
                      {formatValue(value, c.col, settings, { inTable: true })}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div
        data-testid="table-footer"
        style={{
          height: FOOTER_HEIGHT,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'flex-end',
          gap: 4,
          fontSize: 12,
          color: p.textMuted,
          padding: '0 8px',
          flex: '0 0 auto',
        }}
      >
        {order.length === 0 ? (
          'No results!'
        ) : (
          <>
            <span>
              {pages > 1
                ? `Rows ${(current * perPage + 1).toLocaleString('en-US')}-` +
                  `${Math.min(order.length, (current + 1) * perPage).toLocaleString('en-US')} of `
                : 'Showing '}
              {order.length.toLocaleString('en-US')} {order.length === 1 ? 'row' : 'rows'}
            </span>
            {pages > 1 && (
              <>
                <button aria-label="Previous page" disabled={current === 0} onClick={() => setPage(current - 1)} style={button}>
                  ‹
                </button>
                <button aria-label="Next page" disabled={current >= pages - 1} onClick={() => setPage(current + 1)} style={button}>
                  ›
                </button>
              </>
            )}
          </>
        )}
      </div>
    </div>
  );
}
