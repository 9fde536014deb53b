import { FunnelChart as EFunnel } from 'echarts/charts';
import { useMemo } from 'react';
import { formatValue } from '../format/column';
import { formatNumber } from '../format/number';
import { FONT_FAMILY, palette, seriesColor } from '../theme';
import type { ChartProps } from '../types';
import { echarts } from './echarts-core';
import { EChart } from './EChart';
import { NoResults } from './NoResults';
import { pieColumns } from './pie-model';

echarts.use([EFunnel]);

/** Steps in row order (`funnel.dimension`, `funnel.metric`), each labelled with its value and share of the first step. */
export default function FunnelChart({ data, settings, theme, width, height, onReady, onClickCell }: ChartProps) {
  const p = palette(theme);
  const { dimension, metric } = pieColumns(data, settings, 'funnel');
  const option = useMemo(() => {
    const first = Number(data.rows[0]?.[metric]) || 0;
    const steps = data.rows.map((r, i) => ({
      name: formatValue(r[dimension], data.cols[dimension], settings),
      value: Number(r[metric]) || 0,
      itemStyle: { color: seriesColor(0), opacity: 1 - (0.6 * i) / Math.max(1, data.rows.length) },
    }));
    return {
      animation: false,
      backgroundColor: 'transparent',
      textStyle: { fontFamily: FONT_FAMILY, color: p.text },
      tooltip: {
        trigger: 'item',
        formatter: (i: { name: string; value: number }) => `${i.name}: ${formatValue(i.value, data.cols[metric], settings)}`,
      },
      series: [
        {
          type: 'funnel',
          sort: 'none',
          left: '8%',
          width: '55%',
          top: 16,
          bottom: 16,
          minSize: '8%',
          gap: 2,
          label: {
            show: true,
            position: 'right',
            color: p.text,
            fontFamily: FONT_FAMILY,
            formatter: (i: { name: string; value: number }) =>
              `${i.name}: ${formatValue(i.value, data.cols[metric], settings, { compact: true })}` +
              ` (${formatNumber(first ? i.value / first : 0, { number_style: 'percent' })})`,
          },
          labelLine: { show: true },
          data: steps,
        },
      ],
    };
  }, [data, settings, p, dimension, metric]);
  if (!data.rows.length) return <NoResults theme={theme} onReady={onReady} />;
  const onClick = (_: number, i: number) => onClickCell?.({ rowIndex: i, colIndex: metric, value: data.rows[i]?.[metric] });
  return <EChart option={option} width={width} height={height} onReady={onReady} onClick={onClick} />;
}
