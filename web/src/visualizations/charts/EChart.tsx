import { useEffect, useRef } from 'react';
import { useFontsEpoch } from '../fonts';
import { echarts } from './echarts-core';

export interface EChartProps {
  option: Record<string, unknown>;
  width: number;
  height: number;
  /** Called after the first 'finished' event of this option: the chart is drawn. */
  onReady: () => void;
  /** Called after each drawing with the instance (to place HTML over the chart: convertToPixel). */
  onDrawn?: (chart: echarts.ECharts) => void;
  onClick?: (seriesIndex: number, dataIndex: number, position?: { x: number; y: number }) => void;
}

/** One ECharts instance in a div of the given size; animations off so a screenshot is the same each time. */
export function EChart({ option, width, height, onReady, onClick, onDrawn }: EChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const handlers = useRef({ onReady, onClick, onDrawn });
  handlers.current = { onReady, onClick, onDrawn };
  // Fonts that arrive after a drawing change the labels' widths: the chart draws again with them.
  const fonts = useFontsEpoch();

  useEffect(() => {
    if (!el.current) return;
    const c = echarts.init(el.current, undefined, { renderer: 'svg', width, height });
    chart.current = c;
    c.on('click', (e) => {
      const native = (e.event as { event?: MouseEvent } | undefined)?.event;
      const position = native ? { x: native.clientX, y: native.clientY } : undefined;
      handlers.current.onClick?.(e.seriesIndex ?? 0, e.dataIndex ?? 0, position);
    });
    return () => {
      c.dispose();
      chart.current = null;
    };
    // The size is applied by the effect below; the instance lives as long as the element.
  }, []);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    const done = () => {
      c.off('finished', done);
      handlers.current.onDrawn?.(c);
      handlers.current.onReady();
    };
    c.on('finished', done);
    c.resize({ width, height, animation: { duration: 0 } });
    c.setOption({ animation: false, ...option }, { notMerge: true });
    return () => {
      c.off('finished', done);
    };
  }, [option, width, height, fonts]);

  return <div ref={el} style={{ width, height }} />;
}
