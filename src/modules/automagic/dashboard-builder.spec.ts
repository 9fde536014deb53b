import { buildXray, compareXrays, layout } from './dashboard-builder';
import { TEMPLATES, findTemplate } from './templates';
import { ordersRoot, PEOPLE, PRODUCTS } from './xray-fixture';

const everything = () => true;

describe('x-ray dashboard builder', () => {
  const transactions = findTemplate('table', 'TransactionTable')!;

  it('builds the ORDERS x-ray: named, described, its cards on the table with the best fields', () => {
    const d = buildXray(ordersRoot(), transactions, { show: 'all', mayQuery: everything });
    expect(d.name).toBe('A look at Orders');
    const total = d.cards.find((c) => c.key === 'total-income')!;
    expect(total.title).toBe('Total Total');
    expect(total.datasetQuery).toEqual({
      database: 1,
      type: 'query',
      query: { 'source-table': 2, aggregation: [['sum', ['field', 15, null]]] },
    });
    const byCategory = d.cards.find((c) => c.key.startsWith('income-by-category'))!;
    expect(byCategory.datasetQuery.query.breakout).toEqual([['field', 20, { 'source-field': 12 }]]);
    expect(byCategory.tableIds.sort()).toEqual([1, 2]);
    const perMonth = d.cards.find((c) => c.key === 'income-over-time')!;
    expect(perMonth.datasetQuery.query.breakout).toEqual([['field', 17, { 'temporal-unit': 'month' }]]);
  });

  it('leaves out every card needing a table the caller may not query', () => {
    const d = buildXray(ordersRoot(), transactions, { show: 'all', mayQuery: (t) => t !== PRODUCTS });
    expect(d.cards.length).toBeGreaterThan(5);
    for (const c of d.cards) expect(c.tableIds).not.toContain(PRODUCTS);
    expect(JSON.stringify(d.cards.map((c) => c.datasetQuery))).not.toContain('"source-field":12');
    expect(d.parameters.map((p) => p.field.tableId)).not.toContain(PRODUCTS);
    const none = buildXray(ordersRoot(), transactions, { show: 'all', mayQuery: (t) => t !== PEOPLE && t !== PRODUCTS });
    expect(none.cards.every((c) => c.tableIds.length === 1)).toBe(true);
  });

  it('keeps the best `show` cards in template order', () => {
    const all = buildXray(ordersRoot(), transactions, { show: 'all', mayQuery: everything });
    const three = buildXray(ordersRoot(), transactions, { show: 3, mayQuery: everything });
    expect(three.cards.map((c) => c.key)).toEqual(['total-transactions', 'total-income', 'income-over-time']);
    expect(three.more).toBe(true);
    expect(all.more).toBe(false);
  });

  it('adds the date, category and location filters', () => {
    const d = buildXray(ordersRoot(), transactions, { show: null, mayQuery: everything });
    expect(d.parameters.map((p) => [p.name, p.type, p.sectionId])).toEqual([
      ['Created At', 'date/all-options', 'date'],
      ['Category', 'string/=', 'string'],
      ['Source', 'string/=', 'string'],
      ['State', 'string/=', 'location'],
    ]);
  });

  it('makes a field x-ray from the field template with the field bound', () => {
    const root = ordersRoot();
    const total = root.fields.find((f) => f.name === 'TOTAL')!;
    const d = buildXray(
      { ...root, field: total },
      TEMPLATES.field.find((t) => t.applies_to === 'number')!,
      { show: 'all', mayQuery: everything },
    );
    expect(d.name).toBe('Total by Orders');
    expect(d.cards.find((c) => c.key === 'distribution')!.datasetQuery.query.breakout).toEqual([
      ['field', 15, { binning: { strategy: 'default' } }],
    ]);
  });

  it('pairs the cards of both sides in a comparison and lays them out side by side', () => {
    const left = buildXray({ ...ordersRoot(), filter: ['>', ['field', 15, null], 100], sourceName: 'Big orders' }, transactions, {
      show: 4,
      mayQuery: everything,
    });
    const right = buildXray(ordersRoot(), transactions, { show: 'all', mayQuery: everything });
    const c = compareXrays(left, right, 'Big orders', 'Orders');
    expect(c.name).toBe('Comparison of Big orders and Orders');
    expect(c.cards).toHaveLength(8);
    expect(c.cards[0].datasetQuery.query.filter).toEqual(['>', ['field', 15, null], 100]);
    expect(c.cards[1].datasetQuery.query.filter).toBeUndefined();
    const placed = layout(c, true).filter((x) => x.kind === 'card');
    expect(placed.slice(0, 2).map((p) => [p.at.row, p.at.col])).toEqual([
      [2, 0],
      [2, 12],
    ]);
  });
});
