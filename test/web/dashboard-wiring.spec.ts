import type { DashcardCard, DashcardData } from '../../web/src/app/api/dashboard-types';
import { autoWireTargets, filterSection, targetOptions, wiringForNewCard } from '../../web/src/app/dashboards/edit/mapping';

const ORDERS = 2;
const PRODUCTS = 3;
const CATEGORY = 31;
const CREATED_AT = 21;

function card(id: number, over: Partial<DashcardCard> = {}): DashcardCard {
  return {
    id,
    name: `Card ${id}`,
    display: 'table',
    visualization_settings: {},
    table_id: ORDERS,
    dataset_query: { type: 'query' },
    ...over,
  };
}

function dashcard(id: number, c: DashcardCard, mappings: DashcardData['parameter_mappings'] = []): DashcardData {
  return {
    id,
    card_id: c.id,
    card: c,
    dashboard_tab_id: null,
    col: 0,
    row: 0,
    size_x: 6,
    size_y: 4,
    parameter_mappings: mappings,
    visualization_settings: {},
  };
}

const viaProduct = ['field', CATEGORY, { 'source-field': 11 }];
const nativeOnCategory = card(9, {
  table_id: null,
  dataset_query: {
    type: 'native',
    native: {
      'template-tags': {
        cat: { name: 'cat', type: 'dimension', dimension: ['field', CATEGORY, null] },
        n: { name: 'n', type: 'number' },
      },
    },
  },
});

describe("a dashboard filter's columns on a card", () => {
  const table = {
    id: ORDERS,
    fields: [
      { id: 20, name: 'ID', display_name: 'ID', base_type: 'type/BigInteger', semantic_type: 'type/PK' },
      { id: CREATED_AT, name: 'CREATED_AT', display_name: 'Created At', base_type: 'type/DateTime' },
      { id: 22, name: 'TOTAL', display_name: 'Total', base_type: 'type/Float' },
      { id: 23, name: 'STATUS', display_name: 'Status', base_type: 'type/Text', semantic_type: 'type/Category' },
    ],
  };

  it('offers the columns of the filter’s kind first, and only those as suggested', () => {
    const suggested = (type: string, sectionId?: string) =>
      targetOptions(card(1), table, { type, sectionId, name: 'x' })
        .filter((o) => o.suggested)
        .map((o) => o.label);
    expect(suggested('date/all-options', 'date')).toEqual(['Created At']);
    expect(suggested('number/between', 'number')).toEqual(['Total']);
    expect(suggested('id', 'id')).toEqual(['ID']);
    expect(suggested('string/=', 'string')).toEqual(['Status']);
    expect(suggested('category')).toEqual(['Status']);
    // Every column stays on offer, after the suggestions.
    expect(targetOptions(card(1), table, { type: 'date/single', name: 'x' }).map((o) => o.label)).toEqual([
      'Created At',
      'ID',
      'Total',
      'Status',
    ]);
  });

  it('puts a column named as the filter first among the suggestions', () => {
    const two = { ...table, fields: [...table.fields, { id: 24, name: 'SOURCE', display_name: 'Source', base_type: 'type/Text' }] };
    expect(targetOptions(card(1), two, { type: 'string/=', sectionId: 'string', name: 'Source' })[0].label).toBe('Source');
  });

  it("offers a native question's field filters and the variables of the filter's kind", () => {
    const options = targetOptions(nativeOnCategory, undefined, { type: 'number/=', name: 'x' });
    expect(options.map((o) => [o.label, o.suggested, JSON.parse(o.value)[0]])).toEqual([
      ['cat', true, 'dimension'],
      ['n', true, 'variable'],
    ]);
    expect(targetOptions(nativeOnCategory, undefined, { type: 'date/single', name: 'x' }).find((o) => o.label === 'n')!.suggested).toBe(
      false,
    );
  });

  it('reads a section from the type when the parameter has none', () => {
    expect(filterSection({ type: 'number/between' })).toBe('number');
    expect(filterSection({ type: 'category' })).toBe('string');
    expect(filterSection({ type: 'string/=', sectionId: 'location' })).toBe('location');
  });
});

describe('wiring the other cards by themselves', () => {
  const target = ['dimension', viaProduct];
  const wired = dashcard(1, card(1));
  const sameTable = dashcard(2, card(2));
  const otherTable = dashcard(3, card(3, { table_id: PRODUCTS }));
  const carriesCategory = dashcard(
    4,
    card(4, { table_id: PRODUCTS, result_metadata: [{ name: 'CATEGORY', field_ref: ['field', CATEGORY, null] }] }),
  );
  const native = dashcard(5, nativeOnCategory);
  const alreadyWired = dashcard(6, card(6), [{ parameter_id: 'p', card_id: 6, target: ['dimension', ['field', 22, null]] }]);

  it('wires the questions on the same table to the same column, and leaves the others and the wired ones alone', () => {
    expect(autoWireTargets([wired, sameTable, otherTable, alreadyWired], wired, 'p', target)).toEqual([{ dashcardId: 2, target }]);
  });

  it("follows a column's field to the questions that show it and the native questions that filter it", () => {
    const plain = ['dimension', ['field', CATEGORY, null]];
    const fromProducts = dashcard(7, card(7, { table_id: PRODUCTS }));
    expect(autoWireTargets([fromProducts, carriesCategory, native, otherTable], fromProducts, 'p', plain)).toEqual([
      { dashcardId: 4, target: plain },
      { dashcardId: 5, target: ['dimension', ['template-tag', 'cat']] },
      { dashcardId: 3, target: plain },
    ]);
    // Through a foreign key the column is not the field itself: only the same table's questions take it.
    expect(autoWireTargets([wired, carriesCategory, native], wired, 'p', target)).toEqual([]);
  });

  it('starts from a native field filter too', () => {
    expect(autoWireTargets([native, carriesCategory], native, 'p', ['dimension', ['template-tag', 'cat']])).toEqual([
      { dashcardId: 4, target: ['dimension', ['field', CATEGORY, null]] },
    ]);
    expect(autoWireTargets([native, carriesCategory], native, 'p', ['variable', ['template-tag', 'n']])).toEqual([]);
  });

  it('wires a card just added to each filter another card of its table is wired to', () => {
    const first = dashcard(1, card(1), [{ parameter_id: 'p', card_id: 1, target }]);
    const added = dashcard(-1, card(8));
    const params = [
      { id: 'p', name: 'Category', slug: 'category', type: 'string/=' },
      { id: 'q', name: 'Other', slug: 'other', type: 'string/=' },
    ];
    expect(wiringForNewCard(added, [first, added], params)).toEqual([{ parameter_id: 'p', card_id: 8, target }]);
    expect(wiringForNewCard(dashcard(-2, card(10, { table_id: PRODUCTS })), [first], params)).toEqual([]);
  });
});
