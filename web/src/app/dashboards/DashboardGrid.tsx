import { Box } from '@mantine/core';
import type { ReactNode } from 'react';
import ReactGridLayout, { noCompactor, useContainerWidth, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import type { DashcardData } from '../api/dashboard-view';

/** Metabase's grid: 24 columns; `col`, `row`, `size_x`, `size_y` are cells of it, so its dashboards look the same here. */
export const GRID_COLUMNS = 24;
const ROW_HEIGHT = 48;

/**
 * The dashcards of one tab on the 24-column grid. Static while viewing; while editing each card is dragged by its
 * handle and resized from its corner, and `onLayout` receives the new cells. No compaction: a card stays where it
 * was put, as Metabase keeps it (a gap left on purpose stays a gap).
 */
export function DashboardGrid(props: {
  dashcards: DashcardData[];
  editing: boolean;
  onLayout: (cells: Map<number, Pick<DashcardData, 'col' | 'row' | 'size_x' | 'size_y'>>) => void;
  renderCard: (dc: DashcardData) => ReactNode;
}) {
  const { width, containerRef, mounted } = useContainerWidth();
  const layout: Layout = props.dashcards.map((dc) => ({
    i: String(dc.id),
    x: dc.col,
    y: dc.row,
    w: dc.size_x,
    h: dc.size_y,
    minW: 2,
    minH: 1,
    static: !props.editing,
  }));
  const changed = (next: Layout) => {
    if (!props.editing) return;
    const cells = new Map<number, Pick<DashcardData, 'col' | 'row' | 'size_x' | 'size_y'>>();
    const before = new Map(props.dashcards.map((dc) => [dc.id, dc]));
    for (const item of next) {
      const dc = before.get(Number(item.i));
      // Only real moves: the grid also reports its layout when it mounts, and an unchanged one must not re-render.
      if (dc && (dc.col !== item.x || dc.row !== item.y || dc.size_x !== item.w || dc.size_y !== item.h))
        cells.set(Number(item.i), { col: item.x, row: item.y, size_x: item.w, size_y: item.h });
    }
    if (cells.size) props.onLayout(cells);
  };
  return (
    <Box ref={containerRef} data-testid="dashboard-grid" mih={100}>
      {mounted && (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{ cols: GRID_COLUMNS, rowHeight: ROW_HEIGHT, margin: [8, 8], containerPadding: [0, 0] }}
          dragConfig={{ enabled: props.editing, handle: '.dashcard-drag-handle' }}
          resizeConfig={{ enabled: props.editing }}
          compactor={noCompactor}
          onLayoutChange={changed}
        >
          {props.dashcards.map((dc) => (
            <div key={String(dc.id)}>{props.renderCard(dc)}</div>
          ))}
        </ReactGridLayout>
      )}
    </Box>
  );
}
