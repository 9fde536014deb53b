import type { CollectionItem } from './collection-item-source';
import { compareItems, SortOptions } from './item-order';

const item = (id: number, model: string, name: string, extra: Partial<CollectionItem> = {}): CollectionItem => ({
  id,
  model,
  name,
  last_edited_at: null,
  last_edited_by: null,
  ...extra,
});
const order = (items: CollectionItem[], o: SortOptions) => [...items].sort((a, b) => compareItems(a, b, o)).map((i) => i.id);

describe('collection item order', () => {
  const items = [
    item(1, 'card', 'beta', { last_edited_at: '2026-01-01T00:00:00Z', last_edited_by: 'Bo' }),
    item(2, 'dashboard', 'Alpha', { last_edited_at: '2026-02-01T00:00:00Z', last_edited_by: 'al' }),
    item(3, 'collection', 'gamma', { authority_level: 'official' }),
    item(4, 'collection', 'alpha'),
  ];

  it('puts official collections first, then sorts by name without case, ties by model and id', () => {
    expect(order(items, {})).toEqual([3, 2, 4, 1]);
    expect(order(items, { officialFirst: false })).toEqual([2, 4, 1, 3]);
    expect(order(items, { officialFirst: false, sortDirection: 'desc' })).toEqual([3, 1, 2, 4]);
  });

  it('sorts by model rank and by last edit, with nulls last either way', () => {
    expect(order(items, { officialFirst: false, sortColumn: 'model' })).toEqual([2, 1, 4, 3]);
    expect(order(items, { officialFirst: false, sortColumn: 'last_edited_at' })).toEqual([1, 2, 4, 3]);
    expect(order(items, { officialFirst: false, sortColumn: 'last_edited_at', sortDirection: 'desc' })).toEqual([2, 1, 4, 3]);
    expect(order(items, { officialFirst: false, sortColumn: 'last_edited_by' })).toEqual([2, 1, 4, 3]);
  });
});
