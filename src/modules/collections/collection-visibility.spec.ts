import { buildTree, effectiveLocation, effectiveParentId, modelSets, officialThenNameKey } from './collection-visibility';

const node = (id: number, location: string, name = `c${id}`, authority_level: string | null = null) => ({
  id,
  location,
  name,
  authority_level,
});

describe('collection visibility', () => {
  it('leaves unreadable ancestors out of the effective location', () => {
    const visible = (id: number) => id !== 2;
    expect(effectiveLocation('/1/2/3/', visible)).toBe('/1/3/');
    expect(effectiveLocation('/2/', visible)).toBe('/');
    expect(effectiveParentId('/1/2/', visible)).toBe(1);
    expect(effectiveParentId('/2/', visible)).toBeNull();
  });

  it('hangs nodes under their nearest listed ancestor, sorted official first then by name', () => {
    const nodes = [node(1, '/', 'b'), node(3, '/1/2/', 'x'), node(4, '/', 'A'), node(5, '/1/', 'z'), node(6, '/', 'c', 'official')];
    const tree = buildTree(nodes, officialThenNameKey);
    expect(tree.map((t) => t.node.id)).toEqual([6, 4, 1]);
    const one = tree.find((t) => t.node.id === 1)!;
    expect(one.children.map((t) => t.node.id)).toEqual([3, 5]);
  });

  it('gathers here and below from every descendant', () => {
    const nodes = [node(1, '/'), node(2, '/1/'), node(3, '/1/2/'), node(4, '/')];
    const here = new Map([
      [3, new Set(['card'])],
      [2, new Set(['dashboard', 'card'])],
      [4, new Set(['dataset'])],
    ]);
    const sets = modelSets(nodes, here);
    expect(sets.below(1)).toEqual(['card', 'dashboard']);
    expect(sets.here(2)).toEqual(['card', 'dashboard']);
    expect(sets.below(2)).toEqual(['card']);
    expect([sets.here(1), sets.below(3), sets.below(4), sets.here(99)]).toEqual([[], [], [], []]);
  });
});
