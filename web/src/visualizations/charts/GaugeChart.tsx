import { GaugeChart as EGauge } from 'echarts/charts';
import { useMemo } from 'react';
import { formatValue } from '../format/column';
import { scalarColumn } from '../scalar/scalar-value';
import { FONT_FAMILY, palette } from '../theme';
import type { ChartProps } from '../types';
import { echarts } from './echarts-core';
import { EChart } from './EChart';
import { gaugeSegments } from './gauge-model';

echarts.use([EGauge]);

/** A half-ring gauge with colored `gauge.segments`, a needle at the first row's value, and the value below. */
export default function GaugeChart({ data, settings, theme, width, height, onReady }: ChartProps) {
  const p = palette(theme);
  const option = useMemo(() => {
    const index = scalarColumn(data.cols, settings);
    const col = data.cols[index];
    const value = Number(data.rows[0]?.[index] ?? 0) || 0;
    const segments = gaugeSegments(value, settings['gauge.segments']);
    const min = segments[0]?.min ?? 0;
    const max = segments[segments.length - 1]?.max ?? 1;
    // The half ring above its center, the value below it: the whole needs radius + 56 px of height.
    const radius = Math.max(40, Math.min(width / 2 - 24, height - 72, 360));
    const centerY = (height - radius - 56) / 2 + radius + 8;
    const ring = Math.max(12, radius * 0.16);
    return {
      animation: false,
      backgroundColor: 'transparent',
      series: [
        {
          type: 'gauge',
          min,
          max,
          startAngle: 180,
          endAngle: 0,
          radius,
          center: [width / 2, centerY],
          splitNumber: segments.length > 1 ? segments.length : 4,
          axisLine: { lineStyle: { width: ring, color: segments.map((s) => [(s.max - min) / (max - min || 1), s.color]) } },
          pointer: { length: '70%', width: 6, itemStyle: { color: p.text } },
          anchor: { show: true, size: 12, itemStyle: { color: p.text } },
          axisTick: { show: false },
          splitLine: { show: false },
          axisLabel: {
            distance: ring + 6,
            color: p.textMuted,
            fontFamily: FONT_FAMILY,
            fontSize: 11,
            formatter: (v: number) => formatValue(v, col, settings, { compact: true }),
          },
          title: { show: false },
          detail: {
            valueAnimation: false,
            offsetCenter: [0, 32],
            fontSize: Math.max(16, Math.min(32, radius / 5)),
            fontWeight: 900,
            color: p.text,
            fontFamily: FONT_FAMILY,
            formatter: () => formatValue(value, col, settings, { compact: true }),
          },
          data: [{ value: Math.max(min, Math.min(max, value)) }],
        },
      ],
    };
  }, [data, settings, p, width, height]);
  return <EChart option={option} width={width} height={height} onReady={onReady} />;
}
