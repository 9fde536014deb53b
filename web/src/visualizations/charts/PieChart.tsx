import { PieChart as EPie } from 'echarts/charts';
import { GraphicComponent } from 'echarts/components';
import { useMemo } from 'react';
import { formatValue } from '../format/column';
import { formatNumber } from '../format/number';
import { FONT_FAMILY, palette } from '../theme';
import type { ChartProps } from '../types';
import { echarts } from './echarts-core';
import { EChart } from './EChart';
import { NoResults } from './NoResults';
import { buildPie } from './pie-model';

echarts.use([EPie, GraphicComponent]);

/** A donut with the total in the middle (`pie.show_total`) and a legend with percentages (`pie.show_legend`). */
export default function PieChart({ data, settings, theme, width, height, onReady, onClickCell }: ChartProps) {
  const p = palette(theme);
  const model = useMemo(() => buildPie(data, settings), [data, settings]);
  const option = useMemo(() => {
    const metricCol = data.cols[model.metric];
    const showLegend = settings['pie.show_legend'] !== false && width > 360;
    const percentInside = settings['pie.percent_visibility'] === 'inside';
    const showTotal = settings['pie.show_total'] !== false;
    const pct = (v: number) => formatNumber(model.total ? v / model.total : 0, { number_style: 'percent', decimals: 1 });
    const side = Math.min(showLegend ? width * 0.55 : width, height) - 16;
    const centerX = showLegend ? side / 2 + 16 : width / 2;
    return {
      animation: false,
      backgroundColor: 'transparent',
      textStyle: { fontFamily: FONT_FAMILY, color: p.text },
      tooltip: {
        trigger: 'item',
        formatter: (i: { name: string; value: number }) => `${i.name}: ${formatValue(i.value, metricCol, settings)} (${pct(i.value)})`,
      },
      legend: showLegend
        ? {
            orient: 'vertical',
            left: side + 40,
            top: 'middle',
            type: 'scroll',
            icon: 'circle',
            textStyle: { color: p.text, fontFamily: FONT_FAMILY },
            formatter: (name: string) => {
              const s = model.slices.find((x) => x.name === name);
              return settings['pie.percent_visibility'] === 'off' || !s ? name : `${name}  ${pct(s.value)}`;
            },
          }
        : { show: false },
      graphic: showTotal
        ? [
            {
              type: 'text',
              left: centerX,
              top: height / 2 - 22,
              style: {
                text: formatValue(model.total, metricCol, settings, { compact: true }),
                fill: p.text,
                font: `900 22px ${FONT_FAMILY}`,
                textAlign: 'center',
              },
            },
            {
              type: 'text',
              left: centerX,
              top: height / 2 + 6,
              style: { text: 'TOTAL', fill: p.textMuted, font: `700 11px ${FONT_FAMILY}`, textAlign: 'center' },
            },
          ]
        : [],
      series: [
        {
          type: 'pie',
          radius: [side * 0.3, side / 2],
          center: [centerX, height / 2],
          avoidLabelOverlap: true,
          label: percentInside
            ? { show: true, position: 'inside', formatter: (i: { value: number }) => pct(i.value), color: '#fff', fontSize: 11 }
            : { show: false },
          labelLine: { show: false },
          itemStyle: { borderColor: p.background === 'transparent' ? '#fff' : p.background, borderWidth: 1 },
          data: model.slices.map((s) => ({ name: s.name, value: s.value, itemStyle: { color: s.color } })),
        },
      ],
    };
  }, [model, data, settings, p, width, height]);
  if (!model.slices.length) return <NoResults theme={theme} onReady={onReady} />;
  const onClick = (_: number, dataIndex: number, position?: { x: number; y: number }) => {
    const s = model.slices[dataIndex];
    if (s?.rowIndex !== null && s && onClickCell)
      onClickCell({ rowIndex: s.rowIndex, colIndex: model.dimension, value: data.rows[s.rowIndex][model.dimension], position });
  };
  return <EChart option={option} width={width} height={height} onReady={onReady} onClick={onClick} />;
}
