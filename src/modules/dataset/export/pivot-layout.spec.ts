import { layoutPivot, PivotLayout } from './pivot-layout';

/** Sales as a warehouse holds them: the pivot query groups these, the tests sum them on their own. */
interface Sale {
  region: string | null;
  product: string | null;
  year: number;
  amount: number;
}
const SALES: Sale[] = [
  { region: 'north', product: 'apple', year: 2022, amount: 10 },
  { region: 'north', product: 'apple', year: 2023, amount: 4 },
  { region: 'north', product: 'pear', year: 2022, amount: 5 },
  { region: 'north', product: 'apple', year: 2022, amount: 1 },
  { region: 'south', product: 'apple', year: 2023, amount: 7 },
  { region: 'south', product: 'plum', year: 2022, amount: 3 },
  { region: 'south', product: null, year: 2023, amount: 2 },
  { region: null, product: 'pear', year: 2022, amount: 6 },
  { region: null, product: 'pear', year: 2023, amount: 9 },
  { region: 'east', product: 'plum', year: 2023, amount: 8 },
];
type Dim = 'region' | 'product' | 'year';
type Measure = 'count' | 'sum' | 'avg';
const MEASURES: Measure[] = ['count', 'sum', 'avg'];
const TITLES: Record<string, string> = {
  region: 'Region',
  product: 'Product',
  year: 'Year',
  count: 'Count',
  sum: 'Sum of Amount',
  avg: 'Average of Amount',
};

const col = (name: string, source: 'breakout' | 'aggregation', i: number) => ({
  name,
  display_name: TITLES[name] ?? name,
  source,
  field_ref: source === 'breakout' ? ['field', 100 + i, null] : ['aggregation', i],
});

/**
 * What POST /api/dataset/pivot answers for these breakouts: the breakouts, pivot-grouping, count, sum and avg of
 * amount, one block of rows per grouping (all of them, as without a split), each grouped as GROUP BY would.
 */
function pivotAnswer(dims: Dim[], sales: Sale[] = SALES) {
  const cols = [
    ...dims.map((d, i) => col(d, 'breakout', i)),
    { name: 'pivot-grouping', display_name: 'pivot-grouping', source: 'breakout', field_ref: ['expression', 'pivot-grouping'] },
    ...MEASURES.map((m, i) => col(m, 'aggregation', i)),
  ];
  const rows: unknown[][] = [];
  for (let mask = 0; mask < 1 << dims.length; mask++) {
    const groups = new Map<string, { key: unknown[]; amounts: number[] }>();
    for (const s of sales) {
      const key = dims.map((d, i) => ((mask & (1 << i)) === 0 ? s[d] : null));
      const k = JSON.stringify(key);
      if (!groups.has(k)) groups.set(k, { key, amounts: [] });
      groups.get(k)!.amounts.push(s.amount);
    }
    for (const { key, amounts } of groups.values()) {
      const sum = amounts.reduce((a, b) => a + b, 0);
      rows.push([...key, mask, amounts.length, sum, sum / amounts.length]);
    }
  }
  return { cols, rows };
}

/** The detail rows (pivot-grouping 0) of the answer as records: the tests' totals are sums of these only. */
function detailOf(answer: { cols: { name: string }[]; rows: unknown[][] }) {
  const g = answer.cols.findIndex((c) => c.name === 'pivot-grouping');
  return answer.rows
    .filter((r) => r[g] === 0)
    .map((r) => Object.fromEntries(answer.cols.map((c, i) => [c.name, r[i]])) as Record<string, unknown>);
}

/** Count or sum over the detail rows matching every given breakout value. */
function total(detail: Record<string, unknown>[], filter: Partial<Record<Dim, unknown>>, measure: 'count' | 'sum'): number {
  return detail.filter((r) => Object.entries(filter).every(([k, v]) => r[k] === v)).reduce((n, r) => n + (r[measure] as number), 0);
}

const label = (v: unknown) => (v === null ? '(empty)' : String(v));

/**
 * Reads the layout back as a person would: each row's row-breakout values (a "Totals for" row: its group, from the
 * rows above), each column's column-breakout values and value from the headers, and checks every count and sum cell
 * against the detail rows' sums. Returns how many cells were checked.
 */
function checkEveryCell(layout: PivotLayout, detail: Record<string, unknown>[], rowDims: Dim[], colDims: Dim[], values: Measure[]): number {
  const valueLevel = values.length > 1 || colDims.length === 0 ? 1 : 0;
  expect(layout.headerRows).toHaveLength(colDims.length + valueLevel);
  const colFilters = layout.titles.slice(rowDims.length).map((_, c) => {
    const at = rowDims.length + c;
    const filter: Partial<Record<Dim, unknown>> = {};
    const totals = layout.headerRows[0][at] === 'Row totals';
    if (!totals) {
      colDims.forEach((d, level) => {
        const text = layout.headerRows[level][at];
        const match = detail.map((r) => r[d]).find((v) => label(v) === text);
        expect(match === undefined ? text : label(match)).toBe(text);
        filter[d] = match;
      });
    }
    const valueTitle = valueLevel ? layout.headerRows[layout.headerRows.length - 1][at] : TITLES[values[0]];
    const measure = values.find((m) => TITLES[m] === valueTitle)!;
    return { filter, measure };
  });
  let previous: unknown[] = [];
  let checked = 0;
  for (const row of layout.rows) {
    const filter: Partial<Record<Dim, unknown>> = {};
    const totalsAt = row.slice(0, rowDims.length).findIndex((v) => typeof v === 'string' && /^(Totals for |Grand totals$)/.test(v));
    if (totalsAt < 0) rowDims.forEach((d, i) => (filter[d] = row[i]));
    else if (row[totalsAt] !== 'Grand totals') {
      rowDims.slice(0, totalsAt + 1).forEach((d, i) => (filter[d] = previous[i]));
      expect(row[totalsAt]).toBe(`Totals for ${label(previous[totalsAt])}`);
      expect(row.slice(0, totalsAt)).toEqual(previous.slice(0, totalsAt));
    }
    if (totalsAt < 0) previous = row;
    colFilters.forEach(({ filter: byCol, measure }, c) => {
      if (measure === 'avg') return;
      const expected = total(detail, { ...filter, ...byCol }, measure);
      const cell = row[rowDims.length + c];
      if (expected === 0) expect(cell).toBeNull();
      else expect(cell).toBe(expected);
      checked++;
    });
  }
  return checked;
}

describe('layoutPivot', () => {
  it('one row and one column breakout: a column per year, the row totals, the grand totals row', () => {
    const answer = pivotAnswer(['region', 'year']);
    const split = { rows: ['region'], columns: ['year'], values: ['sum'] };
    const layout = layoutPivot(answer.cols, answer.rows, { 'pivot_table.column_split': split });
    expect(layout.titles).toEqual(['Region', '2022', '2023', 'Row totals']);
    expect(layout.headerRows).toEqual([['Region', '2022', '2023', 'Row totals']]);
    expect(layout.sources).toEqual([0, 4, 4, 4]);
    const detail = detailOf(answer);
    expect(layout.rows).toEqual([
      ['north', total(detail, { region: 'north', year: 2022 }, 'sum'), 4, 20],
      ['south', 3, 9, 12],
      [null, 6, 9, 15],
      ['east', null, 8, 8],
      ['Grand totals', 25, 30, 55],
    ]);
    expect(checkEveryCell(layout, detail, ['region'], ['year'], ['sum'])).toBe(15);
    expect(layout.rows[4][3]).toBe(SALES.reduce((n, s) => n + s.amount, 0));
  });

  it('two row breakouts: a "Totals for" row after each region, with its region as a person reads it', () => {
    const answer = pivotAnswer(['region', 'product', 'year']);
    const split = { rows: ['region', 'product'], columns: ['year'], values: ['count'] };
    const layout = layoutPivot(answer.cols, answer.rows, { 'pivot_table.column_split': split });
    expect(layout.titles).toEqual(['Region', 'Product', '2022', '2023', 'Row totals']);
    const heads = layout.rows.map((r) => r.slice(0, 2));
    expect(heads).toEqual([
      ['north', 'apple'],
      ['north', 'pear'],
      ['Totals for north', null],
      ['south', 'apple'],
      ['south', 'plum'],
      ['south', null],
      ['Totals for south', null],
      [null, 'pear'],
      ['Totals for (empty)', null],
      ['east', 'plum'],
      ['Totals for east', null],
      ['Grand totals', null],
    ]);
    const detail = detailOf(answer);
    expect(checkEveryCell(layout, detail, ['region', 'product'], ['year'], ['count'])).toBe(36);
    expect(layout.rows[2].slice(2)).toEqual([3, 1, 4]);
    expect(layout.rows[11].slice(2)).toEqual([5, 5, 10]);
  });

  it('three row breakouts: subtotals at both outer levels, the outer value kept on the inner subtotal rows', () => {
    const answer = pivotAnswer(['region', 'product', 'year']);
    const layout = layoutPivot(answer.cols, answer.rows, {
      'pivot_table.column_split': { rows: ['region', 'product', 'year'], columns: [], values: ['count', 'sum'] },
    });
    expect(layout.titles).toEqual(['Region', 'Product', 'Year', 'Count', 'Sum of Amount']);
    expect(layout.rows.slice(0, 5)).toEqual([
      ['north', 'apple', 2022, 2, 11],
      ['north', 'apple', 2023, 1, 4],
      ['north', 'Totals for apple', null, 3, 15],
      ['north', 'pear', 2022, 1, 5],
      ['north', 'Totals for pear', null, 1, 5],
    ]);
    expect(layout.rows[5]).toEqual(['Totals for north', null, null, 4, 20]);
    expect(checkEveryCell(layout, detailOf(answer), ['region', 'product', 'year'], [], ['count', 'sum'])).toBe(2 * layout.rows.length);
  });

  it('two column breakouts and several values: a header row per level, each value under every leaf and under the row totals', () => {
    const answer = pivotAnswer(['region', 'product', 'year']);
    const split = { rows: ['year'], columns: ['region', 'product'], values: ['count', 'sum'] };
    const layout = layoutPivot(answer.cols, answer.rows, { 'pivot_table.column_split': split });
    expect(layout.headerRows).toHaveLength(3);
    expect(layout.headerRows[0].slice(0, 7)).toEqual([null, 'north', 'north', 'north', 'north', 'south', 'south']);
    expect(layout.headerRows[1].slice(0, 7)).toEqual([null, 'apple', 'apple', 'pear', 'pear', 'apple', 'apple']);
    expect(layout.headerRows[2].slice(0, 3)).toEqual(['Year', 'Count', 'Sum of Amount']);
    expect(layout.titles.slice(0, 3)).toEqual(['Year', 'north / apple / Count', 'north / apple / Sum of Amount']);
    expect(layout.titles.slice(-2)).toEqual(['Row totals / Count', 'Row totals / Sum of Amount']);
    // north: apple, pear; south: apple, plum, (empty); (empty): pear; east: plum; then the row totals: 8 leaves of 2 values.
    expect(layout.titles).toHaveLength(1 + 8 * 2);
    expect(layout.titles).toContain('south / (empty) / Count');
    expect(layout.sources).toEqual([2, ...Array.from({ length: 8 }, () => [4, 5]).flat()]);
    expect(layout.rows.map((r) => r[0])).toEqual([2022, 2023, 'Grand totals']);
    expect(checkEveryCell(layout, detailOf(answer), ['year'], ['region', 'product'], ['count', 'sum'])).toBe(3 * 16);
  });

  it("takes the cells of the query, never sums of its own: an average subtotal is the subtotal row's average", () => {
    const answer = pivotAnswer(['region', 'year']);
    const layout = layoutPivot(answer.cols, answer.rows, {
      'pivot_table.column_split': { rows: ['region'], columns: ['year'], values: ['avg'] },
    });
    const north = SALES.filter((s) => s.region === 'north');
    expect(layout.rows[0][3]).toBe(north.reduce((n, s) => n + s.amount, 0) / north.length);
    const grand = layout.rows[layout.rows.length - 1];
    expect(grand[3]).toBe(SALES.reduce((n, s) => n + s.amount, 0) / SALES.length);
  });

  it('one row breakout only: the values beside it and a grand totals row, no row totals column', () => {
    const answer = pivotAnswer(['product']);
    const layout = layoutPivot(answer.cols, answer.rows, {
      'pivot_table.column_split': { rows: ['product'], columns: [], values: ['count', 'sum'] },
    });
    expect(layout.titles).toEqual(['Product', 'Count', 'Sum of Amount']);
    expect(layout.rows.map((r) => r[0])).toEqual(['apple', 'pear', 'plum', null, 'Grand totals']);
    expect(checkEveryCell(layout, detailOf(answer), ['product'], [], ['count', 'sum'])).toBe(10);
  });

  it('one column breakout only: a single row of values per year and the row totals', () => {
    const answer = pivotAnswer(['year']);
    const layout = layoutPivot(answer.cols, answer.rows, { 'pivot_table.column_split': { rows: [], columns: ['year'], values: ['sum'] } });
    expect(layout.titles).toEqual(['2022', '2023', 'Row totals']);
    expect(layout.rows).toEqual([[25, 30, 55]]);
  });

  it('an empty result: the headers and no rows', () => {
    const answer = pivotAnswer(['region', 'year'], []);
    expect(answer.rows).toEqual([]);
    const layout = layoutPivot(answer.cols, answer.rows, {
      'pivot_table.column_split': { rows: ['region'], columns: ['year'], values: ['count'] },
    });
    expect(layout).toEqual({ titles: ['Region', 'Count'], headerRows: [['Region', 'Count']], rows: [], sources: [0, 3] });
  });

  it('no grand totals row for a single outer row value, no row totals for a single outer column value (as Metabase)', () => {
    const answer = pivotAnswer(
      ['region', 'year'],
      SALES.filter((s) => s.region === 'north' && s.year === 2022),
    );
    const layout = layoutPivot(answer.cols, answer.rows, {
      'pivot_table.column_split': { rows: ['region'], columns: ['year'], values: ['sum'] },
    });
    expect(layout.titles).toEqual(['Region', '2022']);
    expect(layout.rows).toEqual([['north', 16]]);
  });

  it('follows the totals settings and the sort order of a column', () => {
    const answer = pivotAnswer(['region', 'product', 'year']);
    const split = { rows: ['region', 'product'], columns: ['year'], values: ['count'] };
    const base = { 'pivot_table.column_split': split };
    const noTotals = layoutPivot(answer.cols, answer.rows, { ...base, 'pivot.show_row_totals': false, 'pivot.show_column_totals': false });
    expect(noTotals.titles).toEqual(['Region', 'Product', '2022', '2023']);
    expect(noTotals.rows.some((r) => typeof r[0] === 'string' && /Totals/.test(r[0]))).toBe(false);
    expect(noTotals.rows).toHaveLength(7);

    const noSubtotals = layoutPivot(answer.cols, answer.rows, {
      ...base,
      column_settings: { '["name","region"]': { 'pivot_table.column_show_totals': false } },
    });
    expect(noSubtotals.rows.map((r) => r[0]).filter((v) => typeof v === 'string' && v.includes('Totals'))).toEqual([]);
    expect(noSubtotals.rows[noSubtotals.rows.length - 1][0]).toBe('Grand totals');

    const condensed = layoutPivot(answer.cols, answer.rows, { ...base, 'pivot.condense_duplicate_totals': true });
    expect(condensed.rows.map((r) => r[0]).filter((v) => typeof v === 'string' && v.startsWith('Totals'))).toEqual([
      'Totals for north',
      'Totals for south',
    ]);

    const sorted = layoutPivot(answer.cols, answer.rows, {
      ...base,
      column_settings: {
        '["ref",["field",100,null]]': { 'pivot_table.column_sort_order': 'descending' },
        '["name","year"]': { 'pivot_table.column_sort_order': 'descending' },
      },
    });
    expect(sorted.titles).toEqual(['Region', 'Product', '2023', '2022', 'Row totals']);
    expect(sorted.rows.map((r) => r[0]).filter((v) => v !== null && !String(v).includes('otals'))).toEqual([
      'south',
      'south',
      'south',
      'north',
      'north',
      'east',
    ]);
    expect(checkEveryCell(sorted, detailOf(answer), ['region', 'product'], ['year'], ['count'])).toBe(36);
  });

  it("reads a split of field refs and aggregation refs, else the query's own pivot rows and columns", () => {
    const answer = pivotAnswer(['region', 'year']);
    const byRef = layoutPivot(answer.cols, answer.rows, {
      'pivot_table.column_split': {
        rows: [['field', 100, { 'base-type': 'type/Text' }]],
        columns: [['field', 101, null]],
        values: [['aggregation', 1]],
      },
    });
    const byName = layoutPivot(answer.cols, answer.rows, {
      'pivot_table.column_split': { rows: ['region'], columns: ['year'], values: ['sum'] },
    });
    expect(byRef).toEqual(byName);
    const byOptions = layoutPivot(answer.cols, answer.rows, {}, { pivotRows: [0], pivotCols: [1] });
    expect(byOptions.titles).toEqual([
      'Region',
      '2022 / Count',
      '2022 / Sum of Amount',
      '2022 / Average of Amount',
      '2023 / Count',
      '2023 / Sum of Amount',
      '2023 / Average of Amount',
      'Row totals / Count',
      'Row totals / Sum of Amount',
      'Row totals / Average of Amount',
    ]);
    const allRows = layoutPivot(answer.cols, answer.rows, {});
    expect(allRows.titles).toEqual(['Region', 'Year', 'Count', 'Sum of Amount', 'Average of Amount']);
  });

  it('labels headers and totals with the given formatter, and titles columns by their column_title', () => {
    const answer = pivotAnswer(['region', 'year']);
    const layout = layoutPivot(
      answer.cols,
      answer.rows,
      {
        'pivot_table.column_split': { rows: ['region'], columns: ['year'], values: ['sum'] },
        column_settings: { '["name","region"]': { column_title: 'Area' } },
      },
      { label: (v, c) => (c === 0 ? `<${String(v)}>` : `FY${String(v)}`) },
    );
    expect(layout.titles).toEqual(['Area', 'FY2022', 'FY2023', 'Row totals']);
    // Row-header cells keep their raw values (typed cells); only the labels are formatted.
    expect(layout.rows[0][0]).toBe('north');
  });

  it("a breakout in neither rows nor columns: the query's grouping without it, else the last detail row (as Metabase)", () => {
    const answer = pivotAnswer(['region', 'product']);
    const split = { 'pivot_table.column_split': { rows: ['region'], columns: [], values: ['count'] } };
    expect(layoutPivot(answer.cols, answer.rows, split).rows[0]).toEqual(['north', 4]);
    const detailOnly = answer.rows.filter((r) => r[2] === 0);
    expect(layoutPivot(answer.cols, detailOnly, split).rows[0]).toEqual(['north', 1]);
  });
});
