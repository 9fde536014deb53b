import type { ReactNode } from 'react';
import type { ApiDashcard } from './api-types';

/** Row height of the 24-column dashboard grid, in pixels. */
export const GRID_ROW_HEIGHT = 80;

/** Dashcards placed on the dashboard's 24-column grid (`col`, `row`, `size_x`, `size_y`); one column when narrow. */
export function DashboardGrid({ dashcards, render }: { dashcards: ApiDashcard[]; render: (d: ApiDashcard) => ReactNode }) {
  return (
    <div
      data-testid="analytics-dashboard-grid"
      style={{ display: 'grid', gridTemplateColumns: 'repeat(24, minmax(0, 1fr))', gridAutoRows: GRID_ROW_HEIGHT, gap: 8 }}
    >
      {dashcards.map((d) => (
        <div
          key={d.id}
          data-testid="analytics-dashcard"
          data-dashcard-id={d.id}
          style={{
            gridColumn: `${d.col + 1} / span ${Math.max(1, d.size_x)}`,
            gridRow: `${d.row + 1} / span ${Math.max(1, d.size_y)}`,
            border: '1px solid var(--analytics-border)',
            borderRadius: 8,
            padding: 8,
            minWidth: 0,
            minHeight: 0,
            overflow: 'hidden',
            boxSizing: 'border-box',
          }}
        >
          {render(d)}
        </div>
      ))}
    </div>
  );
}
