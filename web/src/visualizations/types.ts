/** The shapes a visualization reads: the card's display and settings and the query's answer (as the public API returns it). */

export interface Column {
  name: string;
  display_name: string;
  base_type: string;
  semantic_type?: string | null;
  effective_type?: string;
  unit?: string;
  source?: string;
  field_ref?: unknown;
  [k: string]: unknown;
}

export interface Dataset {
  rows: unknown[][];
  cols: Column[];
  [k: string]: unknown;
}

export type Theme = 'light' | 'night' | 'transparent';

export type Settings = Record<string, unknown>;

export interface CellClick {
  rowIndex: number;
  colIndex: number;
  value: unknown;
  /** Where the click was, in client (viewport) coordinates, for a menu shown at the point. */
  position?: { x: number; y: number };
}

/** A marker on a cartesian chart's x axis (a timeline event), at `x`: one of the rows' x values. */
export interface ChartMarker {
  key: string;
  x: unknown;
  label: string;
}

export interface VisualizationProps {
  display: string;
  settings: Settings;
  data: Dataset;
  theme: Theme;
  height?: number;
  width?: number;
  onClickCell?: (e: CellClick) => void;
  /** Drawn on the x axis of bar, line, area and combo charts; each a button named by its label. */
  markers?: ChartMarker[];
}

/** What each drawn component receives: the props plus the measured size of its container. */
export interface ChartProps extends VisualizationProps {
  width: number;
  height: number;
  /** Called once the component is drawn (an ECharts 'finished' event for charts); sets data-state="ready". */
  onReady: () => void;
}
