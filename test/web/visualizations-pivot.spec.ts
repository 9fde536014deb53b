import { planMap } from '../../web/src/visualizations/map/map-settings';
import { regionKeys, valuesByRegion } from '../../web/src/visualizations/map/regions';
import { buildPivot, collapsedSet, pivotSplit } from '../../web/src/visualizations/pivot/pivot-model';
import type { Column, Dataset } from '../../web/src/visualizations/types';

const category: Column = {
  name: 'CATEGORY',
  display_name: 'Category',
  base_type: 'type/Text',
  source: 'breakout',
  field_ref: ['field', 3, null],
};
const year: Column = {
  name: 'CREATED_AT',
  display_name: 'Created At: Year',
  base_type: 'type/DateTime',
  unit: 'year',
  source: 'breakout',
  field_ref: ['field', 9, { 'temporal-unit': 'year' }],
};
const grouping: Column = { name: 'pivot-grouping', display_name: 'pivot-grouping', base_type: 'type/Integer', source: 'breakout' };
const count: Column = { name: 'count', display_name: 'Count', base_type: 'type/Integer', source: 'aggregation' };
const avg: Column = { name: 'avg', display_name: 'Average of Total', base_type: 'type/Float', source: 'aggregation' };

/** What POST /api/dataset/pivot answers for count and avg by category and year: detail rows, then subtotals by mask. */
const answer: Dataset = {
  cols: [category, year, grouping, count, avg],
  rows: [
    ['Gadget', '2023-01-01T00:00:00Z', 0, 10, 1],
    ['Gadget', '2024-01-01T00:00:00Z', 0, 20, 2],
    ['Widget', '2023-01-01T00:00:00Z', 0, 5, 3],
    ['Widget', '2024-01-01T00:00:00Z', 0, 7, 4],
    [null, '2023-01-01T00:00:00Z', 1, 15, 1.7],
    [null, '2024-01-01T00:00:00Z', 1, 27, 2.5],
    ['Gadget', null, 2, 30, 1.6],
    ['Widget', null, 2, 12, 3.5],
    [null, null, 3, 42, 2.1],
  ],
};

describe('pivot table model', () => {
  it('reads the split from column names or field refs, and defaults to the last breakout across', () => {
    expect(pivotSplit(answer.cols, {})).toEqual({ rowDims: [0], colDims: [1], values: [3, 4] });
    expect(
      pivotSplit(answer.cols, {
        'pivot_table.column_split': { rows: [['field', 9, { 'temporal-unit': 'year' }]], columns: ['CATEGORY'], values: ['avg'] },
      }),
    ).toEqual({ rowDims: [1], colDims: [0], values: [4] });
  });

  it('builds column headers over the values, with a Row totals group', () => {
    const m = buildPivot(answer, {});
    expect(m.rowTitles).toEqual(['Category']);
    expect(m.headerRows).toEqual([
      [
        { label: '2023', span: 2 },
        { label: '2024', span: 2 },
        { label: 'Row totals', span: 2, total: true },
      ],
      [
        { label: 'Count', span: 1 },
        { label: 'Average of Total', span: 1 },
        { label: 'Count', span: 1 },
        { label: 'Average of Total', span: 1 },
        { label: 'Count', span: 1, total: true },
        { label: 'Average of Total', span: 1, total: true },
      ],
    ]);
    expect(m.cellCols).toEqual([3, 4, 3, 4, 3, 4]);
  });

  it('takes every cell, totals included, from the answer rather than adding them up', () => {
    const m = buildPivot(answer, {});
    expect(m.rows.map((r) => [r.kind, r.headers[0]?.label ?? r.totalLabel, r.cells])).toEqual([
      ['detail', 'Gadget', [10, 1, 20, 2, 30, 1.6]],
      ['detail', 'Widget', [5, 3, 7, 4, 12, 3.5]],
      ['grand', 'Grand totals', [15, 1.7, 27, 2.5, 42, 2.1]],
    ]);
  });

  it('puts subtotal rows after each outer group and collapses groups and levels', () => {
    const split = { 'pivot_table.column_split': { rows: ['CATEGORY', 'CREATED_AT'], columns: [], values: ['count'] } };
    const m = buildPivot(answer, split);
    expect(m.rows.map((r) => [r.kind, r.headers.map((h) => h?.label ?? null), r.totalLabel ?? null, r.cells])).toEqual([
      ['detail', ['Gadget', '2023'], null, [10]],
      ['detail', [null, '2024'], null, [20]],
      ['subtotal', [null, null], 'Totals for Gadget', [30]],
      ['detail', ['Widget', '2023'], null, [5]],
      ['detail', [null, '2024'], null, [7]],
      ['subtotal', [null, null], 'Totals for Widget', [12]],
      ['grand', [null, null], 'Grand totals', [42]],
    ]);
    const collapsed = buildPivot(answer, { ...split, 'pivot_table.collapsed_rows': { value: ['["Gadget"]'], rows: [] } });
    expect(collapsed.rows.slice(0, 2).map((r) => [r.kind, r.headers[0]?.label, r.headers[0]?.collapsed, r.cells])).toEqual([
      ['collapsed', 'Gadget', true, [30]],
      ['detail', 'Widget', false, [5]],
    ]);
    expect(buildPivot(answer, split, collapsedSet({ 'pivot_table.collapsed_rows': { value: ['0'] } })).rows.map((r) => r.kind)).toEqual([
      'collapsed',
      'collapsed',
      'grand',
    ]);
  });
});

describe('map model', () => {
  it('names states by postal code and name, and countries by ISO codes', () => {
    expect(regionKeys('us_states', '48', 'Texas')).toEqual(['texas', 'tx']);
    expect(regionKeys('world_countries', '276', 'Germany')).toEqual(['germany', 'de', 'deu']);
  });

  it('sums the metric per region and skips values no region answers to', () => {
    const regions = [{ name: 'Texas', keys: ['texas', 'tx'] }];
    expect(
      valuesByRegion(
        regions,
        [
          ['TX', 2],
          ['texas', 3],
          ['XX', 9],
        ],
        0,
        1,
      ),
    ).toEqual(new Map([['Texas', { value: 5, rowIndex: 0 }]]));
  });

  it('plans region and pin maps from the settings and the column types', () => {
    const state: Column = { name: 'STATE', display_name: 'State', base_type: 'type/Text', semantic_type: 'type/State', source: 'breakout' };
    expect(planMap([state, count], {})).toEqual({ kind: 'region', region: 'us_states', dimension: 0, metric: 1 });
    const lat: Column = { name: 'LATITUDE', display_name: 'Latitude', base_type: 'type/Float', semantic_type: 'type/Latitude' };
    const lon: Column = { name: 'LONGITUDE', display_name: 'Longitude', base_type: 'type/Float', semantic_type: 'type/Longitude' };
    expect(planMap([state, lat, lon], { 'map.type': 'pin' })).toEqual({ kind: 'pin', lat: 1, lon: 2, metric: null });
    expect(planMap([count], {})).toBeNull();
  });
});
