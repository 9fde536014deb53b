import { BarChart, LineChart, ScatterChart } from 'echarts/charts';
import { useMemo } from 'react';
import { palette } from '../theme';
import type { ChartProps } from '../types';
import { cartesianOption } from './cartesian-option';
import { echarts } from './echarts-core';
import { EChart } from './EChart';
import { NoResults } from './NoResults';

echarts.use([BarChart, LineChart, ScatterChart]);

/** bar, line, area, combo, row, scatter and waterfall: one chart of x by metric series. */
export default function CartesianChart(props: ChartProps) {
  const { display, data, settings, theme, width, height, onReady, onClickCell } = props;
  const built = useMemo(() => cartesianOption(display, data, settings, palette(theme)), [display, data, settings, theme]);
  if (!data.rows.length || !built.model.series.length) return <NoResults theme={theme} onReady={onReady} />;
  const onClick = (seriesIndex: number, dataIndex: number) => {
    const ref = built.points[seriesIndex]?.[dataIndex];
    if (ref && onClickCell) onClickCell({ ...ref, value: data.rows[ref.rowIndex]?.[ref.colIndex] });
  };
  return <EChart option={built.option} width={width} height={height} onReady={onReady} onClick={onClick} />;
}
