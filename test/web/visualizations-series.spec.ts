import { cartesianOption, rightAxisSeries } from '../../web/src/visualizations/charts/cartesian-option';
import { gaugeSegments, niceMax } from '../../web/src/visualizations/charts/gauge-model';
import { buildPie } from '../../web/src/visualizations/charts/pie-model';
import { buildCartesian, normalize, trendLine, waterfallSteps } from '../../web/src/visualizations/charts/series';
import { computeTrend, formatChange } from '../../web/src/visualizations/scalar/smartscalar';
import { buildTable, sortOrder, visibleColumns } from '../../web/src/visualizations/table/table-model';
import { palette } from '../../web/src/visualizations/theme';
import type { Column, Dataset } from '../../web/src/visualizations/types';

const month: Column = {
  name: 'CREATED_AT',
  display_name: 'Created At: Month',
  base_type: 'type/DateTime',
  unit: 'month',
  source: 'breakout',
};
const category: Column = { name: 'CATEGORY', display_name: 'Category', base_type: 'type/Text', source: 'breakout' };
const count: Column = { name: 'count', display_name: 'Count', base_type: 'type/Integer', source: 'aggregation' };
const sum: Column = { name: 'sum', display_name: 'Sum of Total', base_type: 'type/Float', source: 'aggregation' };

const byMonthAndCategory: Dataset = {
  cols: [month, category, count],
  rows: [
    ['2024-01-01T00:00:00Z', 'Gadget', 10],
    ['2024-01-01T00:00:00Z', 'Widget', 5],
    ['2024-02-01T00:00:00Z', 'Gadget', 20],
    ['2024-03-01T00:00:00Z', 'Widget', 15],
  ],
};

describe('cartesian series building', () => {
  it('splits a metric into one series per breakout value, aligned on the x values', () => {
    const m = buildCartesian('bar', byMonthAndCategory, {});
    expect(m.dimension).toBe(0);
    expect(m.breakout).toBe(1);
    expect(m.xValues).toHaveLength(3);
    expect(m.series.map((s) => [s.key, s.values])).toEqual([
      ['Gadget', [10, 20, null]],
      ['Widget', [5, null, 15]],
    ]);
    expect(m.series[1].rowIndexes).toEqual([1, null, 3]);
  });

  it('makes one series per metric and applies series_settings titles, colors and combo displays', () => {
    const data: Dataset = {
      cols: [month, count, sum],
      rows: [
        ['2024-01-01', 3, 300],
        ['2024-02-01', 4, 410],
      ],
    };
    const m = buildCartesian('combo', data, {
      'graph.dimensions': ['CREATED_AT'],
      'graph.metrics': ['count', 'sum'],
      series_settings: { sum: { title: 'Revenue', color: '#123456', display: 'line' }, count: { display: 'bar' } },
    });
    expect(m.series.map((s) => [s.key, s.name, s.display])).toEqual([
      ['count', 'Count', 'bar'],
      ['sum', 'Revenue', 'line'],
    ]);
    expect(m.series[1].color).toBe('#123456');
    expect(m.series[0].color).toBe('#509EE3');
  });

  it('stacks areas by default and follows stackable.stack_type', () => {
    expect(buildCartesian('area', byMonthAndCategory, {}).stackType).toBe('stacked');
    expect(buildCartesian('bar', byMonthAndCategory, {}).stackType).toBeNull();
    expect(buildCartesian('bar', byMonthAndCategory, { 'stackable.stack_type': 'normalized' }).stackType).toBe('normalized');
    expect(buildCartesian('area', byMonthAndCategory, { 'stackable.stack_type': null }).stackType).toBeNull();
  });

  it('normalizes stacks to shares of each x value', () => {
    const m = buildCartesian('bar', byMonthAndCategory, {});
    expect(normalize(m.series).map((s) => s.values)).toEqual([
      [10 / 15, 1, null],
      [5 / 15, null, 1],
    ]);
  });

  it('fits a straight trend line', () => {
    expect(trendLine([1, 2, 3, null])).toEqual([1, 2, 3, 4]);
    expect(trendLine([5])).toEqual([null]);
  });

  it('builds waterfall steps with a total', () => {
    expect(waterfallSteps([5, -2, 4])).toEqual([
      { base: 0, value: 5, kind: 'increase' },
      { base: 3, value: 2, kind: 'decrease' },
      { base: 3, value: 4, kind: 'increase' },
      { base: 0, value: 7, kind: 'total' },
    ]);
    expect(waterfallSteps([-3], true)[1]).toEqual({ base: -3, value: 3, kind: 'total' });
  });

  it('puts axis titles, y range, goal line and a second axis into the ECharts option', () => {
    const data: Dataset = {
      cols: [month, count, sum],
      rows: [
        ['2024-01-01', 3, 3000],
        ['2024-02-01', 4, 4100],
      ],
    };
    const settings = {
      'graph.x_axis.title_text': 'Month',
      'graph.y_axis.auto_range': false,
      'graph.y_axis.min': 0,
      'graph.y_axis.max': 5000,
      'graph.show_goal': true,
      'graph.goal_value': 3500,
      'graph.goal_label': 'Target',
    };
    const { option, model } = cartesianOption('line', data, settings, palette('light'));
    expect(rightAxisSeries(model.series, model, settings)).toEqual(new Set([0]));
    const y = option.yAxis as Array<Record<string, unknown>>;
    expect(y[0]).toMatchObject({ min: 0, max: 5000 });
    expect((option.xAxis as Record<string, unknown>).name).toBe('Month');
    const series = option.series as Array<Record<string, unknown>>;
    expect(series[0]).toMatchObject({ yAxisIndex: 1, markLine: { data: [{ yAxis: 3500 }], label: { formatter: 'Target' } } });
    expect(option.animation).toBe(false);
  });

  it('follows per-series line settings, log scale and rotated x labels', () => {
    const data: Dataset = {
      cols: [month, count],
      rows: [
        ['2024-01-01', 1],
        ['2024-02-01', 30],
      ],
    };
    const { option } = cartesianOption(
      'line',
      data,
      {
        series_settings: { count: { 'line.style': 'dashed', 'line.size': 'L', 'line.marker_enabled': false } },
        'graph.y_axis.scale': 'log',
        'graph.x_axis.axis_enabled': 'rotate-45',
      },
      palette('light'),
    );
    expect((option.series as Array<Record<string, unknown>>)[0]).toMatchObject({
      lineStyle: { type: 'dashed', width: 3 },
      showSymbol: false,
    });
    expect(option.yAxis).toMatchObject({ type: 'log' });
    expect(option.xAxis).toMatchObject({ axisLabel: { rotate: 45 } });
  });

  it('adds a dashed trend series per series when graph.show_trendline is set', () => {
    const data: Dataset = {
      cols: [month, count],
      rows: [
        ['2024-01-01', 1],
        ['2024-02-01', 3],
      ],
    };
    const series = cartesianOption('line', data, { 'graph.show_trendline': true }, palette('night')).option.series as Array<
      Record<string, unknown>
    >;
    expect(series).toHaveLength(2);
    expect(series[1]).toMatchObject({ name: 'Count trend', data: [1, 3] });
  });
});

describe('pie, gauge, table and smartscalar models', () => {
  it('sums pie slices, sorts them and merges small ones into Other', () => {
    const data: Dataset = {
      cols: [category, count],
      rows: [
        ['A', 1],
        ['B', 500],
        ['C', 1],
        ['B', 100],
        ['D', 400],
      ],
    };
    const pie = buildPie(data, { 'pie.colors': { D: '#000000' } });
    expect(pie.total).toBe(1002);
    expect(pie.slices.map((s) => [s.name, s.value])).toEqual([
      ['B', 600],
      ['D', 400],
      ['Other', 2],
    ]);
    expect(pie.slices[1].color).toBe('#000000');
  });

  it('reads gauge segments or makes three default ones', () => {
    expect(niceMax(18760)).toBe(25000);
    expect(gaugeSegments(18760, undefined).map((s) => s.max)).toEqual([25000 / 3, 50000 / 3, 25000]);
    expect(
      gaugeSegments(1, [
        { min: 10, max: 20, color: '#f00' },
        { min: 0, max: 10, color: '#0f0' },
      ]).map((s) => s.color),
    ).toEqual(['#0f0', '#f00']);
  });

  it('orders and hides table columns from table.columns, and sorts rows with nulls last', () => {
    const data: Dataset = {
      cols: [category, count, sum],
      rows: [
        ['B', 2, null],
        ['A', 1, 5],
        ['C', 3, 1],
      ],
    };
    expect(
      visibleColumns(data.cols, {
        'table.columns': [
          { name: 'count', enabled: true },
          { name: 'CATEGORY', enabled: false },
        ],
      }),
    ).toEqual([1, 2]);
    const model = buildTable(data, {});
    expect(sortOrder(model, 0, 'asc')).toEqual([1, 0, 2]);
    expect(sortOrder(model, 2, 'desc')).toEqual([1, 2, 0]);
    expect(sortOrder(model, 2, 'asc')).toEqual([2, 1, 0]);
  });

  it('pivots a three-column table with table.pivot', () => {
    const model = buildTable(byMonthAndCategory, { 'table.pivot': true });
    expect(model.columns.map((c) => c.title)).toEqual(['Created At: Month', 'Gadget', 'Widget']);
    expect(model.rows).toEqual([
      ['2024-01-01T00:00:00Z', 10, 5],
      ['2024-02-01T00:00:00Z', 20, null],
      ['2024-03-01T00:00:00Z', null, 15],
    ]);
  });

  it('compares the last period with the one before', () => {
    const data: Dataset = {
      cols: [month, count],
      rows: [
        ['2024-01-01', 100],
        ['2024-02-01', 80],
        ['2024-03-01', 120],
      ],
    };
    const t = computeTrend(data, {});
    expect(t).toMatchObject({
      value: 120,
      previous: 80,
      change: 0.5,
      direction: 'up',
      good: true,
      comparisonLabel: 'vs. previous month',
      periodLabel: 'March, 2024',
    });
    expect(formatChange(t.change)).toBe('50%');
    expect(computeTrend(data, { 'scalar.switch_positive_negative': true }).good).toBe(false);
    expect(computeTrend({ cols: data.cols, rows: [['2024-01-01', 5]] }, {})).toMatchObject({
      direction: 'none',
      comparisonLabel: 'No previous period',
    });
    expect(computeTrend(data, { 'scalar.comparisons': [{ type: 'periodsAgo', value: 2 }] })).toMatchObject({
      previous: 100,
      change: 0.2,
      comparisonLabel: 'vs. 2 months ago',
    });
    expect(computeTrend(data, { 'scalar.comparisons': [{ type: 'staticNumber', value: 240, label: 'Goal' }] })).toMatchObject({
      previous: 240,
      change: -0.5,
      direction: 'down',
      good: false,
      comparisonLabel: 'vs. Goal',
    });
  });
});
