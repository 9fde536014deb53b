import { columnFormat, formatValue, isNumeric } from '../format/column';
import { formatNumber } from '../format/number';
import { FONT_FAMILY, Palette } from '../theme';
import type { Column, Dataset, Settings } from '../types';
import { buildCartesian, CartesianModel, normalize, Series, seriesSetting, trendLine, waterfallSteps } from './series';

/**
 * The ECharts option of a cartesian chart, as a plain object (no ECharts import): axes with Metabase's titles and
 * ranges (`graph.x_axis.title_text`, `graph.y_axis.title_text`, `graph.y_axis.auto_range`/`min`/`max`), the goal line
 * (`graph.show_goal`, `graph.goal_value`, `graph.goal_label`), trend lines (`graph.show_trendline`), values on the
 * data points (`graph.show_values`), the legend when there is more than one series, and stacking.
 */

type Option = Record<string, unknown>;

/** What a click on a data point maps back to: the row and the metric column. */
export interface PointRef {
  rowIndex: number;
  colIndex: number;
}

export interface CartesianOption {
  option: Option;
  model: CartesianModel;
  /** seriesIndex -> dataIndex -> the row and column it shows (null for trend lines, goals, totals). */
  points: Array<Array<PointRef | null>>;
}

export function cartesianOption(display: string, data: Dataset, settings: Settings, p: Palette): CartesianOption {
  const model = buildCartesian(display, data, settings);
  const { cols } = data;
  const xCol = cols[model.dimension];
  const yCol = cols[model.series[0]?.metric ?? 0] as Column | undefined;
  const horizontal = display === 'row';
  const normalized = model.stackType === 'normalized';
  const shown = normalized ? normalize(model.series) : model.series;
  const yFormat = (v: unknown) =>
    normalized ? formatNumber(Number(v), { number_style: 'percent', compact: true }) : formatValue(v, yCol, settings, { compact: true });
  const xLabels = model.xValues.map((v) => formatValue(v, xCol, settings, { compact: true }));
  const text = { color: p.textMuted, fontFamily: FONT_FAMILY, fontSize: 11 };
  const multi = shown.length > 1;
  const showLegend = multi && settings['legend.is_visible'] !== false;

  const right = horizontal || display === 'waterfall' ? new Set<number>() : rightAxisSeries(shown, model, settings);
  const points: Array<Array<PointRef | null>> = [];
  const series: Option[] = [];
  if (display === 'waterfall') {
    waterfallSeries(shown[0], settings, model, series, points);
  } else {
    shown.forEach((s, i) => {
      series.push({ ...seriesOption(s, model, settings, normalized, yFormat, p.text), yAxisIndex: right.has(i) ? 1 : 0 });
      points.push(s.rowIndexes.map((r) => (r === null ? null : { rowIndex: r, colIndex: s.metric })));
    });
    if (settings['graph.show_trendline'] === true) {
      shown.forEach((s) => {
        series.push({
          type: 'line',
          name: `${s.name} trend`,
          data: trendLine(s.values),
          symbol: 'none',
          silent: true,
          lineStyle: { type: 'dashed', width: 2, color: s.color, opacity: 0.7 },
          itemStyle: { color: s.color },
          z: 3,
        });
        points.push([]);
      });
    }
  }
  const goal = Number(settings['graph.goal_value']);
  if (settings['graph.show_goal'] === true && Number.isFinite(goal) && series.length) {
    const label = String(settings['graph.goal_label'] ?? 'Goal');
    const axis = horizontal ? { xAxis: goal } : { yAxis: goal };
    series[0].markLine = {
      silent: true,
      symbol: 'none',
      lineStyle: { type: 'dashed', color: p.goal, width: 2 },
      label: { formatter: label, color: p.text, fontFamily: FONT_FAMILY, position: horizontal ? 'end' : 'insideEndTop' },
      data: [axis],
    };
  }

  const autoRange = settings['graph.y_axis.auto_range'] !== false;
  const valueAxis: Option = {
    type: 'value',
    name: axisTitle(settings, 'y', yCol, settings, multi && model.breakout === null),
    nameLocation: 'middle',
    nameGap: horizontal ? 28 : 48,
    nameTextStyle: { ...text, fontSize: 12, fontWeight: 'bold' },
    axisLabel: { ...text, formatter: (v: number) => yFormat(v), show: settings['graph.y_axis.axis_enabled'] !== false },
    splitLine: { lineStyle: { color: p.grid } },
    scale: display === 'scatter',
    // graph.y_axis.scale: linear (default), log or pow (drawn as linear: ECharts has no power axis).
    ...(settings['graph.y_axis.scale'] === 'log' && !normalized ? { type: 'log', logBase: 10 } : {}),
    min: !autoRange && settings['graph.y_axis.min'] !== undefined ? Number(settings['graph.y_axis.min']) : normalized ? 0 : undefined,
    max: !autoRange && settings['graph.y_axis.max'] !== undefined ? Number(settings['graph.y_axis.max']) : normalized ? 1 : undefined,
  };
  const rightCol = right.size ? cols[shown[[...right][0]].metric] : undefined;
  const secondAxis: Option | null = right.size
    ? {
        ...valueAxis,
        name: '',
        min: undefined,
        max: undefined,
        splitLine: { show: false },
        axisLabel: { ...text, formatter: (v: number) => formatValue(v, rightCol, settings, { compact: true }) },
      }
    : null;
  const categoryAxis: Option = model.numericX
    ? {
        type: 'value',
        scale: true,
        axisLabel: { ...text, formatter: (v: number) => formatValue(v, xCol, settings, { compact: true }) },
        splitLine: { lineStyle: { color: p.grid } },
      }
    : {
        type: 'category',
        data: display === 'waterfall' && settings['waterfall.show_total'] !== false ? [...xLabels, 'Total'] : xLabels,
        axisTick: { show: false },
        axisLine: { lineStyle: { color: p.border } },
        // graph.x_axis.axis_enabled: true, false, "compact", "rotate-45" or "rotate-90".
        axisLabel: {
          ...text,
          hideOverlap: true,
          show: settings['graph.x_axis.axis_enabled'] !== false,
          rotate:
            settings['graph.x_axis.axis_enabled'] === 'rotate-45' ? 45 : settings['graph.x_axis.axis_enabled'] === 'rotate-90' ? 90 : 0,
        },
        inverse: horizontal,
      };
  Object.assign(categoryAxis, {
    name: axisTitle(settings, 'x', xCol, settings, false),
    nameLocation: 'middle',
    nameGap: horizontal ? 80 : 30,
    nameTextStyle: { ...text, fontSize: 12, fontWeight: 'bold' },
  });

  const option: Option = {
    animation: false,
    backgroundColor: 'transparent',
    textStyle: { fontFamily: FONT_FAMILY, color: p.text },
    color: shown.map((s) => s.color),
    grid: { left: horizontal ? 96 : 64, right: secondAxis ? 64 : 24, top: showLegend ? 40 : 16, bottom: 48, containLabel: false },
    legend: showLegend
      ? {
          top: 4,
          left: 'center',
          type: 'scroll',
          data: shown.map((s) => s.name),
          textStyle: { color: p.text, fontFamily: FONT_FAMILY },
          icon: 'circle',
          inactiveColor: p.textMuted,
        }
      : { show: false },
    tooltip: {
      trigger: display === 'scatter' ? 'item' : 'axis',
      axisPointer: { type: display === 'line' || display === 'area' ? 'line' : 'shadow' },
      valueFormatter: (v: unknown) => (normalized ? formatNumber(Number(v), { number_style: 'percent' }) : formatValue(v, yCol, settings)),
    },
    xAxis: horizontal ? valueAxis : categoryAxis,
    yAxis: horizontal ? categoryAxis : secondAxis ? [valueAxis, secondAxis] : valueAxis,
    series,
  };
  return { option, model, points };
}

/**
 * Series drawn against a second y axis on the right: those `series_settings` puts on the "right", else (Metabase's
 * `graph.y_axis.auto_split`) the metrics ten times smaller than the largest, when the chart is not stacked.
 */
export function rightAxisSeries(series: Series[], model: CartesianModel, settings: Settings): Set<number> {
  const own = (settings['series_settings'] ?? {}) as Record<string, { axis?: string }>;
  const named = new Set(series.map((s, i) => (own[s.key]?.axis === 'right' ? i : -1)).filter((i) => i >= 0));
  if (named.size && named.size < series.length) return named;
  if (model.breakout !== null || series.length < 2 || model.stackType || settings['graph.y_axis.auto_split'] === false) return new Set();
  const maxes = series.map((s) => Math.max(0, ...s.values.map((v) => Math.abs(v ?? 0))));
  const top = Math.max(...maxes);
  const small = new Set(maxes.map((m, i) => (m * 10 < top ? i : -1)).filter((i) => i >= 0));
  return small.size && small.size < series.length ? small : new Set();
}

function axisTitle(settings: Settings, axis: 'x' | 'y', col: Column | undefined, s: Settings, several: boolean): string {
  const own = settings[`graph.${axis}_axis.title_text`];
  if (typeof own === 'string') return own;
  if (settings[`graph.${axis}_axis.labels_enabled`] === false || !col || several) return '';
  return columnFormat(col, s).column_title || col.display_name || col.name;
}

function seriesOption(
  s: Series,
  model: CartesianModel,
  settings: Settings,
  normalized: boolean,
  yFormat: (v: unknown) => string,
  textColor: string,
): Option {
  const stack = model.stackType && s.display !== 'line' ? 'total' : undefined;
  const data = model.numericX ? s.values.map((v, x) => (s.sizes ? [model.xValues[x], v, s.sizes[x]] : [model.xValues[x], v])) : s.values;
  const base: Option = {
    name: s.name,
    data,
    itemStyle: { color: s.color },
    stack,
    label:
      settings['graph.show_values'] === true
        ? {
            show: true,
            position: 'top',
            color: textColor,
            textBorderWidth: 0,
            formatter: (p: { value: unknown }) => yFormat(Array.isArray(p.value) ? p.value[1] : p.value),
            fontSize: 10,
          }
        : undefined,
    emphasis: { focus: 'series' },
  };
  if (s.display === 'scatter') {
    const sizes = (s.sizes ?? []).filter((v): v is number => v !== null);
    const max = sizes.length ? Math.max(...sizes) : 1;
    return {
      ...base,
      type: 'scatter',
      symbolSize: s.sizes ? (v: number[]) => 6 + 30 * Math.sqrt(Math.max(0, v[2] ?? 0) / (max || 1)) : 10,
      itemStyle: { color: s.color, opacity: 0.8 },
    };
  }
  if (s.display === 'bar') return { ...base, type: 'bar', barMaxWidth: 48 };
  const area = s.display === 'area';
  const own = { ...settings, ...(seriesSetting(settings, s.key) as Record<string, unknown>) };
  const interpolate = own['line.interpolate'];
  return {
    ...base,
    type: 'line',
    smooth: interpolate === 'cardinal',
    step: interpolate === 'step-after' ? 'end' : undefined,
    symbol: 'circle',
    symbolSize: 6,
    showSymbol: own['line.marker_enabled'] === true || (own['line.marker_enabled'] !== false && s.values.length < 30),
    // series_settings' line.style (solid, dashed, dotted) and line.size (S, M, L).
    lineStyle: {
      width: own['line.size'] === 'S' ? 1 : own['line.size'] === 'L' ? 3 : 2,
      color: s.color,
      type: own['line.style'] === 'dashed' || own['line.style'] === 'dotted' ? own['line.style'] : 'solid',
    },
    areaStyle: area ? { opacity: normalized || stack ? 0.8 : 0.3 } : undefined,
    connectNulls: own['line.missing'] === 'interpolate',
  };
}

function waterfallSeries(
  s: Series | undefined,
  settings: Settings,
  model: CartesianModel,
  out: Option[],
  points: Array<Array<PointRef | null>>,
): void {
  if (!s) return;
  const steps = waterfallSteps(s.values, settings['waterfall.show_total'] !== false);
  const color = (kind: string) =>
    kind === 'total'
      ? String(settings['waterfall.total_color'] ?? '#509EE3')
      : kind === 'increase'
        ? String(settings['waterfall.increase_color'] ?? '#88BF4D')
        : String(settings['waterfall.decrease_color'] ?? '#EF8C8C');
  out.push({
    type: 'bar',
    name: '_base',
    stack: 'waterfall',
    stackStrategy: 'all',
    silent: true,
    itemStyle: { color: 'transparent' },
    data: steps.map((st) => st.base),
    tooltip: { show: false },
  });
  out.push({
    type: 'bar',
    name: s.name,
    stack: 'waterfall',
    stackStrategy: 'all',
    barMaxWidth: 48,
    data: steps.map((st) => ({ value: st.value, itemStyle: { color: color(st.kind) } })),
  });
  points.push([]);
  points.push(
    steps.map((_, x) =>
      x < s.rowIndexes.length && s.rowIndexes[x] !== null ? { rowIndex: s.rowIndexes[x] as number, colIndex: s.metric } : null,
    ),
  );
  void model;
}

export function isCartesianUsable(data: Dataset, settings: Settings): boolean {
  return data.cols.some((c) => isNumeric(c)) || Array.isArray(settings['graph.metrics']);
}
