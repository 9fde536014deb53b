import { normalizeDatasetQuery } from '../../src/query-engine/mbql/normalize';
import type { ResultColumn } from '../../web/src/app/api/dataset';
import { sourceColumns, type TableMetadata } from '../../web/src/app/notebook/columns';
import type { Mbql5Query } from '../../web/src/app/notebook/types';
import { adhocPath, parseAdhoc } from '../../web/src/app/question/adhoc';
import { breakOut, drillActions, toMbql5Ref, underlyingRecords, zoomIn, type DrillClick } from '../../web/src/app/question/drill/drill';
import { eventMarkers, periodKey } from '../../web/src/app/question/timelines/event-markers';

/** Drill-through's pure part: the MBQL 5 each action writes, read back by the server's normalizer. */
const orders: TableMetadata = {
  id: 3,
  db_id: 1,
  display_name: 'Orders',
  fields: [
    { id: 30, name: 'ID', display_name: 'ID', base_type: 'type/Integer', semantic_type: 'type/PK' },
    { id: 31, name: 'CATEGORY', display_name: 'Category', base_type: 'type/Text', semantic_type: 'type/Category' },
    { id: 32, name: 'CREATED_AT', display_name: 'Created At', base_type: 'type/DateTime', semantic_type: null },
    { id: 33, name: 'TOTAL', display_name: 'Total', base_type: 'type/Float', semantic_type: null },
    { id: 34, name: 'STATE', display_name: 'State', base_type: 'type/Text', semantic_type: 'type/State' },
  ],
};
const u = (n: number) => ({ 'lib/uuid': `00000000-0000-4000-8000-00000000000${n}` });
const byCategory: Mbql5Query = {
  'lib/type': 'mbql/query',
  database: 1,
  stages: [
    {
      'lib/type': 'mbql.stage/mbql',
      'source-table': 3,
      filters: [['>', u(1), ['field', { ...u(2), 'base-type': 'type/Float' }, 33], 10]],
      aggregation: [['count', u(3)]],
      breakout: [['field', { ...u(4), 'base-type': 'type/Text' }, 31]],
      'order-by': [['asc', u(5), ['field', u(6), 31]]],
    },
  ],
};
const byMonth: Mbql5Query = {
  ...byCategory,
  stages: [
    {
      ...byCategory.stages[0],
      filters: undefined,
      'order-by': undefined,
      breakout: [['field', { ...u(7), 'temporal-unit': 'month' }, 32]],
    },
  ],
};
const cols = (...c: Array<[string, string, string?]>): ResultColumn[] =>
  c.map(([name, base_type, source]) => ({ name, display_name: name, base_type, source }));
const catClick: DrillClick = {
  query: byCategory,
  cols: cols(['CATEGORY', 'type/Text', 'breakout'], ['count', 'type/Integer', 'aggregation']),
  row: ['Gizmo', 12],
  colIndex: 1,
};
const monthClick: DrillClick = {
  query: byMonth,
  cols: [{ ...cols(['CREATED_AT', 'type/DateTime', 'breakout'])[0], unit: 'month' }, ...cols(['count', 'type/Integer', 'aggregation'])],
  row: ['2024-03-01T00:00:00Z', 7],
  colIndex: 1,
};
/** A clause without its options' uuids, for comparing shapes. */
const shape = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(shape)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => k !== 'lib/uuid')
            .map(([k, x]) => [k, shape(x)]),
        )
      : v;
const stage = (q: Mbql5Query) => shape(q.stages[q.stages.length - 1]) as Record<string, unknown>;
const readable = (q: Mbql5Query) => expect(() => normalizeDatasetQuery(q as never)).not.toThrow();

describe('drill-through actions', () => {
  it('offers filters, the records, and break outs by other category, date and location columns of a bar', () => {
    const actions = drillActions(catClick, sourceColumns(orders, false), 'Orders');
    expect(actions.map((a) => a.label)).toEqual([
      'Is this value (=)',
      'Is not this value (≠)',
      'View these Orders',
      'X-ray these Orders',
      'Created At: Month',
      'State',
    ]);
    for (const a of actions) readable(a.query);
  });

  it('filters by the clicked value, keeping the summary and the other filters', () => {
    const [is, isNot] = drillActions(catClick, [], 'Orders');
    expect(stage(is.query).filters).toEqual([
      ['>', {}, ['field', { 'base-type': 'type/Float' }, 33], 10],
      ['=', {}, ['field', { 'base-type': 'type/Text' }, 31], 'Gizmo'],
    ]);
    expect(stage(isNot.query).aggregation).toEqual([['count', {}]]);
    expect((stage(isNot.query).filters as unknown[])[1]).toEqual(['!=', {}, ['field', { 'base-type': 'type/Text' }, 31], 'Gizmo']);
    expect(is.display).toBeUndefined();
  });

  it('offers < and > (before / after) on numbers and dates, and an empty value becomes is-null', () => {
    expect(drillActions(monthClick, [], 'Orders').map((a) => a.id)).toEqual([
      'filter:=',
      'filter:!=',
      'filter:<',
      'filter:>',
      'records',
      'xray',
      'zoom',
    ]);
    const empty = drillActions({ ...catClick, row: [null, 3] }, [], 'Orders');
    expect((stage(empty[0].query).filters as unknown[])[1]).toEqual(['is-null', {}, ['field', { 'base-type': 'type/Text' }, 31]]);
    expect((stage(empty[1].query).filters as unknown[])[1]).toEqual(['not-null', {}, ['field', { 'base-type': 'type/Text' }, 31]]);
  });

  it('views the underlying records: the point as filters, no summary, sort or limit', () => {
    const q = underlyingRecords({ ...catClick, query: { ...byCategory, stages: [{ ...byCategory.stages[0], limit: 5 }] } });
    expect(stage(q)).toEqual({
      'lib/type': 'mbql.stage/mbql',
      'source-table': 3,
      filters: [
        ['>', {}, ['field', { 'base-type': 'type/Float' }, 33], 10],
        ['=', {}, ['field', { 'base-type': 'type/Text' }, 31], 'Gizmo'],
      ],
    });
    readable(q);
  });

  it('zooms a month into its days, filtered to that month', () => {
    const q = zoomIn(monthClick)!;
    expect(stage(q).breakout).toEqual([['field', { 'temporal-unit': 'day' }, 32]]);
    expect(stage(q).filters).toEqual([['=', {}, ['field', { 'temporal-unit': 'month' }, 32], '2024-03-01T00:00:00Z']]);
    readable(q);
    expect(zoomIn(catClick)).toBeNull();
    const day = { ...byMonth, stages: [{ ...byMonth.stages[0], breakout: [['field', { ...u(8), 'temporal-unit': 'day' }, 32]] }] };
    const dateOnly = { ...monthClick, query: day, cols: [{ ...monthClick.cols[0], base_type: 'type/Date' }, monthClick.cols[1]] };
    expect(zoomIn(dateOnly)).toBeNull();
  });

  it('breaks the point out by another column (dates by month)', () => {
    const created = sourceColumns(orders, false).find((c) => c.name === 'CREATED_AT')!;
    const q = breakOut(catClick, created);
    expect(stage(q).breakout).toEqual([['field', { 'base-type': 'type/DateTime', 'temporal-unit': 'month' }, 32]]);
    expect(stage(q)['order-by']).toBeUndefined();
    expect((stage(q).filters as unknown[]).length).toBe(2);
  });

  it('on raw rows filters by the cell through its field_ref, and offers nothing without one', () => {
    const raw: Mbql5Query = { 'lib/type': 'mbql/query', database: 1, stages: [{ 'lib/type': 'mbql.stage/mbql', 'source-table': 3 }] };
    const c: DrillClick = {
      query: raw,
      cols: [{ name: 'TOTAL', display_name: 'Total', base_type: 'type/Float', field_ref: ['field', 33, null] }],
      row: [42],
      colIndex: 0,
    };
    const actions = drillActions(c, sourceColumns(orders, false), 'Orders');
    expect(actions.map((a) => a.id)).toEqual(['filter:=', 'filter:!=', 'filter:<', 'filter:>']);
    expect(stage(actions[3].query).filters).toEqual([['>', {}, ['field', {}, 33], 42]]);
    expect(drillActions({ ...c, cols: [{ ...c.cols[0], field_ref: undefined }] }, [], 'Orders')).toEqual([]);
    // A primary key's cell opens the row's detail instead.
    expect(drillActions({ ...c, cols: [{ ...c.cols[0], semantic_type: 'type/PK' }] }, [], 'Orders')).toEqual([]);
    expect(shape(toMbql5Ref(['expression', 'Net', { 'base-type': 'type/Float' }]))).toEqual([
      'expression',
      { 'base-type': 'type/Float' },
      'Net',
    ]);
  });
});

describe('ad-hoc question URLs', () => {
  it('round-trips a card with non-ASCII text through the hash', () => {
    const card = {
      dataset_query: byCategory as never,
      display: 'bar',
      visualization_settings: { 'card.title': 'Ventes — été' },
      original_card_id: 4,
    };
    const path = adhocPath(card);
    expect(path).toMatch(/^\/question#[A-Za-z0-9+/=]+$/);
    expect(parseAdhoc(path.slice('/question'.length))).toEqual(card);
    expect(parseAdhoc('#not-base64!')).toBeNull();
    expect(parseAdhoc('')).toBeNull();
  });
});

describe('timeline event markers', () => {
  it('keys a timestamp by the period of the unit', () => {
    expect(periodKey('2024-03-15T10:20:00Z', 'year')).toBe('2024');
    expect(periodKey('2024-03-15T10:20:00Z', 'quarter')).toBe('2024-Q1');
    expect(periodKey('2024-03-15T10:20:00Z', 'month')).toBe('2024-03');
    expect(periodKey('2024-03-15T10:20:00Z', 'week')).toBe('2024-03-10');
    expect(periodKey('2024-03-15T10:20:00Z', undefined)).toBe('2024-03-15');
    expect(periodKey('soon', 'day')).toBeNull();
  });

  it('places each event at the x value of its period, leaving out archived ones and those outside the answer', () => {
    const ev = (id: number, name: string, timestamp: string, archived = false) => ({
      id,
      timeline_id: 1,
      name,
      timestamp,
      time_matters: false,
      archived,
    });
    const markers = eventMarkers(
      [ev(1, 'Launch', '2024-03-15T00:00:00Z'), ev(2, 'Old', '2023-01-02T00:00:00Z'), ev(3, 'Gone', '2024-03-02T00:00:00Z', true)],
      monthClick.cols,
      [
        ['2024-02-01T00:00:00Z', 3],
        ['2024-03-01T00:00:00Z', 7],
      ],
    );
    expect(markers).toEqual([{ key: '1', x: '2024-03-01T00:00:00Z', label: 'Launch' }]);
    expect(eventMarkers([ev(1, 'Launch', '2024-03-15T00:00:00Z')], catClick.cols, [['Gizmo', 1]])).toEqual([]);
  });
});
