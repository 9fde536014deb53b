import { BarChart, LineChart, ScatterChart } from 'echarts/charts';
import { useCallback, useMemo, useState } from 'react';
import { palette } from '../theme';
import type { ChartProps } from '../types';
import { cartesianOption } from './cartesian-option';
import { echarts } from './echarts-core';
import { EChart } from './EChart';
import { MarkerLayer, markerSeries, placedMarkers, type PlacedMarker } from './markers';
import { NoResults } from './NoResults';

echarts.use([BarChart, LineChart, ScatterChart]);

/** bar, line, area, combo, row, scatter and waterfall: one chart of x by metric series. */
export default function CartesianChart(props: ChartProps) {
  const { display, data, settings, theme, width, height, onReady, onClickCell, markers } = props;
  const built = useMemo(() => {
    const b = cartesianOption(display, data, settings, palette(theme));
    const placed = placedMarkers(display, b.model, markers ?? []);
    if (!placed.length) return { ...b, placed };
    const series = [...(b.option.series as object[]), markerSeries(placed, palette(theme))];
    return { ...b, option: { ...b.option, series }, placed };
  }, [display, data, settings, theme, markers]);
  const [positions, setPositions] = useState<Array<PlacedMarker & { left: number }>>([]);
  const onDrawn = useCallback(
    (chart: echarts.ECharts) => {
      const at = built.placed.map((m) => ({ ...m, left: Number(chart.convertToPixel({ xAxisIndex: 0 }, m.index)) }));
      setPositions(at.filter((m) => Number.isFinite(m.left)));
    },
    [built.placed],
  );
  if (!data.rows.length || !built.model.series.length) return <NoResults theme={theme} onReady={onReady} />;
  const onClick = (seriesIndex: number, dataIndex: number, position?: { x: number; y: number }) => {
    const ref = built.points[seriesIndex]?.[dataIndex];
    if (ref && onClickCell) onClickCell({ ...ref, value: data.rows[ref.rowIndex]?.[ref.colIndex], position });
  };
  const chart = <EChart option={built.option} width={width} height={height} onReady={onReady} onClick={onClick} onDrawn={onDrawn} />;
  if (!built.placed.length) return chart;
  return (
    <div style={{ position: 'relative', width, height }}>
      {chart}
      <MarkerLayer markers={positions} top={height - 48} theme={theme} />
    </div>
  );
}
