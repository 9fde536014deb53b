import { Box, UnstyledButton } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import type { ResultColumn } from '../../api/dataset';
import type { Settings } from '../../../visualizations';
import { formatCell, headerOf } from './format';

const ROW_HEIGHT = 32;
const COL_WIDTH = 180;
/** A few rows take their own height; more scroll inside this. */
const MAX_HEIGHT = 440;

type Sort = { col: number; dir: 'asc' | 'desc' } | null;

/**
 * The rows as a grid that draws only what is in view (TanStack Virtual), so 2,000 rows scroll as smoothly as 20.
 * A column's header sorts the rows shown (ascending, descending, as they came); a row opens its object detail, or a
 * cell its drill-through menu when `onCellClick` takes it (answers true).
 * ARIA grid roles: the row count and each row's index are announced though most rows are not in the page.
 */
export function ResultsTable({
  cols,
  rows,
  settings,
  onRowClick,
  onCellClick,
}: {
  cols: ResultColumn[];
  rows: unknown[][];
  /** The question's settings: its `column_settings` format the cells and titles. */
  settings?: Settings;
  onRowClick(index: number): void;
  onCellClick?(row: number, col: number, at: { x: number; y: number }): boolean;
}) {
  const [sort, setSort] = useState<Sort>(null);
  const order = useMemo(() => {
    const idx = rows.map((_, i) => i);
    if (!sort) return idx;
    const sign = sort.dir === 'asc' ? 1 : -1;
    return idx.sort((a, b) => sign * compare(rows[a][sort.col], rows[b][sort.col]));
  }, [rows, sort]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: order.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const width = Math.max(cols.length * COL_WIDTH, 0);
  const cycle = (col: number) => setSort((s) => (s?.col !== col ? { col, dir: 'asc' } : s.dir === 'asc' ? { col, dir: 'desc' } : null));

  return (
    <Box
      ref={scroller}
      role="grid"
      aria-label="Results"
      aria-rowcount={rows.length + 1}
      aria-colcount={cols.length}
      tabIndex={0}
      style={{
        height: Math.min(MAX_HEIGHT, (rows.length + 1) * ROW_HEIGHT + 2),
        overflow: 'auto',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 4,
      }}
    >
      <div role="rowgroup" style={{ position: 'sticky', top: 0, zIndex: 1, width, background: 'var(--mantine-color-body)' }}>
        <div
          role="row"
          aria-rowindex={1}
          style={{ display: 'flex', height: ROW_HEIGHT, borderBottom: '1px solid var(--mantine-color-default-border)' }}
        >
          {cols.map((c, i) => (
            <div
              key={`${c.name}-${i}`}
              role="columnheader"
              aria-colindex={i + 1}
              aria-sort={sort?.col === i ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
              style={{ width: COL_WIDTH, flex: 'none', padding: '0 8px', display: 'flex', alignItems: 'center' }}
            >
              <UnstyledButton
                fw={700}
                fz="sm"
                onClick={() => cycle(i)}
                style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
              >
                {headerOf(c, settings)}
                {sort?.col === i ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
              </UnstyledButton>
            </div>
          ))}
        </div>
      </div>
      <div role="rowgroup" style={{ height: virtual.getTotalSize(), width, position: 'relative' }}>
        {virtual.getVirtualItems().map((v) => {
          const index = order[v.index];
          const row = rows[index];
          return (
            <div
              key={v.key}
              role="row"
              aria-rowindex={v.index + 2}
              onClick={(e) => {
                const cell = (e.target as HTMLElement).closest('[role="gridcell"]');
                const col = Number(cell?.getAttribute('aria-colindex')) - 1;
                if (col >= 0 && onCellClick?.(index, col, { x: e.clientX, y: e.clientY })) return;
                onRowClick(index);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') onRowClick(index);
              }}
              tabIndex={0}
              style={{
                position: 'absolute',
                top: 0,
                transform: `translateY(${v.start}px)`,
                height: ROW_HEIGHT,
                display: 'flex',
                width,
                cursor: 'pointer',
                borderBottom: '1px solid var(--mantine-color-default-border)',
              }}
            >
              {cols.map((c, i) => (
                <div
                  key={i}
                  role="gridcell"
                  aria-colindex={i + 1}
                  style={{
                    width: COL_WIDTH,
                    flex: 'none',
                    padding: '0 8px',
                    lineHeight: `${ROW_HEIGHT}px`,
                    overflow: 'hidden',
                    textOverflow: 'ellipsis',
                    whiteSpace: 'nowrap',
                    fontSize: 14,
                  }}
                >
                  {formatCell(row[i], c, settings)}
                </div>
              ))}
            </div>
          );
        })}
      </div>
    </Box>
  );
}

/** Nulls last, numbers as numbers, everything else as text in the reader's locale. */
function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}
