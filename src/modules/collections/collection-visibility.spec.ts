import { belowSets, buildTree, effectiveLocation, officialThenNameKey, effectiveParentId } from './collection-visibility';

const node = (id: number, location: string, name = `c${id}`, authority_level: string | null = null) => ({ id, location, name, authority_level });

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

  it('gathers below from every descendant', () => {
    const nodes = [node(1, '/'), node(2, '/1/'), node(3, '/1/2/'), node(4, '/')];
    const here = new Map([[3, new Set(['card'])], [2, new Set(['dashboard'])], [4, new Set(['dataset'])]]);
    const below = belowSets(nodes, (id) => here.get(id) ?? []);
    expect([...below.get(1)!].sort()).toEqual(['card', 'dashboard']);
    expect([...below.get(2)!]).toEqual(['card']);
    expect([...below.get(3)!]).toEqual([]);
    expect([...below.get(4)!]).toEqual([]);
  });
});
