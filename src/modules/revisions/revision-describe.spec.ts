import { buildSentence, changeParts, describeChanges, diffSnapshots } from './revision-describe';

const card = { model: 'Card' };

describe('describeChanges', () => {
  it('names the object first and says "it" after', () => {
    expect(describeChanges({ name: 'A', archived: false }, { name: 'B', archived: true }, card)).toBe(
      'renamed this Card from "A" to "B" and archived it.',
    );
    expect(describeChanges({ archived: true }, { archived: false }, { model: 'Dashboard' })).toBe('unarchived this Dashboard.');
  });

  it('joins several changes as "a, b and c."', () => {
    const s = describeChanges({ name: 'A', description: 'x', display: 'table' }, { name: 'B', description: 'y', display: 'bar' }, card);
    expect(s).toBe('renamed this Card from "A" to "B", changed the description and changed the display from table to bar.');
    expect(buildSentence(['a', 'b', 'c', 'd'])).toBe('a, b, c and d.');
    expect(buildSentence([])).toBeNull();
  });

  it('tells adding a description from changing it', () => {
    expect(describeChanges({ description: null }, { description: 'new' }, card)).toBe('added a description.');
    expect(describeChanges({ description: 'old' }, { description: null }, card)).toBe('changed the description.');
  });

  it('names the collections of a move, Root as "Our analytics"', () => {
    const collectionNames = new Map([
      [1, 'Sales'],
      [2, 'Ops'],
    ]);
    expect(describeChanges({ collection_id: null }, { collection_id: 1 }, { ...card, collectionNames })).toBe('moved this Card to Sales.');
    expect(describeChanges({ collection_id: 1 }, { collection_id: 2 }, { ...card, collectionNames })).toBe(
      'moved this Card from Sales to Ops.',
    );
    expect(describeChanges({ collection_id: 2 }, { collection_id: null }, { ...card, collectionNames })).toBe(
      'moved this Card from Ops to Our analytics.',
    );
    expect(describeChanges({ collection_id: 7 }, { collection_id: 8 }, card)).toBe('moved this Card to another collection.');
  });

  it('describes query, settings and type changes as Metabase does, and ignores derived keys', () => {
    expect(describeChanges({ dataset_query: { a: 1 }, table_id: 1 }, { dataset_query: { a: 2 }, table_id: 2 }, card)).toBe(
      'modified the query.',
    );
    expect(describeChanges({ type: 'question' }, { type: 'model' }, card)).toBe('turned this to a model.');
    expect(describeChanges({ visualization_settings: {} }, { visualization_settings: { x: 1 } }, card)).toBe(
      'changed the visualization settings.',
    );
    expect(describeChanges({ table_id: 1, updated_at: 'a' }, { table_id: 2, updated_at: 'b' }, card)).toBeNull();
  });

  it("is null without a previous snapshot or without changes, and takes the owner's own labels", () => {
    expect(describeChanges(null, { name: 'A' }, card)).toBeNull();
    expect(describeChanges({ name: 'A', v: [1, { b: 2 }] }, { name: 'A', v: [1, { b: 2 }] }, card)).toBeNull();
    const labels = { dashcards: () => 'added a card', name: () => null };
    expect(changeParts({ dashcards: [], name: 'a' }, { dashcards: [1], name: 'b' }, { model: 'Dashboard', labels })).toEqual([
      'added a card',
    ]);
  });
});

describe('diffSnapshots', () => {
  it('keeps only the changed keys, nested maps by their changed keys', () => {
    expect(diffSnapshots({ name: 'A', display: 'table', vs: { a: 1, b: 2 } }, { name: 'B', display: 'table', vs: { a: 1, b: 3 } })).toEqual(
      {
        before: { name: 'A', vs: { b: 2 } },
        after: { name: 'B', vs: { b: 3 } },
      },
    );
  });

  it('leaves a side null when it has nothing of its own', () => {
    expect(diffSnapshots({ description: null }, { description: 'x' })).toEqual({ before: null, after: { description: 'x' } });
    expect(diffSnapshots({ a: 1 }, { a: 1 })).toEqual({ before: null, after: null });
  });
});
